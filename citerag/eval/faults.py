"""Fault injection on the real graph, and the fallback-ladder article's unusable-answer table.

:class:`FaultyChatModel` is a LangChain chat model that needs no network. Per call, with
seeded probabilities, it

1. raises an error (``p_error``, default 2 %) — a provider failure;
2. otherwise writes a well-formed, correctly cited answer built from the numbered passages it
   was given (it parses ``[n] document — locator`` blocks out of the prompt and quotes a
   sentence of passage 1 verbatim), whose ``<summary>`` block is, with probability
   ``p_malformed`` (default 5 %) and independently of step 1, malformed: Python-style
   quotes and a trailing comma, a code fence, a truncated block, or no block at all.

:func:`run_ladder` sends ``n`` questions through the **real** compiled graph
(:func:`graphs.rag.build_graph` over a real index) with that model injected. A share
``p_no_results`` (default 6 %) of the questions are off-topic questions that the real gate
refuses ("no results"); the rest are answerable questions. The graph always has every rung
(retry once, regex recovery of the block, the explicit no-evidence reply), so the four
policies of the fallback-ladder article are computed from each run's trace by asking which
rungs it needed:

* ``retry`` — a generation attempt failed (``generate`` error/empty event, or two attempts);
* ``regex`` — the final block status is ``recovered`` or ``defaulted``;
* ``no-evidence reply`` — the run ended ``no_evidence``.

A run is unusable under a policy when it ended ``failed`` or needed a rung the policy lacks.
"""

from __future__ import annotations

import json
import logging
import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import PrivateAttr
from tqdm.auto import tqdm

from citerag.eval import metrics as stats
from citerag.eval.questions import Question

#: The fallback-ladder article's table (§3.4; N = 20,000 simulated runs), reported alongside.
ARTICLE_LADDER = {
    "no fallback": 0.1286,
    "retry generation once": 0.1088,
    "retry + regex-extract the block": 0.0627,
    "retry + regex + explicit no-evidence reply": 0.0004,
}
POLICIES: tuple[tuple[str, frozenset[str]], ...] = (
    ("no fallback", frozenset()),
    ("retry generation once", frozenset({"retry"})),
    ("retry + regex-extract the block", frozenset({"retry", "regex"})),
    (
        "retry + regex + explicit no-evidence reply",
        frozenset({"retry", "regex", "no_evidence_reply"}),
    ),
)

_PASSAGE = re.compile(r"^\[(\d+)\] [^\n]*$", re.MULTILINE)
MALFORMATIONS = ("python_literal", "code_fence", "truncated", "missing")


def parse_passages(messages: Sequence[BaseMessage]) -> dict[int, str]:
    """Numbered passages ``{n: content}`` from the rendered answer prompt."""
    text = ""
    for m in messages:
        if m.type == "human":
            text = str(m.content)
    if "\n\nQUESTION\n" in text:
        text = text[: text.rindex("\n\nQUESTION\n")]
    heads = list(_PASSAGE.finditer(text))
    out: dict[int, str] = {}
    for i, h in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        out[int(h.group(1))] = text[h.end() : end].strip()
    return out


def cited_answer(passages: dict[int, str], max_words: int = 25) -> tuple[str, list[int]]:
    """A correct answer: one verbatim-quoted sentence from passage 1 (and 2 if present)."""
    from loaders.sentences import sentence_spans

    lines: list[str] = []
    used: list[int] = []
    for n in sorted(passages)[:2]:
        content = passages[n]
        spans = sentence_spans(content) or [(0, len(content))]
        sentences = [content[s:e] for s, e in spans]
        pick = next(
            (s for s in sentences if len(s.split()) >= 5 and '"' not in s and "\\" not in s), None
        )
        if pick is None:
            pick = next((s for s in sentences if '"' not in s and "\\" not in s), None)
        if pick is None:
            continue
        words = pick.split()
        quote = " ".join(words[:max_words])
        lines.append(f'According to the passage, {" ".join(words)} [{n}: "{quote}"]')
        used.append(n)
    return "\n".join(lines), used


