"""The attachments of an e-mail message: which parts they are, in what order, and their bytes.

Ingest makes every supported attachment of a ``.eml`` file a document of its own (see
:mod:`citerag.index.attached`), read again later by a parse worker and by the citation viewer
from the message file alone. This module is the one place that decides what a message's
attachments are and how they are numbered, so a position recorded at ingest finds the same
part when the file is read again.

* A message's **attachments** are its MIME parts that are not its body, in
  ``iter_attachments()`` order, with multipart containers inside the message (a
  ``multipart/mixed`` part) flattened in place, at most :data:`MAX_DEPTH` containers deep.
  A text part without a file name inside such a container is body text, not an attachment.
  They are numbered from 1.
* An attached message (``message/rfc822``, or a file named ``*.eml``) is itself an
  attachment, and its own attachments are numbered inside it. An attachment's
  **positions** are those numbers from the file's top message down: ``(3, 1)`` is the first
  attachment of the message attached third.
* Its **address** extends the message file's source key: ``#attachment=2/price-list.xlsx``,
  or ``#attachment=3/fwd.eml#attachment=1/terms.pdf`` for one inside an attached message
  (names are sanitised: no ``/``, ``\\`` or ``#``).

:func:`attachment_tree` lists every attachment of a file, all levels, within the caps:
attached messages nested deeper than :data:`MAX_DEPTH` levels are not read (the file itself
is level 0) and at most :data:`MAX_ATTACHMENTS` attachments are listed per file, all levels
together; what is left out is named in the tree's warnings. An attachment is a document
(``indexed``) when a loader exists for its name's suffix (attached messages count as
``.eml``); it may still fail to load, as a document of its own. :func:`read_attachment`
returns one attachment's name and bytes by its positions;
:func:`loaders.registry.load_attachment` loads such bytes with the loader for the name.
"""

from __future__ import annotations

import codecs
import email
import email.message
import mimetypes
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from email import policy
from pathlib import Path

from loaders.base import DocumentLoadError
from loaders.file_types import is_supported

#: Deepest nesting of attached messages that is read (the file itself is level 0); also the
#: deepest nesting of multipart containers flattened inside one message.
MAX_DEPTH = 5
#: Attached messages nested this deep make the file hostile: it fails ``unsafe`` (a real
#: message forwarded as an attachment nests a few levels; deeper than :data:`MAX_DEPTH` but
#: short of this, the file is read with its first :data:`MAX_DEPTH` levels and a warning).
HOSTILE_DEPTH = 20
#: Most attachments listed per file (all levels together).
MAX_ATTACHMENTS = 100
#: What joins an attachment's address to its message's source key.
MARK = "#attachment="
#: Longest attachment name kept (characters, suffix included).
MAX_NAME_CHARS = 120
#: Longest name (UTF-8 bytes) of the temporary file an attachment is loaded from (file
#: systems refuse names over 255 bytes).
MAX_DISK_NAME_BYTES = 200


@dataclass(frozen=True)
class Attachment:
    """One attachment of a message file.

    Attributes:
        positions: 1-based numbers from the file's top message down (see the module doc).
        name: Its sanitised file name (``message.eml`` for an unnamed attached message).
        content_type: Its MIME type.
        address: ``#attachment=N/name`` steps from the file down to it.
        parent_address: The address of the message it is attached to (``''``: the file).
        indexed: Whether it becomes a document (a loader exists for its type).
    """

    positions: tuple[int, ...]
    name: str
    content_type: str
    address: str
    parent_address: str
    indexed: bool

    @property
    def parent(self) -> tuple[int, ...]:
        """The positions of the message it is attached to (``()``: the file's message)."""
        return self.positions[:-1]


@dataclass
class AttachmentTree:
    """Every attachment of a message file, in order (a message before its attachments).

    Attributes:
        attachments: The attachments within the caps.
        warnings: What was left out and why.
    """

    attachments: list[Attachment] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def children(self, positions: tuple[int, ...]) -> list[Attachment]:
        """The indexed attachments of the message at ``positions`` (``()``: the file)."""
        return [a for a in self.attachments if a.indexed and a.parent == positions]


