"""E-mail loader (``.eml``, stdlib :mod:`email` with ``policy.default``).

The canonical text of a message is a short header block (``Subject:``, ``From:``, ``To:``,
``Cc:``, ``Date:``; one segment, section ``Headers``), then its body: the ``text/plain``
part, else the ``text/html`` part's visible text as :mod:`loaders.html` extracts it (its
sections and hidden-content count kept). The subject is the title; ``from``/``to``/``date``
are document properties (``ParsedDocument.properties``: ``email_from``, ``email_to``,
``email_date``), copied onto every chunk's metadata.

Attachments of a supported type are **indexed as labelled segments of the message**, not as
documents of their own (that would need ingest to publish several documents from one file):
an ``Attachment: report.docx`` line, then the attachment's canonical text as its loader
produced it, its segments' sections prefixed ``Attachment: report.docx`` and its tables
kept (a spreadsheet attachment is still chunked by rows). Its page numbers are dropped:
locators are ``#char=`` ranges of the message. An attached message (``message/rfc822`` or a
``.eml`` file) is read the same way, up to :data:`MAX_DEPTH` levels of nesting; deeper
ones, attachments that fail to load and unsupported ones are skipped with a warning, never
an error. At most :data:`MAX_ATTACHMENTS` attachments are read per file.
"""

from __future__ import annotations

import email
import email.message
import logging
from dataclasses import replace
from email import policy
from pathlib import Path

from loaders.base import DocumentLoadError, ParsedDocument, Segment
from loaders.blocks import Table
from loaders.decode import decode_text
from loaders.office import TextBuilder

log = logging.getLogger(__name__)

#: Deepest nesting of attached messages that is read (the file itself is level 0).
MAX_DEPTH = 5
#: Most attachments read per file (all levels together).
MAX_ATTACHMENTS = 100
HEADERS = ("Subject", "From", "To", "Cc", "Date")
HEADER_SECTION = "Headers"


class _Composer:
    """Builds one message's canonical text, segments and tables, attachments included."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.out = TextBuilder()
        self.segments: list[Segment] = []
        self.tables: list[Table] = []
        self.warnings: list[str] = []
        self.hidden_chars = 0
        self.attachments = 0

    def append_doc(self, doc: ParsedDocument, prefix: str) -> None:
        """Append a parsed document's text, its segments (sections prefixed) and tables."""
        self.out.gap()
        base = self.out.pos
        self.out.add(doc.text)
        for seg in doc.segments:
            section = " > ".join(p for p in (prefix, seg.section) if p)
            self.segments.append(Segment(base + seg.start, base + seg.end, None, section))
        for t in doc.tables:
            rows = [replace(r, start=r.start + base, end=r.end + base) for r in t.rows]
            self.tables.append(
                Table(t.start + base, t.end + base, t.title, t.columns, rows, None, t.source)
            )
        self.hidden_chars += doc.hidden_chars
        self.warnings += [f"{prefix or self.name}: {w}" for w in doc.warnings]

    def message(self, msg: email.message.EmailMessage, prefix: str, depth: int) -> None:
        """Append a message: header block, body, attachments."""
        lines = []
        for key in HEADERS:
            value = msg.get(key)
            if value:
                lines.append(f"{key}: {' '.join(str(value).split())}")
        if lines:
            self.out.gap()
            start, end = self.out.add("\n".join(lines))
            section = " > ".join(p for p in (prefix, HEADER_SECTION) if p)
            self.segments.append(Segment(start, end, None, section))
        body = msg.get_body(preferencelist=("plain", "html"))
        if body is not None:
            self._body(body, prefix)
        for part in msg.iter_attachments():
            self._attachment(part, prefix, depth)

    def _body(self, part: email.message.MIMEPart, prefix: str) -> None:
        raw = _part_bytes(part)
        if part.get_content_type() == "text/html":
            from loaders.html import load_html

            try:
                doc = load_html(Path("body.html"), _part_text(part, raw).encode("utf-8"))
            except DocumentLoadError as exc:
                self.warnings.append(f"message body not read: {exc.reason}")
                return
            self.append_doc(doc, prefix)
            return
        text = _part_text(part, raw).replace("\r\n", "\n").replace("\r", "\n").strip()
        if text:
            self.out.gap()
            start, end = self.out.add(text)
            self.segments.append(Segment(start, end, None, prefix))

    def _attachment(self, part: email.message.MIMEPart, prefix: str, depth: int) -> None:
        from loaders.registry import is_supported, load_file

        filename = part.get_filename() or ""
        ctype = part.get_content_type()
        label = f"Attachment: {filename or ctype}"
        where = " > ".join(p for p in (prefix, label) if p)
        self.attachments += 1
        if self.attachments > MAX_ATTACHMENTS:
            if self.attachments == MAX_ATTACHMENTS + 1:
                self.warnings.append(f"more than {MAX_ATTACHMENTS} attachments: the rest skipped")
            return
        if part.is_multipart() and ctype != "message/rfc822":
            self._container(part, prefix, where, depth)
            return
        if not filename and ctype in ("text/plain", "text/html"):
            self._body(part, prefix)  # an inline text part of a nested multipart
            return
        is_message = ctype == "message/rfc822" or filename.lower().endswith(".eml")
        if is_message:
            if depth + 1 > MAX_DEPTH:
                self.warnings.append(
                    f"{where}: attached message nested deeper than {MAX_DEPTH} levels, skipped"
                )
                return
            inner = _inner_message(part)
            if inner is None:
                self.warnings.append(f"{where}: unreadable attached message, skipped")
                return
            self.out.gap()
            self.out.add(label)
            self.message(inner, where, depth + 1)
            return
        if not filename or not is_supported(Path(filename)):
            self.warnings.append(f"{where}: type {ctype} not indexed")
            return
        try:
            doc = load_file(Path(filename), _part_bytes(part))
        except DocumentLoadError as exc:
            self.warnings.append(f"{where}: skipped ({exc.kind}: {exc.reason})")
            return
        except Exception as exc:  # a loader bug in one attachment must not fail the message
            log.warning("attachment %s of %s failed: %s", filename, self.name, exc)
            self.warnings.append(f"{where}: skipped ({type(exc).__name__}: {exc})")
            return
        self.out.gap()
        self.out.add(label)
        self.append_doc(doc, where)

    def _container(self, part: email.message.MIMEPart, prefix: str, where: str, depth: int) -> None:
        """A multipart attachment (``multipart/mixed`` inside the message): its parts, one
        level deeper."""
        if depth + 1 > MAX_DEPTH:
            self.warnings.append(f"{where}: parts nested deeper than {MAX_DEPTH} levels, skipped")
            return
        for sub in part.iter_parts():
            self._attachment(sub, prefix, depth + 1)


