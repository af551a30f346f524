"""Handing freed heap pages back to the system after each embedding batch."""

from __future__ import annotations

import platform

import pytest

from citerag import embeddings
from citerag.stores import chunk_vectors


def test_release_memory_is_safe_to_call_repeatedly():
    embeddings.release_memory()
    embeddings.release_memory()


@pytest.mark.skipif(platform.system() != "Linux", reason="glibc's malloc_trim")
def test_glibc_trim_is_found_on_linux():
    assert embeddings._malloc_trim() is not None


def test_each_embedding_batch_releases_memory(monkeypatch: pytest.MonkeyPatch):
    calls: list[int] = []
    monkeypatch.setattr(chunk_vectors, "release_memory", lambda: calls.append(1))
    monkeypatch.setattr(chunk_vectors, "_embed_chunks", lambda *a: (_ for _ in ()).throw(OSError))
    with pytest.raises(OSError):
        chunk_vectors.embed_chunks(object(), [], sentence_vectors=False)  # type: ignore[arg-type]
    assert calls == [1]  # also when embedding fails
