"""Section headings in text without markup (:mod:`loaders.headings`): which lines read as
headings, the section paths they give, and the PDF and text loaders that cut at them."""

from __future__ import annotations

from pathlib import Path

import pytest

from loaders.base import Segment
from loaders.blocks import detect_blocks
from loaders.chunking import ChunkSettings, chunk_document
from loaders.headings import heading_lines, heading_style, is_prose, split_at_headings
from loaders.registry import add_structure, load_file
from tests.support.scans import text_pdf

PROSE = "This policy explains what the practice asks of patients when they cancel."

POLICY = """Cornmarket Dental Practice - Cancellation Policy
Version 4. Approved by Dr H. Marsh, January 2026.
1. Purpose
This policy explains what the Practice asks of patients when an appointment cannot be
kept, and how the Practice handles complaints.
2. Cancelling an appointment
2.1 Patients are asked to give at least 24 hours' notice of any cancellation.
2.2 Appointments on a Monday must be cancelled by 4.00pm on the preceding Friday.
Common questions
Patients often ask whether a reminder text counts as notice, and it does not.
"""


@pytest.mark.parametrize(
    ("line", "style"),
    [
        ("1. Purpose", "num1"),
        ("4.2 Late fees", "num2"),
        ("PART A - PARK RULES (ALL GUESTS, VISITORS AND OWNERS)", "part"),
        ("Item 7. Management's Discussion and Analysis", "part"),
        ("3. WHEN CHECKS ARE NEEDED", "num1"),
        ("FIRST AID", "caps"),
        ("Stock Repurchase Program", "title"),
        ("Why it matters", "plain"),
    ],
)
def test_heading_lines_read_as_headings(line: str, style: str) -> None:
    assert heading_style(line, PROSE) == style


@pytest.mark.parametrize(
    "line",
    [
        "2.1 Patients are asked to give at least 24 hours' notice.",  # a numbered sentence
        "Total revenue 8,214 7,961 7,402",  # a statement row
        "Fair Value at",  # a wrapped column header
        "Length of appointment booked          Fee",  # aligned columns
        "| Region | Units |",  # a pipe table
        "12 January 2026",  # a date
        "3.5 litres",  # a quantity
        "- Bring a photo ID",  # a bullet
        "Can I get a refund?",  # a question (its own block type)
        "Next review: January 2027",  # a label and its value
        "Figure 3 Turnover by year",  # a caption
        "on Internal Control Over Financial Reporting",  # a wrapped heading's second line
        "The tenancy starts on the first day of",  # runs on into the next line
    ],
)
def test_lines_that_are_not_headings(line: str) -> None:
    assert heading_style(line, PROSE) is None


def test_an_unnumbered_heading_must_head_prose() -> None:
    # a column header over figures is not a section heading; over prose, or over another
    # heading, it is
    assert heading_style("Grant Date", "1,204 1,109 998") is None
    assert heading_style("Grant Date", PROSE) == "title"
    assert heading_style("PRINCIPAL PRODUCTS", "Digital Media", following_heads=True) == "caps"
    assert heading_style("1. Purpose", "") is None  # nothing under it
    assert heading_style("People", "at the end of 2025 we employed 9 staff.") is None


def test_prose_is_words_not_figures() -> None:
    assert is_prose("At the end of 2025 the co-operative employed 9 staff, of whom 4 work")
    assert not is_prose("Net sales $ 8,214 $ 7,961 $ 7,402 increase 3 %")
    assert not is_prose("Version 4")


def test_a_wrapped_paragraph_line_is_never_a_heading() -> None:
    text = (
        "The firm meets the Money Laundering Regulations 2017 and the\n"
        "Proceeds of Crime Act\n"
        "Every partner, employee and contractor must complete the training each year.\n"
    )
    assert heading_lines(text, 0, len(text)) == []