def malform(prose: str, block: dict[str, Any], kind: str) -> str:
    """Attach a broken ``<summary>`` block of the given kind (or none)."""
    good = json.dumps(block)
    if kind == "python_literal":
        srcs = ", ".join(str(s) for s in block["sources"])
        return (
            f"{prose}\n<summary>{{confidence: '{block['confidence']}', sources: [{srcs}], "
            "insufficient_evidence: False,}</summary>"
        )
    if kind == "code_fence":
        return f"{prose}\n<summary>```json\n{good}\n```</summary>"
    if kind == "truncated":
        return f"{prose}\n<summary>{good[: max(12, len(good) // 2)]}"
    return prose  # missing


class FaultyChatModel(BaseChatModel):
    """A seeded fake chat model that fails, malforms, or answers correctly from its prompt.

    Attributes:
        p_error: Per-call probability of raising an error.
        p_malformed: Per-call probability (independent) of a malformed summary block.
        seed: RNG seed; the sequence of outcomes is reproducible for a given call order.
    """

    p_error: float = 0.02
    p_malformed: float = 0.05
    seed: int = 31
    _rng: random.Random = PrivateAttr(default_factory=random.Random)
    _tally: Counter[str] = PrivateAttr(default_factory=Counter)

    def model_post_init(self, __context: Any) -> None:
        """Seed the RNG."""
        self._rng = random.Random(self.seed)
        self._tally = Counter()

    @property
    def _llm_type(self) -> str:
        return "citerag-faulty-fake"

    @property
    def tally(self) -> Counter[str]:
        """What the model did: ``calls``, ``errors``, ``malformed:<kind>``, ``ok``."""
        return self._tally

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        r_err, r_parse, r_kind = self._rng.random(), self._rng.random(), self._rng.random()
        self._tally["calls"] += 1
        if r_err < self.p_error:
            self._tally["errors"] += 1
            raise RuntimeError("injected generation failure (fault injection)")
        passages = parse_passages(messages)
        prose, used = cited_answer(passages)
        if not used:
            text = (
                'INSUFFICIENT_EVIDENCE\n<summary>{"confidence": "low", "sources": [], '
                '"insufficient_evidence": true}</summary>'
            )
            self._tally["insufficient"] += 1
        else:
            block = {"confidence": "high", "sources": used, "insufficient_evidence": False}
            if r_parse < self.p_malformed:
                kind = MALFORMATIONS[int(r_kind * len(MALFORMATIONS)) % len(MALFORMATIONS)]
                self._tally[f"malformed:{kind}"] += 1
                text = malform(prose, block, kind)
            else:
                self._tally["ok"] += 1
                text = f"{prose}\n<summary>{json.dumps(block)}</summary>"
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


def rungs_needed(result: dict[str, Any]) -> frozenset[str] | None:
    """Which ladder rungs a run needed (``None``: unusable whatever the policy)."""
    status = result.get("status")
    if status == "failed":
        return None
    if status == "no_evidence":
        return frozenset({"no_evidence_reply"})
    trace = result.get("trace") or {}
    needed: set[str] = set()
    gen = [e for e in trace.get("events") or [] if e.get("node") == "generate"]
    if (
        any(e.get("event") in ("error", "empty") for e in gen)
        or int(trace.get("attempts") or 0) > 1
    ):
        needed.add("retry")
    block = trace.get("block") or {}
    if block.get("status") in ("recovered", "defaulted"):
        needed.add("regex")
    return frozenset(needed)


def expected_unusable(p_no: float, p_err: float, p_mal: float) -> dict[str, float]:
    """The analytic expectation for independent faults (the ladder article §4.3)."""
    ok1 = (1 - p_err) * (1 - p_mal)
    return {
        "no fallback": p_no + (1 - p_no) * (1 - ok1),
        "retry generation once": p_no + (1 - p_no) * (p_err**2 + (1 - p_err**2) * p_mal),
        "retry + regex-extract the block": p_no + (1 - p_no) * p_err**2,
        "retry + regex + explicit no-evidence reply": (1 - p_no) * p_err**2,
    }


