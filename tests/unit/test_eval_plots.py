"""Evaluation figures: the plotted values are the metrics, with their Wilson intervals."""

from __future__ import annotations

import pytest

from citerag.eval import calibrate as calib
from citerag.eval import metrics as stats
from citerag.eval import plots
from citerag.eval.runner import ConfigRun, EvalConfig
from tests.support.eval_results import result


def run(name: str, hits: list[int | None]) -> ConfigRun:
    rs = [result(f"q{i}", h) for i, h in enumerate(hits)]
    rs.append(result("u1", None, unanswerable=True))  # never counted in recall
    return ConfigRun(EvalConfig(name, ()), rs)


def test_recall_curves_plot_recall_and_wilson_bands():
    a = run("dense", [1, 2, 5, None, 20, 3])
    b = run("hybrid", [1, 1, 1, 2, None, None])
    fig = plots.recall_curves([a, b], ks=[1, 4, 20])
    ax = fig.axes[0]
    assert [line.get_label().split(" ")[0] for line in ax.lines] == ["dense", "hybrid"]
    assert list(ax.lines[0].get_ydata()) == pytest.approx([1 / 6, 3 / 6, 5 / 6])
    assert list(ax.lines[1].get_ydata()) == pytest.approx([3 / 6, 4 / 6, 4 / 6])
    band = ax.collections[0].get_paths()[0].vertices[:, 1]
    lo, hi = stats.wilson_interval(1, 6)
    assert band.min() == pytest.approx(lo) and band.max() == pytest.approx(
        stats.wilson_interval(5, 6)[1]
    )
    assert hi > 1 / 6 > lo
    assert "6 answerable" in ax.get_title()


def test_destroyed_bars_heights_and_labels():
    summaries = {
        "600": {"destroyed_questions": {"k": 1, "n": 50}},
        "150": {"destroyed_questions": {"k": 20, "n": 50}},
    }
    fig = plots.destroyed_bars(summaries)
    ax = fig.axes[0]
    assert [p.get_height() for p in ax.patches] == pytest.approx([0.02, 0.4])
    assert [t.get_text() for t in ax.texts] == ["1/50", "20/50"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["600", "150"]


def test_calibration_curves_mark_the_threshold_and_save(tmp_path):
    s = calib.ScoreScores(
        "rerank",
        "sentence-hybrid",
        [0.9, 0.8, 0.7, 0.3],
        [0.9, None, 0.7, None],
        {"out-of-domain": [0.5, 0.2, 0.1]},
    )
    cal = calib.calibrate(s, calib.Rule("max-bluff", 0.0), "out-of-domain")
    fig = plots.calibration_curves([cal], title="t")
    ax = fig.axes[0]
    labels = [line.get_label() for line in ax.lines]
    assert labels[:3] == [
        "answerable kept",
        "kept with evidence in context",
        "bluffs: out-of-domain",
    ]
    vline = ax.lines[-1]
    assert list(vline.get_xdata()) == pytest.approx([cal.threshold, cal.threshold])
    assert cal.threshold == pytest.approx(0.501)
    path = plots.save(fig, tmp_path / "sub" / "c.png")
    assert path.read_bytes()[:4] == b"\x89PNG"


def test_plots_never_import_pyplot():
    """pyplot would take over the backend of a notebook or a server process."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from citerag.eval import plots\n"
        "from citerag.eval.runner import ConfigRun, EvalConfig\n"
        "from tests.support.eval_results import result\n"
        "fig = plots.recall_curves([ConfigRun(EvalConfig('x', ()), [result('q', 1)])])\n"
        "plots.destroyed_bars({'a': {'destroyed_questions': {'k': 1, 'n': 2}}})\n"
        "assert fig.axes and 'matplotlib.pyplot' not in sys.modules, sorted(sys.modules)\n"
    )
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
