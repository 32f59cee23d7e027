"""Count the words of a text."""
import re

WORD = re.compile(r"[a-z']+")


def count_words(text):
    """Map each lower-cased word of text to the number of times it occurs."""
    counts = {}
    for word in WORD.findall(text.lower()):
        counts[word] = counts.get(word, 0) + 1
    return counts


def top_words(text, n=None):
    """Return (word, count) pairs, most frequent first, ties in alphabetical order.

    With n, only the first n pairs are returned.
    """
    ranked = sorted(count_words(text).items(), key=lambda pair: (pair[1], pair[0]), reverse=True)
    if n is not None:
        ranked = ranked[:n]
    return ranked