@dataclass
class LadderResult:
    """Outcome of a fault-injection run.

    Attributes:
        n: Runs.
        unusable: Policy -> unusable runs.
        status: Final statuses.
        needed: Rung combinations needed -> runs.
        tally: What the fake model did.
        no_results: Runs whose gate refused (the "no results" share realised).
        params: The injected probabilities and seed.
        examples: One run id per rung combination (for inspection).
    """

    n: int
    unusable: dict[str, int]
    status: dict[str, int]
    needed: dict[str, int]
    tally: dict[str, int]
    no_results: int
    params: dict[str, Any]
    examples: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """JSON summary with Wilson intervals and the ladder article's figures."""
        exp = expected_unusable(
            self.params["p_no_results"], self.params["p_error"], self.params["p_malformed"]
        )
        return {
            "n": self.n,
            "params": self.params,
            "policies": {
                name: {
                    **stats.Proportion(self.unusable[name], self.n).to_json(),
                    "expected": round(exp[name], 6),
                    "article": ARTICLE_LADDER[name],
                }
                for name, _ in POLICIES
            },
            "status": self.status,
            "rungs_needed": self.needed,
            "no_results": stats.Proportion(self.no_results, self.n).to_json(),
            "model": self.tally,
        }

    def table(self, markdown: bool = True) -> str:
        """Unusable answers per policy next to the expectation and the ladder article's figures."""
        from citerag.eval.report import table

        exp = expected_unusable(
            self.params["p_no_results"], self.params["p_error"], self.params["p_malformed"]
        )
        rows = []
        for name, _ in POLICIES:
            p = stats.Proportion(self.unusable[name], self.n)
            lo, hi = p.interval
            rows.append(
                [
                    name,
                    f"{p.k}/{p.n}",
                    f"{p.value:.2%}",
                    f"[{lo:.2%}, {hi:.2%}]",
                    f"{exp[name]:.2%}",
                    f"{ARTICLE_LADDER[name]:.2%}",
                ]
            )
        return table(
            ["policy", "unusable", "rate", "95 % Wilson", "expected", "article"], rows, markdown
        )


def run_ladder(
    graph_factory: Any,
    answerable: Sequence[Question],
    off_topic: Sequence[Question],
    *,
    n: int = 20_000,
    p_no_results: float = 0.06,
    p_error: float = 0.02,
    p_malformed: float = 0.05,
    seed: int = 31,
    config: dict[str, Any] | None = None,
    progress: bool = True,
) -> LadderResult:
    """Run ``n`` questions through the real graph with a :class:`FaultyChatModel`.

    Args:
        graph_factory: ``factory(model) -> compiled graph`` (e.g. a partial of
            :func:`graphs.rag.build_graph` over a loaded index).
        answerable: Questions drawn for the answerable share.
        off_topic: Questions drawn for the "no results" share (they should be refused by
            the gate; whatever the real graph does is what is counted).
        n: Runs.
        p_no_results: Share of runs that ask an off-topic question.
        p_error: Per-call generation failure probability.
        p_malformed: Per-call malformed-block probability.
        seed: Seed for question sampling and for the model.
        config: ``RunnableConfig`` for every run.
        progress: Show a progress bar.

    Raises:
        ValueError: With no answerable or no off-topic questions.
    """
    if not answerable or (p_no_results > 0 and not off_topic):
        raise ValueError("need answerable questions and (for p_no_results > 0) off-topic ones")
    model = FaultyChatModel(p_error=p_error, p_malformed=p_malformed, seed=seed)
    graph = graph_factory(model)
    rng = random.Random(seed + 1)
    unusable = dict.fromkeys((name for name, _ in POLICIES), 0)
    status: Counter[str] = Counter()
    needed_c: Counter[str] = Counter()
    examples: dict[str, str] = {}
    no_results = 0
    node_log = logging.getLogger("graphs.nodes")
    level = node_log.level
    node_log.setLevel(logging.ERROR)  # injected failures are expected: don't log each one
    try:
        for i in tqdm(range(n), desc="ladder", unit="run", disable=not progress):
            off = rng.random() < p_no_results
            q = rng.choice(off_topic) if off else rng.choice(answerable)
            result = graph.invoke({"question": q.question}, config or {})
            status[result.get("status", "failed")] += 1
            gate = (result.get("trace") or {}).get("gate") or {}
            if result.get("status") == "no_evidence" and not gate.get("passed"):
                no_results += 1
            needed = rungs_needed(result)
            key = "failed" if needed is None else ("+".join(sorted(needed)) or "none")
            needed_c[key] += 1
            examples.setdefault(key, f"run {i}: {q.id}")
            for name, rungs in POLICIES:
                if needed is None or not needed <= rungs:
                    unusable[name] += 1
    finally:
        node_log.setLevel(level)
    return LadderResult(
        n=n,
        unusable=unusable,
        status=dict(status),
        needed=dict(needed_c),
        tally=dict(model.tally),
        no_results=no_results,
        params={
            "p_no_results": p_no_results,
            "p_error": p_error,
            "p_malformed": p_malformed,
            "seed": seed,
        },
        examples=examples,
    )


