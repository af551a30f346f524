"""The ``trace`` knob: ``full`` keeps everything, ``summary`` drops passage text and the
model's messages but keeps the decisions, ids, scores and timings, ``none`` is ``{}``."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from chains.assemble import AssembledContext
from graphs.config import RAGConfig
from graphs.records import ModelRequest
from graphs.trace import SUMMARY_CANDIDATE_FIELDS, build_trace
from tests.support.factories import make_candidate, make_passage

SECRET_TEXT = "Zanzibar turbine output was 4,731 megawatt hours in the spring quarter."
PROMPT_TEXT = "You answer only from the passages below."


def _state() -> dict:
    cand = make_candidate(SECRET_TEXT, doc_name="ops.md", scores={"dense": 0.61, "rerank": 0.8})
    cand.ranks.update({"dense": 1, "fused": 1})
    other = make_candidate("Another passage about the cooperative's members.", page=3)
    passage = make_passage(1, SECRET_TEXT, doc_name="ops.md", key=cand.key)
    return {
        "question": "What was the turbine output?",
        "user_groups": ["staff"],
        "filters": None,
        "candidates": [cand, other],
        "context": AssembledContext([passage], [], [], 20),
        # the model's messages (under both names the state has used for them)
        "messages": [SystemMessage(content=PROMPT_TEXT), HumanMessage(content=SECRET_TEXT)],
        "model_messages": ModelRequest(
            (SystemMessage(content=PROMPT_TEXT), HumanMessage(content=SECRET_TEXT))
        ),
        "raw_outputs": [f'{SECRET_TEXT} [1: "{SECRET_TEXT}"]'],
        "generator": "extractive",
        "attempts": 1,
        "events": ["generate", "validate"],
        "timings": {"retrieve": 0.004, "rerank": 0.001},
    }


DEPS = SimpleNamespace(manifest_id="build-1", embedding_model="mini", answerer=None)
OUTCOME = {"status": "answered", "reason": ""}


def _trace(level: str | None) -> dict:
    conf = {} if level is None else {"trace": level}
    return build_trace(_state(), {"configurable": conf}, DEPS, OUTCOME)  # type: ignore[arg-type]


def test_python_callers_get_the_full_trace_by_default():
    assert RAGConfig().trace == "full"
    trace = _trace(None)
    assert trace["candidates"][0]["content"] == SECRET_TEXT
    assert trace["model_request"][0] == {"role": "system", "content": PROMPT_TEXT}
    assert trace["raw_outputs"] and trace["config"]["trace"] == "full"


def test_summary_keeps_decisions_ids_and_scores_but_no_passage_text():
    full, summary = _trace("full"), _trace("summary")
    text = json.dumps(summary)
    assert SECRET_TEXT not in text and PROMPT_TEXT not in text
    assert "model_request" not in summary and "raw_outputs" not in summary
    for key in ("status", "reason", "config", "index", "gate", "constraints", "retrieval"):
        assert key in summary
    assert summary["timings_s"] == full["timings_s"] == {"retrieve": 0.004, "rerank": 0.001}
    assert summary["events"] == ["generate", "validate"]
    assert summary["index"] == {"manifest_id": "build-1", "embedding_model": "mini"}
    assert summary["context"]["passages"][0]["number"] == 1
    first = summary["candidates"][0]
    assert set(first) <= set(SUMMARY_CANDIDATE_FIELDS) and "content" not in first
    assert first["chunk_id"] == full["candidates"][0]["chunk_id"]
    assert first["scores"] == {"dense": 0.61, "rerank": 0.8}
    assert first["ranks"] == {"dense": 1, "fused": 1}
    assert summary["candidates"][1]["page"] == 3
    assert len(text) < len(json.dumps(full))


def test_summary_respects_trace_candidates():
    state = _state()
    conf = {"configurable": {"trace": "summary", "trace_candidates": 1}}
    trace = build_trace(state, conf, DEPS, OUTCOME)  # type: ignore[arg-type]
    assert len(trace["candidates"]) == 1


def test_none_is_empty():
    assert _trace("none") == {}


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError, match="trace must be one of full, summary, none"):
        _trace("verbose")
