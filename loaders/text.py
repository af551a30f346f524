"""Plain-text loader: the file's decoded text is the canonical text, one segment."""

from __future__ import annotations

from pathlib import Path

from loaders.base import ParsedDocument, Segment
from loaders.decode import decode_text


def load_text(path: Path, data: bytes) -> ParsedDocument:
    """Load a plain-text file.

    Args:
        path: The file's path (used for the title).
        data: The file's bytes.

    Returns:
        The parsed document with a single segment spanning the whole text.
    """
    text = decode_text(data, path)
    return ParsedDocument(
        text=text,
        segments=[Segment(0, len(text))],
        title=path.stem.replace("_", " "),
        file_type="text",
        parser="citerag.text/1",
    )
