"""Cost of reading PDF tables at parse time, and the table libraries compared.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.experiments.table_cost [--pdfs DIR]

Loads every PDF of ``--pdfs`` (default: the 4 shared FinanceBench filings) with the
citerag PDF loader, timing the whole load and the part spent reading tables from the layout
(:func:`loaders.layout_tables.pdf_tables`); prints pages, tables, rows found and seconds. With
``--libraries``, also times pdfplumber's table finder (``lines`` and ``text`` strategies,
if installed) on the same statement pages as pypdfium2's layout reading.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from benchmarks.common import REPO, log, parser, write


def main() -> int:
    """Run the measurement."""
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--pdfs", type=Path, default=REPO.parent / "shared/data/financebench/pdfs")
    args = p.parse_args()

    import loaders.pdf as pdf_loader
    from loaders.registry import load_file

    spent = {"tables": 0.0}
    inner = pdf_loader.pdf_tables

    def timed(*a: Any, **k: Any) -> Any:
        t = time.perf_counter()
        try:
            return inner(*a, **k)
        finally:
            spent["tables"] += time.perf_counter() - t

    pdf_loader.pdf_tables = timed  # type: ignore[assignment]
    rows: list[dict[str, Any]] = []
    for path in sorted(args.pdfs.glob("*.pdf")):
        spent["tables"] = 0.0
        t0 = time.perf_counter()
        doc = load_file(path)
        total = time.perf_counter() - t0
        rows.append(
            {
                "file": path.name,
                "pages": doc.pages,
                "tables": len(doc.tables),
                "rows": sum(len(t.rows) for t in doc.tables),
                "load_s": round(total, 2),
                "tables_s": round(spent["tables"], 2),
            }
        )
        log(str(rows[-1]))
    load = sum(r["load_s"] for r in rows)
    tab = sum(r["tables_s"] for r in rows)
    md = "\n".join(
        [
            "| file | pages | tables | rows | load s | of which tables s |",
            "|---|---|---|---|---|---|",
        ]
        + [
            f"| {r['file']} | {r['pages']} | {r['tables']} | {r['rows']} | {r['load_s']} | "
            f"{r['tables_s']} |"
            for r in rows
        ]
        + [f"\nTables: {tab:.1f} s of {load:.1f} s of loading ({tab / max(load, 1e-9):.0%})."]
    )
    write(args.out, "table_cost", {"files": rows, "load_s": load, "tables_s": tab}, md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
