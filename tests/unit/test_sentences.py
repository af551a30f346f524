"""Unit tests for ``loaders.sentences.sentence_spans``."""

from __future__ import annotations

import random

import pytest

from loaders.sentences import MIN_CHARS, is_label_line, sentence_spans


def _texts(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)]


def check_spans(text: str, spans: list[tuple[int, int]], min_chars: int = MIN_CHARS) -> None:
    """Ordered, disjoint, stripped spans that leave no non-whitespace character out."""
    prev_end = 0
    covered = bytearray(len(text))
    for s, e in spans:
        assert prev_end <= s < e <= len(text)
        assert text[s:e] == text[s:e].strip()
        covered[s:e] = b"\x01" * (e - s)
        prev_end = e
    for pos, ch in enumerate(text):
        assert ch.isspace() or covered[pos], f"{ch!r} at {pos} is in no sentence"
    if len(spans) > 1:
        short = [(s, e) for s, e in spans if e - s < min_chars and not is_label_line(text, s, e)]
        assert not short, "a short fragment was not merged"


def test_splits_at_sentence_punctuation() -> None:
    text = "The inverter tripped. Dr. Smith reset it at noon. Was it fixed? Yes, it was fixed!"
    assert _texts(text) == [
        "The inverter tripped.",
        "Dr. Smith reset it at noon.",
        "Was it fixed?",
        "Yes, it was fixed!",
    ]


def test_abbreviations_do_not_end_sentences() -> None:
    text = "Use gloves, e.g. nitrile ones, always. Then wash your hands well."
    assert _texts(text) == ["Use gloves, e.g. nitrile ones, always.", "Then wash your hands well."]


def test_closing_quote_stays_with_its_sentence() -> None:
    text = 'He said "stop the work now." Then he left the site.'
    assert _texts(text) == ['He said "stop the work now."', "Then he left the site."]


def test_blank_line_ends_a_sentence() -> None:
    assert _texts("Heading without stop\n\nBody sentence goes here.") == [
        "Heading without stop",
        "Body sentence goes here.",
    ]


def test_short_fragments_merge_forward_and_at_the_end_backward() -> None:
    assert _texts("Hi. This is a longer sentence.") == ["Hi. This is a longer sentence."]
    assert _texts("This is a longer sentence. Ok.") == ["This is a longer sentence. Ok."]
    assert _texts("Tiny.") == ["Tiny."]


@pytest.mark.parametrize("text", ["", "   ", "\n\n \t\n"])
def test_blank_text_has_no_sentences(text: str) -> None:
    assert sentence_spans(text) == []


def test_spans_exclude_surrounding_whitespace() -> None:
    text = "  \n First sentence is here.   Second sentence is here.  \n"
    spans = sentence_spans(text)
    check_spans(text, spans)
    assert [text[s:e] for s, e in spans] == ["First sentence is here.", "Second sentence is here."]


@pytest.mark.parametrize("seed", range(60))
def test_random_text_spans_are_ordered_stripped_and_complete(seed: int) -> None:
    rng = random.Random(seed)
    pieces = [
        "word",
        "Dr.",
        "e.g.",
        "No.",
        "3.2%",
        "(note)",
        '"quoted."',
        "end.",
        "why?",
        "yes!",
        "\n",
        "\n\n",
        "  ",
        "\t",
        "a",
        "£412,860",
        "SG-4410X",
        "Fig.",
        "ok.)",
        "’",
    ]
    text = " ".join(rng.choice(pieces) for _ in range(rng.randint(0, 120)))
    check_spans(text, sentence_spans(text))


def test_a_heading_line_is_never_glued_onto_the_next_sentence() -> None:
    text = "People\nAt the end of 2025 we employed 412 staff across three sites."
    assert _texts(text) == [
        "People",
        "At the end of 2025 we employed 412 staff across three sites.",
    ]
    text = "Opening hours are posted online.\n3.2 Warranty\nThe pump is covered for 24 months."
    assert _texts(text) == [
        "Opening hours are posted online.",
        "3.2 Warranty",
        "The pump is covered for 24 months.",
    ]
    assert _texts("Returns\n30 days from delivery, unused items only.") == [
        "Returns",
        "30 days from delivery, unused items only.",
    ]


