"""The parse pool: sized from the CPU count, outcomes in order of completion, crashes isolated.

The parser is replaced by a module-level function (the forked workers find it by name) that
synchronises through a ``multiprocessing`` event set by the test, never by sleeping.
"""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

import citerag.index.ingest as ing
from loaders.chunking import ChunkSettings
from loaders.pipeline import ProcessedFile, SourceFile

A_GO = multiprocessing.get_context("fork").Event()


def fake_process(
    src: SourceFile, chunking: ChunkSettings, max_chars: int | None = None
) -> ProcessedFile:
    """Parse stand-in: ``crash`` kills its worker; ``a`` waits until the test lets it go."""
    name = src.path.stem
    if name == "crash":
        os._exit(3)
    if name == "a" and not A_GO.wait(60):
        return ProcessedFile(src, "", "failed", "never let go")
    return ProcessedFile(src, "digest", "ok")


def _sources(*names: str) -> list[SourceFile]:
    return [SourceFile(Path(f"/nonexistent/{n}.pdf"), f"{n}.pdf") for n in names]


def test_outcomes_come_in_order_of_completion(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ing, "process_file", fake_process)
    A_GO.clear()
    outcomes = ing._pool_iter(_sources("a", "b"), ChunkSettings(), 2, None)
    first = next(outcomes)  # "a" (submitted first) is still running: "b" must come first
    A_GO.set()
    rest = list(outcomes)
    got = [(o.source.source, o.status) for o in [first, *rest]]
    assert got == [("b.pdf", "ok"), ("a.pdf", "ok")]


def test_a_dying_worker_fails_only_its_own_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ing, "process_file", fake_process)
    A_GO.set()
    out = list(
        ing._pool_iter(_sources("one", "crash", "two", "three", "b"), ChunkSettings(), 2, None)
    )
    status = {o.source.source: o.status for o in out}
    assert status == {
        "one.pdf": "ok",
        "crash.pdf": "failed",
        "two.pdf": "ok",
        "three.pdf": "ok",
        "b.pdf": "ok",
    }
    crashed = next(o for o in out if o.source.source == "crash.pdf")
    assert "parse worker failed" in crashed.reason and crashed.kind == "error"


@pytest.mark.parametrize(
    ("cpus", "pdfs", "texts", "expected"),
    [
        (8, 3, 0, 3),
        (16, 10, 2, ing.MAX_WORKERS),
        (2, 4, 0, 1),
        (1, 4, 0, 1),
        (None, 2, 0, 1),
        (8, 0, 5, 0),
    ],
)
def test_default_workers_follow_the_cpu_count(
    monkeypatch: pytest.MonkeyPatch, cpus: int | None, pdfs: int, texts: int, expected: int
) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: cpus)
    files = _sources(*[f"p{i}" for i in range(pdfs)]) + [
        SourceFile(Path(f"/nonexistent/t{i}.txt"), f"t{i}.txt") for i in range(texts)
    ]
    assert ing.default_workers(files) == expected
