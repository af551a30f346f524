"""Byte decoding and binary-junk detection shared by the text-based loaders.

How bytes become text (:func:`candidate_encodings` lists the codecs tried, in order; the
first that decodes the bytes without error is used):

1. A byte-order mark selects its codec: UTF-32 (checked before UTF-16, whose little-endian
   mark begins UTF-32's), UTF-8, UTF-16. The mark is not part of the text.
2. UTF-8: bytes valid as UTF-8 are UTF-8 whatever a label says (a stale ``iso-8859-1``).
3. A charset the file declares (an HTML page's ``<meta charset>``, found by its loader; an
   e-mail part's ``charset``), when Python knows it as a character set: ``iso-8859-1``/
   ``latin1`` are read as Windows-1252 (as browsers do), a ``us-ascii`` label counts as no
   declaration, and ``utf-16``/``utf-32`` labels in an ASCII-readable declaration mean UTF-8
   (as browsers do); declared outside the bytes (an e-mail part's), they come before UTF-8.
4. Windows-1252 (``€``, curly quotes and dashes at 0x80-0x9F), its five undefined bytes
   (0x81 0x8D 0x8F 0x90 0x9D) read as Latin-1 (U+0081 ...): this never fails, so any bytes
   decode, and text that is neither turns out mostly control characters (binary junk).

:func:`decode_bytes` applies the rules; :func:`decode_text` also refuses empty files and
binary junk, and normalises newlines. The streamed reading of a large text file
(:mod:`loaders.text`) tries the same list with :func:`incremental_decoder`, so its text (and
every chunk's offsets) equals :func:`decode_text`'s.
"""

from __future__ import annotations

import codecs
import logging
from pathlib import Path

from loaders.base import DocumentLoadError

log = logging.getLogger(__name__)

#: Share of control characters above which a "text" file is treated as binary junk.
MAX_CONTROL_SHARE = 0.05
#: Codec of UTF-8 text (a leading byte-order mark is dropped).
UTF8 = "utf-8-sig"
#: Codec of the last resort (with :data:`LATIN1_FALLBACK` errors: never fails).
CP1252 = "cp1252"
#: Error handler reading the bytes Windows-1252 leaves undefined as Latin-1.
LATIN1_FALLBACK = "citerag.latin1-fallback"

#: Byte-order marks and their codecs, UTF-32's before UTF-16's (``FF FE 00 00`` begins
#: with UTF-16-LE's ``FF FE``).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, UTF8),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
#: Codecs (by :func:`codecs.lookup` name) a declaration may not select: transforms, not
#: character sets, and UTF-7 (refused by browsers).
_NOT_CHARSETS = frozenset(
    {"idna", "punycode", "unicode-escape", "raw-unicode-escape", "undefined", "utf-7"}
)


def _latin1_fallback(exc: UnicodeError) -> tuple[str, int]:
    """Read the bytes a decoder refused as Latin-1 (one character per byte)."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return exc.object[exc.start : exc.end].decode("latin-1"), exc.end


codecs.register_error(LATIN1_FALLBACK, _latin1_fallback)


def bom_encoding(head: bytes) -> str | None:
    """The codec a byte-order mark at the start of ``head`` selects, else ``None``.

    Args:
        head: The first bytes of a file (four are enough).
    """
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return encoding
    return None


def is_wide(encoding: str) -> bool:
    """Whether a codec's text holds NUL bytes (UTF-16, UTF-32): those are not binary junk."""
    return encoding.startswith(("utf-16", "utf-32"))


def declared_encoding(label: str | None, *, in_markup: bool = True) -> str | None:
    """The codec a declared charset names, or ``None`` when it names none usable.

    Args:
        label: A charset label as declared (``"windows-1252"``, ``"Shift_JIS"``).
        in_markup: The label was read from the bytes themselves (an HTML ``<meta>``), so
            they are ASCII-compatible and a ``utf-16``/``utf-32`` label cannot be true;
            ``False`` for a label declared outside them (an e-mail part's ``charset``).

    Returns:
        A codec name: ``iso-8859-1`` gives Windows-1252, ``utf-8`` gives UTF-8, and so do
        ``utf-16``/``utf-32`` in markup; ``None`` for no label, ``us-ascii``, an unknown
        label or a codec that is not a character set.
    """
    if not label or not label.strip():
        return None
    try:
        info = codecs.lookup(label.strip().strip("\"'"))
    except LookupError:
        log.debug("declared charset %r is unknown: ignored", label)
        return None
    name = info.name
    if name == "ascii":
        return None
    if name == "iso8859-1":
        return CP1252
    if name == "utf-8" or (in_markup and is_wide(name)):
        return UTF8
    if name in _NOT_CHARSETS or not getattr(info, "_is_text_encoding", True):
        log.debug("declared charset %r is not a character set: ignored", label)
        return None
    return name


