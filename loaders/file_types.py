"""The file types citerag reads: one list of suffixes, shared by every module that asks, and
which parsed types write one paragraph per line (:data:`LINE_PARAGRAPHS`).

:mod:`loaders.registry` maps each suffix to its loader (a unit test keeps the two equal);
modules below the registry, such as :mod:`loaders.attachments` deciding which attachments
of an e-mail become documents, ask :func:`is_supported` here instead of importing the
registry, which imports them.
"""

from __future__ import annotations

from pathlib import Path

#: Every supported file suffix (lower case), by family.
SUFFIXES: frozenset[str] = frozenset(
    {
        ".pdf",
        ".md",
        ".markdown",
        ".html",
        ".htm",
        ".txt",
        ".text",
        ".rst",
        ".docx",
        ".pptx",
        ".xlsx",
        ".csv",
        ".tsv",
        ".eml",
        ".png",
        ".jpg",
        ".jpeg",
        ".tif",
        ".tiff",
    }
)


#: The parsed ``file_type`` values whose loaders write one paragraph, list item, table row
#: or slide bullet per line: a line break in their text is never a wrapped line of prose (a
#: PDF's, an OCR page's, a plain-text file's or an e-mail body's may be).
LINE_PARAGRAPHS: frozenset[str] = frozenset({"docx", "pptx", "xlsx", "csv", "html"})


def is_supported(path: Path) -> bool:
    """Return whether a loader exists for this file's suffix."""
    return path.suffix.lower() in SUFFIXES


#: Types people keep that citerag does not read, with what to save them as instead.
SAVE_AS: dict[str, str] = {
    ".doc": "a Word 97-2003 document: save it as .docx",
    ".xls": "an Excel 97-2003 workbook: save it as .xlsx",
    ".ppt": "a PowerPoint 97-2003 presentation: save it as .pptx",
    ".odt": "an OpenDocument text: save it as .docx (or export a PDF)",
    ".ods": "an OpenDocument spreadsheet: save it as .xlsx",
    ".odp": "an OpenDocument presentation: save it as .pptx (or export a PDF)",
    ".rtf": "a Rich Text document: save it as .docx or .txt",
    ".msg": "an Outlook message: save it as .eml (or print it to PDF)",
    ".pages": "a Pages document: export it as .docx or PDF",
    ".numbers": "a Numbers spreadsheet: export it as .xlsx or .csv",
    ".key": "a Keynote presentation: export it as .pptx or PDF",
    ".heic": "an iPhone photo: save it as .jpg",
}


def unsupported_reason(name: str, suffix: str) -> str:
    """Why a file is refused by its type, and what to do about it.

    Args:
        name: The file's name, as shown to the user.
        suffix: Its suffix (``''`` when it has none).

    Returns:
        ``"old.doc: unsupported file type '.doc' (a Word 97-2003 document: save it as .docx;
        supported: ...)"``.
    """
    hint = SAVE_AS.get(suffix.lower())
    supported = ", ".join(sorted(SUFFIXES))
    why = f"{hint}; supported: {supported}" if hint else f"supported: {supported}"
    return f"{name}: unsupported file type '{suffix or '(none)'}' ({why})"
