"""The answer judge without a graph: its request, strict reply parsing, the retry-then-unjudged
rule, ALCE recall and precision, and the aggregate and paired figures (scripted judge)."""

from __future__ import annotations

import json
import re

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from chains.citations import validate
from chains.models import ModelSettings
from chains.support import JudgementError, claims_from
from citerag.eval import metrics as stats
from citerag.eval.judge import (
    AnswerJudge,
    JudgedRun,
    compare_judged,
    gold_answers,
    judge_model,
    judge_run,
    parse_reply,
    render_claims,
    render_gold,
)
from citerag.eval.questions import Evidence, Question
from citerag.eval.report import judge_table
from citerag.eval.runner import Generation
from tests.support.factories import make_passages
from tests.support.fake_models import ScriptedChatModel

PASSAGES = make_passages(
    "The cooperative was founded on 14 March 2017. It has 1,147 members.",
    "The founding meeting was held in Oakhurst Village Hall in 2017.",
)
# claim 1 cites [1] and [2]; claim 2 cites [2] alone; the last sentence cites nothing
ANSWER = (
    'It was founded in 2017 [1: "The cooperative was founded on 14 March 2017."] '
    '[2: "in Oakhurst Village Hall in 2017"]. It has 2,000 members [2]. '
    "Nothing else is known about it today."
)
EV = [Evidence("handbook.md", needle="founded")]


def question(qid: str = "q1", **meta) -> Question:
    return Question(qid, "When was the cooperative founded?", False, list(EV), meta)


def answered(answer: str = ANSWER) -> Generation:
    v = validate(answer, PASSAGES)
    return Generation({"status": "answered", "answer": v.answer, "citations": []}, v, PASSAGES)


def refused() -> Generation:
    return Generation({"status": "no_evidence", "answer": "No evidence.", "citations": []})


def reply(
    verdicts=(
        (1, "supported", [(1, "supported", "unsupported"), (2, "unsupported", "supported")]),
        (2, "unsupported", None),
    ),
    relevance="yes",
    correctness: str | None = "correct",
) -> str:
    items = []
    for n, v, cites in verdicts:
        item = {"claim": n, "verdict": v, "reason": f"r{n}"}
        if cites is not None:
            item["citations"] = [{"passage": p, "alone": a, "without": w} for p, a, w in cites]
        items.append(item)
    return json.dumps({"verdicts": items, "relevance": relevance, "correctness": correctness})


def claims():
    return claims_from(validate(ANSWER, PASSAGES), PASSAGES)


def test_claims_keep_their_evidence_per_passage_and_the_request_shows_it():
    c = claims()
    assert [(x.number, x.passages) for x in c] == [(1, (1, 2)), (2, (2,))]
    assert c[0].sources == (
        (1, ("The cooperative was founded on 14 March 2017.",)),
        (2, ("in Oakhurst Village Hall in 2017",)),
    )
    assert c[1].sources == ((2, ("in Oakhurst Village Hall in 2017",)),)  # the answer's quote
    block = render_claims(c)
    assert block.startswith("claim 1: It was founded in 2017.\n    cites [1], [2]\n")
    assert '    [2] "in Oakhurst Village Hall in 2017"' in block
    assert render_gold([]) == "(none)" and render_gold(["2017"]) == "2017"
    assert render_gold(["a", "b"]) == "any of:\n- a\n- b"
    judge = AnswerJudge(ScriptedChatModel(script=["{}"]))
    msgs = judge.messages("When?", "It was 2017 [1].", c, ["2017"])
    assert judge.prompt.id == "judge@v1"
    assert "You grade an answer" in msgs[0].content
    user = msgs[1].content
    assert "QUESTION\nWhen?" in user and "ANSWER (data only)\nIt was 2017 [1]." in user
    assert block in user and user.rstrip().endswith("GOLD ANSWER\n2017")


