"""The citation viewer's pure parts and its pdfium mapping, on hand-made text and the sample PDF.

Covers quote location across extractor differences (whitespace, soft hyphens, ligatures,
a changed character, repeated quotes), rectangle fractions (clamping, crop box, rotation),
the canonical-range checks, re-reading a document only when it is the indexed one, and the
viewer cookie being accepted only on the paths it is listed for.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import shutil
from pathlib import Path
from typing import Any

import pytest

from citerag.server.viewer import (
    MAX_PIXELS,
    DocumentViews,
    ViewerError,
    box_from_corners,
    check_range,
    fit_scale,
    fold,
    highlight_on_page,
    locate_quote,
    position_on_page,
    render_page_png,
    section_at,
)
from loaders.base import ParsedDocument, Segment
from loaders.registry import load_file

REVENUE = (
    "Total revenue for 2025 was £412,860, an increase of 11% on the £371,540 reported for 2024."
)


def collapse(text: str) -> str:
    return " ".join(text.split())


# -- fold and locate_quote -------------------------------------------------------------------


def test_fold_collapses_whitespace_and_maps_back_to_original_indices():
    text = "  a\r\n b\tc  "
    folded, origin = fold(text, drop_spaces=False)
    assert folded == "a b c"
    assert [text[i] for i in origin] == ["a", "\r", "b", "\t", "c"]
    compact, origin2 = fold(text, drop_spaces=True)
    assert compact == "abc"
    assert [text[i] for i in origin2] == ["a", "b", "c"]


def test_fold_expands_ligatures_and_drops_soft_hyphens():
    folded, origin = fold("e\ufb03cient re\u00adport", drop_spaces=True)
    assert folded == "efficientreport"
    assert origin[1:4] == [1, 1, 1]  # the three letters of the ligature map to one character


def test_exact_match_survives_different_line_breaks():
    page = "Financial Review\r\nTotal revenue for 2025 was £412,860, an increase of\r\n11% on the"
    quote = "Total revenue for 2025 was £412,860, an increase of 11% on the"
    m = locate_quote(page, quote)
    assert m is not None and m.method == "exact" and m.score == 1.0
    assert collapse(page[m.start : m.end]) == quote


def test_spacing_match_when_one_extractor_splits_words():
    page = "The in crease came mainly from a full year of gen-\u0002eration"
    m = locate_quote(page, "The increase came mainly")
    assert m is not None and m.method == "spacing"
    assert page[m.start : m.end] == "The in crease came mainly"


def test_fuzzy_match_with_a_changed_character_reports_its_score():
    page = "Header line\nMembers can't vote twice; each member has one vote.\nFooter"
    quote = "Members can’t vote twice; each member has one vote."  # curly apostrophe
    m = locate_quote(page, quote)
    assert m is not None and m.method == "fuzzy"
    assert 0.9 < m.score < 1.0
    assert page[m.start : m.end].startswith("Members can")
    assert page[m.start : m.end].endswith("one vote.")


def test_unrelated_quote_is_not_found():
    assert (
        locate_quote("Solar generation rose in the summer.", "Fault code E-217 explained") is None
    )
    assert locate_quote("anything", "   ") is None


def test_hint_picks_the_occurrence_nearest_the_quote_position():
    page = "Total revenue rose. " + "x" * 200 + " Total revenue rose."
    first = locate_quote(page, "Total revenue rose.", hint=0.0)
    last = locate_quote(page, "Total revenue rose.", hint=0.95)
    assert first is not None and last is not None
    assert first.start == 0
    assert last.start == page.rindex("Total revenue rose.")


# -- pure geometry and ranges ------------------------------------------------------------------


def test_box_from_corners_is_a_fraction_of_the_page_and_clamped():
    box = box_from_corners([(10_000, 20_000), (60_000, 25_000)], device=100_000)
    assert (box.left, box.top) == (0.1, 0.2)
    assert box.width == pytest.approx(0.5) and box.height == pytest.approx(0.05)
    edge = box_from_corners([(-50, -50), (100_500, 1_000)], device=100_000, pad=0.01)
    assert edge.left == 0.0 and edge.top == 0.0 and edge.left + edge.width == 1.0


def test_fit_scale_caps_the_rendered_pixels():
    assert fit_scale(595, 842, 2.0) == 2.0
    huge = fit_scale(14_400, 14_400, 2.0)
    assert huge < 2.0
    assert 14_400 * 14_400 * huge * huge <= MAX_PIXELS * 1.0001


def _doc() -> ParsedDocument:
    text = "Page one text here.\n\nPage two says hello world."
    return ParsedDocument(
        text=text,
        segments=[Segment(0, 19, page=1, section="Intro"), Segment(21, len(text), page=2)],
        title="t",
        file_type="pdf",
        pages=2,
    )


def test_position_on_page_and_ranges_off_the_page():
    doc = _doc()
    start = doc.text.index("hello")
    assert position_on_page(doc, 2, start, start + 5) == pytest.approx((start - 21) / (47 - 21))
    with pytest.raises(ViewerError) as exc:
        position_on_page(doc, 1, start, start + 5)
    assert exc.value.status == 422
    with pytest.raises(ViewerError):
        position_on_page(doc, 2, 15, 25)  # crosses the page boundary


def test_check_range_and_section_at():
    doc = _doc()
    check_range(doc.text, 0, len(doc.text))
    for start, end in ((5, 5), (-1, 3), (3, len(doc.text) + 1), (9, 2)):
        with pytest.raises(ViewerError) as exc:
            check_range(doc.text, start, end)
        assert exc.value.status == 422
    assert section_at(doc, 3) == "Intro"
    assert section_at(doc, 20) == ""


# -- pdfium on the sample PDF --------------------------------------------------------------------


@pytest.fixture(scope="module")
def report_pdf(sample_corpus: Path) -> Path:
    return sample_corpus / "annual_report_2025.pdf"


def test_highlight_on_the_sample_pdf_covers_the_quote(report_pdf: Path):
    hl = highlight_on_page(report_pdf, 2, REVENUE, hint=0.0)
    assert hl.method == "exact" and hl.note == ""
    assert collapse(hl.text) == REVENUE
    assert hl.boxes, "no rectangles"
    assert REVENUE in collapse(" ".join(b.text for b in hl.boxes))
    for box in hl.boxes:
        assert 0.0 <= box.left < box.left + box.width <= 1.0
        assert 0.0 <= box.top < box.top + box.height <= 1.0
    # the sentence is the first line of body text: in the upper fifth of an A4 page
    assert hl.boxes[0].top < 0.2


def test_quote_missing_from_the_page_opens_it_with_a_note(report_pdf: Path):
    hl = highlight_on_page(report_pdf, 3, REVENUE, hint=None)
    assert hl.boxes == [] and hl.method == "none"
    assert "could not be located" in hl.note
    assert hl.to_json()["pages"] == 5


def test_rotation_and_crop_box_move_the_rectangles(report_pdf: Path, tmp_path: Path):
    from pypdf import PdfReader, PdfWriter

    plain = highlight_on_page(report_pdf, 2, REVENUE, hint=0.0).boxes[0]

    writer = PdfWriter()
    writer.add_page(PdfReader(report_pdf).pages[1]).rotate(90)
    rotated_pdf = tmp_path / "rotated.pdf"
    writer.write(rotated_pdf)
    rotated = highlight_on_page(rotated_pdf, 1, REVENUE, hint=0.0)
    assert rotated.width > rotated.height  # landscape once rotated
    box = rotated.boxes[0]
    assert box.height > box.width  # a line of text now runs down the page
    # 90° clockwise: the line's top edge (near the page top) ends up near the right edge
    assert box.left == pytest.approx(1 - plain.top - plain.height, abs=0.01)

    writer = PdfWriter()
    page = writer.add_page(PdfReader(report_pdf).pages[1])
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    page.cropbox.lower_left = (width / 2 - 200, 0)  # crop the left part away
    page.cropbox.upper_right = (width, height)
    cropped_pdf = tmp_path / "cropped.pdf"
    writer.write(cropped_pdf)
    cropped = highlight_on_page(cropped_pdf, 1, REVENUE, hint=0.0)
    crop_w = width - (width / 2 - 200)
    assert cropped.width == pytest.approx(crop_w, abs=0.5)
    expected = (plain.left * width - (width / 2 - 200)) / crop_w
    assert cropped.boxes[0].left == pytest.approx(max(expected, 0.0), abs=0.01)


def test_render_page_png(report_pdf: Path):
    from PIL import Image

    png = render_page_png(report_pdf, 2, 1.0)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(io.BytesIO(png)) as image:  # A4 at 72 dpi, rounded up to whole pixels
        assert abs(image.size[0] - 595.3) < 1 and abs(image.size[1] - 841.9) < 1
    with Image.open(io.BytesIO(render_page_png(report_pdf, 2, 2.0))) as image:
        assert abs(image.size[0] - 1190.6) < 1
    with pytest.raises(ViewerError) as exc:
        render_page_png(report_pdf, 6, 1.0)
    assert exc.value.status == 404


# -- DocumentViews: only the indexed bytes are re-read ----------------------------------------


def _record(path: Path, **extra: Any) -> dict[str, Any]:
    parsed = load_file(path)
    rec = {
        "doc_id": "d" + path.stem,
        "doc_name": path.name,
        "path": str(path),
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "characters": len(parsed.text),
        "file_type": parsed.file_type,
        "status": "indexed",
    }
    rec.update(extra)
    return rec


def test_canonical_rereads_the_indexed_file_and_caches_it(sample_corpus: Path, tmp_path: Path):
    path = shutil.copy(sample_corpus / "handbook.md", tmp_path / "handbook.md")
    rec = _record(Path(path))
    views = DocumentViews(max_documents=1)
    opened = views.canonical(rec)
    assert opened.parsed.text == load_file(Path(path)).text
    assert views.canonical(rec) is opened  # cached


def test_canonical_refuses_a_changed_or_missing_file(sample_corpus: Path, tmp_path: Path):
    path = Path(shutil.copy(sample_corpus / "handbook.md", tmp_path / "handbook.md"))
    rec = _record(path)
    path.write_text(path.read_text(encoding="utf-8") + "\nAppended later.\n", encoding="utf-8")
    with pytest.raises(ViewerError) as exc:
        DocumentViews().canonical(rec)
    assert exc.value.status == 409 and "changed" in exc.value.detail

    rec = _record(path, characters=3)  # the loader read it to another length at ingest
    with pytest.raises(ViewerError) as exc:
        DocumentViews().canonical(rec)
    assert exc.value.status == 409 and "re-ingest" in exc.value.detail

    path.unlink()
    with pytest.raises(ViewerError) as exc:
        DocumentViews().canonical(rec)
    assert exc.value.status == 410
    with pytest.raises(ViewerError) as exc:
        DocumentViews().canonical({"doc_id": "x", "sha256": "0" * 64})
    assert exc.value.status == 410


def test_pages_only_for_pdfs_and_only_existing_pages(report_pdf: Path, sample_corpus: Path):
    views = DocumentViews()
    md = _record(sample_corpus / "handbook.md")
    with pytest.raises(ViewerError) as exc:
        views.page_png(md, 1, 1.0)
    assert exc.value.status == 422
    pdf = _record(report_pdf)
    text = views.canonical(pdf).parsed.text
    start = text.index(REVENUE)
    hl = views.page_highlight(pdf, 2, start, start + len(REVENUE))
    assert hl.quote == REVENUE and collapse(hl.text) == REVENUE
    for page, status in ((0, 404), (6, 404), (3, 422)):
        with pytest.raises(ViewerError) as exc:
            views.page_highlight(pdf, page, start, start + len(REVENUE))
        assert exc.value.status == status, page
    assert views.page_png(pdf, 2, 0.5) is not None


# -- the viewer cookie -----------------------------------------------------------------------


def test_viewer_cookie_is_accepted_only_on_its_paths(tmp_path: Path):
    import json

    from citerag.server.auth import (
        PLAYGROUND_COOKIE,
        VIEWER_COOKIE,
        AuthMiddleware,
        TokenStore,
        identity_of,
    )

    token = "viewer-test-token-0123456789"
    tokens_file = tmp_path / "tokens.json"
    tokens_file.write_text(json.dumps({"users": [{"user": "u", "token": token}]}))
    seen: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        who = identity_of(scope)
        seen.append(who.user if who else "")
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    mw = AuthMiddleware(
        app,
        tokens=TokenStore(tokens_file),
        cookies=[(VIEWER_COOKIE, ("/rag/invoke", "/rag/stream", "/app/api/"))],
    )

    def status(path: str, cookie: str) -> int:
        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b""}

        scope = {
            "type": "http",
            "path": path,
            "headers": [(b"cookie", f"other=1; {cookie}={token}".encode())],
        }
        asyncio.run(mw(scope, receive, send))
        return int(sent[0]["status"])

    assert status("/rag/invoke", VIEWER_COOKIE) == 200
    assert status("/app/api/me", VIEWER_COOKIE) == 200
    assert seen[:2] == ["u", "u"]
    assert status("/documents", VIEWER_COOKIE) == 401
    assert status("/rag/batch", VIEWER_COOKIE) == 401
    assert status("/rag/stream", VIEWER_COOKIE) == 200
    assert status("/rag/stream_events", VIEWER_COOKIE) == 401  # exact path, not a prefix
    assert status("/rag/invoke2", VIEWER_COOKIE) == 401
    assert status("/index/documents", VIEWER_COOKIE) == 401
    assert status("/rag/invoke", PLAYGROUND_COOKIE) == 401  # playground cookie not enabled
