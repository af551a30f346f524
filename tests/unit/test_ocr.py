"""OCR of scanned pages and images with the real Tesseract: rendered pages whose words are
known come back as text with boxes on the page; oversized images are refused before they
are decoded; with OCR off a scan still fails ``needs_ocr``."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, cast

import pytest
from pypdf import PdfReader, PdfWriter

from citerag.eval.cer import character_error_rate
from loaders.base import DocumentLoadError
from loaders.chunking import ChunkSettings, chunk_document
from loaders.image import MAX_IMAGE_PIXELS
from loaders.ocr import (
    OcrWord,
    TesseractEngine,
    assemble,
    max_pages,
    ocr_image,
    parse_tsv,
    words_in_range,
)
from loaders.registry import load_file
from tests.support.hostile import png_header_only
from tests.support.scans import render_pages, require_tesseract, scanned_pdf, text_pdf

LINES = [
    "Northwind Energy maintenance report for the year 2025",
    "Inverter fault code E-217 means the grid voltage left its band.",
    "The technician replaced the surge module on 14 March 2025.",
    "Total cost of the repair was EUR 1,842.50 including labour.",
]
STATEMENT = [
    "Statement of income 2025 2024",
    "Revenue 48,210 41,977",
    "Operating profit 4,319 2,481",
]


@pytest.fixture(autouse=True)
def _ocr_on(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CITERAG_OCR", raising=False)
    monkeypatch.delenv("CITERAG_OCR_MAX_PAGES", raising=False)
    monkeypatch.setenv("CITERAG_OCR_CACHE", str(tmp_path / "ocr-cache"))  # each test OCRs


@pytest.fixture(scope="module")
def engine() -> TesseractEngine:
    require_tesseract()
    return TesseractEngine()


def test_rendered_page_is_read_back_with_boxes_on_the_page(
    tmp_path: Path, engine: TesseractEngine
) -> None:
    image = render_pages(text_pdf(tmp_path / "page.pdf", [LINES]))[0]
    page = ocr_image(image, engine, page=1, dpi=200, points_per_pixel=72 / 200)
    assert character_error_rate(page.text, "\n".join(LINES)) < 0.10
    assert page.width == pytest.approx(612, abs=1) and page.height == pytest.approx(792, abs=1)
    assert 0.5 < page.confidence <= 1.0
    assert len(page.words) >= 30
    for word in page.words:
        left, top, right, bottom = word.box
        assert 0 <= left < right <= page.width and 0 <= top < bottom <= page.height
        assert page.text[word.start : word.end].strip() == page.text[word.start : word.end]
    # the first line was drawn at x = 72 pt, baseline 740 pt from the bottom (52 from the top)
    first = page.words[0]
    assert page.text[first.start : first.end] == "Northwind"
    assert first.box[0] == pytest.approx(72, abs=3) and 40 < first.box[1] < 52 < first.box[3]


def test_scanned_pdf_pages_get_ocr_text_offsets_and_chunk_flags(tmp_path: Path) -> None:
    require_tesseract()
    text = text_pdf(tmp_path / "cover.pdf", [["Cover page with a real text layer, no OCR."]])
    scan = scanned_pdf(tmp_path / "scan.pdf", [LINES, STATEMENT])
    mixed = PdfWriter()
    for source in (text, scan):
        for pg in PdfReader(source).pages:
            mixed.add_page(pg)
    path = tmp_path / "mixed.pdf"
    mixed.write(path)

    doc = load_file(path)
    assert doc.pages == 3 and sorted(doc.ocr_pages) == [2, 3]
    assert "Cover page" in doc.text
    seg = {s.page: s for s in doc.segments}
    page2 = doc.text[seg[2].start : seg[2].end]
    assert character_error_rate(page2, "\n".join(LINES)) < 0.10
    # a statement's rows are read across its columns (page segmentation mode 4)
    assert "Revenue 48,210 41,977" in doc.text[seg[3].start : seg[3].end]
    for number, page in doc.ocr_pages.items():
        assert seg[number].start <= page.words[0].start and page.words[-1].end <= seg[number].end
        assert all(
            doc.text[w.start : w.end] and " " not in doc.text[w.start : w.end] for w in page.words
        )
    e217 = doc.text.index("E-217")
    hit = words_in_range(doc.ocr_pages[2], e217, e217 + 5)
    assert [doc.text[w.start : w.end] for w in hit] == ["E-217"]
    assert any("OCR read 2 scanned page(s)" in w for w in doc.warnings)
    assert "OCR tesseract" in doc.parser

    chunks = chunk_document(doc, ChunkSettings(), {"doc_id": "d1", "title": "Mixed"})
    by_page = {c.page: c.metadata for c in chunks}
    assert "ocr" not in by_page[1]
    assert by_page[2]["ocr"] is True
    assert by_page[2]["ocr_confidence"] == doc.ocr_pages[2].confidence
    for chunk in chunks:
        assert doc.text[chunk.start : chunk.end] == chunk.content


def test_ocr_off_keeps_the_needs_ocr_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scan = scanned_pdf(tmp_path / "scan.pdf", [LINES])
    png = tmp_path / "scan.png"
    render_pages(text_pdf(tmp_path / "p.pdf", [LINES]))[0].save(png)
    monkeypatch.setenv("CITERAG_OCR", "0")
    for path in (scan, png):
        with pytest.raises(DocumentLoadError) as err:
            load_file(path)
        assert err.value.kind == "needs_ocr"
        assert "OCR is turned off" in err.value.reason


def test_image_files_are_read_as_pages_and_tiff_frames_are_capped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_tesseract()
    image = render_pages(text_pdf(tmp_path / "p.pdf", [LINES]))[0]
    png = tmp_path / "note.png"
    image.save(png, dpi=(200, 200))
    doc = load_file(png)
    assert doc.file_type == "image" and doc.pages == 1
    assert character_error_rate(doc.text, "\n".join(LINES)) < 0.10
    assert doc.ocr_pages[1].width == pytest.approx(612, abs=1)

    tiff = tmp_path / "fax.tif"
    image.save(tiff, save_all=True, append_images=[image, image], dpi=(200, 200))
    monkeypatch.setenv("CITERAG_OCR_MAX_PAGES", "2")
    doc = load_file(tiff)
    assert doc.pages == 2 and [s.page for s in doc.segments] == [1, 2]
    assert any("1 of 3 frames not OCR'd" in w for w in doc.warnings)


@pytest.mark.parametrize(("width", "height"), [(30_000, 30_000), (7_000, 7_000)])
def test_oversized_image_is_refused_before_decoding(
    tmp_path: Path, width: int, height: int
) -> None:
    assert width * height > MAX_IMAGE_PIXELS
    path = tmp_path / "huge.png"
    path.write_bytes(png_header_only(width, height))
    with pytest.raises(DocumentLoadError) as err:
        load_file(path)
    assert err.value.kind == "too_large"
    assert "pixels" in err.value.reason and "huge.png" in err.value.reason


def test_unreadable_image_fails_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"\xff\xd8\xff not really a jpeg")
    with pytest.raises(DocumentLoadError) as err:
        load_file(path)
    assert err.value.kind == "corrupt"


def test_tsv_words_are_joined_into_lines_and_blocks() -> None:
    head = "\t".join(
        [
            "level",
            "page_num",
            "block_num",
            "par_num",
            "line_num",
            "word_num",
            "left",
            "top",
            "width",
            "height",
            "conf",
            "text",
        ]
    )
    rows = [
        "5\t1\t1\t1\t1\t1\t10\t10\t50\t12\t96.5\tTotal",
        "5\t1\t1\t1\t1\t2\t70\t10\t40\t12\t91\trevenue",
        "4\t1\t1\t1\t2\t0\t10\t30\t90\t12\t-1\t",
        "5\t1\t1\t1\t2\t1\t10\t30\t60\t12\t88\t412,860",
        "5\t1\t2\t1\t1\t1\t10\t90\t60\t12\t40\tNotes",
        "5\t1\t2\t1\t1\t2\t80\t90\t10\t12\t95\t ",
    ]
    words = parse_tsv("\n".join([head, *rows]))
    assert [w.text for w in words] == ["Total", "revenue", "412,860", "Notes"]
    assert words[0].confidence == pytest.approx(0.965) and words[0].right == 60
    text, placed = assemble(words)
    assert text == "Total revenue\n412,860\n\nNotes"
    assert [text[s:e] for s, e, _ in placed] == ["Total", "revenue", "412,860", "Notes"]
    assert assemble([]) == ("", [])
    assert isinstance(words[0], OcrWord)


def test_bad_settings_name_the_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITERAG_OCR_MAX_PAGES", "many")
    with pytest.raises(ValueError, match=r"CITERAG_OCR_MAX_PAGES.*'many'"):
        max_pages()
    monkeypatch.setenv("CITERAG_OCR_MAX_PAGES", "7")
    assert max_pages() == 7
    require_tesseract()
    with pytest.raises(ValueError, match="psm"):
        TesseractEngine(psm=20)
    with pytest.raises(FileNotFoundError):
        TesseractEngine(binary="no-such-tesseract")


class _Counting:
    """The real engine, counting its calls."""

    def __init__(self, engine: TesseractEngine) -> None:
        self.engine, self.calls, self.name = engine, 0, engine.name

    def version(self) -> str:
        return self.engine.version()

    def settings(self) -> str:
        return self.engine.settings()

    def recognize(self, image: Any, dpi: int) -> list[OcrWord]:
        self.calls += 1
        return self.engine.recognize(image, dpi)


def test_ocr_results_are_cached_by_page_image(
    tmp_path: Path, engine: TesseractEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    image = render_pages(text_pdf(tmp_path / "page.pdf", [LINES]))[0]
    counting = _Counting(engine)
    first = ocr_image(image, counting, page=1, dpi=200, points_per_pixel=72 / 200)
    again = ocr_image(image, counting, page=1, dpi=200, points_per_pixel=72 / 200)
    assert counting.calls == 1 and again == first
    assert len(list((tmp_path / "ocr-cache").glob("*.json"))) == 1
    other = ocr_image(image.rotate(180), counting, page=1, dpi=200, points_per_pixel=72 / 200)
    assert counting.calls == 2 and other.text != first.text
    monkeypatch.setenv("CITERAG_OCR_CACHE", "off")
    ocr_image(image, counting, page=1, dpi=200, points_per_pixel=72 / 200)
    assert counting.calls == 3


def test_a_scanned_page_with_a_few_stray_characters_stays_empty(tmp_path: Path) -> None:
    require_tesseract()
    doc = load_file(scanned_pdf(tmp_path / "signed.pdf", [LINES, ["Signed: J.S."]]))
    assert sorted(doc.ocr_pages) == [1] and 2 in doc.empty_pages
    assert [s.page for s in doc.segments] == [1]
    assert any("OCR found no text" in w and "[2]" in w for w in doc.warnings)
    with pytest.raises(DocumentLoadError) as err:
        load_file(scanned_pdf(tmp_path / "only.pdf", [["Signed: J.S."]]))
    assert err.value.kind == "needs_ocr" and "OCR found no text on its 1" in err.value.reason


def test_a_short_sign_read_confidently_is_an_images_text(tmp_path: Path) -> None:
    """A photographed sign under 20 characters is the image's whole text (it failed `empty`
    before); the same words on a scanned PDF page stay a signature page's."""
    require_tesseract()
    image = render_pages(text_pdf(tmp_path / "sign.pdf", [["Gate code: 4417"]]))[0]
    image.save(tmp_path / "gate.png", dpi=(200, 200))
    doc = load_file(tmp_path / "gate.png")
    assert doc.text == "Gate code: 4417" and [s.page for s in doc.segments] == [1]
    assert doc.ocr_pages[1].confidence >= 0.8
    from PIL import Image

    blank = Image.new("L", image.size, 255)
    blank.save(tmp_path / "blank.png", dpi=(200, 200))
    with pytest.raises(DocumentLoadError) as err:
        load_file(tmp_path / "blank.png")
    assert err.value.kind == "empty"