def test_a_faq_question_line_is_its_own_sentence() -> None:
    text = "### Can I get a refund?\nYes. Refunds are paid within 14 days of the return."
    assert _texts(text) == [
        "### Can I get a refund?",
        "Yes. Refunds are paid within 14 days of the return.",
    ]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Dr. Smith reset the pump at noon on Friday.", 1),
        ("Wear gloves, e.g. this nitrile pair, when you clean it.", 1),
        # a list item wrapped onto a second line, continued in lower case
        ("- Returns are accepted within 30 days of\n  delivery if the item is unused.", 1),
        # prose hard-wrapped by PDF extraction, a long line continued with a capital
        ("The committee approved the revised budget for the new\nHarbour Road depot in May.", 1),
        # a short line continued in lower case is prose, not a label
        ("Staff may work\nfrom home two days a week.", 1),
    ],
)
def test_what_the_heading_rule_does_not_split(text: str, kept: int) -> None:
    assert len(sentence_spans(text)) == kept, _texts(text)


def test_label_line_needs_a_whole_line_and_a_capitalised_next_line() -> None:
    text = "Refunds\nWe refund the price.\nrefunds\nare paid."
    assert is_label_line(text, 0, 7)
    assert not is_label_line("Refunds\nwe refund the price.", 0, 7)  # continued in lower case
    assert not is_label_line("See: Refunds\nWe refund it.", 5, 12)  # not a whole line
    assert not is_label_line("Refunds are paid.\nWe refund it.", 0, 17)  # a sentence
    assert not is_label_line("Refunds", 0, 7)  # nothing follows
    assert not is_label_line("251,960\n236,310", 0, 7)  # a figure, not a label
    assert not is_label_line("2025 (GBP)\n2024 (GBP)", 0, 10)
    assert is_label_line("3.2 Warranty\nThe pump is covered.", 0, 12)


def test_each_long_table_row_is_a_sentence() -> None:
    csv_rows = (
        "Nilgiri Hills Estates,India,Ravi Menon,ravi@nilgiri-estates.example,42,60 days\n"
        "Fujian Cloud Tea Co,China,Mei Lin,mei.lin@fujiancloud.example,56,Prepaid\n"
        "Cape Rooibos Growers,South Africa,Johan de Wet,johan@caperooibos.example,35,30 days"
    )
    assert _texts(csv_rows) == csv_rows.split("\n")
    sheet_rows = (
        "TEA-001 | Assam Breakfast | Avonmouth warehouse, bay 4 | 820 | 300\n"
        "TEA-002 | Earl Grey Supreme | Avonmouth warehouse, bay 7 | 410 | 250"
    )
    assert _texts(sheet_rows) == sheet_rows.split("\n")
    tab_rows = "Region\tDelivery day\tOrder cut-off for the week\tCarrier\n" * 2
    assert _texts(tab_rows) == tab_rows.strip().split("\n")


@pytest.mark.parametrize(
    "text",
    [
        # hard-wrapped prose with commas (a space after each) stays one sentence
        "Revenue grew in the north, the south, the east and the west, as planned\n"
        "in March, in April, in May and in June, and the board agreed on it",
        # figures' thousands separators are not CSV records
        "Revenue of 1,204,000 was reported by the northern region in the year\n"
        "against 1,100,000 in the previous year and the board agreed on it",
        # different numbers of separators: not rows of one table
        "Region | Units sold and the quarter they were sold in by our team\n"
        "the figures were checked by the finance team in the last week",
    ],
)
def test_prose_lines_are_not_table_rows(text: str) -> None:
    assert len(sentence_spans(text)) == 1


