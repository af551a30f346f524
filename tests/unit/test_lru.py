"""The shared least-recently-used cache (``citerag.core.lru``): bounds, recency, threads."""

from __future__ import annotations

import threading

import pytest

from citerag.core.lru import LRU


def test_the_least_recently_used_entry_goes_first():
    cache: LRU[str, int] = LRU(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "a" is now the most recent
    cache.put("c", 3)
    assert "b" not in cache and cache.get("a") == 1 and cache.get("c") == 3
    assert len(cache) == 2
    assert [k for k, _ in cache.items()] == ["a", "c"]


def test_many_at_once_and_a_miss():
    cache: LRU[str, int] = LRU(3)
    cache.put_many({"a": 1, "b": 2, "c": 3, "d": 4})
    assert [k for k, _ in cache.items()] == ["b", "c", "d"]
    assert cache.get_many(["b", "x", "d"]) == {"b": 2, "d": 4}
    assert cache.get("x") is None
    cache.clear()
    assert len(cache) == 0


def test_a_zero_size_cache_keeps_nothing():
    cache: LRU[str, int] = LRU(0)
    cache.put("a", 1)
    assert cache.get("a") is None and len(cache) == 0


@pytest.mark.parametrize("bad", [-1, 1.5, "8", True, None])
def test_the_size_is_checked_where_it_enters(bad):
    with pytest.raises(ValueError, match="maxsize"):
        LRU(bad)


def test_threads_reading_and_evicting_at_once_never_raise_and_stay_bounded():
    # the served graph shares its caches between request threads: one thread's read of a
    # key another is evicting must not raise (it did with a bare OrderedDict's move_to_end)
    cache: LRU[int, int] = LRU(8)
    errors: list[BaseException] = []
    start = threading.Barrier(6)

    def work(seed: int) -> None:
        try:
            start.wait()
            for i in range(5000):
                key = (i * 7 + seed) % 16
                if cache.get(key) is None:
                    cache.put(key, key)
                cache.get_many([key, key + 1])
                assert len(cache) <= 8
        except BaseException as exc:  # reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert all(k == v for k, v in cache.items())


def test_the_caches_built_on_it_name_their_own_size_argument():
    from chains.rerank import SentenceReranker
    from citerag.server.viewer import DocumentViews

    with pytest.raises(ValueError, match="cache_size"):
        SentenceReranker(object(), cache_size=-1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_images"):
        DocumentViews(max_images=-2)
