"""A reply's quoted messages, attribution lines and signature are blocks of their own."""

from __future__ import annotations

import re
from email.message import EmailMessage
from pathlib import Path

import pytest

from loaders.eml import load_eml
from loaders.replies import attribution_section, reply_parts
from loaders.row_text import row_sentence_spans
from loaders.sentences import sentence_spans

BODY = (
    "Hello team,\n\nThe boiler service moved to Thursday 12 March, between 09:00 and 11:00.\n\n"
    "Regards,\nKim\n\n-- \nKim Osei\nFacilities Officer | Plant Room\nTel: 0161 555 0199\n\n"
    "On Tue, 3 Mar 2026 at 14:05, Lena Park <lena@example.org> wrote:\n"
    "> Hi Kim,\n>\n> I read the gauge today: the boiler is at 1.4 bar. That is lower than\n"
    "> last month.\n>\n> Lena\n>\n"
    "> On Mon, 2 Mar 2026 at 08:00, Kim Osei <kim@example.org> wrote:\n"
    ">> Could you read the boiler gauge tomorrow? I think it is leaking.\n>>\n>> Kim\n"
)


def _load(body: str) -> tuple[str, dict[str, str]]:
    msg = EmailMessage()
    msg["Subject"] = "Re: boiler"
    msg["From"] = "Kim Osei <kim@example.org>"
    msg.set_content(body)
    doc = load_eml(Path("re.eml"), bytes(msg))
    return doc.text, {s.section: doc.text[s.start : s.end] for s in doc.segments}


def test_quoted_messages_are_blocks_under_their_attribution_without_markers() -> None:
    text, sections = _load(BODY)
    assert not re.search(r"^\s*>", text, re.MULTILINE)  # no quote marker left in the text
    lena = sections["Lena Park wrote (Tue, 3 Mar 2026)"]
    assert lena.startswith("On Tue, 3 Mar 2026 at 14:05, Lena Park <lena@example.org> wrote:")
    sentences = [lena[a:b] for a, b in sentence_spans(lena)]
    assert "I read the gauge today: the boiler is at 1.4 bar." in sentences
    # wrapped prose reads as prose
    assert any(s.startswith("That is lower than\nlast month.") for s in sentences)
    kim = sections["Kim Osei wrote (Mon, 2 Mar 2026)"]
    assert "Could you read the boiler gauge tomorrow?" in kim and kim.endswith("Kim")
    own = sections[""]
    assert own.endswith("between 09:00 and 11:00.") and "Lena" not in own


def test_signature_after_a_sign_off_and_delimiter_is_a_block() -> None:
    _, sections = _load(BODY)
    sig = sections["Signature"]
    assert sig.startswith("Regards,\nKim\n\nKim Osei") and sig.endswith("Tel: 0161 555 0199")
    assert "--" not in sig


def test_body_without_quotes_or_signature_is_one_part() -> None:
    body = "Dear all,\n\nThe lift is out of order until Friday.\nUse the stairs, please."
    assert [p.kind for p in reply_parts(body)] == ["own"]


def test_a_quote_without_attribution_is_still_unmarked() -> None:
    parts = reply_parts("Agreed.\n\n> The fire drill is on 4 June.\n> Meet at the car park.")
    assert parts[1].kind == "quote" and parts[1].section == "Quoted message"
    assert parts[1].text == "The fire drill is on 4 June.\nMeet at the car park."


@pytest.mark.parametrize(
    ("line", "section"),
    [
        (
            "On Mon, 30 Nov 2026 at 09:12, Tomasz Nowak <t@x.org> wrote:",
            "Tomasz Nowak wrote (Mon, 30 Nov 2026)",
        ),
        ("On 30/11/2026 09:12, Ana Ruiz wrote:", "Ana Ruiz wrote (30/11/2026)"),
        ("On Nov 30, 2026, at 9:12 AM, Bo Li <bo@x.org> wrote:", "Bo Li wrote (Nov 30, 2026)"),
        ("Ana Ruiz <ana@x.org> wrote:", "Ana Ruiz wrote"),
    ],
)
def test_attribution_names_writer_and_date(line: str, section: str) -> None:
    assert attribution_section(line) == section


def test_attribution_wrapped_over_two_lines() -> None:
    body = "Yes.\n\nOn Tue, 3 Mar 2026 at 14:05, Lena Park\n<lena@example.org> wrote:\n> Ok."
    parts = reply_parts(body)
    assert parts[-1].section == "Lena Park wrote (Tue, 3 Mar 2026)"
    assert parts[-1].text.endswith("wrote:\nOk.")


def test_message_below_an_outlook_header_block_is_a_quote() -> None:
    body = (
        "Approved, go ahead.\n\nSam\n\n-----Original Message-----\n"
        "From: Ruth Hale <ruth@example.org>\nSent: 02 March 2026 16:10\nTo: Sam\n"
        "Subject: Fridge\n\nCan we buy a second fridge for room 4? The quote is 410 pounds."
    )
    parts = reply_parts(body)
    assert parts[0].kind == "own" and parts[0].text.startswith("Approved")
    quote = parts[-1]
    assert quote.section == "Ruth Hale wrote (02 March 2026)"
    assert quote.text.startswith("From: Ruth Hale <ruth@example.org>\nSent:")
    assert quote.text.endswith("The quote is 410 pounds.")
    assert "Original Message" not in quote.text


def test_each_line_of_a_signature_is_a_sentence() -> None:
    sig = (
        "Kim Osei\nSenior Facilities Officer | Estates and Campus Services\n"
        "Department of Chemistry, University of Eastmoor\nTel: 0161 555 0199"
    )
    spans = row_sentence_spans(sig, {"file_type": "eml", "section": "Signature"})
    assert [sig[a:b] for a, b in spans] == sig.split("\n")
    # the same lines outside a signature read as wrapped prose
    assert len(row_sentence_spans(sig, {"file_type": "eml", "section": ""})) < 4
