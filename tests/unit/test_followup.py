"""The follow-up rule, its rewrite check and the model path (chains/followup.py), offline."""

from __future__ import annotations

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from chains.constraints import Gazetteer
from chains.dayparts import slot_phrases
from chains.followup import (
    Turn,
    check_rewrite,
    condense_rule,
    condense_with_model,
    names_in,
    parse_model_output,
    resolve_relative_periods,
    shift_period,
    standalone_history,
)

REVENUE = "What was Northwind's total revenue in 2025?"
CAPEX = "What was 3M's FY2018 capital expenditure?"
FAULT = "What does inverter fault code E-217 mean?"


@pytest.mark.parametrize(
    ("history", "question", "standalone"),
    [
        ([REVENUE], "And the year before?", "What was Northwind's total revenue in 2024?"),
        ([REVENUE], "What about operating costs?", "What was Northwind's operating costs in 2025?"),
        ([REVENUE], "And last year?", "What was Northwind's total revenue in 2024?"),
        ([CAPEX], "And the year before?", "What was 3M's FY2017 capital expenditure?"),
        ([CAPEX], "What about Adobe?", "What was Adobe's FY2018 capital expenditure?"),
        ([CAPEX], "And its total revenue?", "What was 3M's FY2018 total revenue?"),
        ([CAPEX], "Same for FY2016?", "What was 3M's FY2016 capital expenditure?"),
        (
            ["What was Adobe's revenue in Q1 2023?"],
            "And the previous quarter?",
            "What was Adobe's revenue in Q4 2022?",
        ),
        ([FAULT], "And E-219?", "What does inverter fault code E-219 mean?"),
        ([FAULT], "How do I clear it?", "How do I clear it (inverter fault code E-217)?"),
        (
            [REVENUE],
            "How many members did it have?",
            "How many members did it have (Northwind; in 2025)?",
        ),
        # a period is carried from the turn the name comes from or later, never from an
        # older question about something else (it refused the founding year as "not 2023")
        (
            [
                "How many trees did Greenleaf Trust plant in 2022/23?",
                "How much is the adult membership fee at Riverside Rowing Club?",
            ],
            "When was it founded?",
            "When was it founded (Riverside Rowing Club; adult membership fee)?",
        ),
        # the year before the previous *standalone* question, through three turns
        (
            [REVENUE, "What was Northwind's total revenue in 2024?"],
            "And the year before that?",
            "What was Northwind's total revenue in 2023?",
        ),
    ],
)
def test_the_rule_makes_follow_ups_stand_alone(history, question, standalone):
    got = condense_rule(question, history)
    assert got.standalone == standalone
    assert got.method == "rule" and got.rewritten and got.original == question


@pytest.mark.parametrize(
    ("history", "question"),
    [
        ([], "And the year before?"),  # nothing to carry: never invents a period
        ([FAULT], "And the year before?"),  # no earlier period to count from
        ([REVENUE], "What does inverter fault code E-217 mean?"),  # a new question
        ([REVENUE], "What must contractors do before they start work on a roof?"),
        ([REVENUE], "And what does fault code E-217 mean?"),
        (["What was revenue between 2019 and 2021?"], "And the year before?"),  # a range
        # a fragment that names nothing ("What does other one mean on the AquaPure 300?")
        (["What does E2 mean on the AquaPure 300?"], "What about the other one?"),
        (["What does E2 mean on the AquaPure 300?"], "And the rest?"),
    ],
)
def test_the_rule_leaves_questions_it_cannot_complete_unchanged(history, question):
    got = condense_rule(question, history)
    assert got.standalone == question
    assert got.method in ("first_turn", "unchanged")
    assert not got.rewritten


def test_the_trace_record_names_what_was_carried():
    got = condense_rule("And the year before?", [REVENUE]).to_trace()
    assert got["original"] == "And the year before?"
    assert got["standalone"] == "What was Northwind's total revenue in 2024?"
    assert got["carried"]["relative"] == {"the year before": "2024"}
    assert got["carried"]["names"] == ["Northwind"]


