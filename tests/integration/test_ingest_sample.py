"""Ingest the sample corpus for real (model, FAISS, PDF) and check provenance and index sync."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from langchain_core.documents import Document
from pypdf import PdfReader

from citerag.embeddings import EmbeddingModel
from citerag.index.ingest import ingest
from citerag.stores.faiss.builds import BUILDS, current_build
from citerag.stores.faiss.dense import DISTANCE, FAISS_INDEX_TYPE
from citerag.stores.loaded import load_index, read_manifest
from citerag.stores.manifest import MANIFEST_FILE, IndexMismatchError
from loaders.chunking import ChunkSettings, doc_id_for, make_header
from loaders.sentences import sentence_spans
from tests.support.ingest_checks import (
    assert_offsets,
    assert_parts_in_step,
    chunks_by_source,
    clone_index,
    collapse,
    keys_of,
    record_keys,
)

pytestmark = pytest.mark.integration

PREFIX = "corpus/"  # source keys are "<folder name>/<relative path>"
DOCS = [
    "annual_report_2025.pdf",
    "handbook.md",
    "maintenance_notes.txt",
    "restricted/board_minutes_2025.md",
    "safety_policy.html",
]
RESTRICTED_CANARIES = ["Project Heron", "Ridgeback Meadow", "Calder Renewables", "£52,000"]


@pytest.fixture(scope="module")
def loaded(sample_index, embedding_model):
    return load_index(sample_index, embedding_model)


@pytest.fixture(scope="module")
def questions(repo_root: Path) -> list[dict]:
    path = repo_root / "examples" / "questions.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@pytest.fixture
def corpus_copy(tmp_path: Path, sample_corpus: Path) -> Path:
    """A private copy of the sample corpus (same folder name, so the same source keys)."""
    return Path(shutil.copytree(sample_corpus, tmp_path / "src" / "corpus"))


@pytest.fixture
def index_copy(tmp_path: Path, sample_index: Path) -> Path:
    """A private copy of the session's sample index, safe to change."""
    return clone_index(sample_index, tmp_path / "index")


def _paths(root: Path) -> dict[str, Path]:
    return {PREFIX + rel: root / rel for rel in DOCS}


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- what a fresh ingest holds ----------------------------------------------------------------


def test_every_document_is_indexed(loaded) -> None:
    by_source = chunks_by_source(loaded.store)
    assert sorted(by_source) == sorted(PREFIX + d for d in DOCS)
    assert all(len(items) >= 2 for items in by_source.values())
    assert not any(".citerag-access.json" in s for s in by_source), "config got indexed"


def test_every_chunk_matches_the_canonical_text(loaded, sample_corpus: Path) -> None:
    checked = assert_offsets(loaded.store, _paths(sample_corpus))
    assert checked == len(loaded.store)


def test_chunk_metadata(loaded, sample_corpus: Path) -> None:
    for key, meta in loaded.store.iter_metadata():
        rel = meta["source"].removeprefix(PREFIX)
        assert meta["doc_id"] == doc_id_for(meta["source"])
        assert meta["doc_name"] == Path(rel).name
        assert meta["sha256"] == _sha(sample_corpus / rel)
        assert (
            meta["file_type"]
            == {".pdf": "pdf", ".md": "markdown", ".txt": "text", ".html": "html"}[Path(rel).suffix]
        )
        doc = loaded.store.get_by_ids([key])[0]
        # the title, then the section path (its first heading left out when it is the title)
        header = make_header(meta["title"], meta["section"])
        if meta["block_type"] == "table_row" and not doc.page_content.endswith(meta["content"]):
            # a row group (``--table-rows``): rows embedded with their column headers
            assert doc.page_content.startswith(f"{header}\n")
        elif doc.page_content != f"{header}\n{meta['content']}":
            # cut from a titled table: the table's title is one line between the two
            assert doc.page_content.startswith(f"{header}\n")
            middle = doc.page_content[len(header) + 1 : -len(meta["content"])]
            assert middle.endswith("\n") and "\n" not in middle[:-1] and middle.strip()
            assert doc.page_content.endswith(meta["content"])


def test_pdf_chunks_carry_their_page(loaded, sample_corpus: Path) -> None:
    reader = PdfReader(sample_corpus / "annual_report_2025.pdf")
    pages = [collapse(p.extract_text()) for p in reader.pages]
    items = chunks_by_source(loaded.store)[PREFIX + "annual_report_2025.pdf"]
    seen = set()
    for _, meta in items:
        page = meta["page"]
        assert isinstance(page, int) and 1 <= page <= len(pages)
        assert collapse(meta["content"]) in pages[page - 1], f"chunk not on page {page}"
        seen.add(page)
    assert seen == set(range(1, len(pages) + 1))
    others = [
        m
        for s, it in chunks_by_source(loaded.store).items()
        if not s.endswith(".pdf")
        for _, m in it
    ]
    assert all("page" not in m for m in others)


