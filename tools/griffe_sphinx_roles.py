"""A griffe extension for the API reference: Sphinx roles in docstrings as Markdown code.

The docstrings are Google style, but name other objects the Sphinx way
(``:class:`~graphs.deps.GraphDeps```, ``:func:`as_search_index```), which Markdown would show
verbatim. This extension rewrites each role to a code span before mkdocstrings renders the
docstring: ``:role:`~a.b.C``` becomes ```C``` (the ``~`` keeps the last name, as in Sphinx),
``:role:`a.b.C``` becomes ```a.b.C```. Only the docstrings' text changes; griffe still reads
the sources statically (nothing is imported).

Loaded by ``mkdocs.yml`` (``plugins: mkdocstrings: handlers: python: options: extensions``).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

#: ``:role:`target``` with an optional ``~`` (Sphinx's "show the last name only").
ROLE = re.compile(r":(?:py:)?[a-z]+:`(~?)([^`]+)`")


def plain_roles(text: str) -> str:
    """``text`` with every Sphinx role as a Markdown code span.

    Args:
        text: A docstring.

    Returns:
        The docstring, ``:class:`~a.b.C``` written ```C```, ``:mod:`a.b``` written ```a.b```.
    """

    def code(match: re.Match[str]) -> str:
        tilde, target = match.groups()
        return f"`{target.rsplit('.', 1)[-1] if tilde else target}`"

    return ROLE.sub(code, text)


class SphinxRoles(griffe.Extension):
    """Rewrites the Sphinx roles of every docstring griffe loads (:func:`plain_roles`)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite the roles of one object's docstring, if it has one.

        Args:
            obj: The module, class, function or attribute griffe just loaded.
            **kwargs: The node and the agent (unused).
        """
        if obj.docstring is not None:
            obj.docstring.value = plain_roles(obj.docstring.value)
