"""E-mail loader (``.eml``, stdlib :mod:`email` with ``policy.default``).

The canonical text of a message is a short header block (``Subject:``, ``From:``, ``To:``,
``Cc:``, ``Date:``; one segment, section ``Headers``), then its body: the ``text/plain``
part, else the ``text/html`` part's visible text as :mod:`loaders.html` extracts it (its
sections and hidden-content count kept), then any unnamed text parts of multipart containers
inside the message; then one ``Attachments: a.xlsx; b.pdf`` line (section ``Attachments``)
naming its attachments in order. The subject is the title; ``from``/``to``/``date`` are
document properties (``ParsedDocument.properties``: ``email_from``, ``email_to``,
``email_date``), copied onto every chunk's metadata.

Attachments are **not** read into the message's text: ingest makes each supported one a
document of its own, linked to the message (:mod:`loaders.attachments` decides what the
attachments are and numbers them; :mod:`citerag.index.attached` collects them as sources).
This loader names the message's direct attachments only (an attached message's attachments
are named by that message's own document), at most :data:`MAX_ATTACHMENTS` of them.
"""

from __future__ import annotations

import email.message
import logging
from dataclasses import replace
from pathlib import Path

from loaders.attachments import (
    HOSTILE_DEPTH,
    MAX_ATTACHMENTS,
    MAX_DEPTH,
    attached_depth,
    attachment_name,
    message_parts,
    parse_message,
    part_bytes,
)
from loaders.base import (
    ATTACHMENTS_SECTION,
    HEADER_SECTION,
    MESSAGE_HEADERS,
    DocumentLoadError,
    ParsedDocument,
    Segment,
)
from loaders.blocks import Table
from loaders.decode import decode_bytes, decode_text
from loaders.headings import split_at_headings
from loaders.metadata import file_title
from loaders.office import TextBuilder
from loaders.replies import reply_parts

log = logging.getLogger(__name__)

__all__ = ["MAX_ATTACHMENTS", "MAX_DEPTH", "load_eml"]

HEADERS = tuple(name for name, _ in MESSAGE_HEADERS)


class _Composer:
    """Builds one message's canonical text, segments and tables (attachments named only)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.out = TextBuilder()
        self.segments: list[Segment] = []
        self.tables: list[Table] = []
        self.warnings: list[str] = []
        self.hidden_chars = 0
        self.page_edges: list[tuple[int, int, str]] = []
        self.headings: list[tuple[int, int]] = []  # heading lines of plain-text bodies

    def append_doc(self, doc: ParsedDocument) -> None:
        """Append a parsed body's text, its segments and tables."""
        self.out.gap()
        base = self.out.pos
        self.out.add(doc.text)
        for seg in doc.segments:
            self.segments.append(Segment(base + seg.start, base + seg.end, None, seg.section))
        for t in doc.tables:
            rows = [replace(r, start=r.start + base, end=r.end + base) for r in t.rows]
            self.tables.append(
                Table(t.start + base, t.end + base, t.title, t.columns, rows, None, t.source)
            )
        self.page_edges += [(a + base, b + base, kind) for a, b, kind in doc.page_edges]
        self.hidden_chars += doc.hidden_chars
        self.warnings += [f"{self.name}: {w}" for w in doc.warnings]

    def message(self, msg: email.message.EmailMessage) -> None:
        """Append a message: header block, body, the line naming its attachments."""
        lines = []
        for key in HEADERS:
            value = msg.get(key)
            if value:
                lines.append(f"{key}: {' '.join(str(value).split())}")
        if lines:
            self.out.gap()
            start, end = self.out.add("\n".join(lines))
            self.segments.append(Segment(start, end, None, HEADER_SECTION))
        parts = message_parts(msg)
        self.warnings += parts.warnings
        for body in ([parts.body] if parts.body is not None else []) + parts.more_text:
            self._body(body)
        names = [attachment_name(p, n) for n, p in enumerate(parts.attachments, 1)]
        if names:
            self.out.gap()
            line = "Attachments: " + "; ".join(names[:MAX_ATTACHMENTS])
            start, end = self.out.add(line)
            self.segments.append(Segment(start, end, None, ATTACHMENTS_SECTION))

    def _body(self, part: email.message.MIMEPart) -> None:
        raw = part_bytes(part)
        if part.get_content_type() == "text/html":
            from loaders.html import load_html

            try:
                html = _part_text(part, raw).encode("utf-8")
                doc = load_html(Path("body.html"), html, encoding="utf-8")
            except DocumentLoadError as exc:
                self.warnings.append(f"message body not read: {exc.reason}")
                return
            self.append_doc(doc)
            return
        text = _part_text(part, raw).replace("\r\n", "\n").replace("\r", "\n").strip()
        if text:
            self._plain_body(text)

    def _plain_body(self, text: str) -> None:
        """Append a plain-text body: the writer's text, their signature and each quoted
        message (:func:`loaders.replies.reply_parts`: quote markers dropped, each quoted
        message filed under its attribution) as blocks of their own."""
        body: list[Segment] = []
        for part in reply_parts(text):
            self.out.gap()
            start, end = self.out.add(part.text)
            body.append(Segment(start, end, None, part.section))
        # a plain-text body's heading lines ("PRICE CHANGES FROM JANUARY") make the
        # sections of the writer's own text, as in a text file
        segments, headings = split_at_headings(
            self.out.text(), body, keep_style=typographic_heading
        )
        self.segments += segments
        self.headings += [(h.start, h.end) for h in headings]


