"""RowFile: fixed-width rows in an anonymous file that no build folder ever shows."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from citerag.stores.faiss.row_file import RowFile


def test_rows_round_trip_through_the_file_and_clear(tmp_path: Path) -> None:
    rows = RowFile(tmp_path, np.dtype(np.float32), 3)
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    assert rows.append(a) == 0 and rows.append(a + 10) == 2 and rows.rows == 4
    assert list(tmp_path.iterdir()) == []
    np.testing.assert_array_equal(rows.read(2, 2), (a + 10).astype(np.float32))
    out = bytearray(4 * rows.row_bytes)
    rows.read_all_into(memoryview(out))
    np.testing.assert_array_equal(
        np.frombuffer(bytes(out), np.float32).reshape(4, 3), np.vstack([a, a + 10])
    )
    rows.clear()
    assert rows.rows == 0 and rows.append(a[:1]) == 0
    np.testing.assert_array_equal(rows.read(0, 1), a[:1].astype(np.float32))
    with pytest.raises(ValueError, match=r"rows of shape \(2, 2\), expected \(n, 3\)"):
        rows.append(np.zeros((2, 2)))
