"""A document's title read from its first lines, when its file name agrees
(:func:`loaders.metadata.opening_title`), and the loaders that use it (PDF, text, sheets)."""

from __future__ import annotations

from pathlib import Path

import pytest

from chains import non_answers as na
from loaders.metadata import file_title, names_only_the_file, opening_title
from loaders.registry import load_file
from tests.support.scans import text_pdf


@pytest.mark.parametrize(
    ("opening", "file_name", "title"),
    [
        (
            "Pemberton Oakes LLP - Anti-Money Laundering and Client Identification Policy\n"
            "Version 3.2, approved by the partners on 12 January 2026. Next review: 2027.",
            "aml_client_identification_policy.pdf",
            "Pemberton Oakes LLP - Anti-Money Laundering and Client Identification Policy",
        ),
        (  # figures in a title line are kept; the first sentence of the body is not a title
            "Ridgeway Wheelers - Treasurer's Report, year to 30 September 2026\n"
            "Income for the year was GBP 8,940, of which membership fees brought in GBP 6,310.",
            "treasurers_report_2026.pdf",
            "Ridgeway Wheelers - Treasurer's Report, year to 30 September 2026",
        ),
        (  # a short sentence-case title over a table's header
            "Delivery schedule, winter 2026/27\nRegion Delivery day Order cut-off Carrier",
            "delivery_schedule.pdf",
            "Delivery schedule, winter 2026/27",
        ),
        (  # a title may carry a colon
            "Health and Safety Committee: notes of 6 October 2026\n"
            "Attendees: Keith Brennan, Lena Kowalski, Sam Okafor",
            "safety_committee_notes.pdf",
            "Health and Safety Committee: notes of 6 October 2026",
        ),
    ],
)
def test_the_first_lines_are_the_title_when_the_file_name_agrees(
    opening: str, file_name: str, title: str
) -> None:
    assert opening_title(opening, file_name) == title


@pytest.mark.parametrize(
    ("opening", "file_name"),
    [
        # a letterhead the file name does not name: the file name stays the title
        ("Quayside Properties Ltd\n8 Anchor Road, Bristol BS1 5TT", "lease_renewal_letter.pdf"),
        # a filing's cover and a table of contents say nothing of the file
        ("UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nWashington", "ADOBE_2022_10K.pdf"),
        ("Table of Contents\nUNITED STATES", "NIKE_2018_10K.pdf"),
        # prose, a list item, a wrapped line
        ("Income for the year was GBP 8,940.\nSpending was lower.", "income_for_the_year.pdf"),
        ("1. Leafline brewers are guaranteed\nagainst defects.", "leafline_brewers.pdf"),
        ("The board of Leafline Brewers met on the\nfirst Monday.", "leafline_brewers.pdf"),
        ("", "leafline_warranty.pdf"),
    ],
)
def test_no_title_is_read_where_the_lines_or_the_file_name_disagree(
    opening: str, file_name: str
) -> None:
    assert opening_title(opening, file_name) is None


def test_a_masthead_over_the_title_joins_it_only_when_two_lines_are_read() -> None:
    opening = (
        "Cornmarket Dental Practice\nCancellation, Missed Appointment and Complaints Policy\n"
        "Version 4. Approved by Dr H. Marsh, January 2026."
    )
    name = "cancellation_and_complaints_policy.pdf"
    assert opening_title(opening, name) is None  # the masthead alone: the file name disagrees
    assert opening_title(opening, name, max_lines=2) == (
        "Cornmarket Dental Practice — Cancellation, Missed Appointment and Complaints Policy"
    )
    notes = "Safety Committee Notes\nAttendees: Keith Brennan, Lena Kowalski\nFire drill"
    # a "label: value" field under the title does not join it
    assert opening_title(notes, "safety_committee_notes.pdf", max_lines=2) == (
        "Safety Committee Notes"
    )


def test_a_title_that_is_only_the_file_name_is_no_title() -> None:
    assert names_only_the_file("leafline_warranty", "leafline_warranty.pdf")
    assert names_only_the_file("Leafline Warranty", "scans/leafline_warranty.pdf")
    assert not names_only_the_file("Leafline Brewer Warranty Terms", "leafline_warranty.pdf")
    assert not names_only_the_file("", "leafline_warranty.pdf")


