"""Graph nodes: plain functions ``node(state, config, *, deps) -> dict`` returning only the
keys they change. Each function's name is its node's name; ``deps`` is bound by
:func:`graphs.rag.build_graph`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import cache
from typing import Annotated, Any, get_args, get_origin, get_type_hints

from langchain_core.documents import Document
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.types import Overwrite

from chains import assemble as assembly
from chains import citations, diversity, followup, non_answers, streaming
from chains import constraints as rules
from chains import expand as expansion
from chains import gate as gating
from chains import support as judging
from chains.answerers import Answerer, ChatModelAnswerer, ExtractiveAnswerer
from chains.assemble import AssembledContext
from chains.directions import Directions, split_directions
from chains.models import describe_model_error
from chains.prompts import load_prompt
from chains.watchdog import WatchedModel
from citerag.core.filters import combine
from graphs.config import RAGConfig
from graphs.deps import GraphDeps
from graphs.records import ConstraintRecord, ModelRequest, RerankRecord, RetrievalRecord
from graphs.state import BLANK_QUESTION, RAGState
from graphs.trace import build_trace

log = logging.getLogger(__name__)

#: Gate notes already logged (an uncalibrated reranker, thresholds calibrated with another
#: embedding model): each is logged once per process.
_WARNED_UNCALIBRATED: set[str] = set()

NO_EVIDENCE_ANSWER = (
    "No evidence: the indexed documents you can access do not contain passages that support "
    "an answer to this question."
)


#: State keys a new turn keeps: the caller's input and the conversation. Every other key a
#: checkpointed thread still holds from its previous turn is cleared by ``condense``.
TURN_INPUT_KEYS = frozenset({"question", "user_groups", "filters", "messages"})


@cache
def _state_hints() -> dict[str, Any]:
    return get_type_hints(RAGState, include_extras=True)


def _turn_resets(state: RAGState) -> dict[str, Any]:
    """Clear what an earlier turn left in a checkpointed thread (nothing on a fresh run).

    Keys with a reducer (``events``, ``timings``, ...) are overwritten with an empty value,
    the others set to ``None``, so every record the trace reads belongs to this turn.
    """
    hints = _state_hints()
    out: dict[str, Any] = {}
    for key in state:
        if key in TURN_INPUT_KEYS or key not in hints:
            continue
        hint = hints[key]
        if get_origin(hint) is Annotated:
            base = get_args(hint)[0]
            out[key] = Overwrite({} if (get_origin(base) or base) is dict else [])
        else:
            out[key] = None
    return out


def _text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return " ".join(
        str(p.get("text", "")) if isinstance(p, dict) else str(p) for p in content
    ).strip()


def conversation_turns(messages: Sequence[BaseMessage]) -> list[followup.Turn]:
    """Earlier turns from the conversation: each user message with the answer after it."""
    turns: list[followup.Turn] = []
    for m in messages:
        if isinstance(m, HumanMessage):
            standalone = m.additional_kwargs.get("standalone_question")
            turns.append(
                followup.Turn(_text(m), standalone if isinstance(standalone, str) else None)
            )
        elif isinstance(m, AIMessage) and turns and turns[-1].answer is None:
            last = turns[-1]
            turns[-1] = followup.Turn(last.question, last.standalone, _text(m))
    return turns


def condense(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """Rewrite a follow-up as a standalone question and open the turn in the conversation.

    With earlier turns in ``messages``: the rewrite chat model (``chains/prompts/
    condense_v1.md``, accepted only if it keeps every name, number and period), else the
    offline rule of :mod:`chains.followup`; ``question`` then holds the standalone question
    (the trace's ``condense`` section has both). Appends the user's ``HumanMessage`` and
    clears what a previous turn of the thread left in the state.

    Raises:
        ValueError: No question: neither ``question`` nor a conversation ending with the
            user's message.
    """
    cfg = RAGConfig.from_runnable_config(config)
    history: list[BaseMessage] = list(state.get("messages") or [])
    question = state.get("question")
    current: BaseMessage | None = None
    if (
        history
        and isinstance(history[-1], HumanMessage)
        and (not question or _text(history[-1]).strip() == str(question).strip())
    ):
        current = history.pop()
        question = question or _text(current)
    if not question or not str(question).strip():
        raise ValueError(
            f"{BLANK_QUESTION}: send 'question', or 'messages' ending with the user's message"
        )
    question = str(question)
    turns = conversation_turns(history)
    failed_rewrite: dict[str, Any] = {}
    if cfg.condense == "off":
        result = followup.Condensed(question, question, "off", len(turns))
    elif not turns:
        result = followup.Condensed(question, question, "first_turn")
    else:
        gaz = deps.gazetteer(state.get("user_groups") or [])
        model = deps.rewrite_model(cfg) if cfg.condense == "auto" else None
        if model is not None:
            try:
                result = followup.condense_with_model(model, question, turns, gaz)
            except Exception as exc:  # final: the run fails with it (see ``generate``)
                failed_rewrite = _rewrite_error(exc, model)
                result = followup.Condensed(
                    question,
                    question,
                    "model_rejected",
                    len(turns),
                    rejected=f"model error: {type(exc).__name__}",
                )
        else:
            result = followup.condense_rule(question, followup.standalone_history(turns, gaz), gaz)
    human = HumanMessage(
        content=question,
        additional_kwargs={"standalone_question": result.standalone},
        **({"id": current.id} if current is not None and current.id else {}),
    )
    out = {
        **_turn_resets(state),
        "question": result.standalone,
        "condense": result,
        "directions": split_directions(result.standalone)
        if cfg.directions
        else Directions(result.standalone, result.standalone),
        "messages": [human],
    }
    for key, value in failed_rewrite.items():  # this turn's own records, not appended
        out[key] = Overwrite(value) if isinstance(out.get(key), Overwrite) else value
    return out


def _rewrite_error(exc: Exception, model: WatchedModel) -> dict[str, Any]:
    """The state update of a follow-up rewrite that met an error no later call can fix: the
    run's ``last_error`` (final), so ``generate`` ends it ``failed`` without asking again."""
    failure = describe_model_error(exc, model.spec, model.settings)
    log.warning("follow-up rewrite failed (%s): %s", failure.kind, failure.reason)
    return {
        "errors": [failure.reason],
        "last_error": failure.reason,
        "last_error_final": True,
        "events": [
            {
                "node": "condense",
                "event": "error",
                "kind": failure.kind,
                "detail": failure.reason,
                "exception": f"{type(exc).__name__}: {str(exc)[:300]}",
            }
        ],
    }


def _ask(state: RAGState) -> str:
    """What the question asks, without its directions to the answerer (the question itself
    when the state has no split)."""
    split = state.get("directions")
    return split.ask if split is not None else state["question"]


def _end_turn(
    state: RAGState, config: RunnableConfig, deps: GraphDeps, out: dict[str, Any]
) -> dict[str, Any]:
    """The terminal nodes' update: the outcome, its trace, the turn's ``AIMessage``.

    Also clears ``user_groups`` and ``filters``: a later turn of a checkpointed thread reads
    with the groups its own call passes (public documents only when it passes none), never
    with an earlier caller's.
    """
    condensed = state.get("condense")
    reply = AIMessage(
        content=out.get("answer") or out.get("reason") or "",
        additional_kwargs={
            "status": out["status"],
            "citations": list(out.get("citations") or []),
            "reason": out.get("reason", ""),
            "standalone_question": condensed.standalone if condensed is not None else None,
        },
    )
    return {
        **out,
        "trace": build_trace(state, config, deps, out),
        "messages": [reply],
        "user_groups": [],
        "filters": None,
    }


def constrain(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """Read the company, period and document type the question names (no model call).

    Exact matches against the readable documents' metadata become a hard filter (ANDed with
    the access filter inside every index by ``retrieve``); ambiguous or partial ones become
    ordering boosts; a constraint no readable document satisfies ends the run
    ``no_evidence`` with a reason naming it. A period filters only documents whose period is
    stated, in a corpus organised by period; a question naming one company and no period
    prefers its most recent documents (see :mod:`chains.constraints`).
    """
    cfg = RAGConfig.from_runnable_config(config)
    if not cfg.constraints:
        return {"constraints": ConstraintRecord(enabled=False)}
    gaz = deps.gazetteer(state.get("user_groups") or [])
    if not gaz.documents or not any(
        d.get(f) for d in gaz.documents for f in ("company", "period", "doc_type")
    ):
        return {"constraints": ConstraintRecord(enabled=True, documents=len(gaz.documents))}
    qc = rules.parse_constraints(state["question"], gaz)
    flt = rules.filter_for(qc)
    parsed = qc.to_dict()
    # a question about a filing: its keyword leg also searches the statements' own wording
    parsed["keyword_terms"] = list(rules.statement_terms(state["question"])) if flt else []
    return {
        "constraints": ConstraintRecord(
            enabled=True,
            documents=len(gaz.documents),
            parsed=parsed,
            filter=flt,
            boosts=tuple((f, tuple(v)) for f, v in rules.boosts_for(qc)),
            refusal=rules.refusal_reason(
                qc,
                companies_indexed=bool(gaz.companies),
                every_document_has_a_company=all(d.get("company") for d in gaz.documents),
            ),
            recency=qc.recency.doc_values if qc.recency is not None else (),
            period_organised=rules.period_organised(gaz.documents),
        )
    }


def retrieve(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """First stage: dense, BM25 or hybrid candidates, filtered inside each index by access,
    the caller's ``filters`` and the question's constraints."""
    cfg = RAGConfig.from_runnable_config(config)
    constraints = state.get("constraints")
    terms = ((constraints.parsed if constraints is not None else None) or {}).get("keyword_terms")
    ask = _ask(state)
    extra = {"keyword_query": " ".join([ask, *terms])} if terms else {}
    res = deps.retriever.retrieve(
        ask,
        **extra,
        mode=cfg.retrieval_mode,  # type: ignore[arg-type]
        k_dense=cfg.k_dense,
        k_bm25=cfg.k_bm25,
        k=cfg.k,
        rrf_k=cfg.rrf_k,
        user_groups=state.get("user_groups") or [],
        metadata_filter=combine(
            state.get("filters"), constraints.filter if constraints is not None else None
        ),
    )
    record = RetrievalRecord(
        mode=cfg.retrieval_mode,
        filter=res.filter,
        k_dense=cfg.k_dense,
        k_bm25=cfg.k_bm25,
        rrf_k=cfg.rrf_k,
        found=len(res.candidates),
        score_types=res.score_types,
        first_stage=tuple(c.key for c in res.candidates),
    )
    return {"candidates": res.candidates, "query_vector": res.query_vector, "retrieval": record}


def rerank(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """Second stage: rescore the shortlist, best first; a page's chunks past ``per_page``
    move after the other pages' (:func:`chains.diversity.diversify_pages`)."""
    cfg = RAGConfig.from_runnable_config(config)
    reranker = deps.reranker(cfg.reranker)
    ranked = reranker.rerank(
        _ask(state), list(state.get("candidates") or []), state.get("query_vector")
    )
    constraints = state.get("constraints")
    if constraints is not None and (constraints.parsed or {}).get("keyword_terms"):
        # a question about a filing, keyword leg in the statements' wording: its order wins
        # a table of a statement the question names ("… shown in the cash flow statement")
        ranked = rules.first_stage_order(ranked, constraints.boosts, naming=(state["question"],))
    elif constraints is not None and constraints.boosts:
        ranked = rules.apply_boosts(ranked, constraints.boosts)
    ranked = diversity.diversify_pages(ranked, cfg.per_page)
    return {
        "candidates": ranked,
        "reranking": RerankRecord(reranker=reranker.name, score_type=reranker.score_type),
    }


def gate(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """Compare the best candidate's named score with the threshold (no model call)."""
    cfg = RAGConfig.from_runnable_config(config)
    reranking = state.get("reranking")
    reranker_name = reranking.reranker if reranking is not None else "none"
    settings = gating.resolve(
        gate_score=cfg.gate_score,
        gate_threshold=cfg.gate_threshold,
        reranker_name=reranker_name,
        calibration=deps.calibration,
        embedding_model=deps.embedding_model or None,
    )
    if settings.note and settings.note not in _WARNED_UNCALIBRATED:
        _WARNED_UNCALIBRATED.add(settings.note)
        log.warning("%s", settings.note)
    return {"gate": gating.decide(state.get("candidates") or [], settings, reranker_name)}


def assemble(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """Keep gated candidates, drop near-duplicates, fit the budget, number, expand each
    passage to its table or section with the budget left (``expand``), render the prompt."""
    cfg = RAGConfig.from_runnable_config(config)
    candidates = state.get("candidates") or []
    kept = state["gate"].cut(candidates)
    if non_answers.asked_message_field(_ask(state)) is not None:
        kept = assembly.with_message_header(kept, candidates)
    ctx = assembly.assemble(
        kept,
        max_passages=cfg.max_passages,
        token_budget=cfg.token_budget,
        dedupe_threshold=cfg.dedupe_threshold,
        mmr_lambda=cfg.mmr_lambda,
    )
    retrieval = state.get("retrieval")
    if cfg.expand != "none" and retrieval is not None:
        flt = retrieval.filter  # neighbours under the same access and constraint filter
        store = deps.store

        def neighbours(doc_id: str, start: int, end: int) -> list[Document]:
            return store.document_chunks(doc_id, start, end, filter=flt)

        ctx = expansion.expand_context(ctx, cfg.expand, cfg.token_budget, neighbours)
    prompt = load_prompt(cfg.prompt_file)
    messages: list[BaseMessage] = [
        SystemMessage(content=prompt.system),
        HumanMessage(
            content=prompt.user.format(
                passages=assembly.render_passages(ctx.passages), question=state["question"]
            )
        ),
    ]
    return {"context": ctx, "model_messages": ModelRequest(tuple(messages))}


def _stream_writer() -> Callable[[Any], None]:
    """LangGraph's ``custom`` stream writer of this run (a no-op outside a graph run)."""
    try:
        from langgraph.config import get_stream_writer

        return get_stream_writer()
    except Exception:  # called outside a runnable context (unit tests of a node)
        return lambda _event: None


def _generation_error(
    exc: Exception, attempt: int, answerer: Answerer | None, cfg: RAGConfig, deps: GraphDeps
) -> dict[str, Any]:
    """The state update of a failed generation attempt: the classified, one-line reason."""
    if isinstance(answerer, ChatModelAnswerer):
        spec, settings = answerer.spec, answerer.settings
    else:
        spec = cfg.model if deps.answerer is None else ""
        settings = cfg.model_settings()
    failure = describe_model_error(exc, spec if ":" in spec else "", settings)
    log.warning("generation attempt %d failed (%s): %s", attempt, failure.kind, failure.reason)
    return {
        "attempts": attempt,
        "errors": [failure.reason],
        "last_error": failure.reason,
        "last_error_final": failure.final,
        "events": [
            {
                "node": "generate",
                "attempt": attempt,
                "event": "error",
                "kind": failure.kind,
                "detail": failure.reason,
                "exception": f"{type(exc).__name__}: {str(exc)[:300]}",
            }
        ],
    }


def generate(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """Call the answerer once; errors and empty output are recorded, not raised.

    A chat model's prose streams to LangGraph's ``custom`` stream as it is written
    (:mod:`chains.streaming`; the ``<summary>`` block is never shown, markers are shown as
    ``[n]`` once complete), and to the ``messages`` stream as the same draft (the model's own
    tokens stay out of it: :class:`chains.streaming.MessagesDraft`); another answerer's prose
    is sent as one piece. A model error is
    classified (:func:`chains.models.describe_model_error`): its one-line reason is the
    recorded error, and an error another attempt cannot fix (timeout, connection, key, rate
    limit, missing package) ends the run without the retry.
    """
    cfg = RAGConfig.from_runnable_config(config)
    attempt = int(state.get("attempts") or 0) + 1
    if attempt == 1 and state.get("last_error_final"):
        # the follow-up rewrite met an error no call can fix (a stall, a cancel, a key)
        event = {"node": "generate", "attempt": attempt, "event": "skipped"}
        return {"attempts": attempt, "events": [event | {"detail": state.get("last_error")}]}
    ctx: AssembledContext = state["context"]
    write = _stream_writer()
    write(streaming.attempt_event(attempt))
    prose = streaming.ProseFilter()
    draft = streaming.MarkerDraft()
    messages_draft = streaming.MessagesDraft(config, attempt)

    def on_token(text: str) -> None:
        shown = draft.feed(prose.feed(text))
        if shown:
            write(streaming.token_event(shown, attempt))
            messages_draft.feed(shown)

    def on_restart(reason: str) -> None:
        """The structured rung fell back to the text prompt: its draft is dropped, held
        text too, and the client told to clear what it showed (the messages stream gets a
        new message: a message already sent cannot be taken back)."""
        nonlocal prose, draft, messages_draft
        prose, draft = streaming.ProseFilter(), streaming.MarkerDraft()
        write(streaming.attempt_event(attempt, restart=reason))
        messages_draft.end()
        messages_draft = streaming.MessagesDraft(config, attempt)

    answerer: Answerer | None = None
    notes: list[str] = []
    try:
        answerer = deps.answerer_for(cfg)
        if isinstance(answerer, ChatModelAnswerer):
            raw = answerer.generate(
                state["question"],
                ctx.passages,
                list(state["model_messages"]),
                on_token=on_token,
                config=config,
                notes=notes,
                on_restart=on_restart,
            )
        else:
            # the extractive answerer checks its quote against what the question asks; an
            # injected answerer gets the whole question, as a chat model does
            asked = _ask(state) if isinstance(answerer, ExtractiveAnswerer) else state["question"]
            raw = answerer.generate(asked, ctx.passages, list(state["model_messages"]))
            on_token(raw or "")
        rest = draft.feed(prose.flush()) + draft.flush()
        if rest:
            write(streaming.token_event(rest, attempt))
            messages_draft.feed(rest)
        messages_draft.end()
    except Exception as exc:  # any provider error is a ladder event
        messages_draft.error(exc)
        return _generation_error(exc, attempt, answerer, cfg, deps)
    if not raw or not raw.strip():
        err = "empty output"
        return {
            "attempts": attempt,
            "errors": [err],
            "last_error": err,
            "last_error_final": False,
            "raw_outputs": [raw or ""],
            "events": [{"node": "generate", "attempt": attempt, "event": "empty"}],
        }
    return {
        "attempts": attempt,
        "raw_outputs": [raw],
        "last_error": None,
        "last_error_final": False,
        "generator": answerer.name,
        "events": [
            {"node": "generate", "attempt": attempt, "event": "ok"}
            | ({"rungs": notes} if notes else {})
        ],
    }


def parse(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """Split prose and the ``<summary>`` block; parse the block strictly."""
    parsed = citations.parse_output(state["raw_outputs"][-1])
    return {
        "parsed": parsed,
        "events": [{"node": "parse", "event": f"block_{parsed.block_status}"}],
    }


def recover_block(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """Regex rung: salvage a malformed block or default a missing one, keeping the prose."""
    parsed = citations.recover_block(state["parsed"])
    return {
        "parsed": parsed,
        "events": [{"node": "recover_block", "event": f"block_{parsed.block_status}"}],
    }


def validate(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """Resolve every [n], verify every quote; drop and flag what is invented."""
    parsed = state["parsed"]
    if citations.says_insufficient(parsed, in_words=state.get("generator") != "extractive"):
        return {
            "validation": None,
            "events": [{"node": "validate", "event": "model_reported_insufficient_evidence"}],
        }
    v = citations.validate(parsed.prose, state["context"].passages)
    event = "ok" if v.ok else "flagged"
    if v.cited and not v.has_text:
        event = "no_answer_text"  # only markers: retried as empty output is
    events: list[dict[str, Any]] = [{"node": "validate", "event": event, **v.to_trace()}]
    return {"validation": v, "events": events}


def support_check(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """Ask an LLM judge whether each cited claim's quoted span supports it (``support_check``).

    Skipped (with the reason in the trace) when the knob is off, for the extractive answerer
    (its claims *are* verbatim sentences of the cited passage, or a cited
    table row stated with its column names) and for answerers that are not
    a chat model. The judge is the answering chat model with ``chains/prompts/support_v1.md``;
    a malformed judgement is retried once, then the answer is ``unchecked`` (flagged, never
    read as supported).
    """
    cfg = RAGConfig.from_runnable_config(config)
    v = state["validation"]
    assert v is not None  # route_after_validate comes here only with valid citations
    answerer = deps.answerer_for(cfg)
    if not cfg.support_check:
        record = judging.SupportCheck(
            "skipped", action=cfg.support_action, skipped="support_check is off"
        )
    elif isinstance(answerer, ExtractiveAnswerer):
        record = judging.SupportCheck(
            "skipped",
            action=cfg.support_action,
            skipped="extractive answerer: every claim is a verbatim sentence of the passage it "
            "cites, so there is nothing for a judge to check",
        )
    elif not isinstance(answerer, ChatModelAnswerer):
        record = judging.SupportCheck(
            "skipped",
            action=cfg.support_action,
            skipped=f"answerer {answerer.name!r} is not a chat model: no judge to ask",
        )
    else:
        claims = judging.claims_from(v, state["context"].passages)
        record = judging.SupportJudge(answerer.watched).judge(
            state["question"], claims, action=cfg.support_action
        )
    event: dict[str, Any] = {"node": "support_check", "event": record.status}
    if record.skipped:
        event["detail"] = record.skipped
    if record.status == "unsupported":
        event["unsupported"] = [c["claim"] for c in record.unsupported()]
        event["action"] = record.action
    if record.errors:
        event["errors"] = list(record.errors)
    return {"support": record, "events": [event]}


def answered(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """Attach server-side citations and end ``answered``.

    When the support check ran, each citation carries ``support``: ``supported``,
    ``unsupported`` (flagged, ``support_action="flag"``) or ``unchecked``.
    """
    v = state["validation"]
    assert v is not None  # route_after_validate answers only with valid citations
    cited = citations.build_citations(v, state["context"].passages)
    support = state.get("support")
    if support is not None and support.status != "skipped":
        verdicts = support.passage_support()
        for c in cited:
            c["support"] = verdicts.get(c["index"], "unchecked")
    out = {
        "status": "answered",
        "answer": v.answer,
        "citations": cited,
        "reason": "",
        "looked_at": [],
    }
    return _end_turn(state, config, deps, out)


def no_evidence(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """End ``no_evidence``: below the gate, or the answerer (extractive or a model) said the
    passages do not answer."""
    g = state.get("gate")
    constraints = state.get("constraints")
    if constraints is not None and constraints.refusal:
        reason = constraints.refusal
    elif g is not None and g.best is None and constraints is not None and constraints.filter:
        reason = (
            "no passage you can access matches the question's constraints "
            f"({_constraint_text(constraints)})"
        )
    elif g is None or not g.passed:
        reason = g.refusal_reason() if g is not None else "no candidates were scored"
    elif (support := state.get("support")) is not None and support.refuses:
        reason = support.reason()
    else:
        reason = "the answerer reported that the supplied passages do not answer the question"
        parsed = state.get("parsed")
        why = parsed.block.get("reason") if parsed is not None else None
        if isinstance(why, str) and why.strip():
            reason += f": {why.strip()[:300]}"
    out = {
        "status": "no_evidence",
        "answer": NO_EVIDENCE_ANSWER,
        "citations": [],
        "reason": reason,
        "looked_at": citations.build_looked_at(_read(state, config)),
    }
    return _end_turn(state, config, deps, out)


def _read(state: RAGState, config: RunnableConfig) -> list[Any]:
    """The passages a run read, best first: those the answerer was given, else (the gate
    refused) the second stage's candidates without near-duplicates (assembly's rule); none
    when nothing was retrieved."""
    context = state.get("context")
    if context is not None and context.passages:
        return [p.candidate for p in context.passages]
    cfg = RAGConfig.from_runnable_config(config)
    ctx = assembly.assemble(
        list(state.get("candidates") or []),
        max_passages=citations.LOOKED_AT,
        token_budget=cfg.token_budget,
        dedupe_threshold=cfg.dedupe_threshold,
    )
    return [p.candidate for p in ctx.passages]


def _constraint_text(record: ConstraintRecord) -> str:
    parsed = record.parsed or {}
    texts = [c["text"] for c in parsed.get("constraints", []) if c.get("match") == "exact"]
    return ", ".join(texts) or "metadata filter"


def failed(state: RAGState, config: RunnableConfig, *, deps: GraphDeps) -> dict[str, Any]:
    """End ``failed`` with an honest reason."""
    attempts = int(state.get("attempts") or 0)
    if state.get("last_error") and state.get("last_error_final"):
        reason = f"the chat model failed: {state['last_error']}"
    elif state.get("last_error"):
        reason = f"generation failed {attempts} time(s); last error: {state['last_error']}"
    else:
        v = state.get("validation")
        problems = v.to_trace() if v is not None else {}
        if v is not None and v.cited and not v.has_text:
            reason = (
                f"after {attempts} attempt(s) the answer had no words outside its citation "
                f"markers ({v.answer[:80]!r})"
            )
        else:
            reason = (
                f"after {attempts} attempt(s) the answer cited no supplied passage validly "
                f"(invalid ids {problems.get('invalid_ids')}, fabricated quotes "
                f"{len(problems.get('fabricated_quotes') or [])}, quoted instructions "
                f"{len(problems.get('instruction_quotes') or [])})"
            )
    out = {"status": "failed", "answer": "", "citations": [], "reason": reason, "looked_at": []}
    return _end_turn(state, config, deps, out)
