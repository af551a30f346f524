"""What the PDF loader's invisible-text rule removes from real filings, and what it costs.

Usage (from the repository root)::

    .venv/bin/python benchmarks/invisible_text.py [FOLDER_OR_PDF ...] [--no-timing]

Defaults to every PDF of ``../shared/data/financebench`` and ``financebench-dev``. For each
file, loads it with ``loaders.pdf.load_pdf`` (which watches each page's text render modes and
re-extracts a page that used an invisible one) and, unless ``--no-timing``, with LangChain's
plain ``PyPDFLoader`` alone, and reports the characters of invisible text left out, the pages
kept as an OCR text layer, the pages whose text changed, and both load times. A real filing
should lose nothing: any character left out there is a false positive to look at. Writes
``benchmarks/out/invisible_text.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path

from tqdm import tqdm

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"
DEFAULT = [DATA / "financebench" / "pdfs", DATA / "financebench-dev" / "pdfs"]


@dataclass
class FileRow:
    """One PDF's result."""

    file: str
    pages: int
    hidden_chars: int
    ocr_layer: str
    citerag_s: float
    plain_s: float | None
    pages_changed: int


def pdfs_under(paths: list[Path]) -> list[Path]:
    """Every PDF named or found below the given folders, sorted."""
    out: list[Path] = []
    for p in paths:
        out.extend(sorted(p.rglob("*.pdf")) if p.is_dir() else [p])
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the measurement and print one line per file plus a summary."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", type=Path, default=DEFAULT)
    ap.add_argument("--no-timing", action="store_true", help="skip the plain-loader run")
    args = ap.parse_args(argv)

    from langchain_community.document_loaders import PyPDFLoader

    from loaders.pdf import load_pdf

    rows: list[FileRow] = []
    for path in tqdm(pdfs_under(args.paths), desc="PDFs", unit="file"):
        plain_s, plain_bodies = None, []
        if not args.no_timing:
            t = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                plain = list(PyPDFLoader(str(path), mode="page").lazy_load())
            plain_s = round(time.perf_counter() - t, 3)
            plain_bodies = [p.page_content.replace("\r\n", "\n").replace("\r", "\n") for p in plain]
        t = time.perf_counter()
        doc = load_pdf(path, path.read_bytes())
        row = FileRow(
            file=path.name,
            pages=doc.pages or 0,
            hidden_chars=doc.hidden_chars,
            ocr_layer=next((w for w in doc.warnings if "OCR text" in w), ""),
            citerag_s=round(time.perf_counter() - t, 3),
            plain_s=plain_s,
            pages_changed=sum(1 for b in plain_bodies if b and b not in doc.text),
        )
        rows.append(row)
        tqdm.write(json.dumps(asdict(row)))

    print(
        f"\n{len(rows)} PDFs, {sum(r.pages for r in rows)} pages: "
        f"{sum(r.hidden_chars for r in rows)} invisible characters left out in "
        f"{sum(1 for r in rows if r.hidden_chars)} file(s); "
        f"{sum(1 for r in rows if r.ocr_layer)} with an OCR layer kept"
    )
    timed = [(r.citerag_s, r.plain_s) for r in rows if r.plain_s is not None]
    if timed:
        ratios = [c / max(p, 1e-6) for c, p in timed]
        print(
            f"load time, citerag / plain PyPDFLoader: median {statistics.median(ratios):.3f}, "
            f"total {sum(c for c, _ in timed):.1f} s vs {sum(p for _, p in timed):.1f} s; "
            f"pages whose text changed: {sum(r.pages_changed for r in rows)}"
        )
    out = REPO / "benchmarks" / "out"
    out.mkdir(parents=True, exist_ok=True)
    (out / "invisible_text.json").write_text(json.dumps([asdict(r) for r in rows], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