def test_key_value_lines_are_sentences_of_their_own():
    from loaders.sentences import sentence_spans

    text = (
        "Headline numbers\nRevenue £1.42m, up 11% on Q3 2025\n"
        "Wholesale accounts: 212 (18 new this quarter)\nOnline orders: 9,870"
    )
    got = [text[a:b] for a, b in sentence_spans(text)]
    assert "Wholesale accounts: 212 (18 new this quarter)" in got
    assert "Online orders: 9,870" in got
    # a wrapped line of prose that happens to hold a colon is still one sentence
    prose = (
        "The trust's plan for the year covers three areas: leakage, metering and the\n"
        "replacement of the oldest mains in the north of the county."
    )
    assert len(sentence_spans(prose)) == 1


@pytest.mark.parametrize(
    "text",
    [
        "Note: orders placed after 2pm on Friday are dispatched on\n"
        "Monday: allow three working days for delivery.",
        "Important: refunds go to the original card, except for\n"
        "gift cards: these are refunded as store credit.",
    ],
)
def test_a_wrapped_sentence_with_colons_is_not_a_list_of_facts(text):
    assert len(sentence_spans(text)) == 1


def test_bulleted_key_value_lines_are_sentences_of_their_own():
    text = "- Wholesale accounts: 212 (18 new this quarter)\n- Online orders: 9,870"
    assert [text[a:b] for a, b in sentence_spans(text)] == text.split("\n")


def test_key_value_lines_with_lower_case_values_are_records_too():
    text = (
        "Delivery: standard delivery takes 3-5 working days across the UK mainland\n"
        "Returns: within 30 days of delivery, unused and in original packaging"
    )
    assert len(sentence_spans(text)) == 2


def test_lines_that_are_paragraphs_end_their_sentences() -> None:
    # a slide's bullets: long lines without a full stop, each a paragraph of its own
    text = (
        "Things that really help\n\n"
        "Practise putting on a coat and doing up shoes (Velcro is your friend)\n"
        "A bag of spare pants, socks and leggings on their peg, just in case\n"
        "Wellies that can live at school"
    )
    spans = sentence_spans(text, line_paragraphs=True)
    check_spans(text, spans)
    assert [text[s:e] for s, e in spans] == [
        "Things that really help",
        "Practise putting on a coat and doing up shoes (Velcro is your friend)",
        "A bag of spare pants, socks and leggings on their peg, just in case",
        "Wellies that can live at school",
    ]
    # a PDF's hard-wrapped prose stays one sentence
    assert len(sentence_spans(text)) == 2


def test_a_leader_joins_its_line_and_each_leader_line_is_a_record() -> None:
    text = (
        "Your slot is below - please check the date for your address:\n\n"
        "  Flat 2, 12 Marine Terrace ....... Tuesday 12 January, 10:00-10:30\n"
        "  3 Ropewalk (top floor) .......... Tuesday 12 January, 11:15-11:45\n"
        "  22 Chapel Row ................... Wednesday 13 January, 14:00-15:00\n"
        "  Orchard Close . . . . . . . . . . Thursday 14 January, 09:30-10:15\n"
        "  Replacement fob __________ £35\n\n"
        "You don't need to be at home."
    )
    spans = sentence_spans(text)
    check_spans(text, spans)
    assert [text[s:e] for s, e in spans] == [
        "Your slot is below - please check the date for your address:",
        "Flat 2, 12 Marine Terrace ....... Tuesday 12 January, 10:00-10:30",
        "3 Ropewalk (top floor) .......... Tuesday 12 January, 11:15-11:45",
        "22 Chapel Row ................... Wednesday 13 January, 14:00-15:00",
        "Orchard Close . . . . . . . . . . Thursday 14 January, 09:30-10:15",
        "Replacement fob __________ £35",
        "You don't need to be at home.",
    ]


def test_an_ellipsis_and_trailing_dots_still_end_sentences() -> None:
    text = "He waited... Then he left the site. The list ends here....\nNext line here."
    assert _texts(text) == [
        "He waited...",
        "Then he left the site.",
        "The list ends here....",
        "Next line here.",
    ]
