"""Calibrate the gate: sweep its threshold over answerable vs unanswerable questions.

The gate compares one number per question with a threshold: the best candidate's ``rerank``
score (the second stage's score, e.g. ``sentence-maxsim``) or its ``dense`` cosine. The
decision is taken on the **full graph's outcome**: the scores come from the compiled graph's
``stop_after="assemble"`` prefix, and every question is also run through the full compiled
graph (:func:`graphs.rag.build_graph`, the extractive answerer or the configured model) with
the gate open. A question the answerer does not answer even then is refused whatever the
threshold: an unanswerable one is never a bluff the gate must catch, an answerable one is
never kept. For each threshold ``t`` the sweep counts:

* **answerable kept** — answerable questions whose best score is ``>= t`` and that the
  answerer answers (with the gate open);
* **answerable lost** — the others (a "no evidence" reply to a question the corpus answers);
* **bluffs** — unanswerable questions whose best score is ``>= t`` and that the answerer
  answers: the graph would reply to a question the corpus does not answer;
* **kept with evidence** — answerable, kept, and a chunk that hits the evidence is among the
  first ``max_passages`` candidates and itself scores ``>= t``.

Whether the result may be written (sample size, the threshold's interval, the comparison with
the current thresholds) is :mod:`citerag.eval.calibration_policy`.

Negatives come in two kinds and are reported separately: the question file's own
``unanswerable`` questions (for SQuAD 2.0, adversarial near-misses written against the very
paragraph that looks relevant) and **out-of-domain** questions (``--ood``: questions about
something the corpus does not cover at all, the chunking article's out-of-domain refusal set).

Selection rules (:class:`Rule`):

* ``max-bluff`` (default ``0.10``): keep the most answerable questions subject to a bluff
  rate ``<=`` the limit on the bluff set — i.e. the lowest threshold meeting the limit;
* ``min-kept``: the highest threshold that still keeps at least the given share of
  answerable questions.

The chosen threshold is rounded *up* to 0.001 (never raising the bluff rate); ``citerag
calibrate --write`` writes it to ``INDEX/calibration.json`` in the shape of
``chains/gate_defaults.json`` with its provenance; the per-index file overrides the packaged
defaults (see ``graphs.config.RAGConfig``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from chains.gate import AnswerabilityModel, fit_answerability
from citerag.eval import metrics as stats
from citerag.eval.questions import Question
from citerag.eval.runner import ConfigRun, EvalConfig, Evaluator, QuestionResult, generate_answers

GRID_STEP = 0.001
#: The request threshold that opens the gate (every candidate with a score passes).
OPEN_GATE = -1e9


@dataclass(frozen=True)
class Rule:
    """How a threshold is chosen.

    Attributes:
        kind: ``max-bluff`` or ``min-kept``.
        value: The bluff-rate limit or the kept share required.
    """

    kind: str = "max-bluff"
    value: float = 0.10

    def __post_init__(self) -> None:
        if self.kind not in ("max-bluff", "min-kept"):
            raise ValueError(f"unknown rule {self.kind!r}: use max-bluff or min-kept")
        if not 0.0 <= self.value <= 1.0:
            raise ValueError("the rule's value is a share between 0 and 1")

    def describe(self, bluff_set: str) -> str:
        """Human statement of the rule."""
        if self.kind == "max-bluff":
            return (
                f"keep the most answerable questions with a bluff rate <= "
                f"{self.value:.0%} on the {bluff_set} set"
            )
        return (
            f"refuse as many {bluff_set} questions as possible while keeping >= "
            f"{self.value:.0%} of answerable questions"
        )


@dataclass
class ScoreScores:
    """Per-question scores for one gate score.

    Attributes:
        score: ``rerank`` or ``dense``.
        key: Calibration key (reranker name such as ``sentence-maxsim``, or ``dense``).
        positives: Best score of each answerable question.
        evidence: Score of the best evidence hit in the context window (or ``None``).
        negatives: Bluff sets by name -> best score of each question.
    """

    score: str
    key: str
    positives: list[float]
    evidence: list[float | None]
    negatives: dict[str, list[float]] = field(default_factory=dict)

    def finite(self) -> list[float]:
        """Every score that is not ``-inf`` (a question without candidates, or one the
        answerer refuses whatever the gate does)."""
        allv = [*self.positives, *(v for neg in self.negatives.values() for v in neg)]
        return [v for v in allv if v > -math.inf]


def _v(x: float | None) -> float:
    return -math.inf if x is None else float(x)


def collect(
    answerable: ConfigRun,
    negatives: dict[str, ConfigRun],
    reranker: str,
    answered: Mapping[str, bool] | None = None,
) -> dict[str, ScoreScores]:
    """Gather best scores per gate score from evaluation runs.

    Args:
        answerable: A run whose answerable questions are the positives.
        negatives: Name -> run whose questions are all bluff candidates (its unanswerable
            questions are used; pass out-of-domain questions marked unanswerable).
        reranker: Name of the reranker the ``rerank`` score came from.
        answered: Question id -> whether the full graph answers it with the gate open
            (``None``: decide on the gate alone). A question it does not answer scores
            ``-inf``: refused at every threshold.
    """

    def v(r: QuestionResult, x: float | None) -> float:
        return -math.inf if answered is not None and not answered.get(r.id, False) else _v(x)

    def ev(r: QuestionResult, x: float | None) -> float | None:
        return None if answered is not None and not answered.get(r.id, False) else x

    pos = answerable.answerable
    out = {
        "rerank": ScoreScores(
            "rerank",
            reranker,
            [v(r, r.best_rerank) for r in pos],
            [ev(r, r.hit_rerank) for r in pos],
        ),
        "dense": ScoreScores(
            "dense", "dense", [v(r, r.best_dense) for r in pos], [ev(r, r.hit_dense) for r in pos]
        ),
    }
    for name, run in negatives.items():
        un = run.unanswerable
        out["rerank"].negatives[name] = [v(r, r.best_rerank) for r in un]
        out["dense"].negatives[name] = [v(r, r.best_dense) for r in un]
    return out


def _share_at(values: Sequence[float], t: float) -> tuple[int, int]:
    return sum(1 for v in values if v >= t), len(values)


def sweep_row(s: ScoreScores, t: float) -> dict[str, Any]:
    """Counts at one threshold."""
    kept, n = _share_at(s.positives, t)
    with_ev = sum(
        1
        for p, e in zip(s.positives, s.evidence, strict=True)
        if p >= t and e is not None and e >= t
    )
    row: dict[str, Any] = {
        "threshold": round(t, 6),
        "answerable_kept": stats.Proportion(kept, n),
        "answerable_lost": stats.Proportion(n - kept, n),
        "kept_with_evidence": stats.Proportion(with_ev, n),
    }
    for name, neg in s.negatives.items():
        row[f"bluffs:{name}"] = stats.Proportion(*_share_at(neg, t))
    return row


def choose(s: ScoreScores, rule: Rule, bluff_set: str) -> float:
    """Apply the rule; return the threshold (rounded up to :data:`GRID_STEP`).

    Raises:
        ValueError: If the bluff set is missing or empty, or no threshold keeps enough.
    """
    neg = sorted(s.negatives.get(bluff_set) or [], reverse=True)
    pos = sorted(s.positives, reverse=True)
    if not neg:
        raise ValueError(f"no questions in the bluff set {bluff_set!r}")
    if not pos:
        raise ValueError("no answerable questions to calibrate against")

    finite = s.finite()
    if not finite:
        raise ValueError("no question has a score: nothing to choose a threshold from")

    def above(v: float) -> float:  # smallest grid point strictly above v
        return (math.floor(v / GRID_STEP + 1e-9) + 1) * GRID_STEP

    if rule.kind == "max-bluff":
        allowed = math.floor(rule.value * len(neg) + 1e-9)  # bluffs permitted
        if allowed >= len(neg) or neg[allowed] == -math.inf:
            # the limit holds at any threshold: keep everything that has a score
            t = math.floor(min(finite) / GRID_STEP) * GRID_STEP
        else:
            t = above(neg[allowed])  # the (allowed+1)-th highest negative is refused
        return round(t, 6)
    need = math.ceil(rule.value * len(pos) - 1e-9)  # answerable questions to keep
    if need <= 0:
        return round(above(max(finite)), 6)
    v = pos[need - 1]  # keep everything scoring >= the need-th best positive
    if v == -math.inf:
        refused = sum(1 for p in pos if p == -math.inf)
        raise ValueError(
            f"no threshold keeps {rule.value:.0%} of the answerable questions: {refused} of "
            f"{len(pos)} are refused whatever the gate does (no candidates, or the answerer "
            "does not answer them)"
        )
    return round(math.floor(v / GRID_STEP + 1e-9) * GRID_STEP, 6)


def grid(lo: float, hi: float, step: float = 0.05) -> list[float]:
    """Round thresholds from ``lo`` to ``hi`` (inclusive)."""
    start = math.floor(lo / step) * step
    out = []
    t = start
    while t <= hi + 1e-9:
        out.append(round(t, 6))
        t += step
    return out


@dataclass
class Calibration:
    """The outcome for one gate score.

    Attributes:
        scores: The per-question scores.
        rule: The rule.
        bluff_set: Which negative set the rule applies to.
        threshold: The chosen threshold.
        chosen: Counts at the chosen threshold.
        table: Counts over a grid of thresholds (plus the chosen one).
        auc: ROC AUC (answerable vs each negative set).
    """

    scores: ScoreScores
    rule: Rule
    bluff_set: str
    threshold: float
    chosen: dict[str, Any]
    table: list[dict[str, Any]]
    auc: dict[str, float]

    def entry(self, data: dict[str, Any], config: dict[str, Any]) -> dict[str, Any]:
        """The ``calibration.json`` entry for this score."""
        c = self.chosen
        return {
            "threshold": self.threshold,
            "score": self.scores.score,
            "rule": self.rule.describe(self.bluff_set),
            "data": data,
            "n": {
                "answerable": c["answerable_kept"].n,
                **{k.split(":", 1)[1]: v.n for k, v in c.items() if k.startswith("bluffs:")},
            },
            "answerable_kept": round(c["answerable_kept"].value, 4),
            "bluff_rates": {
                k.split(":", 1)[1]: round(v.value, 4)
                for k, v in c.items()
                if k.startswith("bluffs:")
            },
            "auc": {k: round(v, 4) for k, v in self.auc.items()},
            "config": config,
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "written_by": "citerag calibrate",
        }


def calibrate(s: ScoreScores, rule: Rule, bluff_set: str, step: float = 0.05) -> Calibration:
    """Choose a threshold for one score and tabulate the sweep."""
    t = choose(s, rule, bluff_set)
    allv = s.finite()
    lo = min(allv) if allv else 0.0
    hi = max(allv) if allv else 1.0
    ts = sorted({*grid(lo, hi, step), t})
    return Calibration(
        scores=s,
        rule=rule,
        bluff_set=bluff_set,
        threshold=t,
        chosen=sweep_row(s, t),
        table=[sweep_row(s, x) for x in ts],
        auc={name: stats.roc_auc(s.positives, neg) for name, neg in s.negatives.items()},
    )


@dataclass
class CalibrationRun:
    """A whole calibration: the runs it used and one :class:`Calibration` per gate score.

    Attributes:
        run: The question file's run (its answerable questions are the positives).
        negatives: Bluff-set name (``unanswerable``, ``out-of-domain``) -> run.
        bluff_set: The set the rule applies to.
        rule: The rule.
        reranker: Name of the second stage whose scores the ``rerank`` gate compares.
        calibrations: One per gate score: ``rerank`` first, then ``dense``, then
            ``answerability`` when the model was fitted.
        model: The fitted answerability model (its threshold chosen by the rule).
        outcomes: Question id -> the full graph's status with the gate open (``answered``,
            ``no_evidence``, ``failed``); empty when decided on the gate alone.
        generator: The answerer that produced the outcomes (``extractive`` or a model).
    """

    run: ConfigRun
    negatives: dict[str, ConfigRun]
    bluff_set: str
    rule: Rule
    reranker: str
    calibrations: list[Calibration]
    model: AnswerabilityModel | None = None
    outcomes: dict[str, str] = field(default_factory=dict)
    generator: str = ""

    def refused_anyway(self) -> dict[str, list[str]]:
        """Questions the answerer does not answer even with the gate open, by class."""
        out: dict[str, list[str]] = {"answerable": [], "unanswerable": []}
        for r in [*self.run.results, *(x for n in self.negatives.values() for x in n.results)]:
            st = self.outcomes.get(r.id)
            if st is not None and st != "answered":
                kind = "unanswerable" if r.unanswerable else "answerable"
                if r.id not in out[kind]:
                    out[kind].append(r.id)
        return out

    def for_score(self, score: str) -> Calibration:
        """The calibration of one gate score (``rerank`` or ``dense``).

        Raises:
            KeyError: No calibration for that score.
        """
        for c in self.calibrations:
            if c.scores.score == score:
                return c
        raise KeyError(f"no calibration for gate score {score!r}: use rerank or dense")

    def entries(self, data: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """``calibration.json`` entries keyed by reranker name / ``dense``."""
        conf = self.run.config.conf
        decided = (
            f"the full graph's outcome ({self.generator} answerer, gate open)"
            if self.outcomes
            else "the gate's score alone"
        )
        out = {
            c.scores.key: {**c.entry(data, conf), "decided_on": decided} for c in self.calibrations
        }
        if self.model is not None and "answerability" in out:
            out["answerability"] = {**self.model.to_dict(), **out["answerability"]}
        return out


def run_calibration(
    evaluator: Evaluator,
    questions: Sequence[Question],
    config: EvalConfig,
    *,
    ood: Sequence[Question] = (),
    rule: Rule | None = None,
    bluff_set: str = "auto",
    progress: bool = True,
    answerability: bool = True,
    answer_graph: Any = None,
    on_outcome: bool = True,
) -> CalibrationRun:
    """Run the questions (and out-of-domain ones) and calibrate both gate scores.

    The scores come from the evaluator (the compiled graph's ``stop_after="assemble"``
    prefix); with ``on_outcome`` every question also runs through the full compiled graph
    with the gate open, and a question the answerer does not answer then is refused at every
    threshold (never a bluff, never kept).

    Args:
        evaluator: A :class:`~citerag.eval.runner.Evaluator` over the index.
        questions: Answerable questions, optionally with ``unanswerable`` ones.
        config: The :class:`~citerag.eval.runner.EvalConfig` the gate belongs to.
        ood: Out-of-domain questions (see :func:`citerag.eval.adapters.out_of_domain`).
        rule: Selection rule (default: bluff rate <= 10 %).
        bluff_set: ``unanswerable``, ``out-of-domain`` (or ``ood``), or ``auto``
            (out-of-domain when given, else unanswerable).
        progress: Progress bars.
        answerability: Also fit the answerability model (a logistic model over every
            candidate signal, :mod:`chains.gate`) and choose its threshold by the rule.
        answer_graph: The full compiled graph for the outcomes (default:
            ``build_graph(evaluator.deps)``: the extractive answerer, or the configuration's
            ``model``).
        on_outcome: Decide on the full graph's outcome (default) rather than the gate alone.

    Returns:
        The runs and one :class:`Calibration` per gate score; nothing is written (see
        :meth:`CalibrationRun.entries` and :func:`citerag.stores.calibration.write_calibration`).

    Raises:
        ValueError: No answerable questions, no negatives, or an empty bluff set.
    """
    rule = rule or Rule()
    run = evaluator.run(list(questions), config, progress=progress)
    if not run.answerable:
        raise ValueError("no answerable questions to calibrate with")
    negatives: dict[str, ConfigRun] = {}
    if run.unanswerable:
        negatives["unanswerable"] = run
    if ood:
        negatives["out-of-domain"] = evaluator.run(list(ood), config, progress=progress)
    if not negatives:
        raise ValueError(
            'no unanswerable questions: mark some "unanswerable": true or '
            "pass out-of-domain questions (--ood FILE)"
        )
    if bluff_set == "auto":
        bluff_set = "out-of-domain" if "out-of-domain" in negatives else "unanswerable"
    if bluff_set == "ood":
        bluff_set = "out-of-domain"
    if bluff_set not in negatives:
        raise ValueError(f"bluff set {bluff_set!r} is empty")
    reranker = evaluator.deps.reranker(config.conf.get("reranker", "sentence")).name
    outcomes: dict[str, str] = {}
    generator = ""
    if on_outcome:
        outcomes, generator = open_gate_outcomes(
            evaluator,
            [*questions, *ood],
            config,
            answer_graph=answer_graph,
            progress=progress,
        )
    answered = {k: v == "answered" for k, v in outcomes.items()} if on_outcome else None
    scores = collect(run, negatives, reranker, answered)
    cals = [calibrate(scores[s], rule, bluff_set) for s in ("rerank", "dense")]
    model = None
    if answerability:
        fitted = fit_gate_model(run, negatives, bluff_set, answered)
        if fitted is not None:
            model, ascores = fitted
            cal = calibrate(ascores, rule, bluff_set, step=0.1)
            model = replace(model, threshold=cal.threshold)
            cals.append(cal)
    return CalibrationRun(
        run, negatives, bluff_set, rule, reranker, cals, model, outcomes, generator
    )


def gate_open(config: EvalConfig) -> EvalConfig:
    """The configuration with the gate open (:data:`OPEN_GATE` as the request threshold)."""
    return EvalConfig(
        f"{config.name}+gate-open",
        tuple(sorted({**config.conf, "gate_threshold": OPEN_GATE}.items())),
    )


def full_graph_statuses(
    graph: Any,
    questions: Sequence[Question],
    config: EvalConfig,
    *,
    user_groups: Sequence[str] = (),
    progress: bool = True,
) -> tuple[list[str], str]:
    """Run every question through the full compiled graph; return each status and the
    answerer's name (``generator`` of the first result that names one)."""
    gens = generate_answers(
        graph, questions, config, user_groups=list(user_groups), progress=progress
    )
    generator = next((str(g.result["generator"]) for g in gens if g.result.get("generator")), "")
    return [g.status for g in gens], generator


