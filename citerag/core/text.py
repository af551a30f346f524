"""Word tokens of a text: the one tokenizer of BM25, the reranker's coverage and the answer checks.

A bottom-layer module (docs/reference/architecture.md): it imports nothing of the project, so
``chains/`` and the index both use it without ``chains/`` depending on a store.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"\w+", re.UNICODE)
#: Very common English function words; dropping them keeps BM25 on the content words.
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "how",
        "i",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "their",
        "this",
        "to",
        "was",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "why",
        "will",
        "with",
    ]
)


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens without stop words."""
    return [t for t in _TOKEN.findall(text.lower()) if t not in STOPWORDS]
