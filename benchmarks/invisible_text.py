"""What the hidden-content rules remove from real documents, and what they cost.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.invisible_text [FOLDER_OR_PDF ...] [--no-timing]
    .venv/bin/python -m benchmarks.invisible_text --html FOLDER ... [--limit N]
    .venv/bin/python -m benchmarks.invisible_text --html FOLDER ... --against REV [--limit N]

Defaults to every PDF of ``../shared/data/financebench`` and ``financebench-dev``. For each
file, scans each page's content bytes for an invisible render mode (``uses_invisible_mode``,
the loader's own gate), loads it with ``loaders.pdf.load_pdf`` and with LangChain's plain
``PyPDFLoader``, and reports the pages flagged, the characters of invisible text left out,
the pages kept as an OCR text layer, the pages whose text differs from ``PyPDFLoader``'s,
and both load times. With ``--no-timing`` only the files with a flagged page are loaded
(on the others ``load_pdf`` returns ``PyPDFLoader``'s text unchanged by construction). A
real filing should lose nothing: any character left out there is a false positive to look at. Writes
``benchmarks/out/invisible_text.json``.

``--html`` measures the stylesheet rule instead: every HTML page below the folders that has a
``<style>`` element (a seeded sample of ``--limit``) is loaded with its page's stylesheet and
with inline styles only, and the text the stylesheet hides is printed for review (pages
changed, characters left out, and the first snippets), into ``invisible_html.json``. With
``--against REV`` every HTML page (a seeded sample of ``--limit``) is loaded with this
checkout's loader and with ``loaders/html.py`` as it was at git revision ``REV``, and the
pages whose text or hidden count differ are listed.

Each mode writes its result file (the docs' tables in ``docs/benchmarks/ingestion.md``):
``benchmarks/results/invisible_text.json`` (the PDFs), ``invisible_text_html.json``
(``--html``) and ``invisible_text_html_against.json`` (``--html --against REV``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from benchmarks.results import table, write_result

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"
DEFAULT = [DATA / "financebench" / "pdfs", DATA / "financebench-dev" / "pdfs"]


@dataclass
class FileRow:
    """One PDF's result (``pages`` 0: no page flagged, not loaded under ``--no-timing``)."""

    file: str
    pages: int
    hidden_chars: int
    flagged_pages: list[int]
    pages_changed: int
    ocr_layer: str
    citerag_s: float | None
    plain_s: float | None


def pdfs_under(paths: list[Path]) -> list[Path]:
    """Every PDF named or found below the given folders, sorted."""
    out: list[Path] = []
    for p in paths:
        out.extend(sorted(p.rglob("*.pdf")) if p.is_dir() else [p])
    return out


def html_effect(folders: list[Path], limit: int, seed: int) -> list[dict[str, object]]:
    """Compare each page's text with and without its stylesheet's hiding rules.

    Args:
        folders: Where to look for ``*.html`` / ``*.htm`` files.
        limit: At most this many pages (a seeded sample), ``0`` for all.
        seed: The sample's seed.

    Returns:
        One row per page whose stylesheet hid something: file, characters, snippets.
    """
    from difflib import SequenceMatcher

    import loaders.html as html_module
    from loaders.html import load_html
    from loaders.html import page_stylesheet as real_sheet

    pages = html_pages(folders, limit, seed, styled=True)
    rows: list[dict[str, object]] = []
    for path in tqdm(pages, desc="HTML pages", unit="page"):
        data = path.read_bytes()
        with_sheet = load_html(path, data)
        html_module.page_stylesheet = lambda source: real_sheet("")  # inline styles only
        try:
            inline_only = load_html(path, data)
        finally:
            html_module.page_stylesheet = real_sheet
        extra = with_sheet.hidden_chars - inline_only.hidden_chars
        if not extra:
            continue
        gone = SequenceMatcher(None, inline_only.text, with_sheet.text, autojunk=False)
        snippets = [
            " ".join(inline_only.text[a:b].split())[:120]
            for tag, a, b, _, _ in gone.get_opcodes()
            if tag in ("delete", "replace")
        ]
        rows.append({"file": str(path), "hidden_chars": extra, "snippets": snippets[:5]})
    print(
        f"{len(pages)} HTML pages with a <style> element: the stylesheet rule hid text on "
        f"{len(rows)} ({sum(int(str(r['hidden_chars'])) for r in rows)} characters)"
    )
    return rows


