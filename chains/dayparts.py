"""Days and times of day in a question: typed slots of the follow-up rule.

"What is the hire rate on a weekday?" → "And at weekends?": the follow-up is a *day
expression*, and it replaces the earlier question's day expression the way "And in 2024?"
replaces its period (:mod:`chains.followup`). This module finds those expressions; it is
pure (regular expressions, no I/O).

Two kinds of slot:

* ``day`` — weekday(s), weekend(s), Monday … Sunday and their plurals, alone or joined
  ("Saturdays and Sundays", "Monday to Friday");
* ``time`` — a time of day: morning(s), afternoon(s), evening(s), night(s), midday, noon,
  clock times after a preposition ("after 6pm", "before 9.30am"), and whether it is in or
  out of (working) hours ("out of hours", "an out-of-hours call-out", "after hours",
  "outside office hours" -> ``out of hours``; "during office hours", "in normal working
  hours" -> ``in hours``; "in hours" alone is no time of day: "the time in hours").

Each phrase has a *form*: ``adverbial`` when a preposition or quantifier leads it ("on a
weekday", "at weekends", "on Sundays", "every Monday", "in the evening", "after 6pm"),
``modifier`` when it qualifies the noun that follows ("the weekday rate", "Sunday opening
hours", "evening classes"), else ``bare`` ("Sundays?", "open Sundays").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

SlotKind = Literal["day", "time"]
SlotForm = Literal["adverbial", "modifier", "bare"]

#: Named days and the day kinds, by canonical value.
_DAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
#: The named days each value covers (what a rewrite must keep: "weekend" is kept by
#: "Saturday and Sunday").
DAYS_COVERED: dict[str, frozenset[str]] = {
    **{d: frozenset({d}) for d in _DAY_NAMES},
    "weekday": frozenset(_DAY_NAMES[:5]),
    "weekend": frozenset(_DAY_NAMES[5:]),
}
_TIME_WORDS = ("morning", "afternoon", "evening", "night", "midday", "noon", "lunchtime")

_DAY_WORD = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|week[- ]?day|week[- ]?end)s?"
_TIME_WORD = r"(?:morning|afternoon|evening|night|lunchtime)s?|midday|noon"
_CLOCK = r"\d{1,2}(?:[.:]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}[.:]\d{2}"
_JOIN = r"\s*(?:,|and|or|to|through|till|until|-|–)\s*(?:on\s+)?"
_LEAD = (
    r"(?:(?:on|at|over|during|for|through|throughout|across|in|by|from|until|till|"
    r"after|before)\s+(?:(?:a|an|the|every|each|all)\s+)?|(?:every|each|all)\s+)"
)
_DAY_RE = re.compile(
    rf"(?P<lead>\b{_LEAD})?\b(?P<words>{_DAY_WORD}(?:{_JOIN}{_DAY_WORD})*)"
    rf"(?:\s+(?P<tod>{_TIME_WORD}))?\b",
    re.I,
)
_TIME_RE = re.compile(
    rf"(?P<lead>\b{_LEAD})?\b(?P<words>(?:{_TIME_WORD})(?:{_JOIN}(?:{_TIME_WORD}))*)\b", re.I
)
_CLOCK_RE = re.compile(
    rf"(?P<lead>\b(?:after|before|from|until|till|by|at)\s+)(?P<words>(?:{_CLOCK})"
    rf"(?:\s*(?:-|–|to|and)\s*(?:{_CLOCK}))?)(?![\w.])",
    re.I,
)
#: Words that say which hours ("office hours", "normal working hours").
_HOURS_KIND = r"(?:normal|usual|standard|regular|core|office|working|business|opening)"
#: Whether it is in or out of (working) hours: a time of day with two values.
_HOURS_RE = re.compile(
    rf"(?<![\w\-])(?:(?P<out>out[- ]of[- ]hours|after[- ]hours|outside\s+(?:(?:the\s+)?"
    rf"{_HOURS_KIND}\s+){{0,2}}hours)|(?P<in>(?:during|within|in)\s+(?:the\s+)?"
    rf"(?:{_HOURS_KIND}\s+){{1,2}}hours))(?![\w\-])",
    re.I,
)
#: The two values of :data:`_HOURS_RE`.
OUT_OF_HOURS = "out of hours"
IN_HOURS = "in hours"
#: Words after a day or time word that show it is not a modifier of them.
_NOT_HEAD = {
    "and", "or", "to", "in", "on", "at", "for", "of", "by", "from", "with", "is", "are", "was",
    "were", "do", "does", "did", "be", "the", "a", "an", "than", "as", "if", "when", "but",
    "it", "they", "this", "that", "there", "until", "till", "after", "before", "only",
}  # fmt: skip


@dataclass(frozen=True)
class SlotPhrase:
    """One day or time-of-day expression of a text.

    Attributes:
        kind: ``day`` or ``time``.
        form: ``adverbial``, ``modifier`` or ``bare`` (module docstring).
        text: The phrase as written (its preposition included).
        span: Its character span in the text.
        values: Canonical lower-case values, in order (``("weekday",)``,
            ``("saturday", "sunday")``, ``("evening",)``, ``("after 6pm",)``).
        plural: Whether its (last) word is plural ("Sundays", "weekends", "Sunday
            evenings").
        times: The time of day a day phrase carries with it ("on Sunday evenings":
            ``("evening",)``).
    """

    kind: SlotKind
    form: SlotForm
    text: str
    span: tuple[int, int]
    values: tuple[str, ...]
    plural: bool
    times: tuple[str, ...] = ()


def _day_value(word: str) -> str:
    low = re.sub(r"[- ]", "", word.lower())
    return low[:-1] if low.endswith("s") else low


def _time_value(word: str) -> str:
    low = word.lower()
    return low[:-1] if low.endswith("s") and low not in ("noon",) else low


def _form(text: str, m: re.Match[str]) -> SlotForm:
    if m.group("lead"):
        return "adverbial"
    nxt = re.match(r"\s+([A-Za-z][A-Za-z'’\-]*)", text[m.end() :])
    if nxt and nxt.group(1).lower() not in _NOT_HEAD and not re.match(r"[?!.,;:]", nxt.group(1)):
        return "modifier"
    return "bare"


def slot_phrases(text: str) -> list[SlotPhrase]:
    """The day and time-of-day expressions of a text, in order.

    ``"What is the hire rate for the Committee Room on a weekday?"`` -> one ``day`` phrase
    ``"on a weekday"`` (adverbial, ``("weekday",)``); ``"What is the weekday rate?"`` -> one
    ``day`` phrase ``"weekday"`` (modifier); ``"Is it open after 6pm?"`` -> one ``time``
    phrase ``"after 6pm"``; ``"the out-of-hours rate"`` -> one ``time`` phrase (modifier,
    ``("out of hours",)``).

    Args:
        text: A question or a follow-up fragment.
    """
    found: list[SlotPhrase] = []
    for m in _HOURS_RE.finditer(text):
        value = OUT_OF_HOURS if m.group("out") else IN_HOURS
        nxt = re.match(r"\s+([A-Za-z][A-Za-z'’\-]*)", text[m.end() :])
        modifier = m.group("out") and nxt and nxt.group(1).lower() not in _NOT_HEAD
        found.append(
            SlotPhrase(
                "time", "modifier" if modifier else "adverbial", m.group(0),
                (m.start(), m.end()), (value,), False,
            )
        )  # fmt: skip
    for kind, pattern in (("day", _DAY_RE), ("time", _TIME_RE), ("time", _CLOCK_RE)):
        for m in pattern.finditer(text):
            span = (m.start(), m.end())
            if any(span[0] < p.span[1] and span[1] > p.span[0] for p in found):
                continue
            if kind == "day" and _in_name(text, m.start("words"), m.end("words")):
                continue  # "the Sunday Club", "the Friday Market", "Good Friday": a name
            words_text = m.group("words")
            if pattern is _CLOCK_RE:
                clock = re.sub(r"\s+", "", words_text.lower())
                values: tuple[str, ...] = (f"{m.group('lead').strip().lower()} {clock}",)
                plural = False
                form: SlotForm = "adverbial"
                times: tuple[str, ...] = ()
            else:
                word_re = _DAY_WORD if kind == "day" else _TIME_WORD
                words = re.findall(word_re, words_text, re.I)
                value_of = _day_value if kind == "day" else _time_value
                values = tuple(dict.fromkeys(value_of(w) for w in words))
                tod = m.groupdict().get("tod")
                times = (_time_value(tod),) if tod else ()
                last = (tod or words[-1]).lower()
                plural = last.endswith("s") and last != "noon"
                form = _form(text, m)
            found.append(
                SlotPhrase(kind, form, m.group(0), span, values, plural, times)  # type: ignore[arg-type]
            )
    return sorted(found, key=lambda p: p.span)


#: Two named days joined as a range ("Monday to Friday", "Mon–Fri" is not read).
_RANGE = re.compile(
    r"\b((?:mon|tues|wednes|thurs|fri|satur|sun)day)s?\s*(?:to|through|till|until|-|–)\s*"
    r"(?:on\s+)?((?:mon|tues|wednes|thurs|fri|satur|sun)day)s?\b",
    re.I,
)
#: A capitalised word next to a day word that makes both one name.
_CAPITAL_WORD = re.compile(r"[A-Z][\w'’-]*")


def _in_name(text: str, start: int, end: int) -> bool:
    """Whether the one capitalised day word at ``text[start:end]`` is part of a name: a
    capitalised word other than a day or time word follows it ("the Sunday Club", "the
    Friday Market", "the Sunday Times"), or precedes it inside the sentence ("Good
    Friday")."""
    word = text[start:end]
    if not word[:1].isupper() or " " in word.strip():
        return False
    kind_word = re.compile(rf"(?:{_DAY_WORD}|{_TIME_WORD})", re.I)
    after = re.match(r"\s+(\S+)", text[end:])
    nxt = after.group(1).rstrip("?.,!;:") if after else ""
    if _CAPITAL_WORD.fullmatch(nxt) and not kind_word.fullmatch(nxt):
        return True
    before = re.search(r"(\S+)\s+$", text[:start])
    prev = before.group(1) if before else ""
    if before and _CAPITAL_WORD.fullmatch(prev) and not kind_word.fullmatch(prev):
        ahead = text[: before.start()].rstrip()
        return bool(ahead) and not ahead.endswith((".", "?", "!"))  # not the sentence's opening
    return False


def days_covered(text: str) -> frozenset[str]:
    """The named days the text's day expressions cover (``weekend`` -> Saturday, Sunday;
    "Monday to Friday" -> the five)."""
    out: set[str] = set()
    for p in slot_phrases(text):
        if p.kind == "day":
            for v in p.values:
                out |= DAYS_COVERED.get(v, frozenset())
            for m in _RANGE.finditer(p.text):
                a, b = (_DAY_NAMES.index(_day_value(g)) for g in m.groups())
                out |= {_DAY_NAMES[i % 7] for i in range(a, a + (b - a) % 7 + 1)}
    return frozenset(out)


def times_named(text: str) -> frozenset[str]:
    """The time-of-day values of the text's expressions (``evening``, ``after 6pm``)."""
    out: set[str] = set()
    for p in slot_phrases(text):
        out.update(p.values if p.kind == "time" else p.times)
    return frozenset(out)


def _word(value: str, plural: bool) -> str:
    word = value.capitalize() if value in _DAY_NAMES else value
    return word + "s" if plural and value not in ("midday", "noon") else word


def render(
    kind: SlotKind,
    values: Sequence[str],
    times: Sequence[str] = (),
    *,
    plural: bool = False,
    modifier: bool = False,
) -> str | None:
    """Day or time-of-day values written into a question.

    As a modifier of a noun: ``"Sunday"``, ``"weekend"``, ``"Sunday evening"`` (``None``
    for a clock time: it qualifies no noun). As an adverbial, with the usual preposition:
    ``"on Sundays"``, ``"at weekends"``, ``"at the weekend"``, ``"on a weekday"``, ``"on
    Sunday evenings"``, ``"in the evening"``, ``"at night"``.

    Args:
        kind: ``day`` or ``time``.
        values: Canonical values (:attr:`SlotPhrase.values`).
        times: Times of day a day carries (``kind == "day"`` only).
        plural: Whether the last word is plural.
        modifier: Write it as a modifier.
    """
    if any(v[0].isdigit() or " " in v for v in [*values, *times]):
        return None if modifier else " and ".join(values)
    if modifier:
        return " ".join([" and ".join(_word(v, False) for v in values), *times])
    if kind == "day":
        words = " and ".join(_word(v, plural and not times) for v in values)
        if times:
            return f"on {words} {' and '.join(_word(t, plural) for t in times)}"
        if values[0] == "weekend":
            return f"at {words}" if plural else f"at the {words}"
        if values[0] == "weekday" and not plural:
            return f"on a {words}"
        return f"on {words}"
    words = " and ".join(_word(v, plural) for v in values)
    if values[0] in ("night", "midday", "noon", "lunchtime"):
        return f"at {words}"
    return f"in the {words}"


def as_modifier(phrase: SlotPhrase) -> str | None:
    """The phrase written as a modifier of a noun ("Sunday" for "on Sundays", "weekend" for
    "at weekends"); ``None`` for a clock time (it qualifies no noun)."""
    return render(phrase.kind, phrase.values, phrase.times, modifier=True)


def as_adverbial(phrase: SlotPhrase) -> str:
    """The phrase written as an adverbial: as written when it is one, else with the usual
    preposition ("on Sundays", "at weekends", "on a weekday", "in the evening", "at night")."""
    if phrase.form == "adverbial":
        return phrase.text[:1].lower() + phrase.text[1:]  # "On Sundays?" said alone
    out = render(phrase.kind, phrase.values, phrase.times, plural=phrase.plural)
    return out if out is not None else phrase.text