def test_relative_periods_count_from_the_latest_period():
    assert shift_period("FY2025", "year", -1) == "FY2024"
    assert shift_period("2023Q1", "quarter", -1) == "2022Q4"
    assert shift_period("2023Q2", "quarter", -4) == "2022Q2"
    assert shift_period("2023Q4", "quarter", 1) == "2024Q1"
    assert shift_period("FY2025", "quarter", -1) is None  # no quarter in a year label
    text, found = resolve_relative_periods(
        "How did it compare with the same quarter last year?", ["Revenue in Q3 2023?"]
    )
    assert text == "How did it compare with in Q3 2022?" and found
    assert resolve_relative_periods("And the following year?", [CAPEX])[0] == "And in FY2019?"
    assert resolve_relative_periods("And the year before?", [FAULT]) == (
        "And the year before?",
        {},
    )


def test_history_without_recorded_rewrites_is_recomputed_in_order():
    turns = [Turn(REVENUE), Turn("And the year before?"), Turn("And the year before that?")]
    assert standalone_history(turns) == [
        REVENUE,
        "What was Northwind's total revenue in 2024?",
        "What was Northwind's total revenue in 2023?",
    ]
    # a recorded standalone question is kept as it is
    assert standalone_history([Turn("And?", "Recorded question?")]) == ["Recorded question?"]


def test_names_are_capitalised_runs_and_codes_not_question_words():
    assert names_in("What was Northwind's revenue at Fennick Farm in FY2024?") == [
        "Northwind",
        "Fennick Farm",
    ]
    assert names_in("How often does the SG-4410X fan need cleaning in May?") == ["SG-4410X"]
    assert names_in("What was the revenue in 2024?") == []


def test_the_check_rejects_a_rewrite_that_drops_a_name_number_or_period():
    q = "What about Adobe's $1,200 million of revenue in FY2019?"
    ok = "What was Adobe's capital expenditure of $1,200 million of revenue in FY2019?"
    assert check_rewrite(q, ok) == ""
    assert "Adobe" in check_rewrite(
        q, "What was the capital expenditure of $1,200 million in FY2019?"
    )
    assert "1200" in check_rewrite(q, "What was Adobe's capital expenditure in FY2019?")
    assert "FY2019" in check_rewrite(q, "What was Adobe's capital expenditure of $1,200 million?")
    assert check_rewrite(q, "") == "empty rewrite"
    assert check_rewrite(q, "one\ntwo") == "more than one line"
    # a relative period may become a year: it is not a label of the original
    assert check_rewrite("And the year before?", "What was 3M's FY2017 revenue?") == ""


def test_the_check_knows_companies_by_their_indexed_aliases():
    gaz = Gazetteer([{"company": "Johnson & Johnson", "period": "FY2022", "doc_type": "10-K"}])
    q = "And J&J's revenue in FY2022?"
    assert check_rewrite(q, "What was Johnson & Johnson's revenue in FY2022?", gaz) != ""  # J&J
    assert check_rewrite(q, "What was J&J's (Johnson & Johnson) revenue in FY2022?", gaz) == ""


def test_the_model_path_uses_a_rewrite_that_keeps_everything():
    model = FakeListChatModel(responses=["Standalone question: What was 3M's FY2017 capex?"])
    got = condense_with_model(model, "And the year before?", [Turn(CAPEX)])
    assert got.method == "model" and got.standalone == "What was 3M's FY2017 capex?"
    assert got.carried["prompt"] == "condense@v1"


def test_the_model_path_falls_back_to_the_question_when_the_rewrite_drops_something():
    model = FakeListChatModel(responses=["What was the FY2017 capital expenditure?"])
    got = condense_with_model(model, "And 3M's the year before?", [Turn(CAPEX)])
    assert got.method == "model_rejected"
    assert got.standalone == "And 3M's the year before?"
    assert "3M" in got.rejected
    assert got.model_output == "What was the FY2017 capital expenditure?"


