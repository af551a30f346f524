"""Qualifiers of a question that are slots of the follow-up rule: how it is paid, what size.

"How much is a porcelain crown privately?" → "And on the NHS?": the follow-up is a
*payment qualifier*, and it replaces the earlier question's payment qualifier the way "And
on Sundays?" replaces its day (:mod:`chains.dayparts`) and "And in 2024?" its period
(:mod:`chains.followup`). This module finds those qualifiers; it is pure (regular
expressions, no I/O).

Two kinds of slot, each a closed set of values with an adverbial and a modifier form:

* ``payment`` — who pays or provides: privately / private, on the NHS / NHS, with
  insurance / insured, free of charge, self-funded;
* ``size`` — extra small, small, medium, large, extra large (and XS, XL, XXL).

A qualifier is ``adverbial`` when it qualifies the question ("… a crown privately?", "… on
the NHS?", "… in large?") and ``modifier`` when it qualifies the noun after it ("the private
fee", "the small gloves", "the NHS charge").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

QualifierKind = Literal["payment", "size"]
QualifierForm = Literal["adverbial", "modifier"]


@dataclass(frozen=True)
class _Value:
    kind: QualifierKind
    value: str
    adverbial: str  # how it is written qualifying a question
    modifier: str  # how it is written before a noun
    pattern: str  # how it is found (regular expression, case-insensitive)


#: The values of each kind. Longer phrases come first (they are matched first).
_VALUES: tuple[_Value, ...] = (
    _Value("payment", "nhs", "on the NHS", "NHS",
           r"(?:on|through|under|via|with)\s+(?:the\s+)?NHS|NHS"),
    _Value("payment", "private", "privately", "private",
           r"privately|as\s+an?\s+private\s+patient|private"),
    _Value("payment", "insurance", "with insurance", "insured",
           r"(?:with|through|on|via)\s+(?:my\s+|our\s+|your\s+)?(?:health\s+)?insurance|insured"),
    _Value("payment", "free", "free of charge", "free",
           r"free\s+of\s+charge|for\s+free"),
    _Value("payment", "self-funded", "self-funded", "self-funded",
           r"self[- ]funded|self[- ]pay(?:ing)?"),
    _Value("size", "extra small", "in extra small", "extra small", r"extra[- ]small|XS"),
    _Value("size", "extra large", "in extra large", "extra large", r"extra[- ]large|XXL|XL"),
    _Value("size", "small", "in small", "small", r"small"),
    _Value("size", "medium", "in medium", "medium", r"medium"),
    _Value("size", "large", "in large", "large", r"large"),
)  # fmt: skip

_CASE_SENSITIVE = {"NHS", "XS", "XL", "XXL"}
_ALTERNATION = "|".join(f"(?P<v{i}>{v.pattern})" for i, v in enumerate(_VALUES))
_QUALIFIER_RE = re.compile(
    rf"(?<![\w\-])(?<!how\s)(?:in\s+(?:a\s+|size\s+)?)?(?:{_ALTERNATION})(?![\w\-])", re.I
)
#: Words after a qualifier that show it does not qualify a noun ("privately or …").
_NOT_NOUN = {
    "and", "or", "to", "in", "on", "at", "for", "of", "by", "from", "with", "is", "are", "was",
    "were", "do", "does", "did", "be", "the", "a", "an", "than", "as", "if", "when", "but",
    "it", "they", "this", "that", "there", "only", "patient", "patients",
}  # fmt: skip


@dataclass(frozen=True)
class Qualifier:
    """One payment or size qualifier of a text.

    Attributes:
        kind: ``payment`` or ``size``.
        form: ``adverbial`` or ``modifier`` (module docstring).
        value: Its canonical value (``"nhs"``, ``"private"``, ``"small"``).
        text: The phrase as written (its preposition included).
        span: Its character span in the text.
    """

    kind: QualifierKind
    form: QualifierForm
    value: str
    text: str
    span: tuple[int, int]


def qualifiers_in(text: str) -> list[Qualifier]:
    """The payment and size qualifiers of a text, in order.

    ``"How much is a porcelain crown privately?"`` -> one ``payment`` qualifier
    (``private``, adverbial); ``"the small nitrile gloves"`` -> one ``size`` qualifier
    (``small``, modifier).

    Args:
        text: A question or a fragment of one.
    """
    out: list[Qualifier] = []
    for m in _QUALIFIER_RE.finditer(text):
        index = next(i for i, v in enumerate(_VALUES) if m.group(f"v{i}") is not None)
        entry = _VALUES[index]
        word = m.group(f"v{index}")
        if word.upper() in _CASE_SENSITIVE and word != word.upper():
            continue  # "xl" in running text is no size, "nhs" written so is not the NHS
        after = re.match(r"\s+([A-Za-z][A-Za-z\-]*)", text[m.end() :])
        noun_follows = after is not None and after.group(1).lower() not in _NOT_NOUN
        starts_with_in = m.group(0).lower().startswith("in ")
        form: QualifierForm = "modifier" if noun_follows and not starts_with_in else "adverbial"
        out.append(Qualifier(entry.kind, form, entry.value, m.group(0), (m.start(), m.end())))
    return out


def render_qualifier(kind: QualifierKind, value: str, form: QualifierForm) -> str:
    """How a qualifier value is written in a form (``("payment", "nhs", "adverbial")`` ->
    ``"on the NHS"``; ``("payment", "private", "modifier")`` -> ``"private"``).

    Raises:
        ValueError: For a kind and value this module does not know.
    """
    for v in _VALUES:
        if v.kind == kind and v.value == value:
            return v.adverbial if form == "adverbial" else v.modifier
    raise ValueError(f"unknown qualifier {kind!r} value {value!r}")
