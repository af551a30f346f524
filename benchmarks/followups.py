"""Follow-up questions: evidence hit@4 of the follow-up turn, rewritten or not.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.followups [--corpora sample,squad,financebench]

Over the two- and three-turn conversations of ``benchmarks/followups/conversations.jsonl``
(written for this benchmark, on the sample corpus, SQuAD 2.0 articles and the FinanceBench
filings), every turn runs through the compiled graph's prefix (``build_graph(deps,
stop_after="assemble")``: condense → constrain → retrieve → rerank → gate → assemble, as
``citerag/eval/runner.py`` measures retrieval) with the earlier turns in ``messages``, under
three settings of the ``condense`` node:

* **raw** — ``condense=off``: the follow-up as the user wrote it;
* **rule** — ``condense=rule``: the offline rule of :mod:`chains.followup`;
* **model** — ``condense=auto`` with a scripted "rewrite" chat model injected as the
  graph's ``rewriter``: it answers each turn's ``rewrite`` from the file (or the question
  unchanged), through the versioned prompt and the rewrite check, exercising the model path.

A turn is a hit when a chunk holding its evidence (needle or page, matched by
:class:`citerag.eval.evidence.IndexedCorpus`) is among the first four candidates. Reported:
hit@4 with Wilson intervals, and exact sign tests on the paired turns (rule vs raw, model vs
raw; first turns with the rule vs without: they must not move). Results go to
``benchmarks/out/followups.{json,md}``.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from benchmarks.common import REPO, cached_embeddings, dataset, log, parser, sample, write
from benchmarks.results import table, write_result

CONVERSATIONS = REPO / "benchmarks" / "followups" / "conversations.jsonl"
K = 4
SETTINGS = ("raw", "rule", "model")


class ScriptedRewriter(BaseChatModel):
    """A fake rewrite model: the scripted rewrite of the latest question, else the question."""

    script: dict[str, str]

    @property
    def _llm_type(self) -> str:
        return "scripted-rewriter"

    def _generate(self, messages: list[BaseMessage], stop: Any = None, **kw: Any) -> ChatResult:
        text = str(messages[-1].content)
        question = text.split("LATEST QUESTION", 1)[1].split("STANDALONE QUESTION", 1)[0].strip()
        reply = self.script.get(question, question)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=reply))])


def load_conversations(path: Path) -> list[dict[str, Any]]:
    """The conversations (``#`` lines are comments)."""
    return [
        json.loads(line)
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]


def _evidence(turn: dict[str, Any], squad: dict[str, list[Any]]) -> list[Any]:
    from citerag.eval.questions import parse_question

    if "evidence_of" in turn:
        hits = [v for k, v in squad.items() if k.startswith(turn["evidence_of"])]
        if len(hits) != 1:
            raise ValueError(f"evidence_of {turn['evidence_of']!r} matches {len(hits)} questions")
        return hits[0]
    return parse_question({"question": turn["question"], "evidence": turn["evidence"]}).evidence


def _index(corpus: str, args: Any) -> Any:
    """The corpus's index for the configured embedding model."""
    if corpus == "sample":
        return sample(args)[1]
    if corpus == "squad":
        return dataset("squad", args)[1]
    return dataset("financebench", args)[1]


def main() -> int:
    """Run the benchmark."""
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--corpora", default="sample,squad,financebench")
    p.add_argument("--conversations", type=Path, default=CONVERSATIONS)
    args = p.parse_args()

    from citerag.eval import metrics as stats
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.questions import load_questions
    from graphs.deps import GraphDeps
    from graphs.rag import build_graph

    convs = load_conversations(args.conversations)
    wanted = [c.strip() for c in args.corpora.split(",") if c.strip()]
    emb = cached_embeddings(args)
    squad: dict[str, list[Any]] = {}
    flags: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    rows: list[dict[str, Any]] = []
    for corpus in wanted:
        mine = [c for c in convs if c["corpus"] == corpus]
        if not mine:
            continue
        loaded = _index(corpus, args)
        if corpus == "squad":
            squad = {
                q.id: q.evidence for q in load_questions(args.work / "squad" / "questions.jsonl")
            }
        indexed = IndexedCorpus.from_store(loaded.store, loaded.manifest.documents)
        script = {t["question"]: t["rewrite"] for c in mine for t in c["turns"] if "rewrite" in t}
        deps = GraphDeps.from_store(
            loaded.store, embeddings=emb, manifest_id=loaded.manifest_id, calibration={}
        )
        deps.rewriter = ScriptedRewriter(script=script)
        prefix = build_graph(deps, stop_after="assemble")
        conf = {"raw": "off", "rule": "rule", "model": "auto"}
        for conv in mine:
            history: list[BaseMessage] = []
            for i, turn in enumerate(conv["turns"]):
                evidence = _evidence(turn, squad)
                hit_keys = frozenset().union(*(indexed.hits(ev) for ev in evidence))
                if not hit_keys:
                    raise ValueError(f"{conv['id']} turn {i}: evidence matches no chunk")
                row: dict[str, Any] = {"id": f"{conv['id']}.{i}", "corpus": corpus, "turn": i}
                for setting in SETTINGS:
                    state = prefix.invoke(
                        {
                            "question": turn["question"],
                            "messages": list(history),
                            "user_groups": [],
                        },
                        {"configurable": {"condense": conf[setting]}},
                    )
                    keys = [c.key for c in (state.get("candidates") or [])[:K]]
                    hit = any(k in hit_keys for k in keys)
                    cond = state["condense"]
                    row[setting] = {
                        "hit": hit,
                        "standalone": cond.standalone,
                        "method": cond.method,
                    }
                    part = "first" if i == 0 else "follow"
                    flags[f"{part}.{setting}"][corpus].append(hit)
                    flags[f"{part}.{setting}"]["all"].append(hit)
                rows.append(row)
                history += [HumanMessage(turn["question"]), AIMessage("(answer)")]
        log(f"{corpus}: {len(mine)} conversations")
    save_embeddings_safe(emb, args)
    groups = [*wanted, "all"]
    table: dict[str, Any] = {}
    md = [
        f"## Follow-ups: evidence hit@{K} of each turn ({len(convs)} conversations)\n",
        "| turns | corpus | n | raw | rule | model | rule vs raw | model vs raw |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for part in ("follow", "first"):
        for g in groups:
            raw = flags[f"{part}.raw"].get(g, [])
            if not raw:
                continue
            rule, mod = flags[f"{part}.rule"][g], flags[f"{part}.model"][g]
            entry = {
                s: stats.Proportion(sum(v), len(v)).to_json()
                for s, v in (("raw", raw), ("rule", rule), ("model", mod))
            }
            pr, pm = stats.paired(rule, raw), stats.paired(mod, raw)
            entry["rule_vs_raw"], entry["model_vs_raw"] = pr.to_json(), pm.to_json()
            entry["missed"] = {"raw": len(raw) - sum(raw), "rule": len(rule) - sum(rule),
                               "model": len(mod) - sum(mod)}  # fmt: skip
            table[f"{part}.{g}"] = entry
            md.append(
                f"| {'follow-up' if part == 'follow' else 'first'} | {g} | {len(raw)} | "
                + " | ".join(stats.Proportion(sum(v), len(v)).fmt() for v in (raw, rule, mod))
                + f" | {pr.fmt()} | {pm.fmt()} |"
            )
    methods = defaultdict(int)
    for r in rows:
        if r["turn"] > 0:
            methods[f"model:{r['model']['method']}"] += 1
            methods[f"rule:{r['rule']['method']}"] += 1
    fa = table.get("follow.all")
    if fa:
        md.append(
            f"\nFollow-ups whose evidence is missed: raw {fa['missed']['raw']}, rule "
            f"{fa['missed']['rule']}, model {fa['missed']['model']}. Methods: "
            + ", ".join(f"{k} {v}" for k, v in sorted(methods.items()))
            + "."
        )
    write(args.out, "followups", {"k": K, "table": table, "methods": methods, "rows": rows},
          "\n".join(md))  # fmt: skip
    heldout = args.conversations.resolve() != CONVERSATIONS.resolve()
    write_result(
        "followups_heldout" if heldout else "followups",
        {"turns": turns_table(table, groups, held_out=heldout)},
        {"k": K, "conversations": str(args.conversations), "table": table, "methods": methods},
    )
    return 0


#: The docs' name of each corpus (``all``: every corpus of the run).
SET_LABELS = {"sample": "sample", "squad": "SQuAD", "financebench": "FinanceBench"}


def turns_table(
    figures: dict[str, Any], groups: list[str], *, held_out: bool = False
) -> dict[str, Any]:
    """The result table ``turns``: hit@4 of first turns and follow-ups per set, raw / rule /
    model, with the paired sign tests against raw (the held-out set's run labels its rows so)."""
    from citerag.eval.metrics import Proportion, format_p

    def prop(e: dict[str, Any]) -> str:
        return Proportion(e["k"], e["n"]).fmt()

    def paired(e: dict[str, Any]) -> str:
        wins, losses, p = e["wins"], e["losses"], e["p_sign_test"]
        if not wins and not losses:
            return "+0/−0"
        return f"+{wins}/−{losses} p={format_p(p) if p < 0.001 else f'{p:.3f}'}"

    body = []
    single = len(groups) == 2  # one corpus and "all": the same questions twice
    for part in ("follow", "first"):
        for g in groups:
            e = figures.get(f"{part}.{g}")
            if e is None or (single and g != "all"):
                continue
            label = "main set" if g == "all" else SET_LABELS.get(g, g)
            if held_out:
                label = "held-out" + (f" {SET_LABELS.get(groups[0], groups[0])}" if single else "")
            body.append(
                ["follow-up" if part == "follow" else "first", label, str(e["raw"]["n"])]
                + [prop(e[m]) for m in ("raw", "rule", "model")]
                + [paired(e["rule_vs_raw"]), paired(e["model_vs_raw"])]
            )
    columns = ["turns", "set", "n", "raw", "offline rule", "scripted rewrite model"]
    return table([*columns, "rule vs raw", "model vs raw"], body, ["left"] * 8)


def save_embeddings_safe(emb: Any, args: Any) -> None:
    """Extend the shared query-embedding cache (best effort)."""
    from benchmarks.common import save_embeddings

    try:
        save_embeddings(emb, args)
    except OSError as exc:
        log(f"query embedding cache not saved: {exc}")


#: Result files of this module that it does not write yet (result name -> why): they
#: stay transcribed from the published tables until it does.
TRANSCRIBED_RESULTS = {
    "followups": (
        "not wired yet: the published table puts the main set and the held-out set (a "
        "second run, --conversations) together"
    ),
}


#: Results of this module that no single run writes (result name -> why).
HAND_COLLECTED_RESULTS = {
    "followups_history": "the rewrite rule against its previous version, from two runs",
}

if __name__ == "__main__":
    raise SystemExit(main())
