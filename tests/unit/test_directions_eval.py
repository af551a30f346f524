"""The scoring of ``benchmarks/directions_eval.py`` (pure functions: no model, no index)."""

from __future__ import annotations

import pytest

from benchmarks.directions_eval import gold_figure, report, states_figure


@pytest.mark.parametrize(
    ("answer", "value"),
    [("$1577.00", 1577.0), ("$8.70", 8.7), ("$ 12,645", 12645.0), ("0.66", None),
     ("4.2%", None), ("Yes. It grew.", None), (None, None)],
)  # fmt: skip
def test_gold_figure_reads_money_answers_only(answer, value):
    assert gold_figure(answer) == value


@pytest.mark.parametrize(
    ("text", "gold", "stated"),
    [
        ("Purchases of property, plant and equipment (PP&E) (1,577) (1,373) (1,420)", 1577.0, True),
        ("Property, plant and equipment — net 8,738 8,866", 8.7, True),  # millions / billions
        ("Net income $ 16,798 $ 12,193", 32780.0, False),
        ("Total 1,500", 1577.0, False),
        ("Fiscal 2019 net sales", 2.0, False),  # a year is no amount
    ],
)
def test_states_figure_within_one_percent_at_three_scales(text, gold, stated):
    assert states_figure(text, gold) is stated


def _rows(*flags):
    return [
        {"id": f"q{i}", "first_hit": 1 if hit else None, "answered": hit,
         "cites_evidence": hit, "states_gold": gold, "directions": 1}
        for i, (hit, gold) in enumerate(flags)
    ]  # fmt: skip


def test_report_pairs_the_sides_and_leaves_out_questions_a_measure_does_not_apply_to():
    base = {"config": "default", "code": "a", "sets": {"financebench": _rows((False, None),
            (True, False), (True, True))}}  # fmt: skip
    new = {"config": "default", "code": "b", "sets": {"financebench": _rows((True, None),
           (True, True), (False, False))}}  # fmt: skip
    data, md, rows = report(base, new)
    entry = data["sets"]["financebench"]["all"]
    assert entry["page hit@1"] | {"win_ids": [], "loss_ids": []} == {
        "questions": 3, "base": 2, "new": 2, "wins": 1, "losses": 1, "p": 1.0,
        "win_ids": [], "loss_ids": [],
    }  # fmt: skip
    gold = entry["answered quoting the gold figure (money answers)"]
    assert (gold["questions"], gold["base"], gold["new"]) == (2, 1, 1)
    assert gold["win_ids"] == ["q1"] and gold["loss_ids"] == ["q2"]
    assert rows[0][0] == "financebench, all (3 q; 3 with directions)"
    assert "| financebench | all | page hit@1 | 2/3 = 0.67" in md
