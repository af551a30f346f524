"""Question constraints: which company, period and document type a question is about.

Pure: a question string and a :class:`Gazetteer` (built from the indexed documents' metadata)
in, frozen dataclasses out. The graph uses the result to apply **hard metadata filters** before
search (only exact, unambiguous constraints: :func:`filter_for`), to break ties with the rest
(:func:`boosts_for`), and to say "no indexed document is about Boeing" when a question names a
company the index does not hold (:func:`unmatched`). Every constraint records the span of the
question that triggered it, for the trace.

Rules
-----
Companies
    Matched on word boundaries, longest match first, case- and punctuation-insensitively
    ("Coca Cola" = "COCACOLA" = "Coca-Cola"; "Johnson and Johnson" = "Johnson & Johnson";
    possessives such as "3M's" count). Names are generated from each document's ``company``
    and ``company_aliases`` with legal suffixes (Inc., Corp., Company, plc, Holdings, ...)
    stripped. Aliases from the alias table (``chains/aliases.json``: J&J, JnJ, AMEX, JPM, ...)
    apply only when the index holds that company. ALL-CAPS aliases, trading symbols and
    initials match only as whole upper-case tokens. A single lower-case word ("block",
    "target"), a first word of a longer name ("Lockheed") or plain initials are ``partial``
    (boost only); a name shared by several companies is ``ambiguous`` (boost only).
Periods, fiscal vs calendar
    ``FY2021``, ``FY21``, "fiscal 2022", "fiscal year 2022", "2021 fiscal period" -> fiscal
    year ``FY2021``. A split year "2024/25", "2024-25", "FY24/25" is the fiscal year that ends
    in its second year, ``FY2025`` (as "year ended 31 March 2025" is). "Q2 2023", "2023 Q2",
    "2Q23", "2Q 2023", "Q2-23", "Q2/2023", "FY23 Q2", "fiscal Q2 2023", "second quarter of
    (fiscal) 2023", "Q2 FY2023", "Q2 of FY2023" -> ``2023Q2``: the year in a quarter label is
    the one the question names, read
    as the company's fiscal year when the question says so and as given otherwise; no
    calendar/fiscal conversion is attempted (the company's fiscal calendar is unknown). A
    bare year ("in 2019") is a calendar year, label ``2019``. Months and seasons are spans
    of months ("October to December 2023" -> ``2023-10..2023-12``, "March 2025" ->
    ``2025-03``, "summer 2024" -> ``2024-06..2024-08``, northern seasons; a lower-case "may"
    only after a preposition), matched to the documents whose period **overlaps** them
    (:func:`coverage`: ``period_end`` and the length the label implies), so a report for the
    year ended 31 March 2024 answers "October to December 2023"; with no overlapping
    document, the year rule applies. "As of December 31, 2021" (also
    "as at", "ended", "year end") -> ``FY2021`` by the period-end rule of
    :func:`loaders.metadata.fiscal_year_label`; any other date ("on May 26, 2023") -> the ISO
    date. Ranges ("between 2019 and 2021", "from FY2020 to FY2022", "FY2017 - FY2019") keep
    their endpoints in one constraint (``relation="range"``); lists ("FY2021 and FY2022")
    give one constraint per period.
Matching periods to documents
    Exact first (:func:`select_periods`): a period the question names selects the readable
    documents whose own period **is** that one — the same label, where a fiscal year and the
    bare year with the same number are the same annual period (``FY2021`` = ``2021``:
    filings are labelled by the year their fiscal year ends in) — and only those, decided
    per matched company (for each company the question names exactly; over the whole index
    when it names none). Only when no readable document of that company has the label are
    the documents that report it as a comparative admitted (:func:`matching_periods`, at year
    level: a document for FY2022 or a quarter of 2022 covers 2022 and the
    ``comparative_years=1`` year before, as a 10-K reports the prior year and a 10-Q the same
    quarter a year earlier), exact-year documents first. So with the FY2021 and FY2022
    10-Ks indexed, "FY2021" selects the FY2021 10-K only; with only the FY2022 10-K, it
    selects that one (which reports FY2021). Ranges select every period between their
    endpoints ("from FY2020 to FY2022": FY2020, FY2021, FY2022; quarters likewise), lists
    each of theirs, each decided on its own. Existence is decided on the gazetteer's
    documents, which are the ones the caller may read: a restricted FY2021 filing changes
    nothing for a caller without its label.
Unknown values pass
    A filter removes only documents whose value is known and different: a company filter
    also admits the documents that name no company (a charity's budget beside its annual
    reports), and their periods count with that company's documents.
Stated periods only
    A period is a hard filter only in a corpus organised by period (at least two distinct
    **stated** periods among the readable documents: :func:`period_organised`), and there
    it removes only documents whose period is stated (``period_source``, see
    :mod:`loaders.metadata`) and is another one: documents whose period is only inferred
    (file name, title) or absent are admitted (``passthrough``, by ``doc_id``) and the
    matching ones boosted. In any other corpus a year is a boost, never a filter or a
    refusal. Metadata without ``period_source`` (written before it existed, or supplied by
    a caller) counts as stated.
Forward-looking questions
    "What is it forecasting for FY2025", "guidance for 2025", "what will ... in 2025"
    (:func:`is_forward_looking`), naming that one period and not as an anchor ("As of
    FY2021, what did it expect for 2024?" names its filing), also select the documents
    published before the period
    (those of the year before, else the latest earlier ones), which are boosted: a forecast
    is in the filing before the period, and the filter never leaves such a question without
    candidates when any earlier document exists.
Recency
    A question naming one company exactly and no period boosts that company's most recent
    document of each type (``QuestionConstraints.recency``, shown in the trace): "What is
    3M's debt?" prefers the latest 10-K, never filters out the older ones.
Document types
    "10-K", "10-Q", "8-K", "20-F" are exact; "annual report", "quarterly report", "earnings
    release/call", "proxy statement" are partial (boost only: a user's "annual report" may
    be a 10-K).
Safety
    A period or type constraint is downgraded to ``partial`` when some relevant indexed
    document (of the matched company, or any document when none is matched) has no value
    for that field, because a hard filter would silently drop it. An exact constraint that
    no indexed document satisfies keeps an empty ``doc_values`` and appears in
    :attr:`QuestionConstraints.uncovered`; :func:`filter_for` then selects nothing, which is
    the honest "no evidence".
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from citerag.core.filters import combine, matches
from loaders.metadata import (
    DATE_RE,
    MONTH_NAME_RE,
    MONTHS,
    ORDINALS,
    SPLIT_YEAR_RE,
    YEAR_RE,
    date_from_match,
    fiscal_year_label,
    name_variants,
    normalize_doc_type,
    period_years,
    split_year,
    strip_company_suffixes,
)

__all__ = [
    "Constraint",
    "Gazetteer",
    "QuestionConstraints",
    "UnmatchedEntity",
    "boosts_for",
    "coverage",
    "filter_for",
    "is_forward_looking",
    "load_aliases",
    "matching_periods",
    "months_label",
    "months_span",
    "named_periods",
    "parse_constraints",
    "parse_periods",
    "period_organised",
    "select_periods",
    "statement_terms",
    "unmatched",
]

Match = Literal["exact", "ambiguous", "partial"]

# Upper-case tokens that are finance or question vocabulary, never company symbols.
_NOT_SYMBOLS = {
    "AGM", "CAGR", "CAPEX", "CCC", "CEO", "CFO", "COGS", "COO", "CY", "DIO", "DPO", "DSO",
    "EBIT", "EBITDA", "EPS", "ESG", "FCF", "FX", "FY", "GAAP", "IFRS", "IPO", "LTM", "MD&A",
    "NYSE", "NASDAQ", "OCF", "PP&E", "PPE", "PPNE", "Q1", "Q2", "Q3", "Q4", "R&D", "ROA",
    "ROE", "ROI", "ROIC", "SEC", "SG&A", "TTM", "US", "USA", "USD", "VAR", "YOY", "YTD", "UK",
    "EU", "AI", "IT", "HR", "ETF", "LLC", "INC", "CO", "LP", "H1", "H2", "EUR", "GBP",
}  # fmt: skip

# Capitalised words that start questions or name generic things, never a company by themselves.
_COMMON_CAPS = {
    "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "is", "are", "was",
    "were", "did", "does", "do", "has", "have", "had", "can", "could", "would", "should", "will",
    "the", "a", "an", "in", "on", "of", "for", "by", "from", "to", "and", "or", "as", "at",
    "according", "answer", "assume", "assuming", "based", "basing", "calculate",
    "compute", "considering", "define", "give", "given", "using", "use", "please", "round",
    "respond", "provide", "taking", "looking", "among", "if", "we", "you", "your", "our",
    "its", "it", "this", "that", "these", "those", "roughly", "approximately", "here",
    "company", "companies", "firm", "business", "management", "board", "group", "segment",
    "year", "quarter", "fiscal", "annual", "total", "net", "gross", "operating", "cash",
    "revenue", "income", "statement", "balance", "sheet", "report", "form", "filing",
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "monday", "tuesday", "wednesday", "thursday",
    "friday", "saturday", "sunday", "today", "america", "american", "europe", "european",
    "china", "chinese", "japan", "india", "asia", "africa", "canada", "mexico", "germany",
    "france", "britain", "nation", "world", "country", "state", "federal", "government",
    "ceo", "cfo", "chairman", "president", "investor", "investors", "shareholder",
    "shareholders", "analyst", "analysts", "street", "wall", "market", "new", "york",
}  # fmt: skip

_GENERIC_FIRST_WORDS = {
    "american", "general", "united", "national", "first", "international", "global", "new",
    "the", "bank", "best", "big", "great", "royal", "standard", "southern", "northern",
    "western", "eastern", "central", "pacific", "atlantic", "north", "south", "east", "west",
    "public", "service", "energy", "capital", "financial", "digital", "health", "home",
}  # fmt: skip


# ---------------------------------------------------------------------------------------------
# data types


@dataclass(frozen=True)
class Constraint:
    """One thing the question constrains, with the text that triggered it.

    Attributes:
        field: Metadata field: ``company``, ``period`` or ``doc_type``.
        values: What the question names, normalised: company names as the index spells them,
            period labels (``FY2021``, ``2023Q2``, ``2019``, ``2023-05-26``), doc types.
        span: ``(start, end)`` character offsets in the question.
        text: ``question[start:end]``.
        match: ``exact`` (usable as a hard filter), ``ambiguous`` (several companies) or
            ``partial`` (weak evidence: boost only).
        doc_values: The indexed metadata values this constraint selects (what a filter
            tests). Empty when no indexed document satisfies it.
        years: Years named (periods; both endpoints for a range).
        kind: How it matched: companies ``name``, ``alias``, ``symbol``, ``initials``,
            ``first_word``, ``word``; periods ``fiscal_year``, ``quarter``, ``half``,
            ``calendar_year``, ``as_of``, ``date``, ``months``; doc types ``form`` or ``wording``.
        relation: ``single`` or ``range`` (two endpoints: "between 2019 and 2021").
        note: Why a constraint was downgraded, if it was.
        forward: A forward-looking question about this period ("forecasting for FY2025",
            "guidance for 2025"): answered by the documents published before it.
        passthrough: Documents a filter admits whatever their value, because it is not
            known: for a period, documents whose period is not stated (only inferred, or
            absent); for a company, documents without a company. ``doc_id`` values, or
            ``doc_name`` when the documents carry no id (see ``passthrough_field``).
        passthrough_field: The metadata field ``passthrough`` lists.
    """

    field: str
    values: tuple[str, ...]
    span: tuple[int, int]
    text: str
    match: Match = "exact"
    doc_values: tuple[str, ...] = ()
    years: tuple[int, ...] = ()
    kind: str = ""
    relation: str = "single"
    note: str = ""
    forward: bool = False
    passthrough: tuple[str, ...] = ()
    passthrough_field: str = "doc_id"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for the trace."""
        out: dict[str, Any] = {
            "field": self.field,
            "values": list(self.values),
            "span": list(self.span),
            "text": self.text,
            "match": self.match,
            "doc_values": list(self.doc_values),
            "years": list(self.years),
            "kind": self.kind,
            "relation": self.relation,
            "note": self.note,
        }
        if self.field == "period":
            out["forward"] = self.forward
        if self.passthrough:
            out["passthrough"] = {self.passthrough_field: list(self.passthrough)}
        return out


