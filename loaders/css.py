"""The small part of CSS that decides whether an HTML element is hidden from a reader.

Planted instructions are often hidden by a stylesheet rather than an inline style
(``<style>.note{display:none}</style>`` … ``<div class="note">``), so the HTML loader reads
the page's ``<style>`` elements into a ``Stylesheet`` and asks it, per element, whether the
rules that apply leave it hidden: ``display: none``, ``visibility: hidden`` / ``collapse``,
``opacity: 0`` or a zero ``font-size``.

What is read: rules whose selector is a *compound* selector — a type, ``*``, ``#id`` and
``.class`` parts, e.g. ``div.note.hidden`` or ``#x`` — in selector lists, at top level or
inside ``@media`` / ``@supports`` / ``@layer`` blocks (not those for ``print`` or ``speech``).
The cascade is applied per property: ``!important`` first, then specificity, then source
order, and an element's own ``style`` attribute beats any rule that is not ``!important``, so
``.tab{display:none} .tab.active{display:block}`` leaves the active tab visible. Not read:
selectors with combinators, attributes or pseudo-classes (``.a .b``, ``[data-x]``,
``:hover``), external stylesheets, and scripts that show or hide content later (a closed tab
counts as hidden: a reader does not see it without acting).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: Properties that can hide an element, and the values that do.
_HIDING = {
    "display": lambda v: v == "none",
    "visibility": lambda v: v in ("hidden", "collapse"),
    "opacity": lambda v: _is_zero(v),
    "font-size": lambda v: _is_zero(v),
}
_COMPOUND = re.compile(r"^(?P<tag>[a-zA-Z][\w-]*|\*)?(?P<parts>(?:[.#][\w-]+)*)$")
_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_SKIPPED_MEDIA = re.compile(r"\b(print|speech)\b", re.I)
_ZERO = re.compile(r"^[+-]?0*\.?0*(px|pt|em|rem|%|ex|ch|vw|vh|cm|mm|in|pc|q)?$", re.I)


def _is_zero(value: str) -> bool:
    return bool(value) and any(ch == "0" for ch in value) and bool(_ZERO.match(value))


def declarations(body: str) -> dict[str, tuple[str, bool]]:
    """Parse ``prop: value [!important]; …`` into ``{prop: (value, important)}``.

    Only the properties that can hide an element are kept; values are lower-cased.
    """
    out: dict[str, tuple[str, bool]] = {}
    for decl in body.split(";"):
        prop, sep, value = decl.partition(":")
        prop = prop.strip().lower()
        if not sep or prop not in _HIDING:
            continue
        value = " ".join(value.split()).lower()
        important = value.endswith("!important")
        value = value.removesuffix("!important").strip()
        out[prop] = (value, important)
    return out


def hides(decls: dict[str, tuple[str, bool]]) -> bool:
    """Whether resolved declarations hide the element."""
    return any(_HIDING[prop](value) for prop, (value, _) in decls.items())


@dataclass(frozen=True)
class _Rule:
    tag: str  # "" matches any element
    ids: frozenset[str]
    classes: frozenset[str]
    specificity: tuple[int, int, int]
    order: int
    decls: dict[str, tuple[str, bool]] = field(hash=False)

    def matches(self, tag: str, element_id: str, classes: set[str]) -> bool:
        return (
            (not self.tag or self.tag == tag)
            and self.ids <= {element_id}
            and self.classes <= classes
        )


def _blocks(css: str) -> list[tuple[str, str]]:
    """Split a stylesheet into ``(prelude, body)`` rules, descending into screen at-rules."""
    out: list[tuple[str, str]] = []
    i = 0
    while True:
        j = css.find("{", i)
        if j < 0:
            return out
        prelude = css[i:j].rsplit(";", 1)[-1].strip()  # after any "@import …;" statement
        depth, k = 1, j + 1
        while k < len(css) and depth:
            depth += {"{": 1, "}": -1}.get(css[k], 0)
            k += 1
        body = css[j + 1 : k - 1]
        if prelude.startswith("@"):
            keyword = prelude.split(None, 1)[0].lower()
            if keyword in ("@media", "@supports", "@layer") and not _SKIPPED_MEDIA.search(prelude):
                out.extend(_blocks(body))
        else:
            out.append((prelude, body))
        i = k


class Stylesheet:
    """The hiding rules of a page's ``<style>`` elements, in source order."""

    def __init__(self, css: str = "") -> None:
        """Parse ``css`` (several ``<style>`` texts may be joined).

        Args:
            css: Stylesheet text.
        """
        self.rules: list[_Rule] = []
        for prelude, body in _blocks(_COMMENT.sub(" ", css)):
            decls = declarations(body)
            if not decls:
                continue
            for selector in prelude.split(","):
                m = _COMPOUND.match(selector.strip())
                if not m or not (m["tag"] or m["parts"]):
                    continue
                parts = re.findall(r"[.#][\w-]+", m["parts"])
                ids = frozenset(p[1:] for p in parts if p[0] == "#")
                classes = frozenset(p[1:] for p in parts if p[0] == ".")
                tag = "" if m["tag"] in (None, "*") else m["tag"].lower()
                self.rules.append(
                    _Rule(
                        tag=tag,
                        ids=ids,
                        classes=classes,
                        specificity=(len(ids), len(classes), 1 if tag else 0),
                        order=len(self.rules),
                        decls=decls,
                    )
                )

    def __bool__(self) -> bool:
        return bool(self.rules)

    def hides(self, tag: str, attrs: list[tuple[str, str | None]]) -> bool:
        """Whether the cascade leaves an element hidden.

        Args:
            tag: The element's tag name (lower case, as ``html.parser`` gives it).
            attrs: Its attributes.

        Returns:
            True when the winning value of a hiding property hides it.
        """
        values = {name.lower(): value or "" for name, value in attrs}
        element_id = values.get("id", "").strip()
        classes = set(values.get("class", "").split())
        resolved: dict[str, tuple[tuple[int, ...], str]] = {}
        for rule in self.rules:
            if not rule.matches(tag, element_id, classes):
                continue
            for prop, (value, important) in rule.decls.items():
                rank: tuple[int, ...] = (int(important), 0, *rule.specificity, rule.order)
                if prop not in resolved or rank >= resolved[prop][0]:
                    resolved[prop] = (rank, value)
        for prop, (value, important) in declarations(values.get("style", "")).items():
            # The style attribute outranks every rule of the same importance.
            inline: tuple[int, ...] = (int(important), 1)
            if prop not in resolved or inline >= resolved[prop][0][:2]:
                resolved[prop] = (inline, value)
        return any(_HIDING[prop](value) for prop, (_, value) in resolved.items())
