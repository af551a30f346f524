"""A griffe extension for the API reference: ``RAGConfig``'s knobs with their own words.

Each field of :class:`graphs.config.RAGConfig` is declared ``name: type = knob(default,
"description", kind, ...)``: its description lives in the field's metadata, which a static
reader would show as the field's default (``knob("auto", "follow-up questions ...", ...)``).
This extension reads the call from the source (nothing is imported) and gives the attribute
its real default (the call's first argument) and its description as docstring; a
``model_knob("setting")`` field is described by the chat-model setting it mirrors. Both the
attribute entries and the class signature then read like any dataclass's.

Loaded by ``mkdocs.yml`` (``plugins: mkdocstrings: handlers: python: options: extensions``).
"""

from __future__ import annotations

import ast
from typing import Any

import griffe


def _call_name(node: ast.AST | None) -> str:
    """The called function's name of ``node`` when it is a call to a plain name, else ''."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id
    return ""


class Knobs(griffe.Extension):
    """Default and description of each ``knob(...)`` / ``model_knob(...)`` class attribute."""

    def on_attribute_instance(
        self, *, node: ast.AST | griffe.ObjectNode, attr: griffe.Attribute, **kwargs: Any
    ) -> None:
        """Rewrite one attribute declared by a knob call (any other is left alone).

        Args:
            node: The attribute's AST node (static analysis) or object node.
            attr: The attribute griffe just loaded.
            **kwargs: The agent (unused).
        """
        if not isinstance(node, ast.AnnAssign) or attr.parent is None or not attr.parent.is_class:
            return
        call = node.value
        name = _call_name(call)
        if not isinstance(call, ast.Call) or name not in ("knob", "model_knob") or not call.args:
            return
        first = call.args[0]
        if name == "knob" and len(call.args) >= 2:
            described = call.args[1]
            if isinstance(described, ast.Constant) and isinstance(described.value, str):
                text = described.value
                attr.docstring = griffe.Docstring(text[:1].upper() + text[1:] + ".", parent=attr)
            attr.value = ast.unparse(first)
        elif name == "model_knob" and isinstance(first, ast.Constant):
            attr.docstring = griffe.Docstring(
                f"Chat model setting ``{first.value}``: its default, description and bounds "
                f"are ``chains.models.MODEL_SETTINGS['{first.value}']``.",
                parent=attr,
            )