def test_the_model_path_survives_a_model_error():
    class Broken(FakeListChatModel):
        def _call(self, *args, **kwargs):  # type: ignore[override]
            raise RuntimeError("provider down")

        def _stream(self, *args, **kwargs):  # type: ignore[override]
            raise RuntimeError("provider down")  # the rewrite streams (behind the watchdog)

    got = condense_with_model(Broken(responses=["x"]), "And 2024?", [Turn(REVENUE)])
    assert got.standalone == "And 2024?" and got.method == "model_rejected"
    assert "RuntimeError" in got.rejected


def test_model_output_is_read_from_its_first_line():
    assert parse_model_output('\n"What was X in 2024?"\nBecause ...') == "What was X in 2024?"
    assert parse_model_output("Rewritten: Why?") == "Why?"


def test_a_capitalised_function_word_that_starts_a_question_is_not_a_name():
    assert names_in("From which ancient language does the word imperialism originate?") == []
    assert names_in("By what means is it administered?") == []
    assert names_in("In 2021, what did 3M spend?") == ["3M"]


@pytest.mark.parametrize(
    ("previous", "question"),
    [
        ("Who ranked Warsaw as the 32nd most liveable city in the world?", "In what year?"),
        ("Who invented it? (first commercially successful true engine)", "About what year?"),
        ("Who founded the Yuan dynasty?", "When?"),
    ],
)
def test_a_bare_follow_up_asks_the_previous_question_about_another_aspect(previous, question):
    got = condense_rule(question, [previous])
    assert got.method == "rule" and got.carried["form"] == "context"
    body = previous.rstrip("?").split(" (")[0].rstrip("?")
    assert got.standalone.startswith(question.rstrip("?") + " (")
    assert body in got.standalone and "?;" not in got.standalone and "(" in got.standalone
    assert check_rewrite(question, got.standalone) == ""


def test_a_reference_nothing_else_pins_down_carries_the_previous_question():
    previous = "From which ancient language does the word imperialism originate?"
    got = condense_rule("By what means is it usually administered?", [previous])
    assert got.standalone == (
        "By what means is it usually administered (From which ancient language does the word "
        "imperialism originate)?"
    )


def test_a_pronoun_after_a_name_elsewhere_still_refers_back():
    got = condense_rule(
        "From which countries did his people originate?",
        ["Who was the Norse leader who founded Normandy?"],
    )
    assert "Normandy" in got.standalone and "Norse leader" in got.standalone
    assert "who)" not in got.standalone  # the subject stops at the relative pronoun


def test_a_fragment_of_a_preposition_and_a_pronoun_is_not_a_noun_phrase():
    got = condense_rule("And before it?", ["What dynasty came after the Yuan dynasty?"])
    assert "before it after" not in got.standalone
    assert "Yuan" in got.standalone


def test_a_carried_span_of_months_is_written_so_that_it_reads_back_the_same():
    got = condense_rule(
        "What was its turbine output?",
        ["How much rain fell at Fenby between October and December 2023?"],
    ).to_trace()
    assert got["standalone"] == (
        "What was its turbine output (Fenby; in October 2023 to December 2023)?"
    )
    assert got["carried"]["periods"] == ["2023-10..2023-12"]


@pytest.mark.parametrize(
    ("history", "question", "standalone"),
    [
        (
            ["What was operating profit in 2022?"],
            "And two years later?",
            "What was operating profit in 2024?",
        ),
        (
            ["What was operating profit in 2022?"],
            "And five years before that?",
            "What was operating profit in 2017?",
        ),
        (
            ["What was revenue in Q1 2023?"],
            "And two quarters later?",
            "What was revenue in Q3 2023?",
        ),
        # a count in digits counts as one in words does (it was refused: "drops the number 3")
        (
            ["What was operating profit in 2022?"],
            "And 3 years earlier?",
            "What was operating profit in 2019?",
        ),
        (
            ["What was revenue in Q1 2023?"],
            "And 2 quarters later?",
            "What was revenue in Q3 2023?",
        ),
        # "ago" counts from today, not from the previous question: left as asked
        (["What was operating profit in 2022?"], "And three years ago?", "And three years ago?"),
        (["What was operating profit in 2022?"], "And 3 years ago?", "And 3 years ago?"),
        # a fragment that names no place: the question is left as asked, never garbled
        (["What is the maximum hotel rate in London?"], "And elsewhere?", "And elsewhere?"),
    ],
)
def test_counted_relative_periods_and_vague_places(history, question, standalone):
    assert condense_rule(question, history).standalone == standalone


