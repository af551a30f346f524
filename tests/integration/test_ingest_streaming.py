"""Large documents: streamed in bounded memory, published after the small ones, size-limited.

A hashing embedding model stands in for the real one (the behaviour under test is how text
reaches the model, not the vectors), and counts what it is sent.
"""

from __future__ import annotations

import random
import zlib
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from langchain_core.embeddings import Embeddings

import citerag.index.ingest as ingest_module
import loaders.pipeline as pipeline
from citerag.embeddings import EmbeddingModel
from citerag.index.ingest import ingest
from citerag.server.settings import ServerSettings
from citerag.server.worker import IndexWorker, Job
from citerag.stores.faiss.registry import DocumentRegistry
from citerag.stores.loaded import load_index, read_manifest
from citerag.stores.registry import make_record
from loaders.chunking import ChunkSettings, doc_id_for
from loaders.decode import decode_text
from loaders.pipeline import DEFAULT_MAX_DOCUMENT_MB
from tests.support.ingest_checks import assert_parts_in_step

pytestmark = pytest.mark.integration

WORDS = [
    "inverter",
    "panel",
    "meter",
    "cable",
    "roof",
    "site",
    "member",
    "share",
    "board",
    "audit",
    "tariff",
    "grid",
    "battery",
    "export",
    "survey",
    "volunteer",
    "fuse",
    "ledger",
    "invoice",
    "quarter",
    "revenue",
    "margin",
]


