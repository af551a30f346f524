"""Bad files fail one by one with a clear reason, the rest is indexed, and failures are retried."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from citerag import cli
from citerag.index.ingest import ingest
from citerag.stores.loaded import load_index, read_manifest
from loaders.chunking import doc_id_for
from tests.support.ingest_checks import (
    assert_offsets,
    assert_parts_in_step,
    chunks_by_source,
    keys_of,
    record_keys,
)

pytestmark = pytest.mark.integration

PREFIX = "docs/"
GOOD = [
    "annual_report_2025.pdf",
    "handbook.md",
    "maintenance_notes.txt",
    "restricted/board_minutes_2025.md",
    "safety_policy.html",
]
#: Bad file -> (failure kind, words the reason must contain).
BAD = {
    "corrupt.pdf": ("corrupt", ["unreadable PDF"]),
    "truncated.pdf": ("corrupt", ["unreadable PDF"]),
    "empty.txt": ("empty", ["empty"]),
    "junk.txt": ("binary", ["binary"]),
    "data.xls": ("unsupported", ["unsupported", ".xls"]),
    "data.xlsx": ("corrupt", ["corrupt zip archive"]),
    "locked.pdf": ("encrypted", ["encrypted", "password"]),
    "scanned.pdf": ("needs_ocr", ["no text layer", "OCR"]),
}


def _make_bad_files(folder: Path, sample_pdf: Path) -> None:
    rng = random.Random(2024)
    (folder / "corrupt.pdf").write_bytes(b"%PDF-1.7\n" + rng.randbytes(6000))
    data = sample_pdf.read_bytes()
    (folder / "truncated.pdf").write_bytes(data[: len(data) // 2])
    (folder / "empty.txt").write_bytes(b"")
    (folder / "junk.txt").write_bytes(rng.randbytes(5000))
    (folder / "data.xls").write_bytes(b"PK\x03\x04" + rng.randbytes(500))
    (folder / "data.xlsx").write_bytes(b"PK\x03\x04" + rng.randbytes(500))
    locked = PdfWriter()
    locked.add_page(PdfReader(sample_pdf).pages[1])
    locked.encrypt("secret")
    locked.write(folder / "locked.pdf")
    scanned = PdfWriter()
    for _ in range(3):
        scanned.add_blank_page(width=612, height=792)
    scanned.write(folder / "scanned.pdf")


@pytest.fixture(scope="module")
def messy(tmp_path_factory: pytest.TempPathFactory, sample_corpus: Path, embedding_model):
    """A folder of the sample docs plus bad files, ingested once: (folder, index, report)."""
    root = tmp_path_factory.mktemp("messy")
    folder = Path(shutil.copytree(sample_corpus, root / "docs"))
    _make_bad_files(folder, sample_corpus / "annual_report_2025.pdf")
    index_dir = root / "index"
    report = ingest([folder], index_dir, embedding_model, progress=False)
    return folder, index_dir, report


def test_each_bad_file_fails_with_its_reason(messy) -> None:
    _, index_dir, report = messy
    assert sorted(report.failed) == sorted(PREFIX + name for name in BAD)
    manifest = read_manifest(index_dir)
    for name, (kind, words) in BAD.items():
        rec = manifest.documents[doc_id_for(PREFIX + name)]
        assert rec["status"] == "failed", name
        assert rec["kind"] == kind, (name, rec["kind"], rec["reason"])
        assert name in rec["reason"]
        for word in words:
            assert word.lower() in rec["reason"].lower(), (name, word, rec["reason"])
        assert rec["chunks"] == 0
        assert report.failed[PREFIX + name] == rec["reason"]
    totals = manifest.to_json()["totals"]
    assert (totals["indexed"], totals["failed"]) == (len(GOOD), len(BAD))


def test_good_files_are_indexed_and_searchable(messy, embedding_model) -> None:
    folder, index_dir, report = messy
    assert sorted(report.indexed) == sorted(PREFIX + name for name in GOOD)
    store = load_index(index_dir, embedding_model).store
    by_source = chunks_by_source(store)
    assert sorted(by_source) == sorted(PREFIX + name for name in GOOD)
    assert_offsets(store, {PREFIX + name: folder / name for name in GOOD})
    assert_parts_in_step(store)
    assert set(record_keys(index_dir)) == set(store.dense.index_to_docstore_id.values())
    (top, _), *_ = store.bm25_search("SG-4410X firmware", k=1)
    assert top.metadata["source"] == PREFIX + "maintenance_notes.txt"
    doc = store.similarity_search("What was the total revenue in 2025?", k=1)[0]
    assert doc.metadata["source"] == PREFIX + "annual_report_2025.pdf"


def test_inspect_lists_failed_documents(messy, capsys: pytest.CaptureFixture[str]) -> None:
    _, index_dir, _ = messy
    assert cli.main(["inspect", "--index", str(index_dir)]) == 0
    out = capsys.readouterr().out
    assert f"failed {len(BAD)}" in out
    failed_part = out.split("failed documents (retried on the next ingest):", 1)[1]
    reasons = {
        line.strip().split(": ", 1)[0]: line.strip().split(": ", 1)[1]
        for line in failed_part.splitlines()
        if line.startswith("  ") and ": " in line
    }
    for name in BAD:
        assert PREFIX + name in reasons, f"{name} missing from inspect output"
    assert "OCR" in reasons[PREFIX + "scanned.pdf"]
    table = [line for line in out.splitlines() if line.startswith(("failed ", "indexed "))]
    assert sum(line.startswith("failed ") and line.endswith(tuple(BAD)) for line in table) == len(
        BAD
    )


def test_inspect_json(messy, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    _, index_dir, _ = messy
    assert cli.main(["inspect", "--index", str(index_dir), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    failed = {d["source"] for d in data["documents"].values() if d["status"] == "failed"}
    assert failed == {PREFIX + name for name in BAD}


def test_next_ingest_retries_failed_documents(
    tmp_path: Path, messy, sample_corpus: Path, embedding_model
) -> None:
    folder, index_dir, _ = messy
    # Work on copies so the module's fixture stays as it was.
    folder = Path(shutil.copytree(folder, tmp_path / "docs"))
    index_dir = Path(shutil.copytree(index_dir, tmp_path / "index", symlinks=True))
    (folder / "empty.txt").write_text("The spare inverter is stored at Tanners Lane hall.\n")
    writer = PdfWriter()
    writer.add_page(PdfReader(sample_corpus / "annual_report_2025.pdf").pages[1])
    writer.write(folder / "locked.pdf")  # same content, now without a password
    # A previously good document turning bad loses its stale chunks.
    (folder / "maintenance_notes.txt").write_bytes(b"\x00\x01\x02 binary now")
    notes_id = doc_id_for(PREFIX + "maintenance_notes.txt")
    assert keys_of(load_index(index_dir, embedding_model).store, notes_id)

    report = ingest([folder], index_dir, embedding_model, progress=False)

    assert sorted(report.updated) == [PREFIX + "empty.txt", PREFIX + "locked.pdf"]
    still_bad = {PREFIX + n for n in BAD if n not in ("empty.txt", "locked.pdf")}
    assert set(report.failed) == still_bad | {PREFIX + "maintenance_notes.txt"}
    assert not set(report.unchanged) & set(report.failed)
    loaded = load_index(index_dir, embedding_model)
    docs = loaded.manifest.documents
    for name in ("empty.txt", "locked.pdf"):
        rec = docs[doc_id_for(PREFIX + name)]
        assert (rec["status"], rec["reason"], rec["kind"]) == ("indexed", "", "")
        assert rec["chunks"] == len(keys_of(loaded.store, rec["doc_id"])) > 0
    assert docs[notes_id]["status"] == "failed" and docs[notes_id]["kind"] == "binary"
    assert keys_of(loaded.store, notes_id) == set()
    assert record_keys(index_dir, [notes_id]) == []
    assert_parts_in_step(loaded.store)
    (top, _), *_ = loaded.store.bm25_search("spare inverter Tanners Lane", k=1)
    assert top.metadata["source"] == PREFIX + "empty.txt"
    page = [m for _, m in chunks_by_source(loaded.store)[PREFIX + "locked.pdf"]]
    assert {m["page"] for m in page} == {1}