def test_the_count_of_a_relative_period_is_no_number_a_rewrite_must_keep():
    """A model's rewrite of "3 years earlier" into the year it means passes the check as
    that of "three years earlier" does; any other number of the question is still kept."""
    from chains.followup import check_rewrite

    resolved = "What was operating profit in 2019?"
    assert check_rewrite("And 3 years earlier?", resolved) == ""
    assert check_rewrite("And three years earlier?", resolved) == ""
    assert check_rewrite("And 3 years ago?", resolved) == "drops the number 3"
    assert check_rewrite("And 3 years earlier, for plant 7?", resolved) == "drops the number 7"


# ---------------------------------------------------------------------------------------------
# days and times of day: a typed slot, like a period

HIRE = "What is the hire rate for the Committee Room on a weekday?"
WEEKDAY_RATE = "What is the weekday rate for the Main Hall?"
OPENING = "What time does the library open on Saturday mornings?"


@pytest.mark.parametrize(
    ("history", "question", "standalone"),
    [
        # the follow-up's day replaces the original's day expression, in its form
        ([HIRE], "And at weekends?", "What is the hire rate for the Committee Room at weekends?"),
        ([WEEKDAY_RATE], "And on Sundays?", "What is the Sunday rate for the Main Hall?"),
        ([WEEKDAY_RATE], "What about weekends?", "What is the weekend rate for the Main Hall?"),
        ([HIRE], "And Saturdays?", "What is the hire rate for the Committee Room on Saturdays?"),
        (["Is parking free on Sundays?"], "What about Saturdays?", "Is parking free on Saturdays?"),
        (
            ["Is the library open from Monday to Friday?"],
            "And on a Saturday?",
            "Is the library open on a Saturday?",
        ),
        # none in the original: appended, never put in place of a name or the subject
        (
            ["What is the hire rate for the Main Hall?"],
            "And on Sundays?",
            "What is the hire rate for the Main Hall on Sundays?",
        ),
        (
            ["What is the hire rate for the Main Hall?"],
            "And the weekend?",
            "What is the hire rate for the Main Hall at the weekend?",
        ),
        # a day stated as a modifier of the fragment's own noun phrase: the noun phrase
        # replaces the subject and the original's other day expression goes
        ([WEEKDAY_RATE], "And the weekend rate?", "What is the weekend rate for the Main Hall?"),
        ([HIRE], "And the weekend rate?", "What is the weekend rate for the Committee Room?"),
        # a noun phrase and a day together
        (
            [HIRE],
            "And the deposit on Sundays?",
            "What is the deposit for the Committee Room on Sundays?",
        ),
        # names and periods work as before, the day stays
        ([HIRE], "And the Scouts?", "What is the hire rate for the Scouts on a weekday?"),
        (
            [WEEKDAY_RATE],
            "And the Minstrel Gallery?",
            "What is the weekday rate for the Minstrel Gallery?",
        ),
        (
            ["How much is all-day parking at Station Road?"],
            "And at Riverside?",
            "How much is all-day parking at Riverside?",
        ),
        # times of day: the same slot mechanism
        (
            ["What is the evening rate for the Main Hall?"],
            "And in the morning?",
            "What is the morning rate for the Main Hall?",
        ),
        (
            ["Is the car park free after 6pm?"],
            "And before 8am?",
            "Is the car park free before 8am?",
        ),
        (
            [WEEKDAY_RATE],
            "And after 6pm?",
            "What is the weekday rate for the Main Hall after 6pm?",
        ),
        # a follow-up of nothing but a day or time phrase needs no cue
        ([HIRE], "On Sundays?", "What is the hire rate for the Committee Room on Sundays?"),
        ([HIRE], "Weekends?", "What is the hire rate for the Committee Room at weekends?"),
        # a day said with a time of day: each part replaces its own
        (
            [HIRE],
            "And Sunday evenings?",
            "What is the hire rate for the Committee Room on Sunday evenings?",
        ),
        ([OPENING], "And on Sundays?", "What time does the library open on Sunday mornings?"),
        ([OPENING], "And in the evening?", "What time does the library open on Saturday evenings?"),
        ([OPENING], "And after 6pm?", "What time does the library open on Saturdays after 6pm?"),
    ],
)
def test_a_day_or_time_of_day_follow_up_fills_its_slot(history, question, standalone):
    got = condense_rule(question, history)
    assert got.standalone == standalone
    assert got.method == "rule"


