"""``Manifest.public_records``: the client-facing projection of a build's documents."""

from __future__ import annotations

from citerag.server.documents import upload_id_of
from citerag.stores.manifest import Manifest

UPLOAD_ID = "a" * 32


def manifest() -> Manifest:
    docs = {
        "d1": {
            "doc_id": "d1",
            "doc_name": "report.pdf",
            "source": "corpus/report.pdf",
            "path": "/srv/secret/corpus/report.pdf",
            "sha256": "ff" * 32,
            "title": "Annual report",
            "file_type": ".pdf",
            "access": "public",
            "status": "indexed",
            "chunks": 12,
            "pages": 4,
            "ingested_at": "2026-01-01T00:00:00+00:00",
        },
        "d2": {
            "doc_id": "d2",
            "doc_name": "minutes.md",
            "source": "corpus/restricted/minutes.md",
            "access": "board",
            "status": "failed",
            "reason": "empty document",
            "chunks": 0,
        },
        "d3": {
            "doc_id": "d3",
            "doc_name": "ferry.md",
            "source": f"uploads/{UPLOAD_ID}/ferry.md",
            "status": "indexed",
            "chunks": 1,
        },
    }
    return Manifest(
        build_id="b1",
        created_at="2026-01-01T00:00:00+00:00",
        embedding={},
        index={},
        chunking={},
        software={},
        documents=docs,
    )


def test_records_are_sorted_and_carry_no_server_paths():
    recs = manifest().public_records(upload_id_of=upload_id_of)
    assert [r["doc_id"] for r in recs] == ["d1", "d2", "d3"]
    for rec in recs:
        assert "path" not in rec and "sha256" not in rec
        assert not any(str(v).startswith("/") for v in rec.values())
    first = recs[0]
    assert first["title"] == "Annual report" and first["chunks"] == 12 and first["pages"] == 4


def test_origin_and_upload_id():
    by_id = {r["doc_id"]: r for r in manifest().public_records(upload_id_of=upload_id_of)}
    assert by_id["d1"]["origin"] == "ingest" and by_id["d1"]["upload_id"] is None
    assert by_id["d3"]["origin"] == "upload" and by_id["d3"]["upload_id"] == UPLOAD_ID
    # Without a mapping every document counts as ingested.
    assert {r["origin"] for r in manifest().public_records()} == {"ingest"}


def test_access_filter_and_missing_label_means_public():
    public = manifest().public_records(readable=lambda label: label == "public")
    assert [r["doc_id"] for r in public] == ["d1", "d3"]
    assert public[1]["access"] == "public"
    board = manifest().public_records(readable=lambda label: label in ("public", "board"))
    assert [r["doc_id"] for r in board] == ["d1", "d2", "d3"]


def test_status_filter_and_reason_default():
    failed = manifest().public_records(status="failed")
    assert [(r["doc_id"], r["reason"]) for r in failed] == [("d2", "empty document")]
    indexed = manifest().public_records(status="indexed")
    assert {r["doc_id"] for r in indexed} == {"d1", "d3"}
    assert all(r["reason"] == "" for r in indexed)
    assert len(manifest().public_records(status="")) == 3


def test_upload_id_of_only_accepts_generated_ids():
    assert upload_id_of(f"uploads/{UPLOAD_ID}/x.pdf") == UPLOAD_ID
    assert upload_id_of("uploads/not-an-id/x.pdf") is None
    assert upload_id_of(f"uploads/{UPLOAD_ID}") is None
    assert upload_id_of(f"corpus/uploads/{UPLOAD_ID}/x.pdf") is None