def test_every_needle_is_whole_in_a_chunk_of_its_document(loaded, questions) -> None:
    by_source = chunks_by_source(loaded.store)
    answerable = [q for q in questions if not q.get("unanswerable")]
    assert len(answerable) == 20
    for q in answerable:
        needle = collapse(q["needle"])
        hits = [
            meta for _, meta in by_source[PREFIX + q["doc"]] if needle in collapse(meta["content"])
        ]
        assert hits, f"{q['id']}: needle not whole in any chunk of {q['doc']}"
        if "page" in q:
            assert q["page"] in {m["page"] for m in hits}, f"{q['id']}: needle not on its page"
        elsewhere = [
            s
            for s, items in by_source.items()
            if s != PREFIX + q["doc"] and any(needle in collapse(m["content"]) for _, m in items)
        ]
        assert not elsewhere, f"{q['id']}: needle also found in {elsewhere}"


def test_html_boilerplate_is_not_indexed(loaded) -> None:
    for _, meta in loaded.store.iter_metadata():
        for canary in ("navigation-script-token-7731", "Members area", "Volunteer portal"):
            assert canary not in meta["content"]
        assert meta["content"].strip("- \n"), "a chunk with no words was indexed"


def test_manifest(loaded, sample_index: Path, sample_corpus: Path, embedding_model) -> None:
    manifest = read_manifest(sample_index)
    assert manifest.build_id == loaded.manifest_id == current_build(sample_index).name
    emb = manifest.embedding
    assert emb["model"] == embedding_model.name == "sentence-transformers/all-MiniLM-L6-v2"
    assert emb["dimension"] == 384 == embedding_model.dimension
    assert emb["normalized"] is True
    assert emb["max_tokens"] == embedding_model.max_tokens
    assert manifest.index["distance"] == DISTANCE
    assert manifest.index["faiss_index_type"] == FAISS_INDEX_TYPE
    assert manifest.index["sentence_vectors"] is True
    assert manifest.chunking == json.loads(json.dumps(ChunkSettings().describe()))
    held = {s: len(items) for s, items in chunks_by_source(loaded.store).items()}
    assert len(manifest.documents) == len(DOCS)
    for doc_id, rec in manifest.documents.items():
        rel = rec["source"].removeprefix(PREFIX)
        assert doc_id == doc_id_for(rec["source"])
        assert rec["status"] == "indexed"
        assert rec["sha256"] == _sha(sample_corpus / rel)
        assert rec["chunks"] == held[rec["source"]]
        assert rec["access"] == ("board" if rel.startswith("restricted/") else "public")
    pdf = manifest.documents[doc_id_for(PREFIX + "annual_report_2025.pdf")]
    assert pdf["pages"] == 5 and pdf["empty_pages"] == []
    totals = manifest.to_json()["totals"]
    assert totals == {
        "documents": 5,
        "indexed": 5,
        "failed": 0,
        "chunks": len(loaded.store),
        "over_window_chunks": totals["over_window_chunks"],
    }


def test_indexes_and_records_are_in_step(loaded, sample_index: Path) -> None:
    assert_parts_in_step(loaded.store)
    keys = set(loaded.store.dense.index_to_docstore_id.values())
    assert set(record_keys(sample_index)) == keys
    for doc_id in loaded.manifest.documents:
        assert set(record_keys(sample_index, [doc_id])) == keys_of(loaded.store, doc_id)


def test_access_labels_from_mapping_file(loaded) -> None:
    for _, meta in loaded.store.iter_metadata():
        expected = "board" if meta["source"].startswith(PREFIX + "restricted/") else "public"
        assert meta["access"] == expected