def test_follow_ups_that_are_not_days_keep_their_old_paths():
    # a bare follow-up asks the previous question about another aspect
    got = condense_rule("And at what time?", ["Who switched on the Christmas lights?"])
    assert got.standalone == "And at what time (Who switched on the Christmas lights)?"
    got = condense_rule("And for three hours?", ["How much is one hour in Station Road car park?"])
    assert got.standalone == "And for three hours (Station Road)?"
    # "the day after" is a time phrase it does not resolve: left as asked
    assert condense_rule("And the day after?", [HIRE]).standalone == "And the day after?"


def test_a_question_that_names_its_own_day_carries_the_subject_without_the_old_one():
    got = condense_rule("How much is it on Sundays?", [WEEKDAY_RATE])
    assert got.standalone == "How much is it on Sundays (Main Hall; rate)?"


def test_the_trace_names_the_day_carried_and_days_are_not_names():
    got = condense_rule("And on Sundays?", [WEEKDAY_RATE])
    assert got.carried["days"] == ["sunday"]
    assert got.carried["names"] == ["Main Hall"]
    assert names_in("And on Sundays?") == []
    assert names_in("Weekends?") == []


def test_day_and_time_phrases_are_read_with_their_form():
    [p] = slot_phrases(HIRE)
    assert (p.kind, p.form, p.text, p.values, p.plural) == (
        "day", "adverbial", "on a weekday", ("weekday",), False
    )  # fmt: skip
    [p] = slot_phrases(WEEKDAY_RATE)
    assert (p.form, p.text) == ("modifier", "weekday")
    [p] = slot_phrases("Open Saturdays and Sundays?")
    assert (p.form, p.values, p.plural) == ("bare", ("saturday", "sunday"), True)
    [p] = slot_phrases("Is it free after 6pm?")
    assert (p.kind, p.values) == ("time", ("after 6pm",))
    assert slot_phrases("Where is the Christmas market held at Riverside?") == []


def test_the_check_rejects_a_rewrite_that_drops_a_day_or_a_time_of_day():
    assert check_rewrite("And on Sundays?", "What is the weekday rate for the Main Hall?") == (
        "drops the day sunday"
    )
    assert check_rewrite("And at weekends?", "What is the rate on Saturday and Sunday?") == ""
    assert "time of day" in check_rewrite("And in the evening?", "What is the rate?")


@pytest.mark.parametrize(
    ("history", "question", "standalone"),
    [
        (
            "What is on at the Sunday Club?",
            "On Saturdays?",
            "What is on at the Sunday Club on Saturdays?",
        ),
        (
            "When is the Friday Market open?",
            "And at weekends?",
            "When is the Friday Market open at weekends?",
        ),
        (
            "What time does the Sunday Times arrive?",
            "On Saturdays?",
            "What time does the Sunday Times arrive on Saturdays?",
        ),
    ],
)
def test_a_day_word_inside_a_name_is_no_day_slot(history, question, standalone):
    """ "the Sunday Club" is a name: the follow-up's day is added, never put in its place."""
    assert condense_rule(question, [history]).standalone == standalone


