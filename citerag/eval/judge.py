"""Answers judged by an LLM: ``citerag eval --judge MODEL``.

Validation proves that citations resolve and quotes are verbatim; the support check
(:mod:`chains.support`) can refuse an unsupported claim at answer time. This module *measures*
the answers of a generation run, the way the seeds' evaluation chapter asks (faithfulness,
answer relevance, correctness; ALCE citation recall and precision, Gao et al., 2023):

* **Claims** are those of :func:`chains.support.claims_from`: each answer sentence with its
  ``[n]`` citations and the verified quotes of each cited passage (its content when a marker
  came without a quote). Sentences without a citation (``Validation.uncited_sentences``) are
  statements too, as in ALCE, and count as unsupported without asking the judge.
* **Faithfulness = ALCE citation recall**: the share of statements whose cited evidence,
  concatenated, supports them (the judge's ``verdict`` per claim).
* **Citation precision (ALCE)**: a citation is *imprecise* ("irrelevant" in ALCE) when its
  passage alone does not support the claim AND the claim's other citations still support it
  without it; every other citation of a supported claim is precise, and the citations of an
  unsupported claim are not precise (ALCE credits precision only when the citations together
  support the claim). A claim with one citation: that citation is precise exactly when the
  claim is supported. Precision = precise citations / citations. The judge gives, for a
  claim citing two or more passages, ``alone`` and ``without`` per citation.
* **Answer relevance**: ``yes`` / ``partial`` / ``no`` (scores 1, 0.5, 0).
* **Correctness** where the question file has gold answers (FinanceBench ``answer``, SQuAD
  ``answers``; :func:`gold_answers`): ``correct`` / ``incorrect`` for an answered question, and
  ``not_answered`` (not correct) when the graph refused or failed. For an **unanswerable**
  question the gold outcome is a refusal: ``refused`` when the graph said "no evidence".

The judge is asked once per *answered* question with the versioned prompt
``chains/prompts/judge_v1.md``; its reply must be one strict JSON object (parsed with
:func:`chains.support.parse_verdicts` plus the fields above). A malformed reply is retried
once with the parse error; then the question is ``unjudged``: reported, and counted in every
denominator but never as supported, precise, relevant or correct. Questions that were not
answered cost no judge call (their correctness and refusal need none).
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from tqdm.auto import tqdm

from chains.models import ModelSettings, build_chat_model, check_model_spec
from chains.prompts import load_prompt
from chains.support import (
    Claim,
    JudgementError,
    Verdict,
    ask_until_parsed,
    claims_from,
    parse_verdicts,
)
from citerag.eval import metrics as stats
from citerag.eval.evidence import IndexedCorpus
from citerag.eval.questions import Question
from citerag.eval.runner import EvalConfig, Generation, generate_answers, generation_figures

log = logging.getLogger(__name__)

Relevance = Literal["yes", "partial", "no"]
RELEVANCE: tuple[Relevance, ...] = ("yes", "partial", "no")
RELEVANCE_SCORE: dict[str, float] = {"yes": 1.0, "partial": 0.5, "no": 0.0}
CORRECTNESS = ("correct", "incorrect")
#: The per-question scores compared between two answerer configurations.
PAIRED_METRICS = ("faithfulness", "citation_precision", "relevance", "correctness", "refusal")


def judge_model(spec: str | BaseChatModel, settings: ModelSettings | None = None) -> BaseChatModel:
    """The judge's chat model (temperature 0 unless ``settings`` say otherwise) from a spec
    such as ``openai:gpt-4.1-mini``, built by :func:`chains.models.build_chat_model` (endpoint,
    key variable, timeout, retries). A chat model instance is returned as it is (tests inject
    a scripted judge this way).

    Args:
        spec: A ``provider:model`` string or a chat model.
        settings: The judge's :class:`~chains.models.ModelSettings`.

    Raises:
        ModelSetupError: Not a model spec, or a provider ``init_chat_model`` does not know
            (checked as the chat model's spec is, :func:`chains.models.check_model_spec`); the
            provider's package or key is missing (the message says which).
    """
    if isinstance(spec, str):
        check_model_spec(spec)
    return build_chat_model(spec, settings, temperature=0.0)


def gold_answers(question: Question) -> list[str]:
    """The gold answers in a question's metadata (``answer``: text or list; ``answers``: list).

    FinanceBench questions carry ``answer``, SQuAD's answerable ones ``answers`` (any one is
    right); SQuAD's ``plausible_answers`` of unanswerable questions are not gold.
    """
    out: list[str] = []
    for key in ("answer", "answers"):
        value = question.meta.get(key)
        values = value if isinstance(value, list) else [value]
        out += [str(v).strip() for v in values if v is not None and str(v).strip()]
    return list(dict.fromkeys(out))


# ------------------------------------------------------------------------------------------
# the judge's request and reply
# ------------------------------------------------------------------------------------------


def render_claims(claims: Sequence[Claim]) -> str:
    """The claims block of the judge's prompt: each claim with its evidence per passage."""
    if not claims:
        return "(none: no sentence of the answer cites a passage)"
    blocks = []
    for c in claims:
        cites = ", ".join(f"[{n}]" for n in c.passages)
        lines = [f"claim {c.number}: {c.text}", f"    cites {cites}"]
        lines += [f'    [{n}] "{t}"' for n, texts in c.sources for t in texts]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def render_gold(gold: Sequence[str]) -> str:
    """The gold-answer block: ``(none)``, the answer, or a list of acceptable answers."""
    if not gold:
        return "(none)"
    if len(gold) == 1:
        return gold[0]
    return "any of:\n" + "\n".join(f"- {g}" for g in gold)


