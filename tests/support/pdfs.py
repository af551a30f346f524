"""Real PDFs written with pypdf for the loader tests: text in chosen render modes, images,
form XObjects, and raw content-stream snippets (fonts ``/F1`` Helvetica, ``/F2`` Helvetica
with two codes swapped, ``/F3`` Helvetica-Bold)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Line:
    """One line of text drawn on a page (or, with ``raw``, a content-stream snippet).

    Attributes:
        text: The text (ASCII; parentheses and backslashes are escaped).
        render_mode: The PDF text render mode (0 fill, 3 invisible, 7 clip only, …);
            ``None`` sets none (the mode in force goes on).
        saved: Draw it inside ``q`` … ``Q``, so the mode does not leak to later lines.
        raw: Content-stream operators written as they are instead of a text object
            (``"3 Tr Q"``, ``"/Fm1 Do"``, ``"BT /F1 11 Tf 72 500 Td [(a) -200 (b)] TJ ET"``).
    """

    text: str = ""
    render_mode: int | None = 0
    saved: bool = False
    raw: str | None = None


@dataclass(frozen=True)
class Image:
    """A 2x2 grey image XObject named ``/Im1``.

    Attributes:
        scale: The side of the drawn square as a share of the page's sides (1.0 covers the
            page, as a scanned page's image does).
        drawn: False lists it in the page's resources without drawing it.
        offset: Where its lower-left corner is drawn, in points from the page's (both axes).
    """

    scale: float = 1.0
    drawn: bool = True
    offset: float = 0.0


@dataclass(frozen=True)
class Page:
    """A page: its lines, an optional image and an optional form XObject ``/Fm1``.

    Attributes:
        lines: What is drawn, top to bottom.
        image: An image drawn under the text.
        form: The raw content of a form XObject named ``/Fm1`` (drawn only where a line's
            ``raw`` says ``/Fm1 Do``).
        form_matrix: The form's ``/Matrix`` written as it is (``"5"``: not an array).
    """

    lines: list[Line] = field(default_factory=list)
    image: Image | None = None
    form: str | None = None
    form_matrix: str | None = None


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def write_pdf(path: Path, pages: list[list[Line]] | list[Page]) -> Path:
    """Write a PDF whose pages draw the given lines in Helvetica, top to bottom.

    Args:
        path: Where to write it.
        pages: Each page as a ``Page``, or as a plain list of lines.

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

    def stream(data: str, **keys: Any) -> Any:
        obj = DecodedStreamObject()
        obj.set_data(data.encode("latin-1"))
        obj.update({NameObject(k): v for k, v in keys.items()})
        return writer._add_object(obj)

    def box() -> ArrayObject:
        return ArrayObject([NumberObject(v) for v in (0, 0, 612, 792)])

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
    # /F2: Helvetica whose encoding swaps the codes of A and B, as subset fonts remap theirs
    # (a string's bytes mean nothing until the font decodes them).
    swapped = writer._add_object(
        DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type1"),
                NameObject("/BaseFont"): NameObject("/Helvetica"),
                NameObject("/Encoding"): DictionaryObject(
                    {
                        NameObject("/Type"): NameObject("/Encoding"),
                        NameObject("/BaseEncoding"): NameObject("/WinAnsiEncoding"),
                        NameObject("/Differences"): ArrayObject(
                            [NumberObject(65), NameObject("/B"), NameObject("/A")]
                        ),
                    }
                ),
            }
        )
    )
    # /F3: Helvetica-Bold, a standard font without a descriptor (bold only by its name)
    bold = writer._add_object(
        DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type1"),
                NameObject("/BaseFont"): NameObject("/Helvetica-Bold"),
                NameObject("/Encoding"): NameObject("/WinAnsiEncoding"),
            }
        )
    )
    fonts = DictionaryObject(
        {NameObject("/F1"): font, NameObject("/F2"): swapped, NameObject("/F3"): bold}
    )
    for spec in pages:
        spec = spec if isinstance(spec, Page) else Page(lines=list(spec))
        page = writer.add_blank_page(612, 792)
        resources = DictionaryObject({NameObject("/Font"): fonts})
        xobjects = DictionaryObject()
        ops: list[str] = []
        if spec.image is not None:
            xobjects[NameObject("/Im1")] = stream(
                "\x80\xc8\xc8\x80",
                **{
                    "/Type": NameObject("/XObject"),
                    "/Subtype": NameObject("/Image"),
                    "/Width": NumberObject(2),
                    "/Height": NumberObject(2),
                    "/ColorSpace": NameObject("/DeviceGray"),
                    "/BitsPerComponent": NumberObject(8),
                },
            )
            if spec.image.drawn:
                w, h = 612 * spec.image.scale, 792 * spec.image.scale
                at = spec.image.offset
                ops.append(f"q {w:.2f} 0 0 {h:.2f} {at:.2f} {at:.2f} cm /Im1 Do Q")
        if spec.form is not None:
            keys: dict[str, Any] = {
                "/Type": NameObject("/XObject"),
                "/Subtype": NameObject("/Form"),
                "/BBox": box(),
                "/Resources": DictionaryObject({NameObject("/Font"): fonts}),
            }
            if spec.form_matrix is not None:
                keys["/Matrix"] = NumberObject(int(spec.form_matrix))
            xobjects[NameObject("/Fm1")] = stream(spec.form, **keys)
        if xobjects:
            resources[NameObject("/XObject")] = xobjects
        y = 740
        for line in spec.lines:
            if line.raw is not None:
                ops.append(line.raw)
                continue
            mode = "" if line.render_mode is None else f"{line.render_mode} Tr "
            show = f"BT /F1 11 Tf {mode}72 {y} Td ({_escape(line.text)}) Tj ET"
            ops.append(f"q {show} Q" if line.saved else show)
            y -= 16
        page[NameObject("/Resources")] = resources
        page[NameObject("/Contents")] = stream("\n".join(ops))
        page[NameObject("/MediaBox")] = box()
    with path.open("wb") as fh:
        writer.write(fh)
    return path
