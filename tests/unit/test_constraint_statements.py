"""Statement wording for the keyword leg of questions about a filing, and the first-stage
order it brings (chains.constraints.statement_terms / first_stage_order; graphs.nodes)."""

from __future__ import annotations

import json
from typing import Any

from chains.constraints import first_stage_order, statement_kinds, statement_terms, table_titles
from graphs import nodes
from graphs.deps import GraphDeps
from graphs.records import ConstraintRecord
from tests.support.factories import make_candidate


def test_question_words_map_to_statement_line_items() -> None:
    terms = statement_terms("What was the FY2018 capital expenditure of 3M?")
    assert "purchases of property, plant and equipment" in terms
    assert "cost of sales" in statement_terms("What is Microsoft's FY2016 COGS?")
    assert "consolidated balance sheets" in statement_terms("Using the balance sheet, ...")
    # word boundaries: "ebitda" does not trigger "ebit"'s entry, "debts" does trigger "debt"
    assert "income from operations" in statement_terms("What is the EBITDA margin?")
    assert "long-term debt" in statement_terms("Did its debts rise?")
    assert statement_terms("What are the main risks described?") == ()
    assert statement_terms("Who wrote Hamlet?") == ()


def test_phrases_already_in_the_question_are_not_repeated() -> None:
    terms = statement_terms("What was the cost of sales?")
    assert "cost of sales" not in terms and "cost of revenue" in terms
    assert len(terms) == len(set(terms))


def test_first_stage_order_keeps_scores_and_lets_boosts_lift() -> None:
    a = make_candidate("a", scores={"rerank": 0.9}, ranks={"fused": 3})
    b = make_candidate("b", scores={"rerank": 0.5}, ranks={"fused": 1})
    c = make_candidate("c", scores={"rerank": 0.7}, ranks={"fused": 2})
    out = first_stage_order([a, c, b])
    assert [x.content for x in out] == ["b", "c", "a"]
    assert a.scores["rerank"] == 0.9  # the gate's score is untouched
    a.meta["period"] = "FY2021"
    lifted = first_stage_order([a, c, b], [("period", ("FY2021",))])
    assert lifted[0] is a and a.scores["boost"] > 0


def test_statement_kinds_name_statements_not_tables_about_them() -> None:
    assert statement_kinds("the cash flow statement") == {"cash flows"}
    assert statement_kinds("Consolidated Statements of Cash Flows") == {"cash flows"}
    assert statement_kinds("Free Cash Flow (non-GAAP measure)") == frozenset()
    assert statement_kinds("the balance sheet") == statement_kinds(
        "Consolidated Statements of Financial Position"
    )
    assert statement_kinds("the P&L statement") == {"income"}
    assert statement_kinds("CONSOLIDATED STATEMENTS OF OPERATIONS") == {"income"}
    assert statement_kinds("the staff handbook") == frozenset()
    assert statement_kinds("Off-Balance Sheet Arrangements") == frozenset()
    assert statement_kinds("Cash flows from investing activities") == frozenset()  # a section
    assert statement_kinds("the cashflow statement") == {"cash flows"}
    assert statement_kinds("Consolidated Statements of Comprehensive Income (Loss)") == {"income"}
    assert statement_kinds("Statement of Changes in Partners’ Capital") == {"equity"}


def test_table_titles_are_the_rows_titles_not_their_labels() -> None:
    stated = "Net income — 2024: 5"
    row = [0, 20, f"3M Company — Consolidated Statements of Cash Flows — {stated}", stated]
    title = "3M Company — Consolidated Statements of Cash Flows"
    assert table_titles({"row_text": [row]}) == [title]
    assert table_titles({"row_text": json.dumps([row])}) == [title]
    # an untitled table: its row's label is no title
    assert (
        table_titles({"row_text": [[0, 9, "Operations — Revenue: 5", "Operations — Revenue: 5"]]})
        == []
    )
    # every row's table counts; a chunk may run from one table into the next
    other = [30, 40, "Consolidated Balance Sheets — Cash — 2024: 1", "Cash — 2024: 1"]
    assert table_titles({"row_text": [row, other]}) == [title, "Consolidated Balance Sheets"]
    for bad in (
        {},
        {"row_text": "not json"},
        {"row_text": [None]},
        {"row_text": [5]},
        {"row_text": 7},
    ):
        assert table_titles(bad) == []
    assert table_titles({"row_text": [[0, 1, {"t": 1}, "x"]]}) == []


