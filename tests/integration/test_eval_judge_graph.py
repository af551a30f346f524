"""``citerag eval --judge`` end to end on the sample index: the real graph (retrieval, gate,
validation) with scripted answerers and a scripted judge, so the figures are what the script
implies: an unsupported claim, an imprecise citation, a malformed judgement retried and left
unjudged, a refused unanswerable question, and the paired comparison of two answerers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from langchain_core.messages import BaseMessage

from citerag.cli import main
from citerag.eval.evidence import IndexedCorpus
from citerag.eval.judge import AnswerJudge, compare_judged, run_generations
from citerag.eval.questions import Question, load_questions
from citerag.eval.runner import Evaluator, parse_config
from citerag.stores.loaded import load_index
from graphs.rag import build_graph
from tests.support.fake_models import ScriptedChatModel, quote_of

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
QUESTIONS = REPO / "examples" / "questions.jsonl"
BLOCK = '<summary>{"confidence": "high", "sources": [1], "insufficient_evidence": false}</summary>'
GOLD = {
    "q07": "low DC insulation resistance, below 1 megohm",
    "q01": "14 March 2017, in Oakhurst Village Hall",
    "q02": "5 shares (£250)",
}


def request(messages: list[BaseMessage]) -> str:
    """The first user message of an answerer's or a judge's request (a retry appends more)."""
    return str(next(m for m in messages if m.type == "human").content)


def asked(messages: list[BaseMessage]) -> str:
    """The question of an answerer's or a judge's request."""
    return request(messages).split("QUESTION\n", 1)[1].split("\n", 1)[0].strip()


def answer_in(messages: list[BaseMessage]) -> str:
    """The answer a judge is asked about."""
    return request(messages).split("ANSWER (data only)\n", 1)[1].split("\n", 1)[0].strip()


def claim_lines(messages: list[BaseMessage]) -> list[tuple[int, list[int]]]:
    """(claim number, cited passages) of each claim in a judge's request."""
    text = request(messages)
    nums = [int(n) for n in re.findall(r"^claim (\d+):", text, flags=re.MULTILINE)]
    cites = [
        [int(n) for n in re.findall(r"\[(\d+)\]", line)]
        for line in re.findall(r"^    cites (.*)$", text, flags=re.MULTILINE)
    ]
    return list(zip(nums, cites, strict=True))


def all_supported(messages: list[BaseMessage]) -> str:
    """A judge that finds every claim supported, every citation precise, the answer relevant
    and correct (when a gold answer is shown)."""
    verdicts = []
    for n, cites in claim_lines(messages):
        item: dict = {"claim": n, "verdict": "supported", "reason": "stated"}
        if len(cites) > 1:
            item["citations"] = [
                {"passage": p, "alone": "supported", "without": "supported"} for p in cites
            ]
        verdicts.append(item)
    gold = "GOLD ANSWER\n(none)" not in request(messages)
    return json.dumps(
        {"verdicts": verdicts, "relevance": "yes", "correctness": "correct" if gold else None}
    )


@pytest.fixture(scope="module")
def evaluator(sample_index, embedding_model):
    loaded = load_index(sample_index, embedding_model)
    corpus = IndexedCorpus.from_store(loaded.store, loaded.manifest.documents)
    return Evaluator(loaded.store, embedding_model.embeddings, corpus, calibration={})


@pytest.fixture(scope="module")
def questions() -> list[Question]:
    by_id = {q.id: q for q in load_questions(QUESTIONS)}
    out = []
    for qid in ("q07", "q01", "q02", "u01"):
        q = by_id[qid]
        if qid in GOLD:
            q.meta["answer"] = GOLD[qid]
        out.append(q)
    return out


def answerer_a(messages: list[BaseMessage]) -> str:
    """q07: one supported claim; q01: a claim citing two passages (the second imprecise) and
    an unsupported claim; q02: an answer whose judgement comes back malformed twice."""
    q = asked(messages)
    if q.startswith("When was Northwind"):
        return (
            f'It was founded in 2017 [1: "{quote_of(messages, 1)}"] '
            f'[2: "{quote_of(messages, 2)}"]. It has 10,000 members [1].\n{BLOCK}'
        )
    if q.startswith("What is the minimum"):
        return f'The minimum is stated [1: "{quote_of(messages, 1)}"].\n{BLOCK}'
    return f'The passage answers it [1: "{quote_of(messages, 1)}"].\n{BLOCK}'


