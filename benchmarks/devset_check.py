"""Check the development set in users' words (``benchmarks/devset/questions.jsonl``).

Usage::

    HF_HUB_OFFLINE=1 .venv/bin/python -m benchmarks.devset_check [--file F] [--data DIR] [-v]

What it checks, and exits non-zero on:

* the file loads with :func:`citerag.eval.questions.load_questions` and every record has the
  development-set keys (``corpus``, ``kind``, ``split``; ``fact`` and ``phrasing`` for
  answerable questions; ``near_doc`` and ``note`` for near misses);
* every fact is asked exactly twice, once in the document's words (``phrasing: "document"``)
  and once in a user's (``phrasing: "user"``), with the same evidence, in the same split;
* ``split`` follows the published rule (:func:`split_for`);
* every needle occurs verbatim (whitespace collapsed, typographic quotes unified — the same
  rule as the evaluation harness) in its document, on its page for PDFs. The documents are
  materialised exactly as the evaluation does it: the adapters' ``prepare(...)`` for SQuAD,
  SciFact and FinanceBench into a temporary work folder, ``examples/corpus`` for the sample
  corpus, each read with :func:`loaders.registry.load_file`;
* each near miss names a document that exists in its corpus;
* the median content-word overlap of the users' phrasing with its evidence sentence is at
  most :data:`MAX_USER_MEDIAN`.

Content-word overlap of a question with its evidence sentence: the share of the question's
distinct content words (lower-cased ``[a-z0-9]+`` tokens of two characters or more, stop words
removed, a simple suffix-stripping stem) that also occur in the sentence. It prints the
medians per corpus and phrasing, and the counts per kind, corpus and split.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import statistics
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
os.environ.setdefault("HF_HUB_OFFLINE", "1")

DEFAULT_FILE = REPO / "benchmarks" / "devset" / "questions.jsonl"
SAMPLE_CORPUS = REPO / "examples" / "corpus"
MAX_USER_MEDIAN = 0.15
CORPORA = ("squad", "scifact", "sample", "financebench")
KINDS = ("answerable", "near_miss", "ood")
SPLITS = ("calibration", "test")
PHRASINGS = ("document", "user")
SPLIT_SALT = "devset:"

_STOP_WORDS_TEXT = """
    a about above after again against all almost also am an and any anyone anything are
    aren around as at be because been before being below between both but by can cannot
    could couldn did didn do does doesn doing don done down during each either else ever
    even every few for from further get gets getting got had hadn has hasn have haven having he
    her here hers herself him himself his how however if in into is isn it its itself just
    least let like ll made make many may me might more most much must mustn my myself no
    nor not now of off often on once one only or other others our ours ourselves out over
    own per quite rather re really same say says shall shan she should shouldn since so
    some something still such than that the their theirs them themselves then there these
    they thing things this those though through thus to too under until up upon us use
    used using ve very via was wasn way we well were weren what whatever when where whether
    which while who whom whose why will with without won would wouldn yes yet you your
    yours yourself yourselves
    anybody anyway actually ask asked basically bit come comes going gonna kind know lot
    maybe mean need needs okay ok please pretty right see sort supposed tell thanks want
    wanted wants wanna whats hi hello im ive id
"""
STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())
_TOKEN = re.compile(r"[a-z0-9]+")


def stem(word: str) -> str:
    """A deliberately simple suffix-stripping stem (``countries`` → ``country``)."""
    for suffix, repl in (
        ("ies", "y"),
        ("ing", ""),
        ("ed", ""),
        ("es", ""),
        ("ly", ""),
        ("s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: len(word) - len(suffix)] + repl
    return word


def content_words(text: str) -> set[str]:
    """Distinct stemmed content words of ``text``."""
    words = _TOKEN.findall(text.lower().replace("’", "'").replace("'", ""))
    return {stem(w) for w in words if len(w) >= 2 and w not in STOP_WORDS}


def overlap(question: str, sentence: str) -> float:
    """Share of the question's content words that also occur in ``sentence`` (0..1)."""
    q = content_words(question)
    if not q:
        return 0.0
    return len(q & content_words(sentence)) / len(q)


