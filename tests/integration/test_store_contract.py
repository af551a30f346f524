"""The store contracts on both stores: :class:`citerag.stores.contract.SearchIndex` (what the
graph reads) and :class:`citerag.stores.backend.Backend` (open, ingest target, calibration,
published build, document registry, job coordination).

Haystack's document-store pattern: one class holds the behaviour the graph relies on, and it
runs on every store through the module-scoped ``sample_location`` fixture (the sample corpus
ingested into a FAISS directory, ids ``[faiss]``, and into a real PostgreSQL namespace, ids
``[postgres]``); :class:`TestBackend` runs on a fresh location of each (``store_location``).
A store that passes here can be put under the graph.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from chains.retrieval import access_filter
from citerag.core.text import tokenize
from citerag.index.ingest import ingest
from citerag.stores.backend import Backend
from citerag.stores.contract import SearchIndex
from citerag.stores.dispatch import backend_for
from citerag.stores.faiss.backend import FaissBackend
from citerag.stores.loaded import check_index, load_index, read_manifest
from citerag.stores.location import IndexNotFoundError
from citerag.stores.postgres.backend import PostgresBackend
from citerag.stores.registry import SharedRegistry, make_record

pytestmark = pytest.mark.integration

#: In one document (the board minutes), a few chunks.
RARE = "ridgeback"
#: The cooperative's name: in every document.
COMMON = "northwind"
DOC_NAMES = {
    "annual_report_2025.pdf",
    "handbook.md",
    "maintenance_notes.txt",
    "board_minutes_2025.md",
    "safety_policy.html",
}


@pytest.fixture(scope="module")
def index(sample_location: Path | str, embedding_model) -> SearchIndex:
    """The sample index's store, read through the contract."""
    store = load_index(sample_location, embedding_model).store
    assert isinstance(store, SearchIndex)
    return store