@dataclass(frozen=True)
class Reply:
    """A parsed judge reply.

    Attributes:
        verdicts: Claim number -> (``supported`` / ``unsupported``, reason).
        citations: Claim number -> passage -> (``alone``, ``without``) verdicts, for the
            claims citing two or more passages.
        relevance: ``yes``, ``partial`` or ``no``.
        correctness: ``correct`` / ``incorrect`` (``None`` without a gold answer).
    """

    verdicts: dict[int, tuple[Verdict, str]]
    citations: dict[int, dict[int, tuple[str, str]]]
    relevance: str
    correctness: str | None


def parse_reply(text: str, claims: Sequence[Claim], has_gold: bool) -> Reply:
    """Parse a judge's reply strictly (the format of ``chains/prompts/judge_v1.md``).

    One JSON object: ``verdicts`` as :func:`chains.support.parse_verdicts` reads them (one per
    claim), each claim citing two or more passages with ``citations`` (one entry per cited
    passage: ``passage``, ``alone``, ``without``, each ``supported`` / ``unsupported``),
    ``relevance`` and, with a gold answer, ``correctness``. ``citations`` of a one-citation
    claim and ``correctness`` without a gold answer are ignored.

    Raises:
        JudgementError: Naming what is wrong.
    """
    verdicts = parse_verdicts(text, len(claims))
    data = json.loads(text.strip())  # parse_verdicts proved it is one JSON object
    relevance = data.get("relevance")
    if relevance not in RELEVANCE:
        raise JudgementError(f"relevance must be yes, partial or no, not {relevance!r}")
    correctness = data.get("correctness")
    if not has_gold:
        correctness = None
    elif correctness not in CORRECTNESS:
        raise JudgementError(f"correctness must be correct or incorrect, not {correctness!r}")
    items = {item["claim"]: item for item in data["verdicts"]}
    citations: dict[int, dict[int, tuple[str, str]]] = {}
    for c in claims:
        if len(c.passages) < 2:
            continue
        raw = items[c.number].get("citations")
        if not isinstance(raw, list):
            raise JudgementError(
                f'claim {c.number} cites {len(c.passages)} passages: give a "citations" list'
            )
        per: dict[int, tuple[str, str]] = {}
        for cite in raw:
            if not isinstance(cite, dict):
                raise JudgementError(f"claim {c.number}: each citation must be an object")
            n = cite.get("passage")
            if isinstance(n, bool) or n not in c.passages:
                raise JudgementError(
                    f"claim {c.number}: passage must be one of {list(c.passages)}, not {n!r}"
                )
            if n in per:
                raise JudgementError(f"claim {c.number}: passage {n} judged twice")
            alone, without = cite.get("alone"), cite.get("without")
            for name, value in (("alone", alone), ("without", without)):
                if value not in ("supported", "unsupported"):
                    raise JudgementError(
                        f"claim {c.number} passage {n}: {name} must be supported or "
                        f"unsupported, not {value!r}"
                    )
            per[n] = (str(alone), str(without))
        missing = [n for n in c.passages if n not in per]
        if missing:
            raise JudgementError(f"claim {c.number}: no citation verdict for passage(s) {missing}")
        citations[c.number] = per
    return Reply(verdicts, citations, str(relevance), correctness)


