"""A scanned PDF (page images, no text layer) and a photographed note go through the real
ingest with the real Tesseract: a question is answered from the scan with a citation on the
right page, marked ``ocr`` in the citation and the trace; the viewer highlights the quote's
OCR words on the page image; ``citerag inspect`` lists the OCR pages."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citerag import cli
from citerag.index.ingest import ingest
from citerag.server.viewer import DocumentViews, ViewerError
from citerag.stores.loaded import load_index, read_manifest
from graphs.rag import build_graph
from loaders.registry import load_file
from tests.support.scans import render_pages, require_tesseract, scanned_pdf, text_pdf

pytestmark = pytest.mark.integration

COVER = [
    "Kestrel Solar service manual",
    "Second edition, printed and scanned for the archive.",
]
FAULTS = [
    "Fault codes of the KS-40 inverter",
    "Fault code E-217 means the insulation resistance of the array is below 1 megohm.",
    "Fault code E-305 means the cooling fan has stopped turning.",
    "After either fault the inverter waits ten minutes before it restarts.",
]
NOTE = [
    "Site note from the Ridgeway depot",
    "The spare inverter is kept in cabinet number 14 behind the workshop.",
]


@pytest.fixture(scope="module", autouse=True)
def _ocr_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A fresh OCR cache for this module (ingest OCRs; the viewer's re-read hits the cache)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("CITERAG_OCR", raising=False)
        mp.setenv("CITERAG_OCR_CACHE", str(tmp_path_factory.mktemp("ocr-cache")))
        yield


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory, embedding_model) -> dict[str, Any]:
    """The scans ingested once: folder, index and the loaded index."""
    require_tesseract()
    root = tmp_path_factory.mktemp("ocr")
    docs = root / "docs"
    docs.mkdir()
    scanned_pdf(docs / "service_manual.pdf", [COVER, FAULTS])
    render_pages(text_pdf(root / "note.pdf", [NOTE]))[0].save(docs / "site_note.png")
    (docs / "handbook.md").write_text(
        "# Handbook\n\nStaff park behind the depot and sign in at reception.\n", encoding="utf-8"
    )
    index = root / "index"
    report = ingest([docs], index, embedding_model, progress=False)
    assert report.failed == {}, report.failed
    return {"docs": docs, "index": index, "loaded": load_index(index, embedding_model)}


def _record(index: Path, name: str) -> dict[str, Any]:
    docs = read_manifest(index).to_json()["documents"].values()
    return next(d for d in docs if d["source"].endswith(name))


def test_question_is_answered_from_the_scan_with_an_ocr_citation(
    scanned: dict[str, Any], embedding_model
) -> None:
    loaded = scanned["loaded"]
    graph = build_graph(
        loaded.store,
        embeddings=embedding_model.embeddings,
        manifest_id=loaded.manifest_id,
        embedding_model=embedding_model.name,
    )
    result = graph.invoke({"question": "What does fault code E-217 mean?"})
    assert result["status"] == "answered", result["reason"]
    cite = result["citations"][0]
    assert cite["doc_name"] == "service_manual.pdf"
    assert cite["page"] == 2 and cite["fragment"] == "#page=2"
    assert "megohm" in cite["quote"]
    assert cite["ocr"] is True and 0.5 < cite["ocr_confidence"] <= 1.0
    # the canonical text the citation indexes is what the loader reads again (OCR included)
    text = load_file(scanned["docs"] / "service_manual.pdf").text
    assert text[cite["start"] : cite["end"]] == cite["quote"]
    passages = result["trace"]["context"]["passages"]
    cited = next(p for p in passages if p["chunk_id"] == cite["chunk_id"])
    assert cited["ocr"] is True and cited["ocr_confidence"] == cite["ocr_confidence"]
    top = next(c for c in result["trace"]["candidates"] if c["chunk_id"] == cite["chunk_id"])
    assert top["ocr"] is True

    # the viewer marks the quote's OCR words on the page image
    views = DocumentViews()
    record = _record(scanned["index"], "service_manual.pdf")
    hl = views.page_highlight(record, 2, cite["start"], cite["end"])
    assert hl.method == "ocr" and hl.boxes
    assert "E-217" in hl.text or "megohm" in hl.text
    for box in hl.boxes:
        assert (
            0 <= box.left < box.left + box.width <= 1 and 0 <= box.top < box.top + box.height <= 1
        )
    assert views.page_png(record, 2, 1.0).startswith(b"\x89PNG")


def test_manifest_and_inspect_list_the_ocr_pages(
    scanned: dict[str, Any], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    manual = _record(scanned["index"], "service_manual.pdf")
    assert sorted(manual["ocr_pages"]) == ["1", "2"]
    assert all(0.5 < c <= 1.0 for c in manual["ocr_pages"].values())
    assert manual["ocr_engine"].startswith("tesseract")
    note = _record(scanned["index"], "site_note.png")
    assert note["status"] == "indexed" and note["file_type"] == "image"
    assert note["pages"] == 1 and list(note["ocr_pages"]) == ["1"]

    fingerprint = read_manifest(scanned["index"]).to_json()["last_run"]["fingerprint"]
    assert fingerprint["ocr"]["engine"].startswith("tesseract")
    assert fingerprint["ocr"]["max_pages"] == 50

    index = str(scanned["index"])
    assert cli.main(["inspect", "--index", index]) == 0
    out = capsys.readouterr().out
    part = out.split("pages read by OCR", 1)[1]
    assert "service_manual.pdf: 2 page(s)" in part and "site_note.png: 1 page(s)" in part
    assert "LOW" not in part  # clean renders read with high confidence
    monkeypatch.setattr("loaders.ocr.LOW_CONFIDENCE", 1.01)  # every page is now "low"
    assert cli.main(["inspect", "--index", index]) == 0
    part = capsys.readouterr().out.split("pages read by OCR", 1)[1]
    assert "LOW confidence on pages {1:" in part
    assert cli.main(["inspect", "--index", index, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert any(d.get("ocr_pages") for d in data["documents"].values())


def test_ingest_no_ocr_fails_the_scan_as_needs_ocr(
    scanned: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("CITERAG_OCR", "1")  # restored after the test: --no-ocr sets it to 0
    scan = str(scanned["docs"] / "service_manual.pdf")
    index = str(tmp_path / "index")
    assert cli.main(["ingest", scan, "--index", index, "--no-ocr", "--quiet", "--json"]) == 0
    (reason,) = json.loads(capsys.readouterr().out)["failed"].values()
    assert "no text layer" in reason and "OCR is turned off" in reason
    # the switch is part of the settings: turning OCR back on re-reads every document
    assert read_manifest(tmp_path / "index").to_json()["last_run"]["fingerprint"]["ocr"] == "off"


def test_viewer_shows_an_image_document_with_its_ocr_highlight(scanned: dict[str, Any]) -> None:
    views = DocumentViews()
    record = _record(scanned["index"], "site_note.png")
    text = views.canonical(record).parsed.text
    start = text.index("cabinet number 14")
    hl = views.page_highlight(record, 1, start, start + len("cabinet number 14"))
    assert hl.method == "ocr" and hl.text == "cabinet number 14" and len(hl.boxes) == 1
    assert hl.width == pytest.approx(612, abs=1)  # 200 dpi pixels as points
    png = views.page_png(record, 1, 2.0)
    assert png.startswith(b"\x89PNG")
    with pytest.raises(ViewerError) as err:
        views.page_highlight(record, 2, start, start + 3)
    assert err.value.status == 404
