"""The writer's compact docstore and on-disk sentence vectors, with a fake embedding model.

An ingest writer holds documents compressed (``CompactDocstore``) and sentence vectors in a
spill file; what it publishes is read back by a reader as ordinary ``Document`` objects and
memory-mapped sentence vectors, and the search results do not depend on which form is held.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest
from langchain_community.docstore.in_memory import InMemoryDocstore
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from citerag.embeddings import EmbeddingModel
from citerag.index.ingest import ingest
from citerag.stores.faiss.dense import CompactDocstore
from citerag.stores.faiss.store import CiteragStore
from citerag.stores.loaded import load_index


class _Letters(Embeddings):
    """Vectors from letter counts: deterministic, distinct for distinct texts."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [[t.count(c) + 0.1 for c in "etaoinsr"] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def _doc(i: int) -> Document:
    content = f"Chunk {i} says the pump number {i} runs at {i * 7} litres. It was serviced."
    meta = {"content": content, "source": "corpus/pumps.md", "doc_id": "d1", "start": i}
    return Document(page_content=f"Pumps > Service\n{content}", metadata=meta)


def test_compact_docstore_behaves_like_the_in_memory_one() -> None:
    store = CompactDocstore()
    store.add({"a": _doc(1), "b": _doc(2)})
    got = store.search("a")
    assert isinstance(got, Document) and got.id == "a"
    assert (got.page_content, got.metadata) == (_doc(1).page_content, _doc(1).metadata)
    assert got is not store.search("a")  # a new object each time: callers may mutate it
    assert store.search("zz") == "ID zz not found."
    with pytest.raises(ValueError, match="already exist"):
        store.add({"a": _doc(3)})
    store.delete(["a"])
    assert "a" not in store and len(store) == 1
    with pytest.raises(ValueError, match="does not  exist"):
        store.delete(["a"])


def test_repeated_metadata_strings_are_one_object_when_read_back() -> None:
    store = CompactDocstore.of([("a", _doc(1)), ("b", _doc(2))])
    a, b = store.search("a"), store.search("b")
    assert isinstance(a, Document) and isinstance(b, Document)
    assert a.metadata["source"] is b.metadata["source"]
    record = CompactDocstore.pack(_doc(1))
    assert len(record) < len(pickle.dumps((_doc(1).page_content, _doc(1).metadata)))


