"""E-mail bodies that were lost: a blank plain alternative, a byte-order mark before the
headers, an 8-bit body without a charset."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

from loaders.attachments import attachment_tree
from loaders.eml import load_eml


def _alternative(plain: str) -> bytes:
    msg = EmailMessage()
    msg["Subject"] = "Parking"
    msg["From"] = "a@example.com"
    msg.set_content(plain)
    msg.add_alternative("<p>The HTML part says the permit costs 95 pounds.</p>", subtype="html")
    msg.add_attachment(b"a,b\n1,2\n", maintype="text", subtype="csv", filename="fees.csv")
    return msg.as_bytes()


def test_blank_plain_alternative_gives_way_to_html() -> None:
    data = _alternative("\n  \n")
    doc = load_eml(Path("m.eml"), data)
    assert "The HTML part says the permit costs 95 pounds." in doc.text
    assert doc.text.endswith("Attachments: fees.csv")
    # the attachments are numbered as before: the body choice does not move them
    assert [a.name for a in attachment_tree(data).attachments] == ["fees.csv"]


def test_non_blank_plain_alternative_still_wins() -> None:
    doc = load_eml(Path("m.eml"), _alternative("Plain says 95 pounds."))
    assert "Plain says 95 pounds." in doc.text
    assert "HTML part" not in doc.text


def test_utf8_bom_before_the_headers_is_dropped() -> None:
    data = b"\xef\xbb\xbfSubject: BOM at start\r\nFrom: a@example.com\r\n\r\n"
    data += b"Lockers emptied Fridays.\r\n"
    doc = load_eml(Path("bom.eml"), data)
    assert doc.title == "BOM at start"
    assert doc.text == "Subject: BOM at start\nFrom: a@example.com\n\nLockers emptied Fridays."


def _eight_bit(body: bytes, content_type: str = "text/plain") -> bytes:
    return (
        b"Subject: unlabeled\r\nFrom: z@example.com\r\nContent-Type: "
        + content_type.encode()
        + b"\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
        + body
        + b"\r\n"
    )


def test_undeclared_8bit_latin1_body_is_not_replacement_characters() -> None:
    doc = load_eml(Path("m.eml"), _eight_bit(b"Le caf\xe9 ferme \xe0 18h, \x80 5 \x96 \x93ok\x94."))
    assert doc.text.endswith("Le café ferme à 18h, € 5 – “ok”.")
    assert "\ufffd" not in doc.text


def test_undeclared_8bit_utf8_body_is_utf8() -> None:
    doc = load_eml(Path("m.eml"), _eight_bit("Le café ferme à 18h.".encode()))
    assert doc.text.endswith("Le café ferme à 18h.")


def test_declared_charset_that_fails_falls_back() -> None:
    body = "Müller’s café".encode()
    doc = load_eml(Path("m.eml"), _eight_bit(body, 'text/plain; charset="us-ascii"'))
    assert doc.text.endswith("Müller’s café")


def test_html_body_declaring_windows_1252_is_not_read_twice() -> None:
    # The part is decoded once (UTF-8 here); the page's own <meta> must not re-decode it.
    html = '<meta charset="windows-1252"><p>Café – 5 €</p>'.encode()
    doc = load_eml(Path("m.eml"), _eight_bit(html, 'text/html; charset="utf-8"'))
    assert doc.text.endswith("Café – 5 €")
