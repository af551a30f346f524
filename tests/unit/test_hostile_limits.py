"""The limits that bound a hostile file's memory: each refuses before the loader reads past it
(a file by its size on disk, an XML part read whole by its declared size, a workbook's or
CSV's text as it is built), measured full size by ``benchmarks/hostile_files.py``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from loaders import office, registry, sheets
from loaders.base import DocumentLoadError
from loaders.chunking import ChunkSettings
from loaders.pipeline import SourceFile, process_file, sha256_file
from loaders.registry import load_file
from tests.support.hostile import (
    big_body_docx,
    long_rows_csv,
    million_row_xlsx,
    oversized_docx,
    shared_strings_xlsx,
)


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path: Path, monkeypatch) -> None:
    """Refused by its size on disk: a 10 GB file must not be read into memory first."""
    monkeypatch.setattr(registry, "MAX_FILE_BYTES", 50_000)
    path = oversized_docx(tmp_path / "big.docx", size=60_000)
    read: list[Path] = []
    real = Path.read_bytes

    def spy(self: Path) -> bytes:
        read.append(self)
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", spy)
    out = process_file(SourceFile(path, "docs/big.docx"), ChunkSettings())
    assert out.status == "failed" and out.kind == "too_large"
    assert out.reason == "big.docx: larger than 50000 bytes"
    assert out.sha256 == sha256_file(path)  # the ledger still knows the file's version
    with pytest.raises(DocumentLoadError) as err:
        load_file(path)
    assert err.value.kind == "too_large"
    assert path not in read


def test_an_xml_part_read_whole_is_capped(tmp_path: Path, monkeypatch) -> None:
    """A Word body part (parsed whole by python-docx) over the cap fails from the archive's
    directory; a worksheet as large is read row by row and is not refused by it."""
    monkeypatch.setattr(office, "MAX_XML_PART_BYTES", 1024 * 1024)
    with pytest.raises(DocumentLoadError) as err:
        load_file(big_body_docx(tmp_path / "body.docx", body_mib=2))
    assert err.value.kind == "too_large"
    assert "XML part word/document.xml" in err.value.reason and "read whole" in err.value.reason
    sheet = million_row_xlsx(tmp_path / "rows.xlsx", rows=20_000)
    doc = load_file(sheet)
    assert doc.file_type == "xlsx" and "item 19999" in doc.text


def test_shared_strings_cannot_expand_a_workbook_past_the_text_limit(
    tmp_path: Path, monkeypatch
) -> None:
    """200 cells referencing 32,000-character shared strings: the loader stops reading cells
    once the text passes the limit (before the fix it read all 6.4 million characters)."""
    monkeypatch.setattr(sheets, "MAX_TEXT_CHARS", 1_000_000)
    path = shared_strings_xlsx(tmp_path / "expand.xlsx", rows=100, strings=5)
    shown: list[Any] = []
    real = sheets.display_text

    def spy(value: Any, number_format: str | None) -> str:
        shown.append(value)
        return real(value, number_format)

    monkeypatch.setattr(sheets, "display_text", spy)
    with pytest.raises(DocumentLoadError) as err:
        load_file(path)
    assert err.value.kind == "too_large"
    assert err.value.reason == (
        "expand.xlsx: over 1000000 characters of text, the limit per workbook or CSV file"
    )
    # the 32nd cell of 32,000 characters passes 1,000,000: the other 168 are never read
    assert len(shown) == 1_000_000 // 32_000 + 1


def test_a_csv_over_the_text_limit_fails_before_its_rows_are_read(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(sheets, "MAX_TEXT_CHARS", 10_000)
    path = long_rows_csv(tmp_path / "notes.csv", rows=20, row_chars=2000)

    def no_rows(*_: Any) -> Any:
        raise AssertionError("rows read past the text limit")

    monkeypatch.setattr(sheets, "_records", no_rows)
    with pytest.raises(DocumentLoadError) as err:
        load_file(path)
    assert err.value.kind == "too_large" and "characters of text" in err.value.reason


def test_a_sheet_over_the_row_limit_fails_before_openpyxl_opens_the_workbook(
    tmp_path: Path, monkeypatch
) -> None:
    """openpyxl reads a whole sheet without a <dimension> to size it (a million rows: 20 s);
    the loader's own row count refuses it first."""
    import openpyxl

    monkeypatch.setattr(sheets, "MAX_SHEET_ROWS", 1000)
    path = million_row_xlsx(tmp_path / "log.xlsx", rows=1500)

    def never(*_: Any, **__: Any) -> Any:
        raise AssertionError("openpyxl opened a workbook over the limits")

    monkeypatch.setattr(openpyxl, "load_workbook", never)
    with pytest.raises(DocumentLoadError) as err:
        load_file(path)
    assert err.value.kind == "too_large"
    assert (
        err.value.reason
        == "log.xlsx: sheet 'Sales' has 1001 rows, over the limit of 1000 per sheet"
    )
