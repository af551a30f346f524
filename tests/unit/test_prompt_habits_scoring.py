"""The habits and scoring of ``benchmarks/prompt_habits.py`` (pure: no model, no index)."""

from __future__ import annotations

from benchmarks import faqset_check as fs
from benchmarks.prompt_habits import HABITS, Habit, habit_half, report


def test_a_habit_wraps_the_question():
    assert Habit(after="Thanks!").apply("Can I get a refund?") == "Can I get a refund? Thanks!"
    assert Habit(before="Hello, ").apply("Can I get a refund?") == "Hello, can I get a refund?"
    assert Habit(before="Hi! ").apply("Can I get a refund?") == "Hi! Can I get a refund?"
    assert Habit(after="Thanks!").name == "… Thanks!" and Habit(before="Hi! ").name == "Hi! …"


def test_the_habits_split_is_fixed():
    """Fixed before any result: changing a habit's text moves it between halves."""
    halves = [habit_half(h) for h in HABITS]
    assert halves.count("calibration") == 8 and halves.count("test") == 10
    assert len({h.name for h in HABITS}) == len(HABITS)


def _record(qid: str, habit: str, status: str, quote: str = "", doc: str = "") -> dict:
    cites = [{"doc_name": doc, "chunk_id": "c1", "quote": quote}] if quote else []
    return {"id": qid, "habit": habit, "status": status, "answer": "", "reason": "",
            "citations": cites}  # fmt: skip


def test_report_pairs_each_habit_with_the_plain_question():
    q = next(r for r in fs.load_questions() if r["kind"] == "answerable")
    ev = q["evidence"][0]
    habit = next(h for h in HABITS if habit_half(h) == fs.split_of(q["id"]))
    right = _record(q["id"], "", "answered", ev["needle"], ev["doc"])
    base = [right, _record(q["id"], habit.name, "no_evidence")]
    new = [right, {**right, "habit": habit.name}]
    data, md = report(base, new)
    rows = data["tables"]["paired"]["rows"]
    label = f"{fs.split_of(q['id'])} half"
    same = next(r for r in rows if r[1] == "same outcome as asked plainly" and r[0] == label)
    assert same[2].startswith("0/1") and same[3].startswith("1/1") and "+1/−0" in same[4]
    assert habit.name in md