def test_a_table_of_the_statement_the_question_names_is_lifted() -> None:
    row = "Purchases of PP&E — 2018: (1,577)"
    title = f"Consolidated Statement of Cash Flows — {row}"
    free = f"Free Cash Flow (non-GAAP measure) — {row}"
    statement = make_candidate("s", ranks={"fused": 6})
    statement.meta["row_text"] = [[0, 9, title, row]]
    other = [make_candidate(f"o{i}", ranks={"fused": i}) for i in range(1, 6)]
    for o in other:
        o.meta["row_text"] = [[0, 9, free, row]]
    plain = first_stage_order([*other, statement])
    assert plain[-1] is statement and "statement" not in statement.scores
    question = "What was capex? Use the details shown in the cash flow statement."
    lifted = first_stage_order([*other, statement], naming=(question,))
    assert lifted.index(statement) == 2  # key 6 - 4 = 2: behind the one ranked 2 (ties keep order)
    assert statement.scores["statement"] == 1.0
    # another statement named: no lift
    again = first_stage_order([*other, statement], naming=("Debt on the balance sheet?",))
    assert again[-1] is statement


class _Retriever:
    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def retrieve(self, query: str, **kw: Any) -> Any:
        self.calls.append({"query": query, **kw})

        class _Res:
            def __init__(self) -> None:
                self.candidates: list[Any] = []
                self.query_vector = None
                self.filter = kw.get("metadata_filter")
                self.score_types: dict[str, str] = {}

        return _Res()


def _retrieve(record: ConstraintRecord | None) -> dict[str, Any]:
    r = _Retriever()
    deps = GraphDeps(retriever=r, embeddings=None, store=None)  # type: ignore[arg-type]
    state: Any = {"question": "What was 3M's FY2018 capital expenditure?", "constraints": record}
    nodes.retrieve(state, {"configurable": {}}, deps=deps)
    return r.calls[0]


def test_only_a_question_about_a_filing_gets_the_expanded_keyword_leg() -> None:
    flt = {"company": {"$in": ["3M"]}}
    on = ConstraintRecord(
        enabled=True, documents=2, parsed={"keyword_terms": ["capital expenditures"]}, filter=flt
    )
    call = _retrieve(on)
    assert call["query"] == "What was 3M's FY2018 capital expenditure?"  # the dense leg: as asked
    assert call["keyword_query"].endswith("capital expenditures")
    assert "keyword_query" not in _retrieve(ConstraintRecord(enabled=False))
    assert "keyword_query" not in _retrieve(None)


class _Store:
    def iter_metadata(self) -> Any:
        return iter(
            [
                (str(i), {"doc_id": f"d{i}", "company": c, "period": p, "access": "public"})
                for i, (c, p) in enumerate([("Corning", "FY2021"), ("Nike", "FY2022")])
            ]
        )


def _terms(question: str, conf: dict[str, Any] | None = None) -> list[str]:
    deps = GraphDeps(retriever=None, embeddings=None, store=_Store())  # type: ignore[arg-type]
    state: Any = {"question": question, "user_groups": []}
    rec = nodes.constrain(state, {"configurable": conf or {}}, deps=deps)["constraints"]
    return list(((rec.parsed or {}).get("keyword_terms")) or [])


def test_the_constrain_node_expands_only_questions_matching_a_filing() -> None:
    assert "capital expenditures" in _terms("What was Corning's FY2021 capital expenditure?")
    assert _terms("What is a capital expenditure?") == []  # no filing matched: unchanged
    assert _terms("What was Corning's capex?", {"constraints": False}) == []


def test_the_rerank_node_lifts_a_table_of_the_statement_the_question_names() -> None:
    """The node passes the whole question, directions included, to the first-stage order."""
    row = "Purchases of PP&E — 2018: (1,577)"
    statement = make_candidate("s", ranks={"fused": 6}, scores={"dense": 0.1})
    statement.meta["row_text"] = [[0, 1, f"Consolidated Statement of Cash Flows — {row}", row]]
    other = [
        make_candidate(f"o{i}", ranks={"fused": i}, scores={"dense": 0.2}) for i in range(1, 6)
    ]
    record = ConstraintRecord(enabled=True, documents=2, parsed={"keyword_terms": ["capex"]})
    deps = GraphDeps(retriever=None, embeddings=None, store=None)  # type: ignore[arg-type]

    def order(question: str) -> list[str]:
        state: Any = {
            "question": question,
            "candidates": [*other, statement],
            "constraints": record,
        }
        out = nodes.rerank(state, {"configurable": {"reranker": "none"}}, deps=deps)
        return [c.content for c in out["candidates"]]

    assert order("What was 3M's FY2018 capex?")[-1] == "s"
    named = order(
        "What was 3M's FY2018 capex? Rely on the details shown in the cash flow statement."
    )
    assert named.index("s") == 2