def split_for(key: str) -> str:
    """The published split rule: SHA-256 of ``"devset:" + key`` (the key is the ``fact`` id of
    an answerable question, else the question ``id``); an even first byte is ``calibration``,
    an odd one ``test``."""
    return SPLITS[hashlib.sha256((SPLIT_SALT + key).encode("utf-8")).digest()[0] % 2]


def split_key(q: Any) -> str:
    """What the split of a question is derived from."""
    return str(q.meta.get("fact") or q.id)


# -- documents ---------------------------------------------------------------------------------


class Documents:
    """The corpora's documents as the evaluation harness materialises them (loaded lazily)."""

    def __init__(self, data: Path, work: Path) -> None:
        self.data = data
        self.work = work
        self._folders: dict[str, Path] = {}
        self._texts: dict[tuple[str, str], Any] = {}

    def folder(self, corpus: str) -> Path:
        if corpus not in self._folders:
            if corpus == "sample":
                self._folders[corpus] = SAMPLE_CORPUS
            else:
                from citerag.eval.adapters import prepare

                self._folders[corpus] = prepare(corpus, self.data, self.work).corpus
        return self._folders[corpus]

    def path(self, corpus: str, doc: str) -> Path | None:
        base = self.folder(corpus)
        direct = base / doc
        if direct.is_file():
            return direct
        matches = sorted(p for p in base.rglob("*") if p.is_file() and p.name == doc)
        return matches[0] if matches else None

    def source(self, corpus: str, doc: str) -> Any:
        """:class:`citerag.eval.evidence.SourceText` of a document, or ``None``."""
        key = (corpus, doc)
        if key not in self._texts:
            from citerag.eval.evidence import source_text_from_file

            path = self.path(corpus, doc)
            self._texts[key] = source_text_from_file(path) if path is not None else None
        return self._texts[key]


# -- checks ------------------------------------------------------------------------------------


def check_structure(questions: list[Any]) -> list[str]:
    """Problems with keys, phrasings, pairing and splits (no documents needed)."""
    problems: list[str] = []
    facts: dict[str, list[Any]] = defaultdict(list)
    for q in questions:
        m = q.meta
        where = f"{q.id}:"
        kind = m.get("kind")
        corpora = ("none",) if kind == "ood" else CORPORA
        if m.get("corpus") not in corpora:
            problems.append(f"{where} corpus must be one of {corpora}, not {m.get('corpus')!r}")
        if kind not in KINDS:
            problems.append(f"{where} kind must be one of {KINDS}, not {kind!r}")
        if (kind == "answerable") == q.unanswerable:
            problems.append(f"{where} kind {kind!r} disagrees with unanswerable={q.unanswerable}")
        if m.get("split") not in SPLITS:
            problems.append(f"{where} split must be one of {SPLITS}, not {m.get('split')!r}")
        elif m["split"] != split_for(split_key(q)):
            problems.append(
                f"{where} split {m['split']!r} breaks the rule (expected "
                f"{split_for(split_key(q))!r} from {split_key(q)!r})"
            )
        if kind == "answerable":
            if not m.get("fact"):
                problems.append(f"{where} answerable question without a 'fact' id")
            if m.get("phrasing") not in PHRASINGS:
                problems.append(f"{where} phrasing must be one of {PHRASINGS}")
            if not all(e.needle for e in q.evidence):
                problems.append(f"{where} every evidence item needs a needle")
            if any(e.doc.lower().endswith(".pdf") and e.page is None for e in q.evidence):
                problems.append(f"{where} evidence in a PDF needs its 1-based page")
            facts[str(m.get("fact"))].append(q)
        elif kind == "near_miss" and (not m.get("near_doc") or not m.get("note")):
            problems.append(f"{where} a near miss needs 'near_doc' and 'note'")
        elif kind == "ood" and m.get("style") not in ("plain", "user"):
            problems.append(f"{where} an out-of-domain question needs style 'plain' or 'user'")
    for fact, qs in facts.items():
        phrasings = sorted(str(q.meta.get("phrasing")) for q in qs)
        if phrasings != sorted(PHRASINGS):
            problems.append(f"fact {fact}: phrasings {phrasings}, expected one of each")
            continue
        if len({tuple(q.evidence) for q in qs}) != 1:
            problems.append(f"fact {fact}: the two phrasings have different evidence")
        if len({q.meta.get("corpus") for q in qs}) != 1:
            problems.append(f"fact {fact}: the two phrasings name different corpora")
    return problems


