"""The support check: does the quoted evidence *support* each cited claim?

Validation proves that every ``[n]`` resolves and every quote is verbatim; it cannot see a
claim that cites a real, relevant-looking passage which says something else ("cited" is not
"supported"). With a chat model configured, this module asks an LLM judge, per claim, whether
the claim's quoted span entails it (the ladder article's entailment rung):

* :func:`claims_from` turns a validated answer into claims: each answer sentence with a
  citation, with the verified quotes of the passages it cites (or the passage's own content
  when a marker had no quote);
* :class:`SupportJudge` renders the versioned prompt ``chains/prompts/support_v1.md``, asks
  for a strict JSON verdict per claim, parses it strictly (:func:`parse_verdicts`), retries a
  malformed judgement once with the parse error, and then gives up as **unchecked** — never
  as supported;
* :class:`SupportCheck` is the record the graph's ``support_check`` node writes and the trace
  shows: status ``supported`` / ``unsupported`` / ``unchecked`` / ``skipped`` (with why).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from chains.assemble import Passage
from chains.citations import Validation, answer_sentences
from chains.models import describe_model_error
from chains.prompts import load_prompt
from chains.watchdog import WatchedModel, watched

log = logging.getLogger(__name__)
T = TypeVar("T")

SupportStatus = Literal["supported", "unsupported", "unchecked", "skipped"]
Verdict = Literal["supported", "unsupported"]
VERDICTS: tuple[Verdict, ...] = ("supported", "unsupported")
#: Longest evidence text sent per passage when a marker came without a quote.
MAX_EVIDENCE_CHARS = 1200
_MARKER = re.compile(r"\[(\d+)\]")


@dataclass(frozen=True)
class Claim:
    """One cited sentence of an answer and the evidence it cites.

    Attributes:
        number: 1-based claim number in the judge's prompt.
        text: The sentence without its ``[n]`` markers.
        passages: The passage numbers it cites.
        evidence: The verified quotes of those passages (or their content without a quote).
        sources: The same evidence per cited passage, ``(passage, texts)`` in citation order
            (what a judge needs to weigh each citation on its own: ALCE citation precision).
    """

    number: int
    text: str
    passages: tuple[int, ...]
    evidence: tuple[str, ...]
    sources: tuple[tuple[int, tuple[str, ...]], ...] = ()


def claims_from(validation: Validation, passages: list[Passage]) -> list[Claim]:
    """The cited sentences of a validated answer, each with its evidence.

    A sentence's evidence is every verified quote of each passage it cites (a passage quoted
    twice in the answer gives both quotes to each sentence citing it); a citation without a
    quote gives the passage's own content (at most :data:`MAX_EVIDENCE_CHARS`). Sentences
    without a citation are not claims here (validation already flags them). Sentences are
    split as validation splits them (:func:`chains.citations.answer_sentences`: a marker
    written after a full stop belongs to the sentence before it).

    Args:
        validation: From :func:`chains.citations.validate` (markers reduced to ``[n]``).
        passages: The numbered passages the answer was written from.
    """
    by_num = {p.number: p for p in passages}
    out: list[Claim] = []
    for s, e in answer_sentences(validation.answer):
        sentence = validation.answer[s:e]
        cited = tuple(dict.fromkeys(int(n) for n in _MARKER.findall(sentence)))
        cited = tuple(n for n in cited if n in by_num)
        if not cited:
            continue
        evidence: list[str] = []
        sources: list[tuple[int, tuple[str, ...]]] = []
        for n in cited:
            quotes = [q for q, _, _ in validation.quotes.get(n, [])]
            texts = quotes or [by_num[n].candidate.content[:MAX_EVIDENCE_CHARS]]
            evidence += texts
            sources.append((n, tuple(dict.fromkeys(texts))))
        text = " ".join(_MARKER.sub("", sentence).split())
        text = re.sub(r"\s+([.,;:!?])", r"\1", text)
        out.append(Claim(len(out) + 1, text, cited, tuple(dict.fromkeys(evidence)), tuple(sources)))
    return out


def render_claims(claims: list[Claim]) -> str:
    """The claims block of the judge's prompt."""
    blocks = []
    for c in claims:
        ev = "\n".join(
            f'    evidence from [{", ".join(map(str, c.passages))}]: "{q}"' for q in c.evidence
        )
        blocks.append(f"claim {c.number}: {c.text}\n{ev}")
    return "\n\n".join(blocks)


class JudgementError(ValueError):
    """A judge's reply that is not the strict JSON verdict asked for."""


