"""A question's ask apart from its directions (:mod:`chains.directions`) and the nodes that
read it (pure logic: no model, no index)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from chains.directions import Directions, split_directions
from graphs import nodes


def _kinds(d: Directions) -> list[tuple[str, str]]:
    return [(x.kind, x.text) for x in d.directions]


def test_role_and_answer_sentences_are_directions_the_source_is_kept():
    q = (
        "Assume that you are a public equities analyst. Answer the following question by "
        "primarily using information that is shown in the balance sheet: what is the year "
        "end FY2018 net PPNE for 3M? Answer in USD billions."
    )
    d = split_directions(q)
    assert d.ask == "What is the year end FY2018 net PPNE for 3M? (the balance sheet)"
    assert d.sources == ("the balance sheet",)
    assert [k for k, _ in _kinds(d)] == ["role", "answer", "answer"]
    for x in d.directions:  # offsets into the question as given
        assert q[x.start : x.start + len(x.text)] == x.text


def test_question_marker_and_rounding_and_a_definition_kept():
    q = (
        "You are an investment banker and your only resource(s) to answer the following "
        "question is (are): the statement of financial position and the cash flow statement. "
        "Here's the question: what is the FY2015 operating cash flow ratio for Adobe? "
        "Operating cash flow ratio is defined as: cash from operations / total current "
        "liabilities. Round your answer to two decimal places."
    )
    d = split_directions(q)
    assert d.ask.startswith(
        "What is the FY2015 operating cash flow ratio for Adobe? Operating cash flow ratio is "
        "defined as: cash from operations / total current liabilities."
    )
    assert d.sources == ("the statement of financial position", "the cash flow statement")
    assert "Round your answer to two decimal places." in [t for _, t in _kinds(d)]


def test_a_units_parenthesis_is_a_format_direction():
    d = split_directions(
        "What is Lockheed Martin's 2 year total revenue CAGR from FY2020 to FY2022 (in units "
        "of percents and round to one decimal place)? Provide a response to the question by "
        "primarily using the statement of income."
    )
    assert d.ask == (
        "What is Lockheed Martin's 2 year total revenue CAGR from FY2020 to FY2022? "
        "(the statement of income)"
    )
    assert _kinds(d)[0] == (
        "format",
        "(in units of percents and round to one decimal place)",
    )


def test_a_condition_then_what_to_say_stays_in_the_ask():
    """Set apart, such a condition let judgement questions be answered with unrelated
    quotes on the development filings (benchmarks/directions_eval.py); it stays."""
    q = (
        "Does Adobe have an improving operating margin profile as of FY2022? If operating "
        "margin is not a useful metric for a company like this, then state that and explain why."
    )
    assert split_directions(q).ask == q
    q = "If I work on a bank holiday, do I get a day off in lieu?"
    assert split_directions(q).ask == q


@pytest.mark.parametrize(
    ("question", "kinds"),
    [
        ("How long is DVD loan? If you don't know, say so.", ["fallback"]),
        ("How long is DVD loan? If the documents don't say, please tell me.", ["fallback"]),
        ("How long is DVD loan? If you can't find it, just say that you don't know.", ["fallback"]),
        ("How long is DVD loan? If there is no answer, reply 'not found'.", ["fallback"]),
        ("How long is DVD loan? Say so if you can’t find it.", ["fallback"]),
        ("How long is DVD loan? If this is not covered then state that.", ["fallback"]),
        ("How long is DVD loan? If you're not sure, say so.", ["fallback"]),
        ("How long is DVD loan? Please don't guess.", ["answer"]),
        ("How long is DVD loan? Never make things up, please.", ["answer"]),
        ("How long is DVD loan? Be concise.", ["format"]),
        ("How long is DVD loan? Keep it short!", ["format"]),
        ("How long is DVD loan? Cite your sources.", ["format"]),
        ("How long is DVD loan? Thanks in advance!", ["courtesy"]),
        ("How long is DVD loan? Thank you so much for your help.", ["courtesy"]),
        ("Hi! How long is DVD loan?", ["courtesy"]),
        ("Hello, how long is DVD loan?", ["courtesy"]),
        ("Quick question: how long is DVD loan?", ["answer"]),
        ("Hey there, quick one: how long is DVD loan?", ["courtesy", "answer"]),
        (
            "Good morning! How long is DVD loan? If you are unsure, say so. Thanks!",
            ["courtesy", "fallback", "courtesy"],
        ),
    ],
)
def test_greetings_thanks_and_what_to_say_without_an_answer_are_directions(question, kinds):
    """People write to a question box as to a person: none of it says what to find."""
    d = split_directions(question)
    assert d.ask == "How long is DVD loan?"
    assert [k for k, _ in _kinds(d)] == kinds
    assert d.sources == ()  # "the documents" names no part of any document


@pytest.mark.parametrize(
    ("question", "ask"),
    [
        # beside a person's habits, an ask needs no "?"
        ("the display shows E4. Thanks!", "The display shows E4."),
        ("the tank stays empty. If you don't know, say so.", "The tank stays empty."),
        # a habit run on without a full stop: after a comma, or at a capital
        ("the display shows E4 Cite your sources.", "The display shows E4"),
        ("can I park there, thanks", "Can I park there"),
        ("what does it cost If you don't know, say so.", "What does it cost"),
        # any direction run on at a capital ends the ask before it
        (
            "which hotel did Priya stay in Answer only from the documents.",
            "Which hotel did Priya stay in",
        ),
        ("What is revenue Answer in USD millions.", "What is revenue"),
    ],
)
def test_an_ask_beside_habits_needs_no_question_mark(question, ask):
    assert split_directions(question).ask == ask


@pytest.mark.parametrize(
    "question",
    [
        "What do I do when the display says thanks",  # no comma, no capital: content
        "What does the Answer key say",  # a capital that starts no direction
        "how do I Use the answer field",
        "Revenue for 3M in FY2018. Answer in USD billions.",  # no "?" beside a direction
        "Thanks!",  # nothing left to ask
        "Hi! Thanks!",
    ],
)
def test_left_whole_without_an_ask(question):
    d = split_directions(question)
    assert d.ask == question and d.directions == ()


@pytest.mark.parametrize(
    "question",
    [
        # a condition on a topic, or on the user's situation, is part of the ask
        "When you can't find your badge, tell security. Who pays for a new one?",
        "If the parcel does not arrive, tell us. How long do refunds take?",
        "If you don't know the PIN, how do I reset it?",
        "If I'm not eligible, tell me. Can part-time staff join the scheme?",
        # a greeting that is a name, or thanks that are content
        "Hi Sam, is the office open on Monday?",
        "Thank you for the update. Does it apply to part-time staff?",
        "Hello Kitty mugs: do you restock them?",
        "Thanks to the new policy, do we get more leave?",
        # an imperative about content, not about the answer's form
        "Keep receipts for a year. Can I claim mileage?",
        "Don't guess the PIN more than three times. What happens if I do?",
    ],
)
def test_content_is_never_taken_for_a_greeting_or_a_fallback(question):
    d = split_directions(question)
    assert d.ask == question and d.directions == ()


def test_format_sentence_needs_a_word_about_form():
    d = split_directions("How many staff left in 2024? Please state it in thousands.")
    assert d.ask == "How many staff left in 2024?"
    assert _kinds(d) == [("format", "Please state it in thousands.")]
    # an imperative about content is part of the ask
    d = split_directions("Give the 2019 revenue. What did it grow by?")
    assert d.ask == d.question and not d.directions


@pytest.mark.parametrize(
    "question",
    [
        "Can I get a refund?",
        "What is the refund policy",
        "I am a member: can I park for free?",  # the user's situation is part of the ask
        "Answer this for me.",  # nothing left to ask
        "Please answer the question.",
        "I want to calculate my holiday pay. How many days do I get?",  # context stays
        "Who answered the phone at the front desk?",  # 'answered' inside the ask
        "(in USD millions)",
    ],
)
def test_left_whole(question):
    d = split_directions(question)
    assert d.ask == question
    assert d.directions == () and d.sources == ()


@pytest.mark.parametrize(
    "question",
    [
        # context sentences that merely contain a direction's words
        "My printer stopped responding. What should I do?",
        "You were charged twice. How do I get a refund?",
        "You are required to wear a badge. Where can I get one?",
        "3M's response to PFAS litigation was a settlement. What did 3M record?",
        "I received an answer from HR. Is it final?",
        "Imagine you lose your badge. What should you do?",
        "Act as soon as you notice a leak. Who do I call?",
        "Use the company card for expenses over 500 dollars. Can I use it for meals?",
        "If an item arrives damaged, note it on the delivery slip. Who pays?",
        "Answer the phone within three rings. What is the greeting?",
        # a topic before a colon, not an announcement
        "Security question: what was my first pet's name?",
        "Regarding the question of overtime: are managers exempt?",
        "My question is about overtime. Do hourly staff get it?",
        "Customer response policy: how quickly must we reply?",
        # parentheses that qualify, not only give units
        "What was revenue (in millions, for the U.S. segment only)?",
        "What was marketing spend (as % of revenue)?",
        # nothing but punctuation would be left
        "(in USD)?",
        "Answer: ?",
        # a noun, not an imperative, opens the sentence
        "Base salary is paid in USD. Is the bonus paid in local currency?",
        "State taxes are reported as percentages. What is the rate in Ohio?",
        "Round-trip fares are reimbursed in full as dollars. Are taxis?",
        "Help desk staff give a response within 2 days. How do I escalate?",
        # the answer or the question as a thing, not as what to say
        "Help me understand the question of overtime pay. Am I eligible?",
        "Provide a reply within 30 days of receiving the letter. What if I miss it?",
        "Show the answer key to students after the exam. Is that allowed?",
        # a direction that also says what to find keeps it
        "Answer using the 10-K of Apple Inc. What was revenue in FY2020?",
        "Please answer the following question about the Berlin office: how many desks?",
        "Answer only for the Model X printer. How do I reset it?",
        "Treat contractors as employees for this question. Do they get holiday pay?",
        # the user's own situation is no role
        "Suppose you are a part-time worker. Do you get holiday pay?",
        "You are an employee at the Dublin office. Which holidays apply?",
    ],
)
def test_content_is_never_taken_for_a_direction(question):
    d = split_directions(question)
    assert d.ask == question and d.directions == ()


def test_offsets_of_units_and_of_a_first_sentence_after_white_space():
    for q in (
        "What is the price (in USD) of a ticket?",
        "\n\nYou are an analyst. What is revenue?",
    ):
        d = split_directions(q)
        assert d.directions
        for x in d.directions:
            assert q[x.start : x.start + len(x.text)] == x.text
    assert split_directions("What is revenue ((in USD millions))?").ask == "What is revenue?"


def test_long_white_space_is_linear():
    d = split_directions("What is revenue" + " " * 40_000 + "? Answer in USD.")
    assert d.ask == "What is revenue?"
    # a would-be condition, greeting or reply of blanks (quadratic before the length cap)
    for q in ("If" + " " * 40_000 + "x. What?", "Hello" + " " * 40_000 + "x?"):
        assert split_directions(q).ask == q
    d = split_directions("What is revenue? If you don't know," + " " * 40_000 + "say so.")
    assert d.ask == "What is revenue?"


def test_a_parenthesis_of_content_stays():
    q = "What is the retention ratio (using dividends paid and net income) for General Mills?"
    assert split_directions(q).ask == q


def test_to_trace_is_plain_data():
    d = split_directions(
        "What is the FY2016 COGS for Microsoft? Please state answer in USD millions."
    )
    out = d.to_trace()
    assert out == {
        "ask": "What is the FY2016 COGS for Microsoft?",
        "directions": [
            {"kind": "answer", "text": "Please state answer in USD millions.", "start": 39}
        ],
        "sources": [],
    }


def _condense(question: str, conf: dict[str, object] | None = None) -> dict[str, object]:
    deps = SimpleNamespace()
    return nodes.condense({"question": question}, {"configurable": conf or {}}, deps=deps)  # type: ignore[arg-type]


def test_condense_records_the_split_and_the_knob_turns_it_off():
    q = "What is the FY2016 COGS for Microsoft? Please state answer in USD millions."
    out = _condense(q)
    assert out["question"] == q  # constraints and a chat model read the whole question
    assert out["directions"].ask == "What is the FY2016 COGS for Microsoft?"  # type: ignore[attr-defined]
    off = _condense(q, {"directions": False})
    assert off["directions"].ask == q and off["directions"].directions == ()  # type: ignore[attr-defined]


class _Retriever:
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, object]]] = []

    def retrieve(self, query: str, **kw: object) -> SimpleNamespace:
        self.calls.append((query, kw))
        return SimpleNamespace(candidates=[], query_vector=None, filter=None, score_types=())


def test_retrieve_searches_the_ask_and_the_keyword_leg_keeps_statement_words():
    q = (
        "What is the FY2016 COGS for Microsoft? Provide a response to the question by "
        "primarily using the statement of income."
    )
    split = split_directions(q)
    retriever = _Retriever()
    deps = SimpleNamespace(retriever=retriever)
    constraints = SimpleNamespace(parsed={"keyword_terms": ["cost of revenue"]}, filter=None)
    state = {"question": q, "directions": split, "constraints": constraints}
    nodes.retrieve(state, {"configurable": {}}, deps=deps)  # type: ignore[arg-type]
    query, kw = retriever.calls[0]
    assert query == "What is the FY2016 COGS for Microsoft? (the statement of income)"
    assert kw["keyword_query"] == f"{query} cost of revenue"
    # a state without a split (an older checkpoint) searches the question
    nodes.retrieve({"question": q, "constraints": constraints}, {"configurable": {}}, deps=deps)  # type: ignore[arg-type]
    assert retriever.calls[1][0] == q