@dataclass
class MessageParts:
    """A message's parts split into body text and attachments.

    Attributes:
        body: The body part chosen by ``get_body``: plain text, else HTML (also when the
            plain-text alternative is blank and an HTML one exists), if any.
        more_text: Unnamed text parts inside multipart containers (also body text).
        attachments: The attachments, in order (position ``i + 1``).
        warnings: Containers nested too deep to read.
    """

    body: email.message.MIMEPart | None
    more_text: list[email.message.MIMEPart] = field(default_factory=list)
    attachments: list[email.message.MIMEPart] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def parse_message(data: bytes) -> email.message.EmailMessage | None:
    """Parse a message's bytes (``None`` when the email package gives no message).

    A UTF-8 byte-order mark before the headers (some Windows tools save one) is dropped:
    the email package would read it as part of the first header's name.

    Raises:
        DocumentLoadError: ``unsafe`` for MIME parts nested too deeply for the email
            package's recursive parser.
    """
    data = data.removeprefix(codecs.BOM_UTF8)
    try:
        msg = email.message_from_bytes(data, policy=policy.default)
        if isinstance(msg, email.message.EmailMessage) and _lost_boundary(msg):
            msg = email.message_from_bytes(msg.as_bytes(), policy=policy.default)
    except RecursionError:
        raise DocumentLoadError(
            "MIME parts nested too deeply to parse (thousands of levels)", kind="unsafe"
        ) from None
    return msg if isinstance(msg, email.message.EmailMessage) else None


#: A MIME delimiter line: ``--`` and a boundary (RFC 2046: up to 70 characters).
_DELIMITER = re.compile(r"^--([!-~][ -~]{0,69}?)(--)?[ \t]*\r?$", re.MULTILINE)


def _lost_boundary(msg: email.message.EmailMessage) -> bool:
    """Mend a ``multipart/*`` message whose ``Content-Type`` names no boundary (a hand-made
    or broken export): the email package reads it as one text with no parts, and its body
    was lost. When the body opens with delimiter lines of one boundary, that boundary is
    set; otherwise the message is read as plain text. Returns whether it was mended (the
    caller parses the mended message again)."""
    if msg.get_content_maintype() != "multipart" or msg.is_multipart() or msg.get_boundary():
        return False
    body = msg.get_payload()
    if not isinstance(body, str):
        return False
    found = [m.group(1) for m in _DELIMITER.finditer(body)]
    boundary = found[0] if found else None
    if boundary is not None and found.count(boundary) >= 2:
        msg.set_param("boundary", boundary)
    else:
        charset = msg.get_param("charset")
        del msg["Content-Type"]
        msg["Content-Type"] = "text/plain" + (
            f"; charset={charset}" if isinstance(charset, str) else ""
        )
    return True


def _flatten(
    parts: Iterable[email.message.MIMEPart], depth: int, out: MessageParts, where: str
) -> None:
    for part in parts:
        ctype = part.get_content_type()
        if part.is_multipart() and ctype != "message/rfc822":
            if depth + 1 > MAX_DEPTH:
                out.warnings.append(f"{where}parts nested deeper than {MAX_DEPTH} levels, skipped")
                continue
            _flatten(part.iter_parts(), depth + 1, out, where)
        elif not part.get_filename() and ctype in ("text/plain", "text/html"):
            out.more_text.append(part)
        else:
            out.attachments.append(part)


def _body(msg: email.message.EmailMessage) -> email.message.MIMEPart | None:
    """The body part: plain text, else HTML; a blank plain text gives way to an HTML one.

    Which part is the body does not change the attachments' numbering:
    ``iter_attachments`` skips the body candidates whichever is chosen.
    """
    body = msg.get_body(preferencelist=("plain", "html"))
    blank_plain = (
        body is not None
        and body.get_content_type() == "text/plain"
        and not part_bytes(body).strip()
    )
    return (msg.get_body(preferencelist=("html",)) or body) if blank_plain else body


