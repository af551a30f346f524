"""The mixed-format corpus of ``benchmarks/mixed_formats.py``: build it from its sources, check it.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.mixed_corpus [--out DIR] [--no-scans]

The documents are invented for this project (``benchmarks/corpora/mixed/content.py``); the
questions are ``benchmarks/corpora/mixed/questions.jsonl``. :func:`build` writes two folders
holding the same facts:

* ``corpus/``: Word documents, slide decks, workbooks, CSV exports and e-mails (one with a
  Word attachment), the scanned documents as **image-only PDFs** (each page of the
  born-digital PDF rendered at 200 dpi with pypdfium2 and wrapped by Pillow) and the tables
  as a **photo** (rotated 1.2°, blurred, noisy JPEG) and a **scan** (grey PNG, light noise);
* ``originals/``: the same Office files and e-mails, the scanned documents as their
  born-digital text PDFs and each table image as the text PDF it was rendered from
  (``<stem>.pdf``), so a question about a scan can be asked of its original too.

Everything is generated deterministically (seeded noise); nothing is downloaded.
:func:`check` loads the originals with the real loaders and fails on a needle that is not
exactly once in its document's canonical text (whitespace-normalised), on a question whose
split is not the hash rule's (:func:`half`), or on a format below the brief's counts.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
from email.message import EmailMessage
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SOURCES = REPO / "benchmarks" / "corpora" / "mixed"
QUESTIONS = SOURCES / "questions.jsonl"

#: Resolution the scans are rendered at (pixels per inch).
SCAN_DPI = 200
#: Formats as reported, by how a corpus file was made.
FORMATS = ("docx", "pptx", "xlsx", "csv", "eml", "scanned pdf", "table image")
#: Least files of each format (the issue's "Done when").
MIN_FILES = {
    "docx": 3,
    "pptx": 2,
    "xlsx": 2,
    "csv": 2,
    "eml": 3,
    "scanned pdf": 3,
    "table image": 2,
}
SCAN_FORMATS = frozenset({"scanned pdf", "table image"})


def half(question_id: str) -> str:
    """``calibration`` or ``test``: a hash of the question id, fixed before any result
    (the rule of ``benchmarks/constraints_eval.py``)."""
    digest = int(hashlib.sha256(question_id.encode()).hexdigest(), 16)
    return "calibration" if digest % 2 == 0 else "test"


def question_problems(qs: list[dict[str, Any]]) -> list[str]:
    """Duplicate ids, and splits that are not the hash rule's (:func:`half`)."""
    ids = [q["id"] for q in qs]
    problems = ["duplicate question ids"] if len(set(ids)) != len(ids) else []
    for q in qs:
        if q.get("split") != half(q["id"]):
            problems.append(f"{q['id']}: split {q.get('split')!r}, the rule says {half(q['id'])}")
    return problems


def load_questions(path: Path = QUESTIONS) -> list[dict[str, Any]]:
    """The questions, one dict per line."""
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def attached_to(name: str) -> str | None:
    """The message a file is attached to (by its name in ``content.py``), else ``None``."""
    from benchmarks.corpora.mixed import content

    for message, spec in content.EML.items():
        if name in spec.get("attachments", []):
            return message
    return None


def format_of(name: str) -> str:
    """The reported format of a corpus file (by its name in ``content.py``); an e-mail's
    attachment counts as the e-mail (it is a document of its own in the index, but the
    file a user drops is the message)."""
    from benchmarks.corpora.mixed import content

    if attached_to(name):
        return "eml"
    if name in content.SCANNED:
        return "scanned pdf"
    if name in content.TABLE_IMAGES:
        return "table image"
    return Path(name).suffix.lstrip(".").lower()


# -- writers ---------------------------------------------------------------------------------


def write_docx(path: Path, blocks: list[tuple[str, Any]]) -> Path:
    """A Word document from ``(kind, content)`` blocks (``content.DOCX``)."""
    import docx

    doc = docx.Document()
    for kind, value in blocks:
        if kind == "title":
            doc.add_heading(value, 0)
        elif kind == "h1":
            doc.add_heading(value, 1)
        elif kind == "p":
            doc.add_paragraph(value)
        elif kind == "li":
            doc.add_paragraph(value, style="List Bullet")
        elif kind == "table":
            table = doc.add_table(rows=len(value), cols=len(value[0]))
            for i, row in enumerate(value):
                for j, cell in enumerate(row):
                    table.cell(i, j).text = cell
        else:
            raise ValueError(f"unknown block kind {kind!r}")
    doc.save(str(path))
    return path