def test_filtered_dense_search_never_returns_board_chunks(loaded) -> None:
    store = loaded.store
    query = "Project Heron Ridgeback Meadow Calder Renewables land lease and salaries"
    unfiltered = store.similarity_search(query, k=5)
    assert any(d.metadata["access"] == "board" for d in unfiltered), "query should hit board"
    public = {"access": {"$in": ["public"]}}
    for k in (1, 5, 10, 40):
        docs = store.similarity_search(query, k=k, filter=public)
        assert len(docs) == k
        assert all(d.metadata["access"] == "public" for d in docs)
        assert not any(c in d.metadata["content"] for d in docs for c in RESTRICTED_CANARIES)
    hits = store.bm25_search(query, k=10, filter=public)
    assert hits and all(d.metadata["access"] == "public" for d, _ in hits)
    board_only = store.similarity_search(query, k=50, filter={"access": "board"})
    n_board = sum(m["access"] == "board" for _, m in store.iter_metadata())
    assert len(board_only) == n_board
    assert all(d.metadata["access"] == "board" for d in board_only)


def test_search_finds_exact_codes(loaded) -> None:
    (top, score), *_ = loaded.store.bm25_search("E-217 fault code", k=3)
    assert top.metadata["doc_name"] == "maintenance_notes.txt"
    assert "E-217" in top.metadata["content"] and score > 0
    (doc, cosine), *_ = loaded.store.similarity_search_with_score(
        "How long is a Level 1 site induction valid for?", k=1
    )
    assert doc.metadata["doc_name"] == "safety_policy.html"
    assert 0 < cosine <= 1.0001


# -- mismatched model -------------------------------------------------------------------------


def test_other_model_identity_is_refused(sample_index: Path, embedding_model) -> None:
    other = EmbeddingModel(
        name="sentence-transformers/some-other-model",
        embeddings=embedding_model.embeddings,
        dimension=embedding_model.dimension,
        max_tokens=embedding_model.max_tokens,
    )
    with pytest.raises(IndexMismatchError, match="some-other-model"):
        load_index(sample_index, other)
    wrong_dim = EmbeddingModel(embedding_model.name, embedding_model.embeddings, 768, 256)
    with pytest.raises(IndexMismatchError, match="768"):
        load_index(sample_index, wrong_dim)


def test_edited_manifest_model_is_refused(index_copy: Path, embedding_model, corpus_copy) -> None:
    path = current_build(index_copy) / MANIFEST_FILE
    raw = json.loads(path.read_text())
    build_id = raw["build_id"]
    raw["embedding"]["model"] = "intfloat/e5-small-v2"
    path.write_text(json.dumps(raw))
    with pytest.raises(IndexMismatchError, match="e5-small-v2"):
        load_index(index_copy, embedding_model)
    # Ingesting with the configured model must refuse too, and leave the index as it was.
    with pytest.raises(IndexMismatchError):
        ingest([corpus_copy], index_copy, embedding_model, progress=False)
    assert current_build(index_copy).name == build_id
    assert not list((index_copy / BUILDS).glob(".tmp-*"))


# -- incremental sync -------------------------------------------------------------------------


def test_unchanged_reingest_embeds_nothing(
    index_copy: Path, corpus_copy: Path, embedding_model
) -> None:
    before = load_index(index_copy, embedding_model)
    builds_before = sorted(p.name for p in (index_copy / BUILDS).iterdir())
    report = ingest([corpus_copy], index_copy, embedding_model, progress=False)
    assert report.chunks_added == 0
    assert report.embedded_texts == 0
    assert report.chunks_deleted == 0
    assert sorted(report.unchanged) == sorted(PREFIX + d for d in DOCS)
    assert not report.indexed and not report.updated and not report.failed
    assert report.build_id == before.manifest_id
    assert current_build(index_copy).name == before.manifest_id
    assert sorted(p.name for p in (index_copy / BUILDS).iterdir()) == builds_before
    after = load_index(index_copy, embedding_model)
    assert len(after.store) == len(before.store)