class _Recording(_Counting):
    """The real engine, recording the size of each image it is given."""

    def __init__(self, engine: TesseractEngine) -> None:
        super().__init__(engine)
        self.sizes: list[tuple[int, int]] = []

    def recognize(self, image: Any, dpi: int) -> list[OcrWord]:
        self.sizes.append(image.size)
        return super().recognize(image, dpi)


def test_a_huge_scanned_page_is_rendered_within_the_pixel_cap(
    tmp_path: Path, engine: TesseractEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scan saved at a low resolution has a huge page (here 3060 x 3960 pt): rendered at
    200 dpi it would be 93 million pixels (a 14400 pt page: 1.6 billion), so the render is
    scaled down to the cap, and the words' boxes still land on the page."""
    import loaders.pdf_ocr as pdf_ocr
    from loaders.pdf import load_pdf

    cap = 4_000_000
    monkeypatch.setattr(pdf_ocr, "MAX_RENDER_PIXELS", cap, raising=False)
    image = render_pages(text_pdf(tmp_path / "page.pdf", [LINES]))[0]
    path = tmp_path / "poster.pdf"
    image.save(path, "PDF", resolution=40)  # 1700 x 2200 px at 40 dpi
    width, height = (float(v) for v in PdfReader(path).pages[0].mediabox[2:])
    assert width * height * (200 / 72) ** 2 > 20 * cap
    recording = _Recording(engine)
    doc = load_pdf(path, path.read_bytes(), ocr_engine=recording)
    assert recording.sizes and all(w * h <= cap for w, h in recording.sizes)
    assert "Inverter fault code" in doc.text
    boxes = [w.box for p in doc.ocr_pages.values() for w in p.words]
    assert boxes and all(0 <= b[0] < b[2] <= width and 0 <= b[1] < b[3] <= height for b in boxes)


def test_upright_rgb_turns_by_exif_and_lays_transparency_on_white() -> None:
    """What OCR and the viewer read: the frame as displayed, never black on black."""
    from PIL import Image

    from loaders.image import upright_rgb

    stored = Image.new("RGB", (40, 100), "white")  # a sideways photo, 40 wide
    exif = Image.Exif()
    exif[0x0112] = 6  # the viewer turns it 90 degrees clockwise
    buf = io.BytesIO()
    stored.save(buf, format="JPEG", exif=exif)
    with Image.open(io.BytesIO(buf.getvalue())) as photo:
        assert upright_rgb(photo).size == (100, 40)
    logo = Image.new("RGBA", (10, 10), (0, 0, 0, 0))  # transparent background
    logo.putpixel((5, 5), (0, 0, 0, 255))  # one black pixel of text
    flat = upright_rgb(logo)
    assert flat.mode == "RGB"
    assert flat.getpixel((0, 0)) == (255, 255, 255) and flat.getpixel((5, 5)) == (0, 0, 0)


def test_a_photo_stored_sideways_and_text_on_transparency_are_read(tmp_path: Path) -> None:
    """A JPEG with EXIF orientation 6 (a phone's upright photo) and black text on a
    transparent PNG: both failed `no text could be extracted` before."""
    require_tesseract()
    from PIL import Image

    image = render_pages(text_pdf(tmp_path / "p.pdf", [LINES]))[0]
    exif = Image.Exif()
    exif[0x0112] = 6
    image.rotate(90, expand=True).save(tmp_path / "photo.jpg", exif=exif, dpi=(200, 200))
    doc = load_file(tmp_path / "photo.jpg")
    assert character_error_rate(doc.text, "\n".join(LINES)) < 0.10
    alpha = Image.new("RGBA", image.size, (0, 0, 0, 0))
    alpha.putalpha(image.point(lambda v: 255 - v))  # the ink opaque, the paper transparent
    alpha.save(tmp_path / "logo.png", dpi=(200, 200))
    doc = load_file(tmp_path / "logo.png")
    assert character_error_rate(doc.text, "\n".join(LINES)) < 0.10


def _pinned_price_list(font_px: int) -> tuple[Any, list[str]]:
    """A phone photo of a price list pinned on a cork board: the sheet turned 2 degrees on a
    dark textured surround, blurred, no dpi header; and its prices."""
    import random

    from PIL import Image, ImageDraw, ImageFilter, ImageFont

    font = ImageFont.truetype("DejaVuSans.ttf", font_px)
    items = [("Replacement front door key", "£15"), ("Parking permit admin", "£10")]
    items += [("Change of sharer", "£50"), ("Guest Wi-Fi voucher", "£5")]
    sheet = Image.new("RGB", (font_px * 26, font_px * 2 * (len(items) + 2)), (248, 248, 244))
    draw = ImageDraw.Draw(sheet)
    draw.text((font_px, font_px // 2), "Tenant counter - price list", font=font, fill=0)
    for i, (name, price) in enumerate(items):
        y = int(font_px * (2.5 + 2 * i))
        draw.text((font_px, y), name, font=font, fill=(10, 10, 10))
        draw.text((font_px * 18, y), price, font=font, fill=(10, 10, 10))
    cork = (176, 132, 86)
    sheet = sheet.rotate(-2.0, expand=True, fillcolor=cork, resample=Image.Resampling.BICUBIC)
    photo = Image.new("RGB", (sheet.width + font_px * 16, sheet.height + font_px * 4), cork)
    pixels, rnd = photo.load(), random.Random(font_px)
    for _ in range(photo.width * photo.height // 16):
        x, y, v = rnd.randrange(photo.width), rnd.randrange(photo.height), rnd.randint(-30, 30)
        rgb = cast(tuple[int, int, int], pixels[x, y])  # type: ignore[index]
        pixels[x, y] = tuple(max(0, min(255, c + v)) for c in rgb)  # type: ignore[index]
    photo.paste(sheet, (font_px * 12, font_px * 2))
    return photo.filter(ImageFilter.GaussianBlur(0.8)), [p for _, p in items]


@pytest.mark.parametrize("font_px", [20, 34, 50])
def test_a_photo_of_a_sheet_on_a_dark_surround_keeps_its_price_column(
    tmp_path: Path, font_px: int
) -> None:
    """Tesseract's global (Otsu) threshold turned the cork around a photographed sheet black
    and dropped the column of prices beside it (only the names were read, at any dpi); the
    local (Sauvola) threshold reads every price, whatever the text size."""
    require_tesseract()
    photo, prices = _pinned_price_list(font_px)
    photo.save(tmp_path / "IMG_0001.png")  # a phone photo: no dpi header
    doc = load_file(tmp_path / "IMG_0001.png")
    lines = doc.text.splitlines()
    names = ["front door key", "permit admin", "of sharer", "voucher"]
    for name, price in zip(names, prices, strict=True):
        assert any(name in ln and ln.endswith(price) for ln in lines), (name, doc.text)


def _line(text: str, block: int, par: int, line: int, left: float, right: float, top: float):
    """One OCR line's words spread evenly from ``left`` to ``right`` (20 px high)."""
    words = text.split()
    step = (right - left) / len(words)
    return [
        OcrWord(
            w,
            left + i * step,
            top,
            left + (i + 1) * step - 8,
            top + 20,
            0.9,
            block * 1000 + par,
            line,
        )
        for i, w in enumerate(words)
    ]


def test_a_paragraph_tesseract_splits_where_its_lines_wrap_is_one_paragraph() -> None:
    """Tesseract's paragraph finder split a scanned letter's paragraph where a line merely
    wrapped ("... licensing scheme for houses" / "in multiple occupation comes into force
    on 1 February 2027"), and the blank line between them cut the sentence. Inside one of
    its blocks, a paragraph break stands only after a short line or before an indented one;
    a new block is always a new paragraph; offsets still point at every word."""
    words = [
        *_line("I write to say the licensing scheme for houses", 10, 1, 1, 160, 1467, 824),
        *_line("in multiple occupation starts on 1 February 2027. It", 10, 2, 1, 159, 1478, 869),
        *_line("applies to any property let to three people.", 10, 2, 2, 159, 1398, 911),
        *_line("Our records show that 22 Chapel Row will need one.", 10, 3, 1, 160, 1523, 955),
        *_line("The fee is paid in two parts.", 10, 4, 1, 160, 700, 999),  # after a full line
        *_line("A licence lasts five years.", 10, 5, 1, 160, 640, 1043),  # after a short line
        *_line("It can be renewed online.", 10, 6, 1, 260, 760, 1087),  # indented
        *_line("Yours faithfully,", 11, 1, 1, 160, 450, 1200),
    ]
    text, placed = assemble(words)
    assert text.split("\n\n") == [
        "I write to say the licensing scheme for houses\n"
        "in multiple occupation starts on 1 February 2027. It\n"
        "applies to any property let to three people.\n"
        "Our records show that 22 Chapel Row will need one.\n"
        "The fee is paid in two parts.",
        "A licence lasts five years.",
        "It can be renewed online.",
        "Yours faithfully,",
    ]
    assert [text[s:e] for s, e, _ in placed] == [w.text for w in words]