def _part_bytes(part: email.message.MIMEPart) -> bytes:
    payload = part.get_payload(decode=True)
    if isinstance(payload, bytes):
        return payload
    content = part.get_content() if part.get_content_maintype() != "multipart" else b""
    return content if isinstance(content, bytes) else str(content).encode("utf-8")


def _part_text(part: email.message.MIMEPart, raw: bytes) -> str:
    try:
        content = part.get_content()
        if isinstance(content, str):
            return content
    except (LookupError, UnicodeError, KeyError):
        pass
    charset = part.get_content_charset() or "utf-8"
    try:
        return raw.decode(charset)
    except (LookupError, UnicodeError):
        return raw.decode("latin-1")


def _inner_message(part: email.message.MIMEPart) -> email.message.EmailMessage | None:
    if part.get_content_type() == "message/rfc822":
        inner = part.get_content()
        return inner if isinstance(inner, email.message.EmailMessage) else None
    msg = email.message_from_bytes(_part_bytes(part), policy=policy.default)
    return msg if isinstance(msg, email.message.EmailMessage) else None


def load_eml(path: Path, data: bytes) -> ParsedDocument:
    """Load an e-mail message (RFC 5322 ``.eml``).

    Args:
        path: The file's path.
        data: The file's bytes.

    Returns:
        The parsed document (``file_type`` ``eml``).

    Raises:
        DocumentLoadError: For an empty or binary file.
    """
    decode_text(data, path)  # refuses empty files and binary junk with the usual reasons
    msg = email.message_from_bytes(data, policy=policy.default)
    if not isinstance(msg, email.message.EmailMessage) or not any(
        msg.get(k) for k in ("From", "To", "Subject", "Date")
    ):
        raise DocumentLoadError(f"{path.name}: not an e-mail message (no headers)", "corrupt")
    composer = _Composer(path.name)
    try:
        composer.message(msg, "", 0)
    except DocumentLoadError:
        raise
    except Exception as exc:  # the email package's errors on malformed structure
        raise DocumentLoadError(f"{path.name}: malformed message ({exc})") from exc
    subject = " ".join(str(msg.get("Subject") or "").split())
    meta = {
        f"email_{k.lower()}": " ".join(str(msg.get(k)).split())
        for k in ("From", "To", "Date")
        if msg.get(k)
    }
    return ParsedDocument(
        text=composer.out.text(),
        segments=composer.segments,
        tables=composer.tables,
        title=subject or path.stem,
        file_type="eml",
        title_source="email_subject" if subject else "file_name",
        properties=meta,
        parser="citerag.eml/1 (email, policy.default)",
        hidden_chars=composer.hidden_chars,
        warnings=composer.warnings,
    )