@pytest.mark.parametrize(
    ("text", "gold", "error"),
    [
        ("Everything is supported.", True, "not a JSON object"),
        ("```json\n" + reply() + "\n```", True, "not a JSON object"),
        (reply(relevance="maybe"), True, "relevance must be"),
        (reply(correctness=None), True, "correctness must be correct or incorrect"),
        (reply(verdicts=((1, "supported", None), (2, "supported", None))), True, "give a"),
        (
            reply(verdicts=((1, "supported", [(1, "supported", "unsupported")]), (2, "x", None))),
            True,
            "verdict must be",
        ),
        (
            reply(verdicts=((1, "supported", [(1, "supported", "unsupported")]),)),
            True,
            "no verdict for claim(s) [2]",
        ),
        (
            reply(
                verdicts=(
                    (1, "supported", [(1, "supported", "unsupported")]),
                    (2, "supported", None),
                )
            ),
            True,
            "no citation verdict for passage(s) [2]",
        ),
        (
            reply(
                verdicts=(
                    (1, "supported", [(1, "supported", "no"), (2, "supported", "supported")]),
                    (2, "supported", None),
                )
            ),
            True,
            "without must be supported or unsupported",
        ),
        (
            reply(
                verdicts=(
                    (1, "supported", [(1, "supported", "supported"), (3, "yes", "yes")]),
                    (2, "supported", None),
                )
            ),
            True,
            r"passage must be one of \[1, 2\]",
        ),
        (
            reply(
                verdicts=(
                    (1, "supported", [(1, "supported", "supported")] * 2),
                    (2, "supported", None),
                )
            ),
            True,
            "passage 1 judged twice",
        ),
    ],
)
def test_malformed_replies_are_named(text, gold, error):
    with pytest.raises(JudgementError, match=re.escape(error) if "(s)" in error else error):
        parse_reply(text, claims(), gold)


def test_reply_without_gold_ignores_correctness_and_one_citation_claims_need_no_citations():
    r = parse_reply(reply(correctness="banana"), claims(), has_gold=False)
    assert r.correctness is None and r.relevance == "yes"
    assert r.verdicts == {1: ("supported", "r1"), 2: ("unsupported", "r2")}
    assert r.citations == {1: {1: ("supported", "unsupported"), 2: ("unsupported", "supported")}}
    assert parse_reply(reply(), claims(), has_gold=True).correctness == "correct"
    empty = json.dumps({"verdicts": [], "relevance": "no"})
    assert parse_reply(empty, [], has_gold=False).verdicts == {}


def test_alce_recall_and_precision_of_one_answer():
    judge = AnswerJudge(ScriptedChatModel(script=[reply()]))
    j = judge.judge(question(answer="14 March 2017"), answered())
    assert j.judged == "judged" and j.attempts == 1 and j.errors == []
    assert [(c.claim, c.verdict) for c in j.claims] == [
        (1, "supported"),
        (2, "unsupported"),
        (0, "uncited"),  # a statement without a citation fails ALCE citation recall
    ]
    # claim 1: [1] supports it alone (precise); [2] does not, and [1] without it still does:
    # [2] is imprecise. Claim 2 is unsupported, so its citation is not precise either.
    assert [(x.passage, x.precise) for x in j.claims[0].citations] == [(1, True), (2, False)]
    assert [(x.passage, x.precise) for x in j.claims[1].citations] == [(2, False)]
    assert j.relevance == "yes" and j.correctness == "correct" and j.gold == ["14 March 2017"]
    assert j.scores() == {
        "faithfulness": pytest.approx(1 / 3),
        "citation_precision": pytest.approx(1 / 3),
        "relevance": 1.0,
        "correctness": 1.0,
        "refusal": None,
    }
    rec = j.to_json()
    assert rec["claims"][0]["citations"][1] == {
        "passage": 2,
        "alone": "unsupported",
        "without": "supported",
        "precise": False,
    }
    json.dumps(rec)


def test_a_citation_that_is_needed_together_with_another_is_precise():
    # neither passage alone supports the claim and removing either loses support: both
    # citations are precise (ALCE's condition needs both "not alone" and "not needed")
    r = reply(
        verdicts=(
            (1, "supported", [(n, "unsupported", "unsupported") for n in (1, 2)]),
            (2, "supported", None),
        ),
        relevance="partial",
        correctness="incorrect",
    )
    j = AnswerJudge(ScriptedChatModel(script=[r])).judge(question(answer="2017"), answered())
    assert [x.precise for c in j.claims for x in c.citations] == [True, True, True]
    assert j.scores()["faithfulness"] == pytest.approx(2 / 3)  # the uncited sentence fails
    assert j.scores()["relevance"] == 0.5 and j.scores()["correctness"] == 0.0


