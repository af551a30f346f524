"""E-mail bodies that were lost or garbled."""

from __future__ import annotations

from pathlib import Path

from loaders.eml import load_eml


def _eight_bit(body: bytes, content_type: str = "text/plain") -> bytes:
    return (
        b"Subject: unlabeled\r\nFrom: z@example.com\r\nContent-Type: "
        + content_type.encode()
        + b"\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
        + body
        + b"\r\n"
    )


def test_html_body_declaring_windows_1252_is_not_read_twice() -> None:
    # The part is decoded once (UTF-8 here); the page's own <meta> must not re-decode it.
    html = '<meta charset="windows-1252"><p>Café – 5 €</p>'.encode()
    doc = load_eml(Path("m.eml"), _eight_bit(html, 'text/html; charset="utf-8"'))
    assert doc.text.endswith("Café – 5 €")
