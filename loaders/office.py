"""Shared parts of the Office loaders: content sniffing, zip-container safety, text building.

Office Open XML files (``.docx``, ``.pptx``, ``.xlsx``) are zip archives of XML parts. Before
any parser sees one, :func:`check_office_zip` refuses, with a :class:`DocumentLoadError`:

* a file that is not a zip at all: an OLE2 compound file (a password-protected Office
  document, or a legacy ``.doc``/``.xls``/``.ppt``) is ``encrypted``; a PDF or other content
  under an Office suffix is ``mismatch``; a damaged archive is ``corrupt``;
* an archive of the wrong kind (a workbook named ``.docx``: ``mismatch``);
* a zip bomb, judged from the archive's directory alone (nothing is inflated): more than
  :data:`MAX_ZIP_MEMBERS` members, more than :data:`MAX_UNCOMPRESSED_BYTES` uncompressed in
  total (``too_large``), or a member inflating more than :data:`MAX_COMPRESSION_RATIO` times
  (``unsafe``), or an XML part larger than :data:`MAX_XML_PART_BYTES` that a parser would
  read whole into a tree (``too_large``; worksheets, read row by row, are exempt). A member
  whose header under-declares its size cannot get past this either:
  :mod:`zipfile` never inflates a member beyond its declared size, and the CRC check then
  fails the read (``corrupt``);
* an XML part with a document type declaration (``<!DOCTYPE``): entity-expansion attacks
  ("billion laughs", external entities) need one, and Office never writes one (``unsafe``).
  Each XML part is read with :mod:`defusedxml` (``forbid_dtd=True``) only up to its root
  element, where any DTD must already have appeared.

:class:`TextBuilder` assembles a loader's canonical text piece by piece and returns each
piece's ``[start, end)``, so segments, blocks and table rows index the text exactly.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from loaders.base import DocumentLoadError

#: Magic number of an OLE2 compound file (encrypted OOXML, legacy .doc/.xls/.ppt).
OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ZIP_MAGIC = b"PK\x03\x04"
PDF_MAGIC = b"%PDF"
#: Largest total uncompressed size of an Office archive's members (bytes).
MAX_UNCOMPRESSED_BYTES = 200 * 1024 * 1024
#: Largest uncompressed/compressed ratio of one member (checked for members over 1 MiB).
MAX_COMPRESSION_RATIO = 200
#: Members below this size are not ratio-checked (tiny parts compress oddly).
RATIO_MIN_BYTES = 1024 * 1024
#: Most members an Office archive may have.
MAX_ZIP_MEMBERS = 10_000
#: Largest XML part (uncompressed) that is parsed whole into a tree (python-docx and
#: python-pptx parse each part they read whole, at about six times its size in memory);
#: worksheets, read row by row, are exempt.
MAX_XML_PART_BYTES = 64 * 1024 * 1024
#: Parts read as a stream, not as a tree (exempt from :data:`MAX_XML_PART_BYTES`).
_STREAMED_PARTS = ("xl/worksheets/",)
#: The part that tells what kind of Office document an archive is.
_MAIN_PARTS = {
    ".docx": ("word/", "a Word document"),
    ".pptx": ("ppt/", "a PowerPoint presentation"),
    ".xlsx": ("xl/", "an Excel workbook"),
}


class TextBuilder:
    """Builds a canonical text by appending pieces, returning each piece's span."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self.pos = 0

    def add(self, piece: str) -> tuple[int, int]:
        """Append ``piece``; return its ``(start, end)`` in the text."""
        start = self.pos
        self._parts.append(piece)
        self.pos += len(piece)
        return start, self.pos

    def gap(self, sep: str = "\n\n") -> None:
        """Append a separator unless the text is empty."""
        if self.pos:
            self.add(sep)

    def truncate(self, pos: int) -> None:
        """Drop everything from ``pos`` on (a piece that turned out not to be wanted)."""
        self._parts = [self.text()[:pos]]
        self.pos = pos

    def text(self) -> str:
        """The text built so far."""
        return "".join(self._parts)


def office_kind(data: bytes) -> str | None:
    """What an Office-looking file's bytes are: ``.docx``/``.pptx``/``.xlsx`` or ``None``.

    Args:
        data: The file's bytes.

    Returns:
        The suffix whose main part (``word/``, ``ppt/``, ``xl/``) the zip holds, or ``None``
        for anything else (not a zip, an unreadable zip, none of those parts).
    """
    if not data.startswith(ZIP_MAGIC):
        return None
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = zf.namelist()
    except (zipfile.BadZipFile, ValueError, OSError):
        return None
    for suffix, (prefix, _) in _MAIN_PARTS.items():
        if any(n.startswith(prefix) for n in names):
            return suffix
    return None


