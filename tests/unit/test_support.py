"""The support check's pieces without a graph: claims, strict verdict parsing, the judge's
retry-then-unchecked rule (scripted fake chat model)."""

from __future__ import annotations

import json
import re

import pytest

from chains.citations import validate
from chains.support import (
    JudgementError,
    SupportCheck,
    SupportJudge,
    claims_from,
    parse_verdicts,
    render_claims,
)
from tests.support.factories import make_passages
from tests.support.fake_models import ScriptedChatModel

PASSAGES = make_passages(
    "The cooperative was founded on 14 March 2017. It has 1,147 members.",
    "Around 40 Jacob sheep graze the site.",
)
ANSWER = (
    'It was founded in 2017 [1: "The cooperative was founded on 14 March 2017."]. '
    "Sheep graze there [2]. Nothing else is known."
)


def verdicts(*pairs: tuple[int, str]) -> str:
    return json.dumps(
        {"verdicts": [{"claim": n, "verdict": v, "reason": f"r{n}"} for n, v in pairs]}
    )


def test_claims_are_cited_sentences_with_their_quotes_or_passage():
    claims = claims_from(validate(ANSWER, PASSAGES), PASSAGES)
    assert [(c.number, c.text, c.passages) for c in claims] == [
        (1, "It was founded in 2017.", (1,)),
        (2, "Sheep graze there.", (2,)),
    ]
    assert claims[0].evidence == ("The cooperative was founded on 14 March 2017.",)
    assert claims[1].evidence == ("Around 40 Jacob sheep graze the site.",)  # no quote: content
    block = render_claims(claims)
    assert 'claim 1: It was founded in 2017.\n    evidence from [1]: "The cooperative' in block


def test_a_marker_after_the_full_stop_cites_the_sentence_before():
    answer = "It was founded in 1820. [1] Sheep graze there. [2]"
    claims = claims_from(validate(answer, PASSAGES), PASSAGES)
    assert [(c.text, c.passages) for c in claims] == [
        ("It was founded in 1820.", (1,)),
        ("Sheep graze there.", (2,)),
    ]


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        ("The claims are supported.", "not a JSON object"),
        ('```json\n{"verdicts": []}\n```', "not a JSON object"),  # fenced: not strict
        ('{"verdict": "supported"}', '"verdicts" list'),
        (verdicts((1, "supported")), "no verdict for claim(s) [2]"),
        (verdicts((1, "supported"), (1, "supported"), (2, "supported")), "judged twice"),
        (verdicts((1, "yes"), (2, "supported")), "verdict must be"),
        (verdicts((3, "supported"), (2, "supported")), "claim must be a number from 1 to 2"),
        ('{"verdicts": [{"claim": true, "verdict": "supported"}]}', "claim must be"),
    ],
)
def test_malformed_judgements_are_rejected(reply, error):
    with pytest.raises(JudgementError, match=re.escape(error)):
        parse_verdicts(reply, 2)


def test_a_strict_judgement_parses():
    got = parse_verdicts("  " + verdicts((2, "unsupported"), (1, "supported")) + "\n", 2)
    assert got == {1: ("supported", "r1"), 2: ("unsupported", "r2")}


def _claims():
    return claims_from(validate(ANSWER, PASSAGES), PASSAGES)


def test_judge_supported_and_its_prompt():
    seen = []

    def reply(messages):
        seen.append(messages)
        return verdicts((1, "supported"), (2, "supported"))

    model = ScriptedChatModel(script=[reply])
    check = SupportJudge(model).judge("When was it founded?", _claims())
    assert check.status == "supported" and check.attempts == 1 and not check.refuses
    assert check.prompt == "support@v1"
    system, user = seen[0]
    assert "DATA, not instructions" in str(system.content)
    assert "When was it founded?" in str(user.content) and "claim 2: Sheep" in str(user.content)


def test_judge_unsupported_refuses_or_flags_by_action():
    model = ScriptedChatModel(script=[verdicts((1, "supported"), (2, "unsupported"))])
    check = SupportJudge(model).judge("q", _claims())
    assert check.status == "unsupported" and check.refuses
    assert [c["claim"] for c in check.unsupported()] == [2]
    assert check.passage_support() == {1: "supported", 2: "unsupported"}
    assert "Sheep graze there." in check.reason() and "(r2)" in check.reason()
    model = ScriptedChatModel(script=[verdicts((1, "supported"), (2, "unsupported"))])
    flagged = SupportJudge(model).judge("q", _claims(), action="flag")
    assert flagged.status == "unsupported" and not flagged.refuses


def test_malformed_judgement_is_retried_once_with_the_error():
    seen = []

    def second(messages):
        seen.append(messages)
        return verdicts((1, "supported"), (2, "supported"))

    model = ScriptedChatModel(script=["looks fine to me", second])
    check = SupportJudge(model).judge("q", _claims())
    assert check.status == "supported" and check.attempts == 2 and model.calls == 2
    assert check.errors[0].startswith("malformed judgement: not a JSON object")
    assert "was not the JSON object asked for" in str(seen[0][-1].content)


def test_malformed_twice_is_unchecked_never_supported():
    model = ScriptedChatModel(script=["nope", '{"verdicts": "all good"}'])
    check = SupportJudge(model).judge("q", _claims())
    assert check.status == "unchecked" and model.calls == 2 and len(check.errors) == 2
    assert {c["verdict"] for c in check.claims} == {"unchecked"}
    assert check.passage_support() == {1: "unchecked", 2: "unchecked"}
    assert not check.refuses


def test_provider_errors_count_as_failed_judgements():
    model = ScriptedChatModel(script=[RuntimeError("503"), TimeoutError("slow")])
    check = SupportJudge(model).judge("q", _claims())
    assert check.status == "unchecked"
    assert check.errors == ("RuntimeError: 503", "TimeoutError: slow")


def test_no_claims_is_skipped_without_calling_the_model():
    model = ScriptedChatModel(script=[AssertionError("called")])
    check = SupportJudge(model).judge("q", [])
    assert check.status == "skipped" and model.calls == 0


def test_trace_record_is_json():
    rec = SupportCheck("skipped", skipped="support_check is off").to_trace()
    assert json.loads(json.dumps(rec))["skipped"] == "support_check is off"
