"""Which OCR engine reads rendered pages best: Tesseract against RapidOCR (ONNX).

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.ocr_engines [--dpi 200] [--repeat 1]

Makes text PDFs whose text is known (``tests/support/pdfs.py``: Helvetica lines drawn at
chosen sizes and positions), renders each page with pdfium at ``--dpi`` (200 by default, the
loader's), OCRs the image with each installed engine and prints, per page and engine, the
character error rate (edit distance / reference length, whitespace runs collapsed to one
space on both sides) and the seconds per page (wall clock, after one warm-up page so model
loading is not counted; the load time is printed apart). Pages: prose at 11 pt, a small
statement with numbers in three columns, small print at 8 pt, a dense fine-print page
at 7 pt, and two columns of text (the reference reads the left column, then the right).
Writes ``benchmarks/out/ocr_engines.json`` and the result file
``benchmarks/results/ocr_engines.json`` (table ``engines``: per page, each engine's CER and
seconds; the docs' table in ``docs/ocr.md``).

Engines: ``tess-psm4`` is the loader's own (:class:`loaders.ocr.TesseractEngine`, Debian's
``tesseract-ocr``, page segmentation mode 4), ``tess-psm3`` the same with Tesseract's
automatic layout analysis; ``rapidocr`` is ``rapidocr_onnxruntime.RapidOCR`` with the ONNX weights
its wheel carries (it loads offline; ``pip install -e ".[ocr-bench]"``), ``rapid-ts0`` the
same keeping every detected line (``text_score=0``). An engine not installed is skipped.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
from benchmarks.results import table, write_result  # noqa: E402
from citerag.eval.cer import character_error_rate  # noqa: E402
from loaders.ocr import DEFAULT_PSM, OcrWord, TesseractEngine, assemble  # noqa: E402
from tests.support.pdfs import Line, write_pdf  # noqa: E402

PROSE = [
    "The inverter checks its grid connection every morning before it starts.",
    "If the voltage stays outside the allowed band for more than ten seconds,",
    "it disconnects and shows fault code E-217 on the front panel display.",
    "Technicians should isolate the array before opening the junction box.",
    "Wear insulated gloves rated for at least 1,000 volts direct current.",
    "Replace the surge protection module when its indicator turns red.",
    "The warranty covers parts and labour for five years from installation,",
    "provided the unit was commissioned by an accredited installer.",
    "Firmware updates are published quarterly; version 4.2.1 fixed a bug",
    "that reported the daily yield twice after a restart at midnight.",
    "Clean the cooling fins with dry compressed air, never with water.",
    "Annual inspections record the insulation resistance and earth leakage.",
    "Customers in Bavaria, Saxony and Thuringia call the Munich hotline.",
    "Northwind Energy GmbH, Leopoldstrasse 12, 80802 Munich, Germany.",
    "Quote the serial number (for example NW-6K-2291-0043) on every request.",
    "The battery must not be discharged below 10% state of charge.",
    "Operating temperature ranges from -20 to +60 degrees Celsius.",
    "At full load the efficiency reaches 97.6% according to EN 50530.",
    "Store spare fuses in the labelled drawer beside the main switch.",
    "Report any smell of burning plastic to the site manager at once.",
]

STATEMENT = [
    ("Consolidated statement of income", "", ""),
    ("(in thousands of EUR)", "2025", "2024"),
    ("Revenue", "48,210", "41,977"),
    ("Cost of sales", "(31,054)", "(27,630)"),
    ("Gross profit", "17,156", "14,347"),
    ("Selling and distribution", "(6,412)", "(5,980)"),
    ("Administrative expenses", "(4,307)", "(4,122)"),
    ("Research and development", "(2,118)", "(1,764)"),
    ("Operating profit", "4,319", "2,481"),
    ("Finance costs", "(612)", "(655)"),
    ("Profit before tax", "3,707", "1,826"),
    ("Income tax", "(1,038)", "(511)"),
    ("Net profit for the year", "2,669", "1,315"),
    ("Earnings per share (EUR)", "1.34", "0.66"),
]


def _raw(text: str, x: float, y: float, size: float) -> Line:
    escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return Line(raw=f"BT /F1 {size:g} Tf {x:g} {y:g} Td ({escaped}) Tj ET")


def pages() -> list[tuple[str, list[Line], str]]:
    """The benchmark pages: ``(name, lines, reference text)``."""
    out: list[tuple[str, list[Line], str]] = []
    out.append(("prose 11pt", [Line(t) for t in PROSE], "\n".join(PROSE)))
    rows: list[Line] = []
    ref: list[str] = []
    y = 720.0
    for label, a, b in STATEMENT:
        rows.append(_raw(label, 72, y, 11))
        for x, cell in ((360, a), (460, b)):
            if cell:
                rows.append(_raw(cell, x, y, 11))
        ref.append(" ".join(c for c in (label, a, b) if c))
        y -= 22
    out.append(("statement table", rows, "\n".join(ref)))
    for size, lead in ((8, 11), (7, 9)):
        lines = [_raw(t, 72, 740 - i * lead, size) for i, t in enumerate(PROSE + PROSE[:10])]
        out.append((f"small print {size}pt", lines, "\n".join(PROSE + PROSE[:10])))
    # two columns of short lines, read column by column (a newsletter's layout)
    left = [" ".join(t.split()[:5]) for t in PROSE]
    right = [" ".join(t.split()[5:]) for t in PROSE]
    lines = [_raw(t, 60, 740 - i * 16, 10) for i, t in enumerate(left)]
    lines += [_raw(t, 330, 740 - i * 16, 10) for i, t in enumerate(right)]
    out.append(("two columns", lines, "\n".join(left + right)))
    return out


def render(pdf: Path, dpi: int) -> Any:
    """The first page of ``pdf`` as a PIL image at ``dpi``."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        return doc[0].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        doc.close()


