"""Split text into words for the search index."""
import re

WORD = re.compile(r"[A-Za-z0-9']+")


def tokenize(text, lower=False):
    """The words of text, in order; lower-cased when lower is true."""
    words = WORD.findall(text)
    if lower:
        return [w.lower() for w in words]
    return words


def vocabulary(text):
    """The distinct lower-case words of text, sorted."""
    return sorted(set(tokenize(text, lower=True)))
