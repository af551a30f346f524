"""Sentence spans and vectors by chunk key, kept on disk instead of in the process's memory.

The sentence vectors are the largest part of a FAISS build (a 60 MiB text: about 680,000
float16 rows, 0.5 GB, more than the chunk vectors and the docstore together). A
:class:`SentenceTable` holds only ``key -> (segment, first row, rows)`` in memory:

* the rows of a loaded build stay in its ``sentences.npy`` / ``sentence_spans.npy``, memory
  mapped read-only (a reader pages in only the chunks it reranks);
* rows added since are appended to an anonymous temporary file in ``spill_dir`` (the build
  folder when there is one) through plain writes, so they live in the page cache, not in the
  writer's resident memory;
* :meth:`SentenceTable.save` writes the live rows, in key order, into a new pair of ``.npy``
  files with kernel-side copies (``os.copy_file_range``), never building the matrix in memory.

The files of a build: ``sentences.npy`` (float16, one row per sentence), ``sentence_spans.npy``
(int32 ``(start, end)`` per row, within the chunk's ``metadata["content"]``) and
``sentences.json`` (``{"format": 2, "keys": [...], "rows": [...]}``: each key's row count, in
file order). Builds written before format 2 keep their spans in ``sentences.json``
(``{"keys", "spans"}``) and are still read.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator, Mapping, MutableMapping
from pathlib import Path
from typing import IO

import numpy as np

from citerag.stores.contract import SentenceVectors
from citerag.stores.faiss.row_file import RowFile

log = logging.getLogger(__name__)

#: The dtype sentence vectors are stored in.
VECTOR_DTYPE = np.dtype(np.float16)
#: The dtype of the spans file.
SPAN_DTYPE = np.dtype(np.int32)
VECTORS_FILE = "sentences.npy"
SPANS_FILE = "sentence_spans.npy"
KEYS_FILE = "sentences.json"
#: ``sentences.json`` format written by :meth:`SentenceTable.save`.
FORMAT = 2
_BASE, _SPILL = 0, 1
_COPY_BLOCK = 1 << 24


class _Spill:
    """The rows added since load: vectors and spans, each in a :class:`RowFile`."""

    def __init__(self, folder: Path | None, width: int) -> None:
        self.vectors = RowFile(folder, VECTOR_DTYPE, width)
        self.spans = RowFile(folder, SPAN_DTYPE, 2)

    def append(self, spans: np.ndarray, vectors: np.ndarray) -> int:
        """Append rows; returns the first row's number."""
        self.vectors.append(vectors)
        return self.spans.append(spans)

    def read(self, start: int, n: int) -> tuple[np.ndarray, np.ndarray]:
        """Rows ``start .. start + n`` (spans, vectors)."""
        return self.spans.read(start, n), self.vectors.read(start, n)

    def close(self) -> None:
        self.vectors.close()
        self.spans.close()


class _Base:
    """The read-only row files of a loaded build."""

    def __init__(self, vectors: Path, spans: np.ndarray | Path) -> None:
        mapped = np.load(vectors, mmap_mode="r")
        if mapped.dtype != VECTOR_DTYPE:
            raise ValueError(f"{vectors} holds {mapped.dtype}, expected {VECTOR_DTYPE}")
        self.vectors_offset = _data_offset(mapped)
        # a plain read-only view of the mapping: slicing an ndarray is cheaper than a memmap
        self.vectors: np.ndarray = mapped.view(np.ndarray)
        # Open once: a save in place replaces the files, and these handles keep reading the
        # rows the table refers to (as the memory maps do).
        self.vectors_file = vectors.open("rb")
        self.spans_offset = 0
        self.spans_file: IO[bytes] | None = None
        if isinstance(spans, Path):
            mapped_spans = np.load(spans, mmap_mode="r")
            self.spans_offset = _data_offset(mapped_spans)
            self.spans: np.ndarray = mapped_spans.view(np.ndarray)
            self.spans_file = spans.open("rb")
        else:
            self.spans = spans
        if len(self.vectors) != len(self.spans):
            raise ValueError(
                f"{vectors} has {len(self.vectors)} rows but the spans have {len(self.spans)}"
            )

    def close(self) -> None:
        self.vectors_file.close()
        if self.spans_file is not None:
            self.spans_file.close()


