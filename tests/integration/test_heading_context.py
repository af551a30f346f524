"""A short line is answered through its heading, and an e-mail's date is no event's time.

A Markdown guide and an e-mail go through the real ingest into each store (FAISS directory,
PostgreSQL + pgvector) with the real embedding model, and the questions through the compiled
graph:

* "what wifi should visitors use?" is answered by the bullet "Visitors: HF-Guest." under the
  heading "Wi-Fi", which names nothing of the question on its own: the line is scored with its
  heading (:func:`loaders.row_text.with_heading`) and quoted verbatim, without it;
* "what time does the christmas party finish?" is never answered with the invitation's
  ``Date:`` line, which says when the e-mail was sent (:func:`chains.non_answers.message_field`).
"""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest

from citerag.index.ingest import ingest
from graphs.deps import GraphDeps
from graphs.rag import build_graph
from loaders.registry import load_file

pytestmark = pytest.mark.integration

GUIDE = """# IT setup guide

Maintained by the IT helpdesk. Read this before your first morning.

## Your first login

Collect your laptop from reception on your first morning and sign in with the temporary
password on the card in the box. You will be asked to choose a new password straight away.

## Passwords

- At least 14 characters; a passphrase of three or four random words is easiest.
- Never reuse a password from another site.

## Wi-Fi

- Staff: HF-Studio (signs in automatically with your studio account).
- Visitors: HF-Guest.
- The guest password changes every Monday and is written on the reception whiteboard.

## Printing

There is a printer on each floor: print from any laptop and collect with your fob.
"""


def _write(folder: Path) -> None:
    (folder / "it_guide.md").write_text(GUIDE, encoding="utf-8")
    msg = EmailMessage()
    msg["Subject"] = "Christmas party: Thursday 17 December"
    msg["From"] = "Priya Nandakumar <priya@studio.example>"
    msg["To"] = "all@studio.example"
    msg["Date"] = "Mon, 02 Nov 2026 10:30:00 +0000"
    msg.set_content(
        "Hello everyone,\n\nSave the date: this year's Christmas party is on Thursday 17 "
        "December at The Saltloft. Drinks from 18:30 and dinner at 19:30.\n\nPriya\n"
    )
    (folder / "christmas_party.eml").write_bytes(bytes(msg))


def test_a_short_line_answers_through_its_heading_and_a_date_header_never_times_an_event(
    store_location, tmp_path: Path, embedding_model
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    _write(folder)
    report = ingest([folder], store_location, embedding_model, progress=False)
    assert not report.failed and len(report.indexed) == 2
    graph = build_graph(GraphDeps.from_index(store_location, embedding_model=embedding_model))

    wifi = graph.invoke({"question": "what wifi should visitors use?"})
    assert wifi["status"] == "answered", wifi.get("reason")
    cite = next(c for c in wifi["citations"] if "HF-Guest" in c["quote"])
    assert cite["doc_name"] == "it_guide.md" and "Wi-Fi" in (cite.get("section") or "")
    # quoted as written: the heading it was scored with is not part of the quote
    text = load_file(folder / "it_guide.md").text
    assert text[cite["start"] : cite["end"]] == cite["quote"]
    assert not cite["quote"].startswith("Wi-Fi")

    party = graph.invoke({"question": "what time does the christmas party finish?"})
    quotes = [c["quote"] for c in party.get("citations") or []]
    assert not any(q.lstrip().startswith("Date:") for q in quotes), party["answer"]
