"""Unit tests for loaders.metadata: titles, file-name and cover-page inference (synthetic text)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from loaders.metadata import (
    DocumentMetadata,
    fiscal_quarter_label,
    fiscal_year_label,
    infer_metadata,
    is_meaningful_title,
    normalize_doc_type,
    readable_file_name,
    stated_dates,
    stated_days,
    strip_company_suffixes,
)

ACME_10K_2021 = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K
(Mark One)
☒ ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the fiscal year ended January 2, 2022
OR
☐ TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
Commission File Number 001-12345
ACME WIDGETS HOLDINGS, INC.
(Exact name of registrant as specified in its charter)
Delaware 12-3456789
Title of each class Trading Symbol(s) Name of each exchange on which registered
Common Stock, par value $0.01 per share ACMW New York Stock Exchange
"""

ZEPHYR_10Q_2023 = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-Q
QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the quarterly period ended June 30, 2023
Commission file number 1-9999
Zephyr Air plc
(Exact name of registrant as specified in its charter)
"""

ZEPHYR_FISCAL_Q = ZEPHYR_10Q_2023.replace(
    "June 30, 2023", "July 29, 2023 (the second quarter of fiscal 2024)"
)

BROKEN_LINES = """FORM
10-K
SECURITIES AND EXCHANGE COMMISSION
For
the
fiscal
year
ended
December
31,
2018
Commission File No. 001-10362
ZEPHYR
A
IRWAYS
 (Exact name of Registrant as specified in its charter)
