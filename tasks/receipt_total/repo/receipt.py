"""Receipts for a till."""
from money import show, to_cents


def total(prices):
    """The sum of prices given as strings, as cents."""
    return sum(to_cents(p) for p in prices)


def receipt(prices):
    """One line per price and a total line."""
    lines = [show(to_cents(p)) for p in prices]
    lines.append("total " + show(total(prices)))
    return "\n".join(lines)