def test_editing_one_file_reembeds_only_its_chunks(
    index_copy: Path, corpus_copy: Path, embedding_model
) -> None:
    before = load_index(index_copy, embedding_model).store
    edited = PREFIX + "maintenance_notes.txt"
    edited_id = doc_id_for(edited)
    old_keys = {d: keys_of(before, d) for d in {m["doc_id"] for _, m in before.iter_metadata()}}
    path = corpus_copy / "maintenance_notes.txt"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("firmware 3.8.2", "firmware 3.9.0")
        + "\n\nSpare fuse kit FK-8812 is kept in the blue cabinet at Harlow Valley Depot.\n",
        encoding="utf-8",
    )
    old_build = current_build(index_copy).name

    report = ingest([corpus_copy], index_copy, embedding_model, progress=False)

    assert report.updated == [edited]
    assert not report.indexed and not report.failed and not report.deleted
    assert len(report.unchanged) == len(DOCS) - 1
    assert report.build_id != old_build
    loaded = load_index(index_copy, embedding_model)
    store = loaded.store
    after_keys = set(store.dense.index_to_docstore_id.values())
    new_keys = after_keys - set().union(*old_keys.values())
    assert report.chunks_added == len(new_keys) > 0
    assert all(store.get_by_ids([k])[0].metadata["doc_id"] == edited_id for k in new_keys)
    for doc_id, keys in old_keys.items():
        if doc_id != edited_id:
            assert keys_of(store, doc_id) == keys, f"chunks of {doc_id} changed"
    assert keys_of(store, edited_id) == new_keys  # the file's sha256 is in every chunk
    assert report.chunks_deleted == len(old_keys[edited_id])
    assert_parts_in_step(store)
    assert set(record_keys(index_copy)) == after_keys
    assert_offsets(store, _paths(corpus_copy))
    (top, _), *_ = store.bm25_search("FK-8812 fuse kit", k=1)
    assert top.metadata["source"] == edited and "FK-8812" in top.metadata["content"]
    rec = loaded.manifest.documents[edited_id]
    assert rec["sha256"] == _sha(path) and rec["chunks"] == len(new_keys)
    assert rec["path"] == str(path)


def test_deleting_a_file_removes_it_everywhere(
    index_copy: Path, corpus_copy: Path, embedding_model
) -> None:
    before = load_index(index_copy, embedding_model).store
    gone = PREFIX + "handbook.md"
    gone_id = doc_id_for(gone)
    gone_keys = keys_of(before, gone_id)
    assert gone_keys and set(record_keys(index_copy, [gone_id])) == gone_keys
    (corpus_copy / "handbook.md").unlink()

    report = ingest([corpus_copy], index_copy, embedding_model, progress=False)

    assert report.deleted == [gone]
    assert report.chunks_deleted == len(gone_keys)
    assert report.chunks_added == 0 and report.embedded_texts == 0
    loaded = load_index(index_copy, embedding_model)
    store = loaded.store
    assert keys_of(store, gone_id) == set()
    assert not gone_keys & set(store.dense.index_to_docstore_id.values())
    assert not any(isinstance(store.dense.docstore.search(k), Document) for k in gone_keys)
    assert not gone_keys & set(store.bm25.keys())
    assert not gone_keys & set(store.sentences)
    assert store.get_by_ids(list(gone_keys)) == []
    assert record_keys(index_copy, [gone_id]) == []
    assert len(store) == len(before) - len(gone_keys)
    assert_parts_in_step(store)
    assert gone_id not in loaded.manifest.documents
    assert len(loaded.manifest.documents) == len(DOCS) - 1
    hits = store.bm25_search("minimum holding is 5 shares", k=10)
    assert hits and all(d.metadata["source"] != gone for d, _ in hits)


def test_no_prune_keeps_documents_of_missing_files(
    index_copy: Path, corpus_copy: Path, embedding_model
) -> None:
    (corpus_copy / "handbook.md").unlink()
    report = ingest([corpus_copy], index_copy, embedding_model, progress=False, prune_missing=False)
    assert report.deleted == []
    store = load_index(index_copy, embedding_model).store
    assert keys_of(store, doc_id_for(PREFIX + "handbook.md"))


def test_switching_sentence_vectors_rebuilds_them(
    tmp_path: Path, sample_corpus: Path, embedding_model
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    shutil.copy(sample_corpus / "maintenance_notes.txt", folder)
    index_dir = tmp_path / "index"

    ingest([folder], index_dir, embedding_model, sentence_vectors=False, progress=False)
    loaded = load_index(index_dir, embedding_model)
    assert loaded.manifest.index["sentence_vectors"] is False
    assert loaded.store.sentence_vectors is False, "load_index must follow the manifest"
    assert loaded.store.sentences == {}

    ingest([folder], index_dir, embedding_model, sentence_vectors=True, progress=False)
    loaded = load_index(index_dir, embedding_model)
    store = loaded.store
    assert loaded.manifest.index["sentence_vectors"] is True and store.sentence_vectors
    assert_parts_in_step(store)  # every existing chunk now has its sentence vectors
    for key, meta in store.iter_metadata():
        spans, vectors = store.sentences[key]
        assert spans == sentence_spans(meta["content"])
        assert vectors.shape == (len(spans), embedding_model.dimension)

    ingest([folder], index_dir, embedding_model, sentence_vectors=False, progress=False)
    loaded = load_index(index_dir, embedding_model)
    assert loaded.store.sentence_vectors is False
    assert loaded.store.sentences == {}, "stale sentence vectors were kept"