@dataclass(frozen=True)
class UnmatchedEntity:
    """Something the question names like a company that no indexed document is about.

    Attributes:
        text: The name as written.
        span: ``(start, end)`` in the question.
        reason: ``possessive`` ("Boeing's") or ``cue`` ("for Boeing", "did Boeing").
    """

    text: str
    span: tuple[int, int]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for the trace."""
        return {"text": self.text, "span": list(self.span), "reason": self.reason}


@dataclass(frozen=True)
class QuestionConstraints:
    """Everything :func:`parse_constraints` found in one question.

    Attributes:
        question: The question.
        constraints: Company, period and doc-type constraints in question order.
        unmatched: Company-like names with no indexed document (see :func:`unmatched`).
        recency: For a question naming a company but no period, a ``partial`` period
            constraint on the company's most recent documents (boost only; its span is the
            company's), else ``None``.
    """

    question: str
    constraints: tuple[Constraint, ...] = ()
    unmatched: tuple[UnmatchedEntity, ...] = ()
    recency: Constraint | None = None

    def by_field(self, name: str) -> tuple[Constraint, ...]:
        """The constraints on one field."""
        return tuple(c for c in self.constraints if c.field == name)

    @property
    def companies(self) -> tuple[Constraint, ...]:
        """Company constraints."""
        return self.by_field("company")

    @property
    def periods(self) -> tuple[Constraint, ...]:
        """Period constraints."""
        return self.by_field("period")

    @property
    def doc_types(self) -> tuple[Constraint, ...]:
        """Document-type constraints."""
        return self.by_field("doc_type")

    @property
    def uncovered(self) -> tuple[Constraint, ...]:
        """Exact constraints that no indexed document satisfies (nothing selected or admitted)."""
        return tuple(
            c
            for c in self.constraints
            if c.match == "exact" and not c.doc_values and not c.passthrough
        )

    def is_empty(self) -> bool:
        """Whether the question constrains nothing and names no unknown company."""
        return not self.constraints and not self.unmatched

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for the trace (includes the filter and boosts derived)."""
        return {
            "constraints": [c.to_dict() for c in self.constraints],
            "unmatched": [u.to_dict() for u in self.unmatched],
            "recency": self.recency.to_dict() if self.recency is not None else None,
            "filter": filter_for(self),
            "boosts": [[f, list(v)] for f, v in boosts_for(self)],
        }


# ---------------------------------------------------------------------------------------------
# aliases


@cache
def _builtin_aliases() -> dict[str, str]:
    text = resources.files("chains").joinpath("aliases.json").read_text(encoding="utf-8")
    return {k: v for k, v in json.loads(text).items() if not k.startswith("_")}


def load_aliases(path: str | Path | None = None) -> dict[str, str]:
    """Read an alias table (``{"alias": "company name"}``; keys starting ``_`` ignored).

    Args:
        path: A JSON file; ``None`` reads the built-in ``chains/aliases.json``.

    Returns:
        The table.
    """
    if path is None:
        return dict(_builtin_aliases())
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in data.items() if not str(k).startswith("_")}


def _is_symbol_like(alias: str) -> bool:
    """ALL-CAPS letters (optionally with ``&``/``.``), at most 5 letters: match case-exactly."""
    letters = re.sub(r"[^A-Za-z]", "", alias)
    return bool(letters) and alias == alias.upper() and len(letters) <= 5 and " " not in alias


# ---------------------------------------------------------------------------------------------
# gazetteer


@dataclass
class _Entity:
    name: str
    values: set[str] = field(default_factory=set)
    doc_ids: list[int] = field(default_factory=list)


