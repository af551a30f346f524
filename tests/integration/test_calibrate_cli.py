"""``citerag calibrate`` on the real sample index: it cannot cripple an index.

A tiny sample is refused, nothing is written without ``--write``, an adequate sample written
with ``--write`` is what the graph then uses (``threshold_source`` in the trace), ``--reset``
removes it, and an unanswerable question the answerer refuses is not counted as a bluff.
Fakes stand in for the answering model only.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from langchain_core.messages import BaseMessage

from chains.gate import gate_defaults
from citerag.cli import main
from citerag.eval import calibrate as calib
from citerag.eval.evidence import IndexedCorpus
from citerag.eval.questions import load_questions
from citerag.eval.runner import Evaluator, parse_config
from citerag.stores.calibration import CALIBRATION_PLOT, read_calibration
from citerag.stores.faiss.calibration import calibration_path
from citerag.stores.loaded import load_index
from graphs.rag import build_graph
from tests.support.fake_models import ScriptedChatModel, good_answer

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
QUESTIONS = REPO / "examples" / "questions.jsonl"
#: Questions about things the sample corpus never mentions (the out-of-domain bluff set).
OFF_TOPIC = [
    "What is the capital city of Australia?",
    "How many players are on a rugby union team?",
    "Who painted the Mona Lisa?",
    "What is the chemical symbol for gold?",
    "How do I bake sourdough bread at home?",
    "When did the Berlin Wall fall?",
    "What is the best way to train a puppy to sit?",
    "Which planet has the most moons?",
    "How long should I boil an egg for a soft yolk?",
    "What language is spoken in Brazil?",
    "Who composed the Four Seasons?",
    "How do I change a flat tyre on a bicycle?",
]
REFUSAL = (
    'INSUFFICIENT_EVIDENCE\n<summary>{"confidence": "low", "sources": [], '
    '"insufficient_evidence": true}</summary>'
)


@pytest.fixture
def index(sample_index: Path, tmp_path: Path, embedding_model, monkeypatch) -> Path:
    """A private copy of the sample index (calibration is written into it); the CLI reuses
    the session's (real) embedding model instead of loading it again for every command."""
    monkeypatch.setattr("citerag.embeddings.load_embedding_model", lambda *a, **k: embedding_model)
    out = tmp_path / "index"
    shutil.copytree(sample_index, out, symlinks=True)
    return out


def _lines(path: Path, rows: list[str]) -> Path:
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def _ask_gate(index: Path, capsys: pytest.CaptureFixture[str]) -> dict:
    rc = main(["ask", "What does inverter fault code E-217 mean?", "--index", str(index), "--json"])
    assert rc == 0
    return json.loads(capsys.readouterr().out)["trace"]["gate"]


def test_a_tiny_sample_is_refused_and_nothing_is_written(index, tmp_path, capsys):
    lines = QUESTIONS.read_text(encoding="utf-8").splitlines()
    tiny = _lines(tmp_path / "tiny.jsonl", lines[:5] + lines[20:23])  # 5 answerable, 3 not
    rc = main(["calibrate", str(tiny), "--index", str(index), "--no-progress", "--write"])
    text = capsys.readouterr().out
    assert rc == 1  # --write was asked for and refused
    assert "NOT WRITTEN: only 5 answerable questions (minimum 12)" in text
    assert "NOT WRITTEN: only 3 unanswerable (bluff set) questions (minimum 12)" in text
    assert "sample rule: at least 12 answerable and 12 unanswerable questions" in text
    assert "chosen threshold" in text and "95 % interval [" in text
    assert not calibration_path(index).exists()
    assert not (index / "calibration.png").exists()
    # --force lifts the sample rule, but nothing is written without --write either
    rc = main(["calibrate", str(tiny), "--index", str(index), "--no-progress", "--force"])
    text = capsys.readouterr().out
    assert rc == 0 and "not written: pass --write" in text
    assert "Thresholds: packaged default -> this index's calibration -> proposed" in text
    assert not calibration_path(index).exists()
    # --force --write: written anyway, and said so
    rc = main(
        ["calibrate", str(tiny), "--index", str(index), "--no-progress", "--force", "--write"]
    )
    text = capsys.readouterr().out
    assert rc == 0 and "written anyway (--force): only 5 answerable questions" in text
    assert set(read_calibration(index)) >= {"sentence-hybrid", "dense"}
    assert (index / "calibration.png").read_bytes()[:4] == b"\x89PNG"


