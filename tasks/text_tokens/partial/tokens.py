"""Split text into words for the search index."""
import re

WORD = re.compile(r"[A-Za-z0-9']+")


def tokenize(text):
    """The words of text, in order."""
    return WORD.findall(text)


def vocabulary(text):
    """The distinct lower-case words of text, sorted."""
    return sorted({w.lower() for w in tokenize(text)})
