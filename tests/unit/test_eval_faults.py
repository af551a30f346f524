"""The fault-injecting fake model and the ladder bookkeeping (no index needed)."""

from __future__ import annotations

import pytest
from langchain_core.documents import Document
from langchain_core.messages import HumanMessage, SystemMessage

from chains.assemble import Passage, render_passages
from chains.candidates import Candidate
from chains.citations import parse_output, recover_block, validate
from citerag.eval.faults import (
    ARTICLE_LADDER,
    MALFORMATIONS,
    FaultyChatModel,
    cited_answer,
    expected_unusable,
    malform,
    parse_passages,
    rungs_needed,
)


def passages():
    out = []
    for n, (doc, content) in enumerate(
        [
            (
                "notes.txt",
                "Code E-217 means low DC insulation resistance, below 1 megohm.\n\n"
                "Check the string cables first.",
            ),
            ("report.pdf", "Total revenue for 2025 was £412,860. It rose by 11%."),
        ],
        start=1,
    ):
        cand = Candidate(
            key=f"k{n}",
            document=Document(
                page_content=content,
                metadata={
                    "doc_name": doc,
                    "content": content,
                    "page": 2 if doc.endswith(".pdf") else None,
                },
            ),
        )
        out.append(Passage(n, cand))
    return out


def messages(ps):
    return [
        SystemMessage(content="rules"),
        HumanMessage(content=f"PASSAGES\n{render_passages(ps)}\n\nQUESTION\nWhat?"),
    ]


def test_parse_passages_from_the_rendered_prompt():
    ps = passages()
    got = parse_passages(messages(ps))
    assert got == {1: ps[0].candidate.content, 2: ps[1].candidate.content}


def test_cited_answer_validates_against_the_passages():
    ps = passages()
    prose, used = cited_answer(parse_passages(messages(ps)))
    assert used == [1, 2]
    v = validate(prose, ps)
    assert v.ok and v.cited == [1, 2] and not v.fabricated_quotes


@pytest.mark.parametrize("kind", MALFORMATIONS)
def test_every_malformation_needs_and_gets_the_regex_rung(kind):
    block = {"confidence": "high", "sources": [1], "insufficient_evidence": False}
    parsed = parse_output(malform("Answer [1].", block, kind))
    assert parsed.block_status != "ok"
    recovered = recover_block(parsed)
    assert recovered.block_status in ("recovered", "defaulted")
    assert recovered.prose.startswith("Answer [1]")
    assert recovered.block["sources"] == [1] or kind == "truncated"


def test_fake_model_is_seeded_and_injects_at_the_configured_rates():
    ps = passages()
    msgs = messages(ps)

    def outcomes(seed):
        model = FaultyChatModel(p_error=0.2, p_malformed=0.3, seed=seed)
        out = []
        for _ in range(300):
            try:
                out.append(parse_output(str(model.invoke(msgs).content)).block_status)
            except RuntimeError:
                out.append("error")
        return out, model.tally

    a, tally = outcomes(7)
    assert a == outcomes(7)[0]
    assert tally["calls"] == 300
    assert 40 <= a.count("error") <= 80  # 20 % of 300
    ok_calls = 300 - a.count("error")
    assert 0.2 * ok_calls <= sum(s != "ok" for s in a if s != "error") <= 0.4 * ok_calls


def test_rungs_needed_from_traces():
    assert rungs_needed({"status": "failed", "trace": {}}) is None
    assert rungs_needed({"status": "no_evidence", "trace": {}}) == {"no_evidence_reply"}
    ok = {
        "status": "answered",
        "trace": {
            "attempts": 1,
            "block": {"status": "ok"},
            "events": [{"node": "generate", "event": "ok"}],
        },
    }
    assert rungs_needed(ok) == frozenset()
    retried = {
        "status": "answered",
        "trace": {
            "attempts": 2,
            "block": {"status": "recovered"},
            "events": [{"node": "generate", "event": "error"}, {"node": "generate", "event": "ok"}],
        },
    }
    assert rungs_needed(retried) == {"retry", "regex"}


def test_expected_ladder_matches_the_articles_table():
    exp = expected_unusable(0.06, 0.02, 0.05)
    assert exp["no fallback"] == pytest.approx(0.06 + 0.94 * (1 - 0.98 * 0.95))
    assert exp["retry + regex + explicit no-evidence reply"] == pytest.approx(0.94 * 0.0004)
    names = list(ARTICLE_LADDER)
    assert [exp[n] for n in names] == sorted((exp[n] for n in names), reverse=True)
    for name in names:  # our analytic values and the ladder article's simulation agree within noise
        assert exp[name] == pytest.approx(ARTICLE_LADDER[name], abs=0.006)
