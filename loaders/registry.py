"""Choose a loader by file type and load one file into a :class:`ParsedDocument`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from loaders.base import DocumentLoadError, ParsedDocument
from loaders.blocks import detect_blocks, markdown_tables
from loaders.html import load_html
from loaders.image import load_image
from loaders.markdown import load_markdown
from loaders.pdf import load_pdf
from loaders.text import load_text

Loader = Callable[[Path, bytes], ParsedDocument]

#: File suffix (lower case) -> loader.
LOADERS: dict[str, Loader] = {
    ".pdf": load_pdf,
    ".md": load_markdown,
    ".markdown": load_markdown,
    ".html": load_html,
    ".htm": load_html,
    ".txt": load_text,
    ".text": load_text,
    ".rst": load_text,
    ".png": load_image,
    ".jpg": load_image,
    ".jpeg": load_image,
    ".tif": load_image,
    ".tiff": load_image,
}

#: Files larger than this are refused (bytes).
MAX_FILE_BYTES = 200 * 1024 * 1024


def is_supported(path: Path) -> bool:
    """Return whether a loader exists for this file's suffix."""
    return path.suffix.lower() in LOADERS


def load_file(path: Path, data: bytes | None = None) -> ParsedDocument:
    """Load a file with the loader for its type.

    Args:
        path: The file to load.
        data: Its bytes if already read (avoids a second read).

    Returns:
        The parsed document.

    Raises:
        DocumentLoadError: For unsupported types and any document that cannot be parsed.
    """
    loader = LOADERS.get(path.suffix.lower())
    if loader is None:
        supported = ", ".join(sorted(LOADERS))
        raise DocumentLoadError(
            f"{path.name}: unsupported file type '{path.suffix or '(none)'}' "
            f"(supported: {supported})",
            kind="unsupported",
        )
    if data is None:
        data = path.read_bytes()
    if len(data) > MAX_FILE_BYTES:
        raise DocumentLoadError(f"{path.name}: larger than {MAX_FILE_BYTES} bytes", "too_large")
    doc = loader(path, data)
    if not doc.text.strip() or not doc.segments:
        raise DocumentLoadError(f"{path.name}: no text could be extracted", kind="empty")
    add_structure(doc)
    return doc


def add_structure(doc: ParsedDocument) -> None:
    """Give a parsed document its structural model (blocks; Markdown pipe tables).

    Loaders that read tables themselves (PDF layout, HTML ``<table>``) set ``doc.tables``;
    pipe tables are looked for in Markdown and plain text.
    """
    if doc.file_type in ("markdown", "text") and not doc.tables:
        doc.tables = markdown_tables(doc.text, doc.segments)
    doc.blocks = detect_blocks(
        doc.text,
        doc.segments,
        doc.tables,
        body_start=doc.body_start,
        paginated=doc.file_type in ("pdf", "image"),
    )
