"""How bytes become text (loaders.decode): byte-order marks, UTF-8, a declared HTML charset,
Windows-1252 and its Latin-1 fallback; the streamed reading of a large text file agrees."""

from __future__ import annotations

from pathlib import Path

import pytest

from loaders.base import DocumentLoadError
from loaders.decode import (
    bom_encoding,
    candidate_encodings,
    declared_encoding,
    decode_bytes,
    decode_text,
)
from loaders.html import declared_charset, load_html
from loaders.registry import load_file
from loaders.text import iter_text, scan_text

CP1252_LINE = "The deposit is €250 – it’s refundable “in full”.\n"


# -- Windows-1252 before Latin-1 --------------------------------------------------------------


def test_cp1252_text_decodes_euro_and_smart_quotes() -> None:
    data = ("Windows notes. " * 20 + "\n" + CP1252_LINE).encode("cp1252")
    text = decode_text(data, Path("deposit.txt"))
    assert text.endswith(CP1252_LINE)
    assert not any(0x80 <= ord(ch) < 0xA0 for ch in text)


def test_short_cp1252_csv_is_not_refused_as_binary(tmp_path: Path) -> None:
    path = tmp_path / "prices.csv"
    path.write_bytes("Item,Price,Note\nWidget,€12,“smart quotes” – dash\n".encode("cp1252"))
    doc = load_file(path)
    assert "Widget,€12,“smart quotes” – dash" in doc.text


def test_bytes_cp1252_leaves_undefined_are_read_as_latin1_only_themselves() -> None:
    # 0x81 is undefined in Windows-1252: it alone is read as Latin-1 (U+0081); € stays €.
    data = b"Price \x80" + b"12 and more ordinary text here " * 3 + b"\x81"
    assert decode_bytes(data) == (
        "Price €" + "12 and more ordinary text here " * 3 + "\x81",
        "cp1252",
    )


def test_latin1_text_still_decodes() -> None:
    assert decode_text("café au lait à 18h\n".encode("latin-1"), Path("x.txt")) == (
        "café au lait à 18h\n"
    )


# -- byte-order marks --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"]
)
def test_bom_selects_codec_and_is_not_text(codec: str) -> None:
    text = "UTF note: the locker is number 33.\r\nZoë, ☃ and 会議.\n"
    data = ("\ufeff" + text).encode(codec) if codec[-3:] in ("-le", "-be") else text.encode(codec)
    assert decode_text(data, Path("notes.txt")) == text.replace("\r\n", "\n")


def test_utf32_le_bom_is_checked_before_utf16_le() -> None:
    assert bom_encoding(b"\xff\xfe\x00\x00") == "utf-32"
    assert bom_encoding(b"\xff\xfeA\x00") == "utf-16"
    # UTF-16-LE text whose first character is U+0000 also starts FF FE 00 00.
    assert candidate_encodings(b"\xff\xfe\x00\x00")[:2] == ["utf-32", "utf-16"]


def test_utf16_files_load_through_the_registry(tmp_path: Path) -> None:
    (tmp_path / "team.csv").write_bytes("name,role\nZoë,captain\nKai,keeper\n".encode("utf-16"))
    (tmp_path / "page.html").write_bytes(
        "<html><body><p>UTF-16 page: the museum opens at 10.</p></body></html>".encode("utf-16")
    )
    assert load_file(tmp_path / "team.csv").text == "name,role\nZoë,captain\nKai,keeper\n"
    assert load_file(tmp_path / "page.html").text == "UTF-16 page: the museum opens at 10."


def test_utf16_with_nul_characters_or_only_whitespace_is_refused() -> None:
    with pytest.raises(DocumentLoadError) as info:
        decode_text("text\x00with a NUL character".encode("utf-16"), Path("x.txt"))
    assert info.value.kind == "binary" and "NUL" in info.value.reason
    with pytest.raises(DocumentLoadError) as info:
        decode_text(" \n\t ".encode("utf-16"), Path("x.txt"))
    assert info.value.kind == "empty"


def test_nul_bytes_without_a_bom_are_still_binary() -> None:
    with pytest.raises(DocumentLoadError) as info:
        decode_text("UTF-16 without its mark".encode("utf-16-le"), Path("x.txt"))
    assert info.value.kind == "binary" and "NUL" in info.value.reason


# -- a declared HTML charset -------------------------------------------------------------------


def test_declared_charset_is_found_in_meta_charset_and_http_equiv() -> None:
    assert declared_charset(b'<html><head><meta charset="windows-1252">') == "windows-1252"
    assert (
        declared_charset(b'<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=Shift_JIS">')
        == "Shift_JIS"
    )
    assert declared_charset(b"<html><head><title>none</title>") is None
    assert declared_charset(b" " * 1024 + b'<meta charset="shift_jis">') is None