@pytest.mark.parametrize("compact", [False, True])
def test_a_saved_store_reads_back_in_either_form_with_the_same_results(
    tmp_path: Path, compact: bool
) -> None:
    emb = _Letters()
    store = CiteragStore(emb, 8, spill_dir=tmp_path, writer=compact)
    docs = [_doc(i) for i in range(12)]
    store.add_documents(docs, ids=[f"k{i}" for i in range(12)])
    store.add_documents([_doc(40)], ids=["k3"])  # a replaced chunk
    store.delete(["k5"])
    want = [(d.id, s) for d, s in store.similarity_search_with_score("pump 4 litres", k=5)]
    want_sentences = store.sentence_vectors_for("k7")
    store.save(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []

    reader = CiteragStore.load(tmp_path, emb, 8)
    writer = CiteragStore.load(tmp_path, emb, 8, writer=True)
    assert isinstance(reader.dense.docstore, InMemoryDocstore)
    assert isinstance(writer.dense.docstore, CompactDocstore)
    for loaded in (reader, writer):
        got = [(d.id, s) for d, s in loaded.similarity_search_with_score("pump 4 litres", k=5)]
        assert got == want
        assert loaded.get_by_ids(["k3"])[0].metadata["start"] == 40
        assert loaded.get_by_ids(["k5"]) == []
        spans, vecs = loaded.sentence_vectors_for("k7") or ([], np.zeros(0))
        assert want_sentences is not None and spans == want_sentences[0]
        np.testing.assert_array_equal(vecs, want_sentences[1])


def test_ingest_writes_compactly_and_a_reader_gets_documents(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    text = "\n\n".join(_doc(i).metadata["content"] for i in range(40))
    (corpus / "pumps.md").write_text(f"# Pumps\n\n## Service\n\n{text}\n", encoding="utf-8")
    model = EmbeddingModel("letters", _Letters(), 8, 256)
    index = tmp_path / "index"
    report = ingest([corpus], index, model, progress=False, workers=0)
    assert report.indexed and not report.failed
    loaded = load_index(index, model)
    with (loaded.build_dir / "dense.pkl").open("rb") as f:
        held, _ = pickle.load(f)
    assert isinstance(held, CompactDocstore)  # what the writer held and published
    assert isinstance(loaded.store.dense.docstore, InMemoryDocstore)
    assert len(loaded.store.sentences) == len(loaded.store) > 0
    assert not [p for p in loaded.build_dir.iterdir() if p.name.startswith(".")]
    # an incremental run opens the published build as a writer and keeps every chunk
    (corpus / "more.md").write_text("# More\n\nThe spare pump is kept in store B.\n")
    ingest([corpus], index, model, progress=False, workers=0)
    again = load_index(index, model)
    assert len(again.store) == len(loaded.store) + 1
    assert {d.id for d in again.store.get_by_ids(list(loaded.store.sentences))} == set(
        loaded.store.sentences
    )


def test_a_writer_queues_chunk_vectors_until_the_index_is_used(tmp_path: Path) -> None:
    emb = _Letters()
    writer = CiteragStore(emb, 8, spill_dir=tmp_path, writer=True)
    plain = CiteragStore(emb, 8)
    for store in (writer, plain):
        store.add_documents([_doc(i) for i in range(5)], ids=[f"k{i}" for i in range(5)])
        store.add_documents([_doc(i) for i in range(5, 9)], ids=[f"k{i}" for i in range(5, 9)])
    assert writer._pending is not None and writer._pending.rows == 9
    assert writer._dense.index.ntotal == 0 and len(writer) == 9  # held, not yet in FAISS
    assert writer.get_by_ids(["k8"])[0].page_content == _doc(8).page_content
    got = writer.similarity_search_with_score("pump 6 litres", k=4)  # enters the index here
    assert writer._pending.rows == 0 and writer._dense.index.ntotal == 9
    assert [(d.id, s) for d, s in got] == [
        (d.id, s) for d, s in plain.similarity_search_with_score("pump 6 litres", k=4)
    ]
    for pos in range(9):
        np.testing.assert_array_equal(
            writer.dense.index.reconstruct(pos), plain.dense.index.reconstruct(pos)
        )
    writer.add_documents([_doc(20)], ids=["k2"])  # replacing flushes, deletes, queues again
    assert writer._pending.rows == 1 and len(writer) == 9
    assert writer.cosine_for(["k2"], emb.embed_query(_doc(20).page_content))["k2"] == (
        pytest.approx(1.0, abs=1e-6)
    )


def test_an_index_pickled_under_the_former_module_path_still_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Indexes written before the ``citerag.stores`` package name their docstore class
    ``citerag.index.faiss_store.CompactDocstore`` in ``dense.pkl``."""
    import sys

    import citerag.stores.faiss.dense as dense

    emb = _Letters()
    store = CiteragStore(emb, 8, spill_dir=tmp_path, writer=True)
    store.add_documents([_doc(i) for i in range(4)], ids=[f"k{i}" for i in range(4)])
    former = "citerag.index.faiss_store"
    monkeypatch.delitem(sys.modules, former, raising=False)  # an earlier load may alias it
    # write as the earlier version did: the class under its former module path
    own = CompactDocstore.__module__
    CompactDocstore.__module__ = former
    sys.modules[former] = dense
    try:
        store.save(tmp_path)
    finally:
        CompactDocstore.__module__ = own
        del sys.modules[former]  # the former name unknown again, as in a fresh process
    assert former.encode() in (tmp_path / "dense.pkl").read_bytes()

    writer = CiteragStore.load(tmp_path, emb, 8, writer=True)
    assert isinstance(writer.dense.docstore, CompactDocstore)
    assert writer.get_by_ids(["k2"])[0].metadata["start"] == 2