def typographic_heading(style: str) -> bool:
    """Whether a heading style (:func:`loaders.headings.heading_style`) is one an e-mail's
    plain-text body marks its sections with: capitals ("PRICE CHANGES FROM JANUARY") or a
    number ("2. CARR LANE BIN COLLECTIONS"). Title-case and plain short lines are not: a
    sign-off's name and role ("Joanne Pickles" / "Personal Tax Manager") and a short line
    of facts ("Easter Monday 6 April - closed") read as such, and a heading line is never
    quoted."""
    return style in ("caps", "part") or style.startswith("num")


def _part_text(part: email.message.MIMEPart, raw: bytes) -> str:
    """A text part's text, read as :func:`loaders.decode.decode_bytes` reads bytes with a
    declared charset: a byte-order mark, then UTF-8 (bytes valid as UTF-8 are UTF-8,
    whatever a stale label says), then the part's ``charset`` when it is a known character
    set that reads them cleanly (a declared UTF-16 or UTF-32 before UTF-8), then
    Windows-1252.

    Args:
        part: The part.
        raw: Its bytes, transfer encoding undone.
    """
    return decode_bytes(raw, declared=part.get_content_charset(), in_markup=False)[0]


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
    try:
        msg = parse_message(data)
    except DocumentLoadError as exc:
        raise DocumentLoadError(f"{path.name}: {exc.reason}", exc.kind) from None
    if msg is None or not any(msg.get(k) for k in ("From", "To", "Subject", "Date")):
        raise DocumentLoadError(f"{path.name}: not an e-mail message (no headers)", "corrupt")
    if attached_depth(msg) >= HOSTILE_DEPTH:
        raise DocumentLoadError(
            f"{path.name}: attached messages nested {HOSTILE_DEPTH} or more levels deep: "
            f"refused as hostile (a real message does not nest this deep; up to {MAX_DEPTH} "
            "levels are read)",
            kind="unsafe",
        )
    composer = _Composer(path.name)
    try:
        composer.message(msg)
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
        title=subject or file_title(path.name),
        file_type="eml",
        title_source="email_subject" if subject else "file_name",
        properties=meta,
        parser="citerag.eml/2 (email, policy.default)",
        hidden_chars=composer.hidden_chars,
        page_edges=composer.page_edges,
        headings=composer.headings,
        warnings=composer.warnings,
    )