def write_pptx(path: Path, slides: list[dict[str, Any]]) -> Path:
    """A slide deck: title + bullets (layout 1) or title + table (layout 5), with notes."""
    import pptx
    from pptx.util import Inches

    deck = pptx.Presentation()
    for spec in slides:
        if "table" in spec:
            slide = deck.slides.add_slide(deck.slide_layouts[5])
            rows = spec["table"]
            shape = slide.shapes.add_table(
                len(rows), len(rows[0]), Inches(1), Inches(2), Inches(8), Inches(0.4 * len(rows))
            )
            for i, row in enumerate(rows):
                for j, cell in enumerate(row):
                    shape.table.cell(i, j).text = cell
        else:
            slide = deck.slides.add_slide(deck.slide_layouts[1])
            frame = slide.placeholders[1].text_frame
            frame.text = spec["body"][0]
            for line in spec["body"][1:]:
                frame.add_paragraph().text = line
        slide.shapes.title.text = spec["title"]
        if spec.get("notes"):
            slide.notes_slide.notes_text_frame.text = spec["notes"]
    deck.save(str(path))
    return path


def write_xlsx(path: Path, sheets: dict[str, list[list[Any]]]) -> Path:
    """A workbook: one sheet per entry; ints shown ``#,##0``, floats ``0.00``."""
    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
        for cells in ws.iter_rows(min_row=2):
            for cell in cells:
                if isinstance(cell.value, bool):
                    continue
                if isinstance(cell.value, int):
                    cell.number_format = "#,##0"
                elif isinstance(cell.value, float):
                    cell.number_format = "0.00"
    wb.save(path)
    return path


def write_csv(path: Path, rows: list[list[str]]) -> Path:
    """A comma-separated export (quoted where needed, ``\\n`` line ends)."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")
    return path


def write_eml(path: Path, spec: dict[str, Any], attachments: dict[str, bytes]) -> Path:
    """An e-mail: headers, a plain or HTML body, Word attachments."""
    msg = EmailMessage()
    for key in ("subject", "from", "to", "date"):
        msg[key.capitalize()] = spec[key]
    if "html" in spec:
        msg.set_content(spec["html"], subtype="html")
    else:
        msg.set_content(spec["text"])
    for name in spec.get("attachments", []):
        msg.add_attachment(
            attachments[name],
            maintype="application",
            subtype="vnd.openxmlformats-officedocument.wordprocessingml.document",
            filename=name,
        )
    path.write_bytes(bytes(msg))
    return path


def write_text_pdf(path: Path, pages: list[list[str]]) -> Path:
    """A born-digital PDF: each page's lines in Helvetica 11 pt (``tests/support/pdfs.py``)."""
    from tests.support.pdfs import Line, write_pdf

    return write_pdf(path, [[Line(text) for text in page] for page in pages])


def _pdf_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def write_table_pdf(path: Path, title: str, rows: list[list[str]]) -> Path:
    """A born-digital one-page PDF of a ruled table: a title, then each row's cells at
    fixed column positions, a rule under the header and around the table."""
    from tests.support.pdfs import Line, write_pdf

    widths = [max(len(r[j]) for r in rows) for j in range(len(rows[0]))]
    xs = [72.0]
    for w in widths[:-1]:
        xs.append(xs[-1] + 7.0 * w + 24)
    right = xs[-1] + 7.0 * widths[-1] + 12
    ops = [f"BT /F1 15 Tf 72 720 Td ({_pdf_string(title)}) Tj ET"]
    y = 680.0
    top = y + 16
    for i, row in enumerate(rows):
        for x, cell in zip(xs, row, strict=True):
            ops.append(f"BT /F1 11 Tf {x:.1f} {y:.1f} Td ({_pdf_string(cell)}) Tj ET")
        if i == 0:
            ops.append(f"0.8 w 66 {y - 7:.1f} m {right:.1f} {y - 7:.1f} l S")
        y -= 24
    ops.append(f"0.5 w 66 {top:.1f} {right - 66:.1f} {y + 24 - 7 - top + 0:.1f} re S")
    return write_pdf(path, [[Line(raw=op) for op in ops]])