def answerer_b(messages: list[BaseMessage]) -> str:
    """Every answerable question: one claim citing passage 1 with a verbatim quote."""
    return f'The passage answers it [1: "{quote_of(messages, 1)}"].\n{BLOCK}'


def test_judged_figures_follow_the_script(evaluator, questions):
    def judge_a(messages: list[BaseMessage]) -> str:
        """One judge for both runs: it reacts to the answer it is shown."""
        answer = answer_in(messages)
        if answer.startswith("It was founded in 2017"):
            assert claim_lines(messages) == [(1, [1, 2]), (2, [1])]
            return json.dumps(
                {
                    "verdicts": [
                        {
                            "claim": 1,
                            "verdict": "supported",
                            "reason": "passage 1 says so",
                            "citations": [
                                {"passage": 1, "alone": "supported", "without": "unsupported"},
                                {"passage": 2, "alone": "unsupported", "without": "supported"},
                            ],
                        },
                        {"claim": 2, "verdict": "unsupported", "reason": "no such number"},
                    ],
                    "relevance": "yes",
                    "correctness": "correct",
                }
            )
        if answer.startswith("The minimum is stated"):
            return "Looks supported to me."  # malformed, every time
        return all_supported(messages)

    cfg_a, cfg_b = parse_config("default"), parse_config("max_passages=4")
    graph_a = build_graph(evaluator.deps.with_answerer(ScriptedChatModel(script=[answerer_a])))
    graph_b = build_graph(evaluator.deps.with_answerer(ScriptedChatModel(script=[answerer_b])))
    gens = run_generations(
        [(cfg_a, graph_a), (cfg_b, graph_b)],
        questions,
        corpus=evaluator.corpus,
        judge=AnswerJudge(judge := ScriptedChatModel(script=[judge_a])),
        judge_name="scripted",
        progress=False,
    )
    a, b = gens["default"], gens["max_passages=4"]
    assert [g.status for g in a.answers] == ["answered", "answered", "answered", "no_evidence"]
    assert len(a.answers[1].passages) >= 2
    assert [g.status for g in b.answers] == ["answered", "answered", "answered", "no_evidence"]
    # one call per answered question of each run, two for the malformed one; none for u01
    assert judge.calls == 3 + 1 + 3

    assert a.judged is not None and b.judged is not None
    s = a.figures["judge"]
    assert s["model"] == "scripted" and s["prompt"] == "judge@v1"
    # statements: q07 1 supported; q01 1 supported + 1 unsupported; q02 1 unjudged
    assert (s["faithfulness"]["k"], s["faithfulness"]["n"]) == (2, 4)
    assert s["statements"] == {"supported": 2, "unsupported": 1, "uncited": 0, "unjudged": 1}
    # citations: q07 [1] precise; q01 [1] precise, [2] imprecise, claim 2's [1] not precise
    # (its claim is unsupported); q02 [1] unjudged
    assert (s["citation_precision"]["k"], s["citation_precision"]["n"]) == (2, 5)
    assert s["citations"] == {"precise": 2, "imprecise": 2, "unjudged": 1}
    assert (s["relevance"]["k"], s["relevance"]["n"]) == (2, 3)
    assert (s["correctness"]["k"], s["correctness"]["n"]) == (2, 3)
    assert (s["refusal"]["k"], s["refusal"]["n"]) == (1, 1)
    assert (s["unjudged"]["k"], s["unjudged"]["n"]) == (1, 3)
    lo, hi = s["faithfulness"]["ci95"]
    assert lo < 0.5 < hi and s["faithfulness"]["interval"] == "wilson"
    sb = b.figures["judge"]
    assert (sb["faithfulness"]["k"], sb["faithfulness"]["n"]) == (3, 3)
    assert (sb["correctness"]["k"], sb["correctness"]["n"]) == (3, 3)

    recs = {r["id"]: r for r in a.records(questions)}
    assert set(recs) == {"q07", "q01", "q02", "u01"}
    q01 = recs["q01"]["judge"]
    assert recs["q01"]["config"] == "default" and recs["q01"]["status"] == "answered"
    assert [c["verdict"] for c in q01["claims"]] == ["supported", "unsupported"]
    assert [x["precise"] for x in q01["claims"][0]["citations"]] == [True, False]
    assert q01["scores"]["faithfulness"] == 0.5 and q01["correctness"] == "correct"
    q02 = recs["q02"]["judge"]
    assert q02["judged"] == "unjudged" and q02["attempts"] == 2 and len(q02["errors"]) == 2
    assert [c["verdict"] for c in q02["claims"]] == ["unjudged"]
    assert recs["u01"]["judge"]["refusal"] == "refused" and recs["u01"]["judge"]["attempts"] == 0
    json.dumps(list(recs.values()))

    cmp = compare_judged(b.judged, a.judged)
    f = cmp["faithfulness"]  # q07 tie, q01 B wins (1 vs 1/2), q02 unjudged on A: left out
    assert (f.wins, f.losses, f.ties, f.win_ids) == (1, 0, 1, ["q01"])
    assert cmp["correctness"].n == 2 and cmp["refusal"].ties == 1