def test_sections_nest_by_numbering_and_the_title_line_is_not_a_section() -> None:
    title = "Cornmarket Dental Practice - Cancellation Policy"
    segments, headings = split_at_headings(POLICY, [Segment(0, len(POLICY))], title=title)
    assert [h.text for h in headings] == [
        "1. Purpose",
        "2. Cancelling an appointment",
        "Common questions",
    ]
    assert [s.section for s in segments] == [
        "",
        "1. Purpose",
        "2. Cancelling an appointment",
        "Common questions",  # a sibling of the numbered sections, not their child
    ]
    # offsets still index the text; a heading is in no segment
    for seg in segments:
        assert not POLICY[seg.start].isspace()
        assert not any(seg.start < h.end and h.start < seg.end for h in headings)
    assert POLICY[segments[2].start :].startswith("2.1 Patients are asked")
    covered = "".join(POLICY[s.start : s.end] for s in segments) + "".join(h.text for h in headings)
    assert sorted(covered.replace("\n", "").replace(" ", "")) == sorted(
        POLICY.replace("\n", "").replace(" ", "")
    )


def test_subsections_nest_and_a_section_runs_on_across_pages() -> None:
    page1 = "These rules are part of every booking and every owner's licence.\n"
    page1 += "PART A - PARK RULES\n1. Vehicles\nThe speed limit is five miles an hour everywhere."
    page2 = "Visitors must sign in at reception and leave the park by ten at night.\n"
    page2 += "1.1 Parking\nEach pitch has room for one car and one trailer beside the unit."
    text = page1 + "\n\n" + page2
    segs = [Segment(0, len(page1), page=1), Segment(len(page1) + 2, len(text), page=2)]
    segments, _ = split_at_headings(text, segs)
    assert [(s.page, s.section) for s in segments] == [
        (1, ""),
        (1, "PART A - PARK RULES > 1. Vehicles"),
        (2, "PART A - PARK RULES > 1. Vehicles"),
        (2, "PART A - PARK RULES > 1. Vehicles > 1.1 Parking"),
    ]


def test_a_heading_at_the_foot_of_a_page_heads_the_next_pages_text() -> None:
    """A numbered heading set last on a page (the foot of a column), its text starting on
    the next page: before, a segment's last line was never a heading (nothing under it),
    so the next page's text was filed under the section before it."""
    page1 = "7. Emergencies\nIn an emergency call Security on 2222 from any internal phone.\n"
    page1 += "8. Lone working"
    page2 = "Anyone working alone must check in with the app at the start and the end."
    text = page1 + "\n\n" + page2
    segs = [Segment(0, len(page1), page=1), Segment(len(page1) + 2, len(text), page=2)]
    segments, headings = split_at_headings(text, segs)
    assert [h.text for h in headings] == ["7. Emergencies", "8. Lone working"]
    assert [(s.page, s.section) for s in segments] == [
        (1, "7. Emergencies"),
        (2, "8. Lone working"),
    ]


def test_a_pages_last_line_running_on_is_no_heading() -> None:
    """The last line of a page continuing its sentence on the next page is no heading."""
    page1 = "The speed limit is five miles an hour.\nVisitors must sign in at"
    page2 = "reception and leave the park by ten at night."
    text = page1 + "\n\n" + page2
    segs = [Segment(0, len(page1), page=1), Segment(len(page1) + 2, len(text), page=2)]
    _, headings = split_at_headings(text, segs)
    assert headings == []


def test_a_letterhead_or_a_masthead_is_front_matter_not_a_section() -> None:
    letter = (
        "Quayside Properties Ltd\n8 Anchor Road, Bristol BS1 5TT\n12 October 2026\n"
        "Dear Ms Patel,\nYour current lease ends on 31 March 2027 and we are pleased to offer "
        "a renewal.\n"
    )
    assert split_at_headings(letter, [Segment(0, len(letter), page=1)])[1] == []
    report = (
        "Northfield Community Energy\nAnnual Report 2025\nChair's statement\n"
        "2025 was our best year since the co-operative was founded in 2014, and members voted "
        "to build a battery.\n"
    )
    _, headings = split_at_headings(report, [Segment(0, len(report), page=1)])
    assert [h.text for h in headings] == ["Chair's statement"]  # the one over prose