def check_needles(questions: list[Any], docs: Documents) -> tuple[list[str], Counter[str]]:
    """Needles not found in their documents (checked once per fact), and repeat counts."""
    from chains.citations import normalise_ws

    problems: list[str] = []
    repeats: Counter[str] = Counter()
    seen: set[tuple[str, str, int | None, str]] = set()
    for q in questions:
        if q.unanswerable:
            continue
        corpus = str(q.meta.get("corpus"))
        for ev in q.evidence:
            key = (corpus, ev.doc, ev.page, ev.needle or "")
            if key in seen:
                continue
            seen.add(key)
            src = docs.source(corpus, ev.doc)
            if src is None:
                problems.append(f"{q.id}: document {ev.doc!r} not found in corpus {corpus!r}")
                continue
            hay = src.text if ev.page is None else src.page_text(ev.page)
            if hay is None:
                problems.append(f"{q.id}: {ev.doc} has no page {ev.page}")
                continue
            needle = normalise_ws(ev.needle or "")
            count = normalise_ws(hay).count(needle)
            if count == 0:
                where = f"{ev.doc} p.{ev.page}" if ev.page else ev.doc
                problems.append(f"{q.id}: needle not found in {where}: {ev.needle[:70]!r}...")
            elif count > 1:
                repeats[f"{ev.doc}: {ev.needle[:60]}"] = count
    for q in questions:
        if q.meta.get("kind") == "near_miss":
            corpus, doc = str(q.meta.get("corpus")), str(q.meta.get("near_doc"))
            if docs.path(corpus, doc) is None:
                problems.append(f"{q.id}: near_doc {doc!r} not found in corpus {corpus!r}")
    return problems, repeats


def overlap_table(questions: list[Any]) -> tuple[list[str], dict[str, float], list[Any]]:
    """Lines of the overlap report, the median per phrasing, and (score, question) rows."""
    rows: dict[tuple[str, str], list[float]] = defaultdict(list)
    scored: list[Any] = []
    for q in questions:
        if q.unanswerable:
            continue
        score = overlap(q.question, q.evidence[0].needle or "")
        rows[(str(q.meta.get("corpus")), str(q.meta.get("phrasing")))].append(score)
        scored.append((score, q))
    lines = [
        "Content-word overlap of each question with its evidence sentence",
        "(median / mean [interquartile range] n)",
        f"{'corpus':<14}{'document words':>32}{'users words':>32}",
    ]

    def cell(values: list[float]) -> str:
        if not values:
            return "-"
        qs = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
        return (
            f"{statistics.median(values):.2f} / {statistics.fmean(values):.2f} "
            f"[{qs[0]:.2f}-{qs[2]:.2f}] n={len(values)}"
        )

    for corpus in CORPORA:
        lines.append(
            f"{corpus:<14}{cell(rows[(corpus, 'document')]):>32}{cell(rows[(corpus, 'user')]):>32}"
        )
    medians: dict[str, float] = {}
    totals = []
    for phrasing in PHRASINGS:
        values = [v for (_, p), vs in rows.items() if p == phrasing for v in vs]
        medians[phrasing] = statistics.median(values) if values else 0.0
        totals.append(cell(values))
    lines.append(f"{'all':<14}{totals[0]:>32}{totals[1]:>32}")
    return lines, medians, scored


def count_lines(questions: list[Any]) -> list[str]:
    """Counts per kind, corpus and split."""
    table: Counter[tuple[str, str, str]] = Counter()
    facts: dict[tuple[str, str], set[str]] = defaultdict(set)
    for q in questions:
        kind = str(q.meta.get("kind"))
        corpus = str(q.meta.get("corpus") or "-")
        table[(kind, corpus, str(q.meta.get("split")))] += 1
        if kind == "answerable":
            facts[(corpus, str(q.meta.get("split")))].add(str(q.meta.get("fact")))
    out = [f"{'kind':<12}{'corpus':<14}{'calibration':>12}{'test':>8}{'total':>8}"]
    for kind in KINDS:
        corpora = sorted({c for k, c, _ in table if k == kind})
        for corpus in corpora:
            cal, test = table[(kind, corpus, "calibration")], table[(kind, corpus, "test")]
            out.append(f"{kind:<12}{corpus:<14}{cal:>12}{test:>8}{cal + test:>8}")
        cal = sum(v for (k, _, s), v in table.items() if k == kind and s == "calibration")
        test = sum(v for (k, _, s), v in table.items() if k == kind and s == "test")
        out.append(f"{kind:<12}{'(all)':<14}{cal:>12}{test:>8}{cal + test:>8}")
    n_facts = {s: sum(len(v) for (_, sp), v in facts.items() if sp == s) for s in SPLITS}
    out.append(
        f"facts (each asked twice): {sum(n_facts.values())} "
        f"(calibration {n_facts['calibration']}, test {n_facts['test']}); "
        f"questions: {len(questions)}"
    )
    return out


