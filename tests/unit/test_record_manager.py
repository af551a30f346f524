"""Unit tests for the SQLite record manager behind LangChain's indexing API."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

import pytest

from citerag.stores.record_manager import SQLiteRecordManager


@pytest.fixture
def records(tmp_path: Path):
    rm = SQLiteRecordManager("citerag", tmp_path / "records.sqlite")
    rm.create_schema()
    yield rm
    rm.close()


def test_update_and_exists(records: SQLiteRecordManager) -> None:
    assert records.exists(["a", "b"]) == [False, False]
    records.update(["a", "b"], group_ids=["doc1", "doc1"])
    assert records.exists(["b", "x", "a"]) == [True, False, True]
    assert records.count() == 2
    records.update(["a"], group_ids=["doc2"])  # upsert moves the key to another group
    assert records.count() == 2
    assert records.list_keys(group_ids=["doc2"]) == ["a"]


def test_exists_handles_many_keys(records: SQLiteRecordManager) -> None:
    keys = [f"k{i:05d}" for i in range(1234)]
    records.update(keys[::2])
    assert records.exists(keys) == [i % 2 == 0 for i in range(len(keys))]


def test_list_keys_filters(records: SQLiteRecordManager) -> None:
    records.update(["a1", "a2"], group_ids=["A", "A"])
    mid = records.get_time()
    records.update(["b1"], group_ids=["B"])
    records.update(["n1"])  # no group
    assert records.list_keys() == ["a1", "a2", "b1", "n1"]
    assert records.list_keys(before=mid) == ["a1", "a2"]
    assert records.list_keys(after=mid) == ["b1", "n1"]
    assert records.list_keys(group_ids=["A"]) == ["a1", "a2"]
    assert records.list_keys(group_ids=["A", "B"]) == ["a1", "a2", "b1"]
    assert records.list_keys(group_ids=[]) == []
    assert records.list_keys(group_ids=["B"], before=mid) == []
    assert records.list_keys(limit=3) == ["a1", "a2", "b1"]


def test_delete_keys(records: SQLiteRecordManager) -> None:
    records.update(["a", "b", "c"], group_ids=["g", "g", "h"])
    records.delete_keys(["a", "c", "never-there"])
    assert records.list_keys() == ["b"]
    assert records.exists(["a", "b", "c"]) == [False, True, False]
    assert records.count() == 1


def test_time_is_strictly_increasing(records: SQLiteRecordManager) -> None:
    times = [records.get_time() for _ in range(1000)]
    assert all(b > a for a, b in itertools.pairwise(times))


def test_update_validates_arguments(records: SQLiteRecordManager) -> None:
    with pytest.raises(ValueError, match="same length"):
        records.update(["a", "b"], group_ids=["g"])
    with pytest.raises(ValueError, match="backwards"):
        records.update(["a"], time_at_least=records.get_time() + 3600)
    assert records.count() == 0


def test_namespaces_are_isolated(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite"
    one, two = SQLiteRecordManager("one", path), SQLiteRecordManager("two", path)
    one.create_schema()
    two.create_schema()
    one.update(["k"], group_ids=["g"])
    assert two.exists(["k"]) == [False]
    assert two.list_keys() == []
    assert two.count() == 0
    one.close()
    two.close()


def test_persists_across_reopen(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite"
    rm = SQLiteRecordManager("citerag", path)
    rm.create_schema()
    rm.update(["a", "b"], group_ids=["doc1", "doc2"])
    rm.delete_keys(["b"])
    rm.close()
    again = SQLiteRecordManager("citerag", path)
    again.create_schema()  # idempotent on an existing database
    assert again.list_keys() == ["a"]
    assert again.list_keys(group_ids=["doc1"]) == ["a"]
    assert again.exists(["a", "b"]) == [True, False]
    again.close()


def test_async_variants(records: SQLiteRecordManager) -> None:
    async def run() -> tuple[list[bool], list[str], list[str]]:
        await records.acreate_schema()
        await records.aupdate(["x", "y"], group_ids=["g", "g"])
        await records.adelete_keys(["y"])
        t = await records.aget_time()
        return (
            await records.aexists(["x", "y"]),
            await records.alist_keys(before=t),
            await records.alist_keys(group_ids=["g"]),
        )

    assert asyncio.run(run()) == ([True, False], ["x"], ["x"])