"""

PRESS_RELEASE = """FOR IMMEDIATE RELEASE
Zephyr Air Reports Second-Quarter 2023 Results
LONDON (July 20, 2023) – Zephyr Air plc (NYSE: ZPHR) today announced results for
second-quarter 2023."""


@pytest.mark.parametrize(
    "title",
    [
        "0001018724-18-000005",
        "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
        "d41d8cd98f00b204e9800998ecf8427e",
        "Microsoft Word - draft3.docx",
        "untitled",
        "Document",
        "report_final.pdf",
        "UNITED STATES SECURITIES AND EXCHANGE COMMISSION",
        "ab",
        "x" * 250,
        "12345 678",
        "",
        None,
    ],
)
def test_meaningless_titles_are_rejected(title: str | None) -> None:
    assert not is_meaningful_title(title)


@pytest.mark.parametrize(
    "title",
    [
        "Annual Report 2021",
        "Form 10-K for Acme Corp filed 02/09/2023",
        "ADBE 10K FY15",
        "CORP Q1 2021",
    ],
)
def test_meaningful_titles_are_kept(title: str) -> None:
    assert is_meaningful_title(title)


def test_readable_file_name() -> None:
    assert readable_file_name("3M_2018_10K.pdf") == "3M 2018 10K"
    assert readable_file_name("annual_report_2025.pdf") == "Annual report 2025"
    assert readable_file_name("/x/y/AMCOR_2022_8K_dated-2022-07-01.pdf") == (
        "AMCOR 2022 8K dated 2022-07-01"
    )
    assert readable_file_name("acme-10-K.pdf") == "Acme 10-K"


def test_period_labels_follow_period_end() -> None:
    assert fiscal_year_label(date(2018, 12, 31)) == "FY2018"
    assert fiscal_year_label(date(2017, 1, 28)) == "FY2017"  # retail year ending late January
    assert fiscal_year_label(date(2023, 1, 1)) == "FY2022"  # 52/53-week year spilling over
    assert fiscal_quarter_label(date(2023, 6, 30)) == "2023Q2"
    assert fiscal_quarter_label(date(2022, 10, 2)) == "2022Q3"
    assert fiscal_quarter_label(date(2022, 12, 31)) == "2022Q4"


def test_suffixes_and_doc_types() -> None:
    assert strip_company_suffixes("The Boeing Company") == "Boeing"
    assert strip_company_suffixes("Acme Widgets Holdings, Inc.") == "Acme Widgets"
    assert strip_company_suffixes("Johnson & Johnson") == "Johnson & Johnson"
    assert normalize_doc_type("10K") == "10-K"
    assert normalize_doc_type("EARNINGS") == "earnings"
    assert normalize_doc_type("widgets") is None


def test_cover_page_of_a_10k_without_a_useful_file_name() -> None:
    meta = infer_metadata("0001234567-22-000001.pdf", "0001234567-22-000001", ACME_10K_2021)
    assert meta.company == "Acme Widgets"
    assert meta.period == "FY2021"  # ended January 2, 2022: a 52/53-week FY2021
    assert meta.doc_type == "10-K"
    assert meta.period_end == "2022-01-02"
    assert "ACMW" in meta.company_aliases
    assert "Acme Widgets Holdings, Inc." in meta.company_aliases
    assert meta.attributes_source["company"] == "cover_page"
    assert meta.title_source == "inferred"
    assert "0001234567" not in meta.title and "Acme Widgets" in meta.title


def test_cover_page_of_a_10q_uses_the_calendar_quarter() -> None:
    meta = infer_metadata("scan.pdf", None, ZEPHYR_10Q_2023)
    assert (meta.company, meta.period, meta.doc_type) == ("Zephyr Air", "2023Q2", "10-Q")
    assert meta.years == (2023,)


def test_cover_page_naming_the_fiscal_quarter_wins() -> None:
    meta = infer_metadata("scan.pdf", None, ZEPHYR_FISCAL_Q)
    assert meta.period == "2024Q2"


def test_file_name_wins_and_spells_company_from_cover() -> None:
    meta = infer_metadata("ACMEWIDGETS_2021_10K.pdf", None, ACME_10K_2021)
    assert meta.company == "Acme Widgets"  # the cover's words for the file-name token
    assert meta.attributes_source["period"] == "file_name"
    other = infer_metadata("ZEPHYR_2024Q2_10Q.pdf", None, ZEPHYR_10Q_2023)
    assert other.period == "2024Q2"  # the owner's fiscal label beats the calendar quarter


def test_renamed_registrant_becomes_alias() -> None:
    meta = infer_metadata("BOREAS_2023_10Q.pdf", None, ZEPHYR_10Q_2023)
    assert meta.company == "Boreas"
    assert "Zephyr Air" in meta.company_aliases


def test_file_name_patterns() -> None:
    eight_k = infer_metadata("ACME_2022_8K_dated-2022-05-04.pdf", None, "")
    assert (eight_k.company, eight_k.period, eight_k.doc_type) == ("Acme", "2022-05-04", "8-K")
    earn = infer_metadata("ACME_2019_EARNINGS.pdf", None, "")
    assert (earn.doc_type, earn.period, earn.years) == ("earnings", None, (2019,))
    multi = infer_metadata("JOHN_SMITH_2023Q2_10Q.pdf", None, "")
    assert (multi.company, multi.period) == ("John Smith", "2023Q2")
    generic = infer_metadata("annual_report_2025.pdf", None, "")
    assert (generic.company, generic.period, generic.doc_type) == (None, "FY2025", "annual report")
    assert generic.title == "Annual report 2025"
    notes = infer_metadata("meeting_notes_2019.pdf", None, "")
    assert notes.company is None and notes.period is None


def test_broken_extraction_is_repaired() -> None:
    meta = infer_metadata("x.pdf", None, BROKEN_LINES)
    assert meta.company == "Zephyr Airways"
    assert meta.period == "FY2018"


def test_press_release() -> None:
    meta = infer_metadata("release.pdf", None, PRESS_RELEASE)
    assert meta.doc_type == "earnings"
    assert meta.period == "2023Q2"
    assert meta.company == "Zephyr Air"
    assert "ZPHR" in meta.company_aliases


def test_user_values_always_win() -> None:
    meta = infer_metadata(
        "ACMEWIDGETS_2021_10K.pdf",
        "Widget report",
        ACME_10K_2021,
        user={"company": "Acme", "period": "FY2020", "title": "Mine", "doc_type": None},
    )
    assert (meta.company, meta.period, meta.title, meta.doc_type) == (
        "Acme",
        "FY2020",
        "Mine",
        None,
    )
    assert meta.attributes_source["company"] == "user"
    assert meta.title_source == "user"


def test_title_priority_and_to_metadata() -> None:
    meta = infer_metadata("a_b.pdf", "Widget Strategy 2024", "", first_heading="Intro")
    assert (meta.title, meta.title_source) == ("Widget Strategy 2024", "pdf_title")
    heading = infer_metadata("a1.pdf", "untitled", "", first_heading="Widget Strategy")
    assert heading.title_source == "first_heading"
    flat = infer_metadata("ACME_2021_10K.pdf", None, "").to_metadata()
    assert flat["company"] == "Acme" and flat["period"] == "FY2021" and flat["years"] == [2021]
    assert set(flat) >= {"title", "company", "period", "doc_type", "years"}
    assert isinstance(DocumentMetadata(title="t", title_source="file_name").to_metadata(), dict)


@pytest.mark.integration
def test_shared_financebench_filings(shared_data: Path) -> None:
    """Every shared filing's company/period/type agrees with its FinanceBench file name."""
    pypdf = pytest.importorskip("pypdf")
    folder = shared_data / "financebench" / "pdfs"
    if not folder.is_dir():
        pytest.skip("financebench PDFs not present")
    expected = {
        "AMCOR_2023_10K": ("Amcor", "FY2023", "10-K"),
        "BESTBUY_2024Q2_10Q": ("Best Buy", "2024Q2", "10-Q"),
        "ULTABEAUTY_2023Q4_EARNINGS": ("Ulta Beauty", "2023Q4", "earnings"),
        "ADOBE_2022_10K": ("Adobe", "FY2022", "10-K"),
    }
    for stem, want in expected.items():
        reader = pypdf.PdfReader(str(folder / f"{stem}.pdf"))
        if reader.is_encrypted:
            reader.decrypt("")
        text = "\n".join(p.extract_text() or "" for p in reader.pages[:2])
        title = (reader.metadata or {}).get("/Title")
        meta = infer_metadata(f"{stem}.pdf", str(title) if title else None, text)
        assert (meta.company, meta.period, meta.doc_type) == want, stem
        assert is_meaningful_title(meta.title)


