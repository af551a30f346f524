"""The FAQ / handbook / manual development set (``benchmarks/faqset/``): materialise, check.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.faqset_check [-v]

The corpora are hand-written for this project in five authors' styles (``faqset/corpus/``):
a shop's help centre in Markdown with ``### Question?`` headings, a library's FAQ in Markdown
with bold questions, a staff handbook in plain text (numbered sections, ``Q:``/``A:``
pairs), an equipment manual in HTML (numbered headings, a table, bold troubleshooting
questions) and an annual report written as a PDF from ``annual_report.pdf.txt`` (one line of
the PDF per line; ``# `` marks a heading line, ``---`` a page break) with the project's test
PDF writer (``tests/support/pdfs.py``).

:func:`materialise` writes the corpus folder an index is built from; :func:`check` fails on
a needle not found verbatim (whitespace-normalised) in its loaded document, a question
whose split breaks the rule, or a missing key. The split (:func:`split_of`), fixed before
any result was looked at: ``calibration`` when the first byte of SHA-256(``"faqset:"`` +
question id) is even, else ``test``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
FAQSET = REPO / "benchmarks" / "faqset"
QUESTIONS = FAQSET / "questions.jsonl"
SPLIT_SALT = "faqset:"


def split_of(question_id: str) -> str:
    """``calibration`` or ``test`` by a hash of the question id (fixed before results)."""
    first = hashlib.sha256((SPLIT_SALT + question_id).encode("utf-8")).digest()[0]
    return "calibration" if first % 2 == 0 else "test"


def load_questions(path: Path = QUESTIONS) -> list[dict[str, Any]]:
    """The development questions, one dict per line."""
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def pdf_lines(spec: Path) -> list[list[str]]:
    """The pages of a PDF spec: lines as drawn (heading markers ``# `` removed)."""
    pages: list[list[str]] = [[]]
    for raw in spec.read_text(encoding="utf-8").splitlines():
        if raw.strip() == "---":
            pages.append([])
        elif raw.strip():
            pages[-1].append(raw[2:] if raw.startswith("# ") else raw)
    return [p for p in pages if p]


def labels(corpus: Path = FAQSET / "corpus") -> dict[str, list[str]]:
    """Each document's question and heading lines, read from its markup (independently of
    the answerer's rules): Markdown ``#`` lines and bold lines, text ``Q:`` lines and lines
    without a full stop in upper case or numbered, HTML headings / ``<strong>`` /
    ``<caption>`` / ``<th>`` / ``<title>``, PDF spec lines marked ``# ``."""
    import html
    import re

    out: dict[str, list[str]] = {}
    for f in sorted(corpus.iterdir()):
        text = f.read_text(encoding="utf-8")
        found: list[str] = []
        if f.suffix == ".md":
            for line in text.splitlines():
                m = re.match(r"^(#{1,6})\s+(.*)$|^\*\*(.+)\*\*\s*$", line.strip())
                if m:
                    found.append((m.group(2) or m.group(3)).strip())
            name = f.name
        elif f.suffix == ".txt" and f.name.endswith(".pdf.txt"):
            found = [x[2:].strip() for x in text.splitlines() if x.startswith("# ")]
            name = f.name[: -len(".txt")]
        elif f.suffix == ".txt":
            for line in text.splitlines():
                s = line.strip()
                if s.startswith("Q:"):
                    found.append(s[2:].strip())
                    found.append(s)
                elif s and not s.endswith((".", "?", ":")) and len(s.split()) <= 8:
                    found.append(re.sub(r"^\d+(\.\d+)*\.?\s+", "", s))
                    found.append(s)
            name = f.name
        elif f.suffix == ".html":
            pat = r"<(h[1-6]|strong|caption|th|title)[^>]*>(.*?)</\1>"
            for _tag, inner in re.findall(pat, text, flags=re.S):
                found.append(html.unescape(re.sub(r"<[^>]+>", "", inner)).strip())
            name = f.name
        else:
            continue
        out[name] = sorted({" ".join(x.split()) for x in found if x.strip()})
    return out


def materialise(dest: Path) -> Path:
    """Write the corpus folder (Markdown, text and HTML copied; the PDF written from its
    spec) into ``dest`` and return it."""
    from tests.support.pdfs import Line, write_pdf

    dest.mkdir(parents=True, exist_ok=True)
    for f in sorted((FAQSET / "corpus").iterdir()):
        if f.name.endswith(".pdf.txt"):
            target = dest / f.name[: -len(".txt")]
            if not target.exists():
                write_pdf(target, [[Line(x) for x in page] for page in pdf_lines(f)])
        elif not (dest / f.name).exists():
            shutil.copyfile(f, dest / f.name)
    return dest


def normalise(text: str) -> str:
    """Whitespace collapsed."""
    return " ".join(text.split())


def check(verbose: bool = False) -> list[str]:
    """Problems with the set (empty when it is sound)."""
    import tempfile

    from loaders.registry import load_file

    problems: list[str] = []
    qs = load_questions()
    with tempfile.TemporaryDirectory() as tmp:
        folder = materialise(Path(tmp))
        texts = {f.name: normalise(load_file(f).text) for f in folder.iterdir()}
    ids = set()
    for q in qs:
        qid = q.get("id", "?")
        if qid in ids:
            problems.append(f"{qid}: duplicate id")
        ids.add(qid)
        for key in ("id", "question", "kind", "split"):
            if key not in q:
                problems.append(f"{qid}: no {key!r}")
        if q.get("split") != split_of(qid):
            problems.append(f"{qid}: split {q.get('split')!r} breaks the rule")
        if q.get("kind") == "answerable":
            for ev in q.get("evidence", []):
                text = texts.get(ev["doc"])
                if text is None:
                    problems.append(f"{qid}: no document {ev['doc']!r}")
                elif normalise(ev["needle"]) not in text:
                    problems.append(f"{qid}: needle not in {ev['doc']}: {ev['needle'][:60]!r}")
        elif not q.get("unanswerable"):
            problems.append(f"{qid}: a {q.get('kind')} question must say unanswerable")
    if verbose:
        kinds: dict[tuple[str, str], int] = {}
        for q in qs:
            k = (q["kind"], q["split"])
            kinds[k] = kinds.get(k, 0) + 1
        for k, n in sorted(kinds.items()):
            print(f"{k[0]:<11} {k[1]:<12} {n}")
    return problems


def main() -> int:
    """Check the set; exit 1 on any problem."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    problems = check(args.verbose)
    for p in problems:
        print(p)
    print("ok" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