def write_subsets(questions: list[Any], out: Path) -> list[Path]:
    """Write the files the CLI takes, one index per corpus: ``<corpus>-<split>.jsonl`` (its
    answerable questions and near misses) and ``ood-<split>.jsonl``, for each split."""
    from citerag.eval.questions import write_questions

    written: list[Path] = []
    for split in SPLITS:
        groups: dict[str, list[Any]] = {c: [] for c in (*CORPORA, "ood")}
        for q in questions:
            if q.meta.get("split") == split:
                key = "ood" if q.meta.get("kind") == "ood" else str(q.meta.get("corpus"))
                groups[key].append(q)
        for name, qs in groups.items():
            path = out / f"{name}-{split}.jsonl"
            write_questions(qs, path)
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    from citerag.eval.adapters import default_data_dir
    from citerag.eval.questions import QuestionFormatError, load_questions

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", type=Path, default=DEFAULT_FILE, help="the question file")
    ap.add_argument("--data", type=Path, default=default_data_dir(), help="shared data folder")
    ap.add_argument("--work", type=Path, default=None, help="materialise here (default: temp)")
    ap.add_argument("-v", "--verbose", action="store_true", help="list the highest overlaps")
    ap.add_argument(
        "--write",
        type=Path,
        metavar="DIR",
        help="also write <corpus>-<split>.jsonl and ood-<split>.jsonl here (for citerag eval "
        "and citerag calibrate --ood, one index per corpus)",
    )
    args = ap.parse_args(argv)

    try:
        questions = load_questions(args.file)
    except (OSError, QuestionFormatError) as exc:
        print(f"FAIL: {exc}")
        return 1
    problems = check_structure(questions)
    with tempfile.TemporaryDirectory(prefix="devset-") as tmp:
        docs = Documents(args.data, args.work or Path(tmp))
        needle_problems, repeats = check_needles(questions, docs)
    problems += needle_problems

    print(f"{args.file}: {len(questions)} questions")
    print()
    print("\n".join(count_lines(questions)))
    print()
    lines, medians, scored = overlap_table(questions)
    print("\n".join(lines))
    if args.verbose:
        print("\nHighest users'-words overlaps:")
        users = sorted(
            (r for r in scored if r[1].meta.get("phrasing") == "user"), key=lambda r: -r[0]
        )
        for score, q in users[:15]:
            print(f"  {score:.2f}  {q.id}: {q.question}")
    if repeats:
        print(f"\nnote: {len(repeats)} needle(s) occur more than once in their document/page:")
        for text, n in sorted(repeats.items()):
            print(f"  x{n}  {text}")
    if medians["user"] > MAX_USER_MEDIAN:
        problems.append(
            f"users'-words median overlap {medians['user']:.3f} > {MAX_USER_MEDIAN}: "
            "rewrite the user phrasings that repeat the document's words"
        )
    if problems:
        print(f"\nFAIL: {len(problems)} problem(s)")
        for p in problems:
            print(f"  - {p}")
        return 1
    if args.write:
        paths = write_subsets(questions, args.write)
        print(
            f"\nwrote {len(paths)} files to {args.write}/"
            " (<corpus>-<split>.jsonl, ood-<split>.jsonl)"
        )
    print(
        f"\nOK: every needle found; users'-words median {medians['user']:.2f} "
        f"(document words {medians['document']:.2f})"
    )
    return 0


#: Result files of this tool that it does not write (result name -> why).
TRANSCRIBED_RESULTS = {
    "devset_check": ("the overlap report it prints, transcribed from the page that quoted it"),
}


if __name__ == "__main__":
    sys.exit(main())