def render_pages(pdf: Path, dpi: int = SCAN_DPI) -> list[Any]:
    """Each page of a PDF as a greyscale Pillow image at ``dpi``."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        return [doc[i].render(scale=dpi / 72).to_pil().convert("L") for i in range(len(doc))]
    finally:
        doc.close()


def _noisy(image: Any, sigma: float, seed: int) -> Any:
    import numpy as np
    from PIL import Image

    rng = np.random.default_rng(seed)
    arr = np.asarray(image, dtype=np.float32) + rng.normal(0.0, sigma, size=image.size[::-1])
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), mode="L")


def write_scan_pdf(path: Path, original: Path) -> Path:
    """An image-only PDF: every page of ``original`` rendered at 200 dpi (no text layer)."""
    images = render_pages(original)
    images[0].save(path, "PDF", resolution=SCAN_DPI, save_all=True, append_images=images[1:])
    return path


def write_table_image(path: Path, original: Path, photo: bool, seed: int) -> Path:
    """The table page as a photo (rotated, blurred, noisy JPEG) or a scan (grey PNG)."""
    from PIL import ImageFilter

    (page,) = render_pages(original)
    if photo:
        page = page.rotate(1.2, expand=True, fillcolor=235).filter(ImageFilter.GaussianBlur(0.7))
        page = _noisy(page, 10.0, seed)
        page.save(path, "JPEG", quality=80, dpi=(SCAN_DPI, SCAN_DPI))
    else:
        page = _noisy(page, 4.0, seed)
        page.save(path, "PNG", dpi=(SCAN_DPI, SCAN_DPI))
    return path


# -- the corpus ------------------------------------------------------------------------------


def write_office(folder: Path, content: Any) -> None:
    """Write a content module's Word documents, slide decks, workbooks and CSV exports
    (its ``DOCX``, ``PPTX``, ``XLSX`` and ``CSV``) into ``folder``."""
    for name, blocks in content.DOCX.items():
        write_docx(folder / name, blocks)
    for name, slides in content.PPTX.items():
        write_pptx(folder / name, slides)
    for name, sheets in content.XLSX.items():
        write_xlsx(folder / name, sheets)
    for name, rows in content.CSV.items():
        write_csv(folder / name, rows)


def build(out: Path, *, scans: bool = True) -> dict[str, Any]:
    """Write ``out/corpus`` and ``out/originals`` (see the module docstring).

    Args:
        out: The folder to write into (its two subfolders are emptied first).
        scans: Also write the scanned PDFs and table images (and their originals).

    Returns:
        ``{"corpus": Path, "originals": Path, "files": {name: format}}``.
    """
    import shutil

    from benchmarks.corpora.mixed import content

    corpus, originals = out / "corpus", out / "originals"
    for folder in (corpus, originals):
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
    files: dict[str, str] = {}
    write_office(corpus, content)
    attached = {}
    for name, blocks in content.ATTACHMENTS.items():
        attached[name] = write_docx(out / name, blocks).read_bytes()
        (out / name).unlink()
    for name, spec in content.EML.items():
        write_eml(corpus / name, spec, attached)
    for f in sorted(corpus.iterdir()):
        shutil.copy2(f, originals / f.name)
        files[f.name] = format_of(f.name)
    if scans:
        for name, pages in content.SCANNED.items():
            write_text_pdf(originals / name, pages)
            write_scan_pdf(corpus / name, originals / name)
            files[name] = "scanned pdf"
        for seed, (name, spec) in enumerate(content.TABLE_IMAGES.items()):
            original = write_table_pdf(
                originals / f"{Path(name).stem}.pdf", spec["title"], spec["rows"]
            )
            write_table_image(corpus / name, original, spec["photo"], seed)
            files[name] = "table image"
    return {"corpus": corpus, "originals": originals, "files": files}


def _norm(text: str) -> str:
    return " ".join(text.split())


def check(out: Path) -> list[str]:
    """Build the corpus with its originals and list every problem (empty: all good)."""
    from benchmarks.corpora.mixed import content
    from loaders.registry import load_file

    built = build(out, scans=True)
    problems: list[str] = []
    counts: dict[str, int] = {}
    for fmt in built["files"].values():
        counts[fmt] = counts.get(fmt, 0) + 1
    for fmt, least in MIN_FILES.items():
        if counts.get(fmt, 0) < least:
            problems.append(f"{fmt}: {counts.get(fmt, 0)} files, fewer than {least}")
    texts = {f.stem: _norm(load_file(f).text) for f in sorted(built["originals"].iterdir())}
    (out / "attachments").mkdir(exist_ok=True)
    for name, blocks in content.ATTACHMENTS.items():
        doc = load_file(write_docx(out / "attachments" / name, blocks))
        texts[Path(name).stem] = _norm(doc.text)
    qs = load_questions()
    problems += question_problems(qs)
    for q in qs:
        if q.get("unanswerable"):
            continue
        ev = q["evidence"][0]
        if ev["doc"] not in built["files"] and not attached_to(ev["doc"]):
            problems.append(f"{q['id']}: unknown document {ev['doc']}")
            continue
        if q.get("format") != format_of(ev["doc"]):
            problems.append(f"{q['id']}: format {q.get('format')!r}")
        n = texts[Path(ev["doc"]).stem].count(_norm(ev["needle"]))
        if n != 1:
            problems.append(f"{q['id']}: needle {ev['needle']!r} found {n} times in {ev['doc']}")
    return problems


def main() -> int:
    """Build the corpus (and check it with ``--check``)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, default=REPO / "benchmarks" / "out" / "work" / "mixed")
    p.add_argument("--no-scans", action="store_true", help="leave out scans and table images")
    p.add_argument("--check", action="store_true", help="check needles, splits and counts")
    args = p.parse_args()
    if args.check:
        problems = check(args.out)
        for line in problems:
            print(line)
        print(f"{len(problems)} problems")
        return 1 if problems else 0
    built = build(args.out, scans=not args.no_scans)
    print(f"{len(built['files'])} files in {built['corpus']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
