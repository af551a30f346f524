"""Hostile files of the kinds issue 32 lists, written to disk, for the tests and for
``benchmarks/hostile_files.py``.

The small building blocks (:func:`rezip`, :data:`BILLION_LAUGHS`, :func:`lie_about_size`,
:func:`png_header_only`, :func:`nested_message`) are what the unit tests use; the full-size
files of :data:`HOSTILE` are what the benchmark ingests (each written in pieces, so making a
1 GiB zip bomb never holds 1 GiB in the writer's memory).
"""

from __future__ import annotations

import copy
import functools
import random
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

from loaders.office import OLE2_MAGIC

MIB = 1 << 20


#: A Word body whose one run expands three levels of entities ("billion laughs").
BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:body><w:p><w:r><w:t>&lol3;</w:t></w:r></w:p></w:body></w:document>"""


def rezip(src: Path, dest: Path, replace: dict[str, bytes]) -> Path:
    """Copy the zip ``src`` to ``dest`` with some members' bytes replaced."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zout.writestr(copy.copy(info), replace.get(info.filename, zin.read(info)))
    return dest


def lie_about_size(data: bytes, name: str, size: int) -> bytes:
    """Patch a member's declared uncompressed size in its local and central headers."""
    raw = bytearray(data)
    key = name.encode()
    for sig, size_at in ((b"PK\x01\x02", 24), (b"PK\x03\x04", 22)):
        pos = raw.find(sig)
        while pos >= 0:
            name_at = pos + (46 if sig == b"PK\x01\x02" else 30)
            name_len = struct.unpack_from("<H", raw, pos + (28 if sig == b"PK\x01\x02" else 26))[0]
            if bytes(raw[name_at : name_at + name_len]) == key:
                struct.pack_into("<I", raw, pos + size_at, size)
            pos = raw.find(sig, pos + 4)
    return bytes(raw)


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    crc = zlib.crc32(kind + body) & 0xFFFFFFFF
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


