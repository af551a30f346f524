"""Payment and size qualifiers, the follow-up rule's typed slots (chains/qualifiers.py)."""

from __future__ import annotations

import pytest

from chains.qualifiers import qualifiers_in, render_qualifier


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("How much is a porcelain crown privately?", [("payment", "adverbial", "private")]),
        ("And on the NHS?", [("payment", "adverbial", "nhs")]),
        ("What is the NHS charge?", [("payment", "modifier", "nhs")]),
        ("Is it cheaper with insurance?", [("payment", "adverbial", "insurance")]),
        ("the small nitrile gloves", [("size", "modifier", "small")]),
        ("Do you have them in extra large?", [("size", "adverbial", "extra large")]),
        ("Are they in stock in XL?", [("size", "adverbial", "extra large")]),
        ("How large is the waiting room?", []),  # a question word, not a size
        ("Is there an xl fee?", []),  # a code written in lower case is no size
        ("Is parking free?", []),  # "free" alone is not a payment qualifier
    ],
)
def test_qualifiers_are_read_with_their_kind_form_and_value(text, found):
    assert [(q.kind, q.form, q.value) for q in qualifiers_in(text)] == found


def test_a_qualifier_span_is_its_text():
    text = "How much is a crown on the NHS?"
    (q,) = qualifiers_in(text)
    assert text[q.span[0] : q.span[1]] == q.text == "on the NHS"


def test_qualifiers_are_written_in_either_form():
    assert render_qualifier("payment", "nhs", "adverbial") == "on the NHS"
    assert render_qualifier("payment", "private", "modifier") == "private"
    assert render_qualifier("size", "medium", "adverbial") == "in medium"
    with pytest.raises(ValueError, match="'colour'"):
        render_qualifier("size", "colour", "modifier")
