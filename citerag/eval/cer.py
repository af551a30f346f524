"""Character error rate: how far a recognised text is from the text that was drawn."""

from __future__ import annotations


def normalise(text: str) -> str:
    """``text`` with every whitespace run as one space, stripped."""
    return " ".join(text.split())


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (insertions, deletions, substitutions each cost 1)."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def character_error_rate(hypothesis: str, reference: str) -> float:
    """Edit distance over reference length, after :func:`normalise` of both.

    Args:
        hypothesis: The recognised text.
        reference: The text that was drawn.

    Returns:
        The rate (0.0 for a perfect read; can exceed 1.0).

    Raises:
        ValueError: For a blank reference.
    """
    ref = normalise(reference)
    if not ref:
        raise ValueError("reference must contain some text, got a blank string")
    return edit_distance(normalise(hypothesis), ref) / len(ref)