def png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` and whose pixel data is garbage:
    loading it fails as corrupt unless it is refused from the header alone."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", ihdr)
        + _png_chunk(b"IDAT", b"not deflate data")
        + _png_chunk(b"IEND", b"")
    )


def write_blank_png(path: Path, width: int, height: int) -> Path:
    """A valid 8-bit greyscale PNG, all white, of ``width`` x ``height`` pixels (decoded:
    ``width * height`` bytes; on disk about a thousandth of that), compressed row by row."""
    row = b"\0" + b"\xff" * width  # filter type 0, then the pixels
    comp = zlib.compressobj(9)
    with path.open("wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n")
        out.write(_png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)))
        pending = b""
        for _ in range(height):
            pending += comp.compress(row)
            if len(pending) >= MIB:
                out.write(_png_chunk(b"IDAT", pending))
                pending = b""
        out.write(_png_chunk(b"IDAT", pending + comp.flush()))
        out.write(_png_chunk(b"IEND", b""))
    return path


def message(subject: str, body: str) -> EmailMessage:
    """A plain-text message from Ann Lee to the buyers."""
    msg = EmailMessage()
    msg["Subject"] = subject
    msg["From"] = "Ann Lee <ann@example.com>"
    msg["To"] = "buyers@example.com"
    msg.set_content(body)
    return msg


def nested_message(levels: int) -> EmailMessage:
    """A message carrying a message carrying a message ... ``levels`` attached messages deep
    (level 0 is the innermost; the one returned is level ``levels``)."""
    msg = message("level 0", "body 0")
    for level in range(1, levels + 1):
        outer = message(f"level {level}", f"body {level}")
        outer.add_attachment(msg)
        msg = outer
    return msg


def deep_multipart(depth: int) -> bytes:
    """A message of ``depth`` nested ``multipart/mixed`` containers around one text part (the
    email package parses nesting recursively)."""
    body = b"".join(
        b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i)
        for i in range(depth)
    )
    body += b"Content-Type: text/plain\r\n\r\nhello\r\n"
    body += b"".join(b"--b%d--\r\n" % i for i in reversed(range(depth)))
    return b"From: a@example.com\r\nSubject: deep\r\nMIME-Version: 1.0\r\n" + body


def small_docx(path: Path, heading: str, text: str) -> Path:
    """A Word document with one heading and one paragraph."""
    import docx

    d = docx.Document()
    d.add_heading(heading, 1)
    d.add_paragraph(text)
    d.save(path)
    return path


def small_xlsx(path: Path) -> Path:
    """A workbook with one small sheet, ``Sales``."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sales"
    ws.append(["Region", "Units sold"])
    ws.append(["North", 1204])
    wb.save(path)
    return path


def _add_streamed_member(path: Path, member: str, pieces: Iterator[bytes]) -> None:
    """Append ``member`` to the zip ``path``, written piece by piece (deflated)."""
    with (
        zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED) as zf,
        zf.open(member, "w", force_zip64=True) as out,
    ):
        for piece in pieces:
            out.write(piece)


def _repeat(piece: bytes, total: int) -> Iterator[bytes]:
    while total > 0:
        yield piece[:total]
        total -= len(piece)


def _without(src: Path, dest: Path, member: str) -> Path:
    """Copy the zip ``src`` to ``dest`` without ``member``."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            if info.filename != member:
                zout.writestr(copy.copy(info), zin.read(info))
    return dest


# -- the full-size hostile files ------------------------------------------------------------


def zip_bomb_docx(path: Path) -> Path:
    """A Word document carrying a 1 GiB member of zeros (about 1 MiB compressed)."""
    small_docx(path, "Bomb", "An ordinary paragraph.")
    _add_streamed_member(path, "word/media/zeros.bin", _repeat(b"\0" * (4 * MIB), 1024 * MIB))
    return path


def ratio_bomb_xlsx(path: Path) -> Path:
    """A workbook whose sheet part is 150 MiB of blanks (under the total limit, inflating
    about a thousand times)."""
    tmp = small_xlsx(path.with_suffix(".tmp.xlsx"))
    _without(tmp, path, "xl/worksheets/sheet1.xml")
    tmp.unlink()
    head = (
        b'<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/'
        b'spreadsheetml/2006/main"><sheetData>'
    )

    def pieces() -> Iterator[bytes]:
        yield head
        yield from _repeat(b" " * (4 * MIB), 150 * MIB)
        yield b"</sheetData></worksheet>"

    _add_streamed_member(path, "xl/worksheets/sheet1.xml", pieces())
    return path


def _docx_without_body(path: Path, title: str) -> tuple[bytes, bytes]:
    """Write a small Word document to ``path`` without its body part; return the body XML's
    ``(head, tail)`` around ``<w:body>`` for a generator to stream a body between."""
    tmp = small_docx(path.with_suffix(".tmp.docx"), title, "An ordinary paragraph.")
    with zipfile.ZipFile(tmp) as zf:
        xml = zf.read("word/document.xml")
    _without(tmp, path, "word/document.xml")
    tmp.unlink()
    head, tail = xml.split(b"<w:body>", 1)
    return head, tail


def lying_bomb_docx(path: Path) -> Path:
    """A Word document whose body part inflates to 300 MiB but declares 4 KiB."""
    head, tail = _docx_without_body(path, "Bomb")

    def pieces() -> Iterator[bytes]:
        yield head + b"<w:body>"
        yield from _repeat(b" " * (4 * MIB), 300 * MIB)
        yield tail

    _add_streamed_member(path, "word/document.xml", pieces())
    path.write_bytes(lie_about_size(path.read_bytes(), "word/document.xml", 4096))
    return path


def entity_expansion_docx(path: Path) -> Path:
    """A Word document whose body declares nested entities (billion laughs)."""
    tmp = small_docx(path.with_suffix(".tmp.docx"), "Laughs", "An ordinary paragraph.")
    rezip(tmp, path, {"word/document.xml": BILLION_LAUGHS})
    tmp.unlink()
    return path


def million_row_xlsx(path: Path, rows: int = 1_000_000) -> Path:
    """A workbook whose one sheet really holds ``rows`` rows of two cells (no dimension
    element: only reading the rows tells how many there are)."""
    tmp = small_xlsx(path.with_suffix(".tmp.xlsx"))
    _without(tmp, path, "xl/worksheets/sheet1.xml")
    tmp.unlink()

    def pieces() -> Iterator[bytes]:
        yield (
            b'<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/'
            b'spreadsheetml/2006/main"><sheetData>'
        )
        batch = []
        for r in range(1, rows + 1):
            batch.append(
                b'<row r="%d"><c r="A%d" t="inlineStr"><is><t>item %d</t></is></c>'
                b'<c r="B%d"><v>%d</v></c></row>' % (r, r, r, r, r * 7 % 1000)
            )
            if len(batch) == 10_000:
                yield b"".join(batch)
                batch = []
        yield b"".join(batch) + b"</sheetData></worksheet>"

    _add_streamed_member(path, "xl/worksheets/sheet1.xml", pieces())
    return path


def million_row_csv(path: Path, rows: int = 1_000_000) -> Path:
    """A CSV export of ``rows`` rows under a header."""
    with path.open("w", encoding="utf-8") as out:
        out.write("item,quantity\n")
        for start in range(0, rows, 10_000):
            out.write("".join(f"item {r},{r * 7 % 1000}\n" for r in range(start, start + 10_000)))
    return path


def password_protected_docx(path: Path) -> Path:
    """What Office writes for a password-protected document: an OLE2 compound file (here its
    magic and random bytes) under a ``.docx`` name."""
    path.write_bytes(OLE2_MAGIC + random.Random(1).randbytes(64 * 1024))
    return path


def corrupt_zip_xlsx(path: Path) -> Path:
    """A zip's first bytes and then garbage, named ``.xlsx``."""
    path.write_bytes(b"PK\x03\x04" + random.Random(2).randbytes(64 * 1024))
    return path


def huge_png(path: Path) -> Path:
    """A valid PNG of 30,000 x 30,000 pixels (900 MB decoded)."""
    return write_blank_png(path, 30_000, 30_000)


def nested_eml(path: Path) -> Path:
    """An e-mail whose attached message carries a message ... 40 levels deep."""
    path.write_bytes(bytes(nested_message(40)))
    return path


def deep_multipart_eml(path: Path) -> Path:
    """An e-mail of 3,000 nested multipart containers."""
    path.write_bytes(deep_multipart(3000))
    return path


def oversized_docx(path: Path, size: int = 1024 * MIB) -> Path:
    """A Word document followed by zeros up to ``size`` bytes (a sparse file: no disk used),
    over the loaders' file size limit."""
    small_docx(path, "Big", "An ordinary paragraph.")
    with path.open("r+b") as fh:
        fh.truncate(size)
    return path


def _words(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(_VOCABULARY) for _ in range(n))


_VOCABULARY = [
    "ladder",
    "harness",
    "depot",
    "boiler",
    "canteen",
    "invoice",
    "quarter",
    "region",
    "units",
    "sold",
    "north",
    "south",
    "inspection",
    "site",
    "lead",
    "tuesday",
    "refurbishment",
    "parking",
    "visitors",
    "forklift",
    "locker",
    "keys",
    "mileage",
    "truck",
    "van",
    "contract",
    "supplier",
    "delivery",
    "schedule",
    "budget",
    "approved",
    "pending",
]


def long_rows_csv(path: Path, rows: int = 95_000, row_chars: int = 2000) -> Path:
    """A CSV under the row, cell and file size limits whose text is far over ingest's text
    limit: ``rows`` rows of two cells, ``row_chars`` characters each (190 MB by default)."""
    rng = random.Random(3)
    pool = [_words(rng, row_chars // 7)[: row_chars - 12] for _ in range(50)]
    with path.open("w", encoding="utf-8") as out:
        out.write("id,note\n")
        for start in range(0, rows, 1000):
            out.write(
                "".join(f"{r:08d},{pool[r % 50]}\n" for r in range(start, min(rows, start + 1000)))
            )
    return path


def big_body_docx(path: Path, body_mib: int = 190) -> Path:
    """A Word document whose body part is ``body_mib`` MiB of ordinary paragraphs (varied
    words: inflating a few times, not a zip bomb), under the archive's size limits."""
    head, tail = _docx_without_body(path, "Big")
    rng = random.Random(4)
    paragraphs = [
        b"<w:p><w:r><w:t>%s</w:t></w:r></w:p>" % _words(rng, 60).encode() for _ in range(2000)
    ]

    def pieces() -> Iterator[bytes]:
        yield head + b"<w:body>"
        written = 0
        while written < body_mib * MIB:
            piece = b"".join(rng.choices(paragraphs, k=1000))
            written += len(piece)
            yield piece
        yield tail

    _add_streamed_member(path, "word/document.xml", pieces())
    return path


_SPREADSHEET = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_SHARED_STRINGS = (
    b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
    b'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
    b'<Relationship Id="rIdShared" Type="http://schemas.openxmlformats.org/officeDocument/'
    b'2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
)


def shared_strings_xlsx(
    path: Path, rows: int = 50_000, strings: int = 200, string_chars: int = 32_000
) -> Path:
    """A workbook of ``rows`` rows of two cells, each a reference to one of ``strings`` shared
    strings of ``string_chars`` characters: a few MiB on disk and inside, but
    ``2 * rows * string_chars`` characters of text once the references are resolved (3.2
    billion by default)."""
    rng = random.Random(5)
    pool = [
        "".join(rng.choices("abcdefghij klmnop", k=string_chars)).encode() for _ in range(strings)
    ]
    tmp = small_xlsx(path.with_suffix(".tmp.xlsx"))
    sheet_part = "xl/worksheets/sheet1.xml"
    with zipfile.ZipFile(tmp) as zin, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == "[Content_Types].xml" and b"sharedStrings" not in data:
                data = data.replace(b"</Types>", _SHARED_STRINGS[0])
            elif info.filename == "xl/_rels/workbook.xml.rels" and b"sharedStrings" not in data:
                data = data.replace(b"</Relationships>", _SHARED_STRINGS[1])
            if info.filename not in (sheet_part, "xl/sharedStrings.xml"):
                zout.writestr(copy.copy(info), data)
        zout.writestr(
            "xl/sharedStrings.xml",
            b'<?xml version="1.0"?><sst xmlns="%s" count="%d" uniqueCount="%d">%s</sst>'
            % (
                _SPREADSHEET.encode(),
                strings,
                strings,
                b"".join(b"<si><t>%s</t></si>" % t for t in pool),
            ),
        )
        cells = (
            b'<row r="%d"><c r="A%d" t="s"><v>%d</v></c><c r="B%d" t="s"><v>%d</v></c></row>'
            % (r, r, rng.randrange(strings), r, rng.randrange(strings))
            for r in range(1, rows + 1)
        )
        zout.writestr(
            sheet_part,
            b'<?xml version="1.0"?><worksheet xmlns="%s"><sheetData>%s</sheetData></worksheet>'
            % (_SPREADSHEET.encode(), b"".join(cells)),
        )
    tmp.unlink()
    return path


@dataclass(frozen=True)
class Hostile:
    """One hostile file: its name in the folder, what it is, and how to write it."""

    name: str
    what: str
    write: Callable[[Path], Path]


#: The hostile files of issue 32, full size.
HOSTILE = (
    Hostile("zip_bomb.docx", "zip bomb: a 1 GiB member of zeros (honest sizes)", zip_bomb_docx),
    Hostile("ratio_bomb.xlsx", "zip bomb: a 150 MiB sheet part inflating ~1000x", ratio_bomb_xlsx),
    Hostile("lying_bomb.docx", "zip bomb: 300 MiB body part declaring 4 KiB", lying_bomb_docx),
    Hostile("laughs.docx", "XML entity expansion (billion laughs)", entity_expansion_docx),
    Hostile("million_rows.xlsx", "a sheet of 1,000,000 rows", million_row_xlsx),
    Hostile("million_rows.csv", "a CSV of 1,000,000 rows", million_row_csv),
    Hostile("locked.docx", "password-protected Office file (OLE2)", password_protected_docx),
    Hostile("corrupt.xlsx", "corrupt zip", corrupt_zip_xlsx),
    Hostile("huge.png", "image of 30,000 x 30,000 pixels", huge_png),
    Hostile("nested.eml", "e-mail with a 40-level nested attached message", nested_eml),
    Hostile("deep_mime.eml", "e-mail of 3,000 nested multipart containers", deep_multipart_eml),
)

#: Files at or past the loaders' size limits (not in the issue's list): what a file the
#: limits let through, or one they refuse by its size, costs.
AT_THE_LIMITS = (
    Hostile("oversized.docx", "a 1 GiB file (sparse), over the file size limit", oversized_docx),
    Hostile("long_rows.csv", "a 190 MB CSV under the row and cell limits", long_rows_csv),
    Hostile("big_body.docx", "a Word body part of 190 MiB of paragraphs", big_body_docx),
    Hostile(
        "body_63mib.docx",
        "a Word body part of 63 MiB, under the part limit (59 MiB of text)",
        functools.partial(big_body_docx, body_mib=63),
    ),
    Hostile(
        "shared_strings.xlsx",
        "100,000 cells referencing 32,000-character shared strings (3.2 billion characters)",
        shared_strings_xlsx,
    ),
)