def message_parts(msg: email.message.EmailMessage, where: str = "") -> MessageParts:
    """Split a message into its body text and its attachments.

    Args:
        msg: The message.
        where: Prefix of warnings (``"fwd.eml: "``).

    Returns:
        The parts.
    """
    out = MessageParts(_body(msg))
    _flatten(msg.iter_attachments(), 0, out, where)
    return out


def is_message(part: email.message.MIMEPart) -> bool:
    """Whether a part is an attached e-mail message."""
    name = (part.get_filename() or "").lower()
    return part.get_content_type() == "message/rfc822" or name.endswith(".eml")


def attachment_name(part: email.message.MIMEPart, position: int) -> str:
    """An attachment's sanitised file name (its base name, no ``#``; one made up if none).

    Args:
        part: The attachment.
        position: Its number in its message (names an unnamed one).

    Returns:
        The name: ``message.eml`` for an unnamed attached message (an attached message's
        name always ends ``.eml``), ``attachment-N.ext`` (the extension guessed from the
        MIME type) for another unnamed part.
    """
    raw = str(part.get_filename() or "")
    name = " ".join(raw.replace("\\", "/").rsplit("/", 1)[-1].replace("#", "_").split())
    if name.strip(".") == "":
        if part.get_content_type() == "message/rfc822":
            name = "message.eml"
        else:
            ext = mimetypes.guess_extension(part.get_content_type()) or ""
            name = f"attachment-{position}{ext}"
    if part.get_content_type() == "message/rfc822" and not name.lower().endswith(".eml"):
        name += ".eml"
    if len(name) > MAX_NAME_CHARS:
        _stem, dot, suffix = name.rpartition(".")
        keep = f".{suffix}" if dot and len(suffix) <= 10 else ""
        name = name[: MAX_NAME_CHARS - len(keep)] + keep
    return name


def part_bytes(part: email.message.MIMEPart) -> bytes:
    """A leaf part's decoded bytes (its transfer encoding undone)."""
    payload = part.get_payload(decode=True)
    if isinstance(payload, bytes):
        return payload
    content = part.get_content() if part.get_content_maintype() != "multipart" else b""
    return content if isinstance(content, bytes) else str(content).encode("utf-8")


def inner_message(part: email.message.MIMEPart) -> email.message.EmailMessage | None:
    """The message an attached-message part holds (``None`` when it cannot be read)."""
    if part.get_content_type() == "message/rfc822":
        inner = part.get_content()
        return inner if isinstance(inner, email.message.EmailMessage) else None
    return parse_message(part_bytes(part))


def attachment_bytes(part: email.message.MIMEPart) -> bytes:
    """The bytes an attachment's document is loaded from (an attached message serialised)."""
    if part.get_content_type() == "message/rfc822":
        inner = inner_message(part)
        if inner is None:
            raise DocumentLoadError("unreadable attached message", "corrupt")
        return inner.as_bytes(policy=policy.default)
    return part_bytes(part)


def _is_document(name: str, part: email.message.MIMEPart) -> bool:
    return is_message(part) or is_supported(Path(name))


def attached_depth(msg: email.message.EmailMessage, limit: int = HOSTILE_DEPTH) -> int:
    """How deep attached messages nest inside ``msg`` (0: none), counted up to ``limit``.

    Each level is parsed as :func:`attachment_tree` would parse it; at most
    :data:`MAX_ATTACHMENTS` attached messages are opened, so a wide tree costs no more than
    a deep one.
    """
    deepest = 0
    budget = MAX_ATTACHMENTS

    def go(m: email.message.EmailMessage, depth: int) -> None:
        nonlocal deepest, budget
        deepest = max(deepest, depth)
        if depth >= limit:
            return
        for part in message_parts(m).attachments:
            if deepest >= limit or budget <= 0:
                return
            if is_message(part):
                budget -= 1
                inner = inner_message(part)
                if inner is not None:
                    go(inner, depth + 1)

    go(msg, 0)
    return deepest