class TestSearchIndex:
    """What the graph reads from a store while answering, on each store."""

    def test_declares_its_capabilities(self, index: SearchIndex, embedding_model) -> None:
        assert index.has_keyword_leg and index.has_term_statistics
        assert index.embeddings is not None
        assert "BM25" in index.lexical_score_type

    def test_a_rare_term_weighs_more_than_a_common_one(self, index: SearchIndex) -> None:
        idf = index.idf([RARE, COMMON])
        assert set(idf) == {RARE, COMMON}
        assert idf[RARE] > idf[COMMON] > 0

    def test_a_term_absent_from_the_index_gets_no_entry(self, index: SearchIndex) -> None:
        idf = index.idf(["zyxwvutsq", RARE, "the"])  # "the": a stop word of both stores
        assert set(idf) == {RARE}
        assert index.idf([]) == {}

    def test_idf_takes_the_tokens_of_a_question(self, index: SearchIndex) -> None:
        terms = tokenize("Who owns the Ridgeback Meadow solar farm?")
        idf = index.idf(terms)
        assert RARE in idf and "meadow" in idf
        assert set(idf) <= set(terms)

    def test_dense_search_returns_cosines_best_first(
        self, index: SearchIndex, embedding_model
    ) -> None:
        vec = embedding_model.embeddings.embed_query("How often are the arrays inspected?")
        hits = index.similarity_search_with_score_by_vector(vec, k=8, filter=access_filter([]))
        scores = [s for _, s in hits]
        assert len(hits) == 8 and scores == sorted(scores, reverse=True)
        assert all(-1.0 <= s <= 1.0 for s in scores)
        again = index.cosine_for([d.id for d, _ in hits if d.id], vec)
        for doc, score in hits:
            assert again[str(doc.id)] == pytest.approx(score, abs=1e-3)
        assert index.cosine_for(["no-such-key"], vec) == {}

    def test_keyword_search_returns_positive_scores_best_first(self, index: SearchIndex) -> None:
        hits = index.bm25_search("Brightwater Electrical maintenance contract", k=5)
        scores = [s for _, s in hits]
        assert hits and scores == sorted(scores, reverse=True) and min(scores) > 0
        assert "Brightwater" in hits[0][0].page_content
        assert index.bm25_search("zyxwvutsq", k=5) == []

    @pytest.mark.parametrize("leg", ["dense", "keyword"])
    def test_the_access_filter_holds_in_each_leg(
        self, index: SearchIndex, embedding_model, leg: str
    ) -> None:
        question = "Project Heron Ridgeback Meadow offer"
        vec = embedding_model.embeddings.embed_query(question)

        def search(groups: list[str]) -> set[str]:
            flt = access_filter(groups)
            if leg == "dense":
                hits = index.similarity_search_with_score_by_vector(vec, k=40, filter=flt)
            else:
                hits = index.bm25_search(question, k=40, filter=flt)
            assert hits
            return {str(d.metadata["access"]) for d, _ in hits}

        assert search(["staff"]) == {"public"}
        assert "board" in search(["board"])

    def test_sentence_vectors_for_candidates(self, index: SearchIndex, embedding_model) -> None:
        vec = embedding_model.embeddings.embed_query("insulation resistance testing")
        keys = [str(d.id) for d, _ in index.similarity_search_with_score_by_vector(vec, k=5)]
        got = index.sentence_vectors_many([*keys, "no-such-key"])
        assert set(got) == set(keys)
        for doc in index.get_by_ids(keys):
            spans, vecs = got[str(doc.id)]
            content = doc.metadata["content"]
            assert spans and vecs.shape == (len(spans), embedding_model.dimension)
            assert all(0 <= s < e <= len(content) for s, e in spans)
            norms = np.linalg.norm(np.asarray(vecs, dtype=np.float32), axis=1)
            assert np.allclose(norms, 1.0, atol=1e-2)
        assert index.sentence_vectors_many([]) == {}

    def test_document_metadata_lists_each_document_once(self, index: SearchIndex) -> None:
        metas = list(index.iter_document_metadata())
        names = [Path(str(m["doc_name"])).name for m in metas]
        assert sorted(names) == sorted(DOC_NAMES)
        assert len({m["doc_id"] for m in metas}) == len(metas)
        access = {Path(str(m["doc_name"])).name: m["access"] for m in metas}
        assert access["board_minutes_2025.md"] == "board"
        assert access["handbook.md"] == "public"

    def test_document_chunks_are_a_documents_chunks_in_a_window_in_order(
        self, index: SearchIndex
    ) -> None:
        doc_ids = {
            Path(str(m["doc_name"])).name: str(m["doc_id"]) for m in index.iter_document_metadata()
        }
        report = doc_ids["annual_report_2025.pdf"]
        everything = index.document_chunks(report, 0, 10**9)
        starts = [int(d.metadata["start"]) for d in everything]
        assert len(everything) > 3 and starts == sorted(starts)
        assert {d.metadata["doc_id"] for d in everything} == {report}
        assert all(d.id and d.metadata["content"] for d in everything)
        # a window: exactly the chunks overlapping it (a chunk and its overlapping neighbours)
        mid = everything[len(everything) // 2].metadata
        window = index.document_chunks(report, int(mid["start"]), int(mid["end"]))
        expected = [
            d.id
            for d in everything
            if d.metadata["start"] < mid["end"] and d.metadata["end"] > mid["start"]
        ]
        assert [d.id for d in window] == expected and mid["chunk_id"] in {
            d.metadata["chunk_id"] for d in window
        }
        assert index.document_chunks(report, 10**8, 10**9) == []
        assert index.document_chunks("no-such-document", 0, 10**9) == []

    def test_document_chunks_hold_the_access_filter(self, index: SearchIndex) -> None:
        doc_ids = {
            Path(str(m["doc_name"])).name: str(m["doc_id"]) for m in index.iter_document_metadata()
        }
        minutes = doc_ids["board_minutes_2025.md"]
        assert index.document_chunks(minutes, 0, 10**9, filter=access_filter(["staff"])) == []
        board = index.document_chunks(minutes, 0, 10**9, filter=access_filter(["board"]))
        assert board and {d.metadata["access"] for d in board} == {"board"}
        handbook = doc_ids["handbook.md"]
        assert index.document_chunks(handbook, 0, 10**9, filter=access_filter([])) == (
            index.document_chunks(handbook, 0, 10**9)
        )


def test_both_stores_weigh_unstemmed_terms_alike(
    sample_index: Path, sample_pg_index: str, embedding_model
) -> None:
    """Same chunks, same formula: a word PostgreSQL does not stem weighs the same on both
    stores, so the terms come in the same order; stemming and stop words differ as stated."""
    same = [RARE, "heron", "brightwater", "meadow", "safety", "board", "solar", COMMON]
    faiss, pg = (
        load_index(location, embedding_model).store.idf([*same, "through", "filings"])
        for location in (sample_index, sample_pg_index)
    )
    for term in same:
        assert pg[term] == pytest.approx(faiss[term], rel=1e-9), term
    assert sorted(same, key=lambda t: (-faiss[t], t)) == sorted(same, key=lambda t: (-pg[t], t))
    assert "through" in faiss and "through" not in pg  # a PostgreSQL stop word
    assert "filings" in pg and "filings" not in faiss  # PostgreSQL stems it to 'file'


@pytest.fixture
def backend(store_location: Path | str) -> Backend:
    """A fresh location's backend (nothing ingested yet)."""
    return backend_for(store_location)


def _ingest_note(backend: Backend, tmp_path: Path, embedding_model, text: str) -> str:
    folder = tmp_path / "docs"
    folder.mkdir(exist_ok=True)
    (folder / "note.txt").write_text(text, encoding="utf-8")
    report = ingest([folder], backend.location, embedding_model, progress=False, workers=0)
    assert not report.failed
    return report.build_id


class TestBackend:
    """What the application does with an index location, on each store's backend."""

    def test_the_dispatch_picks_the_stores_backend(
        self, backend: Backend, store_location: Path | str
    ) -> None:
        expected = PostgresBackend if isinstance(store_location, str) else FaissBackend
        assert type(backend) is expected
        assert (backend.directory is None) == isinstance(store_location, str)
        assert backend.keeps_reader == isinstance(store_location, str)

    def test_nothing_is_published_before_the_first_ingest(self, backend: Backend) -> None:
        assert backend.published_build() is None
        assert backend.read_manifest() is None
        with pytest.raises(IndexNotFoundError, match="citerag ingest PATH --index"):
            backend.check()
        with pytest.raises(IndexNotFoundError):
            read_manifest(backend.location)

    def test_an_ingest_through_the_target_is_published_and_opened(
        self, backend: Backend, tmp_path: Path, embedding_model
    ) -> None:
        target = backend.target()
        assert callable(target.lock) and callable(target.publish)
        first = _ingest_note(backend, tmp_path, embedding_model, "The Heron pump runs at dawn.\n")
        assert backend.published_build() == first
        manifest = backend.read_manifest()
        assert manifest is not None and manifest.build_id == first
        assert backend.check().build_id == first == check_index(backend.location).build_id
        loaded = backend.open(embedding_model)
        assert loaded.manifest_id == first and (loaded.build_dir is None) == backend.keeps_reader
        hits = loaded.store.bm25_search("heron pump", k=3)
        assert hits and "Heron" in hits[0][0].metadata["content"]
        second = _ingest_note(backend, tmp_path, embedding_model, "The Heron pump rests.\n")
        assert second != first and backend.published_build() == second
        reopened = backend.open(embedding_model, reader=loaded.store)
        assert reopened.manifest_id == second
        assert (reopened.store is loaded.store) == backend.keeps_reader

    def test_calibration_is_written_read_and_reset(self, backend: Backend, embedding_model) -> None:
        if backend.directory is not None:
            backend.directory.mkdir(parents=True)
        else:  # the meta table is made by the first ingest's schema
            from citerag.stores.postgres.db import connect, ensure_schema

            assert isinstance(backend, PostgresBackend)
            with connect(backend.url) as conn:
                ensure_schema(conn, backend.url, embedding_model.dimension)
                conn.commit()
        assert backend.read_calibration() == {}
        entry = {"dense": {"threshold": 0.42, "n": 10}}
        where = backend.write_calibration(entry)
        assert str(where) == backend.calibration_place()
        backend.write_calibration({"sentence-hybrid": {"threshold": 0.5}})
        assert backend.read_calibration() == {**entry, "sentence-hybrid": {"threshold": 0.5}}
        assert str(backend.reset_calibration()) == backend.calibration_place()
        assert backend.read_calibration() == {}
        assert backend.reset_calibration() is None

    def test_the_registry_is_shared_by_every_process(
        self, backend: Backend, tmp_path: Path
    ) -> None:
        first = backend.registry(tmp_path / "data-a")
        other = backend.registry(tmp_path / "data-a" if backend.directory else tmp_path / "b")
        try:
            assert isinstance(first, SharedRegistry) and first.shared
            rec = make_record("a" * 32, "n.md", "n.md", "public", 3, "ab" * 32, "alice")
            first.add(rec)
            seen = other.get(rec.id)  # another process's registry sees the record
            assert seen is not None and seen.status == "pending"
            assert [r.id for r, _ in other.jobs(10)] == [rec.id]
        finally:
            first.close()
            other.close()

    def test_exactly_one_process_holds_the_job_lock(
        self, backend: Backend, tmp_path: Path, embedding_model
    ) -> None:
        registry = backend.registry(tmp_path / "data")
        assert isinstance(registry, SharedRegistry)
        one, two = backend.coordination(registry), backend.coordination(registry)
        try:
            assert one.try_lock() and one.holds_lock()
            assert not two.try_lock() and not two.holds_lock()
            one.release()
            assert not one.holds_lock()
            assert two.try_lock() and two.holds_lock()
            assert one.published_build() is None
            build = _ingest_note(backend, tmp_path, embedding_model, "The Heron pump.\n")
            assert one.published_build() == build == two.published_build()
            assert one.listens == (backend.directory is None)
        finally:
            one.release()
            two.release()
            registry.close()

    def test_a_released_lock_is_free_at_once(self, backend: Backend, tmp_path: Path) -> None:
        """Release unlocks before it closes: a session's locks go only when the server has
        seen its connection close, after ``close()`` returns, and another process trying the
        lock at once found it still held, now and then, on a busy machine."""
        registry = backend.registry(tmp_path / "data")
        try:
            for _ in range(50):
                one, two = backend.coordination(registry), backend.coordination(registry)
                try:
                    assert one.try_lock()
                    one.release()
                    assert two.try_lock()
                finally:
                    one.release()
                    two.release()
        finally:
            registry.close()


def test_both_backends_implement_the_protocol() -> None:
    # conformance is checked by mypy (the ``_conforms`` assignments); this keeps the
    # Protocol's method list and the classes' in step at run time too
    from citerag.stores import backend as contract

    wanted = {
        name
        for name, value in vars(contract.Backend).items()
        if callable(value) and not name.startswith("_")
    }
    assert {"open", "target", "published_build", "registry", "coordination"} <= wanted
    for cls in (FaissBackend, PostgresBackend):
        assert wanted <= {n for n in dir(cls) if callable(getattr(cls, n))}, cls.__name__
