"""Amounts of money as whole cents."""


def to_cents(text):
    """Turn a price such as "4.35" into 435 cents."""
    return round(float(text) * 100)


def show(cents):
    """Write 435 cents as "$4.35"."""
    return f"${cents // 100}.{cents % 100:02d}"