def attachment_tree(data: bytes) -> AttachmentTree:
    """List every attachment of a message file, all levels, within the caps.

    Args:
        data: The ``.eml`` file's bytes.

    Returns:
        The attachments (a message's own before those of the next one) and warnings. An
        unreadable file, or an unreadable attached message, has no (further) attachments.
    """
    tree = AttachmentTree()
    top = parse_message(data)
    if top is None:
        return tree

    def walk(
        msg: email.message.EmailMessage, positions: tuple[int, ...], address: str, depth: int
    ) -> None:
        where = f"{address.rsplit('/', 1)[-1]}: " if address else ""
        parts = message_parts(msg, where)
        tree.warnings += parts.warnings
        for number, part in enumerate(parts.attachments, 1):
            if len(tree.attachments) >= MAX_ATTACHMENTS:
                if not any("more than" in w for w in tree.warnings):
                    tree.warnings.append(
                        f"more than {MAX_ATTACHMENTS} attachments: the rest not indexed"
                    )
                return
            name = attachment_name(part, number)
            here = f"{address}{MARK}{number}/{name}"
            ctype = part.get_content_type()
            if is_message(part) and depth + 1 > MAX_DEPTH:
                tree.warnings.append(
                    f"{name}: attached message nested deeper than {MAX_DEPTH} levels, not indexed"
                )
                continue
            indexed = _is_document(name, part)
            if not indexed:
                tree.warnings.append(f"{name}: type {ctype} not indexed")
            tree.attachments.append(
                Attachment((*positions, number), name, ctype, here, address, indexed)
            )
            if is_message(part):
                inner = inner_message(part)
                if inner is not None:
                    walk(inner, (*positions, number), here, depth + 1)

    walk(top, (), "", 0)
    return tree


def read_attachment(data: bytes, positions: tuple[int, ...]) -> tuple[str, bytes]:
    """One attachment of a message file, by its positions.

    Args:
        data: The ``.eml`` file's bytes.
        positions: The attachment's positions (see the module doc).

    Returns:
        Its sanitised name and the bytes its document is loaded from.

    Raises:
        DocumentLoadError: ``corrupt`` when the file has no such attachment.
    """
    if not positions or any(n < 1 for n in positions):
        raise DocumentLoadError(f"no attachment at positions {positions}", "corrupt")
    msg = parse_message(data)
    for depth, number in enumerate(positions):
        if msg is None:
            raise DocumentLoadError("the attached message cannot be read", "corrupt")
        found = message_parts(msg).attachments
        if number > len(found):
            raise DocumentLoadError(
                f"the message has no attachment {number} (it has {len(found)})", "corrupt"
            )
        part = found[number - 1]
        if depth == len(positions) - 1:
            return attachment_name(part, number), attachment_bytes(part)
        msg = inner_message(part) if is_message(part) else None
    raise AssertionError("unreachable")  # pragma: no cover


def disk_name(name: str) -> str:
    """A file name for an attachment's temporary copy: ``name`` itself when the file system
    takes it, else with NUL bytes replaced and the stem cut to :data:`MAX_DISK_NAME_BYTES`
    UTF-8 bytes (the suffix, which picks the loader, kept).

    Args:
        name: The sanitised attachment name.

    Returns:
        The name to write the bytes under.
    """
    name = name.replace("\x00", "_")
    if len(name.encode("utf-8")) <= MAX_DISK_NAME_BYTES:
        return name
    stem, suffix = Path(name).stem, Path(name).suffix
    if len(suffix.encode("utf-8")) > 20:
        stem, suffix = name, ""
    budget = MAX_DISK_NAME_BYTES - len(suffix.encode("utf-8"))
    cut = stem.encode("utf-8")[:budget].decode("utf-8", errors="ignore")
    return (cut or "attachment") + suffix