def parse_verdicts(text: str, n_claims: int) -> dict[int, tuple[Verdict, str]]:
    """Parse a judge's reply strictly.

    The reply must be exactly one JSON object ``{"verdicts": [{"claim": int, "verdict":
    "supported" | "unsupported", "reason": str}, ...]}`` with one entry per claim ``1..n``
    (surrounding whitespace is allowed; prose, code fences or a second object are not).

    Args:
        text: The judge's reply.
        n_claims: How many claims were asked about.

    Returns:
        Claim number -> (verdict, reason).

    Raises:
        JudgementError: Naming what is wrong.
    """
    try:
        data = json.loads(text.strip())
    except ValueError as exc:
        raise JudgementError(f"not a JSON object: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("verdicts"), list):
        raise JudgementError('expected an object with a "verdicts" list')
    out: dict[int, tuple[Verdict, str]] = {}
    for item in data["verdicts"]:
        if not isinstance(item, dict):
            raise JudgementError("each verdict must be an object")
        num, verdict = item.get("claim"), item.get("verdict")
        if isinstance(num, bool) or not isinstance(num, int) or not 1 <= num <= n_claims:
            raise JudgementError(f"claim must be a number from 1 to {n_claims}, not {num!r}")
        if verdict not in VERDICTS:
            raise JudgementError(f"verdict must be supported or unsupported, not {verdict!r}")
        if num in out:
            raise JudgementError(f"claim {num} judged twice")
        reason = item.get("reason", "")
        out[num] = (verdict, str(reason)[:300] if reason is not None else "")
    missing = [n for n in range(1, n_claims + 1) if n not in out]
    if missing:
        raise JudgementError(f"no verdict for claim(s) {missing}")
    return out


@dataclass(frozen=True)
class SupportCheck:
    """What the support check did (the ``support`` section of the trace).

    Attributes:
        status: ``supported`` (every claim), ``unsupported`` (at least one claim),
            ``unchecked`` (the judge gave no usable verdict after a retry: never read as
            supported) or ``skipped``.
        action: What an unsupported claim does: ``no_evidence`` or ``flag``.
        skipped: Why the check did not run (``status == "skipped"``).
        prompt: The judge prompt's id (``support@v1``).
        claims: Per claim: ``claim``, ``text``, ``passages``, ``verdict`` (``supported``,
            ``unsupported`` or ``unchecked``) and ``reason``.
        attempts: Judge calls made.
        errors: Why each failed call failed (exceptions, malformed judgements).
    """

    status: SupportStatus
    action: str = "no_evidence"
    skipped: str = ""
    prompt: str = ""
    claims: tuple[dict[str, Any], ...] = ()
    attempts: int = 0
    errors: tuple[str, ...] = field(default_factory=tuple)

    @property
    def refuses(self) -> bool:
        """Whether the run ends ``no_evidence`` because of this check."""
        return self.status == "unsupported" and self.action == "no_evidence"

    def unsupported(self) -> list[dict[str, Any]]:
        """The claims judged unsupported."""
        return [c for c in self.claims if c["verdict"] == "unsupported"]

    def passage_support(self) -> dict[int, str]:
        """Passage number -> ``supported`` / ``unsupported`` / ``unchecked`` (the worst verdict
        of the claims citing it)."""
        order = {"supported": 0, "unchecked": 1, "unsupported": 2}
        out: dict[int, str] = {}
        for c in self.claims:
            for n in c["passages"]:
                if order[c["verdict"]] >= order.get(out.get(n, "supported"), 0):
                    out[n] = c["verdict"]
        return out

    def reason(self) -> str:
        """The refusal reason (for ``no_evidence``)."""
        bad = self.unsupported()
        parts = "; ".join(
            f'"{c["text"][:120]}"' + (f" ({c['reason']})" if c["reason"] else "") for c in bad[:3]
        )
        return f"the support check found claims the cited passages do not support: {parts}"

    def to_trace(self) -> dict[str, Any]:
        """JSON-friendly record."""
        return {
            "status": self.status,
            "action": self.action,
            "skipped": self.skipped or None,
            "prompt": self.prompt or None,
            "claims": [dict(c) for c in self.claims],
            "attempts": self.attempts,
            "errors": list(self.errors),
        }


def ask_until_parsed(
    model: BaseChatModel | WatchedModel,
    messages: list[BaseMessage],
    parse: Callable[[str], T],
    *,
    max_attempts: int,
    what: str,
    again: str,
) -> tuple[T | None, int, list[str]]:
    """Ask a judge model and parse its reply; a malformed reply is answered with the parse
    error and asked again, up to ``max_attempts`` calls in all.

    A provider error counts as a failed attempt, never a crash: a judge that cannot be
    asked leaves the item unjudged (the caller's ``unchecked`` / ``unjudged``). Every call
    goes through the watchdog (:mod:`chains.watchdog`); an error another call cannot fix (a
    stall past the deadline, a cancel, a refused key) ends the asking at once.

    Args:
        model: The judge: a model behind its watchdog (:class:`chains.watchdog.WatchedModel`,
            the run's deadline, retries and cancel), or any LangChain chat model (then behind
            the watchdog with the default settings).
        messages: The request.
        parse: Turns the reply's text into the result; raises :class:`JudgementError`.
        max_attempts: Calls at most.
        what: The judge's name in log lines.
        again: What the follow-up asks for ("one verdict per claim").

    Returns:
        ``(result or None, attempts made, errors)``.
    """
    errors: list[str] = []
    judge = watched(model)
    for attempt in range(1, max_attempts + 1):
        try:
            text = judge.text(messages)
        except Exception as exc:  # a provider error is a failed judgement, not a crash
            errors.append(f"{type(exc).__name__}: {exc}")
            log.warning("%s call %d failed: %s", what, attempt, errors[-1])
            if describe_model_error(exc).final:
                return None, attempt, errors
            continue
        try:
            return parse(text), attempt, errors
        except JudgementError as exc:
            errors.append(f"malformed judgement: {exc}")
            messages = [
                *messages,
                AIMessage(content=text),
                HumanMessage(
                    content=f"That reply was not the JSON object asked for ({exc}). Reply "
                    f"with only the JSON object, {again}."
                ),
            ]
    return None, max_attempts, errors


class SupportJudge:
    """An LLM judge of claim support over quoted spans."""

    def __init__(
        self,
        model: BaseChatModel | WatchedModel,
        prompt_file: str = "support_v1.md",
        max_attempts: int = 2,
    ) -> None:
        """Create the judge.

        Args:
            model: The run's model behind its watchdog, or any LangChain chat model (see
                :func:`ask_until_parsed`).
            prompt_file: The versioned judge prompt in ``chains/prompts``.
            max_attempts: Judge calls before giving up as ``unchecked`` (first + one retry).
        """
        self.model = model
        self.prompt = load_prompt(prompt_file)
        self.max_attempts = max_attempts

    def messages(self, question: str, claims: list[Claim]) -> list[BaseMessage]:
        """The judge's request."""
        return [
            SystemMessage(content=self.prompt.system),
            HumanMessage(
                content=self.prompt.user.format(question=question, claims=render_claims(claims))
            ),
        ]

    def judge(
        self, question: str, claims: list[Claim], action: str = "no_evidence"
    ) -> SupportCheck:
        """Judge every claim; retry a malformed judgement once, then report ``unchecked``.

        Args:
            question: The user's question.
            claims: From :func:`claims_from`.
            action: ``no_evidence`` or ``flag`` (recorded; the router acts on it).
        """
        pid = self.prompt.id
        if not claims:
            return SupportCheck(
                "skipped", action=action, skipped="the answer has no cited claim", prompt=pid
            )
        verdicts, attempt, errors = ask_until_parsed(
            self.model,
            self.messages(question, claims),
            lambda text: parse_verdicts(text, len(claims)),
            max_attempts=self.max_attempts,
            what="support judge",
            again="one verdict per claim",
        )
        if verdicts is not None:
            rows = tuple(
                {
                    "claim": c.number,
                    "text": c.text,
                    "passages": list(c.passages),
                    "verdict": verdicts[c.number][0],
                    "reason": verdicts[c.number][1],
                }
                for c in claims
            )
            bad = any(r["verdict"] == "unsupported" for r in rows)
            return SupportCheck(
                "unsupported" if bad else "supported",
                claims=rows,
                attempts=attempt,
                errors=tuple(errors),
                action=action,
                prompt=pid,
            )
        rows = tuple(
            {
                "claim": c.number,
                "text": c.text,
                "passages": list(c.passages),
                "verdict": "unchecked",
                "reason": "",
            }
            for c in claims
        )
        return SupportCheck(
            "unchecked",
            claims=rows,
            attempts=self.max_attempts,
            errors=tuple(errors),
            action=action,
            prompt=pid,
        )


def _text(content: Any) -> str:
    if isinstance(content, list):  # content blocks
        return "".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content)
    return str(content)
