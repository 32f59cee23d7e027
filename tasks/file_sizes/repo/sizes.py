"""File sizes for people and for disk quotas."""

KILO = 1000


def human(n):
    """Write a byte count in binary units: 1536 -> "1.5 KiB"."""
    for unit in ("B", "KiB", "MiB"):
        if n < KILO or unit == "MiB":
            return f"{n:g} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= KILO


def quota_bytes(megabytes):
    """The disk quota in bytes for a plan of so many (decimal) megabytes."""
    return megabytes * KILO * KILO
