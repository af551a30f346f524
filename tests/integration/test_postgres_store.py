"""What only the PostgreSQL store has to prove: SQL filters mean what the Python filters mean,
a killed writer leaves the previous state answering, one writer at a time, and the table is
one that ``langchain-postgres``' ``PGVectorStore`` can read.

A real PostgreSQL 16 + pgvector (the ``pgserver`` wheel, started by the ``pg_server``
fixture) and the real embedding model; nothing is faked.
"""

from __future__ import annotations

import signal
import threading
from pathlib import Path

import numpy as np
import psycopg
import pytest
from langchain_core.documents import Document

from citerag.core.filters import matches
from citerag.index.ingest import ingest
from citerag.stores.loaded import IndexNotFoundError, load_index
from citerag.stores.postgres.db import StoreURL, connect
from citerag.stores.postgres.filters import compile_filter
from tests.support.killed_writer import writer_stuck_mid_ingest
from tests.support.pg import empty_store

pytestmark = pytest.mark.integration


METADATA = [
    {"access": "public", "doc_id": "a", "company": "3M", "years": [2021, 2022], "page": 1},
    {"access": "public", "doc_id": "b", "company": "Adobe", "years": [2022], "period": "FY2022"},
    {"access": "board", "doc_id": "c", "company": "3M", "period": "FY2021", "page": 7},
    {"access": "staff", "doc_id": "d", "company_aliases": ["JnJ", "J&J"], "years": []},
    {"access": "public", "doc_id": "e"},
]
FILTERS = [
    {"access": {"$in": ["public", "staff"]}},
    {"access": {"$nin": ["public"]}},
    {"company": "3M"},
    {"company": {"$ne": "3M"}},
    {"company": {"$in": ["Adobe", "Nike"]}},
    {"company": {"$nin": ["Adobe"]}},
    {"years": 2022},
    {"years": {"$in": [2021, 2030]}},
    {"years": {"$nin": [2022]}},
    {"years": [2022]},
    {"company_aliases": {"$in": ["J&J"]}},
    {"period": {"$eq": "FY2021"}},
    {"page": {"$in": [7, 8]}},
    {"$or": [{"company": "Adobe"}, {"period": "FY2021"}]},
    {"$and": [{"access": {"$in": ["public"]}}, {"company": "3M"}]},
    {"access": {"$in": ["public"]}, "years": {"$in": [2022]}},
    {"missing": {"$ne": "x"}},
    {"missing": {"$in": ["x"]}},
    {"doc_id": {"$in": []}},
]


@pytest.fixture
def pg_store(pg_url, embedding_model):
    """An empty PostgreSQL store (writes commit at once) and its URL."""
    store = empty_store(pg_url, embedding_model, sentence_vectors=True)
    yield store
    store.close()


@pytest.mark.parametrize("flt", FILTERS, ids=[str(f) for f in FILTERS])
def test_sql_filters_select_what_python_filters_select(pg_store, flt) -> None:
    docs = [Document(page_content=f"chunk {m['doc_id']}", metadata=m) for m in METADATA]
    pg_store.add_documents(docs, ids=[m["doc_id"] for m in METADATA])
    expected = {m["doc_id"] for m in METADATA if matches(m, flt)}
    where, params = compile_filter(flt)
    with connect(pg_store.url) as conn:
        rows = conn.execute(
            psycopg.sql.SQL("SELECT langchain_id FROM {} WHERE {}").format(
                pg_store.url.table("chunks"), where
            ),
            params,
        ).fetchall()
    assert {r[0] for r in rows} == expected


def test_sentence_vectors_and_cosines_round_trip(pg_store, embedding_model) -> None:
    content = "The inverter tripped twice. The fuse was replaced on Monday."
    doc = Document(page_content=f"Notes > Log\n\n{content}", metadata={"content": content})
    pg_store.add_documents([doc], ids=["k1"])
    spans, vecs = pg_store.sentence_vectors_for("k1")
    assert [content[s:e] for s, e in spans] == [
        "The inverter tripped twice.",
        "The fuse was replaced on Monday.",
    ]
    expected = np.asarray(
        embedding_model.embeddings.embed_documents([content[s:e] for s, e in spans])
    )
    assert np.allclose(vecs.astype(np.float32), expected, atol=2e-3)
    q = embedding_model.embeddings.embed_query("inverter fuse")
    (hit, score), *_ = pg_store.similarity_search_with_score_by_vector(q, k=1)
    assert hit.id == "k1"
    assert pg_store.cosine_for(["k1"], q)["k1"] == pytest.approx(score, abs=1e-5)