def open_gate_outcomes(
    evaluator: Evaluator,
    questions: Sequence[Question],
    config: EvalConfig,
    *,
    answer_graph: Any = None,
    progress: bool = True,
) -> tuple[dict[str, str], str]:
    """Question id -> the full graph's status with the gate open, and the answerer's name.

    Args:
        evaluator: Supplies the graph's dependencies and the user groups.
        questions: The questions (ids unique).
        config: The configuration calibrated (its gate is opened).
        answer_graph: The full compiled graph (default ``build_graph(evaluator.deps)``).
        progress: Progress bar.
    """
    if answer_graph is None:
        from graphs.rag import build_graph

        answer_graph = build_graph(evaluator.deps)
    statuses, generator = full_graph_statuses(
        answer_graph,
        questions,
        gate_open(config),
        user_groups=evaluator.user_groups,
        progress=progress,
    )
    return {q.id: st for q, st in zip(questions, statuses, strict=True)}, generator


def fit_gate_model(
    run: ConfigRun,
    negatives: dict[str, ConfigRun],
    bluff_set: str,
    answered: Mapping[str, bool] | None = None,
) -> tuple[AnswerabilityModel, ScoreScores] | None:
    """Fit the answerability model on the first candidate's signals of the answerable
    questions (positives) and of the bluff set's questions (negatives).

    Args:
        run: The run whose answerable questions are the positives.
        negatives: Every negative set by name (each gets its probabilities, so the
            threshold can be chosen against any of them).
        bluff_set: The set the model is fitted against.
        answered: As in :func:`collect`: questions the full graph does not answer with the
            gate open get probability ``-inf`` (refused at every threshold).

    Returns:
        The model (threshold 0.5 until a rule chooses one) and its per-question
        probabilities as :class:`ScoreScores`; ``None`` when a class has no candidates.
    """
    pos = [r.top_signals for r in run.answerable if r.top_signals]
    neg = [r.top_signals for r in negatives[bluff_set].unanswerable if r.top_signals]
    if not pos or not neg:
        return None
    model = fit_answerability(pos, neg)

    def prob(r: QuestionResult) -> float:
        if r.top_signals is None or (answered is not None and not answered.get(r.id, False)):
            return -math.inf
        return model.probability(r.top_signals)

    scores = ScoreScores(
        "answerability",
        "answerability",
        [prob(r) for r in run.answerable],
        [prob(r) if r.in_context and prob(r) > -math.inf else None for r in run.answerable],
        {name: [prob(r) for r in nr.unanswerable] for name, nr in negatives.items()},
    )
    return model, scores


def format_table(cal: Calibration, markdown: bool = True) -> str:
    """The sweep as a table (the chosen threshold marked with ``◀``)."""
    from citerag.eval.report import table

    negs = list(cal.scores.negatives)
    headers = [
        "threshold",
        "answerable kept",
        "answerable lost",
        "kept with evidence",
        *[f"bluffs ({n})" for n in negs],
    ]
    rows = []
    for row in cal.table:
        mark = " ◀" if abs(row["threshold"] - cal.threshold) < 1e-9 else ""
        rows.append(
            [
                f"{row['threshold']:.3f}{mark}",
                _count(row["answerable_kept"]),
                _count(row["answerable_lost"]),
                _count(row["kept_with_evidence"]),
                *[_count(row[f"bluffs:{n}"]) for n in negs],
            ]
        )
    return table(headers, rows, markdown=markdown)


def _count(p: stats.Proportion) -> str:
    return f"{p.k}/{p.n} ({p.value:.1%})"


def evaluate_threshold(s: ScoreScores, t: float) -> dict[str, Any]:
    """JSON figures at a given threshold (for transfer checks on another data set)."""
    row = sweep_row(s, t)
    return {k: (v.to_json() if isinstance(v, stats.Proportion) else v) for k, v in row.items()}