# ------------------------------------------------------------------------------------------
# per-question judgements
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CitationJudgement:
    """One citation of one claim.

    Attributes:
        passage: The cited passage number.
        alone: Whether the passage alone supports the claim (multi-citation claims).
        without: Whether the claim's other citations support it without this one.
        precise: ALCE precision (``None``: unjudged).
    """

    passage: int
    alone: str | None
    without: str | None
    precise: bool | None


@dataclass(frozen=True)
class ClaimJudgement:
    """One statement of an answer and what the judge found.

    Attributes:
        claim: Claim number (0 for an uncited sentence, which is not sent to the judge).
        text: The sentence without its markers.
        passages: Cited passage numbers.
        verdict: ``supported``, ``unsupported``, ``uncited`` (no citation: unsupported) or
            ``unjudged``.
        reason: The judge's reason.
        citations: Per cited passage.
    """

    claim: int
    text: str
    passages: tuple[int, ...]
    verdict: str
    reason: str = ""
    citations: tuple[CitationJudgement, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """JSON-friendly record."""
        return {
            "claim": self.claim,
            "text": self.text,
            "passages": list(self.passages),
            "verdict": self.verdict,
            "reason": self.reason,
            "citations": [c.__dict__ for c in self.citations],
        }


def _precision(
    claim: Claim, verdict: str, per: dict[int, tuple[str, str]]
) -> list[CitationJudgement]:
    """ALCE citation precision of one judged claim's citations (module docstring)."""
    out = []
    for n in claim.passages:
        alone, without = per.get(n, (None, None))
        if verdict != "supported":
            precise = False
        elif len(claim.passages) == 1:
            precise = True
        else:
            precise = alone == "supported" or without == "unsupported"
        out.append(CitationJudgement(n, alone, without, precise))
    return out


@dataclass
class AnswerJudgement:
    """What the judge found for one question's answer (the ``judge`` field of a per-question
    record).

    Attributes:
        id: Question id.
        unanswerable: Whether the question is unanswerable.
        status: The graph's status (``answered``, ``no_evidence``, ``failed``).
        judged: ``judged``, ``unjudged`` (no usable reply after a retry) or ``not_answered``
            (no judge call).
        claims: Every statement: the cited claims, then the uncited sentences.
        relevance: ``yes`` / ``partial`` / ``no`` / ``unjudged`` (``None``: not answered).
        correctness: ``correct`` / ``incorrect`` / ``not_answered`` / ``unjudged``
            (``None``: no gold answer).
        refusal: For unanswerable questions: ``refused`` (no evidence), ``answered`` or
            ``failed``.
        gold: The gold answers shown to the judge.
        prompt: The judge prompt's id (``judge@v1``).
        attempts: Judge calls made.
        errors: Why each failed call failed.
    """

    id: str
    unanswerable: bool
    status: str
    judged: str
    claims: list[ClaimJudgement] = field(default_factory=list)
    relevance: str | None = None
    correctness: str | None = None
    refusal: str | None = None
    gold: list[str] = field(default_factory=list)
    prompt: str = ""
    attempts: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def answered(self) -> bool:
        """Whether the graph answered (and the judge was asked)."""
        return self.status == "answered"

    def counts(self) -> Counter[str]:
        """Statements by verdict and citations by precision (``precise``, ``imprecise``,
        ``citation_unjudged``)."""
        out: Counter[str] = Counter(c.verdict for c in self.claims)
        for c in self.claims:
            for cite in c.citations:
                key = {True: "precise", False: "imprecise", None: "citation_unjudged"}
                out[key[cite.precise]] += 1
        return out

    def scores(self) -> dict[str, float | None]:
        """Per-question scores for paired comparisons (``None``: not applicable, or unjudged).

        ``faithfulness``: supported statements / statements; ``citation_precision``: precise
        citations / citations; ``relevance``: 1, 0.5, 0; ``correctness``: 1 correct, 0
        incorrect or not answered; ``refusal``: 1 when an unanswerable question was refused.
        """
        out: dict[str, float | None] = dict.fromkeys(PAIRED_METRICS)
        if self.judged == "judged":
            c = self.counts()
            statements = len(self.claims)
            cites = c["precise"] + c["imprecise"]
            out["faithfulness"] = c["supported"] / statements if statements else None
            out["citation_precision"] = c["precise"] / cites if cites else None
            out["relevance"] = RELEVANCE_SCORE.get(self.relevance or "")
        if self.correctness in ("correct", "incorrect", "not_answered"):
            out["correctness"] = 1.0 if self.correctness == "correct" else 0.0
        if self.refusal is not None:
            out["refusal"] = 1.0 if self.refusal == "refused" else 0.0
        return out

    def to_json(self) -> dict[str, Any]:
        """JSON-friendly record."""
        return {
            "judged": self.judged,
            "prompt": self.prompt or None,
            "attempts": self.attempts,
            "errors": list(self.errors),
            "claims": [c.to_json() for c in self.claims],
            "relevance": self.relevance,
            "correctness": self.correctness,
            "refusal": self.refusal,
            "gold": list(self.gold),
            "scores": {k: (None if v is None else round(v, 6)) for k, v in self.scores().items()},
        }


class AnswerJudge:
    """An LLM judge of generated answers (faithfulness, citation precision, relevance,
    correctness)."""

    def __init__(
        self, model: BaseChatModel, prompt_file: str = "judge_v1.md", max_attempts: int = 2
    ) -> None:
        """Create the judge.

        Args:
            model: Any LangChain chat model (see :func:`judge_model`).
            prompt_file: The versioned judge prompt in ``chains/prompts``.
            max_attempts: Judge calls before the question is ``unjudged`` (first + one retry).
        """
        self.model = model
        self.prompt = load_prompt(prompt_file)
        self.max_attempts = max_attempts

    def messages(
        self, question: str, answer: str, claims: Sequence[Claim], gold: Sequence[str]
    ) -> list[BaseMessage]:
        """The judge's request."""
        return [
            SystemMessage(content=self.prompt.system),
            HumanMessage(
                content=self.prompt.user.format(
                    question=question,
                    answer=answer,
                    claims=render_claims(claims),
                    gold=render_gold(gold),
                )
            ),
        ]

    def ask(
        self, question: str, answer: str, claims: Sequence[Claim], gold: Sequence[str]
    ) -> tuple[Reply | None, int, list[str]]:
        """Ask, retrying a malformed reply once with the parse error (as
        :meth:`chains.support.SupportJudge.judge` does).

        Returns:
            ``(reply or None, attempts, errors)``.
        """
        return ask_until_parsed(
            self.model,
            self.messages(question, answer, claims, gold),
            lambda text: parse_reply(text, claims, bool(gold)),
            max_attempts=self.max_attempts,
            what="answer judge",
            again="as the instructions describe it",
        )

    def judge(self, question: Question, answer: Generation) -> AnswerJudgement:
        """Judge one question's run (no call unless the graph answered it)."""
        gold = [] if question.unanswerable else gold_answers(question)
        status = answer.status
        rec = AnswerJudgement(
            id=question.id,
            unanswerable=question.unanswerable,
            status=status,
            judged="not_answered",
            gold=gold,
            prompt=self.prompt.id,
        )
        if question.unanswerable:
            rec.refusal = "refused" if status == "no_evidence" else status
        if status != "answered" or answer.validation is None:
            if gold:
                rec.correctness = "not_answered"
            return rec
        v = answer.validation
        claims = claims_from(v, answer.passages)
        reply, rec.attempts, rec.errors = self.ask(question.question, v.answer, claims, gold)
        uncited = [ClaimJudgement(0, s, (), "uncited") for s in v.uncited_sentences]
        if reply is None:
            rec.judged = "unjudged"
            rec.claims = [
                ClaimJudgement(
                    c.number,
                    c.text,
                    c.passages,
                    "unjudged",
                    citations=tuple(CitationJudgement(n, None, None, None) for n in c.passages),
                )
                for c in claims
            ] + uncited
            rec.relevance = "unjudged"
            rec.correctness = "unjudged" if gold else None
            return rec
        rec.judged = "judged"
        rec.claims = [
            ClaimJudgement(
                c.number,
                c.text,
                c.passages,
                reply.verdicts[c.number][0],
                reply.verdicts[c.number][1],
                tuple(
                    _precision(c, reply.verdicts[c.number][0], reply.citations.get(c.number, {}))
                ),
            )
            for c in claims
        ] + uncited
        rec.relevance = reply.relevance
        rec.correctness = reply.correctness
        return rec


# ------------------------------------------------------------------------------------------
# a judged run, its figures and paired comparisons
# ------------------------------------------------------------------------------------------


@dataclass
class JudgedRun:
    """One answerer configuration's answers and their judgements.

    Attributes:
        name: The configuration's label.
        questions: The questions, in order.
        answers: One :class:`~citerag.eval.runner.Generation` per question.
        judgements: One :class:`AnswerJudgement` per question.
        judge_model: Which judge (its spec or model name).
        judge_prompt: The judge prompt's id (``judge@v1``).
    """

    name: str
    questions: list[Question]
    answers: list[Generation]
    judgements: list[AnswerJudgement]
    judge_model: str = ""
    judge_prompt: str = ""

    def summary_objects(self) -> dict[str, Any]:
        """Aggregate figures, each a :class:`~citerag.eval.metrics.Proportion` (95 % Wilson)
        where it is a rate, plus counts.

        * ``faithfulness``: supported / statements of answered questions (ALCE citation
          recall; uncited and unjudged statements count, never as supported);
        * ``citation_precision``: precise / citations (ALCE; unjudged citations count);
        * ``relevance``: ``yes`` / answered; ``relevance_partial_or_better``;
        * ``correctness``: correct / answerable questions with a gold answer (refused or
          failed ones count as not correct); ``correct_when_answered``: correct / those
          answered;
        * ``refusal``: unanswerable questions refused / unanswerable questions;
        * ``unjudged``: answered questions without a usable judgement / answered.
        """
        js = self.judgements
        answered = [j for j in js if j.answered]
        c: Counter[str] = Counter()
        for j in answered:
            c.update(j.counts())
        statements = sum(len(j.claims) for j in answered)
        cites = c["precise"] + c["imprecise"] + c["citation_unjudged"]
        rel = Counter(j.relevance for j in answered)
        gold = [j for j in js if j.correctness is not None]
        gold_answered = [j for j in gold if j.answered]
        un = [j for j in js if j.unanswerable]
        return {
            "questions": len(js),
            "answered": len(answered),
            "faithfulness": stats.Proportion(c["supported"], statements),
            "statements": {k: c[k] for k in ("supported", "unsupported", "uncited", "unjudged")},
            "citation_precision": stats.Proportion(c["precise"], cites),
            "citations": {
                "precise": c["precise"],
                "imprecise": c["imprecise"],
                "unjudged": c["citation_unjudged"],
            },
            "relevance": stats.Proportion(rel["yes"], len(answered)),
            "relevance_partial_or_better": stats.Proportion(
                rel["yes"] + rel["partial"], len(answered)
            ),
            "relevance_counts": {k: rel[k] for k in (*RELEVANCE, "unjudged")},
            "correctness": stats.Proportion(
                sum(j.correctness == "correct" for j in gold), len(gold)
            ),
            "correct_when_answered": stats.Proportion(
                sum(j.correctness == "correct" for j in gold_answered), len(gold_answered)
            ),
            "correctness_counts": dict(Counter(j.correctness for j in gold)),
            "refusal": stats.Proportion(sum(j.refusal == "refused" for j in un), len(un)),
            "unjudged": stats.Proportion(
                sum(j.judged == "unjudged" for j in answered), len(answered)
            ),
        }

    def summary(self) -> dict[str, Any]:
        """:meth:`summary_objects`, JSON-friendly, with the judge's model and prompt."""
        return {
            "model": self.judge_model,
            "prompt": self.judge_prompt,
            **{
                k: (v.to_json() if isinstance(v, stats.Proportion) else v)
                for k, v in self.summary_objects().items()
            },
        }

    def records(self) -> list[dict[str, Any]]:
        """Per-question records: the run's outcome with the judge's verdicts under ``judge``."""
        return [
            {"config": self.name, **a.record(q), "judge": j.to_json()}
            for q, a, j in zip(self.questions, self.answers, self.judgements, strict=True)
        ]


def judge_run(
    judge: AnswerJudge,
    name: str,
    questions: Sequence[Question],
    answers: Sequence[Generation],
    *,
    judge_name: str = "",
    progress: bool = True,
) -> JudgedRun:
    """Judge every answer of one configuration (a call per answered question).

    Args:
        judge: The judge.
        name: The configuration's label.
        questions: The questions.
        answers: Their runs, in the same order.
        judge_name: How the judge is named in the output (default: its model's name).
        progress: Show a progress bar.
    """
    judgements = [
        judge.judge(q, a)
        for q, a in tqdm(
            list(zip(questions, answers, strict=True)),
            desc=f"judge {name}",
            unit="q",
            disable=not progress,
        )
    ]
    return JudgedRun(
        name,
        list(questions),
        list(answers),
        judgements,
        judge_model=judge_name or describe_model(judge.model),
        judge_prompt=judge.prompt.id,
    )


def describe_model(model: BaseChatModel) -> str:
    """A chat model's name for reports (``model_name`` / ``model``, else its class)."""
    for attr in ("model_name", "model"):
        value = getattr(model, attr, None)
        if isinstance(value, str) and value:
            return value
    return type(model).__name__


def compare_judged(a: JudgedRun, b: JudgedRun) -> dict[str, stats.ScoreComparison]:
    """Paired comparison of two judged runs over the same questions: per metric of
    :data:`PAIRED_METRICS`, A's wins/losses on per-question scores and the exact sign test
    (questions either side has no score for are left out).

    Raises:
        ValueError: If the runs did not answer the same questions.
    """
    ids = [j.id for j in a.judgements]
    if ids != [j.id for j in b.judgements]:
        raise ValueError("the two runs must cover the same questions in the same order")
    sa = [j.scores() for j in a.judgements]
    sb = [j.scores() for j in b.judgements]
    return {
        m: stats.paired_scores([s[m] for s in sa], [s[m] for s in sb], ids) for m in PAIRED_METRICS
    }


# ------------------------------------------------------------------------------------------
# the generation side of ``citerag eval`` (with or without a judge)
# ------------------------------------------------------------------------------------------


@dataclass
class GenerationRun:
    """One answerer configuration run through the full graph (``citerag eval --generate``).

    Attributes:
        config: The configuration.
        answers: One run per question.
        figures: :func:`~citerag.eval.runner.generation_figures` plus ``config``,
            ``generator`` and, when judged, ``judge`` (:meth:`JudgedRun.summary`).
        judged: The judgements (``None`` without ``--judge``).
    """

    config: EvalConfig
    answers: list[Generation]
    figures: dict[str, Any]
    judged: JudgedRun | None = None

    @property
    def name(self) -> str:
        """The configuration's label."""
        return self.config.name

    def records(self, questions: Sequence[Question]) -> list[dict[str, Any]]:
        """Per-question records (``--per-question``), with the verdicts when judged."""
        if self.judged is not None:
            return self.judged.records()
        return [
            {"config": self.name, **a.record(q)}
            for q, a in zip(questions, self.answers, strict=True)
        ]


def run_generations(
    runs: Sequence[tuple[EvalConfig, Any]],
    questions: Sequence[Question],
    *,
    corpus: IndexedCorpus | None = None,
    judge: AnswerJudge | None = None,
    judge_name: str = "",
    user_groups: list[str] | None = None,
    progress: bool = True,
) -> dict[str, GenerationRun]:
    """Answer every question under each configuration, figure it and (with a judge) judge it.

    Args:
        runs: ``(configuration, compiled graph)`` pairs; the CLI gives one graph for all,
            tests a graph per scripted answerer.
        questions: The questions.
        corpus: Index contents (for ``cites_evidence``).
        judge: An :class:`AnswerJudge`, or ``None``.
        judge_name: How the judge is named in the output.
        user_groups: Groups the questions are asked as.
        progress: Show progress bars.

    Returns:
        Configuration name -> its run, in the order given (a repeated name runs once).
    """
    out: dict[str, GenerationRun] = {}
    for cfg, graph in runs:
        if cfg.name in out:
            continue
        answers = generate_answers(
            graph, questions, cfg, user_groups=user_groups, progress=progress
        )
        results = [a.result for a in answers]
        figures = generation_figures(questions, results, corpus)
        figures["config"] = cfg.conf
        figures["generator"] = next(
            (r.get("generator") for r in results if r.get("generator")), None
        )
        judged = None
        if judge is not None:
            judged = judge_run(
                judge, cfg.name, questions, answers, judge_name=judge_name, progress=progress
            )
            figures["judge"] = judged.summary()
        out[cfg.name] = GenerationRun(cfg, answers, figures, judged)
    return out
