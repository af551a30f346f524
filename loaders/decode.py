"""Byte decoding and binary-junk detection shared by the text-based loaders."""

from __future__ import annotations

from pathlib import Path

from loaders.base import DocumentLoadError

#: Share of control characters above which a "text" file is treated as binary junk.
MAX_CONTROL_SHARE = 0.05


def decode_text(data: bytes, path: Path) -> str:
    """Decode a text file to ``str`` with normalised newlines, rejecting binary junk.

    Args:
        data: Raw bytes of the file.
        path: The file's path, for error messages.

    Returns:
        The text with ``\\r\\n`` and ``\\r`` normalised to ``\\n`` and a leading BOM removed.

    Raises:
        DocumentLoadError: If the file is empty, contains NUL bytes, is not valid UTF-8
            (or Latin-1 text), or is mostly control characters.
    """
    if not data.strip():
        raise DocumentLoadError(f"{path.name}: the file is empty", kind="empty")
    if b"\x00" in data:
        raise DocumentLoadError(
            f"{path.name}: contains NUL bytes; this is binary data, not text", kind="binary"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
        if _control_share(text) > MAX_CONTROL_SHARE:
            raise DocumentLoadError(
                f"{path.name}: not valid UTF-8 and looks like binary data", kind="binary"
            ) from None
    if _control_share(text) > MAX_CONTROL_SHARE:
        raise DocumentLoadError(f"{path.name}: mostly control characters", kind="binary")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _control_share(text: str) -> float:
    """Return the share of characters that are control characters other than whitespace."""
    if not text:
        return 0.0
    bad = sum(1 for ch in text if (ord(ch) < 32 and ch not in "\n\r\t\f") or 0x7F <= ord(ch) < 0xA0)
    return bad / len(text)
