"""SentenceTable: sentence vectors kept on disk, saved without building the matrix in memory."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from citerag.stores.faiss.sentence_table import (
    KEYS_FILE,
    SPANS_FILE,
    VECTORS_FILE,
    SentenceTable,
)

WIDTH = 4


def _rows(n: int, seed: int) -> tuple[list[tuple[int, int]], np.ndarray]:
    rng = np.random.default_rng(seed)
    spans = [(10 * i, 10 * i + 9) for i in range(n)]
    return spans, rng.standard_normal((n, WIDTH)).astype(np.float16)


def _same(got: tuple[list[tuple[int, int]], np.ndarray], want: tuple) -> None:
    assert got[0] == want[0]
    np.testing.assert_array_equal(got[1], want[1])


def test_rows_are_written_to_a_file_not_kept_in_memory(tmp_path: Path) -> None:
    table = SentenceTable(WIDTH, tmp_path)
    table["a"] = _rows(3, 1)
    table["b"] = _rows(2, 2)
    assert table._spill is not None
    assert os.fstat(table._spill.vectors.fileno()).st_size == 5 * WIDTH * 2
    assert list(tmp_path.iterdir()) == []  # anonymous: nothing a build would publish
    _same(table["a"], _rows(3, 1))
    _same(table["b"], _rows(2, 2))
    assert len(table) == 2 and table.rows() == 5 and "a" in table and "z" not in table


def test_save_writes_only_live_rows_in_key_order_and_load_reads_them(tmp_path: Path) -> None:
    table = SentenceTable(WIDTH, tmp_path)
    table["a"] = _rows(3, 1)
    table["b"] = _rows(2, 2)
    table["c"] = _rows(1, 3)
    table["a"] = _rows(4, 4)  # replaced: its first rows are garbage in the spill
    del table["b"]
    table["e"] = ([], np.zeros((0, WIDTH), np.float16))
    table.save(tmp_path)
    meta = json.loads((tmp_path / KEYS_FILE).read_text())
    assert meta["keys"] == ["a", "c", "e"] and meta["rows"] == [4, 1, 0]
    assert np.load(tmp_path / VECTORS_FILE).shape == (5, WIDTH)
    assert np.load(tmp_path / SPANS_FILE).dtype == np.int32
    loaded = SentenceTable.load(tmp_path, WIDTH)
    assert list(loaded) == ["a", "c", "e"]
    _same(loaded["a"], _rows(4, 4))
    _same(loaded["c"], _rows(1, 3))
    assert loaded["e"][0] == [] and loaded["e"][1].shape == (0, WIDTH)
    assert not loaded["a"][1].flags.writeable  # a view of the read-only mapping, not a copy
    assert not loaded["a"][1].flags.owndata


def test_a_loaded_table_saves_in_place_with_new_rows_mixed_in(tmp_path: Path) -> None:
    first = SentenceTable(WIDTH, tmp_path)
    for i, key in enumerate("abcd"):
        first[key] = _rows(i + 1, i)
    first.save(tmp_path)
    table = SentenceTable.load(tmp_path, WIDTH)
    del table["b"]
    table["x"] = _rows(2, 9)
    table["c"] = _rows(1, 8)
    table.save(tmp_path)  # reads the old files while replacing them
    again = SentenceTable.load(tmp_path, WIDTH)
    assert list(again) == ["a", "c", "d", "x"]  # a replaced key keeps its place
    _same(again["a"], _rows(1, 0))
    _same(again["d"], _rows(4, 3))
    _same(again["x"], _rows(2, 9))
    _same(again["c"], _rows(1, 8))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [KEYS_FILE, SPANS_FILE, VECTORS_FILE]
    )


def test_a_build_of_the_previous_format_is_read_and_rewritten(tmp_path: Path) -> None:
    a, b = _rows(2, 1), _rows(3, 2)
    np.save(tmp_path / VECTORS_FILE, np.concatenate([a[1], b[1]]))
    (tmp_path / KEYS_FILE).write_text(
        json.dumps({"keys": ["a", "b"], "spans": {"a": a[0], "b": b[0]}})
    )
    table = SentenceTable.load(tmp_path, WIDTH)
    _same(table["a"], a)
    _same(table["b"], b)
    table.save(tmp_path)
    assert json.loads((tmp_path / KEYS_FILE).read_text())["format"] == 2
    _same(SentenceTable.load(tmp_path, WIDTH)["b"], b)


def test_a_folder_without_sentences_loads_empty_and_an_empty_table_saves(tmp_path: Path) -> None:
    table = SentenceTable.load(tmp_path, WIDTH)
    assert len(table) == 0 and table == {}
    table.save(tmp_path)
    assert np.load(tmp_path / VECTORS_FILE).shape == (0, WIDTH)
    assert len(SentenceTable.load(tmp_path, WIDTH)) == 0


def test_bad_shapes_are_refused_with_the_key_named(tmp_path: Path) -> None:
    table = SentenceTable(WIDTH, tmp_path)
    with pytest.raises(ValueError, match="k1: 2 spans but 3 vectors"):
        table["k1"] = ([(0, 1), (2, 3)], np.zeros((3, WIDTH), np.float16))
    with pytest.raises(ValueError, match="width must be positive, got 0"):
        SentenceTable(0)
    table["k2"] = _rows(1, 1)
    table.save(tmp_path)
    with pytest.raises(ValueError, match=r"expected \(8,\)"):
        SentenceTable.load(tmp_path, 8)


def test_a_table_saved_in_place_twice_keeps_its_rows(tmp_path: Path) -> None:
    first = SentenceTable(WIDTH, tmp_path)
    first["a"], first["b"] = _rows(2, 1), _rows(3, 2)
    first.save(tmp_path)
    table = SentenceTable.load(tmp_path, WIDTH)
    table["c"] = _rows(1, 3)
    table.save(tmp_path)
    del table["a"]
    table.save(tmp_path)  # reads the rows of the first files, replaced twice since
    again = SentenceTable.load(tmp_path, WIDTH)
    _same(again["b"], _rows(3, 2))
    _same(again["c"], _rows(1, 3))
    assert "a" not in table and table.pop("b")[0] == _rows(3, 2)[0] and "b" not in table


def test_files_that_disagree_are_refused(tmp_path: Path) -> None:
    table = SentenceTable(WIDTH, tmp_path)
    table["a"] = _rows(2, 1)
    table.save(tmp_path)
    meta = json.loads((tmp_path / KEYS_FILE).read_text())
    (tmp_path / KEYS_FILE).write_text(json.dumps({**meta, "rows": [3]}))
    with pytest.raises(ValueError, match="lists 3 rows"):
        SentenceTable.load(tmp_path, WIDTH)
    np.save(tmp_path / VECTORS_FILE, np.zeros((2, WIDTH), np.float32))
    (tmp_path / KEYS_FILE).write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="holds float32"):
        SentenceTable.load(tmp_path, WIDTH)


def test_keys_without_sentences_read_back_empty(tmp_path: Path) -> None:
    table = SentenceTable(WIDTH, tmp_path)
    table["blank"] = ([], np.zeros((0, WIDTH), np.float16))
    table.save(tmp_path)
    spans, vectors = SentenceTable.load(tmp_path, WIDTH)["blank"]
    assert spans == [] and vectors.shape == (0, WIDTH)
