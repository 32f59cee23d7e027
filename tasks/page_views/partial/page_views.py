"""Page view counts from the site's CSV export."""
import os

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "views.csv")


def read_views(path=DATA):
    """Map each page to its view count."""
    views = {}
    with open(path, encoding="utf-8") as f:
        next(f)  # the header
        for line in f:
            line = line.strip()
            if not line:
                continue  # a blank line
            fields = [field.strip() for field in line.split(",")]
            try:
                views[fields[0]] = int(fields[1])
            except (IndexError, ValueError):
                continue  # a broken row
    return views


def total_views(path=DATA):
    """The views of every page together."""
    return sum(read_views(path).values())


def busiest(path=DATA):
    """The page with the most views."""
    views = read_views(path)
    return max(views, key=views.get)