class Gazetteer:
    """What the index holds: companies with their name variants, periods and document types.

    Built from the indexed documents' metadata (one mapping per document, as produced by
    :meth:`loaders.metadata.DocumentMetadata.to_metadata` plus ``doc_name``). Documents whose
    company names share a variant ("Adobe Systems Incorporated" / "Adobe") are one company.

    Args:
        documents: Metadata mappings with ``company``, ``period``, ``doc_type``, and
            optionally ``company_aliases``, ``title``, ``doc_name``.
        aliases: Alias table (alias -> company name); ``None`` uses ``chains/aliases.json``.
    """

    def __init__(
        self,
        documents: Iterable[Mapping[str, Any]],
        aliases: Mapping[str, str] | None = None,
    ) -> None:
        """Index the documents' names (see the class docstring)."""
        raw = [dict(d) for d in documents]
        self.documents: list[dict[str, Any]] = [
            {
                "company": d.get("company"),
                "period": d.get("period"),
                "doc_type": d.get("doc_type"),
                "doc_name": d.get("doc_name"),
                "doc_id": d.get("doc_id"),
                "period_source": d.get("period_source"),
                "period_end": d.get("period_end"),
            }
            for d in raw
        ]
        #: The field that names a document in filters (``passthrough``): ``doc_id`` when every
        #: document has one, else ``doc_name`` when every one has that, else ``None``.
        self.key_field: str | None = next(
            (f for f in ("doc_id", "doc_name") if all(d.get(f) for d in self.documents)), None
        )
        self.entities: list[_Entity] = []
        # key -> {entity index: kind}; loose keys are compact lower-case, exact keys case-kept
        self._loose: dict[str, dict[int, str]] = {}
        self._exact: dict[str, dict[int, str]] = {}
        self._build(raw)
        self._add_aliases(load_aliases() if aliases is None else dict(aliases))

    # -- construction -----------------------------------------------------------------------

    def _build(self, raw: Sequence[Mapping[str, Any]]) -> None:
        key_owner: dict[str, int] = {}
        for doc_id, d in enumerate(raw):
            company = d.get("company")
            if not company:
                continue
            names = [str(company)] + [str(a) for a in (d.get("company_aliases") or [])]
            strong = [n for n in names if not _is_symbol_like(n) or n == company]
            keys = set().union(*(name_variants(n) for n in strong))
            owner = next((key_owner[k] for k in keys if k in key_owner), None)
            if owner is None:
                owner = len(self.entities)
                self.entities.append(_Entity(name=str(company)))
            ent = self.entities[owner]
            ent.values.add(str(company))
            ent.doc_ids.append(doc_id)
            for k in keys:
                key_owner.setdefault(k, owner)
                self._loose.setdefault(k, {}).setdefault(owner, "name")
            for n in names:
                if _is_symbol_like(n) and n != company and n.upper() not in _NOT_SYMBOLS:
                    self._exact.setdefault(n, {}).setdefault(owner, "symbol")
        for idx, ent in enumerate(self.entities):
            self._add_generated(idx, ent.name)

    def _add_generated(self, idx: int, name: str) -> None:
        base = strip_company_suffixes(name)
        words = [w for w in re.split(r"[\s\-]+", base) if w]
        content = [w for w in words if w.lower() not in {"&", "and", "of", "the"}]
        if len(content) >= 2:
            initials = "".join(w[0].upper() for w in content if w[0].isalpha())
            if "&" in words or "and" in [w.lower() for w in words]:
                amp = "&".join(w[0].upper() for w in content)
                self._exact.setdefault(amp, {}).setdefault(idx, "alias")
            if len(initials) >= 3 and initials not in _NOT_SYMBOLS:
                self._exact.setdefault(initials, {}).setdefault(idx, "initials")
            first = content[0]
            if len(first) >= 4 and first.lower() not in _GENERIC_FIRST_WORDS:
                for k in name_variants(first):
                    self._loose.setdefault(k, {}).setdefault(idx, "first_word")

    def _add_aliases(self, table: Mapping[str, str]) -> None:
        for alias, target in table.items():
            owners = self._owners_of(target)
            if not owners:
                continue  # the index holds no document of that company
            index = self._exact if _is_symbol_like(alias) else self._loose
            keys = [alias] if index is self._exact else sorted(name_variants(alias))
            for k in keys:
                for o in owners:
                    index.setdefault(k, {})[o] = "alias"

    def _owners_of(self, name: str) -> set[int]:
        owners: set[int] = set()
        for k in name_variants(name):
            for o, kind in self._loose.get(k, {}).items():
                if kind == "name":
                    owners.add(o)
        return owners

    # -- queries ----------------------------------------------------------------------------

    @property
    def companies(self) -> list[str]:
        """Canonical names of the indexed companies."""
        return [e.name for e in self.entities]

    def company_values(self, names: Iterable[str]) -> tuple[str, ...]:
        """All ``company`` metadata values of the named (canonical) companies."""
        out: set[str] = set()
        wanted = set(names)
        for e in self.entities:
            if e.name in wanted:
                out |= e.values
        return tuple(sorted(out))

    def documents_of(self, companies: Iterable[str] | None) -> list[dict[str, Any]]:
        """Documents of the named companies (``None``: every document)."""
        if companies is None:
            return list(self.documents)
        values = set(self.company_values(companies))
        return [d for d in self.documents if d["company"] in values]

    def lookup(self, text: str, *, exact_case: bool = False) -> dict[int, str]:
        """Entities a name refers to: ``{entity index: kind}`` (empty when unknown).

        Args:
            text: A name, alias or symbol as written.
            exact_case: Only consult the case-exact table (symbols, initials, ALL-CAPS aliases).
        """
        found: dict[int, str] = dict(self._exact.get(text, {}))
        if exact_case:
            return found
        for k in name_variants(text):
            for idx, kind in self._loose.get(k, {}).items():
                found.setdefault(idx, kind)
        return found

    def count(self, flt: Mapping[str, Any] | None) -> int:
        """Number of indexed documents whose metadata satisfies a dict filter."""
        return sum(1 for d in self.documents if matches(d, flt))

    @property
    def max_name_tokens(self) -> int:
        """Longest name in tokens (bounds the n-gram search)."""
        longest = 1
        for e in self.entities:
            longest = max(longest, len(_TOKEN.findall(e.name)) + 2)
        return min(longest, 10)


# ---------------------------------------------------------------------------------------------
# tokens


_TOKEN = re.compile(r"[A-Za-z0-9]+(?:[&.][A-Za-z0-9]+)*|&")
_KIND_RANK = {"name": 0, "alias": 1, "symbol": 2, "initials": 3, "first_word": 4}


@dataclass(frozen=True)
class _Tok:
    text: str
    start: int
    end: int


def _tokens(question: str) -> list[_Tok]:
    toks: list[_Tok] = []
    for m in _TOKEN.finditer(question):
        text = m.group(0)
        # possessive "'s" after a name: not a token of its own
        if text.lower() == "s" and m.start() > 0 and question[m.start() - 1] in "'’":
            continue
        toks.append(_Tok(text, m.start(), m.end()))
    return toks


# ---------------------------------------------------------------------------------------------
# companies


def _company_constraints(question: str, gaz: Gazetteer) -> list[Constraint]:
    toks = _tokens(question)
    out: list[Constraint] = []
    i = 0
    max_n = gaz.max_name_tokens
    while i < len(toks):
        hit: tuple[int, dict[int, str]] | None = None
        for n in range(min(max_n, len(toks) - i), 0, -1):
            group = toks[i : i + n]
            if group[0].text.lower() in {"&", "and", "the"} or group[-1].text.lower() in {
                "&",
                "and",
            }:
                continue
            # names do not run across sentence punctuation
            if any(
                re.search(r"[?!;:(),]", question[a.end : b.start])
                for a, b in itertools.pairwise(group)
            ):
                continue
            text = question[group[0].start : group[-1].end]
            if n == 1:
                found = gaz.lookup(text, exact_case=True)
                loose = gaz.lookup(text)
                for idx, kind in loose.items():
                    if kind in {"name", "alias", "first_word"}:
                        found.setdefault(idx, kind)
            else:
                found = gaz.lookup(text)
            if found:
                hit = (n, found)
                break
        if hit is None:
            i += 1
            continue
        n, found = hit
        group = toks[i : i + n]
        start, end = group[0].start, group[-1].end
        text = question[start:end]
        best_rank = min(_KIND_RANK.get(k, 9) for k in found.values())
        owners = sorted(idx for idx, k in found.items() if _KIND_RANK.get(k, 9) == best_rank)
        kind = next(k for k in found.values() if _KIND_RANK.get(k, 9) == best_rank)
        names = tuple(gaz.entities[o].name for o in owners)
        match: Match = "exact"
        note = ""
        if len(owners) > 1:
            match, note = "ambiguous", "the name fits several indexed companies"
        elif kind in {"initials", "first_word"}:
            match, note = "partial", f"matched by {kind.replace('_', ' ')} only"
        elif n == 1 and text.isalpha() and text == text.lower() and kind != "symbol":
            match, note = "partial", "a lower-case common-looking word"
        out.append(
            Constraint(
                field="company",
                values=names,
                span=(start, end),
                text=text,
                match=match,
                doc_values=gaz.company_values(names),
                kind=kind,
                note=note,
            )
        )
        i += n
    return out


# ---------------------------------------------------------------------------------------------
# periods


@dataclass(frozen=True)
class _Period:
    label: str
    year: int
    kind: str
    start: int
    end: int


_Y4 = r"(?:19|20)\d\d"
_YR = rf"(?:{_Y4}|'?\d\d)"
_ORD = r"(first|second|third|fourth|1st|2nd|3rd|4th)"
_YQ = r"(?:(?:19|20)\d\d|'?\d\d)"
#: Quarter spellings with named parts (tried first): "2Q23", "2Q 2023", "2QFY23", "Q2-23",
#: "Q2-2023", "Q2/23", "FY23 Q2", "FY2023-Q2", "fiscal Q2 2023", "quarter 2 of 2023".
_NAMED_QUARTERS: tuple[re.Pattern[str], ...] = (
    re.compile(rf"\b(?P<q>[1-4])Q\s*(?:FY\s*)?(?P<y>{_YQ})\b", re.I),
    re.compile(rf"\bQ(?P<q>[1-4])\s*[-/]\s*(?:FY\s*)?(?P<y>{_YQ})\b", re.I),
    re.compile(rf"\bFY\s*(?P<y>{_YQ})\s*[-/]?\s*Q(?P<q>[1-4])\b", re.I),
    re.compile(r"\bfiscal\s+(?:year\s+)?Q(?P<q>[1-4])\s*(?:of\s+)?(?P<y>(?:19|20)\d\d)\b", re.I),
    re.compile(r"\bquarter\s+(?P<q>[1-4])\s*(?:of\s+)?(?:(?:fiscal\s+(?:year\s+)?)|FY\s*)?(?P<y>(?:19|20)\d\d)\b", re.I),  # noqa: E501
)  # fmt: skip
_PERIOD_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("quarter", re.compile(rf"\bQ([1-4])\s*(?:of\s+)?(?:the\s+)?(?:FY|fiscal(?:\s+year)?)\s*({_YR})\b", re.I)),  # noqa: E501
    ("quarter", re.compile(rf"\bQ([1-4])\s*(?:of\s+)?[\s']({_Y4})\b|\bQ([1-4])\s*'(\d\d)\b", re.I)),
    ("quarter", re.compile(rf"\b(?:FY\s*)?({_Y4})\s*Q([1-4])\b", re.I)),
    ("quarter", re.compile(rf"\b{_ORD}[\s-]+(?:fiscal\s+)?quarter\s+(?:of\s+)?(?:the\s+)?(?:(?:fiscal\s+(?:year\s+)?)|FY\s*)?({_Y4})\b", re.I)),  # noqa: E501
    ("quarter", re.compile(rf"\b({_Y4})\s+{_ORD}[\s-]+(?:fiscal\s+)?quarter\b", re.I)),
    ("half", re.compile(rf"\bH([12])\s*(?:of\s+)?(?:FY\s*)?({_YR})\b", re.I)),
    ("half", re.compile(rf"\b(first|second)\s+half\s+(?:of\s+)?(?:(?:fiscal\s+(?:year\s+)?)|FY\s*)?({_Y4})\b", re.I)),  # noqa: E501
    ("fiscal_year", re.compile(rf"\bFY\s*({_YR})\b", re.I)),
    ("fiscal_year", re.compile(rf"\bfiscal\s+(?:year\s+)?({_Y4})\b", re.I)),
    ("fiscal_year", re.compile(rf"\b({_Y4})\s+fiscal\s+(?:year|period)\b", re.I)),
    ("fiscal_year", re.compile(rf"\bfull[\s-]year\s+({_Y4})\b", re.I)),
)  # fmt: skip
_AS_OF = re.compile(
    r"\b(?:as\s+of|as\s+at|at|ended|ending|year[\s-]end(?:ed|ing)?\s+(?:of\s+)?)\s*$", re.I
)
_CALENDAR_PREFIX = re.compile(r"\bcalendar\s+(?:year\s+)?$", re.I)