class SentenceTable(MutableMapping[str, SentenceVectors]):
    """A mapping ``chunk key -> (sentence spans, float16 vectors)`` backed by files.

    Reads return fresh spans lists and read-only vector arrays; writes append to the spill
    file (a replaced or deleted key's old rows stay there, unreachable, until the store is
    discarded; :meth:`save` writes only live rows).
    """

    def __init__(self, width: int, spill_dir: Path | None = None) -> None:
        """Create an empty table.

        Args:
            width: Vector dimension.
            spill_dir: Folder for the anonymous spill files (created on the first write;
                ``None``: the system's temporary folder).
        """
        if width <= 0:
            raise ValueError(f"width must be positive, got {width}")
        self.width = width
        self.spill_dir = spill_dir
        self._rows: dict[str, tuple[int, int, int]] = {}
        self._base: _Base | None = None
        self._spill: _Spill | None = None

    # -- Mapping ----------------------------------------------------------------------------

    def __getitem__(self, key: str) -> SentenceVectors:
        segment, start, n = self._rows[key]
        if n == 0:
            return [], np.zeros((0, self.width), VECTOR_DTYPE)
        if segment == _BASE:
            assert self._base is not None
            spans = self._base.spans[start : start + n]
            vectors = self._base.vectors[start : start + n]
        else:
            assert self._spill is not None
            spans, vectors = self._spill.read(start, n)
        return [(int(s), int(e)) for s, e in spans], vectors

    def __setitem__(self, key: str, value: SentenceVectors) -> None:
        spans, vectors = value
        span_arr = np.asarray(spans, dtype=SPAN_DTYPE).reshape(-1, 2)
        vec_arr = np.asarray(vectors).reshape(-1, self.width) if len(span_arr) else None
        if vec_arr is not None and len(vec_arr) != len(span_arr):
            raise ValueError(f"{key}: {len(span_arr)} spans but {len(vec_arr)} vectors")
        if self._spill is None:
            self._spill = _Spill(self.spill_dir, self.width)
        first = self._spill.append(
            span_arr, vec_arr if vec_arr is not None else np.zeros((0, self.width))
        )
        self._rows[key] = (_SPILL, first, len(span_arr))

    def __delitem__(self, key: str) -> None:
        del self._rows[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, key: object) -> bool:
        return key in self._rows

    def rows(self) -> int:
        """Sentence rows held by live keys."""
        return sum(n for _, _, n in self._rows.values())

    def close(self) -> None:
        """Close the files (the table is unusable afterwards)."""
        if self._spill is not None:
            self._spill.close()
            self._spill = None
        if self._base is not None:
            self._base.close()

    # -- persistence ------------------------------------------------------------------------

    def save(self, folder: Path) -> None:
        """Write the live rows into ``folder`` (:data:`VECTORS_FILE`, :data:`SPANS_FILE`,
        :data:`KEYS_FILE`), replacing any files there, without holding them in memory.

        Files are written under temporary names and renamed, so a build folder that is also
        the loaded base can be saved in place.
        """
        keys = list(self._rows)
        counts = [self._rows[k][2] for k in keys]
        total = sum(counts)
        runs = _runs(self._rows[k] for k in keys)
        for name, dtype, width, source in (
            (VECTORS_FILE, VECTOR_DTYPE, self.width, "vectors"),
            (SPANS_FILE, SPAN_DTYPE, 2, "spans"),
        ):
            tmp = folder / f".{name}.tmp"
            with tmp.open("wb") as out:
                np.lib.format.write_array_header_1_0(
                    out,
                    {
                        "descr": np.lib.format.dtype_to_descr(dtype),
                        "fortran_order": False,
                        "shape": (total, width),
                    },
                )
                row_bytes = dtype.itemsize * width
                for segment, start, n in runs:
                    self._copy_rows(out, source, segment, start, n, row_bytes)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, folder / name)
        payload = {"format": FORMAT, "keys": keys, "rows": counts}
        tmp = folder / f".{KEYS_FILE}.tmp"
        tmp.write_text(json.dumps(payload))
        os.replace(tmp, folder / KEYS_FILE)

    def _copy_rows(
        self, out: IO[bytes], source: str, segment: int, start: int, n: int, row_bytes: int
    ) -> None:
        """Append rows ``start .. start + n`` of one segment's file to ``out``."""
        if segment == _SPILL:
            assert self._spill is not None
            src = self._spill.vectors if source == "vectors" else self._spill.spans
            _copy_range(src.fileno(), start * row_bytes, n * row_bytes, out)
            return
        base = self._base
        assert base is not None
        src_file: IO[bytes]
        if source == "vectors":
            src_file, offset = base.vectors_file, base.vectors_offset
        elif base.spans_file is None:  # spans of a format-1 build: held in memory
            out.write(np.ascontiguousarray(base.spans[start : start + n], SPAN_DTYPE).tobytes())
            return
        else:
            src_file, offset = base.spans_file, base.spans_offset
        _copy_range(src_file.fileno(), offset + start * row_bytes, n * row_bytes, out)

    @classmethod
    def load(cls, folder: Path, width: int, spill_dir: Path | None = None) -> SentenceTable:
        """Open the sentence files of a build folder (an empty table when there are none).

        Args:
            folder: The build folder.
            width: Vector dimension.
            spill_dir: Where rows added later are spilled (``None``: the system's temporary
                folder; a writer passes its temporary build folder).
        """
        table = cls(width, spill_dir)
        keys_file = folder / KEYS_FILE
        if not keys_file.exists():
            return table
        meta = json.loads(keys_file.read_text())
        keys: list[str] = meta["keys"]
        if "rows" in meta:
            counts = [int(n) for n in meta["rows"]]
            spans: np.ndarray | Path = folder / SPANS_FILE
        else:  # format 1: spans in the JSON file
            counts = [len(meta["spans"][k]) for k in keys]
            flat = [s for k in keys for s in meta["spans"][k]]
            spans = np.asarray(flat, dtype=SPAN_DTYPE).reshape(-1, 2)
        if sum(counts):
            table._base = _Base(folder / VECTORS_FILE, spans)
            if len(table._base.vectors) != sum(counts):
                raise ValueError(
                    f"{folder / KEYS_FILE} lists {sum(counts)} rows but "
                    f"{folder / VECTORS_FILE} has {len(table._base.vectors)}"
                )
            if table._base.vectors.shape[1:] != (width,):
                raise ValueError(
                    f"{folder / VECTORS_FILE} has rows of {table._base.vectors.shape[1:]}, "
                    f"expected ({width},)"
                )
        row = 0
        for key, n in zip(keys, counts, strict=True):
            table._rows[key] = (_BASE, row, n)
            row += n
        return table

    @classmethod
    def of(
        cls, items: Mapping[str, SentenceVectors], width: int, spill_dir: Path | None = None
    ) -> SentenceTable:
        """A table holding a copy of ``items`` (itself when it already is a table)."""
        if isinstance(items, SentenceTable):
            return items
        table = cls(width, spill_dir)
        for key, value in items.items():
            table[key] = value
        return table


