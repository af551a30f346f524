"""Every exit of the support check (``validate`` → ``support_check`` → answered / no_evidence),
driven by a scripted fake chat model (answer, then judgement) over the real sample index."""

from __future__ import annotations

import json

import pytest

from citerag.stores.loaded import load_index
from graphs.rag import build_graph
from tests.support.fake_models import ScriptedChatModel, good_answer

pytestmark = pytest.mark.integration

QUESTION = "What does inverter fault code E-217 mean?"
ON = {"max_passages": 4, "support_check": True}


def verdict(v: str, reason: str = "the quote says so") -> str:
    return json.dumps({"verdicts": [{"claim": 1, "verdict": v, "reason": reason}]})


@pytest.fixture(scope="module")
def loaded(sample_index, embedding_model):
    return load_index(sample_index, embedding_model)


def run(loaded, embedding_model, script, configurable=ON, model=True):
    fake = ScriptedChatModel(script=script)
    graph = build_graph(
        loaded.store,
        embeddings=embedding_model.embeddings,
        model=fake if model else None,
        manifest_id=loaded.manifest_id,
    )
    return graph.invoke({"question": QUESTION}, {"configurable": configurable}), fake


def events(result):
    return [(e["node"], e["event"]) for e in result["trace"]["events"]]


def test_off_by_default_the_judge_is_not_called(loaded, embedding_model):
    result, fake = run(loaded, embedding_model, [good_answer()], {"max_passages": 4})
    assert result["status"] == "answered" and fake.calls == 1
    support = result["trace"]["support"]
    assert support["status"] == "skipped" and support["skipped"] == "support_check is off"
    assert "support" not in result["citations"][0]


def test_supported_claims_are_answered_and_marked(loaded, embedding_model):
    result, fake = run(loaded, embedding_model, [good_answer(), verdict("supported")])
    assert result["status"] == "answered" and fake.calls == 2
    assert result["citations"][0]["support"] == "supported"
    support = result["trace"]["support"]
    assert support["status"] == "supported" and support["prompt"] == "support@v1"
    assert support["claims"][0]["passages"] == [1] and support["attempts"] == 1
    assert ("validate", "ok") in events(result)
    assert ("support_check", "supported") in events(result)
    assert "support_check" in result["trace"]["timings_s"]


def test_unsupported_claim_ends_no_evidence(loaded, embedding_model):
    result, _ = run(loaded, embedding_model, [good_answer(), verdict("unsupported", "other code")])
    assert result["status"] == "no_evidence" and result["citations"] == []
    assert result["reason"].startswith("the support check found claims the cited passages")
    assert "(other code)" in result["reason"]
    assert result["trace"]["support"]["status"] == "unsupported"
    # where it looked: the passages the answer had cited from, not an answer
    given = [p["chunk_id"] for p in result["trace"]["context"]["passages"][:3]]
    assert [r["chunk_id"] for r in result["looked_at"]] == given


def test_unsupported_claim_is_flagged_when_asked(loaded, embedding_model):
    conf = {**ON, "support_action": "flag"}
    result, _ = run(loaded, embedding_model, [good_answer(), verdict("unsupported")], conf)
    assert result["status"] == "answered"
    assert result["citations"][0]["support"] == "unsupported"
    ev = next(e for e in result["trace"]["events"] if e["node"] == "support_check")
    assert ev["unsupported"] == [1] and ev["action"] == "flag"


def test_malformed_judgement_retried_then_unchecked_never_supported(loaded, embedding_model):
    result, fake = run(loaded, embedding_model, [good_answer(), "All good!", "```{}```"])
    assert fake.calls == 3  # one answer, two judgements
    assert result["status"] == "answered"
    assert result["citations"][0]["support"] == "unchecked"
    support = result["trace"]["support"]
    assert support["status"] == "unchecked" and support["attempts"] == 2
    assert all(e.startswith("malformed judgement") for e in support["errors"])


def test_malformed_then_valid_judgement_counts(loaded, embedding_model):
    script = [good_answer(), "verdict: supported", verdict("unsupported")]
    result, fake = run(loaded, embedding_model, script)
    assert fake.calls == 3 and result["status"] == "no_evidence"
    assert len(result["trace"]["support"]["errors"]) == 1


def test_extractive_answerer_skips_the_judge_and_says_so(loaded, embedding_model):
    result, _ = run(loaded, embedding_model, [AssertionError("no model")], model=False)
    assert result["status"] == "answered" and result["generator"] == "extractive"
    support = result["trace"]["support"]
    assert support["status"] == "skipped" and support["skipped"].startswith("extractive answerer")
    assert "support" not in result["citations"][0]