def tesseract(psm: int = DEFAULT_PSM) -> Callable[[Any, int], str] | None:
    """Tesseract as the loader runs it (page segmentation mode ``psm``), or ``None`` when
    the binary is missing."""
    try:
        engine = TesseractEngine(psm=psm)
    except FileNotFoundError:
        return None
    return lambda image, dpi: assemble(engine.recognize(image, dpi))[0]


def rapidocr(text_score: float | None = None) -> Callable[[Any, int], str] | None:
    """RapidOCR (PP-OCRv4 det/rec ONNX from the wheel), or ``None`` when not installed.

    ``text_score`` overrides its threshold on a line's recognition score (0.5 by default:
    lines read with less confidence are dropped from the result).
    """
    try:
        import numpy as np
        from rapidocr_onnxruntime import RapidOCR
    except ImportError:
        return None
    engine = RapidOCR()

    def run(image: Any, dpi: int) -> str:
        extra = {} if text_score is None else {"text_score": text_score}
        result, _ = engine(np.asarray(image), **extra)
        words = []
        for n, (box, text, score) in enumerate(result or []):
            xs = [p[0] for p in box]
            ys = [p[1] for p in box]
            words.append(OcrWord(text, min(xs), min(ys), max(xs), max(ys), float(score), 0, n))
        # RapidOCR returns one box per text line (a table cell is its own line): join the
        # boxes whose vertical centres are within half a line into one line, left to right.
        words.sort(key=lambda w: (w.top + w.bottom) / 2)
        lines: list[list[OcrWord]] = []
        for w in words:
            mid = (w.top + w.bottom) / 2
            if lines:
                last = lines[-1][0]
                if abs(mid - (last.top + last.bottom) / 2) < (last.bottom - last.top) / 2:
                    lines[-1].append(w)
                    continue
            lines.append([w])
        return "\n".join(" ".join(w.text for w in sorted(ln, key=lambda w: w.left)) for ln in lines)

    return run