class CountingEmbeddings(Embeddings):
    """Bag-of-words hashed into 64 dimensions; records every batch it is sent."""

    def __init__(self) -> None:
        self.calls: list[int] = []
        self.on_call: list = []  # callables run with the texts before embedding

    def _vec(self, text: str) -> list[float]:
        v = np.zeros(64, dtype=np.float32)
        for w in text.lower().split():
            v[zlib.crc32(w.encode()) % 64] += 1.0
        v[0] += 1e-3
        return (v / np.linalg.norm(v)).tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(len(texts))
        for hook in self.on_call:
            hook(texts)
        return [self._vec(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vec(text)


def _model(emb: CountingEmbeddings) -> EmbeddingModel:
    return EmbeddingModel("test/hashing-64", emb, 64, 512)


def _write_text(path: Path, mib: float, code: str, seed: int = 7, title: str = "") -> None:
    """Write about ``mib`` MiB of paragraphs, with ``code`` in the very last paragraph (and
    ``title`` on the first line)."""
    rng = random.Random(seed)
    target = int(mib * 1024 * 1024)
    with path.open("w", encoding="utf-8") as fh:
        written = 0
        if title:
            fh.write(f"{title}\n\n")
        while written < target:
            para = " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 160))) + ".\n\n"
            fh.write(para)
            written += len(para)
        fh.write(f"The closing paragraph names the reference {code}.\n")


def test_large_text_file_is_streamed_in_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    big = tmp_path / "docs" / "big_log.txt"
    big.parent.mkdir()
    _write_text(big, 20, "ZETA-LAST-7781", title="Big Log of the Pump Station")
    size = big.stat().st_size
    blocks_read = [0]
    original = pipeline.iter_text

    def counting_iter_text(path: Path, encoding: str, block_bytes: int = 1 << 20):
        for text in original(path, encoding, block_bytes):
            blocks_read[0] += 1
            yield text

    monkeypatch.setattr(pipeline, "iter_text", counting_iter_text)
    emb = CountingEmbeddings()
    seen_at_first_embed: list[int] = []
    emb.on_call.append(lambda texts: seen_at_first_embed.append(blocks_read[0]))
    index_dir = tmp_path / "index"
    report = ingest(
        [big.parent], index_dir, _model(emb), sentence_vectors=False, progress=False, batch_size=64
    )

    assert report.failed == {}
    assert report.indexed == ["docs/big_log.txt"]
    # Streaming: embedding started after the first block of text (of ~20) was read, and
    # no embedding call ever got more than one indexing batch.
    total_blocks = blocks_read[0]
    assert total_blocks >= size // (1 << 20) - 1  # blocks read while opening + streaming
    assert seen_at_first_embed[0] <= 2 < total_blocks
    assert max(emb.calls) <= 64
    assert len(emb.calls) >= report.chunks_added // 64
    assert report.chunks_added > 20_000

    loaded = load_index(index_dir, _model(emb))
    hits = loaded.store.bm25_search("ZETA-LAST-7781", k=1)
    assert hits and "ZETA-LAST-7781" in hits[0][0].metadata["content"]
    # Offsets are into the whole decoded text, as for a loaded file.
    text = decode_text(big.read_bytes(), big)
    metas = [m for _, m in loaded.store.iter_metadata()]
    for meta in [*metas[:: max(1, len(metas) // 200)], hits[0][0].metadata]:
        assert text[meta["start"] : meta["end"]] == meta["content"]
    doc = read_manifest(index_dir).documents[doc_id_for("docs/big_log.txt")]
    assert doc["status"] == "indexed" and doc["streamed"] is True
    # titled by its first line, as a loaded text file is (the file name agrees)
    assert (doc["title"], doc["title_source"]) == ("Big Log of the Pump Station", "first_heading")
    assert doc["characters"] == len(text)
    assert doc["chunks"] == report.chunks_added


def test_huge_document_does_not_hold_back_a_small_one(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    _write_text(docs / "huge.txt", 1.5, "HUGE-CODE-3141")
    (docs / "small.txt").write_text("The small note carries SMALL-CODE-2718 only.\n")
    index_dir = tmp_path / "index"
    emb = CountingEmbeddings()
    model = _model(emb)

    # While the huge document's chunks are embedded, the published build already serves
    # the small one (and not yet the huge one).
    served_during_huge: list[tuple[bool, bool]] = []

    def look(texts: list[str]) -> None:
        if served_during_huge or not any("inverter" in t or "ledger" in t for t in texts):
            return
        current = load_index(index_dir, model)
        small = bool(current.store.bm25_search("SMALL-CODE-2718", k=1))
        held = {m["source"] for _, m in current.store.iter_metadata()}
        served_during_huge.append((small, "docs/huge.txt" in held))

    emb.on_call.append(look)
    published: list[tuple[str, list[str]]] = []
    report = ingest(
        [docs],
        index_dir,
        model,
        progress=False,
        large_bytes=1024 * 1024,
        stream_min_bytes=1024 * 1024,
        on_publish=lambda build_id, sources: published.append((build_id, sources)),
    )

    assert served_during_huge == [(True, False)]
    assert [sources for _, sources in published] == [["docs/small.txt"], ["docs/huge.txt"]]
    assert report.build_id == published[-1][0] != published[0][0]
    final = load_index(index_dir, model)
    assert final.manifest.build_id == report.build_id
    assert final.store.bm25_search("HUGE-CODE-3141", k=1)
    assert final.store.bm25_search("SMALL-CODE-2718", k=1)
    assert_parts_in_step(final.store)
    assert sorted(report.indexed) == ["docs/huge.txt", "docs/small.txt"]


def test_documents_over_the_size_limit_fail_with_the_limit_named(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    _write_text(docs / "streamed.txt", 1.2, "OVER-1")  # streamed (>= 1 MiB), over 1 MiB
    (docs / "loaded.md").write_text("# Notes\n\n" + "meter reading " * 100_000)  # 1.3 MiB
    (docs / "fine.txt").write_text("A fine note with FINE-CODE-99.\n")
    index_dir = tmp_path / "index"
    model = _model(CountingEmbeddings())
    report = ingest(
        [docs],
        index_dir,
        model,
        progress=False,
        max_document_mb=1,
        stream_min_bytes=1024 * 1024,
    )

    assert report.indexed == ["docs/fine.txt"]
    assert set(report.failed) == {"docs/streamed.txt", "docs/loaded.md"}
    for reason in report.failed.values():
        assert "per-document limit of 1 MiB of text" in reason
        assert "max_document_mb" in reason
    ledger = read_manifest(index_dir).documents
    assert ledger[doc_id_for("docs/streamed.txt")]["kind"] == "too_large"
    assert ledger[doc_id_for("docs/loaded.md")]["kind"] == "too_large"


def test_every_accepted_text_upload_is_within_the_ingest_limit() -> None:
    # A text upload of max_upload_mb MiB decodes to at most that many MiB of characters,
    # so the server never accepts a text file that ingest would refuse as too large.
    assert ServerSettings().max_upload_mb <= DEFAULT_MAX_DOCUMENT_MB


class _FakeEngine:
    """What :class:`IndexWorker` uses of the engine: serves the build on disk."""

    def __init__(self, index_dir: Path, model: EmbeddingModel, registry: DocumentRegistry):
        self.index_dir = index_dir
        self.model = model
        self.model_loaded = True
        self.registry = registry
        self.snapshot: SimpleNamespace | None = None
        self.statuses_at_reload: list[dict[str, str]] = []

    def ingest_settings(self) -> tuple[ChunkSettings, bool]:
        return ChunkSettings(), True

    def current(self) -> SimpleNamespace | None:
        return self.snapshot

    def reload(self) -> SimpleNamespace:
        self.statuses_at_reload.append({r.name: r.status for r in self.registry.all()})
        manifest = read_manifest(self.index_dir)
        self.snapshot = SimpleNamespace(build_id=manifest.build_id, manifest=manifest)
        return self.snapshot


def test_server_worker_settles_a_small_upload_before_a_large_one_is_indexed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ingest_module, "LARGE_BYTES", 1024 * 1024)
    monkeypatch.setattr(ingest_module, "STREAM_MIN_BYTES", 1024 * 1024)
    registry = DocumentRegistry(tmp_path / "data")
    records = {}
    for name in ("small.txt", "large.txt"):
        rec = make_record(name.split(".")[0], name, name, "public", 0, "", "tester")
        path = registry.file_path(rec)
        path.parent.mkdir(parents=True)
        if name == "large.txt":
            _write_text(path, 1.5, "LARGE-UPLOAD-1")
        else:
            path.write_text("Small upload with SMALL-UPLOAD-2.\n")
        registry.add(rec)
        records[name] = rec
    engine = _FakeEngine(tmp_path / "index", _model(CountingEmbeddings()), registry)
    worker = IndexWorker(engine, registry, watch_interval=0)  # type: ignore[arg-type]
    worker._apply([Job("add", r.id) for r in records.values()])

    # The first published phase (the small upload) was served and settled before the large
    # upload's phase was published and loaded.
    assert engine.statuses_at_reload == [
        {"small.txt": "pending", "large.txt": "pending"},
        {"small.txt": "indexed", "large.txt": "pending"},
    ]
    small, large = registry.get("small"), registry.get("large")
    assert small is not None and large is not None
    assert (small.status, large.status) == ("indexed", "indexed")
    assert small.build_id != large.build_id == engine.snapshot.build_id
    assert large.chunks and large.chunks > 100
