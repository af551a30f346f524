"""Table libraries on real statement pages: what each recovers, and seconds per page.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.experiments.table_libraries

On four financial-statement pages of FinanceBench filings (``../shared/data``), prints for
each page the first rows of pdfplumber's table finder (``lines`` and ``text`` strategies;
pdfplumber is not a citerag dependency: ``pip install pdfplumber`` to include it) and of
citerag's own reading of pypdfium2's character boxes (:mod:`loaders.pdf_tables`), with the
seconds each took, so header and row recovery can be checked by eye.
"""

from __future__ import annotations

import time

from benchmarks.common import REPO, log

DATA = REPO.parent / "shared" / "data"
#: (file, 0-based page) of statements: cash flows, earnings, operations.
PAGES = [
    (DATA / "financebench-dev/pdfs/3M_2018_10K.pdf", 59),
    (DATA / "financebench/pdfs/ADOBE_2022_10K.pdf", 56),
    (DATA / "financebench/pdfs/BESTBUY_2024Q2_10Q.pdf", 3),
    (DATA / "financebench/pdfs/ULTABEAUTY_2023Q4_EARNINGS.pdf", 5),
]


def main() -> int:
    """Run the comparison."""
    import pypdfium2

    from loaders.pdf_tables import group_lines, page_words, read_tables

    try:
        import pdfplumber
    except ImportError:
        pdfplumber = None
        log("pdfplumber not installed: only pypdfium2 is measured")
    for path, page in PAGES:
        print(f"== {path.name} page {page + 1}")
        if pdfplumber is not None:
            with pdfplumber.open(path) as pdf:
                pg = pdf.pages[page]
                for strategy in ("lines", "text"):
                    t = time.perf_counter()
                    opts = (
                        {}
                        if strategy == "lines"
                        else {"vertical_strategy": "text", "horizontal_strategy": "text"}
                    )
                    tables = pg.extract_tables(opts)
                    s = time.perf_counter() - t
                    first = tables[0][:4] if tables else []
                    print(f"  pdfplumber {strategy}: {len(tables)} tables, {s:.2f} s: {first}")
        t = time.perf_counter()
        doc = pypdfium2.PdfDocument(str(path))
        textpage = doc[page].get_textpage()
        tables = read_tables(group_lines(page_words(textpage)), set())
        s = time.perf_counter() - t
        for raw in tables[:1]:
            print(
                f"  pypdfium2 layout: {len(tables)} tables, {s:.2f} s: title {raw.title!r}, "
                f"columns {raw.columns}, first rows {raw.rows[:2]}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
