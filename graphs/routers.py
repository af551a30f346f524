"""Pure routing functions: read the state, never call a model."""

from __future__ import annotations

from typing import Literal

from chains.citations import says_insufficient
from graphs.state import RAGState

#: Generation attempts allowed: the first try plus one retry.
MAX_ATTEMPTS = 2


def route_after_constrain(state: RAGState) -> Literal["retrieve", "no_evidence"]:
    """A constraint no readable document satisfies ends the run before retrieval."""
    c = state.get("constraints")
    return "no_evidence" if c is not None and c.refusal else "retrieve"


def route_after_gate(state: RAGState) -> Literal["assemble", "no_evidence"]:
    """Below the threshold the run ends without calling the model."""
    g = state.get("gate")
    return "assemble" if g is not None and g.passed else "no_evidence"


def route_after_generate(state: RAGState) -> Literal["parse", "generate", "failed"]:
    """Retry once on an error or empty output; then give up honestly. An error another
    attempt cannot fix (a timeout, a refused key, a missing package: ``last_error_final``)
    fails at once."""
    if state.get("last_error") is None:
        return "parse"
    if state.get("last_error_final"):
        return "failed"
    return "generate" if int(state.get("attempts") or 0) < MAX_ATTEMPTS else "failed"


def route_after_parse(state: RAGState) -> Literal["validate", "recover_block"]:
    """A malformed or missing block goes to the regex rung; the prose is kept either way."""
    return "validate" if state["parsed"].block_status == "ok" else "recover_block"


def route_after_validate(
    state: RAGState,
) -> Literal["support_check", "no_evidence", "generate", "failed"]:
    """Check support of valid citations, accept the model's "insufficient evidence" (in its
    own words too: :func:`chains.citations.says_insufficient`), or retry/fail on no valid
    citation or on an answer with no words outside its markers (``[1] [2]``: no answer,
    handled as empty output is)."""
    if says_insufficient(state["parsed"], in_words=state.get("generator") != "extractive"):
        return "no_evidence"
    v = state.get("validation")
    if v is not None and v.cited and v.has_text:
        return "support_check"
    return "generate" if int(state.get("attempts") or 0) < MAX_ATTEMPTS else "failed"


def route_after_support_check(state: RAGState) -> Literal["answered", "no_evidence"]:
    """An unsupported claim ends ``no_evidence`` (``support_action="no_evidence"``); supported,
    flagged, unchecked (judge unusable: flagged, never read as supported) and skipped checks
    answer."""
    s = state.get("support")
    return "no_evidence" if s is not None and s.refuses else "answered"
