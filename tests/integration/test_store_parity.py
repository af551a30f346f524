"""The same ingest guarantees on both stores: FAISS directories and PostgreSQL + pgvector.

Every test here is parametrised over ``store_location`` (a fresh FAISS index directory, or a
fresh namespace in the session's real PostgreSQL from the ``pgserver`` wheel): chunks match
the canonical text, re-ingesting is incremental, a deleted or newly failing document leaves
every index, a mismatched embedding model is refused, and the access filter holds in the
dense, keyword and hybrid legs.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from langchain_core.documents import Document

from chains.retrieval import HybridRetriever
from citerag.embeddings import EmbeddingModel
from citerag.index.ingest import ingest
from citerag.stores.loaded import load_index, read_manifest
from citerag.stores.manifest import IndexMismatchError
from loaders.chunking import doc_id_for
from tests.support.ingest_checks import assert_offsets, assert_store_in_step, keys_of

pytestmark = pytest.mark.integration

PREFIX = "docs/"
DOCS = [
    "annual_report_2025.pdf",
    "handbook.md",
    "maintenance_notes.txt",
    "restricted/board_minutes_2025.md",
    "safety_policy.html",
]


@pytest.fixture
def corpus(tmp_path: Path, sample_corpus: Path) -> Path:
    """An editable copy of the sample corpus."""
    return Path(shutil.copytree(sample_corpus, tmp_path / "docs"))


def _paths(folder: Path) -> dict[str, Path]:
    return {PREFIX + d: folder / d for d in DOCS}


def test_chunks_match_the_canonical_text(store_location, corpus: Path, embedding_model) -> None:
    report = ingest([corpus], store_location, embedding_model, progress=False)
    assert sorted(report.indexed) == sorted(PREFIX + d for d in DOCS) and not report.failed
    loaded = load_index(store_location, embedding_model)
    assert loaded.manifest_id == report.build_id
    assert assert_offsets(loaded.store, _paths(corpus)) == report.chunks_added > 0
    keys = assert_store_in_step(loaded.store, store_location)
    assert len(keys) == report.chunks_added
    manifest = read_manifest(store_location)
    assert manifest.embedding["model"] == embedding_model.name
    assert sum(d["chunks"] for d in manifest.documents.values()) == len(keys)


def test_reingest_is_incremental_and_deletes_reach_every_index(
    store_location, corpus: Path, embedding_model
) -> None:
    first = ingest([corpus], store_location, embedding_model, progress=False)
    before = load_index(store_location, embedding_model).store
    old_keys = {doc_id_for(PREFIX + d): keys_of(before, doc_id_for(PREFIX + d)) for d in DOCS}

    again = ingest([corpus], store_location, embedding_model, progress=False)
    assert again.embedded_texts == 0 and again.chunks_added == 0
    assert again.build_id == first.build_id  # nothing changed: nothing published

    edited = PREFIX + "maintenance_notes.txt"
    path = corpus / "maintenance_notes.txt"
    path.write_text(
        path.read_text(encoding="utf-8")
        + "\n\nSpare fuse kit FK-8812 is kept in the blue cabinet at Harlow Valley Depot.\n",
        encoding="utf-8",
    )
    (corpus / "handbook.md").unlink()
    report = ingest([corpus], store_location, embedding_model, progress=False)
    assert report.updated == [edited] and report.deleted == [PREFIX + "handbook.md"]
    assert report.build_id != first.build_id

    loaded = load_index(store_location, embedding_model)
    store = loaded.store
    gone = old_keys[doc_id_for(PREFIX + "handbook.md")]
    assert gone and not gone & {k for k, _ in store.iter_metadata()}
    assert store.get_by_ids(sorted(gone)) == []
    for doc, keys in old_keys.items():
        if doc not in (doc_id_for(edited), doc_id_for(PREFIX + "handbook.md")):
            assert keys_of(store, doc) == keys, f"chunks of {doc} changed"
    new_keys = keys_of(store, doc_id_for(edited))
    assert report.chunks_added == len(new_keys - old_keys[doc_id_for(edited)]) > 0
    assert_store_in_step(store, store_location)
    (top, _), *_ = store.bm25_search("FK-8812 fuse kit", k=1)
    assert top.metadata["source"] == edited and "FK-8812" in top.metadata["content"]
    hits = store.bm25_search("minimum holding is 5 shares", k=10)
    assert all(d.metadata["source"] != PREFIX + "handbook.md" for d, _ in hits)
    assert doc_id_for(PREFIX + "handbook.md") not in loaded.manifest.documents


def test_an_edited_sentence_embeds_only_the_chunks_that_hold_it(
    store_location, corpus: Path, embedding_model
) -> None:
    ingest([corpus], store_location, embedding_model, progress=False)
    source = PREFIX + "handbook.md"
    doc = doc_id_for(source)
    stored = _chunks(store_location, doc, embedding_model)
    before = {d.page_content: d.metadata["chunk_id"] for d in stored}
    path = corpus / "handbook.md"
    text = path.read_text(encoding="utf-8")
    old = "We are a community benefit society owned by our members, not by outside investors."
    assert text.count(old) == 1 and text.index(old) < len(text) // 4  # early: the rest moves
    path.write_text(
        text.replace(old, "We are a members' society; no outside investor owns any part of it."),
        encoding="utf-8",
    )

    report = ingest([corpus], store_location, embedding_model, progress=False)

    assert report.updated == [source] and not report.failed
    after = _chunks(store_location, doc, embedding_model)
    changed = [d for d in after if d.page_content not in before]
    moved = [
        d
        for d in after
        if d.page_content in before and before[d.page_content] != d.metadata["chunk_id"]
    ]
    assert 0 < len(changed) <= 2 and moved  # the chunks after the edit have new offsets
    assert report.chunks_added == len(after)  # every chunk written with its new metadata ...
    assert report.chunks_reused == len(after) - len(changed)  # ... few embedded again
    assert report.embedded_texts < 10 * len(changed)
    loaded = load_index(store_location, embedding_model)
    store = loaded.store
    assert {d.metadata["sha256"] for d in after} == {loaded.manifest.documents[doc]["sha256"]}
    assert_offsets(store, _paths(corpus))  # chunk ids and offsets are the new file's
    assert_store_in_step(store, store_location)
    # every chunk's stored vector is its text's, reused or not
    fresh = embedding_model.embeddings.embed_documents([d.page_content for d in after])
    for d, vector in zip(after, fresh, strict=True):
        assert d.id is not None
        assert store.cosine_for([d.id], vector)[d.id] > 0.999, d.metadata["chunk_id"]
    for d in moved:
        spans, _ = store.sentence_vectors_for(d.id)
        assert spans and spans[-1][1] <= len(d.metadata["content"])


def _chunks(location: Path | str, doc_id: str, model: EmbeddingModel) -> list[Document]:
    """A document's stored chunks, in document order."""
    return load_index(location, model).store.document_chunks(doc_id, 0, 1 << 40)