def test_a_range_of_days_covers_the_days_between():
    """ "Monday to Friday" keeps "weekdays" in a rewrite (it covers all five days)."""
    from chains.dayparts import days_covered
    from chains.followup import check_rewrite

    assert days_covered("Is the office open Monday to Friday?") == frozenset(
        {"monday", "tuesday", "wednesday", "thursday", "friday"}
    )
    weekdays = "Is the office open on weekdays?"
    assert check_rewrite(weekdays, "Is the office open Monday to Friday?") == ""


GLOVES = "Who supplies our nitrile gloves?"
SMALL_GLOVES = "How many boxes of the small nitrile gloves are left?"
CROWN = "How much is a porcelain crown privately?"


@pytest.mark.parametrize(
    ("history", "question", "standalone"),
    [
        # one-anaphora: the noun left out is the previous question's, after the follow-up's
        # own modifiers (it was passed on unchanged, and refused)
        ([GLOVES], "How many boxes of the small ones are left?", SMALL_GLOVES),
        ([GLOVES], "Which ones are out of stock?", "Which nitrile gloves are out of stock?"),
        # a same-kind qualifier of the antecedent gives way to the follow-up's
        (
            [SMALL_GLOVES],
            "How many of the medium ones are on order?",
            "How many of the medium nitrile gloves are on order?",
        ),
        # a pronoun for what the previous question asked about: put in its place, the cue
        # dropped (it was "And what's the reorder level for those (How many boxes ...)?")
        (
            [GLOVES, SMALL_GLOVES],
            "And what's the reorder level for those?",
            "What's the reorder level for the small nitrile gloves?",
        ),
        (
            [GLOVES],
            "What is the unit cost of them?",
            "What is the unit cost of our nitrile gloves?",
        ),
        # an earlier name is carried as before; a plural pronoun is the plural noun phrase
        (
            ["Who supplies Acme's nitrile gloves?"],
            "What's the reorder level for those?",
            "What's the reorder level for nitrile gloves (Acme)?",
        ),
        # a cue before a full question is dropped when context is added
        ([FAULT], "And how do I clear it?", "How do I clear it (inverter fault code E-217)?"),
    ],
)
def test_anaphora_are_replaced_by_what_the_previous_question_asked_about(
    history, question, standalone
):
    got = condense_rule(question, history)
    assert got.standalone == standalone
    assert got.method == "rule"


@pytest.mark.parametrize(
    ("history", "question"),
    [
        # "they" has its antecedent in the question itself
        (["What does the leave policy say about remote work?"],
         "What must contractors do before they start work?"),
        # "the other ones" names nothing
        ([GLOVES], "What about the other ones?"),
    ],
)  # fmt: skip
def test_anaphora_with_no_antecedent_before_them_are_left_alone(history, question):
    assert condense_rule(question, history).standalone == question


@pytest.mark.parametrize(
    ("history", "question", "standalone"),
    [
        # a payment qualifier replaces the previous one (it was "… privately (NHS)?")
        ([CROWN], "And on the NHS?", "How much is a porcelain crown on the NHS?"),
        ([CROWN], "On the NHS?", "How much is a porcelain crown on the NHS?"),
        (
            ["How much is a porcelain crown on the NHS?"],
            "And privately?",
            "How much is a porcelain crown privately?",
        ),
        # written in the form the previous question used
        (
            ["What is the private fee for a porcelain crown?"],
            "And on the NHS?",
            "What is the NHS fee for a porcelain crown?",
        ),
        # appended when the previous question had none
        (
            ["How much is a porcelain crown?"],
            "And on the NHS?",
            "How much is a porcelain crown on the NHS?",
        ),
        # sizes
        (
            [SMALL_GLOVES],
            "And the medium ones?",
            "How many boxes of the medium nitrile gloves are left?",
        ),
        (
            [SMALL_GLOVES],
            "What about large?",
            "How many boxes of the large nitrile gloves are left?",
        ),
        # a size modifier with none before qualifies what the previous question counted
        (
            ["How many boxes of nitrile gloves are left?"],
            "And the small ones?",
            "How many boxes of small nitrile gloves are left?",
        ),
        # days still fill their own slot
        (
            ["What time do you open on Monday?"],
            "And on Saturdays?",
            "What time do you open on Saturdays?",
        ),
    ],
)
def test_a_payment_or_size_follow_up_replaces_the_qualifier_of_its_kind(
    history, question, standalone
):
    got = condense_rule(question, history)
    assert got.standalone == standalone
    assert got.carried["form"] == "fragment"


