"""The parts of a plain-text e-mail body: the writer's own text, their signature, and the
earlier messages a reply quotes.

A reply quotes what it answers below an *attribution line* ("On Mon, 30 Nov 2026 at 09:12,
Tomasz Nowak <t.nowak@example.com> wrote:"), each quoted line marked ``>`` (``>>`` for a
message quoted inside the quoted one). The markers are layout, not words: left in the text
they land inside sentences ("I think it's nearly empty. >> >> Ade") and the attribution
line, separated from what it introduces, no longer says who wrote it. :func:`reply_parts`
cuts a body into :class:`ReplyPart` pieces, each a block of its own:

* ``own``: the writer's text (its heading lines still to be found by the caller);
* ``signature``: from a ``--`` delimiter line, or from a sign-off ("Thanks," / "Best
  wishes,": a short line ending in a comma, a paragraph of its own, followed only by a few
  short lines up to the end of the writer's text) to the end of the writer's text;
* ``quote``: one quoted message, its attribution line first and one level of ``>`` markers
  taken off every line (so the text holds no markers and its prose wrapped over lines reads
  as prose); its section names the writer and date ("Tomasz Nowak wrote (Mon, 30 Nov
  2026)"), and a message quoted inside it is a part of its own, found the same way; a
  message quoted without markers below a header block (``-----Original Message-----`` /
  ``From: …`` / ``Sent: …``, as Outlook writes it) is one too, its header lines first.

The canonical text holds each part's text as returned here (markers dropped, as the HTML
loader drops markup), so every character range stays an index into it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from loaders.base import SECTION_SEP, SIGNATURE_SECTION

__all__ = ["ReplyPart", "attribution_section", "reply_parts"]

#: A quoted line: ``>`` markers at its start.
_QUOTED = re.compile(r"^[ \t]?>")
#: One level of quote marker with the space after it.
_ONE_LEVEL = re.compile(r"^[ \t]?>[ \t]?")
#: An attribution line's end.
_WROTE = re.compile(r"\bwrote:\s*$", re.IGNORECASE)
#: A signature delimiter line ("-- ", or "--" as clients strip the space).
_SIG_DELIMITER = re.compile(r"^--\s*$")
#: A sign-off line: at most four words ending in a comma or an exclamation mark.
_SIGN_OFF = re.compile(r"^[^\W\d][\w'’ ]{0,30}[,!]\s*$")
#: Most lines a signature holds after its sign-off or delimiter.
MAX_SIGNATURE_LINES = 8
#: Longest line of a signature.
SIGNATURE_LINE = 80
_TIME = re.compile(r",?\s*(?:at\s+)?\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp]\.?[Mm]\.?)?")
_ADDRESS = re.compile(r"<[^<>]*>|\[mailto:[^\]]*\]|\S+@\S+")


@dataclass(frozen=True)
class ReplyPart:
    """One part of an e-mail body.

    Attributes:
        kind: ``own``, ``signature`` or ``quote``.
        text: Its text (a quote's without its markers), stripped.
        section: The section it is filed under ('' for the writer's own text).
    """

    kind: str
    text: str
    section: str = ""


def attribution_section(line: str) -> str:
    """The section of the message an attribution line introduces: ``"Name wrote (date)"``.

    ``"On Mon, 30 Nov 2026 at 09:12, Tomasz Nowak <t@example.com> wrote:"`` gives ``"Tomasz
    Nowak wrote (Mon, 30 Nov 2026)"``: the writer is what follows the last comma (addresses
    dropped), the date what precedes it (a time of day dropped); without a date,
    ``"Name wrote"``.

    Args:
        line: The attribution line (or lines, joined).
    """
    body = " ".join(line.split())
    body = _WROTE.sub("", body).strip()
    body = re.sub(r"^On\s+", "", body, flags=re.IGNORECASE)
    cleaned = _ADDRESS.sub(" ", body)
    who, when = cleaned, ""
    if "," in cleaned:
        when, who = cleaned.rsplit(",", 1)
    who = " ".join(who.split()).strip(" ,\"'")
    when = " ".join(_TIME.sub("", when).split()).strip(" ,")
    if not who:  # only an address: keep it
        found = _ADDRESS.search(body)
        who = found.group(0).strip("<>[]") if found else "Someone"
    return f"{who} wrote ({when})" if when else f"{who} wrote"


def _is_attribution(lines: list[str], i: int) -> int:
    """How many lines (1 or 2; 0 for none) of an attribution end at line ``i``, the line
    just before a quoted run (blank lines between allowed by the caller)."""
    line = lines[i].strip()
    if not _WROTE.search(line) or len(line) > 200:
        return 0
    if (
        i > 0
        and lines[i - 1].strip().lower().startswith("on ")
        and not line.lower().startswith("on ")
    ):
        return 2  # an attribution wrapped over two lines
    return 1


def _signature_start(lines: list[str]) -> int | None:
    """Index of the first line of the writer's signature in ``lines`` (their own text),
    or ``None``."""
    n = len(lines)
    delimiter = next((i for i in range(n) if _SIG_DELIMITER.match(lines[i])), None)
    if delimiter is not None:
        # a sign-off just above the delimiter belongs with it ("Thanks,\nAde\n\n--")
        for i in range(delimiter - 1, max(-1, delimiter - 5), -1):
            if _sign_off_at(lines, i):
                return i
        return delimiter
    for i in range(n):
        tail = [ln for ln in lines[i + 1 :] if ln.strip()]
        if (
            _sign_off_at(lines, i)
            and len(tail) <= MAX_SIGNATURE_LINES
            and all(len(ln) <= SIGNATURE_LINE for ln in tail)
        ):
            return i
    return None


def _sign_off_at(lines: list[str], i: int) -> bool:
    """Whether line ``i`` is a sign-off: a paragraph's first line, at most four words ending
    in a comma or ``!``, and not the body's opening salutation (some text above it)."""
    line = lines[i].strip()
    if not _SIGN_OFF.match(line) or len(line.split()) > 4:
        return False
    above = [ln for ln in lines[:i] if ln.strip()]
    return bool(above) and (i == 0 or not lines[i - 1].strip())


def _own_parts(lines: list[str]) -> list[ReplyPart]:
    start = _signature_start(lines)
    own = "\n".join(lines if start is None else lines[:start]).strip()
    out = [ReplyPart("own", own)] if own else []
    if start is not None:
        # the delimiter is layout, like a quote marker
        sig = "\n".join(ln for ln in lines[start:] if not _SIG_DELIMITER.match(ln)).strip()
        if sig:
            out.append(ReplyPart("signature", sig, SIGNATURE_SECTION))
    return out


#: The separator line some clients write above the message a reply or forward quotes.
_ORIGINAL = re.compile(
    r"^\s*-{2,}\s*(?:Original Message|Forwarded message)\s*-{2,}\s*$", re.IGNORECASE
)
_FROM_LINE = re.compile(r"^\s*\*?From:\*?\s*(?P<who>\S.*)$")
_SENT_LINE = re.compile(r"^\s*\*?(?:Sent|Date):\*?\s*(?P<when>\S.*)$")


def _header_block(lines: list[str]) -> tuple[int, int, str] | None:
    """The first header block of a message quoted without markers (Outlook's ``From: …`` /
    ``Sent: …`` / ``To: …`` / ``Subject: …`` lines, maybe under ``-----Original
    Message-----``): ``(first line, line after the block, section)``, or ``None``."""
    for i, line in enumerate(lines):
        m = _FROM_LINE.match(line)
        if m is None:
            continue
        window = lines[i + 1 : i + 5]
        sent = next((s for ln in window if (s := _SENT_LINE.match(ln))), None)
        if sent is None:
            continue
        start = i - 1 if i and _ORIGINAL.match(lines[i - 1]) else i
        end = i + 1
        while end < len(lines) and lines[end].strip():
            end += 1
        section = attribution_section(f"On {sent['when']}, {m['who']} wrote:")
        return start, end, section
    return None


def reply_parts(text: str) -> list[ReplyPart]:
    """Cut a plain-text e-mail body into its own text, signature and quoted messages.

    Args:
        text: The body (line breaks ``\\n``).

    Returns:
        The parts in order; a body without quotes or signature is one ``own`` part.
    """
    lines = text.split("\n")
    marked = next((n for n, ln in enumerate(lines) if _QUOTED.match(ln)), len(lines))
    block = _header_block(lines[:marked])
    if block is not None:  # a message quoted below a header block: all that follows it
        first, after, section = block
        head = "\n".join(ln.strip() for ln in lines[first:after] if not _ORIGINAL.match(ln))
        nested = reply_parts("\n".join(lines[after:]))
        above = reply_parts("\n".join(lines[:first])) if first else []
        return above + _quoted(head, section, nested)
    parts: list[ReplyPart] = []
    own: list[str] = []
    i = 0
    while i < len(lines):
        if not _QUOTED.match(lines[i]):
            own.append(lines[i])
            i += 1
            continue
        j = i
        while j < len(lines) and (_QUOTED.match(lines[j])):
            j += 1
        # the attribution: the last non-blank line of the writer's text above the quote
        k = len(own) - 1
        while k >= 0 and not own[k].strip():
            k -= 1
        section = "Quoted message"
        if k >= 0 and (n := _is_attribution(own, k)):
            attribution = own[k - n + 1 : k + 1]
            section = attribution_section(" ".join(attribution))
            del own[k - n + 1 :]
        else:
            attribution = []
        parts += _own_parts(own)
        own = []
        inner = "\n".join(_ONE_LEVEL.sub("", ln) for ln in lines[i:j])
        head = "\n".join(a.strip() for a in attribution)
        parts += _quoted(head, section, reply_parts(inner))
        i = j
    parts += _own_parts(own)
    return parts


def _quoted(head: str, section: str, nested: list[ReplyPart]) -> list[ReplyPart]:
    """A quoted message's parts: its attribution or header lines with its own text, filed
    under ``section``; its signature; the messages quoted inside it (their own sections)."""
    parts: list[ReplyPart] = []
    first = nested[0] if nested else None
    if first is not None and first.kind == "own":
        body = f"{head}\n{first.text}" if head else first.text
        parts.append(ReplyPart("quote", body, section))
        nested = nested[1:]
    elif head:
        parts.append(ReplyPart("quote", head, section))
    for p in nested:
        if p.kind == "signature":
            sig_section = f"{section}{SECTION_SEP}{SIGNATURE_SECTION}"
            parts.append(ReplyPart("signature", p.text, sig_section))
        else:
            parts.append(p if p.kind == "quote" else ReplyPart("quote", p.text, section))
    return parts
