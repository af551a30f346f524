"""A chat model's refusal in its own words (chains/model_refusals.py): whole answers only."""

from __future__ import annotations

import pytest

from chains.model_refusals import MAX_SENTENCES, is_refusal, is_refusal_sentence


@pytest.mark.parametrize(
    "prose",
    [
        "I could not find the answer in the passages.",
        "Unknown",
        "The passages do not mention this fault code.",
        "I don't know.",
        "I don’t know the answer to that.",
        "The passages do not say.",
        "The provided documents don't specify when the AGM is held.",
        "None of the passages mention a refund policy.",
        "The context contains no information about parking.",
        "I'm unable to determine that from the documents.",
        "Not stated in the passages.",
        "It is not mentioned.",
        "There is no information about this in the documents.",
        "There is no mention of a fee.",
        "No information.",
        "Insufficient information.",
        "The answer cannot be determined from the passages.",
        "I don't know. The passages do not say.",  # every sentence a refusal
    ],
)
def test_refusals_in_words(prose):
    assert is_refusal(prose)


@pytest.mark.parametrize(
    "prose",
    [
        "The AGM is not held in August; it is held in June.",
        "The AGM is not held in August.",
        "Not provided for contractors.",
        "No information is shared with third parties.",
        "There is no evidence of damage to the roof.",
        "The gym is not available on weekends.",
        "Unknown callers are blocked.",
        "No.",
        "The passages do not mention a fee, but membership costs £5.",
        "The passages do not mention a fee. Membership costs £5.",  # a sentence answers
        "",
    ],
)
def test_answers_that_merely_hold_a_negation_are_no_refusal(prose):
    assert not is_refusal(prose)


def test_a_long_answer_is_never_a_refusal():
    assert is_refusal_sentence("I don't know.")
    assert not is_refusal(" ".join(["I don't know."] * (MAX_SENTENCES + 1)))
