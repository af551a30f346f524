"""A small thread-safe least-recently-used cache.

The served graph is one object shared by every request thread: the reranker's sentence
vectors and terms, the answerer's FAQ question vectors and the viewer's pages are cached
across requests. A bare ``OrderedDict`` read by one thread while another evicts can raise
(``move_to_end`` of a key just dropped), so every cache of that kind is an :class:`LRU`:
each operation holds the cache's lock, and the values themselves are computed outside it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LRU(Generic[K, V]):
    """At most ``maxsize`` entries; a read or a write makes its key the most recent.

    Example::

        cache: LRU[str, int] = LRU(2)
        cache.put("a", 1); cache.put("b", 2); cache.get("a"); cache.put("c", 3)
        # "b", the least recently used, is gone
    """

    def __init__(self, maxsize: int) -> None:
        """Create an empty cache.

        Args:
            maxsize: Most entries kept (``0``: nothing is kept, every ``get`` misses).

        Raises:
            ValueError: ``maxsize`` is negative or not an integer.
        """
        if isinstance(maxsize, bool) or not isinstance(maxsize, int) or maxsize < 0:
            raise ValueError(f"LRU maxsize must be an integer >= 0, got {maxsize!r}")
        self.maxsize = maxsize
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value of ``key`` (now the most recent), or ``None`` when it is not cached."""
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def get_many(self, keys: Iterable[K]) -> dict[K, V]:
        """The cached values of ``keys`` (each now among the most recent), under one lock."""
        out: dict[K, V] = {}
        with self._lock:
            for key in keys:
                value = self._data.get(key)
                if value is not None:
                    self._data.move_to_end(key)
                    out[key] = value
        return out

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` under ``key`` as the most recent, dropping the least recent ones."""
        self.put_many({key: value})

    def put_many(self, items: dict[K, V]) -> None:
        """Keep every item (in order, the last the most recent) under one lock."""
        if not self.maxsize:
            return
        with self._lock:
            for key, value in items.items():
                self._data[key] = value
                self._data.move_to_end(key)
            while len(self._data) > self.maxsize:
                self._data.popitem(last=False)

    def items(self) -> list[tuple[K, V]]:
        """A snapshot of the entries, least recent first (reading it changes no recency)."""
        with self._lock:
            return list(self._data.items())

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._data

    def __len__(self) -> int:
        with self._lock:
            return len(self._data)

    def clear(self) -> None:
        """Drop every entry."""
        with self._lock:
            self._data.clear()