def against_revision(
    folders: list[Path], rev: str, limit: int, seed: int
) -> list[dict[str, object]]:
    """Pages whose text differs between this loader and ``loaders/html.py`` at ``rev``.

    Args:
        folders: Where to look for ``*.html`` / ``*.htm`` files.
        rev: A git revision of this repository.
        limit: At most this many pages (a seeded sample), ``0`` for all.
        seed: The sample's seed.
    """
    import importlib.util
    import subprocess
    import tempfile

    from loaders.html import load_html

    source = subprocess.run(
        ["git", "-C", str(REPO), "show", f"{rev}:loaders/html.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    with tempfile.TemporaryDirectory() as tmp:
        module_path = Path(tmp) / "html_at_rev.py"
        module_path.write_text(source)
        spec = importlib.util.spec_from_file_location("html_at_rev", module_path)
        assert spec is not None and spec.loader is not None
        before = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(before)
    pages = html_pages(folders, limit, seed)
    rows: list[dict[str, object]] = []
    for path in tqdm(pages, desc="HTML pages", unit="page"):
        data = path.read_bytes()
        old, new = before.load_html(path, data), load_html(path, data)
        if old.text != new.text or old.hidden_chars != new.hidden_chars:
            rows.append(
                {
                    "file": str(path),
                    "characters": [len(old.text), len(new.text)],
                    "hidden_chars": [old.hidden_chars, new.hidden_chars],
                }
            )
    print(f"{len(pages)} HTML pages: {len(rows)} differ from loaders/html.py at {rev}")
    return rows


def main(argv: list[str] | None = None) -> int:
    """Run the measurement and print one line per file plus a summary."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", type=Path, default=DEFAULT)
    ap.add_argument(
        "--no-timing",
        action="store_true",
        help="load only the files with a flagged page (the others are PyPDFLoader's text)",
    )
    ap.add_argument("--html", action="store_true", help="measure the stylesheet rule on HTML")
    ap.add_argument("--limit", type=int, default=0, help="with --html: sample this many pages")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--against", metavar="REV", help="with --html: compare with a git revision")
    args = ap.parse_args(argv)
    out = REPO / "benchmarks" / "out"
    out.mkdir(parents=True, exist_ok=True)
    if args.html and args.against:
        changed = against_revision(args.paths, args.against, args.limit, args.seed)
        for row in changed:
            print(json.dumps(row))
        (out / "invisible_html_against.json").write_text(json.dumps(changed, indent=1))
        n = len(html_pages(args.paths, args.limit, args.seed))
        what = f"{n:,} HTML pages under {folders_named(args.paths)}"
        if n < len(html_pages(args.paths, 0, args.seed)):
            what += f" (a seeded sample, seed {args.seed})"
        measured = "pages whose text or hidden count differs from the loader at "
        measured += f"`--against {args.against}`"
        write_result(
            "invisible_text_html_against",
            {"against": table(RESULT_COLUMNS, [[what, measured, str(len(changed))]], ALIGN)},
            {"pages": n, "against": args.against, "changed": changed},
        )
        return 0
    if args.html:
        found = html_effect(args.paths, args.limit, args.seed)
        for row in found:
            print(json.dumps(row))
        (out / "invisible_html.json").write_text(json.dumps(found, indent=1))
        n = len(html_pages(args.paths, args.limit, args.seed, styled=True))
        chars = sum(int(str(r["hidden_chars"])) for r in found)
        what = f"the {n:,} HTML pages with a `<style>` element under {folders_named(args.paths)}"
        if n < len(html_pages(args.paths, 0, args.seed, styled=True)):
            what += f" (a seeded sample, seed {args.seed})"
        result = f"{chars:,} characters on {len(found)} pages"
        write_result(
            "invisible_text_html",
            {
                "stylesheet": table(
                    RESULT_COLUMNS, [[what, "text the stylesheet rule hides", result]], ALIGN
                )
            },
            {"pages": n, "hidden": found},
        )
        return 0

    from langchain_community.document_loaders import PyPDFLoader
    from pypdf import PdfReader

    from loaders.pdf import load_pdf, unix_newlines, uses_invisible_mode

    rows: list[FileRow] = []
    for path in tqdm(pdfs_under(args.paths), desc="PDFs", unit="file"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            flagged = [
                i + 1
                for i, page in enumerate(PdfReader(str(path)).pages)
                if uses_invisible_mode(page)
            ]
        if not flagged and args.no_timing:
            # Nothing flagged: load_pdf returns PyPDFLoader's text unchanged by construction.
            rows.append(FileRow(path.name, 0, 0, [], 0, "", None, None))
            continue
        t = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            plain = list(PyPDFLoader(str(path), mode="page").lazy_load())
        plain_s = round(time.perf_counter() - t, 3)
        plain_bodies = [unix_newlines(p.page_content) for p in plain]
        t = time.perf_counter()
        doc = load_pdf(path, path.read_bytes())
        row = FileRow(
            file=path.name,
            pages=doc.pages or 0,
            hidden_chars=doc.hidden_chars,
            flagged_pages=flagged,
            pages_changed=sum(1 for b in plain_bodies if b and b not in doc.text),
            ocr_layer=next((w for w in doc.warnings if "OCR text" in w), ""),
            citerag_s=round(time.perf_counter() - t, 3),
            plain_s=plain_s,
        )
        rows.append(row)
        tqdm.write(json.dumps(asdict(row)))

    print(
        f"\n{len(rows)} PDFs: {sum(len(r.flagged_pages) for r in rows)} page(s) in "
        f"{sum(1 for r in rows if r.flagged_pages)} file(s) set an invisible render mode; "
        f"{sum(r.hidden_chars for r in rows)} invisible characters left out in "
        f"{sum(1 for r in rows if r.hidden_chars)} file(s); "
        f"{sum(1 for r in rows if r.ocr_layer)} with an OCR layer kept; "
        f"pages whose text differs from PyPDFLoader's: {sum(r.pages_changed for r in rows)}"
    )
    timed = [(r.citerag_s, r.plain_s) for r in rows if r.plain_s is not None and r.pages]
    if timed and not args.no_timing:
        ratios = [c / max(p, 1e-6) for c, p in timed]
        print(
            f"load time, citerag / plain PyPDFLoader: median {statistics.median(ratios):.3f}, "
            f"total {sum(c for c, _ in timed):.1f} s vs {sum(p for _, p in timed):.1f} s"
        )
    (out / "invisible_text.json").write_text(json.dumps([asdict(r) for r in rows], indent=1))
    write_result(
        "invisible_text",
        {"pdfs": pdf_table(rows, args.paths, timed if not args.no_timing else [])},
        {"files": [asdict(r) for r in rows]},
    )
    return 0


#: The columns of every table this benchmark writes.
RESULT_COLUMNS = ["documents", "measured", "result"]
ALIGN = ["left", "left", "right"]


def folders_named(paths: list[Path]) -> str:
    """``financebench/pdfs, financebench-dev/pdfs``: each folder by its last two parts."""
    return ", ".join(f"`{'/'.join(p.parts[-2:])}`" for p in paths)


def html_pages(folders: list[Path], limit: int, seed: int, *, styled: bool = False) -> list[Path]:
    """The HTML pages a run looks at (those with a ``<style>`` element if ``styled``): every
    ``.html`` / ``.htm`` file below ``folders``, or a seeded sample of ``limit`` of them."""
    import random

    pages = [
        p
        for folder in folders
        for p in sorted(folder.rglob("*.htm*"))
        if p.is_file()
        and p.suffix.lower() in (".html", ".htm")  # not changelog.html.gz
        and (not styled or b"<style" in p.read_bytes().lower())
    ]
    if limit and len(pages) > limit:
        pages = sorted(random.Random(seed).sample(pages, limit))
    return pages


def pdf_table(
    rows: list[FileRow], paths: list[Path], timed: list[tuple[Any, Any]]
) -> dict[str, Any]:
    """The PDFs' table: pages flagged, characters left out, pages changed, OCR layers kept."""
    flagged = [r for r in rows if r.flagged_pages]
    where = "; ".join(f"{r.file}: {len(r.flagged_pages)}" for r in flagged[:5])
    body = [
        [
            f"{len(rows)} PDFs under {folders_named(paths)}",
            "pages that set an invisible render mode",
            f"{sum(len(r.flagged_pages) for r in rows)}, in {len(flagged)} file(s)"
            + (f" ({where})" if where else ""),
        ],
        ["", "invisible characters left out", f"**{sum(r.hidden_chars for r in rows):,}**"],
        [
            "",
            "pages whose text differs from `PyPDFLoader`'s",
            f"**{sum(r.pages_changed for r in rows)}**",
        ],
        ["", "files with an OCR text layer kept", str(sum(1 for r in rows if r.ocr_layer))],
    ]
    if timed:
        ratios = [c / max(p, 1e-6) for c, p in timed]
        body.append(
            [
                "",
                "load time, citerag / `PyPDFLoader` (median per file; totals)",
                f"{statistics.median(ratios):.2f} ({sum(c for c, _ in timed):.0f} s / "
                f"{sum(p for _, p in timed):.0f} s)",
            ]
        )
    return table(RESULT_COLUMNS, body, ALIGN)


if __name__ == "__main__":
    raise SystemExit(main())