@dataclass
class IndexLadder:
    """A ladder run over a loaded index, with the question pools it drew from.

    Attributes:
        result: The ladder result.
        off_topic: Unanswerable questions the real gate refuses (the "no results" pool).
        near_miss: Unanswerable questions the gate lets through (not used).
    """

    result: LadderResult
    off_topic: list[Question]
    near_miss: list[Question]


def ladder_on_index(
    loaded: Any,
    embeddings: Any,
    questions: Sequence[Question],
    config: Any,
    *,
    embedding_model: str = "",
    calibration: dict[str, Any] | None = None,
    n: int = 20_000,
    p_no_results: float = 0.06,
    p_error: float = 0.02,
    p_malformed: float = 0.05,
    seed: int = 31,
    progress: bool = True,
) -> IndexLadder:
    """Split a question file into pools with the real gate, then :func:`run_ladder`.

    Answerable questions form the answerable pool; unanswerable ones that the gate refuses
    form the "no results" pool (those it lets through are near-misses and are left out, since
    the ladder table counts the gate's refusals as "no results").

    Args:
        loaded: A loaded index (``store``, ``manifest_id``).
        embeddings: Query embeddings (e.g. a :class:`~citerag.eval.runner.CachedEmbeddings`).
        questions: The question file's questions.
        config: The :class:`~citerag.eval.runner.EvalConfig` every run uses.
        embedding_model: Embedding model name for traces.
        calibration: The index's gate calibration.
        n: Runs.
        p_no_results: Share of runs that ask an off-topic question.
        p_error: Per-call generation failure probability.
        p_malformed: Per-call malformed-block probability.
        seed: Seed.
        progress: Progress bar.

    Raises:
        ValueError: No off-topic question is refused by the gate while ``p_no_results > 0``.
    """
    from citerag.eval.runner import Evaluator
    from graphs.rag import build_graph

    ev = Evaluator(
        loaded.store,
        embeddings,
        calibration=calibration or {},
        manifest_id=loaded.manifest_id,
        embedding_model=embedding_model,
    )
    answerable = [q for q in questions if not q.unanswerable]
    off_topic = [
        q for q in questions if q.unanswerable and not ev.stages(q.question, config)["gate"].passed
    ]
    near = [q for q in questions if q.unanswerable and q not in off_topic]
    if not off_topic and p_no_results > 0:
        raise ValueError(
            "none of the unanswerable questions is refused by the gate, so there is nothing "
            "to draw 'no results' runs from"
        )

    def factory(chat_model: Any) -> Any:
        return build_graph(ev.deps.with_answerer(chat_model))

    res = run_ladder(
        factory,
        answerable,
        off_topic,
        n=n,
        p_no_results=p_no_results,
        p_error=p_error,
        p_malformed=p_malformed,
        seed=seed,
        config=config.runnable(),
        progress=progress,
    )
    return IndexLadder(res, off_topic, near)
