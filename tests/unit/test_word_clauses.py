"""Numbered clause headings written as plain Word paragraphs (no heading styles)."""

from __future__ import annotations

from pathlib import Path

import docx

from loaders.chunking import ChunkSettings, chunk_document
from loaders.registry import load_file


def _guide(path: Path) -> Path:
    d = docx.Document()
    d.add_paragraph("Our Guide for Members")
    d.add_paragraph("This guide explains how membership of the sailing club works for everyone.")
    for number, heading, clauses in [
        (
            "1.",
            "JOINING THE CLUB",
            [
                (
                    "1.1",
                    "Joining fee. A joining fee of £85 is payable with your first subscription.",
                ),
                (
                    "1.2",
                    "Induction. Every new member attends a safety induction before sailing alone.",
                ),
            ],
        ),
        (
            "2.",
            "LEAVING THE CLUB",
            [
                (
                    "2.1",
                    "Resignation. You may resign at any time by writing to the secretary.",
                ),
                (
                    "2.2",
                    "Dinghies left on the club racks after resignation are removed after 60 days.",
                ),
                (
                    "2.3",
                    "Lockers. Lockers must be emptied by the last day of your membership year.",
                ),
            ],
        ),
    ]:
        d.add_paragraph().add_run(f"{number} {heading}").bold = True
        for n, text in clauses:
            d.add_paragraph(f"{n} {text}")
    d.add_paragraph("Before your first sail:")
    d.add_paragraph("1. Pay the joining fee within 7 days.")
    d.add_paragraph("2. Book your safety induction online.")
    d.add_paragraph("Bring these documents:")
    for item in ("1. Passport", "2. Proof of address", "3. Sailing certificate"):
        d.add_paragraph(item)
    d.add_paragraph("All of them are checked at the office on your first visit to the club.")
    d.save(path)
    return path


def test_numbered_clause_headings_are_sections_never_content(tmp_path: Path) -> None:
    doc = load_file(_guide(tmp_path / "guide.docx"))
    sections = {doc.text[s.start : s.end].split(".")[0]: s.section for s in doc.segments}
    assert sections["Lockers must be emptied by the last day of your membership year"] == (
        "2. LEAVING THE CLUB > 2.3 Lockers"
    )
    assert sections["A joining fee of £85 is payable with your first subscription"] == (
        "1. JOINING THE CLUB > 1.1 Joining fee"
    )
    # a numbered clause without a heading of its own closes the one above it
    assert sections["2"] == "2. LEAVING THE CLUB > 2.2"
    assert doc.title == "guide"  # a clause heading is not the document's title
    kinds = {doc.text[b.start : b.end]: b.kind for b in doc.blocks}
    assert kinds["2.3 Lockers."] == "heading"
    assert kinds["1. JOINING THE CLUB"] == "heading"
    assert kinds["Lockers must be emptied by the last day of your membership year."] == "paragraph"
    chunks = chunk_document(doc, ChunkSettings(), {"doc_id": "g", "title": doc.title})
    lockers = next(c for c in chunks if "Lockers must be emptied" in c.content)
    assert "2.3 Lockers." not in lockers.content
    assert not any(c.content.strip() in ("2.3 Lockers.", "1. JOINING THE CLUB") for c in chunks)


def test_numbered_sentences_and_short_numbered_items_stay_list_items(tmp_path: Path) -> None:
    doc = load_file(_guide(tmp_path / "guide.docx"))
    kinds = {doc.text[b.start : b.end]: b.kind for b in doc.blocks}
    for item in (
        "1. Pay the joining fee within 7 days.",
        "2. Book your safety induction online.",
        "1. Passport",
        "2. Proof of address",
        "3. Sailing certificate",
    ):
        assert kinds[item] == "list_item", item
    assert not any(w in s.section for s in doc.segments for w in ("Passport", "Pay the", "Book"))


def test_a_numbered_list_after_run_in_clauses_opens_no_section(tmp_path: Path) -> None:
    d = docx.Document()
    d.add_paragraph("1. Deposit. The deposit is five weeks' rent and is protected by the DPS.")
    d.add_paragraph("2. Rent. Rent is paid monthly in advance by standing order to our account.")
    d.add_paragraph("To move in:")
    d.add_paragraph("1. Pay the deposit within 7 days of the offer being accepted by us.")
    d.add_paragraph("2. Sign the agreement online.")
    d.save(tmp_path / "short.docx")
    doc = load_file(tmp_path / "short.docx")
    assert [s.section for s in doc.segments] == ["1. Deposit", "2. Rent"]
