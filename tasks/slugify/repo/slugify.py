import re


def slugify(text, sep="-"):
    """Turn a title into a lower-case URL slug."""
    words = re.findall(r"[a-z0-9]+", text)
    return sep.join(words)


def unique_slug(text, taken):
    """Slug for text not yet in taken."""
    base = slugify(text)
    slug, n = base, 2
    while slug in taken:
        slug = f"{base}-{n}"
        n += 1
    return slug
