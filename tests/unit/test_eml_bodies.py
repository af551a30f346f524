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


def test_a_part_declared_utf16_without_a_byte_order_mark_is_utf16() -> None:
    """An e-mail part's ``charset="utf-16le"`` is declared outside its bytes, so it is true:
    read as UTF-16 (the HTML ``<meta>`` rule, utf-16 in ASCII markup means UTF-8, does not
    apply; it indexed 'H\\x00e\\x00l\\x00…')."""
    import base64

    body = base64.b64encode("Hello from the depot.".encode("utf-16-le"))
    data = (
        b"Subject: wide\r\nFrom: z@example.com\r\n"
        b'Content-Type: text/plain; charset="utf-16le"\r\n'
        b"Content-Transfer-Encoding: base64\r\n\r\n" + body + b"\r\n"
    )
    doc = load_eml(Path("m.eml"), data)
    assert doc.text.endswith("Hello from the depot.") and "\x00" not in doc.text


def test_utf8_bytes_under_a_stale_single_byte_label_are_utf8() -> None:
    """Valid UTF-8 beyond ASCII is UTF-8 whatever the label says (a mirrored page or a mail
    client declaring iso-8859-1): 'café', never 'cafÃ©'."""
    from loaders.decode import decode_bytes

    said = "Le café ferme à 18h.".encode()
    assert decode_bytes(said, declared="iso-8859-1")[0] == "Le café ferme à 18h."
    doc = load_eml(Path("m.eml"), _eight_bit(said, 'text/plain; charset="iso-8859-1"'))
    assert doc.text.endswith("Le café ferme à 18h.")
    # bytes that are not UTF-8 still follow the label
    assert decode_bytes("Café".encode("cp1252"), declared="iso-8859-1")[0] == "Café"


def test_a_plain_text_schedule_with_leaders_quotes_one_line_per_slot() -> None:
    from loaders.registry import add_structure
    from loaders.sentences import sentence_spans

    msg = EmailMessage()
    msg["Subject"] = "Boiler services in March"
    msg["From"] = "office@example.com"
    msg.set_content(
        "Dear residents,\n\nThe engineer's visits are below, please check yours:\n\n"
        "  Unit 4, Canal Wharf ............. Monday 2 March, 08:00-09:00\n"
        "  The Granary (ground floor) ...... Monday 2 March, 10:30-11:00\n"
        "  9 Tanners Yard .................. Tuesday 3 March, 13:00-14:30\n\n"
        "Please leave access to the boiler cupboard.\n"
    )
    doc = load_eml(Path("visits.eml"), msg.as_bytes())
    add_structure(doc)
    sentences = [doc.text[s:e] for s, e in sentence_spans(doc.text)]
    assert "9 Tanners Yard .................. Tuesday 3 March, 13:00-14:30" in sentences
    assert "The Granary (ground floor) ...... Monday 2 March, 10:30-11:00" in sentences