def test_cli_eval_judge_writes_verdicts_per_question(sample_index, tmp_path, monkeypatch, capsys):
    qfile = tmp_path / "questions.jsonl"
    qfile.write_text(
        "\n".join(
            [
                json.dumps(
                    {
                        "id": "q07",
                        "question": "What does inverter fault code E-217 mean?",
                        "doc": "maintenance_notes.txt",
                        "needle": "Code E-217 means low DC insulation resistance",
                        "answer": GOLD["q07"],
                    }
                ),
                json.dumps(
                    {"id": "u01", "question": "What is the offside rule?", "unanswerable": True}
                ),
            ]
        )
        + "\n"
    )
    judge = ScriptedChatModel(script=[all_supported])
    monkeypatch.setattr("citerag.eval.judge.judge_model", lambda spec, settings=None: judge)
    per_q = tmp_path / "per_question.jsonl"
    argv = ["eval", str(qfile), "--index", str(sample_index), "--no-progress", "--config", "bm25"]
    argv += ["--generate", "--generate", "max_passages=2", "--judge", "openai:judge-model"]
    rc = main([*argv, "--per-question", str(per_q), "--json"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert judge.calls == 2  # q07 under each configuration; u01 is refused by the gate
    gen = out["generation"]  # the first configuration, as before
    assert gen["generator"] == "extractive" and gen["judge"]["model"] == "openai:judge-model"
    assert gen["judge"]["faithfulness"]["value"] == 1.0
    assert gen["judge"]["correctness"]["k"] == 1 and gen["judge"]["refusal"]["k"] == 1
    assert set(out["generations"]) == {"default", "max_passages=2"}
    comp = out["judge_comparisons"]["max_passages=2 vs default"]
    assert set(comp) == {
        "faithfulness",
        "citation_precision",
        "relevance",
        "correctness",
        "refusal",
    }
    assert {"wins", "losses", "ties", "p_sign_test"} <= set(comp["faithfulness"])
    lines = [json.loads(line) for line in per_q.read_text().splitlines()]
    retrieval = [r for r in lines if r.get("kind") != "generation"]
    generation = [r for r in lines if r.get("kind") == "generation"]
    assert {r["config"] for r in retrieval} == {"bm25"} and len(retrieval) == 2
    assert [(r["config"], r["id"]) for r in generation] == [
        ("default", "q07"),
        ("default", "u01"),
        ("max_passages=2", "q07"),
        ("max_passages=2", "u01"),
    ]
    q07 = generation[0]
    assert q07["status"] == "answered" and q07["citations"][0]["index"] == 1
    assert q07["judge"]["judged"] == "judged" and q07["judge"]["gold"] == [GOLD["q07"]]
    assert all(c["verdict"] == "supported" for c in q07["judge"]["claims"])
    assert generation[1]["judge"]["refusal"] == "refused"

    rc = main([*argv])  # the readable report
    text = capsys.readouterr().out
    assert rc == 0 and "Answers judged by openai:judge-model (prompt judge@v1" in text
    assert "faithfulness (ALCE citation recall)" in text and "Paired comparisons of judged" in text