def test_write_on_an_adequate_sample_is_used_by_the_graph_and_reset_removes_it(
    index, tmp_path, capsys
):
    assert _ask_gate(index, capsys)["threshold_source"] == "packaged default"
    ood = _lines(
        tmp_path / "offtopic.jsonl",
        [
            json.dumps({"id": f"o{i:02d}", "question": q, "unanswerable": True})
            for i, q in enumerate(OFF_TOPIC)
        ],
    )
    lines = QUESTIONS.read_text(encoding="utf-8").splitlines()
    sample = _lines(tmp_path / "sample.jsonl", lines[:12] + lines[20:])  # 12 answerable, 8 not
    argv = ["calibrate", str(sample), "--ood", str(ood), "--index", str(index)]
    rc = main([*argv, "--no-progress", "--write", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0, out["blockers"]
    assert out["blockers"] == [] and out["written"] == str(calibration_path(index))
    cal = read_calibration(index)
    assert set(cal) == {"sentence-hybrid", "dense", "answerability"}
    entry = cal["sentence-hybrid"]
    assert entry["n"] == {"answerable": 12, "unanswerable": 8, "out-of-domain": 12}
    assert entry["bluff_rates"]["out-of-domain"] <= 0.10  # the default rule
    lo, hi = entry["threshold_ci95"]
    assert lo <= entry["threshold"] <= hi
    assert entry["decided_on"].startswith("the full graph's outcome (extractive answerer")
    assert set(cal["answerability"]["weights"]) >= {"dense", "sentence", "rerank"}
    packaged = gate_defaults()["sentence-hybrid"]["threshold"]
    assert out["thresholds"]["sentence-hybrid"]["packaged"] == packaged == 0.55
    assert out["thresholds"]["sentence-hybrid"]["current"] is None
    full = out["full_graph"]
    assert full["current_gate"]["threshold_source"] == "packaged default"
    assert full["proposed_gate"]["threshold_source"] == "index calibration"
    assert full["proposed_gate"]["threshold"] == entry["threshold"]
    assert full["markedly_fewer"] is False
    # the sweep's prediction (gate-open outcomes) against the full graph at the threshold
    assert full["predicted_answerable_kept"] == round(entry["answerable_kept"] * 12)
    assert full["proposed_answerable_kept"]["n"] == 12
    # the graph now gates on the written threshold
    gate = _ask_gate(index, capsys)
    assert gate["threshold_source"] == "index calibration"
    assert gate["threshold"] == entry["threshold"]
    plot = Path(index) / CALIBRATION_PLOT  # drawn beside the calibration it shows
    assert plot.is_file()

    assert main(["calibrate", str(sample), "--reset", "--index", str(index)]) == 2
    assert "--reset removes the calibration" in capsys.readouterr().err
    assert calibration_path(index).exists()
    assert main(["calibrate", "--reset", "--index", str(index)]) == 0
    assert "packaged defaults (chains/gate_defaults.json) apply again" in capsys.readouterr().out
    assert not calibration_path(index).exists() and read_calibration(index) == {}
    assert not plot.exists()  # the plot of thresholds no longer in effect goes with them
    assert _ask_gate(index, capsys)["threshold_source"] == "packaged default"
    assert main(["calibrate", "--reset", "--index", str(index)]) == 0
    assert "has no calibration" in capsys.readouterr().out


def _asked(messages: list[BaseMessage]) -> str:
    text = str(next(m for m in messages if m.type == "human").content)
    return text.split("QUESTION\n", 1)[1].split("\n", 1)[0].strip()


def test_an_unanswerable_question_the_answerer_refuses_is_not_a_bluff(
    sample_index, embedding_model
):
    loaded = load_index(sample_index, embedding_model)
    corpus = IndexedCorpus.from_store(loaded.store, loaded.manifest.documents)
    ev = Evaluator(
        loaded.store, embedding_model.embeddings, corpus, calibration={}, cache_states=True
    )
    every = load_questions(QUESTIONS)
    questions = [q for q in every if q.unanswerable] + [q for q in every if not q.unanswerable][:6]
    cfg = parse_config("default")
    rule = calib.Rule("max-bluff", 0.0)
    answer_all = ScriptedChatModel(script=[good_answer()])
    everything = calib.run_calibration(
        ev,
        questions,
        cfg,
        rule=rule,
        progress=False,
        answerability=False,
        answer_graph=build_graph(ev.deps.with_answerer(answer_all)),
    )
    assert set(everything.outcomes.values()) == {"answered"} and everything.generator
    scores = {r.id: r.best_rerank for r in everything.run.results}
    top = max((r for r in everything.run.unanswerable), key=lambda r: scores[r.id])
    top_q = next(q.question for q in questions if q.id == top.id)
    t_all = everything.for_score("rerank").threshold
    assert t_all > scores[top.id]  # no bluffs allowed: above the best unanswerable score

    def refuse_top(messages: list[BaseMessage]) -> str:
        return REFUSAL if _asked(messages) == top_q else good_answer()(messages)

    refusing = calib.run_calibration(
        ev,
        questions,
        cfg,
        rule=rule,
        progress=False,
        answerability=False,
        answer_graph=build_graph(ev.deps.with_answerer(ScriptedChatModel(script=[refuse_top]))),
    )
    assert refusing.outcomes[top.id] == "no_evidence"
    assert refusing.refused_anyway()["unanswerable"] == [top.id]
    cal = refusing.for_score("rerank")
    # the refused question still scores above the new threshold, and is not a bluff
    assert scores[top.id] >= cal.threshold and cal.threshold < t_all
    assert cal.chosen["bluffs:unanswerable"].k == 0
    assert (
        cal.chosen["answerable_kept"].k
        >= everything.for_score("rerank").chosen["answerable_kept"].k
    )
