"""Append-only anonymous files of fixed-width rows: where an ingest writer keeps what it does
not need in memory (sentence vectors and spans, queued chunk vectors).

The file is created on the first append, in the given folder (the temporary build folder),
and unlinked at creation: it never appears in a published build and vanishes on a crash.
Rows are written with plain writes, so they live in the page cache, not in the process.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

_BLOCK = 1 << 24


class RowFile:
    """Rows of ``width`` values of one ``dtype``, appended to an anonymous file.

    Attributes:
        rows: Rows written.
    """

    def __init__(self, folder: Path | None, dtype: np.dtype[Any], width: int) -> None:
        """Describe the file (created on the first :meth:`append`, in ``folder``)."""
        self.folder = folder
        self.dtype = np.dtype(dtype)
        self.width = width
        self.row_bytes = self.dtype.itemsize * width
        self.rows = 0
        self._file: Any = None

    def append(self, rows: np.ndarray) -> int:
        """Append ``(n, width)`` rows (converted to the dtype); returns the first one's number."""
        arr = np.ascontiguousarray(rows, dtype=self.dtype)
        if arr.ndim != 2 or arr.shape[1] != self.width:
            raise ValueError(f"rows of shape {arr.shape}, expected (n, {self.width})")
        if self._file is None:
            self._file = tempfile.TemporaryFile(dir=self.folder)  # noqa: SIM115
        first = self.rows
        self._file.write(arr.tobytes())
        self.rows += len(arr)
        return first

    def fileno(self) -> int:
        """The file's descriptor, everything appended flushed to it."""
        if self._file is None:
            self._file = tempfile.TemporaryFile(dir=self.folder)  # noqa: SIM115
        self._file.flush()
        return int(self._file.fileno())

    def read(self, start: int, n: int) -> np.ndarray:
        """Rows ``start .. start + n`` (a new read-only array)."""
        data = os.pread(self.fileno(), n * self.row_bytes, start * self.row_bytes)
        return np.frombuffer(data, self.dtype).reshape(n, self.width)

    def read_all_into(self, buffer: memoryview) -> None:
        """Copy every row, in order, into ``buffer`` (its length: ``rows * row_bytes``), a
        block at a time: nothing is held in between."""
        fd, offset, end = self.fileno(), 0, self.rows * self.row_bytes
        while offset < end:
            got = os.preadv(fd, [buffer[offset : min(offset + _BLOCK, end)]], offset)
            if got <= 0:
                raise OSError(f"{end - offset} bytes of rows missing")
            offset += got

    def clear(self) -> None:
        """Drop every row (the file stays, empty)."""
        if self._file is not None:
            self._file.seek(0)
            self._file.truncate()
        self.rows = 0

    def close(self) -> None:
        """Close (and so delete) the file."""
        if self._file is not None:
            self._file.close()
            self._file = None
