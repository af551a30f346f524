"""What a streamed draft shows of the answer's citation markers (:class:`MarkerDraft`).

No model: the answer text is fed in pieces, split at every position.
"""

from __future__ import annotations

import pytest

from chains.citations import bare_markers, unfinished_marker
from chains.streaming import MarkerDraft

#: Every marker form the grammar reads, in several bracket pairs, with prose around them.
ANSWER = (
    'Fault E-217 means low water [1: "Fault code E-217 means the water level is low."]. '
    "Refill it 【2】, see [Passage 3: “Descale monthly.”] and ［2］ and [1, 2]; "
    "[x] and [sic] stay, as does a range [0, 1) and 【4: ‘quote’】."
)
SHOWN = (
    "Fault E-217 means low water [1]. Refill it [2], see [3] and [2] and [1][2]; "
    "[x] and [sic] stay, as does a range [0, 1) and [4]."
)


def streamed(pieces: list[str]) -> tuple[list[str], str]:
    """What the draft shows after each piece, and in all (its flush included)."""
    draft = MarkerDraft()
    out = [draft.feed(p) for p in pieces]
    return out, "".join(out) + draft.flush()


def test_bare_markers_is_the_form_the_validated_answer_writes():
    assert bare_markers(ANSWER) == SHOWN


@pytest.mark.parametrize("cut", range(len(ANSWER) + 1))
def test_a_marker_split_anywhere_is_shown_only_as_n(cut):
    pieces, total = streamed([ANSWER[:cut], ANSWER[cut:]])
    assert total == SHOWN
    assert SHOWN.startswith(pieces[0])  # nothing shown is taken back: no raw or half marker


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8, 13])
def test_every_prefix_of_the_draft_is_a_prefix_of_the_answer(size):
    pieces = [ANSWER[i : i + size] for i in range(0, len(ANSWER), size)]
    out, total = streamed(pieces)
    assert total == SHOWN
    shown = ""
    for piece in out:
        shown += piece
        assert SHOWN.startswith(shown), shown


def test_only_the_unfinished_tail_is_held_back():
    draft = MarkerDraft()
    assert draft.feed("Low water [") == "Low water "
    assert draft.feed('1: "the wat') == ""
    assert draft.feed('er"] and') == "[1] and"
    assert draft.feed(" [note]") == " [note]"  # no marker: shown as written
    assert draft.flush() == ""


def test_a_marker_never_completed_is_not_shown():
    draft = MarkerDraft()
    assert draft.feed('Low water [1: "the water lev') == "Low water "
    assert draft.flush() == ""  # cut off (max_tokens): the validated answer drops it too
    assert unfinished_marker('a [1: "b') == 2
    assert unfinished_marker("a [1] b") == len("a [1] b")


def test_a_marker_never_closed_holds_back_at_most_max_held_characters():
    from chains.streaming import MAX_HELD

    draft = MarkerDraft()
    shown = draft.feed('Fees are due monthly [1: "')
    assert shown == "Fees are due monthly "
    tokens = ["word "] * (MAX_HELD // 5 + 50)  # the model never closes the quote
    for t in tokens:
        shown += draft.feed(t)
    # past the bound the opening is shown as written, and what follows with it
    assert shown.startswith('Fees are due monthly [1: "word ')
    assert len(draft._held) <= MAX_HELD