def test_a_user_company_does_not_inherit_the_inferred_names_as_aliases():
    from loaders.metadata import infer_metadata

    cover = (
        "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\n"
        "For the fiscal year ended December 31, 2021\nInitech Corporation\n"
        "(Exact name of registrant as specified in its charter)\n"
    )
    meta = infer_metadata(
        "INITECH_2021_10K.pdf",
        None,
        cover,
        user={"company": "Umbrella", "company_aliases": ["UMB"]},
    )
    assert meta.company == "Umbrella"
    assert meta.company_aliases == ("UMB",)
    assert "Initech" not in " ".join(meta.company_aliases)


NOV_3 = date(2025, 11, 3)
MAR_11 = date(2025, 3, 11)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("reopened on 3 November 2025.", {NOV_3}),
        ("reopened 3rd Nov 2025", {NOV_3}),
        ("reopened November 3, 2025", {NOV_3}),
        ("reopened 2025-11-03", {NOV_3}),
        ("reopened 2025/11/03", {NOV_3}),
        ("reopened 03/11/2025", {NOV_3, MAR_11}),  # day or month first: both readings
        ("reopened 3-11-2025", {NOV_3, MAR_11}),
        ("reopened 03.11.25", {NOV_3, MAR_11}),  # two-digit year
        ("reopened 11/13/2025", {date(2025, 11, 13)}),  # only month first is a date
        ("on 31/04/2025", set()),  # no such day either way
        ("call 020-7946-0018", set()),  # a phone number
        ("section 1.3.11.2025", set()),  # part of a longer run of figures
        ("the 2025/26 budget", set()),  # a split year is no date
    ],
)
def test_stated_dates_reads_words_and_figures(text, expected):
    assert stated_dates(text) == expected


def test_stated_days_reads_a_day_without_its_year():
    assert stated_days("reopened on 3 November, and on Nov 4th") == {(11, 3), (11, 4)}
    assert stated_days("In May 2025 the market reopened") == set()  # a month and year only
    assert stated_days("on 03/11/2025") == {(11, 3), (3, 11)}
    assert stated_days("by 31 April") == set()
