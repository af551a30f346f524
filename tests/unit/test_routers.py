"""Every router of the answering graph: pure functions of the state, no model."""

from __future__ import annotations

import pytest

from chains.citations import ParsedOutput, Validation
from chains.gate import GateSettings, decide
from chains.support import SupportCheck
from graphs import routers
from tests.support.factories import make_candidate


def _gate(best: float | None):
    cands = [] if best is None else [make_candidate(scores={"rerank": best})]
    return decide(cands, GateSettings("rerank", 0.5, "request"), "sentence-hybrid")


@pytest.mark.parametrize(
    ("state", "route"),
    [
        ({"gate": _gate(0.9)}, "assemble"),
        ({"gate": _gate(0.5)}, "assemble"),  # the threshold itself passes
        ({"gate": _gate(0.49)}, "no_evidence"),
        ({"gate": _gate(None)}, "no_evidence"),
        ({}, "no_evidence"),  # no decision: fail closed
    ],
)
def test_route_after_gate(state, route):
    assert routers.route_after_gate(state) == route


@pytest.mark.parametrize(
    ("attempts", "error", "route"),
    [
        (1, None, "parse"),
        (2, None, "parse"),
        (1, "TimeoutError: slow", "generate"),
        (2, "TimeoutError: slow", "failed"),
        (1, "empty output", "generate"),
    ],
)
def test_route_after_generate(attempts, error, route):
    state = {"attempts": attempts, "last_error": error}
    assert routers.route_after_generate(state) == route


@pytest.mark.parametrize(
    ("status", "route"),
    [("ok", "validate"), ("malformed", "recover_block"), ("defaulted", "recover_block")],
)
def test_route_after_parse(status, route):
    state = {"parsed": ParsedOutput(prose="x [1]", block={}, block_status=status)}
    assert routers.route_after_parse(state) == route


def _parsed(insufficient: bool) -> ParsedOutput:
    return ParsedOutput(
        prose="INSUFFICIENT_EVIDENCE" if insufficient else "It is 5 [1].",
        block={"insufficient_evidence": insufficient},
        block_status="ok",
    )


@pytest.mark.parametrize(
    ("insufficient", "cited", "attempts", "route"),
    [
        (True, [], 1, "no_evidence"),
        (True, [1], 2, "no_evidence"),  # the model's refusal wins
        (False, [1], 1, "support_check"),
        (False, [], 1, "generate"),
        (False, [], 2, "failed"),
    ],
)
def test_route_after_validate(insufficient, cited, attempts, route):
    state = {
        "parsed": _parsed(insufficient),
        "validation": None if insufficient else Validation(answer="x", cited=cited),
        "attempts": attempts,
    }
    assert routers.route_after_validate(state) == route


@pytest.mark.parametrize(("attempts", "route"), [(1, "generate"), (2, "failed")])
def test_an_answer_of_markers_only_is_retried_then_fails(attempts, route):
    state = {
        "parsed": ParsedOutput(prose="[1] [2]", block={}, block_status="missing"),
        "validation": Validation(answer="[1] [2]", cited=[1, 2]),
        "attempts": attempts,
    }
    assert routers.route_after_validate(state) == route


@pytest.mark.parametrize(
    "prose", ["I don't know.", "The passages do not mention it [1].", "Unknown [1]"]
)
def test_a_refusal_in_words_is_no_evidence(prose):
    state = {
        "parsed": ParsedOutput(prose=prose, block={}, block_status="missing"),
        "validation": Validation(answer=prose, cited=[1]),
        "attempts": 1,
    }
    assert routers.route_after_validate(state) == "no_evidence"


@pytest.mark.parametrize(
    ("support", "route"),
    [
        (SupportCheck("supported"), "answered"),
        (SupportCheck("skipped", skipped="support_check is off"), "answered"),
        (SupportCheck("unsupported", action="no_evidence"), "no_evidence"),
        (SupportCheck("unsupported", action="flag"), "answered"),  # flagged, not refused
        (SupportCheck("unchecked"), "answered"),  # flagged unchecked, never "supported"
    ],
)
def test_route_after_support_check(support, route):
    assert routers.route_after_support_check({"support": support}) == route