def test_html_declared_windows_1252_wins() -> None:
    page = b'<html><head><meta charset="windows-1252"></head><body>'
    page += b"<p>Room \x80180 \x96 breakfast.</p>" + b"<p>More text.</p>" * 30 + b"</body></html>"
    assert load_html(Path("p.html"), page).text.startswith("Room €180 – breakfast.")


def test_html_declared_shift_jis_is_read() -> None:
    page = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=shift_jis">'
        "<title>案内</title></head><body><p>会議は三階の会議室で行います。</p></body></html>"
    ).encode("shift_jis")
    doc = load_html(Path("sjis.html"), page)
    assert (doc.text, doc.title) == ("会議は三階の会議室で行います。", "案内")


def test_html_declared_iso_8859_1_is_read_as_windows_1252() -> None:
    page = b'<meta charset="ISO-8859-1"><p>\x93Quoted\x94 caf\xe9</p>'
    assert load_html(Path("p.html"), page).text == "“Quoted” café"


@pytest.mark.parametrize("label", ["no-such-charset", "shift_jis", "utf-7", "rot13"])
def test_unknown_or_failing_declaration_falls_back(label: str) -> None:
    # UTF-8 bytes that are not valid Shift_JIS ("à" = C3 A0, "’" = E2 80 99) under a
    # declaration that is unknown, fails to decode them, or names no character set.
    page = f'<meta charset="{label}"><p>Voilà, l’été</p>'.encode()
    assert load_html(Path("p.html"), page).text == "Voilà, l’été"


@pytest.mark.parametrize(
    ("label", "codec"),
    [
        ("windows-1252", "cp1252"),
        ("ISO-8859-1", "cp1252"),
        ("latin1", "cp1252"),
        ("Shift_JIS", "shift_jis"),
        ("UTF-8", "utf-8-sig"),
        ("utf-16", "utf-8-sig"),
        ("us-ascii", None),
        ("utf-7", None),
        ("rot13", None),
        ("base64", None),
        ("x-no-such", None),
        ("", None),
        (None, None),
    ],
)
def test_declared_encoding_names_a_usable_charset(label: str | None, codec: str | None) -> None:
    assert declared_encoding(label) == codec


def test_bom_wins_over_declared_charset() -> None:
    page = '<meta charset="windows-1252"><p>Zoë’s page</p>'.encode("utf-8-sig")
    assert load_html(Path("p.html"), page).text == "Zoë’s page"


def test_caller_encoding_overrides_the_page_declaration() -> None:
    page = '<meta charset="windows-1252"><p>Café – 5 €</p>'.encode()
    assert load_html(Path("body.html"), page, encoding="utf-8").text == "Café – 5 €"


# -- the streamed reading of a large text file agrees ------------------------------------------


@pytest.mark.parametrize(
    ("codec", "expected"),
    [("utf-16", "utf-16"), ("utf-32", "utf-32"), ("utf-8-sig", "utf-8-sig"), ("cp1252", "cp1252")],
)
def test_streamed_text_equals_decode_text(tmp_path: Path, codec: str, expected: str) -> None:
    text = "".join(f"Line {i}: €{i} – it’s “quoted”.\r\n" for i in range(200))
    path = tmp_path / "big.txt"
    path.write_bytes(text.encode(codec))
    whole = decode_text(path.read_bytes(), path)
    scan = scan_text(path, block_bytes=7)  # odd blocks split code units and "\r\n" pairs
    assert scan.encoding == expected
    assert scan.characters == len(whole)
    assert "".join(iter_text(path, scan.encoding, block_bytes=7)) == whole


def test_streamed_scan_refuses_as_decode_text_does(tmp_path: Path) -> None:
    nul = tmp_path / "nul.txt"
    nul.write_bytes("a NUL\x00 inside UTF-16".encode("utf-16"))
    blank = tmp_path / "blank.txt"
    blank.write_bytes(" \n \n".encode("utf-32"))
    bare = tmp_path / "bare.txt"
    bare.write_bytes("UTF-16 without its mark".encode("utf-16-le"))
    for path, kind in ((nul, "binary"), (blank, "empty"), (bare, "binary")):
        with pytest.raises(DocumentLoadError) as streamed:
            scan_text(path, block_bytes=5)
        with pytest.raises(DocumentLoadError) as whole:
            decode_text(path.read_bytes(), path)
        assert streamed.value.kind == whole.value.kind == kind
        assert streamed.value.reason == whole.value.reason
