"""Does the count rule of ``quantity_check`` refuse the sentences that answer a *how many*?

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.experiments.count_rule [--data DIR] [--show N]

``quantity_check`` refuses a *how many* question (a count of things) quoted with a sentence
whose only numbers are sums of money, per cents, labels ("Q3") or years with no word after
them (``chains.answer_checks._COUNT_Q`` / ``_counts``). This reads, with no model and no
index, every answerable counting question of SQuAD 2.0's dev set (the sentence holding its
first gold answer, by ``loaders.sentences.sentence_spans``) and of the project's own sets
(the FAQ set, the mixed-format corpus, the water trust's corpus, the development set in
users' words: their evidence needles), and counts the gold sentences the rule refuses, with
the rule and without it (the rest of ``quantity_check`` as it is). A gold sentence refused
is an answer the rule would lose whatever retrieval does. Writes
``benchmarks/results/count_rule.json``.
"""

from __future__ import annotations

import argparse
import json
import re
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


def needles(path: Path) -> Iterator[tuple[str, str]]:
    """``(question, evidence needle)`` of a project question set (answerable ones)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        q = json.loads(line)
        ev = q.get("evidence") or []
        needle = ev if isinstance(ev, str) else (ev[0].get("needle") if ev else "")
        if needle and not q.get("unanswerable"):
            yield q["question"], str(needle)


def refusals(pairs: Iterator[tuple[str, str]]) -> dict[str, Any]:
    """Counting questions read, gold sentences refused without / with the count rule."""
    import chains.answer_checks as checks

    never = re.compile(r"(?!)")  # matches nothing: the count rule off
    rule = checks._COUNT_Q
    read, before, after, lost = 0, 0, 0, []
    for question, sentence in pairs:
        if not rule.search(question) or checks.expected_answer_type(question) != "quantity":
            continue
        read += 1
        now = checks.answer_type_problem(question, sentence, ("quantity",))
        checks._COUNT_Q = never
        try:
            old = checks.answer_type_problem(question, sentence, ("quantity",))
        finally:
            checks._COUNT_Q = rule
        before += old is not None
        after += now is not None
        if now is not None and old is None:
            lost.append({"question": question, "sentence": sentence[:300]})
    return {"read": read, "refused_without": before, "refused_with": after, "lost": lost}


def main() -> int:
    """Run the check and write the result."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    p.add_argument("--show", type=int, default=10, help="gold sentences lost to print")
    args = p.parse_args()
    sources = {
        "SQuAD 2.0 dev (gold sentences)": squad_gold(args.data / "squad2-dev" / "dev-v2.0.json")
    }
    sources |= {name: needles(path) for name, path in OWN_SETS.items()}
    rows, data = [], {}
    for name, pairs in sources.items():
        got = refusals(pairs)
        data[name] = got
        rows.append([name, str(got["read"]), str(got["refused_without"]), str(got["refused_with"])])
        for item in got["lost"][: args.show]:
            log(f"{name}: lost {item['question']!r} / {item['sentence']!r}")
    out = table(
        [
            "answerable counting questions of",
            "read",
            "gold sentence refused, count rule off",
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
