"""Real PDFs written with pypdf for the loader tests: text in chosen render modes, an image."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Line:
    """One line of text drawn on a page.

    Attributes:
        text: The text (ASCII; parentheses and backslashes are escaped).
        render_mode: The PDF text render mode (0 fill, 3 invisible, 7 clip only, …);
            ``None`` sets none (the mode in force goes on).
        saved: Draw it inside ``q`` … ``Q``, so the mode does not leak to later lines.
    """

    text: str
    render_mode: int | None = 0
    saved: bool = False


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def write_pdf(
    path: Path,
    pages: list[list[Line]],
    image_on: frozenset[int] = frozenset(),
    form_text: dict[int, str] | None = None,
) -> Path:
    """Write a PDF whose pages draw the given lines in Helvetica, top to bottom.

    Args:
        path: Where to write it.
        pages: The lines of each page.
        image_on: 0-based pages that also draw a 2x2 grey image under the text (as a
            scanned page with an OCR text layer does).
        form_text: 0-based page -> a visible line drawn through a form XObject.

    Returns:
        ``path``.
    """
    from pypdf import PdfWriter
    from pypdf.generic import (
        ArrayObject,
        DecodedStreamObject,
        DictionaryObject,
        NameObject,
        NumberObject,
    )

    writer = PdfWriter()
    font = writer._add_object(
        DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type1"),
                NameObject("/BaseFont"): NameObject("/Helvetica"),
                NameObject("/Encoding"): NameObject("/WinAnsiEncoding"),
            }
        )
    )
    for number, lines in enumerate(pages):
        page = writer.add_blank_page(612, 792)
        resources = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})}
        )
        ops: list[str] = []
        if number in image_on:
            img = DecodedStreamObject()
            img.set_data(bytes([128, 200, 200, 128]))
            img.update(
                {
                    NameObject("/Type"): NameObject("/XObject"),
                    NameObject("/Subtype"): NameObject("/Image"),
                    NameObject("/Width"): NumberObject(2),
                    NameObject("/Height"): NumberObject(2),
                    NameObject("/ColorSpace"): NameObject("/DeviceGray"),
                    NameObject("/BitsPerComponent"): NumberObject(8),
                }
            )
            resources[NameObject("/XObject")] = DictionaryObject(
                {NameObject("/Im1"): writer._add_object(img)}
            )
            ops.append("q 612 0 0 792 0 0 cm /Im1 Do Q")
        if form_text and number in form_text:
            form = DecodedStreamObject()
            shown = f"BT /F1 11 Tf 72 100 Td ({_escape(form_text[number])}) Tj ET"
            form.set_data(shown.encode("latin-1"))
            form.update(
                {
                    NameObject("/Type"): NameObject("/XObject"),
                    NameObject("/Subtype"): NameObject("/Form"),
                    NameObject("/BBox"): ArrayObject(
                        [NumberObject(0), NumberObject(0), NumberObject(612), NumberObject(792)]
                    ),
                    NameObject("/Resources"): DictionaryObject(
                        {NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})}
                    ),
                }
            )
            xobjects = resources.setdefault(NameObject("/XObject"), DictionaryObject())
            xobjects[NameObject("/Fm1")] = writer._add_object(form)
            ops.append("/Fm1 Do")
        y = 740
        for line in lines:
            mode = "" if line.render_mode is None else f"{line.render_mode} Tr "
            show = f"BT /F1 11 Tf {mode}72 {y} Td ({_escape(line.text)}) Tj ET"
            ops.append(f"q {show} Q" if line.saved else show)
            y -= 16
        page[NameObject("/Resources")] = resources
        content = DecodedStreamObject()
        content.set_data("\n".join(ops).encode("latin-1"))
        page[NameObject("/Contents")] = writer._add_object(content)
        page[NameObject("/MediaBox")] = ArrayObject(
            [NumberObject(0), NumberObject(0), NumberObject(612), NumberObject(792)]
        )
    with path.open("wb") as fh:
        writer.write(fh)
    return path