def check_office_zip(path: Path, data: bytes) -> zipfile.ZipFile:
    """Refuse anything but a sane Office Open XML archive of the kind its suffix names.

    Args:
        path: The file (its suffix says which kind is expected).
        data: The file's bytes.

    Returns:
        The opened archive (the caller closes it).

    Raises:
        DocumentLoadError: ``encrypted``, ``mismatch``, ``corrupt``, ``too_large`` or
            ``unsafe``, with a reason naming the file (see the module docstring).
    """
    name = path.name
    suffix = path.suffix.lower()
    if data.startswith(OLE2_MAGIC):
        raise DocumentLoadError(
            f"{name}: encrypted or not an Office Open XML file (an OLE2 compound file: a "
            "password-protected document or a legacy .doc/.xls/.ppt)",
            kind="encrypted",
        )
    if data.startswith(PDF_MAGIC):
        raise DocumentLoadError(f"{name}: the file is a PDF, not {suffix}", kind="mismatch")
    if not data.startswith(ZIP_MAGIC):
        raise DocumentLoadError(
            f"{name}: not an Office Open XML file (not a zip archive)", kind="mismatch"
        )
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise DocumentLoadError(f"{name}: corrupt zip archive ({exc})", kind="corrupt") from exc
    try:
        _check_members(name, infos)
        prefix, what = _MAIN_PARTS.get(suffix, ("", ""))
        if prefix and not any(i.filename.startswith(prefix) for i in infos):
            names = [i.filename for i in infos]
            found = next(
                (w for p, w in _MAIN_PARTS.values() if any(n.startswith(p) for n in names)), ""
            )
            detail = f"it is {found}" if found else f"it has no {prefix} part"
            raise DocumentLoadError(f"{name}: not {what} ({detail})", kind="mismatch")
        for info in infos:
            if info.filename.endswith((".xml", ".rels")):
                _check_xml_part(name, zf, info)
    except BaseException:
        zf.close()
        raise
    return zf


def _check_members(name: str, infos: list[zipfile.ZipInfo]) -> None:
    """The zip-bomb checks, from the central directory only."""
    if len(infos) > MAX_ZIP_MEMBERS:
        raise DocumentLoadError(
            f"{name}: {len(infos)} archive members, over the limit of {MAX_ZIP_MEMBERS}",
            kind="too_large",
        )
    total = sum(i.file_size for i in infos)
    if total > MAX_UNCOMPRESSED_BYTES:
        raise DocumentLoadError(
            f"{name}: {total} bytes uncompressed, over the limit of {MAX_UNCOMPRESSED_BYTES} "
            "bytes (a zip bomb?)",
            kind="too_large",
        )
    for info in infos:
        if (
            info.filename.endswith((".xml", ".rels"))
            and info.file_size > MAX_XML_PART_BYTES
            and not info.filename.startswith(_STREAMED_PARTS)
        ):
            raise DocumentLoadError(
                f"{name}: XML part {info.filename} is {info.file_size} bytes uncompressed, "
                f"over the limit of {MAX_XML_PART_BYTES} bytes for a part read whole",
                kind="too_large",
            )
        if info.file_size >= RATIO_MIN_BYTES:
            ratio = info.file_size / max(1, info.compress_size)
            if ratio > MAX_COMPRESSION_RATIO:
                raise DocumentLoadError(
                    f"{name}: member {info.filename} inflates {ratio:.0f} times, over the "
                    f"limit of {MAX_COMPRESSION_RATIO} (a zip bomb?)",
                    kind="unsafe",
                )


def _check_xml_part(name: str, zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
    """Read an XML part up to its root element with defusedxml; refuse any DTD."""
    from defusedxml import DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden
    from defusedxml.ElementTree import iterparse

    try:
        with zf.open(info) as fh:
            for _event, _elem in iterparse(fh, events=("start",), forbid_dtd=True):
                break  # the root element: any DTD came before it
    except (DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden) as exc:
        raise DocumentLoadError(
            f"{name}: XML part {info.filename} declares a DTD or entities ({type(exc).__name__}); "
            "refused (entity expansion)",
            kind="unsafe",
        ) from exc
    except Exception as exc:  # ParseError, zlib errors, bad CRC
        raise DocumentLoadError(
            f"{name}: corrupt XML part {info.filename} ({exc})", kind="corrupt"
        ) from exc