#: Months of a year: "March 2025", "Mar. 2025", "March of 2025", "October to December 2023",
#: "Oct-Dec 2023", "between October and December 2023", "October 2023 to March 2024"; seasons
#: of the northern hemisphere: "spring/summer/autumn 2024", "(in/the) fall (of) 2024".
_MONTHS_RE = re.compile(
    rf"\b(?:(?P<m1>{MONTH_NAME_RE})(?:\s*,?\s+(?:of\s+)?(?P<y1>{_Y4}))?"
    r"\s*(?P<sep>-|–|—|\bto\b|\bthrough\b|\bthru\b|\buntil\b|\band\b)\s*)?"
    rf"(?P<m2>{MONTH_NAME_RE})\s*,?\s+(?:of\s+)?(?P<y2>{_Y4})\b"
    rf"|\b(?P<season>spring|summer|autumn|(?<=in\s)fall|(?<=the\s)fall)\s+(?:of\s+)?(?P<y3>{_Y4})\b",
    re.I,
)
_BETWEEN = re.compile(r"\bbetween\s+(?:the\s+)?$", re.I)
_SEASONS: dict[str, tuple[int, int]] = {
    "spring": (3, 5),
    "summer": (6, 8),
    "autumn": (9, 11),
    "fall": (9, 11),
}
_MONTHS_LABEL = re.compile(r"(\d{4})-(\d\d)(?:\.\.(\d{4})-(\d\d))?")


def _month(name: str) -> int:
    return MONTHS[name.lower().rstrip(".")]


def _months_of(m: re.Match[str]) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """First and last ``(year, month)`` of a :data:`_MONTHS_RE` match (``None``: backwards)."""
    if m.group("season"):
        year = int(m.group("y3"))
        a, b = _SEASONS[m.group("season").lower()]
        return (year, a), (year, b)
    year = int(m.group("y2"))
    last = (year, _month(m.group("m2")))
    if not m.group("m1"):
        return last, last
    first_year = int(m.group("y1")) if m.group("y1") else year
    first = (first_year, _month(m.group("m1")))
    if first > last and not m.group("y1"):  # "November to February 2024": from Nov 2023
        first = (year - 1, first[1])
    return (first, last) if first <= last else None


#: Words before a lower-case "may" that make it the month ("in may 2024", "since may 2024");
#: after any other word it is the verb ("what may 2024 bring").
_BEFORE_MONTH = re.compile(
    r"\b(?:in|of|on|from|since|until|till|by|during|before|after|between|to|through|early|late"
    r"|mid|end|start|beginning)\s*-?\s*$",
    re.I,
)


def _verb_may(m: re.Match[str], question: str) -> bool:
    """Whether a :data:`_MONTHS_RE` match starts with the verb "may", not the month."""
    first = m.group("m1") or m.group("m2") or ""
    if first != "may":
        return False
    return not _BEFORE_MONTH.search(question[max(0, m.start() - 20) : m.start()])