def test_pgvectorstore_reads_the_same_table(pg_url, sample_corpus, embedding_model) -> None:
    """The chunk table has PGVectorStore's layout: LangChain's own class finds the same hits."""
    from langchain_postgres import PGEngine, PGVectorStore

    ingest([sample_corpus], pg_url, embedding_model, progress=False)
    ours = load_index(pg_url, embedding_model).store
    url = StoreURL.parse(pg_url)
    engine = PGEngine.from_connection_string(
        url.conninfo.replace("postgresql://", "postgresql+psycopg://", 1)
    )
    try:
        theirs = PGVectorStore.create_sync(
            engine,
            embedding_service=embedding_model.embeddings,
            table_name=f"{url.namespace}_chunks",
            id_column="langchain_id",
            metadata_json_column="langchain_metadata",
        )
        question = "What does inverter fault code E-217 mean?"
        q = embedding_model.embeddings.embed_query(question)
        mine = [d.id for d, _ in ours.similarity_search_with_score_by_vector(q, k=5, exact=True)]
        got = theirs.similarity_search_by_vector(q, k=5)
        assert [d.id for d in got] == mine
        assert got[0].metadata["doc_id"]  # metadata comes back from the JSONB column
    finally:
        engine._run_as_sync(engine.close())


# -- a writer killed mid-ingest ----------------------------------------------------------------


def _texts(folder: Path, count: int) -> Path:
    folder.mkdir(parents=True)
    for i in range(count):
        (folder / f"log_{i:03d}.txt").write_text(
            f"Site log {i} has reference LOG-{i:04d}. The crew checked panel {i}.\n",
            encoding="utf-8",
        )
    return folder


def test_sigkill_mid_ingest_leaves_the_previous_state_answering(
    pg_url, tmp_path: Path, sample_corpus: Path, embedding_model
) -> None:
    first = ingest([sample_corpus], pg_url, embedding_model, progress=False)
    before = load_index(pg_url, embedding_model)
    old_keys = {k for k, _ in before.store.iter_metadata()}
    generated = _texts(tmp_path / "generated", 80)
    with writer_stuck_mid_ingest(
        "citerag.stores.postgres.store:PostgresStore",
        pg_url,
        [sample_corpus, generated],
        tmp_path / "child.err",
    ) as child:
        # While the writer's transaction is open, readers see the published state only.
        during = load_index(pg_url, embedding_model)
        assert during.manifest_id == first.build_id
        assert {k for k, _ in during.store.iter_metadata()} == old_keys
    assert child.returncode == -signal.SIGKILL

    after = load_index(pg_url, embedding_model)
    assert after.manifest_id == first.build_id
    assert {k for k, _ in after.store.iter_metadata()} == old_keys
    hits = after.store.bm25_search("LOG-0001 site log", k=5)
    assert all(not d.metadata["source"].startswith("generated/") for d, _ in hits)
    # The killed writer's lock went with its connection: the next ingest runs and publishes.
    report = ingest([sample_corpus, generated], pg_url, embedding_model, progress=False)
    assert len(report.indexed) == 80 and report.build_id != first.build_id
    (top, _), *_ = load_index(pg_url, embedding_model).store.bm25_search("LOG-0042", k=1)
    assert "LOG-0042" in top.metadata["content"]


def test_a_second_writer_waits_for_the_first(pg_url, sample_corpus, embedding_model) -> None:
    from citerag.stores.postgres.db import writer_lock

    url = StoreURL.parse(pg_url)
    held = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with writer_lock(url):
            held.set()
            release.wait(60)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(60)
        with connect(url, autocommit=True) as conn:
            got = conn.execute("SELECT pg_try_advisory_lock(%s)", [url.lock_key]).fetchone()
            assert got == (False,)  # a second writer would wait here
    finally:
        release.set()
        holder.join(60)
    with connect(url, autocommit=True) as conn:
        assert conn.execute("SELECT pg_try_advisory_lock(%s)", [url.lock_key]).fetchone() == (True,)


def test_an_empty_namespace_is_not_an_index(pg_url, embedding_model) -> None:
    with pytest.raises(IndexNotFoundError, match="citerag ingest"):
        load_index(pg_url, embedding_model)


def test_a_published_ingest_is_announced_on_the_store_channel(
    pg_url, sample_corpus, embedding_model
) -> None:
    url = StoreURL.parse(pg_url)
    with connect(url, autocommit=True) as listener:
        listener.execute(psycopg.sql.SQL("LISTEN {}").format(url.channel))
        report = ingest([sample_corpus], pg_url, embedding_model, progress=False)
        got = next(listener.notifies(timeout=30, stop_after=1), None)
    assert got is not None and got.channel == f"citerag_{url.namespace}"
    assert report.build_id


def test_concurrent_legs_fuse_exactly_as_sequential_ones(
    sample_pg_index, embedding_model, monkeypatch
) -> None:
    from chains.retrieval import HybridRetriever
    from citerag.stores.postgres.store import PostgresStore

    store = load_index(sample_pg_index, embedding_model).store
    retriever = HybridRetriever(store, embeddings=embedding_model.embeddings)
    questions = ["What does inverter fault code E-217 mean?", "What is Project Heron?"]
    concurrent = [retriever.retrieve(q, user_groups=["board"]) for q in questions]
    monkeypatch.setattr(PostgresStore, "concurrent_legs", False)
    sequential = [retriever.retrieve(q, user_groups=["board"]) for q in questions]
    for a, b in zip(concurrent, sequential, strict=True):
        assert [(c.key, c.scores, c.ranks) for c in a.candidates] == [
            (c.key, c.scores, c.ranks) for c in b.candidates
        ]
        assert a.candidates and {"dense", "bm25"} <= {r for c in a.candidates for r in c.ranks}
