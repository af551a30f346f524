"""Unit tests for atomic builds: the ``current`` symlink, copies, pruning, the writer lock."""

from __future__ import annotations

import fcntl
import os
import re
from pathlib import Path

import pytest

from citerag.stores.faiss import builds
from citerag.stores.faiss.builds import (
    abort_build,
    commit_build,
    current_build,
    new_build_id,
    prune_builds,
    start_build,
    write_lock,
)


def _publish(index_dir: Path, content: str) -> tuple[str, Path]:
    """Make a build holding one file and commit it; return (build id, final folder)."""
    tmp = start_build(index_dir)
    (tmp / "data.txt").write_text(content)
    build_id = new_build_id()
    return build_id, commit_build(index_dir, tmp, build_id)


def test_no_index_yet(tmp_path: Path) -> None:
    assert current_build(tmp_path / "index") is None
    assert current_build(tmp_path) is None


def test_start_build_without_current_is_empty(tmp_path: Path) -> None:
    tmp = start_build(tmp_path)
    assert tmp.is_dir()
    assert tmp.parent == tmp_path / builds.BUILDS
    assert tmp.name.startswith(".tmp-")
    assert list(tmp.iterdir()) == []


def test_commit_swaps_current(tmp_path: Path) -> None:
    first_id, first = _publish(tmp_path, "v1")
    assert first == tmp_path / builds.BUILDS / first_id
    assert current_build(tmp_path) == first.resolve()
    link = tmp_path / builds.CURRENT
    assert link.is_symlink()
    assert not os.readlink(link).startswith("/"), "current must be a relative link"
    second_id, second = _publish(tmp_path, "v2")
    assert second_id != first_id
    assert current_build(tmp_path) == second.resolve()
    assert (current_build(tmp_path) / "data.txt").read_text() == "v2"
    assert not list((tmp_path / builds.BUILDS).glob(".tmp-*"))
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(f".{builds.CURRENT}.")]


def test_start_build_copies_current(tmp_path: Path) -> None:
    _, first = _publish(tmp_path, "v1")
    tmp = start_build(tmp_path)
    assert (tmp / "data.txt").read_text() == "v1"
    (tmp / "data.txt").write_text("changed in the copy")
    assert (first / "data.txt").read_text() == "v1", "the current build must not change"
    abort_build(tmp)
    assert not tmp.exists()
    assert current_build(tmp_path) == first.resolve()


def test_index_dir_can_be_moved(tmp_path: Path) -> None:
    _publish(tmp_path / "a", "v1")
    (tmp_path / "a").rename(tmp_path / "b")
    moved = current_build(tmp_path / "b")
    assert moved is not None and (moved / "data.txt").read_text() == "v1"


def test_prune_keeps_current_and_one_old_build(tmp_path: Path) -> None:
    ids = [_publish(tmp_path, f"v{i}")[0] for i in range(4)]
    kept = sorted(p.name for p in (tmp_path / builds.BUILDS).iterdir())
    assert kept == sorted(ids[-1 - builds.KEEP_OLD_BUILDS :])
    assert current_build(tmp_path).name == ids[-1]


def test_prune_removes_leftover_temporary_folders(tmp_path: Path) -> None:
    build_id, final = _publish(tmp_path, "v1")
    leftover = start_build(tmp_path)  # e.g. from a writer that was killed
    (leftover / "dense.faiss").write_bytes(b"partial")
    prune_builds(tmp_path)
    assert not leftover.exists()
    assert final.is_dir()
    prune_builds(tmp_path, keep=0)
    assert final.is_dir(), "prune must never delete the current build"
    assert current_build(tmp_path).name == build_id


def test_dangling_current_means_no_index(tmp_path: Path) -> None:
    _, final = _publish(tmp_path, "v1")
    abort_build(final)
    assert current_build(tmp_path) is None


def test_build_ids_sort_by_time_and_are_unique() -> None:
    ids = [new_build_id() for _ in range(200)]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"\d{8}T\d{6}\.\d{6}-[0-9a-f]{8}", i) for i in ids)
    stamps = [i.rsplit("-", 1)[0] for i in ids]
    assert stamps == sorted(stamps), "ids made one after another must sort in that order"


def test_write_lock_is_exclusive(tmp_path: Path) -> None:
    with (
        write_lock(tmp_path / "index"),
        (tmp_path / "index" / ".lock").open("w") as other,
        pytest.raises(BlockingIOError),
    ):
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
    with (tmp_path / "index" / ".lock").open("w") as other:
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released after the block
        fcntl.flock(other, fcntl.LOCK_UN)
