"""Receive one uploaded file: stream a multipart body to disk under a hard size cap.

The body is never held in memory: it is parsed as it arrives and the file part is written to
a temporary file, so an oversized upload is refused (413) as soon as it crosses the limit,
or before a byte is read when ``Content-Length`` already says it is too large. The file
type is checked from the part's file name before its data is read (415).

Client file names are never used as paths. :func:`display_name` keeps a readable, cleaned
name for citations; :func:`stored_name` derives an ASCII-only file name that is safe on any
file system, keeping the original (validated) suffix.
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from python_multipart.multipart import MultipartParser, parse_options_header

from loaders.file_types import SAVE_AS

#: Bytes a multipart body may carry besides the file itself (boundaries, headers, fields).
MULTIPART_OVERHEAD = 64 * 1024
#: Longest kept display name (characters).
MAX_NAME_CHARS = 200
#: Longest form field value other than the file (bytes).
MAX_FIELD_BYTES = 1024
#: The form field that carries the file.
FILE_FIELD = "file"
#: Form fields accepted besides the file.
TEXT_FIELDS = ("access",)


class UploadError(Exception):
    """An upload is refused with an HTTP status and a message for the client."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def display_name(raw: str) -> str:
    """Clean a client-supplied file name for display (never for paths).

    Keeps only the last path component (``/`` and ``\\`` both separate), normalises Unicode
    (NFC), drops control and format characters (e.g. bidi overrides), trims spaces and
    dots and shortens it, keeping the suffix.

    Returns:
        The cleaned name (``upload`` if nothing is left).
    """
    name = re.split(r"[/\\]", raw or "")[-1]
    name = unicodedata.normalize("NFC", name)
    name = "".join(ch for ch in name if unicodedata.category(ch)[0] not in ("C", "Z") or ch == " ")
    name = " ".join(name.split()).strip(" .")
    if len(name) > MAX_NAME_CHARS:
        stem, dot, suffix = name.rpartition(".")
        if dot and 0 < len(suffix) <= 10:
            name = stem[: MAX_NAME_CHARS - len(suffix) - 1] + "." + suffix
        else:
            name = name[:MAX_NAME_CHARS]
    return name or "upload"


def file_suffix(name: str) -> str:
    """The lower-cased suffix of a (display) name, ``''`` if it has none."""
    return Path(name).suffix.lower() if "." in name.strip(".") else ""


def stored_name(display: str, suffix: str) -> str:
    """An ASCII-only, path-safe file name derived from a display name.

    Letters are transliterated where Unicode allows (``Überblick`` -> ``Uberblick``); any
    other character becomes ``_``. The result never starts with a dot and never contains a
    separator.

    Args:
        display: The cleaned display name.
        suffix: The validated, lower-case suffix including the dot (e.g. ``.pdf``).

    Returns:
        For example ``Q3_report.pdf``; ``document.pdf`` when nothing usable is left.
    """
    stem = display[: -len(suffix)] if suffix and display.lower().endswith(suffix) else display
    ascii_stem = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^A-Za-z0-9_-]+", "_", ascii_stem).strip("_-")[:64].strip("_-")
    return f"{slug or 'document'}{suffix}"


@dataclass
class ReceivedUpload:
    """A file received into a temporary path.

    Attributes:
        path: Temporary file holding the bytes (the caller moves or deletes it).
        original_name: The file name exactly as the client sent it.
        name: Cleaned display name.
        suffix: Validated lower-case suffix.
        size: Bytes received.
        sha256: Hex digest of the bytes.
        fields: Other form fields (``access``).
    """

    path: Path
    original_name: str
    name: str
    suffix: str
    size: int
    sha256: str
    fields: dict[str, str] = field(default_factory=dict)


