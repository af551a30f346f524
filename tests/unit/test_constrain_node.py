"""The ``constrain`` node and its router on hand-made document metadata (no model, no index)."""

from __future__ import annotations

import pytest

from chains.constraints import apply_boosts
from graphs import nodes, routers
from graphs.deps import GraphDeps
from tests.support.factories import make_candidate

DOCS = [
    ("3M_2018_10K.pdf", "3M", "FY2018", "10-K", "public"),
    ("3M_2019_10K.pdf", "3M", "FY2019", "10-K", "public"),
    ("ADOBE_2022_10K.pdf", "Adobe", "FY2022", "10-K", "public"),
    ("BOEING_2022_10K.pdf", "Boeing", "FY2022", "10-K", "board"),  # restricted
]


class _Store:
    """Lists chunk metadata like ``CiteragStore.iter_metadata`` (two chunks per document)."""

    def __init__(self, docs):
        self.meta = []
        for name, company, period, doc_type, access in docs:
            for i in range(2):
                self.meta.append(
                    (
                        f"{name}-{i}",
                        {
                            "doc_id": name,
                            "doc_name": name,
                            "company": company,
                            "period": period,
                            "doc_type": doc_type,
                            "access": access,
                        },
                    )
                )

    def iter_metadata(self):
        return iter(self.meta)


class _Emb:
    def embed_query(self, text):
        return [0.0]


def _deps(docs=DOCS) -> GraphDeps:
    return GraphDeps(retriever=None, embeddings=_Emb(), store=_Store(docs))  # type: ignore[arg-type]


def _run(question, groups=(), conf=None, deps=None):
    state = {"question": question, "user_groups": list(groups)}
    out = nodes.constrain(state, {"configurable": conf or {}}, deps=deps or _deps())
    return out["constraints"]


def test_company_and_year_become_a_hard_filter_with_spans():
    rec = _run("What was 3M's capital expenditure in FY2018?")
    assert rec.enabled and rec.documents == 3  # the restricted document is not counted
    flt = rec.filter
    assert flt is not None
    parts = flt.get("$and", [flt])
    assert {"company": {"$in": ["3M"]}} in parts
    period = next(p["period"]["$in"] for p in parts if "period" in p)
    assert "FY2018" in period and "FY2022" not in period
    spans = {c["field"]: c["text"] for c in rec.parsed["constraints"]}
    assert spans["company"].startswith("3M") and spans["period"] == "FY2018"
    assert routers.route_after_constrain({"constraints": rec}) == "retrieve"
    assert not rec.refusal


def test_a_question_naming_nothing_is_unchanged():
    rec = _run("What are the main risks described in the filings?")
    assert rec.filter is None and not rec.refusal
    assert rec.parsed is not None and rec.parsed["constraints"] == []


def test_an_indexed_company_in_a_year_it_has_no_filing_for_is_refused_naming_it():
    rec = _run("What was Adobe's revenue in FY2030?")
    assert rec.refusal == "no indexed document you can access is about Adobe FY2030"
    assert routers.route_after_constrain({"constraints": rec}) == "no_evidence"
    out = nodes.no_evidence(
        {"question": "q", "constraints": rec}, {"configurable": {}}, deps=_deps()
    )
    assert out["status"] == "no_evidence" and out["reason"] == rec.refusal
    assert out["trace"]["constraints"]["refusal"] == rec.refusal


def test_a_company_that_is_not_indexed_is_refused_naming_it():
    rec = _run("What was Netflix's operating margin in FY2022?")
    assert rec.refusal.startswith("no indexed document you can access is about Netflix")


def test_a_restricted_company_looks_exactly_like_one_not_indexed():
    outsider = _run("What was Boeing's revenue in FY2022?")
    insider = _run("What was Boeing's revenue in FY2022?", groups=["board"])
    assert outsider.refusal.startswith("no indexed document you can access is about Boeing")
    assert not insider.refusal and insider.filter is not None
    assert "Boeing" in str(insider.filter)


def test_the_knob_turns_it_off():
    rec = _run("What was Adobe's revenue in FY2030?", conf={"constraints": False})
    assert not rec.enabled and rec.filter is None and not rec.refusal


def test_an_index_without_document_metadata_applies_nothing():
    bare = [("notes.txt", None, None, None, "public")]
    rec = _run("What was Netflix's revenue in FY2022?", deps=_deps(bare))
    assert rec.enabled and rec.parsed is None and rec.filter is None and not rec.refusal


def test_two_periods_are_both_kept():
    rec = _run("Compare 3M's revenue in FY2018 and FY2019.")
    periods = [c for c in rec.parsed["constraints"] if c["field"] == "period"]
    assert {v for c in periods for v in c["values"]} >= {"FY2018", "FY2019"}
    assert "FY2018" in str(rec.filter) and "FY2019" in str(rec.filter)


def test_boosts_reorder_without_changing_scores():
    a = make_candidate("a", doc_name="x", scores={"rerank": 0.60})
    b = make_candidate("b", doc_name="y", scores={"rerank": 0.55})
    b.meta["period"] = "FY2018"
    out = apply_boosts([a, b], [("period", ("FY2018",))])
    assert [c.content for c in out] == ["b", "a"]
    assert b.scores["rerank"] == pytest.approx(0.55) and b.scores["boost"] == pytest.approx(0.1)
    far = make_candidate("c", scores={"rerank": 0.2})
    far.meta["period"] = "FY2018"
    assert [c.content for c in apply_boosts([a, far], [("period", ("FY2018",))])] == ["a", "c"]
    assert apply_boosts([a, b], []) == [a, b]


def test_several_periods_are_answered_when_one_is_covered():
    rec = _run("What acquisitions did Adobe make in FY2022, FY2021 and FY2015?")
    assert not rec.refusal and "FY2022" in str(rec.filter)
    gone = _run("What acquisitions did Adobe make in FY2014 and FY2015?")
    assert gone.refusal == "no indexed document you can access is about Adobe FY2014 FY2015"