def test_the_trace_names_the_qualifier_and_the_antecedent_carried():
    assert condense_rule("And on the NHS?", [CROWN]).carried["qualifiers"] == {"payment": "nhs"}
    got = condense_rule("What's the reorder level for those?", [SMALL_GLOVES]).carried
    assert got["antecedent"] == "the small nitrile gloves" and got["form"] == "anaphora"


def test_a_full_question_with_its_own_qualifier_carries_the_subject_without_the_old_one():
    got = condense_rule("How much is it on the NHS?", ["What is the private fee for a crown?"])
    assert got.standalone == "How much is it on the NHS (fee)?"


def test_a_subject_stops_at_a_verb_between_two_noun_phrases():
    from chains.followup import antecedent, subject_of

    q = "Which part of the engine drives the pump?"
    span = subject_of(q)
    assert span is not None and q[span[0] : span[1]] == "part of the engine"
    assert antecedent(q) == "the part of the engine"
    got = condense_rule("What separates it from the gearbox?", [q])
    assert got.standalone == "What separates the part of the engine from the gearbox?"


INSPECTION = "When is the inspection at 22 Chapel Row?"


@pytest.mark.parametrize(
    ("text", "names"),
    [
        # a house number before a name and a unit number after it are part of the name
        (INSPECTION, ["22 Chapel Row"]),
        ("And Apartment 14?", ["Apartment 14"]),
        ("Is 12b Mill Lane furnished?", ["12b Mill Lane"]),
        # an address's parts, joined by a comma after a number, are one name
        ("When is the inspection at Apartment 14, Harbour View?", ["Apartment 14, Harbour View"]),
        # a number that counts or measures is not part of a name, nor a period or money
        ("How many staff do 3 Northwind sites have?", ["Northwind"]),
        ("Did Adobe 3 years ago earn more than Adobe 3 million?", ["Adobe"]),
        ("How many of the 12 Trustees attended?", ["Trustees"]),
        ("What was the revenue in 2024 Northwind?", ["Northwind"]),
        ("Is £7 Orchard cheaper?", ["Orchard"]),
        # a list of names stays a list
        ("Compare Adobe, Microsoft and Apple", ["Adobe", "Microsoft and Apple"]),
    ],
)
def test_a_name_keeps_the_numbers_that_are_part_of_it(text, names):
    assert names_in(text) == names


@pytest.mark.parametrize(
    ("history", "question", "standalone"),
    [
        # the whole address is replaced: it was "When is the 7 at 22 Orchard Close?"
        ([INSPECTION], "What about 7 Orchard Close?", "When is the inspection at 7 Orchard Close?"),
        # it was "When is the 14 at 22 Apartment?"
        ([INSPECTION], "And Apartment 14?", "When is the inspection at Apartment 14?"),
        (
            ["When is the inspection at Apartment 14, Harbour View?"],
            "What about 7 Orchard Close?",
            "When is the inspection at 7 Orchard Close?",
        ),
        # of two names, the one of the follow-up's kind (an address for an address)
        (
            ["When is the inspection at 22 Chapel Row with Acme Lettings?"],
            "What about 7 Orchard Close?",
            "When is the inspection at 7 Orchard Close with Acme Lettings?",
        ),
        (
            ["When is the inspection at 22 Chapel Row with Acme Lettings?"],
            "And Hearth Agents?",
            "When is the inspection at 22 Chapel Row with Hearth Agents?",
        ),
    ],
)
def test_a_follow_up_naming_an_address_replaces_the_whole_address(history, question, standalone):
    got = condense_rule(question, history)
    assert got.standalone == standalone
    assert got.carried["form"] == "fragment" and "subject" not in got.carried