def _runs(entries: Iterator[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """Merge consecutive ``(segment, start, n)`` entries that are contiguous in one file."""
    out: list[tuple[int, int, int]] = []
    for segment, start, n in entries:
        if n == 0:
            continue
        if out and out[-1][0] == segment and out[-1][1] + out[-1][2] == start:
            out[-1] = (segment, out[-1][1], out[-1][2] + n)
        else:
            out.append((segment, start, n))
    return out


def _data_offset(array: np.ndarray) -> int:
    """Byte offset of a memory-mapped ``.npy`` array's data in its file."""
    if not isinstance(array, np.memmap):
        raise TypeError("expected a memory-mapped array")
    return int(array.offset)


def _copy_range(src_fd: int, offset: int, count: int, out: IO[bytes]) -> None:
    """Append ``count`` bytes of ``src_fd`` from ``offset`` to ``out``, in the kernel where it
    can (``os.copy_file_range``), else through a bounded buffer."""
    out.flush()
    dst_fd = out.fileno()
    while count > 0:
        try:
            done = os.copy_file_range(src_fd, dst_fd, min(count, _COPY_BLOCK), offset)
        except (AttributeError, OSError):
            done = 0
        if done <= 0:
            block = os.pread(src_fd, min(count, _COPY_BLOCK), offset)
            if not block:
                raise OSError(f"short read: {count} bytes missing at offset {offset}")
            os.write(dst_fd, block)
            done = len(block)
        offset += done
        count -= done
    os.lseek(dst_fd, 0, os.SEEK_END)