def main() -> None:
    """Run the comparison and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dpi", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=1, help="OCR runs per page (timing)")
    args = parser.parse_args()
    engines: dict[str, Callable[[Any, int], str]] = {}
    load_s: dict[str, float] = {}
    makers: list[tuple[str, Callable[[], Callable[[Any, int], str] | None]]] = [
        (f"tess-psm{DEFAULT_PSM}", tesseract),
        ("tess-psm3", lambda: tesseract(3)),
        ("rapidocr", rapidocr),
        ("rapid-ts0", lambda: rapidocr(0.0)),
    ]
    for name, make in makers:
        t0 = time.perf_counter()
        fn = make()
        if fn is None:
            print(f"{name}: not installed, skipped")
            continue
        engines[name] = fn
        load_s[name] = time.perf_counter() - t0
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        images: list[tuple[str, Any, str]] = []
        for name, lines, ref in pages():
            pdf = write_pdf(Path(tmp) / f"{len(images)}.pdf", [lines])
            images.append((name, render(pdf, args.dpi), ref))
        for engine, fn in engines.items():
            t0 = time.perf_counter()
            fn(images[0][1], args.dpi)  # warm-up (first inference allocates)
            warm = time.perf_counter() - t0
            for name, image, ref in images:
                times = []
                for _ in range(args.repeat):
                    t0 = time.perf_counter()
                    text = fn(image, args.dpi)
                    times.append(time.perf_counter() - t0)
                cer = character_error_rate(text, ref)
                rows.append(
                    {
                        "engine": engine,
                        "page": name,
                        "cer": round(cer, 4),
                        "seconds": round(statistics.median(times), 3),
                        "load_seconds": round(load_s[engine], 3),
                        "warmup_seconds": round(warm, 3),
                        "text": text,
                    }
                )
    print(f"\nOCR at {args.dpi} dpi, pdfium renders of known text (CER = edits / ref chars)\n")
    print(f"{'engine':<10} {'page':<18} {'CER':>7} {'s/page':>7}")
    for r in rows:
        print(f"{r['engine']:<10} {r['page']:<18} {r['cer']:>7.2%} {r['seconds']:>7.2f}")
    for engine in engines:
        mine = [r for r in rows if r["engine"] == engine]
        cer = statistics.mean(r["cer"] for r in mine)
        sec = statistics.mean(r["seconds"] for r in mine)
        print(
            f"{engine:<10} {'mean':<18} {cer:>7.2%} {sec:>7.2f}   "
            f"(load {load_s[engine]:.2f} s, first page {mine[0]['warmup_seconds']:.2f} s)"
        )
    out = REPO / "benchmarks" / "out"
    out.mkdir(parents=True, exist_ok=True)
    (out / "ocr_engines.json").write_text(json.dumps({"dpi": args.dpi, "rows": rows}, indent=2))
    write_result(
        "ocr_engines",
        {"engines": engines_table(rows, list(engines), args.repeat)},
        {"dpi": args.dpi, "repeat": args.repeat, "load_seconds": load_s, "rows": rows},
    )


#: Row labels of the result table, per page.
PAGE_LABELS = {
    "prose 11pt": "prose, 11 pt",
    "statement table": "statement (numbers in 3 columns)",
    "small print 8pt": "small print, 8 pt",
    "small print 7pt": "fine print, 7 pt",
    "two columns": "two columns of prose",
}
#: Column headers of the result table, per engine.
ENGINE_LABELS = {
    f"tess-psm{DEFAULT_PSM}": f"tess psm {DEFAULT_PSM} (chosen)",
    "tess-psm3": "tess psm 3",
    "rapidocr": "RapidOCR",
    "rapid-ts0": "RapidOCR `text_score=0`",
}


def engines_table(rows: list[dict[str, Any]], engines: list[str], repeat: int) -> dict[str, Any]:
    """The docs' table: a row per page, ``CER · seconds`` per engine, then mean seconds."""
    pages = list(dict.fromkeys(r["page"] for r in rows))
    cell = {(r["engine"], r["page"]): r for r in rows}
    body = [
        [PAGE_LABELS.get(page, page)]
        + [
            f"{cell[e, page]['cer'] * 100:.2f} % · {cell[e, page]['seconds']:.2f} s"
            for e in engines
        ]
        for page in pages
    ]
    runs = "1 run" if repeat == 1 else f"median of {repeat} runs per page"
    body.append(
        [f"mean seconds per page ({runs})"]
        + [f"{statistics.mean(cell[e, p]['seconds'] for p in pages):.2f}" for e in engines]
    )
    return table(["page"] + [ENGINE_LABELS.get(e, e) for e in engines], body)


#: Results of this module that no single run writes (result name -> why).
HAND_COLLECTED_RESULTS = {
    "ocr_by_hand": (
        "OCR through the loader and on the real filings, timed by hand outside this script"
    ),
}


if __name__ == "__main__":
    main()
