"""Upload reception: safe names, the streaming multipart parser's caps and errors."""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from citerag.server.uploads import (
    MULTIPART_OVERHEAD,
    UploadError,
    display_name,
    file_suffix,
    receive_upload,
    stored_name,
)

ALLOWED = (".pdf", ".md", ".txt")
BOUNDARY = "testboundary123"


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("report.pdf", "report.pdf"),
        ("../../etc/passwd.txt", "passwd.txt"),
        ("/abs/path/x.md", "x.md"),
        ("C:\\Users\\me\\..\\doc.txt", "doc.txt"),
        ("\u202egnp.exe.md", "gnp.exe.md"),
        ("a\x00b\x1fc.md", "abc.md"),
        ("  ..hidden.md. ", "hidden.md"),
        ("", "upload"),
        ("../", "upload"),
        ("Cafe\u0301 menu.md", "Café menu.md"),  # NFC
        ("tab\tand\nnewline.md", "tabandnewline.md"),
    ],
)
def test_display_name(raw: str, shown: str):
    assert display_name(raw) == shown


def test_display_name_is_bounded_and_keeps_the_suffix():
    name = display_name("x" * 500 + ".pdf")
    assert len(name) == 200 and name.endswith(".pdf")


@pytest.mark.parametrize(
    ("shown", "suffix", "stored"),
    [
        ("report.pdf", ".pdf", "report.pdf"),
        ("Q3 report (final).PDF", ".pdf", "Q3_report_final.pdf"),
        ("Überblick.md", ".md", "Uberblick.md"),
        ("日本語.txt", ".txt", "document.txt"),
        ("..∕..∕escape.md", ".md", "escape.md"),
        ("-rf.txt", ".txt", "rf.txt"),
    ],
)
def test_stored_name_is_ascii_and_path_safe(shown: str, suffix: str, stored: str):
    out = stored_name(shown, suffix)
    assert out == stored
    assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*\.[a-z]+", out)


def test_file_suffix():
    assert file_suffix("a.PDF") == ".pdf"
    assert file_suffix("noext") == ""
    assert file_suffix("upload") == ""
    assert file_suffix("archive.tar.gz") == ".gz"


def body(parts: list[tuple[str, str | None, bytes]]) -> bytes:
    out = b""
    for name, filename, data in parts:
        disp = f'form-data; name="{name}"'
        if filename is not None:
            disp += f'; filename="{filename}"'
        out += f"--{BOUNDARY}\r\nContent-Disposition: {disp}\r\n\r\n".encode() + data + b"\r\n"
    return out + f"--{BOUNDARY}--\r\n".encode()


async def chunks(data: bytes, size: int = 7) -> AsyncIterator[bytes]:
    for i in range(0, len(data), size):
        yield data[i : i + size]


def receive(
    data: bytes, tmp: Path, *, max_bytes: int = 1000, length: bool = True, ctype: str | None = None
):
    headers = {"content-type": ctype or f"multipart/form-data; boundary={BOUNDARY}"}
    if length:
        headers["content-length"] = str(len(data))
    return asyncio.run(
        receive_upload(headers, chunks(data), tmp_dir=tmp, max_bytes=max_bytes, allowed=ALLOWED)
    )


def test_receives_one_file_and_fields(tmp_path: Path):
    payload = b"# Title\n\nSome text.\n" * 3
    up = receive(body([("access", None, b"board"), ("file", "../x/Notes.md", payload)]), tmp_path)
    assert up.path.read_bytes() == payload
    assert up.size == len(payload) and up.sha256 == hashlib.sha256(payload).hexdigest()
    assert up.name == "Notes.md" and up.suffix == ".md" and up.original_name == "../x/Notes.md"
    assert up.fields == {"access": "board"}
    assert up.path.parent == tmp_path


@pytest.mark.parametrize("length", [True, False])
def test_too_large_is_413_and_leaves_no_file(tmp_path: Path, length: bool):
    data = body([("file", "a.txt", b"x" * 1001)])
    with pytest.raises(UploadError) as err:
        receive(data, tmp_path, length=length)
    assert err.value.status == 413
    assert list(tmp_path.glob("*")) == []


def test_content_length_is_checked_before_reading(tmp_path: Path):
    headers = {
        "content-type": f"multipart/form-data; boundary={BOUNDARY}",
        "content-length": str(1000 + MULTIPART_OVERHEAD + 1),
    }

    async def never() -> AsyncIterator[bytes]:
        raise AssertionError("the body must not be read")
        yield b""

    with pytest.raises(UploadError) as err:
        asyncio.run(
            receive_upload(headers, never(), tmp_dir=tmp_path, max_bytes=1000, allowed=ALLOWED)
        )
    assert err.value.status == 413


def test_exactly_at_the_limit_is_accepted(tmp_path: Path):
    up = receive(body([("file", "a.txt", b"x" * 1000)]), tmp_path)
    assert up.size == 1000


@pytest.mark.parametrize(
    ("parts", "status"),
    [
        ([("file", "a.exe", b"MZ")], 415),
        ([("file", "noext", b"abc")], 415),
        ([("file", "a.md", b"")], 422),
        ([("other", "a.md", b"abc")], 422),
        ([("access", None, b"public")], 422),
        ([("file", "a.md", b"a"), ("file", "b.md", b"b")], 422),
        ([("unknown", None, b"x")], 422),
        ([("access", None, b"x" * 2000), ("file", "a.md", b"abc")], 422),
    ],
)
def test_bad_forms(tmp_path: Path, parts, status: int):
    with pytest.raises(UploadError) as err:
        receive(body(parts), tmp_path, max_bytes=10_000)
    assert err.value.status == status
    assert list(tmp_path.glob("*")) == []


def test_not_multipart_is_415(tmp_path: Path):
    with pytest.raises(UploadError) as err:
        receive(b"{}", tmp_path, ctype="application/json")
    assert err.value.status == 415


def test_truncated_body_is_422(tmp_path: Path):
    data = body([("file", "a.md", b"abcdef" * 10)])
    with pytest.raises(UploadError) as err:
        receive(data[: len(data) // 2], tmp_path, length=False)
    assert err.value.status == 422
    assert list(tmp_path.glob("*")) == []


def test_utf8_filename_and_rfc5987_refusal(tmp_path: Path):
    data = (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; '
        f'filename="Überblick Q3.md"\r\n\r\nhello\r\n--{BOUNDARY}--\r\n'
    ).encode()
    up = receive(data, tmp_path)
    assert up.name == "Überblick Q3.md"
    assert stored_name(up.name, up.suffix) == "Uberblick_Q3.md"
    star = data.replace(b'filename="\xc3\x9cberblick Q3.md"', b"filename*=UTF-8''x.md")
    with pytest.raises(UploadError) as err:
        receive(star, tmp_path / "other")
    assert err.value.status == 422