def _month_end(ym: tuple[int, int]) -> date:
    year, month = ym
    nxt = date(year + month // 12, month % 12 + 1, 1)
    return nxt - timedelta(days=1)


def months_label(first: tuple[int, int], last: tuple[int, int]) -> str:
    """The label of a span of months: ``2025-03``, or ``2023-10..2023-12``."""
    a = f"{first[0]}-{first[1]:02d}"
    return a if first == last else f"{a}..{last[0]}-{last[1]:02d}"


def months_span(label: str) -> tuple[date, date] | None:
    """First and last day of a :func:`months_label` label (``None`` for any other label)."""
    m = _MONTHS_LABEL.fullmatch(label)
    if not m:
        return None
    first = (int(m.group(1)), int(m.group(2)))
    last = (int(m.group(3)), int(m.group(4))) if m.group(3) else first
    return date(first[0], first[1], 1), _month_end(last)


def _year(text: str) -> int:
    digits = text.lstrip("'")
    return int(digits) if len(digits) == 4 else 2000 + int(digits)


def _atomic_periods(question: str) -> list[_Period]:
    taken: list[tuple[int, int]] = []
    found: list[_Period] = []

    def free(a: int, b: int) -> bool:
        return all(b <= s or a >= e for s, e in taken)

    def add(p: _Period) -> None:
        found.append(p)
        taken.append((p.start, p.end))

    for m in SPLIT_YEAR_RE.finditer(question):  # "2024/25": the fiscal year ending in 2025
        year = split_year(m)
        if year is not None:
            add(_Period(f"FY{year}", year, "split_year", m.start(), m.end()))
    for pattern in _NAMED_QUARTERS:
        for m in pattern.finditer(question):
            if free(m.start(), m.end()):
                year = _year(m.group("y"))
                label = f"{year}Q{m.group('q')}"
                add(_Period(label, year, "quarter", m.start(), m.end()))
    for kind, pattern in _PERIOD_PATTERNS:
        for m in pattern.finditer(question):
            if not free(m.start(), m.end()):
                continue
            groups = [g for g in m.groups() if g]
            if kind == "quarter":
                q = next(g for g in groups if g.lower() in ORDINALS or g in "1234")
                y = next(g for g in groups if g is not q)
                num = ORDINALS.get(q.lower(), 0) or int(q)
                year = _year(y)
                add(_Period(f"{year}Q{num}", year, kind, m.start(), m.end()))
            elif kind == "half":
                h, y = groups[0], groups[1]
                num = {"first": 1, "second": 2}.get(h.lower(), 0) or int(h)
                year = _year(y)
                add(_Period(f"{year}H{num}", year, kind, m.start(), m.end()))
            else:
                year = _year(groups[0])
                add(_Period(f"FY{year}", year, kind, m.start(), m.end()))
    for m in DATE_RE.finditer(question):
        if not free(m.start(), m.end()):
            continue
        d = date_from_match(m)
        if d is None:
            continue
        prefix = question[max(0, m.start() - 30) : m.start()]
        if _AS_OF.search(prefix):
            label = fiscal_year_label(d)
            add(_Period(label, int(label[2:]), "as_of", m.start(), m.end()))
        else:
            add(_Period(d.isoformat(), d.year, "date", m.start(), m.end()))
    for m in _MONTHS_RE.finditer(question):
        if not free(m.start(), m.end()):
            continue
        span = _months_of(m)
        if span is None or _verb_may(m, question):
            continue
        before = question[max(0, m.start() - 12) : m.start()]
        if (m.group("sep") or "").lower() == "and" and not _BETWEEN.search(before):
            # "March 2023 and March 2024": two periods, a list (a span only after "between")
            year = int(m.group("y1") or m.group("y2"))
            one, two = (year, _month(m.group("m1"))), span[1]
            end_one = m.end("y1") if m.group("y1") else m.end("m1")
            add(_Period(months_label(one, one), year, "months", m.start(), end_one))
            add(_Period(months_label(two, two), two[0], "months", m.start("m2"), m.end()))
            continue
        first, last = span
        prefix = question[max(0, m.start() - 30) : m.start()]
        if first == last and _AS_OF.search(prefix):  # "year ended March 2025": that year
            label = fiscal_year_label(_month_end(last))
            add(_Period(label, int(label[2:]), "as_of", m.start(), m.end()))
        else:
            add(_Period(months_label(first, last), first[0], "months", m.start(), m.end()))
    for m in YEAR_RE.finditer(question):
        if not free(m.start(), m.end()):
            continue
        year = int(m.group(0))
        start = m.start()
        cal = _CALENDAR_PREFIX.search(question[max(0, start - 20) : start])
        if cal:
            start -= len(cal.group(0))
        add(_Period(str(year), year, "calendar_year", start, m.end()))
    return sorted(found, key=lambda p: p.start)


_RANGE_GAP = re.compile(r"^\s*(?:-|–|—|to|through|thru|until)\s*$", re.I)
_AND_GAP = re.compile(r"^\s*(?:and|&)\s*(?:the\s+)?$", re.I)


def _years_of(p: _Period) -> tuple[int, ...]:
    """The years a period names: both ends of a span of months across a new year."""
    span = months_span(p.label) if p.kind == "months" else None
    return tuple(sorted({span[0].year, span[1].year})) if span else (p.year,)


def parse_periods(question: str) -> list[Constraint]:
    """Period constraints of a question, without any gazetteer (``doc_values`` empty).

    Args:
        question: The question.

    Returns:
        One constraint per period mentioned, ranges merged (see the module docstring).
    """
    atoms = _atomic_periods(question)
    out: list[Constraint] = []
    i = 0
    while i < len(atoms):
        a = atoms[i]
        if i + 1 < len(atoms):
            b = atoms[i + 1]
            gap = question[a.end : b.start]
            before = question[max(0, a.start - 12) : a.start]
            is_range = bool(_RANGE_GAP.match(gap)) or (
                bool(_AND_GAP.match(gap))
                and bool(re.search(r"\bbetween\s+(?:the\s+)?$", before, re.I))
            )
            if is_range and a.year <= b.year:
                out.append(
                    Constraint(
                        field="period",
                        values=(a.label, b.label),
                        span=(a.start, b.end),
                        text=question[a.start : b.end],
                        years=(a.year, b.year),
                        kind=a.kind if a.kind == b.kind else f"{a.kind}+{b.kind}",
                        relation="range",
                    )
                )
                i += 2
                continue
        out.append(
            Constraint(
                field="period",
                values=(a.label,),
                span=(a.start, a.end),
                text=question[a.start : a.end],
                years=_years_of(a),
                kind=a.kind,
            )
        )
        i += 1
    return out


def matching_periods(
    constraint: Constraint | Iterable[int],
    periods: Iterable[str],
    *,
    comparative_years: int = 1,
) -> list[str]:
    """Indexed period labels whose documents report any year the constraint names.

    A document labelled ``FY2022`` or ``2022Q2`` covers 2022 and, as comparatives, the
    ``comparative_years`` years before (a 10-K for FY2022 also reports FY2021; a 10-Q the
    same quarter of the year before). A dated document (``2022-07-01``) covers only its
    year. Best first: labels equal to one the question names, then documents *about* a named
    year, then those that only report it as a comparative (newest first). This is the
    fallback of :func:`select_periods`, used for a named period that no relevant readable
    document is exactly about.

    Args:
        constraint: A period constraint, or the years themselves.
        periods: Period labels present in the index.
        comparative_years: Prior years a periodic report is taken to cover (0 = strict).

    Returns:
        The matching labels, best first.
    """
    if isinstance(constraint, Constraint):
        years = set(constraint.years)
        labels = set(constraint.values)
    else:
        years, labels = set(constraint), set()
    scored: list[tuple[int, int, str]] = []
    for label in set(periods):
        py = period_years(label)
        if not py:
            continue
        year = py[0]
        back = 0 if re.match(r"^\d{4}-\d\d-\d\d$", label) else comparative_years
        covered = set(range(year - back, year + 1))
        if not covered & years:
            continue
        rank = 0 if label in labels else (1 if year in years else 2)
        scored.append((rank, -year, label))
    return [label for _r, _y, label in sorted(scored)]


# ---------------------------------------------------------------------------------------------
# document types


_DOC_TYPE_PATTERNS: tuple[tuple[re.Pattern[str], tuple[str, ...], Match, str], ...] = (
    (re.compile(r"\b10-?K\b", re.I), ("10-K",), "exact", "form"),
    (re.compile(r"\b10-?Q\b", re.I), ("10-Q",), "exact", "form"),
    (re.compile(r"\b8-?K\b", re.I), ("8-K",), "exact", "form"),
    (re.compile(r"\b20-?F\b", re.I), ("20-F",), "exact", "form"),
    (re.compile(r"\bannual\s+reports?\b", re.I), ("10-K", "annual report", "20-F"), "partial", "wording"),  # noqa: E501
    (re.compile(r"\bquarterly\s+(?:reports?|filings?)\b", re.I), ("10-Q", "quarterly report"), "partial", "wording"),  # noqa: E501
    (re.compile(r"\bearnings\s+(?:release|call|report|announcement)s?\b|\bpress\s+release\b", re.I), ("earnings",), "partial", "wording"),  # noqa: E501
    (re.compile(r"\bproxy\s+statements?\b", re.I), ("proxy statement",), "partial", "wording"),
)  # fmt: skip


def _doc_type_constraints(question: str) -> list[Constraint]:
    out: list[Constraint] = []
    for pattern, values, match, kind in _DOC_TYPE_PATTERNS:
        for m in pattern.finditer(question):
            out.append(
                Constraint(
                    field="doc_type",
                    values=tuple(normalize_doc_type(v) or v for v in values),
                    span=(m.start(), m.end()),
                    text=m.group(0),
                    match=match,
                    kind=kind,
                )
            )
    return out


# ---------------------------------------------------------------------------------------------
# unmatched names


_CAP_RUN = r"[A-Z][A-Za-z0-9&.\-]*(?:\s+(?:&\s+)?[A-Z][A-Za-z0-9&.\-]*){0,3}"
_POSSESSIVE = re.compile(rf"\b({_CAP_RUN})['’]s\b")
_CUE = re.compile(
    rf"\b(?:for|did|does|has|had|have|was|is|about|at|of)\s+({_CAP_RUN})"
    r"(?=\s*(?:[?.,;]|$|\s+(?:in|for|during|as|of|report|reported|have|has|had|pay|paid|"
    r"generate|generated|spend|spent|earn|earned|own|owe)\b))"
)


def unmatched(
    question: str,
    gazetteer: Gazetteer,
    constraints: Sequence[Constraint] = (),
) -> tuple[UnmatchedEntity, ...]:
    """Names the question uses like a company that match no indexed company.

    Conservative on purpose (a false "not indexed" is worse than none): only capitalised
    names written as a possessive ("Boeing's") or right after a cue word and before a
    question boundary or verb ("for Boeing?", "did Boeing report"), that do not overlap a
    matched constraint, are not question words, months, places or finance acronyms, and
    match no name, alias or first word in the gazetteer. A caller should only refuse on
    these when the question matched no indexed company at all.

    Args:
        question: The question.
        gazetteer: What the index holds.
        constraints: Constraints already found (their spans are excluded).

    Returns:
        The unmatched names, in question order.
    """
    spans = [c.span for c in constraints]
    out: dict[tuple[int, int], UnmatchedEntity] = {}
    for pattern, reason in ((_POSSESSIVE, "possessive"), (_CUE, "cue")):
        for m in pattern.finditer(question):
            text = m.group(1).strip(" .-")
            start = m.start(1)
            words = text.split()
            # drop leading question/common words ("What Boeing's" -> "Boeing")
            while words and words[0].lower().strip(".") in _COMMON_CAPS:
                start = question.index(words[1], start) if len(words) > 1 else m.end(1)
                words = words[1:]
            if not words:
                continue
            text = " ".join(words)
            end = start + len(text)
            if question[start:end] != text:
                continue  # names with unusual spacing: skip rather than guess
            if any(not (end <= s or start >= e) for s, e in spans):
                continue
            if all(w.lower().strip(".") in _COMMON_CAPS for w in words):
                continue
            if len(words) == 1 and (
                words[0].upper() in _NOT_SYMBOLS or any(c.isdigit() for c in words[0])
            ):
                continue
            if gazetteer.lookup(text) or any(gazetteer.lookup(w) for w in words):
                continue
            out.setdefault((start, end), UnmatchedEntity(text, (start, end), reason))
    return tuple(sorted(out.values(), key=lambda u: u.span))


# ---------------------------------------------------------------------------------------------
# putting it together


def _annual_key(label: str) -> str:
    """``FY2021`` and ``2021`` name the same annual period; other labels are themselves."""
    m = re.fullmatch(r"(?:FY)?(\d{4})", label)
    return f"Y{m.group(1)}" if m else label


def _period_order(label: str) -> tuple[int, int]:
    """Chronological key of a period label: year, then quarter (a full year after its Q4)."""
    q = re.fullmatch(r"(\d{4})Q([1-4])", label)
    if q:
        return int(q.group(1)), int(q.group(2))
    years = period_years(label)
    if not years:
        return 0, 0
    return years[-1], 5 if re.fullmatch(r"(?:FY)?\d{4}", label) else 0


def named_periods(constraint: Constraint, *, limit: int = 24) -> tuple[str, ...]:
    """The period labels a constraint names: its value, or every period of a range.

    A range of fiscal years, calendar years or quarters is expanded to each period between
    its endpoints ("from FY2020 to FY2022" -> ``FY2020, FY2021, FY2022``); a mixed or longer
    range (more than ``limit`` periods) keeps its endpoints.

    Args:
        constraint: A period constraint.
        limit: Most periods a range is expanded to.

    Returns:
        The labels, in order, without duplicates.
    """
    values = tuple(dict.fromkeys(constraint.values))
    if constraint.relation != "range" or len(values) != 2:
        return values
    a, b = values
    for pattern, fmt in (
        (r"FY(\d{4})", "FY{y}"),
        (r"(\d{4})", "{y}"),
    ):
        ma, mb = re.fullmatch(pattern, a), re.fullmatch(pattern, b)
        if ma and mb:
            ya, yb = int(ma.group(1)), int(mb.group(1))
            if 0 <= yb - ya < limit:
                return tuple(fmt.format(y=y) for y in range(ya, yb + 1))
            return values
    qa, qb = re.fullmatch(r"(\d{4})Q([1-4])", a), re.fullmatch(r"(\d{4})Q([1-4])", b)
    if qa and qb:
        start = int(qa.group(1)) * 4 + int(qa.group(2)) - 1
        end = int(qb.group(1)) * 4 + int(qb.group(2)) - 1
        if 0 <= end - start < limit:
            return tuple(f"{n // 4}Q{n % 4 + 1}" for n in range(start, end + 1))
    return values


def select_periods(
    constraint: Constraint,
    periods: Iterable[str],
    *,
    comparative_years: int = 1,
) -> list[str]:
    """The indexed period labels a period constraint selects: exact where present.

    For each period the constraint names (:func:`named_periods`): the indexed labels that
    are that period (same label; ``FY2021`` = ``2021``) when there are any, else the labels
    whose documents report its year as a comparative (:func:`matching_periods`). Pass the
    periods of the documents the caller may read, of one company when the question names it.

    Args:
        constraint: A period constraint.
        periods: Period labels of the relevant readable documents.
        comparative_years: Prior years a periodic report is taken to cover, for the fallback.

    Returns:
        The selected labels, exact ones first, without duplicates.
    """
    present = sorted(set(periods))
    out: list[str] = []
    for label in named_periods(constraint):
        key = _annual_key(label)
        exact = [p for p in present if _annual_key(p) == key]
        if not exact:
            years = period_years(label)
            exact = matching_periods(years, present, comparative_years=comparative_years)
        out.extend(p for p in exact if p not in out)
    return out


#: Words that make a question about a period forward-looking ("what is it forecasting for
#: FY2025", "guidance for 2025", "what does it expect to spend in 2025").
_FORWARD = re.compile(
    r"\b(?:forecast\w*|guidance|guid(?:e|es|ed|ing)\s+(?:for|to)|outlook|expects?\s+to|expecting"
    r"|anticipat\w*|predict\w*|projections?\s+for|plans?\s+(?:to|for)|planned\s+for|will"
    r"|going\s+to\s+be|next\s+(?:fiscal\s+)?(?:year|quarter)|coming\s+(?:fiscal\s+)?year"
    r"|upcoming)\b",
    re.I,
)


_ANCHOR = re.compile(r"\bas\s+(?:of|at)\s+(?:the\s+)?$", re.I)


def is_forward_looking(question: str) -> bool:
    """Whether a question asks what a company expects rather than what it reported.

    Cue words: forecast, guidance, outlook, "expects to", anticipate, predict, "projections
    for", "plans to/for", will, "next year", "coming year", upcoming. ("Expected" alone is
    not a cue: "expected return on plan assets" is a reported figure.)

    Args:
        question: The question.
    """
    return bool(_FORWARD.search(question))


def _stated(d: Mapping[str, Any]) -> bool:
    """Whether a document's period is stated (``period_source`` ``stated``, or unrecorded:
    metadata written before the distinction, or supplied by a caller, is taken as stated)."""
    return bool(d.get("period")) and d.get("period_source") in (None, "stated")


def _end_key(d: Mapping[str, Any]) -> str:
    """Chronological key of a document's period end (ISO date; from the label if unknown)."""
    if d.get("period_end"):
        return str(d["period_end"])
    label = str(d.get("period") or "")
    q = re.fullmatch(r"(\d{4})Q([1-4])", label)
    if q:
        return f"{q.group(1)}-{int(q.group(2)) * 3:02d}-28"
    h = re.fullmatch(r"(\d{4})H([12])", label)
    if h:
        return f"{h.group(1)}-{int(h.group(2)) * 6:02d}-28"
    if re.fullmatch(r"\d{4}-\d\d-\d\d", label):
        return label
    years = period_years(label)
    return f"{years[0]}-12-31" if years else ""


def coverage(d: Mapping[str, Any]) -> tuple[date, date] | None:
    """First and last day a document's period covers (``None`` when it has none).

    The period ends on ``period_end`` (or the end its label implies, :func:`_end_key`) and
    lasts as its label says: a year (``FY2025``, ``2025``) twelve months, a quarter three, a
    half six, a dated document (``2023-05-26``) that one day. So a report for the year ended
    31 March 2025 covers April 2024 to March 2025.
    """
    label = str(d.get("period") or "")
    try:
        end = date.fromisoformat(_end_key(d))
    except ValueError:
        return None
    if re.fullmatch(r"\d{4}-\d\d-\d\d", label):
        return end, end
    months = 12
    if re.fullmatch(r"\d{4}Q[1-4]", label):
        months = 3
    elif re.fullmatch(r"\d{4}H[12]", label):
        months = 6
    index = end.year * 12 + end.month - months  # the month before the period's first month
    return date(index // 12, index % 12 + 1, 1), end


def _months_select(c: Constraint, docs: Sequence[Mapping[str, Any]]) -> list[str]:
    """Labels of the documents whose period overlaps the months a ``months`` constraint
    names, latest period end first ("October to December 2023" selects the report for the
    year ended 31 March 2024, not the one labelled 2023); empty when none overlaps."""
    spans = [s for s in (months_span(v) for v in named_periods(c)) if s is not None]
    hits: list[tuple[str, str]] = []
    for d in docs:
        cov = coverage(d)
        if cov and any(cov[0] <= last and first <= cov[1] for first, last in spans):
            hits.append((_end_key(d), str(d["period"])))
    return list(dict.fromkeys(label for _end, label in sorted(hits, reverse=True)))


def _months_before(c: Constraint, docs: Sequence[Mapping[str, Any]]) -> list[str]:
    """Labels of the documents whose period ended before the months a ``months`` constraint
    names begin, within a year of the latest of them (latest first): where a plan for
    "summer 2024" is written."""
    spans = [s for s in (months_span(v) for v in named_periods(c)) if s is not None]
    if not spans:
        return []
    start = min(first for first, _last in spans)
    ends = [(cov[1], str(d["period"])) for d in docs if (cov := coverage(d)) and cov[1] < start]
    if not ends:
        return []
    latest = max(end for end, _label in ends)
    recent = [(end, label) for end, label in ends if (latest - end).days < 366]
    return list(dict.fromkeys(label for _end, label in sorted(recent, reverse=True)))


def _earlier_labels(label: str, present: Sequence[str]) -> list[str]:
    """Labels of documents published before ``label``'s period: those of the year before it
    (the annual report, its quarters, dated documents) when any, else the latest earlier."""
    years = period_years(label)
    if not years:
        return []
    year = years[0]
    before = [p for p in present if period_years(p) and period_years(p)[0] < year]
    prior = [p for p in before if period_years(p)[0] == year - 1]
    if prior:
        return sorted(prior, key=lambda p: _period_order(p), reverse=True)
    if not before:
        return []
    latest = max(period_years(p)[0] for p in before)
    return [p for p in before if period_years(p)[0] == latest]


def _resolve(
    c: Constraint,
    groups: list[list[dict[str, Any]]],
    key_field: str | None = None,
    *,
    organised: bool = True,
) -> Constraint:
    """Fill ``doc_values`` (and ``passthrough``) of a period / doc-type constraint.

    ``groups`` are the relevant documents, one list per company the question names exactly
    (one list of every document when it names none): periods are selected per group, and
    only among documents whose period is **stated**; the documents whose period is not
    stated are admitted whatever the question names (``passthrough``). A corpus that is not
    ``organised`` by period (fewer than two distinct stated periods among the readable
    documents, :func:`period_organised`) gets a boost, never a filter. A forward-looking period
    also selects the documents published before it (:func:`_earlier_labels`). Without
    ``key_field`` (documents without ids) unstated documents downgrade the constraint to a
    boost instead.
    """
    docs = [d for g in groups for d in g]
    present = [d[c.field] for d in docs if d.get(c.field)]
    missing = len(docs) - len(present)
    match, note = c.match, c.note
    passthrough: list[str] = []
    if c.field == "period":
        selected: list[str] = []
        unstated_docs = 0
        for g in groups:
            pool_docs = [d for d in g if (_stated(d) if organised else d.get("period"))]
            pool = [str(d["period"]) for d in pool_docs]
            if c.kind == "months":  # the documents whose period overlaps them, else by year
                labels = _months_select(c, pool_docs) or matching_periods(c.years, pool)
            else:
                labels = select_periods(c, pool)
            if c.forward:
                earlier = (
                    _months_before(c, pool_docs)
                    if c.kind == "months"
                    else [e for v in named_periods(c) for e in _earlier_labels(v, pool)]
                )
                labels = [*dict.fromkeys([*earlier, *labels])]
            selected.extend(v for v in labels if v not in selected)
            admit = [d for d in g if not organised or not _stated(d)]
            unstated_docs += len(admit)
            if key_field is not None:
                passthrough.extend(
                    str(d[key_field]) for d in admit if str(d[key_field]) not in passthrough
                )
        values = tuple(selected)
        if match == "exact" and not organised:
            match = "partial"
            note = "the corpus is not organised by stated period: a boost, not a filter"
            passthrough = []
        elif match == "exact" and unstated_docs and key_field is None:
            match = "partial"
            note = (
                f"{unstated_docs} relevant indexed document(s) have no period, or only an "
                "inferred one: not used as a filter"
            )
            passthrough = []
        elif match == "exact" and not values and not passthrough:
            note = "no indexed document matches this period"
        elif match == "exact" and passthrough:
            note = (
                f"filters documents with a stated period; {len(passthrough)} without one "
                "(or of a company not organised by period) admitted"
            )
        if c.forward and values:
            note = (note + "; " if note else "") + "forward-looking: the documents published "
            note += "before the period first"
        if match != "exact":
            passthrough = []
    else:
        wanted = set(c.values)
        values = tuple(sorted({v for v in present if v in wanted}))
        if match == "exact" and missing:
            match = "partial"
            note = f"{missing} relevant indexed document(s) have no {c.field}: not used as a filter"
        elif match == "exact" and not values:
            note = f"no indexed document matches this {c.field}"
    return replace(
        c,
        match=match,
        doc_values=values,
        note=note,
        passthrough=tuple(passthrough),
        passthrough_field=key_field or "doc_id",
    )


def period_organised(documents: Iterable[Mapping[str, Any]]) -> bool:
    """Whether a corpus is organised by reporting period: at least two distinct **stated**
    periods among its (readable) documents. A single report, or documents whose periods are
    only inferred, are not: a year the question names is then a boost, never a filter."""
    return len({str(d["period"]) for d in documents if _stated(d)}) >= 2


def _recency(companies: Sequence[Constraint], gazetteer: Gazetteer) -> Constraint | None:
    """A boost to the most recent documents of the one company a question names exactly.

    The latest period end of each document type the company has (its latest 10-K and its
    latest 10-Q, ...), when its documents cover at least two periods; ``None`` otherwise.
    """
    exact = [c for c in companies if c.match == "exact"]
    if len(exact) != 1:
        return None
    docs = [d for d in gazetteer.documents_of(exact[0].values) if d.get("period")]
    if len({d["period"] for d in docs}) < 2:
        return None
    latest: dict[str, dict[str, Any]] = {}
    for d in docs:
        kind = str(d.get("doc_type") or "")
        if kind not in latest or _end_key(d) > _end_key(latest[kind]):
            latest[kind] = d
    labels = tuple(dict.fromkeys(str(d["period"]) for d in latest.values()))
    c = exact[0]
    return Constraint(
        field="period",
        values=labels,
        span=c.span,
        text=c.text,
        match="partial",
        doc_values=labels,
        kind="recency",
        note="names a company but no period: its most recent documents first (a boost)",
    )


def parse_constraints(question: str, gazetteer: Gazetteer) -> QuestionConstraints:
    """Find the companies, periods and document types a question is about.

    Args:
        question: The user's question.
        gazetteer: What the index holds (see :class:`Gazetteer`).

    Returns:
        The constraints (question order), the unmatched company-like names and, for a
        question naming one company and no period, the recency boost.
    """
    companies = _company_constraints(question, gazetteer)
    company_spans = [c.span for c in companies]
    periods = [
        p
        for p in parse_periods(question)
        if all(p.span[1] <= s or p.span[0] >= e for s, e in company_spans)
    ]
    # forward-looking only with one period, not an anchor ("As of FY2021, what did it expect
    # for 2024?" names the filing it asks about: that one answers)
    if (
        len(periods) == 1
        and periods[0].relation == "single"
        and is_forward_looking(question)
        and not _ANCHOR.search(question[max(0, periods[0].span[0] - 12) : periods[0].span[0]])
    ):
        periods = [replace(periods[0], forward=True)]
    doc_types = [
        d
        for d in _doc_type_constraints(question)
        if all(d.span[1] <= s or d.span[0] >= e for s, e in company_spans)
    ]
    exact_names = list(dict.fromkeys(n for c in companies if c.match == "exact" for n in c.values))
    key = gazetteer.key_field
    # documents without a company may be about the one named: a company filter admits them
    # (by id), and their periods count with that company's
    anonymous = [d for d in gazetteer.documents if not d.get("company")]
    if anonymous and key is not None:
        ids = tuple(dict.fromkeys(str(d[key]) for d in anonymous))
        companies = [
            replace(c, passthrough=ids, passthrough_field=key) if c.match == "exact" else c
            for c in companies
        ]
    else:
        anonymous = []
    groups = [gazetteer.documents_of([n]) + anonymous for n in exact_names] or [
        gazetteer.documents_of(None)
    ]
    organised = period_organised(gazetteer.documents)
    resolved = [_resolve(c, groups, key, organised=organised) for c in periods + doc_types]
    everything = sorted(companies + resolved, key=lambda c: c.span)
    return QuestionConstraints(
        question=question,
        constraints=tuple(everything),
        unmatched=unmatched(question, gazetteer, everything),
        recency=None if periods else _recency(companies, gazetteer),
    )


def filter_for(constraints: QuestionConstraints | Sequence[Constraint]) -> dict[str, Any] | None:
    """A LangChain dict filter from the exact, unambiguous constraints (``None`` if none).

    Each field gives ``{"field": {"$in": [...]}}`` over the union of its exact constraints'
    ``doc_values`` (several companies named: any of them); fields are ANDed with ``$and``.
    A period constraint with ``passthrough`` documents (period not stated, or a company not
    organised by period) gives ``{"$or": [{"period": {"$in": [...]}}, {"doc_id": {"$in":
    [...]}}]}``: the filter removes only documents whose stated period is another one.
    The syntax is that of :mod:`citerag.core.filters`.

    Args:
        constraints: A parse result, or its constraints.

    Returns:
        The filter, or ``None`` when nothing is exact.
    """
    items = constraints.constraints if isinstance(constraints, QuestionConstraints) else constraints
    parts: list[dict[str, Any]] = []
    for name in ("company", "period", "doc_type"):
        exact = [c for c in items if c.field == name and c.match == "exact"]
        if not exact:
            continue
        values: list[str] = []
        admitted: dict[str, list[str]] = {}
        for c in exact:
            values.extend(v for v in c.doc_values if v not in values)
            ids = admitted.setdefault(c.passthrough_field, [])
            ids.extend(i for i in c.passthrough if i not in ids)
        alternatives: list[dict[str, Any]] = [{name: {"$in": values}}] if values else []
        alternatives += [{f: {"$in": ids}} for f, ids in admitted.items() if ids]
        if not alternatives:
            alternatives = [{name: {"$in": []}}]
        parts.append(alternatives[0] if len(alternatives) == 1 else {"$or": alternatives})
    return combine(*parts)


def boosts_for(
    constraints: QuestionConstraints | Sequence[Constraint],
) -> list[tuple[str, tuple[str, ...]]]:
    """Tie-breakers for the retriever: ``(field, values)`` to prefer, not to require.

    Ambiguous and partial constraints contribute their ``doc_values`` (or their ``values``
    when nothing indexed matches); exact period constraints contribute the indexed labels
    that are a period the question names (``FY2021`` = ``2021``): the filter admits
    comparative-year documents only when such a label is missing for some company, and then
    the exact ones still come first. For a **range** ("from FY2019 to FY2021") the filter
    admits every period of it, and the boost goes to the latest one indexed: a periodic
    report presents the prior years as comparatives, so the range's last report covers most
    of it, and it is the one whose figures are current (restated, not superseded). A
    forward-looking period boosts the documents published before it; a parse result's
    ``recency`` boosts the named company's most recent documents.

    Args:
        constraints: A parse result, or its constraints.

    Returns:
        ``[(field, values), ...]`` without duplicates, in question order.
    """
    items = list(
        constraints.constraints if isinstance(constraints, QuestionConstraints) else constraints
    )
    if isinstance(constraints, QuestionConstraints) and constraints.recency is not None:
        items.append(constraints.recency)
    out: list[tuple[str, tuple[str, ...]]] = []
    for c in items:
        if c.field == "period" and c.kind == "months" and c.doc_values:
            values = c.doc_values  # the documents whose period overlaps the months named
        elif c.field == "period" and c.forward and c.doc_values:
            # forward-looking: the documents published before the period come first
            keys = {_annual_key(v) for v in named_periods(c)}
            values = tuple(v for v in c.doc_values if _annual_key(v) not in keys) or c.doc_values
        elif c.match != "exact":
            values = c.doc_values or c.values
        elif c.field == "period":
            keys = {_annual_key(v) for v in named_periods(c)}
            values = tuple(v for v in c.doc_values if _annual_key(v) in keys)
            if c.relation == "range" and values:
                latest = max(_period_order(v) for v in values)
                values = tuple(v for v in values if _period_order(v) == latest)
        else:
            continue
        if values and (c.field, values) not in out:
            out.append((c.field, values))
    return out


# ---------------------------------------------------------------------------------------------
# statement wording for the keyword leg


@cache
def statement_glossary() -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """The entries of ``chains/financial_terms.json``: ``(ways of asking, statement line
    items)`` each, in file order (also read by the extractive answerer's focus checks)."""
    text = resources.files("chains").joinpath("financial_terms.json").read_text(encoding="utf-8")
    return tuple(
        (tuple(entry["ask"]), tuple(entry["statement"])) for entry in json.loads(text)["terms"]
    )


@cache
def _statement_glossary() -> tuple[tuple[re.Pattern[str], tuple[str, ...]], ...]:
    out = []
    for asked, statement in statement_glossary():
        asks = sorted((re.escape(a.lower()) for a in asked), key=len, reverse=True)
        pattern = re.compile(r"(?<![\w&])(?:" + "|".join(asks) + r")s?(?![\w&])", re.I)
        out.append((pattern, statement))
    return tuple(out)


def statement_terms(question: str) -> tuple[str, ...]:
    """How financial statements word what the question asks about (``chains/financial_terms.json``).

    "capital expenditure" -> "purchases of property, plant and equipment", ...; "balance
    sheet" -> "consolidated balance sheets", "total assets", ... Phrases the question already
    contains are left out. Meant for the keyword leg of questions whose constraints matched a
    filing: a filing's statements name line items in their own words.

    Args:
        question: The question.

    Returns:
        The statement phrases, in glossary order, without duplicates.
    """
    lower = question.lower()
    out: list[str] = []
    for pattern, phrases in _statement_glossary():
        if pattern.search(question):
            out.extend(p for p in phrases if p not in out and p not in lower)
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# applying constraints


#: Ordering bonus per boost a candidate satisfies (added to its ``rerank`` score for ordering
#: only; the gate still reads the unboosted score).
BOOST = 0.1


def apply_boosts(
    candidates: Sequence[Any],
    boosts: Sequence[tuple[str, Sequence[str]]],
    *,
    score: str = "rerank",
    bonus: float = BOOST,
) -> list[Any]:
    """Reorder candidates so those matching the boosts come first among near-equals.

    Each satisfied ``(field, values)`` adds ``bonus`` to the candidate's ordering key
    (its ``score``, else ``dense``); the scores themselves are unchanged and the bonus is
    recorded as ``scores["boost"]``. The sort is stable, so without boosts nothing moves.

    Args:
        candidates: :class:`~chains.candidates.Candidate` objects, best first.
        boosts: From :func:`boosts_for`.
        score: The score to order by.
        bonus: Ordering bonus per satisfied boost.

    Returns:
        The candidates, reordered (a new list).
    """
    if not boosts:
        return list(candidates)

    def key(c: Any) -> float:
        hits = sum(1 for f, values in boosts if c.meta.get(f) in values)
        if hits:
            c.scores["boost"] = hits * bonus
        base = c.scores.get(score, c.scores.get("dense", 0.0))
        return float(base) + hits * bonus

    return sorted(candidates, key=key, reverse=True)


#: Places a satisfied boost lifts a candidate in :func:`first_stage_order`.
BOOST_RANKS = 4
#: Places a table of a statement the question names lifts a candidate in
#: :func:`first_stage_order` ("… shown in the cash flow statement", "… on the balance sheet").
STATEMENT_RANKS = 4

#: The financial statements a direction names ("the cash flow statement", "the P&L
#: statement") and a table's title states ("Consolidated Statements of Cash Flows"), by the
#: words that name each; a table merely about one ("Free Cash Flow (non-GAAP measure)") is
#: none.
_STATEMENT_KINDS = (
    (
        "cash flows",
        re.compile(
            r"\bstatements?\s+of\s+(?:consolidated\s+)?cash[\s-]*flows?\b"
            r"|\bcash[\s-]*flows?\s+statements?\b",
            re.IGNORECASE,
        ),
    ),
    (
        "financial position",
        re.compile(
            r"(?<!off[\s-])\bbalance\s+sheets?\b"
            r"|\bstatements?\s+of\s+(?:consolidated\s+)?financial\s+(?:position|condition)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "income",
        re.compile(
            r"\b(?:income|earnings|operations)\s+statements?\b"
            r"|\bstatements?\s+of\s+(?:consolidated\s+)?(?:comprehensive\s+)?"
            r"(?:income|operations|earnings|(?:net\s+)?loss)\b"
            r"|\bp\s?&\s?l\b|\bprofit\s+(?:and|&)\s+loss\b",
            re.IGNORECASE,
        ),
    ),
    (
        "equity",
        re.compile(
            r"\bstatements?\s+of\s+(?:consolidated\s+)?(?:changes\s+in\s+)?"
            r"(?:(?:shareholders|stockholders|owners|members|partners)['’]?\s+)?"
            r"(?:equity|capital|deficit)\b|\bstatements?\s+of\s+changes\s+in\s+net\s+assets\b",
            re.IGNORECASE,
        ),
    ),
)


def statement_kinds(text: str) -> frozenset[str]:
    """The financial statements ``text`` names: ``"the cash flow statement"`` ->
    ``{"cash flows"}``, ``"Consolidated Balance Sheets"`` -> ``{"financial position"}``."""
    return frozenset(kind for kind, pattern in _STATEMENT_KINDS if pattern.search(text))


def table_titles(meta: Mapping[str, Any]) -> list[str]:
    """The titles of the tables a chunk's rows belong to (:func:`loaders.row_text.row_title`),
    in order, without repeats; none for a chunk without titled table rows or with a malformed
    record (:func:`loaders.row_text.recorded_rows` reads the records)."""
    from loaders.row_text import recorded_rows, row_title

    return list(dict.fromkeys(t for t in (row_title(r) for r in recorded_rows(meta)) if t))


def first_stage_order(
    candidates: Sequence[Any],
    boosts: Sequence[tuple[str, Sequence[str]]] = (),
    *,
    lift: int = BOOST_RANKS,
    naming: Sequence[str] = (),
    statement_lift: int = STATEMENT_RANKS,
) -> list[Any]:
    """Order candidates by their first-stage (fused) rank, boosts lifting them ``lift`` places.

    Used instead of the second stage's order for a question about a filing whose keyword leg
    searched the statements' wording (:func:`statement_terms`): statement pages are tables,
    whose rows a sentence-level second stage scores poorly, while the expanded keyword leg
    finds them. The second stage's scores are kept (the gate reads them); its order breaks
    ties. The key is recorded as ``scores["order"]`` (lower first).

    A table of a statement the question names ("… shown in the cash flow statement", "…
    long-term debt on the balance sheet") moves up ``statement_lift`` places: its title
    states that statement (:func:`table_titles`, :func:`statement_kinds`), recorded as
    ``scores["statement"]``.

    Args:
        candidates: Candidates in the second stage's order, with ``ranks["fused"]``.
        boosts: From :func:`boosts_for`.
        lift: Places each satisfied boost moves a candidate up.
        naming: Texts whose statement names count: the question, directions included.
        statement_lift: Places a table of a named statement moves up.

    Returns:
        The candidates, reordered (a new list).
    """
    n = len(candidates)
    named = statement_kinds(" ".join(naming)) if naming else frozenset()
    keyed = []
    for pos, c in enumerate(candidates):
        hits = sum(1 for f, values in boosts if c.meta.get(f) in values)
        if hits:
            c.scores["boost"] = hits * BOOST
        key = float(c.ranks.get("fused", n + 1) - lift * hits)
        if named and any(statement_kinds(t) & named for t in table_titles(c.meta)):
            c.scores["statement"] = 1.0
            key -= statement_lift
        c.scores["order"] = key
        keyed.append((key, pos, c))
    return [c for _k, _p, c in sorted(keyed, key=lambda t: (t[0], t[1]))]


def refusal_reason(
    qc: QuestionConstraints, *, companies_indexed: bool, every_document_has_a_company: bool = True
) -> str:
    """Why a question must be refused before retrieval ('' when it need not be).

    * A field whose exact constraints no readable document satisfies ("no indexed document
      you can access is about 3M FY2030"); a question naming several periods is answered
      when at least one of them is covered ("FY2023, FY2022 and FY2021" with only the
      FY2023 filing indexed: the filing reports FY2022 too, and the answer may be partial).
    * A company-like name the index does not hold, when the question matched no indexed
      company, the index holds companies, and the question also names a period or a
      document type (the financial framing that makes the name a company; without it,
      "Napoleon's army" would be refused on a history corpus), and every readable document
      names its company (in a corpus where some do not — a charity's reports beside its
      readings and newsletters — "rain at Low Fold in 2025" names a place, not a company).

    Args:
        qc: The parse result.
        companies_indexed: Whether any readable document has a ``company``.
        every_document_has_a_company: Whether every readable document has one.
    """
    dead = [
        c
        for c in qc.uncovered
        if not any(o.doc_values for o in qc.by_field(c.field) if o.match == "exact")
    ]
    if dead:  # every exact constraint on that field is satisfied by no readable document
        named = [v for c in qc.companies if c.match == "exact" for v in c.values]
        missing = [c.text for c in dead if c.field != "company"]
        about = " ".join([*dict.fromkeys(named), *missing]) or ", ".join(c.text for c in dead)
        return f"no indexed document you can access is about {about}"
    framed = bool(qc.periods or qc.doc_types)
    if (
        qc.unmatched
        and not qc.companies
        and companies_indexed
        and every_document_has_a_company
        and framed
    ):
        names = ", ".join(dict.fromkeys(u.text for u in qc.unmatched))
        period = " ".join(c.text for c in qc.periods)
        return f"no indexed document you can access is about {names}" + (
            f" {period}" if period else ""
        )
    return ""