def test_a_pdf_without_a_title_is_titled_by_its_first_lines(tmp_path: Path) -> None:
    pdf = text_pdf(
        tmp_path / "leafline_warranty.pdf",
        [["Leafline Brewer Warranty Terms", "", "1. Brewers are guaranteed for two years."]],
    )
    doc = load_file(pdf)
    assert (doc.title, doc.title_source) == ("Leafline Brewer Warranty Terms", "first_heading")
    assert doc.first_heading == "Leafline Brewer Warranty Terms"


@pytest.mark.parametrize("pdf_title", ["leafline_warranty", "0001018724-20-000004"])
def test_a_pdf_title_that_is_the_file_name_or_meaningless_gives_way(
    tmp_path: Path, pdf_title: str
) -> None:
    from pypdf import PdfWriter

    pdf = text_pdf(tmp_path / "leafline_warranty.pdf", [["Leafline Brewer Warranty Terms"]])
    writer = PdfWriter(clone_from=pdf)
    writer.add_metadata({"/Title": pdf_title})  # a scanner's, an EDGAR accession number
    writer.write(pdf)
    assert load_file(pdf).title == "Leafline Brewer Warranty Terms"
    writer.add_metadata({"/Title": "Warranty (2026 edition)"})  # a title of its own wins
    writer.write(pdf)
    assert (load_file(pdf).title, load_file(pdf).title_source) == (
        "Warranty (2026 edition)",
        "pdf_title",
    )


def test_a_pdf_whose_first_lines_the_file_name_does_not_name_keeps_the_file_name(
    tmp_path: Path,
) -> None:
    letter = [["Quayside Properties Ltd", "Dear Sir,"]]
    doc = load_file(text_pdf(tmp_path / "lease_renewal_letter.pdf", letter))
    assert (doc.title, doc.title_source) == ("lease renewal letter", "file_name")


def test_text_and_sheet_titles_read_like_the_pdf_ones(tmp_path: Path) -> None:
    txt = tmp_path / "ride_leaders_notes.txt"
    txt.write_text("Ride Leaders' Notes\n\nCount the group at every stop.\n", encoding="utf-8")
    assert load_file(txt).title == "Ride Leaders' Notes"
    csv = tmp_path / "fees_and_deadlines_2026.csv"
    csv.write_text("Service,Fee\nTax return,£250\n", encoding="utf-8")
    # the file name's words, not one token "fees_and_deadlines_2026" for the keyword index
    assert load_file(csv).title == "fees and deadlines 2026"


def test_a_title_line_glued_onto_the_first_sentence_is_cut_from_the_quote() -> None:
    content = (
        "Ridgeway Wheelers - Treasurer's Report, year to 30 September 2026\n"
        "Income for the year was GBP 8,940."
    )
    meta = {"title": "Ridgeway Wheelers - Treasurer's Report, year to 30 September 2026"}
    assert content[na.leading_heading(content, 0, len(content), meta) :] == (
        "Income for the year was GBP 8,940."
    )
    assert na.leading_heading(content, 0, len(content)) == 0  # figures: no heading alone


@pytest.mark.parametrize(
    ("name", "title"),
    [
        ("fees_and_deadlines_2026.xlsx", "fees and deadlines 2026"),
        ("scans/leafline_warranty.pdf", "leafline warranty"),
        ("AMCOR_2022_8K_dated-2022-07-01.pdf", "AMCOR 2022 8K dated-2022-07-01"),
        ("notes", "notes"),
    ],
)
def test_a_file_name_title_reads_underscores_as_spaces(name: str, title: str) -> None:
    assert file_title(name) == title


def test_every_loader_falls_back_to_the_same_file_name_title(tmp_path: Path) -> None:
    page = tmp_path / "opening_hours_2026.html"
    page.write_text("<html><body><p>We open at nine.</p></body></html>", encoding="utf-8")
    assert load_file(page).title == "opening hours 2026"
