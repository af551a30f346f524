"""A small, fast BM25 (Okapi) index over chunk texts, with deletion and pre-filtering.

``langchain_community``'s ``BM25Retriever`` cannot delete documents or filter before ranking,
both of which citerag needs (index sync and access control), so this module implements BM25
directly on a SciPy sparse matrix: scoring a query is one sparse column sum.

Term weight (Robertson/Spärck Jones, k1=1.2, b=0.75)::

    idf(t) * f(t,d) * (k1 + 1) / (f(t,d) + k1 * (1 - b + b * |d| / avgdl))
    idf(t) = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5))
"""

from __future__ import annotations

import json
from array import array
from collections import Counter
from pathlib import Path

import numpy as np
from scipy import sparse

from citerag.core.text import tokenize


class BM25Index:
    """BM25 over a mutable set of keyed texts.

    Keys are the same ids the vector store uses, so both indexes add and delete in step.
    """

    def __init__(self, k1: float = 1.2, b: float = 0.75) -> None:
        """Create an empty index with the two conventional constants."""
        self.k1 = k1
        self.b = b
        # Each chunk's tokens as term numbers (4 bytes each) into one shared term list: a
        # list of interned strings costs 8 bytes per token plus its over-allocation, and a
        # list of plain strings ~50 (a 60 MiB text: ~0.5 GB, then ~0.1 GB, now ~50 MB).
        self._tokens: dict[str, array[int]] = {}
        self._term_ids: dict[str, int] = {}
        self._terms: list[str] = []
        self._dirty = True
        self._keys: list[str] = []
        self._pos: dict[str, int] = {}
        self._vocab: dict[str, int] = {}
        self._matrix: sparse.csc_matrix | None = None

    def __len__(self) -> int:
        return len(self._tokens)

    def keys(self) -> list[str]:
        """Return the keys in the index."""
        return list(self._tokens)

    def add(self, keys: list[str], texts: list[str]) -> None:
        """Add or replace texts under keys."""
        for key, text in zip(keys, texts, strict=True):
            self._tokens[key] = self._numbers(tokenize(text))
        self._dirty = True

    def _numbers(self, tokens: list[str]) -> array[int]:
        """The tokens as term numbers (new terms are numbered as they come)."""
        ids = self._term_ids
        out = array("I")
        for term in tokens:
            number = ids.get(term)
            if number is None:
                number = ids[term] = len(self._terms)
                self._terms.append(term)
            out.append(number)
        return out

    def delete(self, keys: list[str]) -> None:
        """Remove keys (missing keys are ignored)."""
        for key in keys:
            self._tokens.pop(key, None)
        self._dirty = True

    def _build(self) -> None:
        keys = list(self._tokens)
        columns: dict[int, int] = {}  # term number -> matrix column (terms still present)
        # typed arrays, not lists of Python ints: one entry per (chunk, term) pair
        rows, cols, tfs = array("q"), array("q"), array("d")
        lengths = np.zeros(len(keys), dtype=np.float64)
        for i, key in enumerate(keys):
            toks = self._tokens[key]
            lengths[i] = len(toks)
            for term, count in Counter(toks).items():
                rows.append(i)
                cols.append(columns.setdefault(term, len(columns)))
                tfs.append(count)
        n = len(keys)
        tf = np.frombuffer(tfs, dtype=np.float64) if tfs else np.zeros(0)
        row = np.frombuffer(rows, dtype=np.int64) if rows else np.zeros(0, dtype=np.int64)
        col = np.frombuffer(cols, dtype=np.int64) if cols else np.zeros(0, dtype=np.int64)
        vocab = {self._terms[number]: c for number, c in columns.items()}
        df = np.bincount(col, minlength=len(vocab)).astype(np.float64)
        idf = np.log(1.0 + (n - df + 0.5) / (df + 0.5))
        avg = float(lengths.mean()) if n else 0.0
        norm = self.k1 * (1.0 - self.b + self.b * lengths[row] / (avg or 1.0))
        weights = idf[col] * tf * (self.k1 + 1.0) / (tf + norm)
        self._matrix = sparse.csc_matrix((weights, (row, col)), shape=(n, len(vocab)))
        self._keys = keys
        self._pos = {k: i for i, k in enumerate(keys)}
        self._vocab = vocab
        self._dirty = False

    def positions(self, keys: list[str]) -> np.ndarray:
        """Map keys to row positions (for building filter masks)."""
        if self._dirty:
            self._build()
        return np.asarray([self._pos[k] for k in keys if k in self._pos], dtype=np.int64)

    def search(
        self, query: str, k: int, allowed: np.ndarray | None = None
    ) -> list[tuple[str, float]]:
        """Return up to ``k`` ``(key, score)`` pairs with a positive score, best first.

        Args:
            query: Query text.
            k: How many results.
            allowed: Boolean mask over rows (see :meth:`key_order`); ``None`` allows all.
        """
        if self._dirty:
            self._build()
        if self._matrix is None or not self._keys:
            return []
        cols = [self._vocab[t] for t in tokenize(query) if t in self._vocab]
        if not cols:
            return []
        scores = np.asarray(self._matrix[:, cols].sum(axis=1)).ravel()
        if allowed is not None:
            scores = np.where(allowed, scores, 0.0)
        k = min(k, int(np.count_nonzero(scores)))
        if k <= 0:
            return []
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(self._keys[i], float(scores[i])) for i in top]

    def idf(self, terms: set[str] | list[str]) -> dict[str, float]:
        """Inverse document frequency of the given terms that occur in the index."""
        if self._dirty:
            self._build()
        if self._matrix is None:
            return {}
        out = {}
        n = self._matrix.shape[0]
        for term in terms:
            col = self._vocab.get(term)
            if col is not None:
                df = self._matrix.indptr[col + 1] - self._matrix.indptr[col]
                out[term] = float(np.log(1.0 + (n - df + 0.5) / (df + 0.5)))
        return out

    def key_order(self) -> list[str]:
        """Keys in row order (the order ``allowed`` masks refer to)."""
        if self._dirty:
            self._build()
        return self._keys

    def save(self, path: Path) -> None:
        """Write the token lists as JSON lines."""
        with path.open("w", encoding="utf-8") as fh:
            json.dump({"k1": self.k1, "b": self.b}, fh)
            fh.write("\n")
            terms = self._terms
            for key, toks in self._tokens.items():
                fh.write(json.dumps([key, [terms[i] for i in toks]]))
                fh.write("\n")

    @classmethod
    def load(cls, path: Path) -> BM25Index:
        """Read an index written by :meth:`save`."""
        with path.open(encoding="utf-8") as fh:
            params = json.loads(fh.readline())
            index = cls(k1=params["k1"], b=params["b"])
            for line in fh:
                key, toks = json.loads(line)
                index._tokens[key] = index._numbers(toks)
        index._dirty = True
        return index
