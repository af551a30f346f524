"""Plain-text loader: the file's decoded text is the canonical text, cut into sections at
the heading lines it shows (:mod:`loaders.headings`).

Large plain-text files are not loaded whole: :func:`scan_text` checks and hashes one in a
bounded-memory pass and :func:`iter_text` then yields its decoded text block by block (see
:func:`loaders.pipeline.stream_text_file`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from loaders.base import DocumentLoadError, ParsedDocument, Segment
from loaders.decode import (
    MAX_CONTROL_SHARE,
    candidate_encodings,
    decode_text,
    incremental_decoder,
    is_wide,
    junk_reason,
    nul_error,
)
from loaders.headings import split_at_headings
from loaders.metadata import file_title, opening_title


def load_text(path: Path, data: bytes) -> ParsedDocument:
    """Load a plain-text file.

    Args:
        path: The file's path (used for the title).
        data: The file's bytes.

    Returns:
        The parsed document with a single segment spanning the whole text.
    """
    text = decode_text(data, path)
    return text_document(text, path, "citerag.text/1")


def text_document(text: str, path: Path, parser: str) -> ParsedDocument:
    """A text file's document: one segment per section (cut at its heading lines,
    :func:`loaders.headings.split_at_headings`), titled by its first line when the file name
    agrees (:func:`loaders.metadata.opening_title`), else by the file name.

    Args:
        text: The decoded text (a streamed file's opening only).
        path: The file's path.
        parser: What read it.
    """
    opening = opening_title(text, path.name)
    segments, headings = split_at_headings(text, [Segment(0, len(text))], title=opening or "")
    return ParsedDocument(
        text=text,
        segments=segments,
        headings=[(h.start, h.end) for h in headings],
        title=opening or file_title(path.name),
        title_source="first_heading" if opening else "file_name",
        first_heading=opening,
        file_type="text",
        parser=parser,
    )


#: Bytes read from disk at a time when a text file is streamed.
STREAM_BLOCK_BYTES = 1 << 20
#: Suffixes of the files :func:`iter_text` can stream (those :func:`load_text` loads).
STREAMABLE_SUFFIXES = frozenset({".txt", ".text", ".rst"})
_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class TextScan:
    """What one pass over a text file's bytes found (no text is kept).

    Attributes:
        sha256: Hex sha256 of the bytes.
        size: Bytes.
        encoding: The codec that read it, chosen as :func:`~loaders.decode.decode_text`
            chooses (``utf-8-sig``; ``utf-16``/``utf-32`` after a byte-order mark;
            ``cp1252`` for a file that is not valid UTF-8).
        characters: Characters of the decoded text after newline normalisation.
    """

    sha256: str
    size: int
    encoding: str
    characters: int


def _blocks(path: Path, block_bytes: int) -> Iterator[bytes]:
    with path.open("rb") as fh:
        yield from iter(lambda: fh.read(block_bytes), b"")


def _decoded(path: Path, encoding: str, block_bytes: int) -> Iterator[str]:
    """Decode blocks incrementally; ``\\r\\n`` and ``\\r`` become ``\\n`` across block ends."""
    decoder = incremental_decoder(encoding)
    held = ""  # a trailing "\r" waits for the next block (it may be half of "\r\n")
    for block in _blocks(path, block_bytes):
        text = held + decoder.decode(block)
        held = ""
        if text.endswith("\r"):
            text, held = text[:-1], "\r"
        if text:
            yield text.replace("\r\n", "\n").replace("\r", "\n")
    tail = held + decoder.decode(b"", final=True)
    if tail:
        yield tail.replace("\r\n", "\n").replace("\r", "\n")


def scan_text(path: Path, block_bytes: int = STREAM_BLOCK_BYTES) -> TextScan:
    """Check a text file as :func:`~loaders.decode.decode_text` would, in bounded memory.

    Args:
        path: The file.
        block_bytes: Bytes read at a time.

    Returns:
        Its hash, size, encoding and decoded length.

    Raises:
        DocumentLoadError: For the same reasons as ``decode_text`` (empty, NUL bytes, not
            text, mostly control characters).
        OSError: If it cannot be read.
    """
    digest = hashlib.sha256()
    size = 0
    head = b""
    blank = True
    nul = False
    for block in _blocks(path, block_bytes):
        if len(head) < 4:
            head += block[: 4 - len(head)]
        digest.update(block)
        size += len(block)
        nul = nul or b"\x00" in block
        blank = blank and not block.strip()
    candidates = candidate_encodings(head)
    if nul and not is_wide(candidates[0]):
        raise nul_error(path)
    if blank:
        raise DocumentLoadError(f"{path.name}: the file is empty", kind="empty")
    for encoding in candidates:
        try:
            count = _count(path, encoding, block_bytes)
            break
        except UnicodeDecodeError:
            continue
    else:  # pragma: no cover - the last candidate (Windows-1252) decodes any bytes
        raise AssertionError("unreachable")
    if not count.text:
        raise DocumentLoadError(f"{path.name}: the file is empty", kind="empty")
    if count.nul:
        raise nul_error(path)
    if count.bad > MAX_CONTROL_SHARE * count.chars:
        raise DocumentLoadError(junk_reason(path, encoding), kind="binary")
    return TextScan(digest.hexdigest(), size, encoding, count.chars)


@dataclass(frozen=True)
class _Count:
    chars: int
    bad: int
    nul: bool
    text: bool


def _count(path: Path, encoding: str, block_bytes: int) -> _Count:
    """Decoded characters and control characters (other than whitespace) of a file, whether
    it holds a NUL and whether it holds anything but whitespace."""
    chars = bad = 0
    nul = text_seen = False
    for text in _decoded(path, encoding, block_bytes):
        chars += len(text)
        bad += len(_CONTROL.findall(text))
        nul = nul or "\x00" in text
        text_seen = text_seen or bool(text.strip())
    return _Count(chars, bad, nul, text_seen)


def iter_text(path: Path, encoding: str, block_bytes: int = STREAM_BLOCK_BYTES) -> Iterator[str]:
    """The decoded, newline-normalised text of a file, block by block.

    The blocks joined equal :func:`~loaders.decode.decode_text` of the whole file (for a file
    :func:`scan_text` accepted with this ``encoding``); only one block is held at a time.

    Args:
        path: The file.
        encoding: From :func:`scan_text`.
        block_bytes: Bytes read at a time.

    Yields:
        Consecutive pieces of the text.
    """
    yield from _decoded(path, encoding, block_bytes)
