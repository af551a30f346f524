"""Choose a loader by file type and load one file into a :class:`ParsedDocument`.

The suffix picks the loader; the content is checked where that is cheap. Office files
(``.docx``, ``.pptx``, ``.xlsx``) must be zip archives holding the matching main part
(:func:`loaders.office.check_office_zip`, which also refuses zip bombs, XML DTDs and
password-protected OLE2 files); a ``.pdf`` that is really a zip or OLE2 file fails
``mismatch`` before the PDF parser sees it.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from loaders.attachments import disk_name
from loaders.base import DocumentLoadError, ParsedDocument
from loaders.blocks import detect_blocks, markdown_tables
from loaders.eml import load_eml
from loaders.file_types import is_supported, unsupported_reason
from loaders.html import load_html
from loaders.image import load_image
from loaders.markdown import load_markdown
from loaders.office import OLE2_MAGIC, ZIP_MAGIC, office_kind
from loaders.pdf import load_pdf
from loaders.sheets import load_csv, load_xlsx
from loaders.slides import load_pptx
from loaders.text import load_text
from loaders.word import load_docx

Loader = Callable[[Path, bytes], ParsedDocument]

#: File suffix (lower case) -> loader: the suffixes of :data:`loaders.file_types.SUFFIXES`.
LOADERS: dict[str, Loader] = {
    ".pdf": load_pdf,
    ".md": load_markdown,
    ".markdown": load_markdown,
    ".html": load_html,
    ".htm": load_html,
    ".txt": load_text,
    ".text": load_text,
    ".rst": load_text,
    ".docx": load_docx,
    ".pptx": load_pptx,
    ".xlsx": load_xlsx,
    ".csv": load_csv,
    ".tsv": load_csv,
    ".eml": load_eml,
    ".png": load_image,
    ".jpg": load_image,
    ".jpeg": load_image,
    ".tif": load_image,
    ".tiff": load_image,
}

#: Files larger than this are refused (bytes).
MAX_FILE_BYTES = 200 * 1024 * 1024


__all__ = [
    "LOADERS",
    "MAX_FILE_BYTES",
    "is_supported",
    "load_attachment",
    "load_file",
    "read_document_bytes",
]


def _too_large(path: Path) -> DocumentLoadError:
    return DocumentLoadError(f"{path.name}: larger than {MAX_FILE_BYTES} bytes", "too_large")


def read_document_bytes(path: Path) -> bytes:
    """A document's bytes, refused by its size on disk before any is read.

    Raises:
        DocumentLoadError: ``too_large`` for a file of more than :data:`MAX_FILE_BYTES`
            bytes (a 10 GB file must not be read into memory to be refused).
        OSError: If the file cannot be read.
    """
    if path.stat().st_size > MAX_FILE_BYTES:
        raise _too_large(path)
    data = path.read_bytes()
    if len(data) > MAX_FILE_BYTES:  # it grew between stat and read
        raise _too_large(path)
    return data


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
        raise DocumentLoadError(unsupported_reason(path.name, path.suffix), kind="unsupported")
    if data is None:
        data = read_document_bytes(path)
    if len(data) > MAX_FILE_BYTES:
        raise _too_large(path)
    check_content(path, data)
    doc = loader(path, data)
    if not doc.text.strip() or not doc.segments:
        raise DocumentLoadError(f"{path.name}: no text could be extracted", kind="empty")
    add_structure(doc)
    return doc


def check_content(path: Path, data: bytes) -> None:
    """Refuse a PDF-suffixed file whose bytes are a zip or OLE2 container.

    (Office suffixes are checked by their loaders, :func:`loaders.office.check_office_zip`.)

    Raises:
        DocumentLoadError: ``mismatch``, naming what the file really is.
    """
    if path.suffix.lower() != ".pdf":
        return
    if data.startswith(ZIP_MAGIC):
        kind = office_kind(data)
        what = f"a {kind} file" if kind else "a zip archive"
        raise DocumentLoadError(f"{path.name}: the file is {what}, not a PDF", kind="mismatch")
    if data.startswith(OLE2_MAGIC):
        raise DocumentLoadError(
            f"{path.name}: the file is an OLE2 compound file (a legacy Office document), not a PDF",
            kind="mismatch",
        )


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
        headings=doc.headings,
        edges=doc.page_edges,
        units=doc.units,
    )


def load_attachment(name: str, data: bytes) -> ParsedDocument:
    """Load an attachment's bytes with the loader for its name.

    Some loaders read their file from disk (pypdf, pdfium), so the bytes are written to a
    private temporary folder under the attachment's name for the time of the load.

    Args:
        name: The sanitised attachment name (its suffix picks the loader).
        data: Its bytes.

    Returns:
        The parsed document.

    Raises:
        DocumentLoadError: As :func:`loaders.registry.load_file`.
    """
    with tempfile.TemporaryDirectory(prefix="citerag-attachment-") as folder:
        path = Path(folder) / disk_name(name)
        path.write_bytes(data)
        return load_file(path, data)
