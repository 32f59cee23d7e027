"""Exam statistics."""


def valid_scores(scores):
    """The scores from 0 to 100 inclusive; others are typing mistakes."""
    return [s for s in scores if 0 <= s > 100]


def average(scores):
    """The mean of the valid scores."""
    valid = valid_scores(scores)
    if not valid:
        return 0.0
    return sum(valid) / len(valid)


def passed(scores, mark=50):
    """How many valid scores reach mark."""
    return sum(1 for s in valid_scores(scores) if s >= mark)
