"""Turn dates as people write them into datetime.date values."""
import datetime

MONTHS = [
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
]


def month_number(name):
    """Return 1 for "January" or "jan", 2 for "February", and so on."""
    prefix = name.lower()[:3]
    for number, month in enumerate(MONTHS):
        if month.startswith(prefix):
            return number + 1
    raise ValueError(f"unknown month: {name!r}")


def parse_date(text):
    """Parse "2024-03-05" or "March 5, 2024" into a datetime.date."""
    text = text.strip()
    if text[:1].isdigit():
        year, month, day = text.split("-")
        return datetime.date(int(year), int(month), int(day))
    name, day, year = text.split()
    day = int(day.rstrip(","))
    return datetime.date(int(year), month_number(name), day)