@pytest.mark.parametrize(
    ("history", "question", "standalone"),
    [
        # it was "What is the rent for 7 Mill Cottage?": the house number is the old name's
        (
            ["What is the rent for 7 Orchard Close?"],
            "And for Mill Cottage?",
            "What is the rent for Mill Cottage?",
        ),
        (
            ["What is the rent for Mill Cottage?"],
            "And for 7 Orchard Close?",
            "What is the rent for 7 Orchard Close?",
        ),
    ],
)
def test_a_new_name_takes_no_number_of_the_name_it_replaces(history, question, standalone):
    assert condense_rule(question, history).standalone == standalone


CALL_OUT = "How much does the electrician charge for a call-out?"


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        # after "does" the last word before the preposition is the verb, not the subject's
        (CALL_OUT, "electrician"),
        ("When does the Main Hall open?", "Main Hall"),
        ("What does the deposit scheme protect?", "deposit scheme"),
        # a verb the lists know, before or after, already ends the subject
        ("What does inverter fault code E-217 mean?", "inverter fault code E-217"),
        ("How much does a two-bedroom flat in Leeds cost?", "two-bedroom flat"),
        # no do-support: the words are all the subject's
        ("What is the call-out charge for a locksmith?", "call-out charge"),
    ],
)
def test_after_do_the_subject_stops_before_its_verb(question, subject):
    from chains.followup import subject_of

    span = subject_of(question)
    assert span is not None and question[span[0] : span[1]] == subject


@pytest.mark.parametrize(
    ("history", "question", "standalone"),
    [
        # it was "How much does the locksmith for a call-out?" (the verb went with the subject)
        ([CALL_OUT], "And the locksmith?", "How much does the locksmith charge for a call-out?"),
        (
            ["When does the Main Hall open?"],
            "What about the Committee Room?",
            "When does the Committee Room open?",
        ),
    ],
)
def test_a_noun_phrase_follow_up_replaces_the_subject_and_keeps_the_verb(
    history, question, standalone
):
    got = condense_rule(question, history)
    assert got.standalone == standalone
    assert got.carried["form"] == "fragment"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("What about out of hours?", [("adverbial", "out of hours")]),
        ("How much is an out-of-hours call-out?", [("modifier", "out of hours")]),
        ("Is it dearer after hours?", [("adverbial", "out of hours")]),
        ("Who answers outside office hours?", [("adverbial", "out of hours")]),
        ("And during normal working hours?", [("adverbial", "in hours")]),
        ("What are the opening hours?", []),  # what the hours are, not a time of day
        ("How long is the job in hours?", []),
    ],
)
def test_in_or_out_of_hours_is_a_time_of_day(text, found):
    assert [(p.form, p.values[0]) for p in slot_phrases(text) if p.kind == "time"] == found


LOCKSMITH = "How much does the locksmith charge for a call-out?"


@pytest.mark.parametrize(
    ("history", "question", "standalone"),
    [
        # it was "How much does the out of hours for a call-out?" (the locksmith lost)
        (
            [CALL_OUT, LOCKSMITH],
            "What about out of hours?",
            "How much does the locksmith charge for a call-out out of hours?",
        ),
        (
            ["How much does the locksmith charge for a call-out out of hours?"],
            "And during office hours?",
            "How much does the locksmith charge for a call-out during office hours?",
        ),
        (
            ["What is the out-of-hours call-out fee?"],
            "And during office hours?",
            "What is the call-out fee during office hours?",
        ),
    ],
)
def test_out_of_hours_fills_the_time_of_day_slot(history, question, standalone):
    got = condense_rule(question, history)
    assert got.standalone == standalone
    assert got.carried["form"] == "fragment" and "subject" not in got.carried


def test_the_check_keeps_in_or_out_of_hours():
    assert "out of hours" in check_rewrite("What about out of hours?", LOCKSMITH)
    assert check_rewrite("What about out of hours?", f"{LOCKSMITH[:-1]} out-of-hours?") == ""
