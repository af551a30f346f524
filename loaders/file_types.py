"""The file types citerag reads: one list of suffixes, shared by every module that asks.

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
        ".eml",
        ".png",
        ".jpg",
        ".jpeg",
        ".tif",
        ".tiff",
    }
)


def is_supported(path: Path) -> bool:
    """Return whether a loader exists for this file's suffix."""
    return path.suffix.lower() in SUFFIXES
