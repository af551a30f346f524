"""Tables as ordinary tools lay them out (a report generator, a word processor's export):
cells a padding apart, values left-aligned, a header row of times or of years, a sentence
above the table; and headings set in a larger type over a table or a short line. Each PDF
is written at test time with its cells known."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from loaders.base import Table
from loaders.pdf_tables import is_bold
from loaders.registry import load_file
from tests.support.pdfs import Line, write_pdf

#: Helvetica advance widths (1/1000 em); other characters count as 556.
_WIDTH = {
    **dict(zip("abcdefghijklmnopqrstuvwxyz", (556, 556, 500, 556, 556, 278, 556, 556, 222,
                                              222, 500, 222, 833, 556, 556, 556, 556, 333,
                                              500, 278, 556, 500, 722, 500, 500, 500),
               strict=True)),
    **dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", (667, 667, 722, 722, 667, 611, 778, 722, 278,
                                              500, 667, 556, 833, 722, 778, 667, 778, 722,
                                              667, 611, 722, 667, 944, 667, 667, 611),
               strict=True)),
    **dict.fromkeys("0123456789£$", 556),
    ",": 278, ".": 278, ":": 278, " ": 278, "%": 889, "(": 333, ")": 333, "-": 333,
}  # fmt: skip
#: Helvetica-Bold's letters (its figures, space and punctuation are Helvetica's).
_BOLD_WIDTH = {
    **_WIDTH,
    **dict(zip("abcdefghijklmnopqrstuvwxyz", (556, 611, 556, 611, 556, 333, 611, 611, 278,
                                              278, 556, 278, 889, 611, 611, 611, 611, 389,
                                              556, 333, 611, 556, 778, 556, 556, 500),
               strict=True)),
    **dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", (722, 722, 722, 722, 667, 611, 778, 722, 278,
                                              556, 722, 611, 833, 722, 778, 667, 778, 722,
                                              667, 611, 722, 667, 944, 667, 667, 611),
               strict=True)),
}  # fmt: skip
SIZE = 10
#: Space between the widest cell of a column and the next column (a table cell's padding,
#: 6 points each side): under the 1.3 word heights that split a line into cells by itself.
PAD = 12.0
LEFT = 84.0


def _width(text: str, bold: bool = False) -> float:
    widths = _BOLD_WIDTH if bold else _WIDTH
    return sum(widths.get(ch, 556) for ch in text) * SIZE / 1000


def _at(x: float, y: float, text: str, size: float = SIZE, font: str = "F1") -> str:
    esc = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return f"BT /{font} {size} Tf {x:.2f} {y:.2f} Td ({esc}) Tj ET"


def _table_pdf(
    path: Path,
    above: Sequence[str],
    rows: Sequence[Sequence[str]],
    right: frozenset[int] = frozenset(),
    bold_header: bool = False,
) -> Path:
    """One page: the lines ``above`` (at the left margin), then ``rows`` (header first) set
    as a report generator sets a table: each column as wide as its widest cell plus
    :data:`PAD`, the columns in ``right`` right-aligned, the others left-aligned, the header
    row in Helvetica-Bold when ``bold_header``."""
    ops = [_at(78, 760 - 16 * i, text) for i, text in enumerate(above)]
    bold = [bold_header and n == 0 for n in range(len(rows))]
    widths = [
        max(_width(r[c], b) for r, b in zip(rows, bold, strict=True)) for c in range(len(rows[0]))
    ]
    y = 760 - 16 * len(above) - 8
    for row, b in zip(rows, bold, strict=True):
        x = LEFT
        for c, cell in enumerate(row):
            at = x + widths[c] - _width(cell, b) if c in right else x
            ops.append(_at(at, y, cell, font="F3" if b else "F1"))
            x += widths[c] + PAD
        y -= 16
    return write_pdf(path, [[Line(raw=op) for op in ops]])


def _read(path: Path) -> Table:
    (table,) = load_file(path).tables
    return table


TIMETABLE = [
    ("Day", "09:00", "12:30", "18:00"),
    ("Monday", "Yoga", "Pilates", "Spin"),
    ("Tuesday", "Aqua fit", "Yoga", "Boxing"),
    ("Wednesday", "Spin", "Zumba", "Pilates"),
    ("Thursday", "Pilates", "Yoga", "Spin"),
    ("Friday", "Zumba", "Aqua fit", "Circuits"),
    ("Saturday", "Boxing", "Spin", "Yoga"),
]


def test_a_tightly_set_timetable_keeps_its_grid_and_its_header_of_times(tmp_path: Path) -> None:
    """Cells a padding apart (``Wednesday`` and ``Spin`` closer than the gap that splits a
    line by itself) split at the column edges the other lines share; the first line, times
    over class names, names the columns. Before: one column, Monday in the title, Saturday
    lost."""
    table = _read(_table_pdf(tmp_path / "timetable.pdf", ["Weekly class timetable"], TIMETABLE))
    assert table.title == "Weekly class timetable"
    assert table.columns == ["09:00", "12:30", "18:00"]
    assert [r.label for r in table.rows] == [r[0] for r in TIMETABLE[1:]]
    assert table.rows[2].describe() == "Wednesday — 09:00: Spin; 12:30: Zumba; 18:00: Pilates"


PRICES = [
    ("Activity", "Adult", "Child", "Concession"),
    ("Swim", "£5.20", "£3.10", "£4.00"),
    ("Gym", "£7.50", "£4.20", "£5.60"),
    ("Sauna", "£6.00", "£3.50", "£4.80"),
    ("Climbing wall", "£9.80", "£6.40", "£7.90"),
]


def test_the_label_columns_header_is_not_in_the_title(tmp_path: Path) -> None:
    """``Activity`` heads the label column, left of the value columns on the header line:
    it is no part of the title (before: "Leisure centre prices Activity")."""
    path = _table_pdf(
        tmp_path / "prices.pdf", ["Leisure centre prices"], PRICES, frozenset({1, 2, 3})
    )
    table = _read(path)
    assert table.title == "Leisure centre prices"
    assert table.columns == ["Adult", "Child", "Concession"]
    assert [r.label for r in table.rows] == ["Swim", "Gym", "Sauna", "Climbing wall"]
    assert table.rows[0].describe() == "Swim — Adult: £5.20; Child: £3.10; Concession: £4.00"


def test_years_over_a_label_column_header_name_the_columns(tmp_path: Path) -> None:
    rows = [
        ("Source", "2024", "2025"),
        ("Salary", "42,000", "44,500"),
        ("Rental income", "6,600", "7,200"),
        ("Dividends", "1,250", "1,310"),
        ("Interest", "480", "520"),
    ]
    table = _read(
        _table_pdf(tmp_path / "income.pdf", ["Household income"], rows, frozenset({1, 2}))
    )
    assert table.title == "Household income"
    assert table.columns == ["2024", "2025"]
    assert table.rows[1].describe() == "Rental income — 2024: 6,600; 2025: 7,200"


def test_left_aligned_figures_of_different_widths_keep_their_columns(tmp_path: Path) -> None:
    """A word processor left-aligns figures by default: ``£5`` over ``£110.00`` share their
    left edge, not their right one. Before, rows whose right edges strayed were lost or
    read with unnamed cells."""
    rows = [
        ("Course", "Members", "Non-members"),
        ("Swim", "£5", "£12.50"),
        ("Gym", "£7.50", "£15"),
        ("Squash", "£110.00", "£9"),
        ("Tennis", "£8", "£125.00"),
        ("Badminton", "£14.25", "£6.50"),
    ]
    table = _read(_table_pdf(tmp_path / "fees.pdf", ["Swimming price list"], rows))
    assert table.columns == ["Members", "Non-members"]
    assert [r.describe() for r in table.rows] == [
        f"{r[0]} — Members: {r[1]}; Non-members: {r[2]}" for r in rows[1:]
    ]


def test_a_right_aligned_column_a_padding_away_from_its_labels_is_split(tmp_path: Path) -> None:
    """Three rows (too few numbers for the statement reader): the fee column is right-aligned
    a padding after the plan names, and splits there because the fees share their right
    edge."""
    rows = [
        ("Plan", "Fee", "Classes"),
        ("Standard", "£32.00", "8"),
        ("Premium", "£45.00", "16"),
        ("Family", "£70.00", "24"),
    ]
    table = _read(_table_pdf(tmp_path / "plans.pdf", ["Monthly fees"], rows, frozenset({1, 2})))
    assert table.title == "Monthly fees"
    assert table.columns == ["Fee", "Classes"]
    assert table.rows[0].describe() == "Standard — Fee: £32.00; Classes: 8"


def test_a_sentence_above_a_table_is_not_its_title(tmp_path: Path) -> None:
    """A sentence of its own between a heading and a table states a fact; it is neither the
    title nor a way up to the heading (before: "3. Staff contacts Ask at reception if …")."""
    rows = [
        ("Name", "Role", "Extension"),
        ("Ann Lee", "Manager", "2041"),
        ("Raj Patel", "Coach", "2046"),
        ("Mia Chen", "Reception", "2050"),
    ]
    above = ["3. Staff contacts", "Ask at reception if the person you need is not listed here."]
    table = _read(_table_pdf(tmp_path / "staff.pdf", above, rows, frozenset({2})))
    assert table.title == ""
    assert table.columns == ["Role", "Extension"]
    assert table.rows[1].describe() == "Raj Patel — Role: Coach; Extension: 2046"


PROSE = (
    "This guide sets out what visitors pay and when the centre is open to them.",
    "Prices are reviewed each spring and any change is published a month ahead.",
)


def test_headings_set_large_over_a_table_or_a_short_line_are_headings(tmp_path: Path) -> None:
    """Pages 2 and 3 open with an unnumbered heading in 16 pt over 10 pt text, each over a
    short line (over a table, on page 2). Neither is followed by prose, the sign the text
    alone gives; the larger type is the sign (before: neither was a heading). A line
    directly over a table is its title and stays the table's, however large (a statement's
    title: tests/unit/test_structure.py)."""
    rows = [
        ("Stay", "Car", "Motorbike"),
        ("Up to 2 hours", "£2.50", "£1.00"),
        ("Up to 4 hours", "£4.00", "£1.50"),
        ("All day", "£7.00", "£2.50"),
    ]
    first = [_at(78, 760, "Visitor Guide", 16)]
    first += [_at(78, 730 - 14 * i, line) for i, line in enumerate(PROSE)]
    second = [_at(78, 760, "Parking Charges", 16), _at(78, 730, "Pay at the machine.")]
    x = (84.0, 160.0, 220.0)
    for r, row in enumerate(rows):
        second += [_at(at, 710 - 16 * r, cell) for at, cell in zip(x, row, strict=True)]
    third = [_at(78, 760, "Lost Property", 16), _at(78, 730, "Ask at reception.")]
    third += [_at(78, 716 - 14 * i, line) for i, line in enumerate(PROSE)]
    pages = [[Line(raw=op) for op in ops] for ops in (first, second, third)]
    doc = load_file(write_pdf(tmp_path / "guide.pdf", pages))
    headings = [doc.text[a:b] for a, b in doc.headings]
    assert "Parking Charges" in headings and "Lost Property" in headings
    (table,) = doc.tables
    assert table.columns == ["Car", "Motorbike"]
    assert "Ask at reception." in [doc.text[s.start : s.end] for s in doc.segments][-1]


def test_a_line_is_not_split_into_more_cells_than_the_widest_line_of_its_table() -> None:
    """An OCR'd price list whose "1 kg" ends where another row's "1kg" does: the shared
    column end must not cut "1 kg" into "1" and "kg" (a row with five cells in four columns
    lost the whole table)."""
    from loaders.pdf_tables import Line, Word
    from loaders.text_tables import read_text_tables

    def line(y: float, *cells: tuple[str, float] | tuple[str, float, float]) -> Line:
        words = []
        for text, x, *space in cells:
            for part in text.split(" "):
                words.append(Word(part, x, x + 6.0 * len(part), y, y + 10.0))
                x += 6.0 * len(part) + (space[0] if space else 4.0)
        return Line(words)

    lines = [
        line(100, ("Tea", 10), ("Pack", 120), ("Price", 180)),
        line(86, ("Assam", 10), ("1kg", 120), ("£24.00", 180)),
        # OCR boxes: a wider space inside "1 kg", whose "kg" ends where "1kg" does
        line(72, ("Earl Grey", 10), ("1 kg", 113, 7.0), ("£28.50", 180)),
        line(58, ("Jasmine", 10), ("1kg", 120), ("£64.00", 180)),
    ]
    (table,) = read_text_tables(lines, set())
    assert len(table.rows) == 3
    assert any("1 kg" in str(row) for row in table.rows), table.rows


def test_a_caption_or_a_title_with_a_full_stop_is_no_sentence_of_its_own() -> None:
    """Titles may end with a full stop; a short line without a verb, article or pronoun,
    or a caption, still names the table below it."""
    from loaders.pdf_tables import states_fact

    for title in ("Table 2: Hall hire charges.", "Hall hire charges 2025.", "Fees (incl. VAT)."):
        assert not states_fact(title), title
    for sentence in (
        "Prices are per kilo.",
        "The centre opens every day of the week except public holidays.",
    ):
        assert states_fact(sentence), sentence


BANDS = [
    ("Age band", "Under 16", "16 to 64", "65 and over"),
    ("Off-peak", "£2.10", "£4.60", "£3.20"),
    ("Peak", "£2.90", "£5.80", "£3.90"),
    ("Ten-swim card", "£18.00", "£41.00", "£28.00"),
]


def test_a_header_row_set_in_bold_names_the_columns_whatever_it_holds(tmp_path: Path) -> None:
    """Column names ending in figures (``Under 16  16 to 64``) over prices: by their words
    alone the first line is a row like the others. Set in bold over rows that are not, it
    is the header (before: no column names, every cell's name empty)."""
    path = _table_pdf(
        tmp_path / "bands.pdf", ["Swimming prices"], BANDS, frozenset({1, 2, 3}), True
    )
    table = _read(path)
    assert table.title == "Swimming prices"
    assert table.columns == ["Under 16", "16 to 64", "65 and over"]
    assert [r.describe() for r in table.rows] == [
        f"{r[0]} — Under 16: {r[1]}; 16 to 64: {r[2]}; 65 and over: {r[3]}" for r in BANDS[1:]
    ]


def test_the_same_first_line_in_regular_type_stays_a_row(tmp_path: Path) -> None:
    """Without the bold the reader has no way to tell it from a row: it stays one (the
    bold rule reads the type, not the words)."""
    path = _table_pdf(tmp_path / "bands.pdf", ["Swimming prices"], BANDS, frozenset({1, 2, 3}))
    table = _read(path)
    assert "Age band" in [r.label for r in table.rows]


def test_header_cells_wrapped_in_columns_wider_than_their_figures_are_joined(
    tmp_path: Path,
) -> None:
    """Header cells wrapped onto three lines, left-aligned in 70-point columns over
    right-aligned figures (a report tool's paragraph cells): ``New`` / ``members`` /
    ``joined`` reach over the figures only on their middle line, and are joined to that
    column by standing over and under it. Before: ``members`` alone named the column and
    ``New`` and ``joined`` went into the title."""
    header = [
        ("", "Members at", "New", "Members at"),
        ("", "start of", "members", "end of"),
        ("Club", "year", "joined", "year"),
    ]
    body = [
        ("Rowing", "142", "38", "161"),
        ("Cycling", "310", "74", "352"),
        ("Chess", "58", "12", "63"),
        ("Badminton", "96", "21", "104"),
        ("Tennis", "201", "40", "229"),
    ]
    starts = (84.0, 204.0, 274.0, 344.0)
    ops = [_at(78, 760, "Club membership")]
    y = 740.0
    for line in header:
        ops += [_at(x, y, cell, font="F3") for x, cell in zip(starts, line, strict=True) if cell]
        y -= 12
    for row in body:
        y -= 6
        ops.append(_at(starts[0], y, row[0]))
        for x, cell in zip(starts[1:], row[1:], strict=True):
            ops.append(_at(x + 58 - _width(cell), y, cell))  # right-aligned, 6 pt padding
        y -= 12
    table = _read(write_pdf(tmp_path / "members.pdf", [[Line(raw=op) for op in ops]]))
    assert table.title == "Club membership"
    assert table.columns == [
        "Members at start of year",
        "New members joined",
        "Members at end of year",
    ]
    assert table.rows[0].describe() == (
        "Rowing — Members at start of year: 142; New members joined: 38; "
        "Members at end of year: 161"
    )


def test_a_font_is_bold_by_its_weight_its_flag_or_its_style_name() -> None:
    assert is_bold("Helvetica-Bold", 0, 32)
    assert is_bold("ABCDEF+Arial,BoldItalic", -1, 0)
    assert is_bold("TimesNewRomanPS-BoldMT", 0, 0)
    assert is_bold("Roboto-SemiBold", 0, 0)
    assert is_bold("SomeFont", 0, 1 << 18)
    assert is_bold("Anything", 700, 0)
    assert not is_bold("Anything-Bold", 400, 0)  # the descriptor's weight wins
    assert not is_bold("Helvetica", 0, 32)
    assert not is_bold("Boldface", 0, 0)  # the family's name, no style part
    assert not is_bold("ABCDEF+Arial-Italic", 0, 0)


def _grid_pdf(
    path: Path,
    title: str,
    rows: Sequence[Sequence[str]],
    ruled: bool,
    pad: float = 2.0,
    bold_header: bool = True,
) -> Path:
    """A table set in a grid: ``pad`` points of padding each side of a cell (2: a tight
    grid; reportlab's default is 6), cells left-aligned, the header row in bold when
    ``bold_header``, and (when ``ruled``) a line drawn round every cell, each rule a path of
    its own as report tools draw a grid."""
    pitch = 18.0
    bold = [bold_header and n == 0 for n in range(len(rows))]
    widths = [
        max(_width(r[c], b) for r, b in zip(rows, bold, strict=True)) + 2 * pad
        for c in range(len(rows[0]))
    ]
    edges = [LEFT + sum(widths[:c]) for c in range(len(widths) + 1)]
    top = 740.0
    ops = [_at(78, 760, title)]
    for n, row in enumerate(rows):
        y = top - pitch * (n + 1) + 5
        ops += [
            _at(edges[c] + pad, y, cell, font="F3" if bold[n] else "F1")
            for c, cell in enumerate(row)
        ]
    if ruled:
        bottom = top - pitch * len(rows)
        ops += [f"0.5 w {x:.2f} {bottom:.2f} m {x:.2f} {top:.2f} l S" for x in edges]
        ops += [
            f"0.5 w {edges[0]:.2f} {y:.2f} m {edges[-1]:.2f} {y:.2f} l S"
            for y in (top - pitch * n for n in range(len(rows) + 1))
        ]
    return write_pdf(path, [[Line(raw=op) for op in ops]])


CAPITALS = [
    ("Country", "Capital", "Currency"),
    ("France", "Paris", "Euro"),
    ("Japan", "Tokyo", "Yen"),
    ("Kenya", "Nairobi", "Shilling"),
    ("Peru", "Lima", "Sol"),
]


def test_the_rules_of_a_tight_grid_part_its_cells(tmp_path: Path) -> None:
    """Cells 4 points apart, a grid drawn round them: the gaps alone are a word space, the
    rules part the cells (before: no table read, every line one cell)."""
    table = _read(_grid_pdf(tmp_path / "grid.pdf", "Capitals", CAPITALS, ruled=True))
    assert table.columns == ["Capital", "Currency"]
    assert [r.describe() for r in table.rows] == [
        f"{r[0]} — Capital: {r[1]}; Currency: {r[2]}" for r in CAPITALS[1:]
    ]


def test_the_same_tight_table_without_its_rules_is_no_table(tmp_path: Path) -> None:
    """The rules are what part the cells: the same words without them stay lines of text."""
    path = _grid_pdf(tmp_path / "grid.pdf", "Capitals", CAPITALS, ruled=False)
    assert load_file(path).tables == []


HIRE = [
    ("Room", "Per hour", "Half day", "Full day"),
    ("Main hall", "£45.00", "£160.00", "£290.00"),
    ("Studio", "£22.50", "£80.00", "£150.00"),
    ("Meeting room", "£15.00", "£55.00", "£100.00"),
    ("Kitchen", "£10.00", "£35.00", "£60.00"),
]


def test_a_header_in_a_tight_grid_names_only_the_column_of_its_own_cell(
    tmp_path: Path,
) -> None:
    """Figures in a tight grid (the statement reader's value columns): ``Per hour`` reaches
    near the next column's figures, but a rule stands between them (before: each header
    named two columns, ``Per hour Half day``)."""
    table = _read(_grid_pdf(tmp_path / "hire.pdf", "Room hire", HIRE, ruled=True))
    assert table.columns == ["Per hour", "Half day", "Full day"]
    assert table.rows[0].describe() == (
        "Main hall — Per hour: £45.00; Half day: £160.00; Full day: £290.00"
    )


#: A grid whose value cells mix words and figures: a figure ending a cell of words
#: (``Tier 1 (12.40)``), words in a column of figures (``Free``), a last row of words.
SURGERY = [
    ("Treatment", "Fee", "Scheme band (charge)"),
    ("Check-up", "55", "Tier 1 (12.40)"),
    ("Scale and polish", "65", "Tier 1 (12.40)"),
    ("Hygienist visit (30 min)", "72", "Not offered"),
    ("Filling (small)", "145", "Tier 2 (75.30)"),
    ("Crown", "690", "Tier 3 (326.70)"),
    ("Mouth guard", "Free", "Not offered"),
]


def test_a_grid_whose_cells_mix_words_and_figures_reads_each_ruled_cell_whole(
    tmp_path: Path,
) -> None:
    """Default padding, a regular-type header: the rules part the cells, so ``Tier 1
    (12.40)`` is one cell whatever its words are, a row of words among rows of figures is a
    row, and the last row is kept (before: the statement reader took ``1`` and ``(12.40)``
    as two values, ``Hygienist visit (30 min) 72 Not offered`` as a group label over the
    rows below it, a header phrase as the title, and dropped the last row)."""
    path = _grid_pdf(tmp_path / "fees.pdf", "Fees", SURGERY, True, pad=6.0, bold_header=False)
    table = _read(path)
    assert table.title == "Fees"
    assert table.columns == ["Fee", "Scheme band (charge)"]
    assert [r.describe() for r in table.rows] == [
        f"{r[0]} — Fee: {r[1]}; Scheme band (charge): {r[2]}" for r in SURGERY[1:]
    ]


RESULTS = [
    ("Subject", "Entries", "Pass rate"),
    ("Maths", "120", "87%"),
    ("Physics", "64", "85%"),
    ("Music", "N/A", "N/A"),
    ("English", "134", "91%"),
    ("Latin", "8", "N/A"),
    ("French", "41", "88%"),
    ("History", "58", "79%"),
]


def test_a_row_of_words_in_a_grid_of_figures_is_a_row_not_a_group_label(
    tmp_path: Path,
) -> None:
    """``Music | N/A | N/A`` fills the grid's columns with words: it is a row of its own,
    not the label of the rows under it (before: ``Music N/A N/A — English — …``)."""
    table = _read(_grid_pdf(tmp_path / "results.pdf", "Results", RESULTS, True, pad=6.0))
    assert table.columns == ["Entries", "Pass rate"]
    assert [r.describe() for r in table.rows] == [
        f"{r[0]} — Entries: {r[1]}; Pass rate: {r[2]}" for r in RESULTS[1:]
    ]


def test_a_figure_ending_a_ruled_cell_of_words_is_no_value() -> None:
    """Between drawn rules a cell is whole: ``Economy 7`` keeps its ``7`` as the label's,
    and the statement reader's values are the trailing cells of figures only (before: the
    ``7`` was a value); without rules the trailing figures are values as before."""
    from loaders.pdf_tables import Line, Word

    words = [
        Word("Economy", 10, 50, 0, 10),
        Word("7", 54, 60, 0, 10),
        Word("13.20", 80, 105, 0, 10),
        Word("53.35", 130, 155, 0, 10),
    ]
    grid = Line(words, breaks=(70.0, 120.0), ruled_left=True, ruled_right=True)
    label, values = grid.split()
    assert [w.text for w in label] == ["Economy", "7"]
    assert [w.text for w in values] == ["13.20", "53.35"]
    assert [w.text for w in Line(words).split()[1]] == ["7", "13.20", "53.35"]
    # ruled only between its value columns (a filing's statement): the words left of the
    # first rule are read word by word, as without rules
    ruled_between = Line(words, breaks=(120.0,))
    assert [w.text for w in ruled_between.split()[1]] == ["7", "13.20", "53.35"]
    words[-1:] = [Word("Varies", 130, 150, 0, 10), Word("daily", 153, 170, 0, 10)]
    grid = Line(words, breaks=(70.0, 120.0), ruled_left=True, ruled_right=True)
    assert grid.split()[1] == []


def test_a_grid_inside_a_page_border_leaves_the_lines_around_it_alone() -> None:
    """A page border encloses every line: the grid is only the lines from the first a
    rule parts to the last, so a statement elsewhere on the page stays the statement
    reader's (before: every line the border encloses was handed over)."""
    from loaders.pdf_tables import Line, Word, mixed_grids

    def line(*cells: str, breaks: tuple[float, ...] = ()) -> Line:
        words = [Word(t, 20 + 60 * n, 50 + 60 * n, 0, 10) for n, t in enumerate(cells)]
        return Line(words, breaks, ruled_left=True, ruled_right=True)

    lines = [
        line("Revenue", "8,214"),  # a statement's lines, inside the page's border only
        line("Costs", "(1,577)"),
        line("Item", "Fee", "Band", breaks=(55.0, 115.0)),
        line("Check-up", "55", "Tier", breaks=(55.0, 115.0)),
        line("Group label"),
        line("Crown", "690", "Free", breaks=(55.0, 115.0)),
        line("Total", "6,637"),
    ]
    assert mixed_grids(lines) == {2, 3, 4, 5}


def _report_pdf(
    path: Path,
    title: str,
    rows: Sequence[Sequence[str]],
    bold: frozenset[int] = frozenset({0}),
    right: frozenset[int] = frozenset(),
    grid: str = "",
    pad: float = 6.0,
    pitch: float = 18.0,
    closer: int = 0,
) -> Path:
    """A table as a report tool sets it: each column as wide as its widest cell plus ``pad``
    points each side, the columns in ``right`` right-aligned, the rows in ``bold`` (the
    header's index 0) set in Helvetica-Bold, a row every ``pitch`` points. A cell written
    ``"£|45.00"`` sets its sign apart, at the cell's left, the figure at its right (an
    accounting layout). ``grid`` draws a line round every cell: ``"lines"`` each rule a
    path of its own, ``"path"`` the frame and every inner line in one path object. The
    first ``closer`` rows are set 12 points apart (a header cell's wrapped lines at the
    type's leading), their lowest line one ``pitch`` over the next row."""

    def text_width(cell: str, b: bool) -> float:
        sign, _, figure = cell.rpartition("|")
        return _width(figure, b) + (_width(sign, b) + 8.0 if sign else 0.0)

    widths = [
        max(text_width(r[c], n in bold) for n, r in enumerate(rows)) + 2 * pad
        for c in range(len(rows[0]))
    ]
    edges = [LEFT + sum(widths[:c]) for c in range(len(widths) + 1)]
    top = 740.0
    ops = [_at(78, 760, title)]
    for n, row in enumerate(rows):
        y = top - pitch * (max(n, closer - 1) + 1) + 5 + 12.0 * max(0, closer - 1 - n)
        font = "F3" if n in bold else "F1"
        for c, cell in enumerate(row):
            sign, _, figure = cell.rpartition("|")
            if sign:
                ops.append(_at(edges[c] + pad, y, sign, font=font))
            at = edges[c + 1] - pad - _width(figure, n in bold) if c in right else edges[c] + pad
            ops.append(_at(at, y, figure, font=font))
    bottom = top - pitch * len(rows)
    verticals = [(x, bottom, x, top) for x in edges]
    horizontals = [
        (edges[0], y, edges[-1], y) for y in (top - pitch * n for n in range(len(rows) + 1))
    ]
    if grid == "lines":
        ops += [
            f"0.5 w {a:.2f} {b:.2f} m {c:.2f} {d:.2f} l S"
            for a, b, c, d in [*verticals, *horizontals]
        ]
    elif grid == "path":
        frame = f"{edges[0]:.2f} {bottom:.2f} {edges[-1] - edges[0]:.2f} {top - bottom:.2f} re"
        inner = [
            f"{a:.2f} {b:.2f} m {c:.2f} {d:.2f} l"
            for a, b, c, d in [*verticals[1:-1], *horizontals[1:-1]]
        ]
        ops.append(" ".join(["0.5 w", frame, *inner, "S"]))
    return write_pdf(path, [[Line(raw=op) for op in ops]])


def test_a_currency_sign_set_apart_from_its_figure_is_no_cell(tmp_path: Path) -> None:
    """An accounting layout sets the sign at the left of an amount's cell and the figure at
    its right (``£   45.00``); in a short table (the word-table reader's) the signs were a
    column of their own or glued into the cell (before: no table read). The figure alone
    is the cell, as the statement reader has it."""
    rows = [
        ("Course", "Members", "Visitors"),
        ("Pottery", "£|45.00", "£|60.00"),
        ("Life drawing", "£|38.50", "£|52.00"),
        ("Printmaking", "£|41.00", "£|55.50"),
    ]
    table = _read(_report_pdf(tmp_path / "fees.pdf", "Course fees", rows, right=frozenset({1, 2})))
    assert table.columns == ["Members", "Visitors"]
    assert [r.describe() for r in table.rows] == [
        "Pottery — Members: 45.00; Visitors: 60.00",
        "Life drawing — Members: 38.50; Visitors: 52.00",
        "Printmaking — Members: 41.00; Visitors: 55.50",
    ]


#: A grid whose first body row, a total, is set in bold like its header.
MEMBERS = [
    ("Plan", "Members", "Monthly fee"),
    ("All plans", "1,240", "Various"),
    ("Standard", "610", "£32.00"),
    ("Premium", "420", "£45.00"),
    ("Family", "210", "£70.00"),
]


def test_a_bold_total_under_a_bold_header_is_a_row(tmp_path: Path) -> None:
    """A bold first row a row's pitch below a bold header, its label in the label column,
    is a row, not a second header line (before: ``Members 1,240`` named the column and
    the total was lost)."""
    path = _report_pdf(
        tmp_path / "members.pdf", "Membership", MEMBERS, frozenset({0, 1}), grid="lines"
    )
    table = _read(path)
    assert table.columns == ["Members", "Monthly fee"]
    assert [r.describe() for r in table.rows] == [
        f"{r[0]} — Members: {r[1]}; Monthly fee: {r[2]}" for r in MEMBERS[1:]
    ]


def test_a_wrapped_bold_header_set_at_the_leading_stays_the_header(tmp_path: Path) -> None:
    """The same table whose header wraps (``Monthly`` / ``fee``, the label head on its
    last line) set at the type's leading, closer than its rows: both lines name the
    columns."""
    rows = [("", "Paying", "Monthly"), ("Plan", "members", "fee"), *MEMBERS[2:]]
    pdf = tmp_path / "wrapped.pdf"
    path = _report_pdf(pdf, "Membership", rows, frozenset({0, 1}), grid="lines", closer=2)
    table = _read(path)
    assert table.columns == ["Paying members", "Monthly fee"]


#: Exam results whose first body row holds words only, under a header of words.
RESULTS_NA_FIRST = [
    ("Subject", "Entries", "Pass rate"),
    ("Music", "N/A", "N/A"),
    ("Maths", "120", "87%"),
    ("Physics", "64", "85%"),
    ("English", "134", "91%"),
    ("French", "41", "88%"),
]


def test_a_row_of_words_under_the_header_is_a_row(tmp_path: Path) -> None:
    """``Music  N/A  N/A`` right under the header, its words set on the value columns'
    edges, is the first row, ruled or not (before: ``Entries N/A`` named the column and
    the row was lost)."""
    for grid in ("lines", ""):
        path = _report_pdf(
            tmp_path / f"results{grid}.pdf",
            "Results",
            RESULTS_NA_FIRST,
            right=frozenset({1, 2}),
            grid=grid,
        )
        table = _read(path)
        assert table.columns == ["Entries", "Pass rate"], grid
        assert [r.describe() for r in table.rows] == [
            f"{r[0]} — Entries: {r[1]}; Pass rate: {r[2]}" for r in RESULTS_NA_FIRST[1:]
        ], grid


def test_a_sub_header_of_words_under_years_names_the_columns(tmp_path: Path) -> None:
    """``Unaudited`` / ``Restated`` under ``2025`` / ``2024`` (no label of its own) stays
    part of the header, as before."""
    rows = [
        ("Measure", "2025", "2024"),
        ("", "Unaudited", "Restated"),
        ("Revenue", "48,210", "45,960"),
        ("Operating profit", "6,115", "5,870"),
        ("Profit before tax", "5,402", "5,233"),
        ("Earnings per share (p)", "21.4", "20.6"),
    ]
    path = _report_pdf(
        tmp_path / "restated.pdf", "Results", rows, frozenset({0, 1}), frozenset({1, 2})
    )
    table = _read(path)
    assert table.columns == ["2025 Unaudited", "2024 Restated"]
    assert len(table.rows) == 4


def test_a_grid_drawn_as_one_path_parts_its_cells(tmp_path: Path) -> None:
    """A tight grid whose frame and inner lines are one path object: its vertical
    segments are the cell boundaries as separate rules are (before: no table read)."""
    path = _report_pdf(tmp_path / "grid.pdf", "Capitals", CAPITALS, pad=2.0, grid="path")
    table = _read(path)
    assert table.columns == ["Capital", "Currency"]
    assert [r.describe() for r in table.rows] == [
        f"{r[0]} — Capital: {r[1]}; Currency: {r[2]}" for r in CAPITALS[1:]
    ]


def test_a_row_of_words_between_rows_of_figures_is_a_row_of_the_statement(
    tmp_path: Path,
) -> None:
    """Unruled, figures right-aligned: ``Latin  N/A  N/A`` between two rows, its words set
    on the value columns' right edges, is a row (before: a group label naming the rows
    below it)."""
    rows = [
        ("Subject", "Entries", "Pass rate"),
        ("Maths", "120", "87%"),
        ("Physics", "64", "85%"),
        ("Latin", "N/A", "N/A"),
        ("English", "134", "91%"),
        ("French", "41", "88%"),
    ]
    path = _report_pdf(tmp_path / "results.pdf", "Results", rows, right=frozenset({1, 2}))
    table = _read(path)
    assert [r.describe() for r in table.rows] == [
        f"{r[0]} — Entries: {r[1]}; Pass rate: {r[2]}" for r in rows[1:]
    ]
