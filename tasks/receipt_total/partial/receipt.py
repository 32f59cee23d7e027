"""Receipts for a till."""
from money import show


def cents(price):
    """A price given as a string, as cents, rounded to the nearest cent."""
    return round(float(price) * 100)


def total(prices):
    """The sum of prices given as strings, as cents."""
    return sum(cents(p) for p in prices)


def receipt(prices):
    """One line per price and a total line."""
    lines = [show(cents(p)) for p in prices]
    lines.append("total " + show(total(prices)))
    return "\n".join(lines)