class _Receiver:
    """Multipart callbacks: one file part to disk, a few short text fields in memory."""

    def __init__(self, tmp_dir: Path, max_bytes: int, allowed: tuple[str, ...]) -> None:
        self.tmp_dir = tmp_dir
        self.max_bytes = max_bytes
        self.allowed = allowed
        self.fields: dict[str, str] = {}
        self.upload: ReceivedUpload | None = None
        self._fh: IO[bytes] | None = None
        self._hash = hashlib.sha256()
        self._header_name = b""
        self._header_value = b""
        self._disposition = b""
        self._part: str = ""  # "file", a text field name, or "" (ignored part)
        self._field_buf = bytearray()

    def on_part_begin(self) -> None:
        self._disposition = b""
        self._part = ""
        self._field_buf = bytearray()

    def on_header_field(self, data: bytes, start: int, end: int) -> None:
        self._header_name += data[start:end]

    def on_header_value(self, data: bytes, start: int, end: int) -> None:
        self._header_value += data[start:end]

    def on_header_end(self) -> None:
        if self._header_name.strip().lower() == b"content-disposition":
            self._disposition = self._header_value
        self._header_name = b""
        self._header_value = b""

    def on_headers_finished(self) -> None:
        _, options = parse_options_header(self._disposition)
        name = options.get(b"name", b"").decode("utf-8", "replace")
        if b"filename" in options:
            if name != FILE_FIELD:
                raise UploadError(422, f"send the file in the form field {FILE_FIELD!r}")
            if self.upload is not None:
                raise UploadError(422, "send exactly one file per request")
            original = _filename(options)
            shown = display_name(original)
            suffix = file_suffix(shown)
            if suffix not in self.allowed:
                hint = SAVE_AS.get(suffix)
                raise UploadError(
                    415,
                    f"unsupported file type {suffix or '(no suffix)'!r}; "
                    + (f"{hint}; " if hint else "")
                    + f"supported: {', '.join(self.allowed)}",
                )
            self.tmp_dir.mkdir(parents=True, exist_ok=True)
            path = self.tmp_dir / f"{uuid.uuid4().hex}.part"
            self._fh = path.open("xb")
            self.upload = ReceivedUpload(path, original, shown, suffix, 0, "")
            self._part = FILE_FIELD
        elif name in TEXT_FIELDS:
            self._part = name
        elif name == FILE_FIELD:
            raise UploadError(422, f"the {FILE_FIELD!r} field must carry a file name")
        else:
            raise UploadError(422, f"unexpected form field {name!r}")

    def on_part_data(self, data: bytes, start: int, end: int) -> None:
        chunk = data[start:end]
        if self._part == FILE_FIELD and self.upload is not None and self._fh is not None:
            self.upload.size += len(chunk)
            if self.upload.size > self.max_bytes:
                raise UploadError(413, f"file larger than the limit of {self.max_bytes} bytes")
            self._hash.update(chunk)
            self._fh.write(chunk)
        elif self._part:
            self._field_buf += chunk
            if len(self._field_buf) > MAX_FIELD_BYTES:
                raise UploadError(422, f"form field {self._part!r} is too long")

    def on_part_end(self) -> None:
        if self._part == FILE_FIELD and self._fh is not None and self.upload is not None:
            self._fh.flush()
            os.fsync(self._fh.fileno())
            self._fh.close()
            self._fh = None
            self.upload.sha256 = self._hash.hexdigest()
        elif self._part:
            self.fields[self._part] = self._field_buf.decode("utf-8", "replace").strip()

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


def _filename(options: dict[bytes, bytes]) -> str:
    """The file name from Content-Disposition options (raw UTF-8, as browsers send it).

    RFC 7578 forbids ``filename*`` in form data; python-multipart drops it, so such a part
    arrives without a file name and is refused.
    """
    return options.get(b"filename", b"").decode("utf-8", "replace")


async def receive_upload(
    headers: Any,
    stream: AsyncIterator[bytes],
    *,
    tmp_dir: Path,
    max_bytes: int,
    allowed: tuple[str, ...],
) -> ReceivedUpload:
    """Stream a ``multipart/form-data`` body with one file part to a temporary file.

    Args:
        headers: The request headers (a case-insensitive mapping).
        stream: The request body chunks.
        tmp_dir: Folder for the temporary file (same file system as the final place).
        max_bytes: Largest accepted file.
        allowed: Accepted lower-case suffixes.

    Returns:
        The received file.

    Raises:
        UploadError: 413 too large, 415 wrong request or file type, 422 malformed form.
    """
    ctype, params = parse_options_header(headers.get("content-type", ""))
    if ctype != b"multipart/form-data" or b"boundary" not in params:
        raise UploadError(415, "send the file as multipart/form-data (field 'file')")
    declared = headers.get("content-length")
    if declared is not None:
        try:
            declared_n = int(declared)
        except ValueError:
            raise UploadError(400, "invalid Content-Length") from None
        if declared_n > max_bytes + MULTIPART_OVERHEAD:
            raise UploadError(413, f"request larger than the upload limit of {max_bytes} bytes")
    receiver = _Receiver(tmp_dir, max_bytes, allowed)
    callbacks = {
        "on_part_begin": receiver.on_part_begin,
        "on_part_data": receiver.on_part_data,
        "on_part_end": receiver.on_part_end,
        "on_header_field": receiver.on_header_field,
        "on_header_value": receiver.on_header_value,
        "on_header_end": receiver.on_header_end,
        "on_headers_finished": receiver.on_headers_finished,
    }
    parser = MultipartParser(params[b"boundary"], callbacks)  # type: ignore[arg-type]
    total = 0
    try:
        async for chunk in stream:
            total += len(chunk)
            if total > max_bytes + MULTIPART_OVERHEAD:
                raise UploadError(413, f"request larger than the upload limit of {max_bytes} bytes")
            try:
                parser.write(chunk)
            except UploadError:
                raise
            except Exception as exc:  # python-multipart's parse errors
                raise UploadError(422, f"malformed multipart body: {exc}") from None
        parser.finalize()
        upload = receiver.upload
        if upload is None:
            raise UploadError(422, f"no file: send one in the form field {FILE_FIELD!r}")
        if receiver._fh is not None:
            raise UploadError(422, "the multipart body ended inside the file part")
        if upload.size == 0:
            raise UploadError(422, "the file is empty")
        upload.fields = dict(receiver.fields)
        return upload
    except BaseException:
        receiver.close()
        if receiver.upload is not None:
            receiver.upload.path.unlink(missing_ok=True)
        raise
