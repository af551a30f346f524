"""Document metadata inference: title, company, period and document type from what a loader has.

Pure functions over strings the caller passes in (file name, the parser's title, the text of
the first page or two); nothing here opens a file. The result goes into every chunk's metadata
so that retrieval can apply hard filters ("only Adobe's FY2022 filing") and the embedded
``title > section`` header carries a useful title instead of an EDGAR accession number.

Sources, best first: what the user supplied (``user``), the file name (``file_name``), the
cover page of a filing (``cover_page``), the document's title (``title``), the body of its
first page (``first_page``). Each attribute records where it came from.

Period labels (one vocabulary, shared with :mod:`chains.constraints`):

* ``FY2018`` — a fiscal year, named by the calendar year in which it **ends** ("the fiscal
  year ended January 28, 2017" is FY2017). A 52/53-week year that ends in the first seven days
  of January belongs to the year before ("fiscal year ended January 1, 2023" is FY2022).
* ``2023Q2`` — a quarter. From a 10-Q cover ("For the quarterly period ended June 30, 2023")
  the label is the **calendar quarter of the period end** (same seven-day rule), unless the
  cover names the fiscal quarter ("second quarter of fiscal 2024" gives ``2024Q2``). A file
  name such as ``BESTBUY_2024Q2_10Q.pdf`` is taken as the owner's (fiscal) label and wins.
* ``2023H1`` — a half year; ``2022`` — a calendar year (or a year of unknown kind);
  ``2022-05-04`` — a dated document such as an 8-K current report.
* A split year ("2024/25", "2024-25", "FY2024/25") is the fiscal year that **ends** in its
  second year: ``FY2025`` (the same convention as a period end: "year ended 31 March 2025" is
  ``FY2025``).

Stated or inferred: a period is **stated** when the document's own opening text says what
period it reports ("for the year ended 31 March 2025", "For the fiscal year ended December
31, 2018", "For the quarterly period ended July 29, 2023", "Date of Report ...", "reports
first-quarter 2023 results") — :func:`stated_period`, whose span is kept in
``period_span`` — or when the user supplied it. A period read only from a file name, a title
or a lone year is **inferred** (``period_source``). Where the text states an annual period
that a file name or title contradicts ("annual_report_2024.pdf" for the year ended 31 March
2025), the text wins. A quarter label from a filing's file name stays (the owner's fiscal
label) and counts as stated when the cover states a quarter of the same or the previous year.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Protocol

__all__ = [
    "DAY_MONTH_RE",
    "DEFAULT_EXTRACTORS",
    "MONTH_NAME_RE",
    "NUMERIC_DATE_RE",
    "CoverPageExtractor",
    "DocumentMetadata",
    "Extractor",
    "FileNameExtractor",
    "FilingsExtractor",
    "GenericExtractor",
    "StatedPeriod",
    "date_from_match",
    "fiscal_quarter_label",
    "fiscal_year_label",
    "infer_metadata",
    "is_meaningful_title",
    "name_variants",
    "normalize_doc_type",
    "numeric_dates",
    "parse_date",
    "period_years",
    "readable_file_name",
    "registrant_name",
    "split_year",
    "stated_dates",
    "stated_days",
    "stated_period",
    "strip_company_suffixes",
    "written_periods",
]

#: Attribute sources, most trusted first. A value from an earlier source always wins.
SOURCE_PRIORITY: tuple[str, ...] = ("user", "file_name", "cover_page", "title", "first_page")

#: Fields an extractor may return.
FIELDS: tuple[str, ...] = ("company", "period", "doc_type", "period_end", "company_aliases")

MONTHS: dict[str, int] = {
    name: i
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
_MONTH_RE = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
#: A month's name or abbreviation ("March", "Mar", "Sept."): the key into :data:`MONTHS`
#: once lower-cased and stripped of its full stop.
MONTH_NAME_RE = _MONTH_RE
#: "December 31, 2018", "Dec. 31 2018", "1st July 2022", "31 December 2018", "2022-07-01".
DATE_RE = re.compile(
    rf"(?P<md>(?P<m1>{_MONTH_RE})\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\s*,?\s*(?P<y1>(?:19|20)\d\d))"
    rf"|(?P<dm>(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m2>{_MONTH_RE})\s*,?\s*(?P<y2>(?:19|20)\d\d))"
    r"|(?P<iso>(?P<y3>(?:19|20)\d\d)-(?P<m3>\d\d)-(?P<d3>\d\d))",
    re.IGNORECASE,
)
YEAR_RE = re.compile(r"(?<![\d$£€.,])(?:19[5-9]\d|20[0-4]\d)(?![\d%])")

ORDINALS: dict[str, int] = {
    "first": 1,
    "1st": 1,
    "second": 2,
    "2nd": 2,
    "third": 3,
    "3rd": 3,
    "fourth": 4,
    "4th": 4,
}

# Legal-form suffixes stripped to get the name people use ("3M Company" -> "3M").
_SUFFIXES = (
    "incorporated",
    "inc",
    "corporation",
    "corp",
    "company",
    "co",
    "companies",
    "plc",
    "ltd",
    "limited",
    "llc",
    "lp",
    "l p",
    "holdings",
    "holding",
    "group",
    "sa",
    "ag",
    "nv",
    "se",
    "the",
)
#: The suffixes that only state a company's legal form ("Ltd", "Inc.", "GmbH"): words a
#: question may add to a name or leave out ("Greenleaf Trust Ltd." is Greenleaf Trust).
#: "Company", "Group" and "Holdings" are left out: they are also ordinary words.
LEGAL_FORMS = frozenset(
    (set(_SUFFIXES) - {"company", "companies", "group", "holdings", "holding", "the", "l p"})
    | {"gmbh", "pty", "llp", "bv", "srl", "spa", "ab"}
)
_LEGAL_CAPS = {"plc": "plc", "llc": "LLC", "lp": "LP", "nv": "NV", "sa": "SA", "ag": "AG"}
_SMALL_WORDS = {
    "inc": "Inc",
    "co": "Co",
    "corp": "Corp",
    "ltd": "Ltd",
    "the": "The",
    "and": "and",
    "of": "of",
    "for": "for",
}

_DOC_TYPES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^10-?k(?:405|sb)?$|^10-?k/a$"), "10-K"),
    (re.compile(r"^10-?q(?:sb)?$|^10-?q/a$"), "10-Q"),
    (re.compile(r"^8-?k$"), "8-K"),
    (re.compile(r"^20-?f$"), "20-F"),
    (re.compile(r"^40-?f$"), "40-F"),
    (re.compile(r"^6-?k$"), "6-K"),
    (re.compile(r"^s-?1$"), "S-1"),
    (re.compile(r"^(?:def ?14a|proxy(?: statement)?)$"), "proxy statement"),
    (re.compile(r"^earnings(?: release| call| report)?$|^press release$"), "earnings"),
    (re.compile(r"^annual(?: report)?$|^ar$"), "annual report"),
    (re.compile(r"^quarterly(?: report)?$"), "quarterly report"),
    (re.compile(r"^interim(?: report)?$"), "interim report"),
    (re.compile(r"^transcript$"), "transcript"),
)
_ANNUAL_TYPES = {"10-K", "20-F", "40-F", "annual report"}
_QUARTERLY_TYPES = {"10-Q", "quarterly report", "interim report"}
_DATED_TYPES = {"8-K", "6-K"}

# Words in a file name that describe the document rather than name its subject.
_GENERIC_NAME_WORDS = {
    "annual",
    "report",
    "reports",
    "quarterly",
    "interim",
    "results",
    "earnings",
    "financial",
    "financials",
    "statement",
    "statements",
    "release",
    "press",
    "draft",
    "final",
    "copy",
    "scan",
    "document",
    "doc",
    "file",
    "filing",
    "form",
    "fy",
    "full",
    "year",
    "dated",
    "proxy",
    "transcript",
    "call",
    "presentation",
    "update",
    "new",
    "old",
    "revised",
    "signed",
    "public",
    "version",
}


# ---------------------------------------------------------------------------------------------
# small shared helpers (also used by chains.constraints)


def parse_date(text: str) -> date | None:
    """Parse the first date in ``text`` ("December 31, 2018", "1st July 2022", "2022-07-01").

    Args:
        text: Any text.

    Returns:
        The date, or ``None`` when there is none (or it is not a valid calendar date).
    """
    m = DATE_RE.search(text)
    return date_from_match(m) if m else None


def date_from_match(m: re.Match[str]) -> date | None:
    """The date a :data:`DATE_RE` match denotes (``None`` if not a valid calendar date)."""
    try:
        if m.group("md"):
            mon = MONTHS[m.group("m1").lower().rstrip(".")]
            return date(int(m.group("y1")), mon, int(m.group("d1")))
        if m.group("dm"):
            mon = MONTHS[m.group("m2").lower().rstrip(".")]
            return date(int(m.group("y2")), mon, int(m.group("d2")))
        return date(int(m.group("y3")), int(m.group("m3")), int(m.group("d3")))
    except (KeyError, ValueError):
        return None


#: A date written in figures: day and month in either order before the year ("3/11/2025",
#: "03.11.25", "3-11-2025") or the year first, then month and day ("2025-11-03",
#: "2025/11/03"); one separator (``/``, ``.`` or ``-``) throughout. Not part of a longer run of
#: figures ("1.3.11.2025", "020-7946-0018").
NUMERIC_DATE_RE = re.compile(
    r"(?<![\d/.-])(?:(?P<y1>(?:19|20)\d\d)(?P<s1>[/.-])(?P<m1>\d{1,2})(?P=s1)(?P<d1>\d{1,2})"
    r"|(?P<a>\d{1,2})(?P<s2>[/.-])(?P<b>\d{1,2})(?P=s2)(?P<y2>(?:19|20)\d\d|\d\d))"
    r"(?!\d|[/.-]\d)"
)
#: A day of a month with or without its year: "3 November", "3rd of Nov.", "November 3",
#: "Nov 3rd" (the year after it is :data:`DATE_RE`'s business).
DAY_MONTH_RE = re.compile(
    rf"(?<![\d.,/-])(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m1>{_MONTH_RE})(?![a-z])"
    rf"|\b(?P<m2>{_MONTH_RE})\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?(?![\d.,]\d|\d|[a-z])",
    re.IGNORECASE,
)


def numeric_dates(m: re.Match[str]) -> tuple[date, ...]:
    """The dates a :data:`NUMERIC_DATE_RE` match may denote: ``2025-11-03`` one; ``3/11/2025``
    two, day first (3 November) and month first (11 March), the one that is a calendar date
    when the other is not ("11/13/2025": 13 November); ``()`` when neither is.

    Args:
        m: A match of :data:`NUMERIC_DATE_RE`.
    """
    if m.group("y1"):
        year, readings = int(m.group("y1")), [(int(m.group("m1")), int(m.group("d1")))]
    else:
        y = m.group("y2")
        year = _two_digit_year(y)  # "25": 2025, as the file-name and title rules read it
        a, b = int(m.group("a")), int(m.group("b"))
        readings = [(b, a), (a, b)]  # (month, day): day first, then month first
    out: list[date] = []
    for month, day in readings:
        try:
            d = date(year, month, day)
        except ValueError:
            continue
        if d not in out:
            out.append(d)
    return tuple(out)


def stated_dates(text: str) -> frozenset[date]:
    """Every whole date ``text`` writes, in words or figures ("3 November 2025", "3rd Nov
    2025", "November 3, 2025", "2025-11-03"; "03/11/2025" both as 3 November and 11 March).

    Args:
        text: Any text.
    """
    out = {d for m in DATE_RE.finditer(text) if (d := date_from_match(m)) is not None}
    for m in NUMERIC_DATE_RE.finditer(text):
        out.update(numeric_dates(m))
    return frozenset(out)


def stated_days(text: str) -> frozenset[tuple[int, int]]:
    """Every ``(month, day)`` ``text`` writes, with its year or without ("3 November", "Nov
    3rd", "3 November 2025" and "03/11/2025" all give ``(11, 3)``; "03/11/2025" also
    ``(3, 11)``); days that no month has (31 April) left out.

    Args:
        text: Any text.
    """
    out = {(d.month, d.day) for d in stated_dates(text)}
    for m in DAY_MONTH_RE.finditer(text):
        month = MONTHS.get((m.group("m1") or m.group("m2")).lower().rstrip("."))
        day = int(m.group("d1") or m.group("d2"))
        if month is not None and 1 <= day <= _month_days(month):
            out.add((month, day))
    return frozenset(out)


def _month_days(month: int) -> int:
    """The most days ``month`` has (February: 29)."""
    return 30 if month in (4, 6, 9, 11) else 29 if month == 2 else 31


def _effective_date(end: date) -> date:
    """Move a period end in the first seven days of a month back into the previous month."""
    if end.day > 7:
        return end
    if end.month == 1:
        return date(end.year - 1, 12, 28)
    return date(end.year, end.month - 1, 28)


def fiscal_year_label(end: date) -> str:
    """Label the fiscal year that ends on ``end``: the calendar year it ends in.

    A year ending in the first seven days of January (52/53-week years) belongs to the year
    before: ``date(2023, 1, 1)`` -> ``FY2022``; ``date(2017, 1, 28)`` -> ``FY2017``.

    Args:
        end: Last day of the fiscal year.

    Returns:
        A label such as ``FY2018``.
    """
    return f"FY{_effective_date(end).year}"


def fiscal_quarter_label(end: date) -> str:
    """Label a quarter by the calendar quarter of its period end (seven-day rule as above).

    Args:
        end: Last day of the quarter.

    Returns:
        A label such as ``2023Q2`` (``date(2023, 6, 30)``); ``date(2022, 10, 2)`` -> ``2022Q3``.
    """
    eff = _effective_date(end)
    return f"{eff.year}Q{(eff.month - 1) // 3 + 1}"


_LABEL_RE = re.compile(
    r"^(?:FY(?P<fy>\d{4})|(?P<qy>\d{4})Q(?P<q>[1-4])|(?P<hy>\d{4})H(?P<h>[12])"
    r"|(?P<cy>\d{4})|(?P<dy>\d{4})-\d\d-\d\d)$"
)


def period_years(label: str | None) -> tuple[int, ...]:
    """The year a period label is about (``FY2022`` -> ``(2022,)``; unknown -> ``()``).

    Args:
        label: A period label from this module's vocabulary.

    Returns:
        A one-element tuple with the year, or an empty tuple.
    """
    if not label:
        return ()
    m = _LABEL_RE.match(label)
    if not m:
        return ()
    year = next(g for g in (m["fy"], m["qy"], m["hy"], m["cy"], m["dy"]) if g)
    return (int(year),)


#: "2024/25", "2024-25", "2024/2025", "FY2024/25", "FY24/25": a split (fiscal) year.
SPLIT_YEAR_RE = re.compile(
    r"(?<![\d/])(?:FY\s*'?(?P<a>\d\d)|(?:FY\s*)?(?P<b>(?:19|20)\d\d))"
    r"\s*(?P<sep>[/–-])\s*(?P<c>(?:19|20)\d\d|\d\d)(?![\d/%])",
    re.IGNORECASE,
)


def split_year(m: re.Match[str]) -> int | None:
    """The year a :data:`SPLIT_YEAR_RE` match ends in (``2024/25`` -> 2025), or ``None``.

    Only consecutive years count, and a four-digit second year only after a slash
    ("2024/2025"; "2024-2025" is a range of two years); "2019-21" is not a split year.

    Args:
        m: A match of :data:`SPLIT_YEAR_RE`.

    Returns:
        The second (ending) year, or ``None``.
    """
    first = m.group("a") or m.group("b")
    second = m.group("c")
    if len(second) == 4 and m.group("sep") != "/":
        return None
    y1 = int(first) if len(first) == 4 else 2000 + int(first)
    if len(first) == 2 and len(second) == 2 and int(second) < int(first):
        y1 -= 100  # "FY99/00" began in 1999
    y2 = int(second) if len(second) == 4 else (y1 // 100) * 100 + int(second)
    if len(second) == 2 and y2 < y1:
        y2 += 100  # "1999/00" ends in 2000
    return y2 if y2 == y1 + 1 else None


#: A single year as a table's column name or a question writes it ("2025", "FY2024").
_SINGLE_YEAR_RE = re.compile(r"(?<![\d£$€.,])(?:FY\s?)?((?:19[5-9]|20[0-4])\d)(?!\d)", re.I)


def written_periods(text: str) -> list[tuple[int, int, frozenset[int]]]:
    """The years a short text (a column name, a question) writes, each as ``(start, end,
    years)`` in text order: a split year (:data:`SPLIT_YEAR_RE`, "2024/25", "FY24/25",
    "1999/00") gives both of its years, any other year ("2025", "FY2024") itself; a range
    ("2024-2025") is two years; a date in figures gives its year ("15/06/2027",
    "2027-06-15", "15.06.2027"); a figure after a currency sign or a decimal point
    ("£2024/25", "1.2024") is no period.

    Args:
        text: The text to read.
    """
    out: list[tuple[int, int, frozenset[int]]] = []
    for m in SPLIT_YEAR_RE.finditer(text):
        end = split_year(m)
        if end is not None and not (m.start() and text[m.start() - 1] in "£$€.,"):
            out.append((m.start(), m.end(), frozenset({end - 1, end})))
    for m in _SINGLE_YEAR_RE.finditer(text):
        if not any(s <= m.start() < e for s, e, _ in out):
            out.append((m.start(), m.end(), frozenset({int(m.group(1))})))
    out += _dotted_date_years(text)
    return sorted(out, key=lambda p: p[0])


#: A date written with dots, day first ("15.06.2027"): its year follows a dot, which
#: :data:`_SINGLE_YEAR_RE` reads as a decimal point.
_DOTTED_DATE_RE = re.compile(r"(?<![\w.,])\d{1,2}\.\d{1,2}\.((?:19[5-9]|20[0-4])\d)(?![\w]|[.,]\d)")


def _dotted_date_years(text: str) -> list[tuple[int, int, frozenset[int]]]:
    """The years of the dotted dates of ``text`` ("15.06.2027" writes 2027), as
    :func:`written_periods` gives them (the year's span)."""
    return [
        (m.start(1), m.end(1), frozenset({int(m.group(1))})) for m in _DOTTED_DATE_RE.finditer(text)
    ]


@dataclass(frozen=True)
class StatedPeriod:
    """A reporting period the document's own text states.

    Attributes:
        label: The period label (``FY2025``, ``2023Q3``, ``2022-05-04``).
        kind: ``annual``, ``quarter`` or ``dated``.
        text: The span of the text that states it ("for the year ended 31 March 2025").
        start: Offset of the span in the text searched.
        end: End offset of the span.
        end_date: ISO date of the period end (or the report date).
    """

    label: str
    kind: str
    text: str
    start: int
    end: int
    end_date: str


_STATED_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("annual", re.compile(r"\b(?:(?:fiscal|financial)\s+)?year\s+(?:ended|ending|to)\s*:?\s*(?:on\s+)?", re.I)),  # noqa: E501
    ("annual", re.compile(r"\b(?:twelve|12)\s+months\s+(?:ended|ending|to)\s*:?\s*", re.I)),
    ("annual", re.compile(r"\b5[23][\s-]+weeks\s+ended\s*:?\s*", re.I)),
    ("quarter", re.compile(r"\bquarterly\s+period\s+ended\s*:?\s*", re.I)),
    ("quarter", re.compile(r"\b(?:three|3|thirteen|13)[\s-]+(?:months|weeks)\s+ended\s*:?\s*", re.I)),  # noqa: E501
    ("dated", re.compile(r"date\s+of\s+report\s*(?:\(date\s+of\s+earliest\s+event\s+reported\))?\s*:?\s*", re.I)),  # noqa: E501
)  # fmt: skip
_STATED_FY = re.compile(
    r"\b(?:fiscal|financial)\s+year\s+(?:(?P<split>(?:19|20)\d\d\s*[/–-]\s*\d{2,4})|(?P<y>(?:19|20)\d\d))\b",
    re.I,
)
_STATED_QUARTER = re.compile(
    r"\b(?:reports?|announces?|announced|reported)\b[^.]{0,60}?\b(first|second|third|fourth)[\s-]+"
    r"quarter\s+(?:(?:of\s+)?(fiscal)\s+(?:year\s+)?)?((?:19|20)\d\d)\b",
    re.I,
)


def stated_period(text: str) -> StatedPeriod | None:
    """The reporting period a document's opening text states, if it states one.

    Read: "for the (fiscal/financial) year ended/ending/to <date>", "twelve months ended",
    "52 weeks ended" (annual, ``FY<year the year ends in>``, seven-day rule); "for the
    quarterly period ended <date>", "three months ended" (a quarter: the fiscal quarter the
    text names, "second quarter of fiscal 2024", else the calendar quarter of the end);
    "Date of Report: <date>" (dated); "financial year 2024/25" (``FY2025``); an earnings
    headline "reports first-quarter 2023 results". Annual statements win over quarterly
    ones (a 10-K cover also mentions quarters); among several of one kind the latest period
    end wins (comparatives are earlier).

    Args:
        text: The opening text (first page or two).

    Returns:
        The stated period with its span, or ``None``.
    """
    found: list[tuple[int, StatedPeriod]] = []
    kind_rank = {"annual": 0, "quarter": 1, "dated": 2}
    for kind, cue in _STATED_CUES:
        for m in cue.finditer(text):
            d_m = DATE_RE.match(text, m.end())
            if d_m is None:
                continue
            d = date_from_match(d_m)
            if d is None:
                continue
            start = m.start()
            # include the "for the" before the cue in the span shown
            lead = re.search(r"for\s+the\s+$", text[max(0, start - 10) : start], re.I)
            if lead:
                start -= len(lead.group(0))
            if kind == "annual":
                label = fiscal_year_label(d)
            elif kind == "quarter":
                fq = _FISCAL_Q_RE.search(text[: m.end() + 400])
                if fq:
                    ordinal = fq.group(1) or fq.group(4)
                    label = f"{fq.group(2) or fq.group(3)}Q{ORDINALS[ordinal.lower()]}"
                else:
                    label = fiscal_quarter_label(d)
            else:
                label = d.isoformat()
            span = text[start : d_m.end()]
            found.append(
                (kind_rank[kind], StatedPeriod(label, kind, span, start, d_m.end(), d.isoformat()))
            )
    for m in _STATED_FY.finditer(text):
        if m.group("split"):
            sm = SPLIT_YEAR_RE.search(m.group("split"))
            year = split_year(sm) if sm else None
        else:
            year = int(m.group("y"))
        if year is None:
            continue
        found.append(
            (
                kind_rank["annual"],
                StatedPeriod(f"FY{year}", "annual", m.group(0), m.start(), m.end(), ""),
            )
        )
    for m in _STATED_QUARTER.finditer(text[:2000]):
        label = f"{m.group(3)}Q{ORDINALS[m.group(1).lower()]}"
        stated = StatedPeriod(label, "quarter", m.group(0), m.start(), m.end(), "")
        found.append((kind_rank["quarter"], stated))
    if not found:
        return None
    best_kind = min(k for k, _ in found)
    same = [p for k, p in found if k == best_kind]
    dated = [p for p in same if p.end_date]
    if dated:
        latest = max(p.end_date for p in dated)
        return next(p for p in dated if p.end_date == latest)
    return same[0]


def normalize_doc_type(text: str) -> str | None:
    """Map a spelling of a document type to its canonical name (``10k`` -> ``10-K``).

    Args:
        text: ``10K``, ``10-k``, ``8K``, ``EARNINGS``, ``annual report``, ...

    Returns:
        ``10-K``, ``10-Q``, ``8-K``, ``20-F``, ``earnings``, ``annual report``, ... or ``None``.
    """
    key = re.sub(r"[\s_]+", " ", text.strip().lower())
    for pattern, canonical in _DOC_TYPES:
        if pattern.match(key):
            return canonical
    return None


def _smart_case(word: str, alone: bool = False) -> str:
    """Title-case one ALL-CAPS word; acronyms (digits, no vowels, <= 3 letters) stay upper."""
    low = word.lower()
    bare = re.sub(r"[^a-z]", "", low)
    core = word.strip(".,")
    if bare in _LEGAL_CAPS and core:
        return word.replace(core, _LEGAL_CAPS[bare])
    if bare in _SMALL_WORDS and core:
        return word.replace(core, _SMALL_WORDS[bare])
    if any(c.isdigit() for c in word) or (bare and not re.search(r"[aeiouy]", bare)):
        return word
    if len(bare) <= 3 and alone:
        return word
    return "-".join(p[:1].upper() + p[1:] for p in low.split("-"))


def display_name(name: str) -> str:
    """Tidy a company name for display: collapse spaces, fix case only if it is ALL CAPS.

    Args:
        name: A name as found ("AMERICAN WATER WORKS COMPANY, INC.", "NIKE, Inc .").

    Returns:
        "American Water Works Company, Inc.", "NIKE, Inc."
    """
    name = re.sub(r"\s+", " ", name).strip(" ,;:-–—")
    name = re.sub(r"\s+([.,])", r"\1", name)
    letters = [c for c in name if c.isalpha()]
    if letters and all(c.isupper() for c in letters):
        words = name.split(" ")
        name = " ".join(_smart_case(w, alone=len(words) == 1) for w in words)
    return name


def _norm_words(name: str) -> list[str]:
    """Lower-case word list of a name, ``&``/``and`` kept as ``&``, punctuation dropped."""
    name = name.replace("’", "'").lower()
    name = re.sub(r"'s\b", "", name)
    words = re.findall(r"[a-z0-9]+|&", name.replace(".", ""))
    return ["&" if w == "and" else w for w in words]


def strip_company_suffixes(name: str) -> str:
    """Remove legal-form suffixes and a leading "The" ("The Boeing Company" -> "Boeing").

    Args:
        name: A company name.

    Returns:
        The name without trailing Inc./Corp./Corporation/Co./Company/plc/Ltd/Holdings/Group
        (repeatedly, keeping at least one word) and without a leading "The", original casing.
    """
    words = name.replace(",", " ").split()
    if len(words) > 1 and words[0].lower() == "the":
        words = words[1:]
    while len(words) > 1:
        last = re.sub(r"[^a-z]", "", words[-1].lower())
        if last in _SUFFIXES or words[-1] == "&":
            words = words[:-1]
        elif (
            len(words) > 2
            and words[-2] in {"&", "and"}
            and re.sub(r"[^a-z]", "", words[-1].lower()) in _SUFFIXES
        ):
            words = words[:-2]
        else:
            break
    return " ".join(words).strip(" ,.")


def name_variants(name: str) -> set[str]:
    """Compact lookup keys for a company name: case, punctuation and spacing removed.

    ``&`` and ``and`` are dropped (so "Johnson & Johnson", "Johnson and Johnson" and
    "JOHNSON_JOHNSON" share the key ``johnsonjohnson``), and every form obtained by stripping
    legal suffixes one at a time is included ("American Water Works Company, Inc." gives
    ``americanwaterworkscompanyinc``, ``americanwaterworkscompany``, ``americanwaterworks``).

    Args:
        name: A company name or alias.

    Returns:
        The set of keys (never empty strings).
    """
    words = [w for w in _norm_words(name.replace("_", " "))]
    keys: set[str] = set()
    forms = [words]
    if len(words) > 1 and words[0] == "the":
        forms.append(words[1:])
    out: list[list[str]] = []
    for form in forms:
        cur = list(form)
        out.append(cur)
        while len(cur) > 1 and (cur[-1] in _SUFFIXES or cur[-1] == "&"):
            cur = cur[:-1]
            out.append(cur)
    for form in out:
        key = "".join(w for w in form if w != "&")
        if key:
            keys.add(key)
    return keys


# ---------------------------------------------------------------------------------------------
# titles


_ACCESSION = re.compile(r"^\d{10}-\d{2}-\d{6}$")
_UUID = re.compile(r"^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$", re.I)
_HEX = re.compile(r"^(?:0x)?[0-9a-f]{12,}$", re.I)
_FILE_NAME = re.compile(
    r"^[\w\-. ]+\.(?:pdf|docx?|xlsx?|pptx?|html?|txt|md|rtf|odt|csv|json|xml)$", re.I
)
_EDITOR_PREFIX = re.compile(
    r"^(?:microsoft (?:word|powerpoint|excel)|untitled|document\d*|presentation\d*)\s*-\s*",
    re.I,
)
_BOILERPLATE_TITLES = {
    "untitled",
    "document",
    "untitled document",
    "title",
    "no title",
    "none",
    "null",
    "page 1",
    "table of contents",
    "contents",
    "cover",
    "cover page",
    "draft",
    "final",
    "pdf",
    "scan",
    "scanned document",
    "united states securities and exchange commission",
    "securities and exchange commission",
    "united states",
}


def is_meaningful_title(text: str | None) -> bool:
    """Whether a title says something about the document to a reader (and to an embedder).

    Rejects EDGAR accession numbers (``0001018724-18-000005``), UUIDs, hex hashes, editor
    artefacts ("Microsoft Word - draft3.docx"), placeholders ("Untitled", "Document"),
    generic cover lines ("UNITED STATES SECURITIES AND EXCHANGE COMMISSION"), bare file
    names, strings shorter than 3 or longer than 200 characters, strings without a word of
    three letters ("3M 2018 10K") and strings with more than twice as many digits as letters.

    Args:
        text: A candidate title (``None`` is not meaningful).

    Returns:
        ``True`` when the title is worth showing and embedding.
    """
    if not text:
        return False
    t = re.sub(r"\s+", " ", text).strip()
    if len(t) < 3 or len(t) > 200:
        return False
    if _ACCESSION.match(t) or _UUID.match(t) or _HEX.match(t.replace(" ", "")):
        return False
    if _EDITOR_PREFIX.match(t) or _FILE_NAME.match(t):
        return False
    if re.sub(r"[^a-z ]", "", t.lower()).strip() in _BOILERPLATE_TITLES:
        return False
    letters = sum(c.isalpha() for c in t)
    digits = sum(c.isdigit() for c in t)
    return bool(re.search(r"[A-Za-z]{3}", t)) and digits <= 2 * letters


def readable_file_name(name: str) -> str:
    """A file name as a human title: extension dropped, ``_`` and word hyphens to spaces.

    ``3M_2018_10K.pdf`` -> ``3M 2018 10K``; ``annual_report_2025.pdf`` -> ``Annual report
    2025``; ``AMCOR_2022_8K_dated-2022-07-01.pdf`` -> ``AMCOR 2022 8K dated 2022-07-01``.
    Hyphens inside ``10-K`` or dates stay. A name whose first word is all lower case gets a
    capital first letter.

    Args:
        name: A file name or path (only the last component is used).

    Returns:
        The readable name.
    """
    base = re.split(r"[\\/]", name)[-1]
    stem = re.sub(r"\.[A-Za-z0-9]{1,5}$", "", base) if "." in base else base
    stem = stem.replace("_", " ")
    stem = re.sub(r"(?<=[A-Za-z]{2})-(?=[A-Za-z0-9]{2})", " ", stem)
    stem = re.sub(r"\s+", " ", stem).strip()
    first = stem.split(" ")[0] if stem else ""
    if first.isalpha() and first == first.lower():
        stem = stem[0].upper() + stem[1:]
    return stem


def file_title(name: str) -> str:
    """A loader's title for a file with no title of its own: its name without the extension,
    ``_`` read as a space (``fees_and_deadlines_2026.xlsx`` -> ``fees and deadlines 2026``:
    words, not one keyword, in every chunk's embedded header). Case and hyphens stay as
    written (:func:`readable_file_name` is the reader-facing form inference falls back to).

    Args:
        name: A file name or path (only the last component is used).
    """
    base = re.split(r"[\\/]", name)[-1]
    stem = base.rsplit(".", 1)[0] if "." in base.lstrip(".") else base
    return stem.replace("_", " ")


#: Most lines of a document's opening read as its title. Two ("Cornmarket Dental Practice"
#: over "Cancellation, Missed Appointment and Complaints Policy") made headers long enough to
#: pull a chunk's vector towards the title: on the nine unseen corpora's calibration halves
#: (2026-12-06) two lines lost a right answer that one line keeps.
OPENING_TITLE_LINES = 1
#: Most words and characters of one title line.
OPENING_TITLE_WORDS = 14
OPENING_TITLE_CHARS = 120
#: Characters read per line looked at (blank lines and a long first line included).
OPENING_READ_CHARS = 1000
#: Share of a title line's words (small words aside) written with a capital.
OPENING_TITLE_CAPITALS = 0.75
#: Most words of a sentence-case title line ("Delivery schedule, winter 2026/27").
OPENING_SENTENCE_CASE_WORDS = 8
_TITLE_SMALL_WORDS = frozenset(
    (
        "a", "an", "the", "and", "or", "but", "nor", "of", "to", "in", "on", "at", "by", "for",
        "from", "with", "as", "vs", "per", "via",
    )
)  # fmt: skip
_TITLE_WORD = re.compile(r"[^\W\d_][\w'’.&-]*")
_LIST_OPENER = re.compile(r"\s*(?:[-*+•▪◦‣]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)])\s+\S")
_TITLE_ENDS_NOT = (".", "!", "?", ";", ":", ",", "-", "–", "—", "(", "/", "&")


def _title_line(line: str, following: str, *, joins: bool) -> bool:
    """Whether one line of a document's opening reads as (part of) its title.

    Short, not a list item, no sentence punctuation at its end nor two sentences in it, not
    ending as a wrapped line of prose does, and written as a title: most of its words with a
    capital, or (the first line only) a short sentence-case line followed by a line that
    opens with a capital or a figure. A line joining the one above it (``joins``) is written
    with capitals and is no ``label: value`` field and no address or date opening with a figure.
    """
    text = " ".join(line.split())
    if not text or len(text) > OPENING_TITLE_CHARS or _LIST_OPENER.match(text):
        return False
    if text.endswith(_TITLE_ENDS_NOT) or re.search(r"[.!?;]\s", text):
        return False
    words = _TITLE_WORD.findall(text)
    if not words or len(text.split()) > OPENING_TITLE_WORDS:
        return False
    if words[-1].lower() in _TITLE_SMALL_WORDS:
        return False  # "... the annual meeting of the": prose wrapped onto the next line
    content = [w for w in words if w.lower() not in _TITLE_SMALL_WORDS]
    if not content:
        return False
    if joins and (": " in text or text[0].isdigit()):
        return False
    if sum(w[0].isupper() for w in content) >= OPENING_TITLE_CAPITALS * len(content):
        return True
    nxt = following.strip()
    return (
        not joins
        and len(text.split()) <= OPENING_SENTENCE_CASE_WORDS
        and bool(nxt)
        and (nxt[0].isupper() or nxt[0].isdigit())
    )


def _name_words(text: str) -> set[str]:
    """A name's content words, lower case, apostrophes dropped, a plural's ``s`` too."""
    words = re.findall(r"[^\W\d_]+", re.sub(r"['’]", "", text.lower()))
    return {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words if len(w) >= 3} - {
        "and",
        "the",
        "for",
        "with",
        "from",
    }


def opening_title(text: str, file_name: str, max_lines: int = OPENING_TITLE_LINES) -> str | None:
    """The title a document's first lines show, when its file name agrees.

    A PDF, a scan or a text file often has no title of its own (no ``/Title``, or one that
    is only the file name), while its first page opens with one: "Pemberton Oakes LLP -
    Anti-Money Laundering and Client Identification Policy" above the body of
    ``aml_client_identification_policy.pdf``. Up to ``max_lines`` leading lines that read
    as a title (:func:`_title_line`) are that title, joined by `` — ``.

    A first line is not always a title (a letterhead, "UNITED STATES SECURITIES AND
    EXCHANGE COMMISSION", "Table of Contents"), and nothing in plain text says which it is;
    so the lines are taken only when the file name agrees: at least half of its words
    (:func:`readable_file_name`, three letters or more) are among theirs. Otherwise the file
    name stays the title (``lease_renewal_letter.pdf`` under a landlord's letterhead).

    Args:
        text: The document's opening text (its first page).
        file_name: The file's name.
        max_lines: Most lines taken (:data:`OPENING_TITLE_LINES`).

    Returns:
        The title, or ``None``.
    """
    head = text[: (max_lines + 1) * OPENING_READ_CHARS]  # a long file is not split whole
    lines = [ln for ln in head.split("\n") if ln.strip()][: max_lines + 1]
    taken: list[str] = []
    for i, line in enumerate(lines[:max_lines]):
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if not _title_line(line, following, joins=bool(taken)):
            break
        taken.append(" ".join(line.split()))
    title = " — ".join(taken)
    if not title or not is_meaningful_title(title):
        return None
    named = _name_words(readable_file_name(file_name))
    if not named or 2 * len(named & _name_words(title)) < len(named):
        return None
    return title


def names_only_the_file(title: str, file_name: str) -> bool:
    """Whether a parser's title is only the file's own name ("leafline_warranty" in the
    ``/Title`` of ``leafline_warranty.pdf``, as scanners and converters write it)."""

    def norm(text: str) -> str:
        return " ".join(re.findall(r"\w+", readable_file_name(text).lower().replace("_", " ")))

    return bool(title.strip()) and norm(title) == norm(file_name)


# ---------------------------------------------------------------------------------------------
# the metadata record


@dataclass(frozen=True)
class DocumentMetadata:
    """What a document is about, for chunk metadata, hard filters and the embedded header.

    Attributes:
        title: Display title (never an accession number or a hash when anything better exists).
        title_source: ``user``, ``pdf_title`` / ``html_title`` / ``front_matter`` (the
            parser's title), ``first_heading``, ``file_name``, or ``inferred`` (built from the
            company, type and period when neither title nor file name is meaningful).
        company: Company (or other subject) name, or ``None``.
        period: Period label (``FY2022``, ``2023Q2``, ``2022-05-04``, ...; see the module
            docstring), or ``None``.
        doc_type: ``10-K``, ``10-Q``, ``8-K``, ``earnings``, ``annual report``, ... or ``None``.
        period_end: ISO date of the period end read from a cover page, or ``None``.
        company_aliases: Other names of the company found in the document (the registrant's
            full legal name, a former name, the trading symbol), for the question gazetteer.
        years: Years the document is about (from its period, else from its title).
        attributes_source: Source of each attribute that has a value (``user``,
            ``file_name``, ``cover_page``, ``title``, ``first_page``).
        period_source: ``stated`` (the document's text states its period, or the user
            supplied it) or ``inferred`` (file name, title, a lone year); ``None`` without a
            period. Only stated periods are hard filters (see :mod:`chains.constraints`).
        period_span: The text that states the period ("for the year ended 31 March 2025"),
            ``user`` for a user-supplied period, ``None`` when inferred.
    """

    title: str
    title_source: str
    company: str | None = None
    period: str | None = None
    doc_type: str | None = None
    period_end: str | None = None
    company_aliases: tuple[str, ...] = ()
    years: tuple[int, ...] = ()
    attributes_source: Mapping[str, str] = field(default_factory=dict)
    period_source: str | None = None
    period_span: str | None = None

    def to_metadata(self) -> dict[str, Any]:
        """Flat dict for chunk metadata (scalar values, so dict filters can test them).

        Returns:
            ``title``, ``company``, ``period``, ``period_source``, ``period_span``,
            ``doc_type``, ``period_end``, ``years`` (list of ints) and ``company_aliases``
            (list of str).
        """
        return {
            "title": self.title,
            "company": self.company,
            "period": self.period,
            "period_source": self.period_source,
            "period_span": self.period_span,
            "doc_type": self.doc_type,
            "period_end": self.period_end,
            "years": list(self.years),
            "company_aliases": list(self.company_aliases),
        }


Found = dict[str, tuple[Any, str]]


class Extractor(Protocol):
    """Something that reads document attributes from the file name, title and first page."""

    def extract(self, file_name: str, title: str | None, first_page_text: str) -> Found:
        """Return ``{field: (value, source)}`` for the fields it found (see ``FIELDS``)."""
        ...


# ---------------------------------------------------------------------------------------------
# filings: file-name conventions and SEC cover pages


_YEAR_TOKEN = re.compile(
    r"^(?:(?P<y>(?:19|20)\d\d)(?:q(?P<q>[1-4])|h(?P<h>[12]))?|q(?P<q2>[1-4])(?P<y2>(?:19|20)\d\d)"
    r"|fy(?P<fy>(?:19|20)?\d\d)(?:q(?P<fq>[1-4]))?)$",
    re.I,
)
_NAME_TOKEN = re.compile(r"(?:19|20)\d\d-\d\d-\d\d|\d{1,2}-[A-Za-z]\b|[A-Za-z0-9&]+")


def _file_doc_type(tokens: Sequence[str]) -> str | None:
    for i, t in enumerate(tokens):
        dt = normalize_doc_type(t)
        if dt is None and i + 1 < len(tokens):
            dt = normalize_doc_type(f"{t} {tokens[i + 1]}")
        if dt:
            return dt
    return None


def _company_words(tokens: Sequence[str]) -> list[str]:
    words = [t for t in tokens if not re.match(r"^q[1-4]$", t, re.I)]
    words = [
        w
        for w in words
        if w.lower() not in _GENERIC_NAME_WORDS
        and normalize_doc_type(w) is None
        and not re.match(r"^v\d+$", w, re.I)
    ]
    if not words or len(words) > 6 or any(len(re.findall(r"\d", w)) >= 3 for w in words):
        return []
    return words if re.search(r"[A-Za-z]", "".join(words)) else []


class FileNameExtractor:
    """Company, period and type from filing-style file names.

    ``3M_2018_10K``, ``COMPANY_2023Q2_10Q``, ``COMPANY_2022_8K_dated-2022-05-04``,
    ``COMPANY_2019_EARNINGS``, ``acme-fy2022-10k``: the first token that is a year (``2018``,
    ``2023Q2``, ``Q2 2023``, ``FY22``) splits the name into the company (tokens before it,
    generic words such as "annual report" or "final" dropped) and the rest, where the type
    (``10K``, ``10Q``, ``8K``, ``EARNINGS``, "annual report", ...) and an optional date are
    found. Nothing is taken from a name without a recognised type: "meeting_notes_2019"
    names neither a company nor a period.

    Periods: an annual type gives ``FY<year>``; a quarter token is kept as written (the
    owner's fiscal label, e.g. ``BESTBUY_2024Q2_10Q`` is fiscal Q2 of FY2024); an 8-K with a
    ``dated-`` part gives that date, else its year.
    """

    def extract(self, file_name: str, title: str | None, first_page_text: str) -> Found:
        """Parse the file name.

        Args:
            file_name: The file's name (a path is fine).
            title: Unused.
            first_page_text: Unused.

        Returns:
            ``{field: (value, "file_name")}``.
        """
        base = re.split(r"[\\/]", file_name)[-1]
        stem = re.sub(r"\.[A-Za-z0-9]{1,5}$", "", base)
        tokens = _NAME_TOKEN.findall(stem)
        doc_type = _file_doc_type(tokens)
        if doc_type is None:
            return {}
        out: Found = {"doc_type": (doc_type, "file_name")}
        idx = next((i for i, t in enumerate(tokens) if _YEAR_TOKEN.match(t)), None)
        if idx is None:
            return out
        dated = next((d for t in tokens[idx + 1 :] if (d := parse_date(t))), None)
        m = _YEAR_TOKEN.match(tokens[idx])
        assert m is not None
        period: str | None
        if m["fy"]:
            fy = _two_digit_year(m["fy"])
            period = f"{fy}Q{m['fq']}" if m["fq"] else f"FY{fy}"
        else:
            year = int(m["y"] or m["y2"])
            quarter = m["q"] or m["q2"]
            pq = re.match(r"^q([1-4])$", tokens[idx - 1], re.I) if idx > 0 else None
            if quarter is None and pq:
                quarter = pq.group(1)
            if quarter:
                period = f"{year}Q{quarter}"
            elif m["h"]:
                period = f"{year}H{m['h']}"
            elif dated is not None and doc_type not in _ANNUAL_TYPES:
                period = dated.isoformat()
            elif doc_type in _ANNUAL_TYPES or doc_type == "proxy statement":
                period = f"FY{year}"
            elif doc_type in _DATED_TYPES:
                period = str(year)
            else:
                period = None  # "ACME_2019_EARNINGS": which quarter is unknown
        if period and doc_type in _ANNUAL_TYPES and re.match(r"^\d{4}Q4$", period):
            period = f"FY{period[:4]}"
        if period:
            out["period"] = (period, "file_name")
        words = _company_words(tokens[:idx])
        if words:
            out["company"] = (display_name(" ".join(words)), "file_name")
        return out


_FORM_RE = re.compile(r"\bFORM\s*(10-?K(?:405)?|10-?Q|8-?K|20-?F|40-?F|6-?K)\b", re.I)
_FY_END_RE = re.compile(r"for\s+the\s+fiscal\s+year\s+ended\s*:?\s*", re.I)
_Q_END_RE = re.compile(r"for\s+the\s+quarterly\s+period\s+ended\s*:?\s*", re.I)
_REPORT_DATE_RE = re.compile(
    r"date\s+of\s+report\s*\(date\s+of\s+earliest\s+event\s+reported\)\s*:?\s*", re.I
)
_FISCAL_Q_RE = re.compile(
    r"\b(first|second|third|fourth)\s+(?:fiscal\s+)?quarter\s+(?:of\s+)?fiscal\s+(?:year\s+)?"
    r"((?:19|20)\d\d)\b|\bfiscal\s+((?:19|20)\d\d)\s+(first|second|third|fourth)\s+quarter\b",
    re.I,
)
_EXACT_NAME = re.compile(
    r"\(\s*exact\s+name\s+of\s+(?:the\s+)?r\s*e\s*g\s*i\s*s\s*t\s*r\s*a\s*n\s*t", re.I
)
_FILE_NUMBER_LINE = re.compile(r"commission\s+file\s+n(?:o|umber)\.?\s*:?\s*[\d-]*\s*$", re.I)
_NAME_LINE = re.compile(r"^[A-Z0-9][A-Za-z0-9&.,'’ -]{1,80}$")
_STOP_LINE = re.compile(
    r"commission|file\s+n|number|transition|period|fiscal|\bform\b|mark\s+one|securities|"
    r"washington|^[\W_]*$|\bto\s*$|\d{3,}",
    re.I,
)
_TICKER_AFTER_HEADER = re.compile(
    r"(?i:trading\s+symbol).{0,400}?\b([A-Z]{1,5}(?:\.[A-Z])?)\s+(?:The\s+)?"
    r"(?:New\s+York\s+Stock\s+Exchange|Nasdaq|NASDAQ|NYSE)",
    re.S,
)


_PRESS_TICKER = re.compile(
    r"([A-Z][\w&.,'’ -]{1,60}?)\s*\(\s*(?:NYSE|NASDAQ|Nasdaq|NYSE American|LSE|TSX)\s*:\s*"
    r"([A-Z]{1,5}(?:\.[A-Z])?)\s*\)"
)


def _align_company(file_company: str, other: str) -> str | None:
    """The leading words of ``other`` that spell ``file_company`` ("AMERICANWATERWORKS").

    Args:
        file_company: A company as written in a file name.
        other: A name from another source ("American Water Works Company, Inc.").

    Returns:
        The matching leading words of ``other`` (leading "The" dropped) in display form, or
        ``None`` when their compact forms differ.
    """
    target = "".join(w for w in _norm_words(file_company.replace("_", " ")) if w != "&")
    words = other.replace(",", " ").split()
    if words and words[0].lower() == "the":
        words = words[1:]
    acc = ""
    for i, w in enumerate(words):
        acc += "".join(x for x in _norm_words(w) if x != "&")
        if acc == target and acc:
            return display_name(" ".join(words[: i + 1]))
        if not target.startswith(acc):
            return None
    return None


def _repair_split_caps(name: str) -> str:
    """Rejoin letters that PDF extraction split off ALL-CAPS words ("R ESORTS" -> "RESORTS")."""
    return re.sub(r"\b([A-Z]) ([A-Z]{3,})\b", r"\1\2", name)


def registrant_name(text: str) -> str | None:
    """The registrant's name on an SEC cover page: the text just before "(Exact name of ...".

    Usually the line before the marker; PDF extraction sometimes puts it on the same line or
    spreads it over several short lines, which are joined back (stopping at the commission
    file number or another cover line).

    Args:
        text: First page(s) of a filing.

    Returns:
        The name as printed (extraction artefacts cleaned), or ``None``.
    """
    m = _EXACT_NAME.search(text)
    if not m:
        return _name_after_file_number(text)
    lines = text[: m.start()].split("\n")
    parts: list[str] = []
    same_line = lines[-1].strip()
    if same_line:
        parts.append(same_line)
    for line in reversed(lines[:-1]):
        s = line.strip()
        if not s:
            continue
        if _STOP_LINE.search(s) or len(s) > 80 or len(parts) >= 8:
            break
        parts.insert(0, s)
        if not same_line and len(s.split()) >= 2:
            break  # a normal cover: the whole name on the line before the marker
    name = _repair_split_caps(re.sub(r"\s+", " ", " ".join(parts))).strip(" ,_")
    name = re.sub(r"\s+([.,])", r"\1", name)
    if not re.search(r"[A-Za-z]{2}", name) or len(name) > 100:
        return None
    return name


def _name_after_file_number(text: str) -> str | None:
    """Covers without the "(Exact name ...)" caption: the line after the file number."""
    lines = [ln.strip() for ln in text[:4000].split("\n")]
    for i, line in enumerate(lines):
        if not _FILE_NUMBER_LINE.search(line):
            continue
        rest = [ln for ln in lines[i + 1 : i + 6] if ln]
        j = 0
        if rest and re.fullmatch(r"[\d-]+", rest[0]):
            j = 1  # the number itself on its own line
        if j < len(rest):
            cand = rest[j]
            letters = [c for c in cand if c.isalpha()]
            upper = sum(c.isupper() for c in letters)
            if (
                _NAME_LINE.match(cand)
                and len(cand.split()) <= 8
                and letters
                and upper >= 0.6 * len(letters)
                and not re.search(r"\d{3,}", cand)
            ):
                return cand
        return None
    return None


def _is_cover(flat_head: str) -> bool:
    """Whether flattened first-page text is an SEC cover page (not a mention of one)."""
    return bool(
        _FORM_RE.search(flat_head[:1500])
        and re.search(
            r"securities\s+and\s+exchange\s+commission|commission\s+file", flat_head[:3000], re.I
        )
    )


class CoverPageExtractor:
    """SEC cover pages (10-K, 10-Q, 8-K, 20-F): type, period, registrant, trading symbol.

    * ``FORM 10-K`` / ``10-Q`` / ``8-K`` near the top gives the type.
    * "For the fiscal year ended <date>" gives ``FY<year>`` (year it ends in, seven-day rule)
      and ``period_end``.
    * "For the quarterly period ended <date>" gives the calendar quarter of the period end,
      unless the page names the fiscal quarter ("second quarter of fiscal 2024" -> ``2024Q2``).
    * "Date of Report (Date of earliest event reported): <date>" gives the date (8-K).
    * The registrant's name (line before "(Exact name of registrant as specified in its
      charter)") gives the company without legal suffixes ("The Boeing Company" -> "Boeing");
      the full legal name and the trading symbol become aliases.
    """

    def extract(self, file_name: str, title: str | None, first_page_text: str) -> Found:
        """Read the cover page.

        Args:
            file_name: Unused.
            title: Unused.
            first_page_text: Text of the first page or two.

        Returns:
            ``{field: (value, "cover_page")}``.
        """
        head = first_page_text[:6000]
        flat = re.sub(r"\s+", " ", head)
        out: Found = {}
        if not _is_cover(flat):
            return out
        form = _FORM_RE.search(flat[:1500])
        doc_type = normalize_doc_type(form.group(1)) if form else None
        if doc_type:
            out["doc_type"] = (doc_type, "cover_page")
        m = _FY_END_RE.search(flat)
        if m and doc_type in (None, "10-K", "20-F", "40-F"):
            d = parse_date(flat[m.end() : m.end() + 40])
            if d:
                out["period"] = (fiscal_year_label(d), "cover_page")
                out["period_end"] = (d.isoformat(), "cover_page")
        m = _Q_END_RE.search(flat)
        if m and "period" not in out and doc_type in (None, "10-Q"):
            d = parse_date(flat[m.end() : m.end() + 80])
            if d:
                fq = _FISCAL_Q_RE.search(flat)
                if fq:
                    ordinal = fq.group(1) or fq.group(4)
                    year = fq.group(2) or fq.group(3)
                    label = f"{year}Q{ORDINALS[ordinal.lower()]}"
                else:
                    label = fiscal_quarter_label(d)
                out["period"] = (label, "cover_page")
                out["period_end"] = (d.isoformat(), "cover_page")
        m = _REPORT_DATE_RE.search(flat)
        if m and "period" not in out:
            d = parse_date(flat[m.end() : m.end() + 40])
            if d:
                out["period"] = (d.isoformat(), "cover_page")
                out["period_end"] = (d.isoformat(), "cover_page")
        if not out:
            return out  # not a filing cover: do not read names off arbitrary pages
        aliases: list[str] = []
        name = registrant_name(head)
        if name:
            legal = display_name(name)
            out["company"] = (strip_company_suffixes(legal), "cover_page")
            aliases.append(legal)
        t = _TICKER_AFTER_HEADER.search(flat[:4000])
        if t and len(t.group(1)) >= 2:
            aliases.append(t.group(1))
        if aliases:
            out["company_aliases"] = (tuple(aliases), "cover_page")
        return out


class FilingsExtractor:
    """Company filings: the file-name convention and the SEC cover page together.

    Runs :class:`FileNameExtractor` and :class:`CoverPageExtractor`; the file name wins. The
    cover's company is returned under ``company_aliases`` (with the legal name and symbol)
    so that :func:`infer_metadata` can spell a file-name company such as
    ``AMERICANWATERWORKS`` as the cover prints it ("American Water Works").
    """

    def __init__(self) -> None:
        """Create the two parts."""
        self.file_name = FileNameExtractor()
        self.cover_page = CoverPageExtractor()

    def extract(self, file_name: str, title: str | None, first_page_text: str) -> Found:
        """Read the file name, then the cover page.

        Args:
            file_name: The file's name.
            title: The parser's title (unused).
            first_page_text: Text of the first page or two.

        Returns:
            ``{field: (value, source)}``.
        """
        found = self.file_name.extract(file_name, title, first_page_text)
        cover = self.cover_page.extract(file_name, title, first_page_text)
        aliases = list(cover.pop("company_aliases", ((), ""))[0])
        if "company" in cover:
            if "company" in found:
                aliases.insert(0, cover.pop("company")[0])
            else:
                found["company"] = cover.pop("company")
        if aliases:
            found["company_aliases"] = (tuple(aliases), "cover_page")
        for key, value in cover.items():
            found.setdefault(key, value)
        return found


# ---------------------------------------------------------------------------------------------
# any document: title and first-page wording


_TITLE_FORM_FOR = re.compile(
    r"^\s*(?:form\s+)?(10-?k|10-?q|8-?k|20-?f)\s+(?:for|of)\s+(?P<co>.+?)\s+filed\b", re.I
)
_TITLE_QUARTER = re.compile(
    r"\bQ([1-4])\s*(?:FY\s*)?'?((?:19|20)\d\d|\d\d)\b|\b((?:19|20)\d\d)\s*Q([1-4])\b", re.I
)
_TITLE_FY = re.compile(
    r"\bFY\s*'?((?:19|20)\d\d|\d\d)\b|\bfiscal\s+(?:year\s+)?((?:19|20)\d\d)\b", re.I
)
_QUARTER_PHRASE = re.compile(
    r"\b(first|second|third|fourth)[\s-]+quarter\s+(?:of\s+)?(?:(fiscal)\s+(?:year\s+)?)?((?:19|20)\d\d)\b"
    r"|\b((?:19|20)\d\d)\s+(first|second|third|fourth)[\s-]+quarter\b",
    re.I,
)
_EARNINGS_CUE = re.compile(
    r"\b(?:reports?|announces?|announced|reported)\b.{0,60}\b(?:results|earnings)\b"
    r"|\bearnings\s+(?:release|call)\b|\bfor\s+immediate\s+release\b.{0,600}\bresults\b",
    re.I | re.S,
)


def _two_digit_year(y: str) -> int:
    return int(y) if len(y) == 4 else 2000 + int(y)


class GenericExtractor:
    """Any document: years, quarters and form types in its title; press-release wording.

    * Title: "Form 10-K for Microsoft Corp filed 07/27/2023" (type and company), ``FY15``,
      "fiscal 2022", ``Q1 2021``, a form type (``10K``, ``8-K``), else a lone year.
    * First page: an earnings release ("PepsiCo Reports First-Quarter 2023 Results",
      "announced results for second-quarter 2023") gives type ``earnings`` and the quarter;
      "Company Name (NYSE: TICK)" gives the company and its symbol.
    """

    def extract(self, file_name: str, title: str | None, first_page_text: str) -> Found:
        """Read the title and the first page.

        Args:
            file_name: The file's name (unused here: see :class:`FilingsExtractor`).
            title: The parser's title, if any.
            first_page_text: Text of the first page or two.

        Returns:
            ``{field: (value, source)}``.
        """
        out: Found = {}
        if title and is_meaningful_title(title):
            self._from_title(title, out)
        self._from_first_page(first_page_text, out)
        return out

    @staticmethod
    def _from_title(title: str, out: Found) -> None:
        m = _TITLE_FORM_FOR.match(title)
        if m:
            out["doc_type"] = (normalize_doc_type(m.group(1)), "title")
            out["company"] = (strip_company_suffixes(display_name(m.group("co"))), "title")
        else:
            for tok in re.findall(r"\b(?:10-?K|10-?Q|8-?K|20-?F)\b", title, re.I):
                dt = normalize_doc_type(tok)
                if dt:
                    out["doc_type"] = (dt, "title")
                    break
        doc_type = out.get("doc_type", (None, ""))[0]
        q = _TITLE_QUARTER.search(title)
        fy = _TITLE_FY.search(title)
        qp = _QUARTER_PHRASE.search(title)
        period: str | None = None
        if q:
            year = _two_digit_year(q.group(2) or q.group(3))
            period = f"{year}Q{q.group(1) or q.group(4)}"
        elif qp:
            year = int(qp.group(3) or qp.group(4))
            period = f"{year}Q{ORDINALS[(qp.group(1) or qp.group(5)).lower()]}"
        elif fy:
            period = f"FY{_two_digit_year(fy.group(1) or fy.group(2))}"
        elif (sy := SPLIT_YEAR_RE.search(title)) and split_year(sy):
            period = f"FY{split_year(sy)}"
        elif m is None:
            years = YEAR_RE.findall(title)
            if len(set(years)) == 1:
                period = f"FY{years[0]}" if doc_type in _ANNUAL_TYPES else years[0]
        if period and doc_type in _ANNUAL_TYPES and "Q" in period:
            period = f"FY{period[:4]}"
        if period:
            out["period"] = (period, "title")
        if qp and "earnings" not in out and re.search(r"\bresults\b", title, re.I):
            out.setdefault("doc_type", ("earnings", "title"))

    @staticmethod
    def _from_first_page(text: str, out: Found) -> None:
        head = re.sub(r"\s+", " ", text[:3000])
        if _is_cover(head):
            return  # a filing's cover: CoverPageExtractor reads it
        if _EARNINGS_CUE.search(head[:1500]):
            out.setdefault("doc_type", ("earnings", "first_page"))
            qp = _QUARTER_PHRASE.search(head[:1500])
            if qp and "period" not in out:
                year = int(qp.group(3) or qp.group(4))
                label = f"{year}Q{ORDINALS[(qp.group(1) or qp.group(5)).lower()]}"
                out["period"] = (label, "first_page")
        t = _PRESS_TICKER.search(head[:2000])
        if t:
            name = re.split(r"[-–—)]\s", t.group(1))[-1].strip(" ,")
            name = re.sub(r"^(?:The\s+)?(?=[A-Z])", "", name)
            words = name.split()
            # keep the capitalised run that ends at the ticker ("... today, Acme Corp (NYSE: ACME)")
            run: list[str] = []
            for w in reversed(words):
                bare = w.lower().strip(".,")
                if w[:1].isupper() or w[:1].isdigit() or bare in {"&", "and", "of", *_SUFFIXES}:
                    run.insert(0, w)
                else:
                    break
            while run and run[0] in {"&", "and", "of"}:
                run.pop(0)
            if run:
                company = strip_company_suffixes(" ".join(run))
                out.setdefault("company", (company, "first_page"))
                out.setdefault("company_aliases", ((t.group(2),), "first_page"))


#: The extractors :func:`infer_metadata` runs by default, most specific first.
DEFAULT_EXTRACTORS: tuple[Extractor, ...] = (FilingsExtractor(), GenericExtractor())


# ---------------------------------------------------------------------------------------------
# merge


def _rank(source: str) -> int:
    return SOURCE_PRIORITY.index(source) if source in SOURCE_PRIORITY else len(SOURCE_PRIORITY)


def infer_metadata(
    file_name: str,
    title: str | None,
    first_page_text: str,
    user: Mapping[str, Any] | None = None,
    extractors: Sequence[Extractor] = DEFAULT_EXTRACTORS,
    *,
    title_source: str = "pdf_title",
    first_heading: str | None = None,
) -> DocumentMetadata:
    """Infer a document's title, company, period and type.

    Every extractor runs; for each attribute the value from the most trusted source wins
    (``user`` > ``file_name`` > ``cover_page`` > ``title`` > ``first_page``; between equal
    sources, the earlier extractor). User-supplied values (keys ``title``, ``company``,
    ``period``, ``doc_type``, ``company_aliases``) always win; an explicit ``None`` from the
    user clears an attribute.

    Company spelling: when the winning company comes from the file name and another source's
    company or alias spells the same words ("AMERICANWATERWORKS" vs "American Water Works
    Company, Inc."), the company is written as that source prints it. Every other company
    name found becomes an alias (a renamed registrant: file ``BLOCK_...``, cover "Square, Inc.").

    Title: the user's; else the parser's title if :func:`is_meaningful_title`; else
    ``first_heading`` if meaningful; else the readable file name if meaningful; else one
    built from company, type and period (source ``inferred``); else the readable file name.

    Periods: fiscal years are named by the calendar year they end in; quarter labels follow
    the period-end calendar quarter unless the cover names the fiscal quarter or the file
    name gives the label (see the module docstring).

    Args:
        file_name: The file's name (a path is fine).
        title: The parser's title (PDF ``/Title``, HTML ``<title>``, front matter), if any.
        first_page_text: Text of the first page or two ('' if none).
        user: Values the user supplied for this document.
        extractors: Extractors to run.
        title_source: What ``title`` is (``pdf_title``, ``html_title``, ``front_matter``).
        first_heading: The document's first heading, if the loader knows it.

    Returns:
        The inferred :class:`DocumentMetadata`.
    """
    candidates: dict[str, list[tuple[int, int, Any, str]]] = {}
    order = 0
    for extractor in extractors:
        for key, (value, source) in extractor.extract(file_name, title, first_page_text).items():
            if key not in FIELDS or value in (None, "", ()):
                continue
            candidates.setdefault(key, []).append((_rank(source), order, value, source))
            order += 1
    user = dict(user or {})
    for key in FIELDS:
        if key not in user:
            continue
        value = user[key]
        if value is None:
            candidates.pop(key, None)
            continue
        if key == "company_aliases":
            value = tuple(value)
        elif key == "doc_type":
            value = normalize_doc_type(str(value)) or value
        candidates.setdefault(key, []).append((-1, -1, value, "user"))
    for values in candidates.values():
        values.sort(key=lambda c: (c[0], c[1]))
    best = {key: (vals[0][2], vals[0][3]) for key, vals in candidates.items() if vals}

    # company, its spelling and its aliases
    user_company = best.get("company", (None, ""))[1] == "user"
    # A company the user names replaces the inferred one: the inferred names are not its
    # aliases (they may be another company's), only the user's own aliases are.
    ranked: list[tuple[int, int, str]] = (
        [] if user_company else [(c[0], c[1], str(c[2])) for c in candidates.get("company", [])[1:]]
    )
    for c in candidates.get("company_aliases", []):
        if user_company and c[3] != "user":
            continue
        ranked.extend((c[0], c[1], str(a)) for a in c[2])
    others = [name for _r, _o, name in sorted(ranked, key=lambda r: (r[0], r[1]))]
    company: str | None = best.get("company", (None, ""))[0]
    if company and best["company"][1] == "file_name":
        for other in others:
            spelled = _align_company(company, other)
            if spelled:
                company = spelled
                break
    aliases = tuple(a for a in dict.fromkeys(others) if a and a != company)
    doc_type = best.get("doc_type", (None, ""))[0]
    if "period" in user and user["period"] is None:  # the user cleared it: nothing stated
        period, period_source, period_span, stated_end = None, None, None, None
    else:
        period, period_source, period_span, stated_end = _settle_period(
            best, doc_type, first_page_text
        )

    readable = readable_file_name(file_name)
    if user.get("title"):
        doc_title, t_source = str(user["title"]), "user"
    elif title and is_meaningful_title(title):
        doc_title, t_source = re.sub(r"\s+", " ", title).strip(), title_source
    elif first_heading and is_meaningful_title(first_heading):
        doc_title, t_source = first_heading.strip(), "first_heading"
    elif is_meaningful_title(readable):
        doc_title, t_source = readable, "file_name"
    elif company or doc_type:
        bits = [company, doc_type, period]
        doc_title, t_source = " ".join(str(b) for b in bits if b), "inferred"
    else:
        doc_title, t_source = readable or file_name, "file_name"

    years = period_years(period)
    if not years:
        years = tuple(sorted({int(y) for y in YEAR_RE.findall(doc_title)}))
    sources = {key: src for key, (_v, src) in best.items()}
    if period is not None and best.get("period", (None, ""))[0] != period:
        sources["period"] = "first_page"  # the text's statement replaced a file name's guess
    if not aliases:
        sources.pop("company_aliases", None)
    return DocumentMetadata(
        title=doc_title,
        title_source=t_source,
        company=company,
        period=period,
        doc_type=doc_type,
        period_end=best.get("period_end", (None, ""))[0] or stated_end,
        company_aliases=aliases,
        years=years,
        attributes_source=sources,
        period_source=period_source,
        period_span=period_span,
    )


def _compatible(label: str, stated: StatedPeriod) -> bool:
    """Whether a period label names the period the text states.

    The same label; the same annual period (``FY2025`` = ``2025``); or, for quarters, a
    label of the same or the next year (a filing's file name names the owner's fiscal
    quarter, the cover its calendar end: ``BESTBUY_2024Q2_10Q`` for the quarter ended July
    29, 2023).
    """
    if label == stated.label:
        return True
    annual = re.fullmatch(r"(?:FY)?(\d{4})", label)
    if annual and stated.kind == "annual":
        return stated.label == f"FY{annual.group(1)}"
    q = re.fullmatch(r"(\d{4})Q[1-4]", label)
    if q and stated.kind == "quarter":
        return int(q.group(1)) - period_years(stated.label)[0] in (0, 1)
    d = re.fullmatch(r"(\d{4})-\d\d-\d\d", label)
    return bool(d) and stated.kind == "dated" and label[:4] == stated.label[:4]


def _settle_period(
    best: Mapping[str, tuple[Any, str]], doc_type: str | None, text: str
) -> tuple[str | None, str | None, str | None, str | None]:
    """The period, whether it is stated or inferred, its span, and the stated end date.

    A user's period is stated. Otherwise the text's own statement (:func:`stated_period`)
    confirms a compatible label (which stays), fills a missing one, or replaces an annual
    label it contradicts (a file name's or title's year is a guess; the text says which
    year ends when). A contradicted quarter or dated label of a filing stays, inferred.
    """
    period, source = best.get("period", (None, ""))
    if period is not None and source == "user":
        return str(period), "stated", "user", None
    stated = stated_period(text[:8000])
    if stated is None:
        return (period, "inferred" if period else None, None, None)
    if period is None or _compatible(str(period), stated):
        return (period or stated.label, "stated", stated.text, stated.end_date or None)
    annual_doc = doc_type in _ANNUAL_TYPES or doc_type is None
    if stated.kind == "annual" and annual_doc and not re.fullmatch(r"\d{4}Q[1-4]", str(period)):
        return stated.label, "stated", stated.text, stated.end_date or None
    return period, "inferred", None, None