def test_malformed_twice_is_unjudged_never_supported():
    model = ScriptedChatModel(script=["All claims are supported.", '{"verdicts": "yes"}'])
    j = AnswerJudge(model).judge(question(answer="2017"), answered())
    assert model.calls == 2 and j.attempts == 2
    assert j.judged == "unjudged" and len(j.errors) == 2
    assert all(e.startswith("malformed judgement") for e in j.errors)
    assert [c.verdict for c in j.claims] == ["unjudged", "unjudged", "uncited"]
    assert all(x.precise is None for c in j.claims for x in c.citations)
    assert j.relevance == "unjudged" and j.correctness == "unjudged"
    assert j.scores() == dict.fromkeys(
        ("faithfulness", "citation_precision", "relevance", "correctness", "refusal")
    )


def test_malformed_then_valid_reply_counts_and_the_retry_names_the_error():
    seen = []

    def second(messages):
        seen.append(messages)
        return reply()

    model = ScriptedChatModel(script=["verdict: supported", second])
    j = AnswerJudge(model).judge(question(), answered())
    assert j.judged == "judged" and j.attempts == 2 and len(j.errors) == 1
    retry = seen[0]
    assert isinstance(retry[-2], AIMessage) and retry[-2].content == "verdict: supported"
    assert isinstance(retry[-1], HumanMessage) and "not a JSON object" in retry[-1].content


def test_provider_error_then_reply():
    model = ScriptedChatModel(script=[TimeoutError("slow"), reply()])
    j = AnswerJudge(model).judge(question(), answered())
    assert j.judged == "judged" and j.errors == ["TimeoutError: slow"]


def test_questions_not_answered_cost_no_call():
    judge = AnswerJudge(ScriptedChatModel(script=[AssertionError("no call expected")]))
    j = judge.judge(question(answer="2017"), refused())
    assert j.judged == "not_answered" and j.attempts == 0
    assert j.correctness == "not_answered" and j.scores()["correctness"] == 0.0
    assert j.scores()["faithfulness"] is None and j.relevance is None
    un = Question("u1", "What is the offside rule?", True)
    j = judge.judge(un, refused())
    assert j.refusal == "refused" and j.scores()["refusal"] == 1.0 and j.correctness is None
    j = judge.judge(question(), refused())  # no gold: nothing to score
    assert j.correctness is None and j.scores()["correctness"] is None
    failed = Generation({"status": "failed", "answer": "", "citations": []})
    assert judge.judge(un, failed).refusal == "failed"


def test_gold_answers_from_financebench_and_squad_metadata():
    assert gold_answers(question(answer="$1,577.00")) == ["$1,577.00"]
    assert gold_answers(question(answers=["1868", "in 1868", "1868"])) == ["1868", "in 1868"]
    assert gold_answers(question(plausible_answers=["x"], answer=None)) == []
    assert gold_answers(question(answer=["a", " "])) == ["a"]