def test_a_document_that_now_fails_leaves_every_index(
    store_location, corpus: Path, embedding_model
) -> None:
    ingest([corpus], store_location, embedding_model, progress=False)
    doc = doc_id_for(PREFIX + "annual_report_2025.pdf")
    assert keys_of(load_index(store_location, embedding_model).store, doc)
    pdf = corpus / "annual_report_2025.pdf"
    pdf.write_bytes(pdf.read_bytes()[:2000])  # truncated: unreadable now

    report = ingest([corpus], store_location, embedding_model, progress=False)

    assert list(report.failed) == [PREFIX + "annual_report_2025.pdf"]
    assert "unreadable PDF" in report.failed[PREFIX + "annual_report_2025.pdf"]
    loaded = load_index(store_location, embedding_model)
    assert keys_of(loaded.store, doc) == set()
    rec = loaded.manifest.documents[doc]
    assert rec["status"] == "failed" and rec["chunks"] == 0 and rec["reason"]
    assert_store_in_step(loaded.store, store_location)


def test_another_embedding_model_is_refused(store_location, corpus: Path, embedding_model) -> None:
    from dataclasses import replace

    ingest([corpus], store_location, embedding_model, progress=False)
    other = replace(embedding_model, name="another/model")
    with pytest.raises(IndexMismatchError, match="another/model"):
        load_index(store_location, other)
    with pytest.raises(IndexMismatchError):
        ingest([corpus], store_location, other, progress=False)
    assert load_index(store_location, embedding_model).manifest_id  # still loadable


@pytest.mark.parametrize("mode", ["dense", "bm25", "hybrid"])
def test_restricted_chunks_never_reach_a_user_without_the_label(
    sample_location, embedding_model, mode
) -> None:
    loaded = load_index(sample_location, embedding_model)
    retriever = HybridRetriever(loaded.store, embeddings=embedding_model.embeddings)
    for question in ("What is Project Heron?", "What did the board approve about salary bands?"):
        res = retriever.retrieve(
            question, mode=mode, k_dense=40, k_bm25=40, k=40, user_groups=["staff"]
        )
        assert {c.meta["access"] for c in res.candidates} <= {"public"}
        board = retriever.retrieve(
            question, mode=mode, k_dense=40, k_bm25=40, k=40, user_groups=["board"]
        )
        assert "board" in {c.meta["access"] for c in board.candidates}
    common = retriever.retrieve(
        "annual revenue and the board", mode=mode, k_dense=10, k_bm25=10, k=10, user_groups=[]
    )
    assert len(common.candidates) == 10  # k allowed results, none of them restricted
    assert {c.meta["access"] for c in common.candidates} == {"public"}


def test_a_sheet_row_is_cited_by_its_own_number(
    store_location, tmp_path: Path, embedding_model
) -> None:
    """Each row group keeps its rows' numbers (``row_numbers``) through either store, so a
    citation of one CSV record points at that record."""
    from chains.citations import locator

    folder = tmp_path / "sheets"
    folder.mkdir()
    lines = ["Depot,Truck,Mileage"] + [f"Depot {i},Truck {i},{100000 + i}" for i in range(1, 9)]
    (folder / "fleet.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    ingest([folder], store_location, embedding_model, progress=False)
    store = load_index(store_location, embedding_model).store
    row = "Depot 6,Truck 6,100006"
    hits = store.bm25_search("Truck 6 100006", 5)
    doc = next(d for d, _ in hits if row in str(d.metadata.get("content", "")))
    text = (folder / "fleet.csv").read_text(encoding="utf-8")
    start = text.index(row)
    # record 7 of the file (the header is record 1), not the row group's range
    assert locator(dict(doc.metadata), start, start + len(row)) == ("row 7", "#rows=7-7")
