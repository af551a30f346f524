"""Does the count rule of ``quantity_check`` refuse the sentences that answer a *how many*?

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.experiments.count_rule [--data DIR] [--show N]

``quantity_check`` refuses a counting question ("how many customers …?") quoted with a
sentence whose only numbers are sums of money, per cents or labels
(:func:`chains.answer_checks.counts_nothing`). This reads, with no model and no index, every
answerable question whose first quantity cue is *how many* things (not a span of time, not a
share) and what the extractive answerer would quote for its gold answer:

* SQuAD 2.0's dev set: the sentence holding the first gold answer
  (``loaders.sentences.sentence_spans``);
* the FAQ set, the mixed-format corpus (without its scans) and the water trust's corpus: the
  needle found in its document as the loaders read it, and the table row holding it, stated
  with its column names and their units (``header_units``), else the sentence holding it;
* the development set in users' words: its needles, which are whole sentences.

It counts the gold units ``quantity_check`` refuses without the count rule and with it. A
gold unit refused is an answer the rule would lose whatever retrieval does. Writes
``benchmarks/results/count_rule.json``.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.common import REPO, log
from benchmarks.results import table, write_result

#: The project's own question sets with evidence needles.
OWN_SETS = {
    "FAQ set": REPO / "benchmarks" / "faqset" / "questions.jsonl",
    "mixed-format corpus": REPO / "benchmarks" / "corpora" / "mixed" / "questions.jsonl",
    "water trust corpus": REPO / "benchmarks" / "corpora" / "trust" / "questions.jsonl",
    "development set (users' words)": REPO / "benchmarks" / "devset" / "questions.jsonl",
}


def squad_gold(path: Path) -> Iterator[tuple[str, str]]:
    """``(question, sentence holding its first gold answer)`` of SQuAD's answerable ones."""
    from loaders.sentences import sentence_spans

    for article in json.loads(path.read_text(encoding="utf-8"))["data"]:
        for para in article["paragraphs"]:
            context = para["context"]
            spans = sentence_spans(context)
            for qa in para["qas"]:
                if qa["is_impossible"]:
                    continue
                at = qa["answers"][0]["answer_start"]
                sentence = next((context[s:e] for s, e in spans if s <= at < e), None)
                if sentence is not None:
                    yield qa["question"], sentence


def needles(path: Path) -> Iterator[tuple[str, str, str]]:
    """``(question, evidence needle, document name)`` of a project set's answerable ones."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        q = json.loads(line)
        ev = q.get("evidence") or []
        if isinstance(ev, str):
            needle, doc = ev, str(q.get("doc_name") or "")
        else:
            needle, doc = (
                (str(ev[0].get("needle") or ""), str(ev[0].get("doc") or "")) if ev else ("", "")
            )
        if needle and not q.get("unanswerable"):
            yield q["question"], needle, doc


def quoted_unit(text: str, tables: list[Any], needle: str) -> str | None:
    """What the extractive answerer would quote for ``needle`` in a loaded document.

    Args:
        text: The document's canonical text.
        tables: Its tables (:class:`loaders.base.Table`).
        needle: The gold answer, found with whitespace ignored.

    Returns:
        The table row holding it, stated with its column names and units, else the sentence
        holding it; ``None`` when the needle is not in the text.
    """
    from chains.answer_checks import header_units
    from loaders.sentences import sentence_spans

    m = re.search(r"\s+".join(re.escape(w) for w in needle.split()), text)
    if m is None:
        return None
    for t in tables:
        for row in t.rows:
            if row.start <= m.start() < row.end:
                return header_units(row.describe())
    return next((text[a:b] for a, b in sentence_spans(text) if a <= m.start() < b), None)


def own_units(name: str, folder: Path) -> Iterator[tuple[str, str]]:
    """``(question, unit quoted for its gold answer)`` of one of the project's sets, its
    documents loaded from ``folder`` (a needle not found is read as it stands)."""
    from loaders.registry import load_file

    loaded: dict[str, Any] = {}
    for question, needle, doc in needles(OWN_SETS[name]):
        if doc and doc not in loaded:
            path = next((p for p in sorted(folder.rglob("*")) if p.name == doc), None)
            loaded[doc] = load_file(path) if path is not None else None
        parsed = loaded.get(doc)
        unit = quoted_unit(parsed.text, parsed.tables, needle) if parsed is not None else None
        yield question, unit or needle


def refusals(pairs: Iterator[tuple[str, str]]) -> dict[str, Any]:
    """Counting questions read, gold units refused by ``quantity_check`` without and with the
    count rule, and the units the rule refuses."""
    from chains import answer_checks as checks

    quantity: tuple[checks.AnswerType, ...] = ("quantity",)
    read, before, after, lost = 0, 0, 0, []
    for question, unit in pairs:
        if not checks.asks_count(question):
            continue
        read += 1
        refused = checks.answer_type_problem(question, unit, quantity) is not None
        by_rule = checks.counts_nothing(question, unit)
        before += refused and not by_rule  # without the rule, only its other refusals
        after += refused
        if by_rule:
            lost.append({"question": question, "unit": unit[:300]})
    return {"read": read, "refused_without": before, "refused_with": after, "lost": lost}


def main() -> int:
    """Run the check and write the result."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    p.add_argument("--show", type=int, default=10, help="gold units refused to print")
    args = p.parse_args()

    from benchmarks import faqset_check, mixed_corpus

    rows, data = [], {}
    # the FAQ set and the mixed-format corpus are written here, read, then removed
    with tempfile.TemporaryDirectory(prefix="count-rule-") as tmp:
        work = Path(tmp)
        folders = {
            "FAQ set": faqset_check.materialise(work / "faqset"),
            "mixed-format corpus": mixed_corpus.build(work / "mixed", scans=False)["corpus"],
            "water trust corpus": OWN_SETS["water trust corpus"].parent / "docs",
        }
        devset = OWN_SETS["development set (users' words)"]
        sources: dict[str, Iterator[tuple[str, str]]] = {
            "SQuAD 2.0 dev (gold sentences)": squad_gold(
                args.data / "squad2-dev" / "dev-v2.0.json"
            ),
            **{name: own_units(name, folder) for name, folder in folders.items()},
            "development set (users' words)": ((q, n) for q, n, _doc in needles(devset)),
        }
        for name, pairs in sources.items():
            got = refusals(pairs)
            data[name] = got
            rows.append(
                [name, str(got["read"]), str(got["refused_without"]), str(got["refused_with"])]
            )
            for item in got["lost"][: args.show]:
                log(f"{name}: refused {item['question']!r} / {item['unit']!r}")
    out = table(
        [
            "answerable counting questions of",
            "read",
            "gold unit refused by quantity_check, count rule off",
            "count rule on",
        ],
        rows,
        ["left", "right", "right", "right"],
    )
    path = write_result("count_rule", {"gold": out}, data)
    log(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