def test_run_figures_intervals_and_paired_comparison():
    qs = [question("q1", answer="2017"), question("q2", answer="2017"), question("q3")]
    qs.append(Question("u1", "Offside?", True))
    answers = [answered(), answered(), answered(), refused()]
    good = reply(
        verdicts=(
            (1, "supported", [(1, "supported", "supported"), (2, "supported", "supported")]),
            (2, "supported", None),
        )
    )
    # A: q1 as above, q2 all supported, q3 malformed twice; B: every answer as in `reply()`
    run_a = judge_run(
        AnswerJudge(ScriptedChatModel(script=[reply(), good, "no", "no"])),
        "A",
        qs,
        answers,
        progress=False,
    )
    s = run_a.summary_objects()
    assert s["answered"] == 3
    # statements: 3 per answer; supported 1 (q1) + 2 (q2) + 0 (q3 unjudged)
    assert (s["faithfulness"].k, s["faithfulness"].n) == (3, 9)
    assert s["statements"] == {"supported": 3, "unsupported": 1, "uncited": 3, "unjudged": 2}
    # citations: q1 1 precise of 3; q2 3 of 3 (supported by both, each alone); q3 3 unjudged
    assert (s["citation_precision"].k, s["citation_precision"].n) == (4, 9)
    assert s["citations"] == {"precise": 4, "imprecise": 2, "unjudged": 3}
    assert (s["relevance"].k, s["relevance"].n) == (2, 3)
    assert (s["correctness"].k, s["correctness"].n) == (2, 2)  # q3 has no gold
    assert (s["refusal"].k, s["refusal"].n) == (1, 1)
    assert (s["unjudged"].k, s["unjudged"].n) == (1, 3)
    assert s["faithfulness"].interval == stats.wilson_interval(3, 9)
    out = run_a.summary()
    assert out["prompt"] == "judge@v1" and out["model"] == "ScriptedChatModel"
    assert out["faithfulness"]["interval"] == "wilson"
    recs = run_a.records()
    assert [r["judge"]["judged"] for r in recs] == ["judged", "judged", "unjudged", "not_answered"]
    assert recs[0]["config"] == "A" and recs[0]["kind"] == "generation"
    json.dumps(recs)

    run_b = judge_run(
        AnswerJudge(ScriptedChatModel(script=[reply()])), "B", qs, answers, progress=False
    )
    cmp = compare_judged(run_a, run_b)
    # faithfulness: q2 A 2/3 > B 1/3 (win), q1 tie, q3 unjudged on A's side: left out
    f = cmp["faithfulness"]
    assert (f.wins, f.losses, f.ties, f.n, f.win_ids) == (1, 0, 1, 2, ["q2"])
    assert f.p_value == 1.0
    assert (f.mean_a, f.mean_b) == (pytest.approx(1 / 2), pytest.approx(1 / 3))
    assert cmp["correctness"].n == 2 and cmp["refusal"].n == 1
    assert cmp["citation_precision"].fmt() == "+1/−0 p=1.000 (n=2)"
    text = judge_table([run_a, run_b])
    assert "| faithfulness (ALCE citation recall) " in text and "3/9 0.333" in text
    assert "answers unjudged" in text
    assert [c.strip() for c in text.splitlines()[0].strip("|").split("|")] == ["figure", "A", "B"]


def test_compare_needs_the_same_questions():
    run = JudgedRun("A", [], [], [])
    other = judge_run(AnswerJudge(ScriptedChatModel(script=["{}"])), "B", [question()], [refused()])
    with pytest.raises(ValueError, match="same questions"):
        compare_judged(run, other)


def test_paired_scores_sign_test():
    res = stats.paired_scores([1.0, 0.5, None, 0.0, 1.0], [0.0, 0.5, 1.0, 1.0, 0.0], list("abcde"))
    assert (res.wins, res.losses, res.ties, res.n) == (2, 1, 1, 4)
    assert res.win_ids == ["a", "e"] and res.loss_ids == ["d"]
    assert res.p_value == stats.sign_test(2, 1)
    assert res.to_json()["p_sign_test"] == 1.0
    with pytest.raises(ValueError):
        stats.paired_scores([1.0], [])


def test_judge_model_passes_instances_and_builds_specs_at_temperature_zero(monkeypatch):
    fake = ScriptedChatModel(script=["{}"])
    assert judge_model(fake) is fake
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used")
    model = judge_model(
        "openai:gpt-4.1-mini", ModelSettings(base_url="http://localhost:8000/v1", timeout_s=9)
    )
    assert model.temperature == 0 and model.request_timeout == 9
    assert model.openai_api_base == "http://localhost:8000/v1"
    assert model.model_name == "gpt-4.1-mini"


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("opena:gpt-4.1-mini", "unknown provider 'opena' in 'opena:gpt-4.1-mini'"),
        ("gpt-4.1-mini", "is not a model spec"),
    ],
)
def test_a_judge_spec_gets_the_chat_models_provider_check(spec, said, tmp_path, capsys):
    """``--judge opena:gpt-4.1-mini`` went past the check ``--model`` gets: LangChain read it
    as a bare model name and guessed its provider, after the whole retrieval run."""
    from chains.models import ModelSetupError
    from citerag.cli import main

    with pytest.raises(ModelSetupError, match=re.escape(said)):
        judge_model(spec)
    questions = tmp_path / "q.jsonl"
    questions.write_text('{"question": "When?"}\n')
    index = tmp_path / "no-index"
    assert main(["eval", str(questions), "--index", str(index), "--judge", spec]) == 2
    err = capsys.readouterr().err
    assert err.startswith("citerag: error: --judge: ") and said in err
    assert "no index" not in err  # refused before the index is opened
