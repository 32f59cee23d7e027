"""Calendar helpers for the Gregorian calendar."""


def is_leap(year):
    """Return True when year has a 29th of February."""
    return year % 4 == 0 and year % 100 != 0


def days_in_year(year):
    """Return 366 for a leap year and 365 otherwise."""
    return 366 if is_leap(year) else 365
