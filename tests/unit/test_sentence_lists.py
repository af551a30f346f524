"""Sentence ends decided by a line's shape (list items, fixed-width rows) and periods that
close an abbreviation before a number or a genus initial."""

from __future__ import annotations

from loaders.sentences import sentence_spans


def _sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in sentence_spans(text)]


def test_abbreviation_before_a_number_is_no_sentence_end() -> None:
    text = "If the alarm sounds at night, Porters (ext. 3100) will call the duty engineer."
    assert _sentences(text) == [text]
    assert len(_sentences("See p. 14 for the table. The rest follows.")) == 2


def test_a_sentence_ending_in_a_short_word_before_a_number_still_ends() -> None:
    assert _sentences("The tank is at 40 bar. 3 weeks of gas remain.") == [
        "The tank is at 40 bar.",
        "3 weeks of gas remain.",
    ]


def test_each_list_item_starts_a_sentence_however_long_the_line_above() -> None:
    text = (
        "- Site lead: Priya Shah (p.shah@example.org, room 2.04, mobile only) — ext. 2210\n"
        "- Fire warden for the second floor (east): Omar Reid, ext. 2291\n"
        "* Deputy warden for the second floor (west wing): Jo Kay"
    )
    assert _sentences(text) == text.split("\n")


def test_numbered_step_after_long_indented_lines_starts_a_sentence() -> None:
    text = (
        "  4) Choose the cycle:\n"
        '       Cycle A "SOFT"     - 30 C for 40 minutes (wool, silk, delicate items)\n'
        '       Cycle C "COTTON"   - 60 C for 90 minutes (towels, bedding, lab coats)\n'
        "  5) Record the cycle and your initials on the sheet by the machine door."
    )
    assert _sentences(text) == [line.strip() for line in text.split("\n")]


def test_hard_wrapped_prose_and_hanging_indents_stay_one_sentence() -> None:
    text = (
        "  2) Place the bags in the tray and open the neck of each bag a little\n"
        "     so that the steam can reach every part of the load inside."
    )
    assert len(_sentences(text)) == 1


def test_genus_initial_is_no_sentence_end() -> None:
    text = "Glycerol stocks of E. coli and B. subtilis strains are in rack 3."
    assert _sentences(text) == [text]


def test_a_dash_of_wrapped_prose_is_no_list_item() -> None:
    text = (
        "Please do not start any new cultures after Monday until the new cylinder is connected\n"
        "- the current one may run out mid-week."
    )
    assert len(_sentences(text)) == 1
