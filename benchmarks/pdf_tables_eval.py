"""The PDF table reader on generated tables with known cells: headers, rows and titles scored.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.pdf_tables_eval --work /tmp/pdftables \\
        --reportlab-path /tmp/rl [--filings ../shared/data/financebench/pdfs] [--json OUT]

The PDFs are written at run time with reportlab (not a dependency of the project: install
it into a separate folder, ``.venv/bin/python -m pip install --target /tmp/rl reportlab``,
and pass that folder as ``--reportlab-path``; it is appended to ``sys.path``, after the
venv's packages) in the layouts ordinary tools give a table: ruled grids and whitespace-
aligned tables, a bold header row of words or of years, a label column, numbers (right- or
left-aligned) and words, a days × times timetable, a caption above a table, and a
three-page document with a heading on each page; and styled as report tools style them
(:func:`styled_cases`): a bold header row of banded figures, rules around the header, a
shaded header over banded rows, header cells wrapped onto lines, currency amounts, a
tight grid whose rules alone part the cells, and ruled grids whose cells mix words and
figures (:func:`mixed_grid_cases`); and pages set in two text columns with a table inside
one column (:func:`column_cases`). Each case knows its cells, so each table
the loader (:func:`loaders.registry.load_file`) reads is scored (in total and per style):

* **headers** — each known value column whose reader column name equals its header;
* **rows** — each known row read with its label and every cell bound to its own header
  (``{header: cell}`` equal);
* **title** — the table's title equal to the known title (whitespace collapsed);
* **headings** — the known section headings found among the document's headings.

``--filings DIR`` also loads every PDF in ``DIR`` (the 4 shared FinanceBench filings) and
counts their tables, rows and rows whose every cell has a column name, and writes each
row's description (``--dump FILE``) to compare two versions of the reader line by line.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class TableCase:
    """A table drawn on a page, with its known content.

    Attributes:
        title: The line above it ('' for none).
        headers: The header row, the label column's first.
        rows: The body rows, each with a label then one cell per value column.
        ruled: Draw a grid of lines around every cell.
        bold_header: Draw the header row in bold.
        numbers_right: Right-align the value columns (else left-aligned, as a word
            processor's default).
        intro: A paragraph drawn between the title and the table.
        header_centred: Centre the header row's cells over their columns.
        header_rule: Rule lines above and below the header row and under the last row
            (``LINEABOVE``/``LINEBELOW``, no grid), as a report's table style draws them.
        shaded_header: Fill the header row (``BACKGROUND``, white type) and band the body
            rows (``ROWBACKGROUNDS``).
        header_widths: Column widths in points (``None``: as wide as their widest cell);
            a header set as a ``Paragraph`` in a narrower column wraps onto lines.
        padding: The space left and right of each cell's text inside its column (points;
            reportlab's default is 6): a tight grid leaves its rules to part the cells.
        light_header: Fill the header row light grey and draw the grid in grey (as
            reportlab's own examples style a table), its type left black.
        sign: A currency sign set apart from the figures (``""``: none): drawn left in
            each amount's cell, the figure right-aligned, as accounting layouts set it; the
            figure alone is the cell the reader should give.
        sign_column: Draw the sign in a narrow column of its own before each value column
            (its header spanning both), else as a word in the figure's cell (``$ 8,214``).
        sign_ends: Draw the sign on the first and last body rows only (a statement's
            first amounts and its total), else on every row.
        bold_rows: Body rows (0-based) set in bold with a rule above them (totals).
        subheader_row: Split each header on ``\n`` into two header rows of the table (a
            sub-header row: ``Unaudited`` under ``2025``), not two lines of one cell.
        one_path_grid: Draw the grid as one path (its frame and every inner line in one
            path object) instead of reportlab's separate lines.
        wrapped_cells: Set every cell as a ``Paragraph`` in 7.5 pt type, wrapped by its
            column's width (``header_widths``) onto lines, a word longer than its column
            broken at the edge as reportlab breaks it (no hyphen); the cell is its words
            joined, the broken word whole.
    """

    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    ruled: bool = True
    bold_header: bool = True
    numbers_right: bool = True
    intro: str = ""
    header_centred: bool = False
    header_rule: bool = False
    shaded_header: bool = False
    header_widths: tuple[float, ...] | None = None
    padding: float = 6.0
    light_header: bool = False
    sign: str = ""
    sign_column: bool = True
    sign_ends: bool = False
    bold_rows: tuple[int, ...] = ()
    subheader_row: bool = False
    one_path_grid: bool = False
    wrapped_cells: bool = False


@dataclass(frozen=True)
class Case:
    """One generated PDF: its pages, each a list of (heading, paragraph, table) items.

    Attributes:
        name: File stem.
        pages: Per page, its items: ``("heading", text)``, ``("para", text)`` or a
            :class:`TableCase`.
        style: The style it measures (scores are also reported per style).
        two_columns: Set the pages in two text columns with a running header and footer
            (a manual's layout), the items flowing down the left column, then the right.
    """

    name: str
    pages: tuple[tuple[Any, ...], ...]
    style: str = "plain"
    two_columns: bool = False

    @property
    def tables(self) -> list[TableCase]:
        """The case's tables, in order."""
        return [it for page in self.pages for it in page if isinstance(it, TableCase)]

    @property
    def headings(self) -> list[str]:
        """The case's section headings, in order."""
        return [
            it[1]
            for page in self.pages
            for it in page
            if isinstance(it, tuple) and it[0] == "heading"
        ]


_PROSE = (
    "This page sets out what members pay and when the centre is open. Prices are reviewed "
    "each spring and the committee publishes any change a month before it applies."
)


def cases() -> list[Case]:
    """The measurement set: 55 tables over 53 PDFs (see the module docstring)."""
    prices = TableCase(
        "Leisure centre prices",
        ("Activity", "Adult", "Child", "Concession"),
        (
            ("Swim", "£5.20", "£3.10", "£4.00"),
            ("Gym", "£7.50", "£4.20", "£5.60"),
            ("Sauna", "£6.00", "£3.50", "£4.80"),
            ("Climbing wall", "£9.80", "£6.40", "£7.90"),
        ),
    )
    timetable = TableCase(
        "Weekly class timetable",
        ("Day", "09:00", "12:30", "18:00"),
        (
            ("Monday", "Yoga", "Pilates", "Spin"),
            ("Tuesday", "Aqua fit", "Yoga", "Boxing"),
            ("Wednesday", "Spin", "Zumba", "Pilates"),
            ("Thursday", "Pilates", "Yoga", "Spin"),
            ("Friday", "Zumba", "Aqua fit", "Circuits"),
            ("Saturday", "Boxing", "Spin", "Yoga"),
        ),
        ruled=False,
    )
    income = TableCase(
        "Household income",
        ("Source", "2024", "2025"),
        (
            ("Salary", "42,000", "44,500"),
            ("Rental income", "6,600", "7,200"),
            ("Dividends", "1,250", "1,310"),
            ("Interest", "480", "520"),
            ("Total", "50,330", "53,530"),
        ),
        ruled=False,
    )
    return [
        Case("prices_ruled", ((prices,),)),
        Case("prices_unruled", ((TableCase(**{**asdict(prices), "ruled": False}),),)),
        Case(
            "prices_unruled_left",
            ((TableCase(**{**asdict(prices), "ruled": False, "numbers_right": False}),),),
        ),
        Case(
            "fees_varied_left",
            (
                (
                    TableCase(
                        "Swimming lessons price list",
                        ("Course", "Members", "Non-members"),
                        (
                            ("Swim", "£5", "£12.50"),
                            ("Gym", "£7.50", "£15"),
                            ("Squash", "£110.00", "£9"),
                            ("Tennis", "£8", "£125.00"),
                            ("Badminton", "£14.25", "£6.50"),
                        ),
                        ruled=False,
                        numbers_right=False,
                    ),
                ),
            ),
        ),
        Case(
            "income_three_rows",
            (
                (
                    TableCase(
                        "Income summary",
                        ("Item", "2024", "2025"),
                        (
                            ("Wages", "31,200", "32,400"),
                            ("Bonus", "2,000", "2,500"),
                            ("Total", "33,200", "34,900"),
                        ),
                        ruled=False,
                    ),
                ),
            ),
        ),
        Case("timetable_unruled", ((timetable,),)),
        Case("timetable_ruled", ((TableCase(**{**asdict(timetable), "ruled": True}),),)),
        Case("income_unruled", ((income,),)),
        Case(
            "income_ruled_left",
            ((TableCase(**{**asdict(income), "ruled": True, "numbers_right": False}),),),
        ),
        Case(
            "income_centred_header",
            ((TableCase(**{**asdict(income), "header_centred": True}),),),
        ),
        Case(
            "sales_quarters",
            (
                (
                    TableCase(
                        "Quarterly sales by region (in thousands)",
                        ("Region", "Q1", "Q2", "Q3", "Q4"),
                        (
                            ("North", "1,204", "1,310", "1,288", "1,402"),
                            ("South", "982", "1,015", "1,101", "1,133"),
                            ("East", "744", "760", "802", "851"),
                            ("West", "1,530", "1,488", "1,602", "1,655"),
                        ),
                        ruled=False,
                        bold_header=False,
                        intro="Sales rose in every region over the year, led by the west.",
                    ),
                ),
            ),
        ),
        Case("capitals_words", ((capitals(),),)),
        Case(
            "handbook_pages",
            (
                (
                    ("heading", "Members' Handbook"),
                    ("para", _PROSE),
                    ("heading", "1. Opening hours"),
                    ("para", "The centre opens every day of the week except public holidays."),
                    TableCase(
                        "Opening hours",
                        ("Day", "Opens", "Closes"),
                        (
                            ("Monday", "06:30", "22:00"),
                            ("Saturday", "08:00", "20:00"),
                            ("Sunday", "09:00", "18:00"),
                        ),
                        ruled=False,
                    ),
                ),
                (
                    ("heading", "2. Membership fees"),
                    ("para", "Fees are paid monthly by direct debit and include every class."),
                    TableCase(
                        "Monthly fees",
                        ("Plan", "Fee", "Classes"),
                        (
                            ("Standard", "£32.00", "8"),
                            ("Premium", "£45.00", "16"),
                            ("Family", "£70.00", "24"),
                        ),
                    ),
                ),
                (
                    ("heading", "3. Staff contacts"),
                    ("para", "Ask at reception if the person you need is not listed here."),
                    TableCase(
                        "",
                        ("Name", "Role", "Extension"),
                        (
                            ("Ann Lee", "Manager", "2041"),
                            ("Raj Patel", "Coach", "2046"),
                            ("Mia Chen", "Reception", "2050"),
                        ),
                        ruled=False,
                    ),
                ),
            ),
        ),
        Case(
            "guide_unnumbered",
            (
                (
                    ("heading", "Visitor Guide"),
                    ("para", _PROSE),
                ),
                (
                    ("heading", "Parking Charges"),
                    ("para", "Pay at the machine."),
                    TableCase(
                        "",
                        ("Stay", "Car", "Motorbike"),
                        (
                            ("Up to 2 hours", "£2.50", "£1.00"),
                            ("Up to 4 hours", "£4.00", "£1.50"),
                            ("All day", "£7.00", "£2.50"),
                        ),
                        ruled=False,
                    ),
                ),
                (
                    ("heading", "Lost Property"),
                    ("para", "Ask at reception."),
                    ("para", _PROSE),
                ),
            ),
        ),
        Case(
            "results_percent",
            (
                (
                    TableCase(
                        "Exam results",
                        ("Subject", "Entries", "Pass rate"),
                        (
                            ("Maths", "120", "87%"),
                            ("English", "134", "91%"),
                            ("Biology", "76", "83%"),
                            ("History", "58", "79%"),
                        ),
                        ruled=True,
                        bold_header=False,
                    ),
                ),
            ),
        ),
        *styled_cases(),
    ]


def capitals() -> TableCase:
    """A ruled table of words with a caption above it."""
    return TableCase(
        "Table 3: Capitals and currencies",
        ("Country", "Capital", "Currency"),
        (
            ("France", "Paris", "Euro"),
            ("Japan", "Tokyo", "Yen"),
            ("Kenya", "Nairobi", "Shilling"),
            ("Peru", "Lima", "Sol"),
        ),
    )


def styled_cases() -> list[Case]:
    """Tables styled as report tools style them: a bold header row over rows of the same
    size, rules under the header (no grid), a shaded header row over banded rows, header
    cells wrapped onto two or three lines, amounts with currency marks, and a grid with 2
    points of cell padding, its cells parted only by its rules."""
    grants = TableCase(
        "Community grants 2025",
        ("Applicant", "Amount\nrequested", "Amount\nawarded"),
        (
            ("Allotment society", "£12,500", "£10,000"),
            ("Youth football club", "£4,200", "£4,200"),
            ("Library friends", "£950", "£800"),
            ("Heritage trail", "£18,000", "£9,500"),
        ),
        ruled=False,
    )
    budget = TableCase(
        "Department budgets (USD)",
        ("Department", "Budget", "Spent", "Remaining"),
        (
            ("Parks", "$1,204,000", "$988,310", "$215,690"),
            ("Roads", "$3,450,500", "$3,512,020", "($61,520)"),
            ("Libraries", "$612,000", "$540,775", "$71,225"),
            ("Housing", "$2,030,000", "$1,876,400", "$153,600"),
        ),
        ruled=False,
        header_rule=True,
    )
    bands = TableCase(
        "Swimming prices by age",
        ("Age band", "Under 16", "16 to 64", "65 and over"),
        (
            ("Off-peak", "£2.10", "£4.60", "£3.20"),
            ("Peak", "£2.90", "£5.80", "£3.90"),
            ("Ten-swim card", "£18.00", "£41.00", "£28.00"),
        ),
        ruled=False,
    )
    hire = TableCase(
        "Room hire charges",
        ("Room", "Per hour", "Half day", "Full day"),
        (
            ("Main hall", "€45.00", "€160.00", "€290.00"),
            ("Studio", "€22.50", "€80.00", "€150.00"),
            ("Meeting room", "€15.00", "€55.00", "€100.00"),
            ("Kitchen", "€10.00", "€35.00", "€60.00"),
        ),
        ruled=False,
        shaded_header=True,
    )
    forecast = TableCase(
        "Income and spending",
        ("Line", "2024\nactual", "2025\nbudget", "2026\nforecast"),
        (
            ("Council tax", "51,200", "53,800", "55,900"),
            ("Grants received", "12,450", "11,900", "11,200"),
            ("Staff costs", "38,760", "40,100", "41,950"),
            ("Running costs", "19,300", "20,050", "20,800"),
        ),
        ruled=False,
        header_rule=True,
    )
    members = TableCase(
        "Club membership",
        (
            "Club",
            "Members at start of year",
            "New members joined",
            "Members at end of year",
        ),
        (
            ("Rowing", "142", "38", "161"),
            ("Cycling", "310", "74", "352"),
            ("Chess", "58", "12", "63"),
            ("Badminton", "96", "21", "104"),
        ),
        ruled=False,
        header_widths=(120.0, 70.0, 70.0, 70.0),
    )
    return [
        Case("grants_wrapped_unruled", ((grants,),), "wrapped header"),
        Case(
            "grants_wrapped_grid",
            ((TableCase(**{**asdict(grants), "ruled": True}),),),
            "wrapped header",
        ),
        Case("forecast_wrapped_years_rule", ((forecast,),), "wrapped header"),
        Case("members_wrapped_paragraphs", ((members,),), "wrapped header"),
        Case(
            "members_wrapped_grid",
            ((TableCase(**{**asdict(members), "ruled": True, "shaded_header": True}),),),
            "wrapped header",
        ),
        Case("budget_header_rule", ((budget,),), "header rule"),
        Case(
            "budget_grid",
            ((TableCase(**{**asdict(budget), "ruled": True, "header_rule": False}),),),
            "currency",
        ),
        Case("bands_bold_numeric_header", ((bands,),), "bold header"),
        Case(
            "bands_bold_grid",
            ((TableCase(**{**asdict(bands), "ruled": True}),),),
            "bold header",
        ),
        Case("hire_shaded_header", ((hire,),), "shaded header"),
        Case(
            "hire_shaded_grid",
            ((TableCase(**{**asdict(hire), "ruled": True}),),),
            "shaded header",
        ),
        Case(
            "capitals_tight_grid",
            ((TableCase(**{**asdict(capitals()), "padding": 2.0}),),),
            "tight grid",
        ),
        Case(
            "hire_tight_grid",
            ((TableCase(**{**asdict(hire), "ruled": True, "padding": 2.0}),),),
            "tight grid",
        ),
        Case(
            "hire_currency_left",
            ((TableCase(**{**asdict(hire), "numbers_right": False, "header_rule": True}),),),
            "currency",
        ),
        *mixed_grid_cases(),
        *report_cases(),
        *column_cases(),
    ]


def mixed_grid_cases() -> list[Case]:
    """Ruled grids with the default 6 points of cell padding whose cells mix words and
    figures: cells of words ending in a figure (``Level 1 (£31.00)``, ``Zone A (£5.00)``) or
    starting with one (``£75 per fuel``, ``3 weeks``), words in a column of figures
    (``Free``, ``N/A``, ``None``, ``Varies daily``), rows of words only among rows of
    figures and as the last row, figures left- or right-aligned, under a header in bold or
    in regular type on a light-grey fill."""
    vet = TableCase(
        "Practice fees",
        ("Service", "Fee", "Pet plan (price)"),
        (
            ("Consultation", "£48", "Included"),
            ("Booster vaccination", "£62", "Level 1 (£31.00)"),
            ("Dental scale and polish", "£285", "Level 2 (£228.00)"),
            ("Microchipping", "£25", "Free"),
            ("Blood test", "£96", "Level 1 (£48.00)"),
            ("Nail clipping", "£12", "N/A"),
            ("X-ray (per view)", "£140", "Level 2 (£112.00)"),
            ("Out-of-hours call-out", "£180", "Not covered"),
        ),
        bold_header=False,
        numbers_right=False,
        light_header=True,
    )
    library = TableCase(
        "Library charges",
        ("Item", "Loan period", "Charge"),
        (
            ("Adult book", "3 weeks", "Free"),
            ("DVD", "1 week", "£2.50"),
            ("Music CD", "2 weeks", "£1.00"),
            ("Audiobook", "3 weeks (renewable)", "£1.50"),
            ("Reservation", "N/A", "£0.80"),
            ("Inter-library loan", "Up to 6 weeks", "£5.00"),
        ),
    )
    tariffs = TableCase(
        "Energy tariffs",
        ("Tariff", "Unit rate (p/kWh)", "Standing charge (p/day)", "Exit fee"),
        (
            ("Fixed 12 months", "24.50", "53.35", "£75 per fuel"),
            ("Standard variable", "24.86", "60.10", "None"),
            ("Tracker", "Varies daily", "46.36", "None"),
            ("Green fixed", "26.10", "53.35", "£50 per fuel"),
            ("Economy 7 night rate", "13.20", "53.35", "None"),
        ),
        bold_header=False,
        light_header=True,
    )
    results = TableCase(
        "Results by subject",
        ("Subject", "Entries", "Pass rate"),
        (
            ("Maths", "120", "87%"),
            ("Physics", "64", "85%"),
            ("Latin", "8", "N/A"),
            ("English", "134", "91%"),
            ("Music", "N/A", "N/A"),
            ("French", "41", "88%"),
            ("History", "58", "79%"),
        ),
    )
    parking = TableCase(
        "Parking permits",
        ("Permit", "Zone (monthly charge)", "Annual price"),
        (
            ("Resident, first car", "Zone A (£5.00)", "£60"),
            ("Resident, second car", "Zone A (£8.50)", "£102"),
            ("Business", "Zone B (£21.00)", "£252"),
            ("Visitors (book of 10)", "Any zone", "£15"),
            ("Carer", "All zones", "Free"),
            ("Blue badge holder", "Any zone", "Free"),
        ),
    )
    return [
        Case("vet_fees_mixed_grid", ((vet,),), "mixed grid"),
        Case("parking_permits_mixed_grid", ((parking,),), "mixed grid"),
        Case("library_charges_mixed_grid", ((library,),), "mixed grid"),
        Case("tariffs_mixed_grid", ((tariffs,),), "mixed grid"),
        Case("results_na_grid", ((results,),), "mixed grid"),
    ]


def report_cases() -> list[Case]:
    """Tables as a report tool sets an account: a currency sign set apart from its figures
    (its own column, on every row or on the first and total rows, or a word in the cell),
    bold total rows with a rule above (and a bold first row under a bold header), a row of
    words directly under the header (a sub-header ``Unaudited`` under ``2025``, a row
    ``Music  N/A  N/A`` or ``Closed scheme  Not applicable``), and a grid drawn as one
    path. Their expected tables were written before the reader was run on them."""
    sofa = TableCase(
        "Statement of financial activities",
        ("Item", "2025", "2024"),
        (
            ("Donations", "8,214", "7,961"),
            ("Legacies", "1,530", "2,040"),
            ("Trading income", "3,118", "2,876"),
            ("Investment income", "412", "388"),
            ("Total income", "13,274", "13,265"),
        ),
        ruled=False,
        header_rule=True,
        sign="£",
    )
    spend = TableCase(
        "Programme spending",
        ("Programme", "Budget", "Actual"),
        (
            ("Schools outreach", "48,500", "46,210"),
            ("Summer camps", "22,000", "23,940"),
            ("Bursaries", "15,750", "15,750"),
            ("Volunteer training", "6,300", "5,880"),
            ("Total", "92,550", "91,780"),
        ),
        ruled=False,
        sign="$",
        sign_ends=True,
    )
    courses = TableCase(
        "Course fees",
        ("Course", "Members", "Visitors"),
        (
            ("Pottery", "45.00", "60.00"),
            ("Life drawing", "38.50", "52.00"),
            ("Printmaking", "41.00", "55.50"),
        ),
        ruled=False,
        sign="£",
    )
    cashflow = TableCase(
        "Cash flow statement",
        ("Activity", "2025", "2024"),
        (
            ("Receipts from customers", "12,480", "11,902"),
            ("Payments to suppliers", "(7,310)", "(7,004)"),
            ("Payments to employees", "(3,115)", "(2,980)"),
            ("Net cash from operating activities", "2,055", "1,918"),
            ("Purchase of equipment", "(640)", "(512)"),
            ("Net cash used in investing activities", "(640)", "(512)"),
            ("Net increase in cash", "1,415", "1,406"),
        ),
        ruled=False,
        bold_rows=(3, 5, 6),
    )
    members = TableCase(
        "Membership summary",
        ("Plan", "Members", "Monthly fee"),
        (
            ("All plans", "1,240", "Various"),
            ("Standard", "610", "£32.00"),
            ("Premium", "420", "£45.00"),
            ("Family", "210", "£70.00"),
        ),
        bold_rows=(0,),
    )
    restated = TableCase(
        "Group results",
        ("Measure", "2025\nUnaudited", "2024\nRestated"),
        (
            ("Revenue", "48,210", "45,960"),
            ("Operating profit", "6,115", "5,870"),
            ("Profit before tax", "5,402", "5,233"),
            ("Earnings per share (p)", "21.4", "20.6"),
        ),
        ruled=False,
        header_rule=True,
        subheader_row=True,
    )
    music = TableCase(
        "Results by subject",
        ("Subject", "Entries", "Pass rate"),
        (
            ("Music", "N/A", "N/A"),
            ("Maths", "120", "87%"),
            ("Physics", "64", "85%"),
            ("English", "134", "91%"),
            ("French", "41", "88%"),
        ),
    )
    pensions = TableCase(
        "Pension costs",
        ("Scheme", "2025", "2024"),
        (
            ("Closed scheme", "Not applicable", "Not applicable"),
            ("Defined contribution", "1,204", "1,150"),
            ("Auto-enrolment", "316", "298"),
            ("Life cover", "88", "84"),
            ("Total", "1,608", "1,532"),
        ),
        ruled=False,
    )
    return [
        Case("sofa_sign_column", ((sofa,),), "currency apart"),
        Case("spend_sign_first_total", ((spend,),), "currency apart"),
        Case(
            "sofa_sign_word_grid",
            ((TableCase(**{**asdict(sofa), "ruled": True, "sign_column": False}),),),
            "currency apart",
        ),
        Case(
            "spend_sign_word_unruled",
            ((TableCase(**{**asdict(spend), "sign_column": False, "sign_ends": False}),),),
            "currency apart",
        ),
        Case("courses_sign_column_short", ((courses,),), "currency apart"),
        Case(
            "courses_sign_word_short",
            ((TableCase(**{**asdict(courses), "sign_column": False}),),),
            "currency apart",
        ),
        Case("cashflow_bold_totals", ((cashflow,),), "bold total"),
        Case(
            "cashflow_bold_totals_grid",
            ((TableCase(**{**asdict(cashflow), "ruled": True}),),),
            "bold total",
        ),
        Case(
            "cashflow_bold_totals_plain_header",
            ((TableCase(**{**asdict(cashflow), "bold_header": False}),),),
            "bold total",
        ),
        Case("members_bold_first_row_grid", ((members,),), "bold total"),
        Case("restated_subheader", ((restated,),), "word row"),
        Case(
            "restated_subheader_grid",
            ((TableCase(**{**asdict(restated), "ruled": True, "header_rule": False}),),),
            "word row",
        ),
        Case("music_first_row_grid", ((music,),), "word row"),
        Case(
            "music_first_row_unruled",
            ((TableCase(**{**asdict(music), "ruled": False}),),),
            "word row",
        ),
        Case("pensions_word_row", ((pensions,),), "word row"),
        Case(
            "cashflow_one_path_grid",
            ((TableCase(**{**asdict(cashflow), "bold_rows": (), "one_path_grid": True}),),),
            "one-path grid",
        ),
        Case(
            "capitals_one_path_tight_grid",
            ((TableCase(**{**asdict(capitals()), "padding": 2.0, "one_path_grid": True}),),),
            "one-path grid",
        ),
    ]


_COLUMN_PROSE = (
    "Members book rooms through the front desk or the online portal at least two days "
    "ahead. A booking that is not used without notice counts against the member's quota "
    "for the month, and repeated no-shows are reported to the committee."
)


def column_cases() -> list[Case]:
    """Pages set in two text columns with a running header and footer, a table inside one
    column beside the other column's prose: a ruled grid whose cells wrap onto two or three
    lines in narrow columns (one word longer than its column, broken at the edge), in the
    right column under a numbered heading, and a short unruled table of words in the left
    column. Their expected tables were written before the reader was run on them."""
    stores = TableCase(
        "",
        ("Store", "Contents", "Location", "Limit"),
        (
            ("Cold store", "vaccines, insulin and eye drops", "Pharmacy fridge, room 2.04", "40 L"),
            (
                "Dry store",
                "tablets, capsules and powders",
                "Shelving bay B, room 2.06",
                "120 boxes",
            ),
            ("Controlled drugs", "opioids and benzodiazepines", "Double-locked safe, 2.04", "2 kg"),
            ("Flammables", "alcohol wipes and gels", "Metal cabinet, corridor 2", "15 L"),
            ("Returns", "expired and damaged stock", "Quarantine shelf, 2.06", "4 refrigerators"),
        ),
        bold_header=False,
        numbers_right=False,
        light_header=True,
        header_widths=(54.0, 70.0, 70.0, 36.0),
        wrapped_cells=True,
    )
    shifts = TableCase(
        "",
        ("Shift", "Starts", "Ends"),
        (
            ("Early", "06:00", "14:00"),
            ("Late", "14:00", "22:00"),
            ("Night", "22:00", "06:00"),
        ),
        ruled=False,
        bold_header=True,
    )
    prose = ("para", _COLUMN_PROSE)
    return [
        Case(
            "two_columns_wrapped_grid",
            (
                (
                    ("heading", "1. Booking rooms"),
                    *[prose] * 5,
                    ("heading", "2. Medicines storage"),
                    *[prose] * 5,
                    ("heading", "3. Stock limits"),
                    ("para", "Each store holds no more than the limit below."),
                    stores,
                    prose,
                    prose,
                ),
            ),
            "two columns",
            two_columns=True,
        ),
        Case(
            "two_columns_unruled_words",
            (
                (
                    ("heading", "1. Shift times"),
                    ("para", "Staff work one of three shifts."),
                    shifts,
                    *[prose] * 5,
                    ("heading", "2. Booking rooms"),
                    *[prose] * 12,
                ),
            ),
            "two columns",
            two_columns=True,
        ),
    ]


def write_case(case: Case, path: Path) -> Path:
    """Draw ``case`` with reportlab's platypus (as a report generator would)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import (
        PageBreak,
        Paragraph,
        SimpleDocTemplate,
        Spacer,
        Table,
        TableStyle,
    )

    styles = getSampleStyleSheet()
    story: list[Any] = []
    for n, page in enumerate(case.pages):
        if n:
            story.append(PageBreak())
        for item in page:
            if isinstance(item, tuple):
                kind, text = item
                style = styles["Heading2"] if kind == "heading" else styles["BodyText"]
                story.append(Paragraph(text, style))
                continue
            if item.title:
                story.append(Paragraph(f"<b>{item.title}</b>", styles["BodyText"]))
            if item.intro:
                story.append(Paragraph(item.intro, styles["BodyText"]))
            story.append(Spacer(1, 4))
            data, cmds, widths = _table_layout(item)
            grid = _one_path_grid_class() if item.one_path_grid else Table
            story.append(grid(data, colWidths=widths, style=TableStyle(cmds), hAlign="LEFT"))
            story.append(Spacer(1, 12))
    if case.two_columns:
        _two_column_doc(path).build(story)
    else:
        SimpleDocTemplate(str(path), pagesize=A4).build(story)
    return path


def _two_column_doc(path: Path) -> Any:
    """A document of A4 pages in two text columns (18 mm margins, an 8 mm gutter) with a
    running header (left and right) over a rule and a running footer with the page
    number, as a manual is set."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate

    width, height = A4
    margin, gutter = 18 * mm, 8 * mm
    column = (width - 2 * margin - gutter) / 2

    def decorate(canvas: Any, doc: Any) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.setFillColor(colors.grey)
        canvas.drawString(margin, height - 12 * mm, "Northfield Health Centre")
        canvas.drawRightString(width - margin, height - 12 * mm, "Staff Handbook — v2.1 (May 2026)")
        canvas.line(margin, height - 13.5 * mm, width - margin, height - 13.5 * mm)
        canvas.drawString(margin, 10 * mm, "Uncontrolled when printed")
        canvas.drawRightString(width - margin, 10 * mm, f"Page {doc.page}")
        canvas.restoreState()

    frames = [
        Frame(margin, 18 * mm, column, height - 36 * mm, id="left"),
        Frame(margin + column + gutter, 18 * mm, column, height - 36 * mm, id="right"),
    ]
    doc = BaseDocTemplate(str(path), pagesize=A4)
    doc.addPageTemplates([PageTemplate(id="two", frames=frames, onPage=decorate)])
    return doc


def _table_layout(item: TableCase) -> tuple[list[list[Any]], list[tuple[Any, ...]], Any]:
    """A table case's reportlab cells, style commands and column widths."""
    from reportlab.lib import colors
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    h = 1 if item.subheader_row else 0  # the last header row
    header: list[Any] = list(item.headers)
    heads: list[list[Any]] = [header]
    if item.subheader_row:  # "2025\nUnaudited": a header row, then a sub-header row
        heads = [[c.split("\n")[0] for c in header], [c.partition("\n")[2] for c in header]]
    if item.header_widths is not None:  # wrapped by the column's width
        font = "Helvetica-Bold" if item.bold_header else "Helvetica"
        ink = colors.white if item.shaded_header else colors.black
        cell = ParagraphStyle("cell", fontName=font, fontSize=10, leading=12, textColor=ink)
        heads = [[Paragraph(c, cell) for c in header]]
    body: list[list[Any]] = [list(r) for r in item.rows]
    if item.wrapped_cells:  # every cell a paragraph wrapped by its column's width
        small = ParagraphStyle("small", fontName="Helvetica", fontSize=7.5, leading=9)
        heads = [[Paragraph(c, small) for c in header]]
        body = [[Paragraph(c, small) for c in r] for r in item.rows]
    if item.sign:
        signed = [n for n in range(len(body)) if not item.sign_ends or n in (0, len(body) - 1)]
        if item.sign_column:  # a narrow column for the sign before each value column
            heads = [[r[0], *[c for v in r[1:] for c in (v, "")]] for r in heads]
            body = [
                [r[0], *[c for v in r[1:] for c in ((item.sign if n in signed else ""), v)]]
                for n, r in enumerate(body)
            ]
        else:  # the sign a word apart in the figure's cell
            body = [
                [r[0], *[f"{item.sign} {v}" if n in signed else v for v in r[1:]]]
                for n, r in enumerate(body)
            ]
    data = [*heads, *body]
    cmds: list[tuple[Any, ...]] = [("FONTNAME", (0, 0), (-1, -1), "Helvetica")]
    if item.wrapped_cells:  # each cell's lines from its top, as a manual sets them
        cmds.append(("VALIGN", (0, 0), (-1, -1), "TOP"))
    if item.bold_header:
        cmds.append(("FONTNAME", (0, 0), (-1, h), "Helvetica-Bold"))
    if item.ruled and not item.one_path_grid:
        ink = colors.grey if item.light_header else colors.black
        cmds.append(("GRID", (0, 0), (-1, -1), 0.5, ink))
    if item.light_header:
        cmds.append(("BACKGROUND", (0, 0), (-1, h), colors.lightgrey))
    if item.padding != 6.0:
        cmds += [
            ("LEFTPADDING", (0, 0), (-1, -1), item.padding),
            ("RIGHTPADDING", (0, 0), (-1, -1), item.padding),
        ]
    if item.header_rule:
        cmds += [
            ("LINEABOVE", (0, 0), (-1, 0), 1.0, colors.black),
            ("LINEBELOW", (0, h), (-1, h), 0.5, colors.black),
            ("LINEBELOW", (0, -1), (-1, -1), 1.0, colors.black),
        ]
    if item.shaded_header:
        cmds += [
            ("BACKGROUND", (0, 0), (-1, h), colors.HexColor("#1F4E79")),
            ("TEXTCOLOR", (0, 0), (-1, h), colors.white),
            (
                "ROWBACKGROUNDS",
                (0, h + 1),
                (-1, -1),
                [colors.white, colors.HexColor("#DDEBF7")],
            ),
        ]
    if item.numbers_right and any(_numeric(r[1]) for r in item.rows):
        cmds.append(("ALIGN", (1, 0), (-1, -1), "RIGHT"))
    if item.header_centred:
        cmds.append(("ALIGN", (0, 0), (-1, h), "CENTER"))
    if item.sign and item.sign_column:
        for k in range(1, len(item.headers)):
            sign_col, figure_col = 2 * k - 1, 2 * k
            cmds += [
                ("SPAN", (sign_col, 0), (figure_col, 0)),
                ("ALIGN", (sign_col, h + 1), (sign_col, -1), "LEFT"),
                ("RIGHTPADDING", (sign_col, h + 1), (sign_col, -1), 0),
            ]
            if h:
                cmds.append(("SPAN", (sign_col, h), (figure_col, h)))
    for n in item.bold_rows:  # a total: bold, a rule above it
        row = h + 1 + n
        cmds += [
            ("FONTNAME", (0, row), (-1, row), "Helvetica-Bold"),
            ("LINEABOVE", (0, row), (-1, row), 0.5, colors.black),
        ]
    widths = list(item.header_widths) if item.header_widths else None
    return data, cmds, widths


def _one_path_grid_class() -> Any:
    """A reportlab ``Table`` drawing its grid as one path: the frame and every inner line
    in one path object (as some report tools draw a grid), after its cells."""
    from reportlab.platypus import Table

    class OnePathGrid(Table):  # type: ignore[misc]
        def draw(self) -> None:
            super().draw()
            xs, ys = self._colpositions, self._rowpositions
            path = self.canv.beginPath()
            path.rect(xs[0], ys[-1], xs[-1] - xs[0], ys[0] - ys[-1])
            for x in xs[1:-1]:
                path.moveTo(x, ys[-1])
                path.lineTo(x, ys[0])
            for y in ys[1:-1]:
                path.moveTo(xs[0], y)
                path.lineTo(xs[-1], y)
            self.canv.setLineWidth(0.5)
            self.canv.drawPath(path, stroke=1, fill=0)

    return OnePathGrid


def _numeric(text: str) -> bool:
    return any(ch.isdigit() for ch in text) and ":" not in text


def _norm(text: str) -> str:
    return " ".join(text.split())


@dataclass
class Score:
    """Counts of one case's (or the whole set's) scored items."""

    headers: int = 0
    headers_right: int = 0
    rows: int = 0
    rows_right: int = 0
    titles: int = 0
    titles_right: int = 0
    headings: int = 0
    headings_right: int = 0
    notes: list[str] = field(default_factory=list)

    def add(self, other: Score) -> None:
        """Add ``other``'s counts (and notes) to this one."""
        for name in ("headers", "rows", "titles", "headings"):
            for suffix in ("", "_right"):
                key = name + suffix
                setattr(self, key, getattr(self, key) + getattr(other, key))
        self.notes += other.notes


def score_table(known: TableCase, tables: Sequence[Any], name: str) -> Score:
    """Score the reader's best-matching table (most known row labels) against ``known``."""
    out = Score(headers=len(known.headers) - 1, rows=len(known.rows), titles=1)
    labels = {r[0] for r in known.rows} | {known.headers[0]}
    best = max(tables, key=lambda t: sum(r.label in labels for r in t.rows), default=None)
    if best is None or not any(r.label in labels for r in best.rows):
        out.notes.append(f"{name}/{known.title or known.headers[0]}: no table read")
        return out
    got = [_norm(c) for c in best.columns]
    want = [_norm(h) for h in known.headers[1:]]
    out.headers_right = (
        sum(g == w for g, w in zip(got, want, strict=False))
        if len(got) == len(want)
        else sum(w in got for w in want) - max(0, len(got) - len(want))
    )
    out.headers_right = max(0, out.headers_right)
    if got != want:
        out.notes.append(f"{name}: headers {got} != {want}")
    read = {r.label: dict(zip(r.columns, r.cells, strict=True)) for r in best.rows}
    for row in known.rows:
        want_row = dict(zip(want, row[1:], strict=True))
        if read.get(row[0]) == want_row:
            out.rows_right += 1
        else:
            out.notes.append(f"{name}: row {row[0]!r} read as {read.get(row[0])}")
    if _norm(best.title) == _norm(known.title):
        out.titles_right = 1
    else:
        out.notes.append(f"{name}: title {best.title!r} != {known.title!r}")
    return out


def score_case(case: Case, work: Path) -> Score:
    """Load a case's PDF with the loader and score its tables and headings."""
    from loaders.registry import load_file

    doc = load_file(work / f"{case.name}.pdf")
    total = Score()
    for known in case.tables:
        total.add(score_table(known, doc.tables, case.name))
    found = {_norm(doc.text[a:b]) for a, b in doc.headings}
    want = case.headings
    # the first heading of a document may be read as its title instead of a section
    total.headings = len(want)
    total.headings_right = sum(
        h in found or (i == 0 and _norm(doc.title) == h) for i, h in enumerate(want)
    )
    for i, h in enumerate(want):
        if h not in found and not (i == 0 and _norm(doc.title) == h):
            total.notes.append(f"{case.name}: heading {h!r} not found")
    return total


def filings(folder: Path, dump: Path | None) -> dict[str, Any]:
    """Tables, rows and fully named rows of each PDF in ``folder`` (see the docstring)."""
    from loaders.registry import load_file

    out: dict[str, Any] = {}
    lines: list[str] = []
    for pdf in sorted(folder.glob("*.pdf")):
        doc = load_file(pdf)
        rows = [r for t in doc.tables for r in t.rows]
        out[pdf.name] = {
            "tables": len(doc.tables),
            "rows": len(rows),
            "rows_all_named": sum(all(r.columns) for r in rows),
            "titled_rows": sum(len(t.rows) for t in doc.tables if t.title),
            "headings": len(doc.headings),
        }
        for t in doc.tables:
            for r in t.rows:
                lines.append(f"{pdf.name}\t{t.page}\t{r.start}\t{t.title}\t{r.describe()}")
    if dump is not None:
        dump.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> int:
    """Generate the set, score the reader, print the scores (and the filings' counts)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--work", type=Path, required=True, help="folder for the generated PDFs")
    ap.add_argument("--reportlab-path", help="folder reportlab was installed into")
    ap.add_argument("--filings", type=Path, help="folder of filings PDFs to count rows of")
    ap.add_argument("--dump", type=Path, help="write the filings' row descriptions here")
    ap.add_argument("--json", type=Path, help="write the scores here")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each miss")
    args = ap.parse_args(argv)
    if args.reportlab_path:
        sys.path.append(args.reportlab_path)
    args.work.mkdir(parents=True, exist_ok=True)
    total = Score()
    per_case: dict[str, Any] = {}
    per_style: dict[str, Score] = {}
    for case in cases():
        write_case(case, args.work / f"{case.name}.pdf")
        score = score_case(case, args.work)
        per_case[case.name] = {k: v for k, v in asdict(score).items() if k != "notes"}
        per_case[case.name]["style"] = case.style
        per_style.setdefault(case.style, Score()).add(score)
        total.add(score)
    result: dict[str, Any] = {
        "tables": sum(len(c.tables) for c in cases()),
        "total": {k: v for k, v in asdict(total).items() if k != "notes"},
        "styles": {
            style: {k: v for k, v in asdict(score).items() if k != "notes"}
            for style, score in per_style.items()
        },
        "cases": per_case,
    }
    names = ("headers", "rows", "titles", "headings")
    for name in names:
        right, n = getattr(total, name + "_right"), getattr(total, name)
        print(f"{name:9s} {right:3d}/{n:<3d} = {right / max(n, 1):.2f}")
    for style, score in per_style.items():
        counts = "  ".join(
            f"{name} {getattr(score, name + '_right')}/{getattr(score, name)}"
            for name in names
            if getattr(score, name)
        )
        print(f"  {style:15s} {counts}")
    if args.verbose:
        print("\n".join(total.notes))
    if args.filings:
        result["filings"] = filings(args.filings, args.dump)
        for pdf, counts in result["filings"].items():
            print(pdf, counts)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
