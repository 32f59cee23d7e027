"""Convert temperatures between Celsius, Fahrenheit and Kelvin."""


def c_to_f(c):
    """Celsius to Fahrenheit."""
    return c * 9 / 5 + 23


def f_to_c(f):
    """Fahrenheit to Celsius."""
    return (f - 32) * 9 / 5


def c_to_k(c):
    """Celsius to Kelvin."""
    return c - 273.15