def test_a_letterhead_over_a_long_address_line_and_an_address_block_are_not_sections() -> None:
    """A council's letterhead over its six-word address line, and the addressee's block
    (a name, a firm, a numbered street) read as sections: the address line counted as prose
    (every word capitalised), so the name over it was a heading and the front matter ended
    there. A line of capitalised words is a name or an address, not a sentence."""
    letter = (
        "PORTHAVEN BOROUGH COUNCIL\n\n"
        "Private Sector Housing Team - Civic Centre, Harbour Road, Porthaven PV1 1CC\n\n"
        "Our ref: PSH/2026/0183\nDate: 3 November 2026\n\n"
        "The Lettings Manager\nHarbour & Vale Lettings\n14 Quay Street\nPorthaven PV3 2LN\n\n"
        "Dear Sir or Madam,\nAdditional licensing scheme - 22 Chapel Row\n\n"
        "I am writing to let you know that the additional licensing scheme for houses\n"
        "in multiple occupation comes into force on 1 February 2027.\n"
    )
    assert split_at_headings(letter, [Segment(0, len(letter), page=1)])[1] == []
    assert not is_prose("Private Sector Housing Team - Civic Centre, Harbour Road, Porthaven")
    assert is_prose("THE SOFTWARE IS PROVIDED AS IS, WITHOUT WARRANTY OF ANY KIND")


def test_a_segment_with_a_section_from_markup_is_left_alone() -> None:
    text = "Overview\nThe unit dries a room of up to forty square metres in a day or so."
    seg = Segment(0, len(text), section="Manual > Overview")
    assert split_at_headings(text, [seg]) == ([seg], [])


def test_a_table_title_and_rows_are_the_tables() -> None:
    text = "Fees for missed appointments\nUp to 30 minutes GBP 30\nOver 60 minutes GBP 90\n"
    rows = [(29, 52), (53, 75)]
    assert heading_lines(text, 0, len(text), skip=rows) == []


def test_a_pdf_heading_is_typed_heading_not_a_running_line() -> None:
    text = "Generation\nWe generated 14.2 GWh of electricity in 2025, more than ever before."
    segments, headings = split_at_headings(text, [Segment(0, len(text), page=1)])
    blocks = detect_blocks(
        text, segments, [], paginated=True, headings=[(h.start, h.end) for h in headings]
    )
    assert [(b.kind, b.page) for b in blocks] == [("heading", 1), ("paragraph", 1)]


def test_pdf_sections_go_into_the_header_never_into_the_quote(tmp_path: Path) -> None:
    pdf = text_pdf(
        tmp_path / "annual_report.pdf",
        [
            [
                "Northfield Community Energy",
                "Annual Report 2025",
                "Generation",
                "The co-operative generated 14.2 GWh of electricity in 2025, up from 12.9 GWh.",
                "People",
                "At the end of 2025 the co-operative employed 9 staff, of whom 4 work part time.",
            ]
        ],
    )
    doc = load_file(pdf)
    add_structure(doc)
    assert {doc.text[a:b] for a, b in doc.headings} >= {"Generation", "People"}
    assert [b.kind for b in doc.blocks if doc.text[b.start : b.end] == "People"] == ["heading"]
    chunks = chunk_document(doc, ChunkSettings(), {"doc_id": "d", "title": "Annual report"})
    people = next(c for c in chunks if "employed 9 staff" in c.content)
    assert people.content.startswith("At the end of 2025")  # the heading is not glued on
    assert people.text.startswith("Annual report > ") and "People" in people.text.split("\n")[0]
    for c in chunks:
        assert doc.text[c.start : c.end] == c.content


def test_a_text_file_is_cut_into_its_sections(tmp_path: Path) -> None:
    path = tmp_path / "staff_handbook.txt"
    path.write_text(
        "HARBOURSIDE DENTAL GROUP\nStaff Handbook, edition 4 (January 2026)\n\n"
        "4. Sickness\nIf you are too ill to work, phone your clinic's manager before 7.30 am.\n"
        "A fit note from a doctor is needed for any absence longer than seven calendar days.\n",
        encoding="utf-8",
    )
    doc = load_file(path)
    assert [s.section for s in doc.segments] == ["", "4. Sickness"]
    add_structure(doc)
    assert "heading" in {b.kind for b in doc.blocks}