def candidate_encodings(
    head: bytes, declared: str | None = None, *, in_markup: bool = True
) -> list[str]:
    """The codecs to try on a file, in order; the last (Windows-1252) never fails.

    A byte-order mark first; then UTF-8, before a declared charset, as bytes that are valid
    UTF-8 with anything beyond ASCII are UTF-8 whatever a stale label says (a mirrored page
    declaring ``iso-8859-1``); then the declared charset; then Windows-1252. A declared
    UTF-16 or UTF-32 (an e-mail part's, ``in_markup=False``) comes before UTF-8: such bytes
    can be valid UTF-8 too.

    Args:
        head: The file's first bytes (for a byte-order mark; four are enough).
        declared: A charset label the file declares (see :func:`declared_encoding`).
        in_markup: See :func:`declared_encoding`.
    """
    out: list[str] = []
    bom = bom_encoding(head)
    if bom:
        out.append(bom)
        if bom == "utf-32" and head.startswith(codecs.BOM_UTF16_LE):
            out.append("utf-16")  # UTF-16-LE text whose first character is U+0000
    named = declared_encoding(declared, in_markup=in_markup)
    order = (named, UTF8, CP1252) if named and is_wide(named) else (UTF8, named, CP1252)
    for encoding in order:
        if encoding and encoding not in out:
            out.append(encoding)
    return out


def errors_for(encoding: str) -> str:
    """The error handler a codec is used with (Windows-1252 falls back to Latin-1)."""
    return LATIN1_FALLBACK if codecs.lookup(encoding).name == CP1252 else "strict"


def incremental_decoder(encoding: str) -> codecs.IncrementalDecoder:
    """An incremental decoder for ``encoding`` behaving as :func:`decode_bytes` does."""
    return codecs.getincrementaldecoder(encoding)(errors_for(encoding))


def decode_bytes(
    data: bytes, declared: str | None = None, *, in_markup: bool = True
) -> tuple[str, str]:
    """Decode bytes by the module's rules, checking nothing else.

    Args:
        data: The bytes.
        declared: A charset label the bytes declare (an HTML ``<meta charset>``, an e-mail
            part's ``charset``), if any.
        in_markup: See :func:`declared_encoding` (``False`` for an e-mail part's label).

    Returns:
        The text (newlines as they were, a byte-order mark dropped) and the codec used.
    """
    for encoding in candidate_encodings(data[:4], declared, in_markup=in_markup):
        try:
            return data.decode(encoding, errors_for(encoding)), encoding
        except UnicodeDecodeError:
            continue
    raise AssertionError("unreachable: Windows-1252 with Latin-1 fallback decodes any bytes")


def decode_text(data: bytes, path: Path, *, declared: str | None = None) -> str:
    """Decode a text file to ``str`` with normalised newlines, rejecting binary junk.

    Args:
        data: Raw bytes of the file.
        path: The file's path, for error messages.
        declared: A charset label the file declares (an HTML page's ``<meta charset>``):
            tried after UTF-8 when it names a known character set, used when it decodes
            the bytes cleanly.

    Returns:
        The text (codec chosen as the module doc says) with ``\\r\\n`` and ``\\r``
        normalised to ``\\n`` and a leading byte-order mark removed.

    Raises:
        DocumentLoadError: If the file is empty, contains NUL bytes (other than as UTF-16
            or UTF-32 text), is not valid UTF-8 and looks like binary data, or is mostly
            control characters.
    """
    if not data.strip():
        raise DocumentLoadError(f"{path.name}: the file is empty", kind="empty")
    if b"\x00" in data and not is_wide(candidate_encodings(data[:4])[0]):
        raise nul_error(path)  # before decoding: most binary files stop here, cheaply
    text, encoding = decode_bytes(data, declared)
    if not text.strip():
        raise DocumentLoadError(f"{path.name}: the file is empty", kind="empty")
    if "\x00" in text:
        raise nul_error(path)
    if _control_share(text) > MAX_CONTROL_SHARE:
        raise DocumentLoadError(junk_reason(path, encoding), kind="binary")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def nul_error(path: Path) -> DocumentLoadError:
    """The error for a file holding NUL characters (binary data).

    Args:
        path: The file.
    """
    return DocumentLoadError(
        f"{path.name}: contains NUL bytes; this is binary data, not text", kind="binary"
    )


def junk_reason(path: Path, encoding: str) -> str:
    """Why text with too many control characters is refused, by the codec that read it.

    Args:
        path: The file.
        encoding: The codec that read it.
    """
    if encoding == CP1252:
        return f"{path.name}: not valid UTF-8 and looks like binary data"
    return f"{path.name}: mostly control characters"


def _control_share(text: str) -> float:
    """Return the share of characters that are control characters other than whitespace."""
    if not text:
        return 0.0
    bad = sum(1 for ch in text if (ord(ch) < 32 and ch not in "\n\r\t\f") or 0x7F <= ord(ch) < 0xA0)
    return bad / len(text)
