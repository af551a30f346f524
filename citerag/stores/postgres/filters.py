"""Compile the metadata filters of :mod:`citerag.core.filters` into PostgreSQL predicates.

The same dict that :func:`citerag.core.filters.matches` evaluates in Python becomes a SQL
``WHERE`` clause over the chunk table, with the same semantics (the unit tests check the two
agree on every operator): a field that is a real column (``access``, ``doc_id``) is compared
directly, so the access rule can use its b-tree index; any other field is read from the
``langchain_metadata`` JSONB column, where ``@>`` gives the element-wise rule for list-valued
fields for free (``'["FY2021","FY2022"]' @> '"FY2021"'`` holds, as does ``'"FY2021"' @>
'"FY2021"'``). A missing field is SQL ``NULL``: ``$in`` and equality fail, ``$nin`` and ``$ne``
hold, as in Python.

The result is a ``psycopg.sql.Composable`` plus its parameters; values are always bound,
never spliced into the text.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from psycopg import sql

from citerag.core.filters import Filter

#: Metadata fields stored as their own text columns (single-valued strings).
COLUMNS = ("access", "doc_id")
#: The JSONB column holding every metadata field.
METADATA_COLUMN = "langchain_metadata"

TRUE = sql.SQL("TRUE")


def _jsonb(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def _field(name: str) -> sql.Composable:
    return sql.SQL("({} -> {})").format(sql.Identifier(METADATA_COLUMN), sql.Literal(name))


def _equals(name: str, arg: Any, params: list[Any]) -> sql.Composable:
    """``value == arg`` or, for a list value and a scalar arg, ``arg in value``."""
    if name in COLUMNS and isinstance(arg, str):
        params.append(arg)
        return sql.SQL("({} = %s)").format(sql.Identifier(name))
    params.append(_jsonb(arg))
    if isinstance(arg, list | tuple):  # a list compares as a whole
        return sql.SQL("COALESCE({} = %s::jsonb, FALSE)").format(_field(name))
    return sql.SQL("COALESCE({} @> %s::jsonb, FALSE)").format(_field(name))


def _any_in(name: str, args: Sequence[Any], params: list[Any]) -> sql.Composable:
    """The value (any element of a list value) is among ``args``."""
    if not args:
        return sql.SQL("FALSE")
    if name in COLUMNS and all(isinstance(a, str) for a in args):
        params.append(list(args))
        return sql.SQL("COALESCE({} = ANY(%s::text[]), FALSE)").format(sql.Identifier(name))
    params.append([_jsonb(a) for a in args])
    return sql.SQL("COALESCE({} @> ANY(%s::jsonb[]), FALSE)").format(_field(name))


def _op(name: str, op: str, arg: Any, params: list[Any]) -> sql.Composable:
    if op == "$eq":
        return _equals(name, arg, params)
    if op == "$ne":
        return sql.SQL("NOT {}").format(_equals(name, arg, params))
    if op in ("$in", "$nin"):
        if not isinstance(arg, list | tuple | set | frozenset):
            raise ValueError(f"{op} needs a list of values, not {arg!r}")
        inner = _any_in(name, list(arg), params)
        return inner if op == "$in" else sql.SQL("NOT {}").format(inner)
    raise ValueError(f"unsupported filter operator {op!r}")


def compile_filter(flt: Filter | None) -> tuple[sql.Composable, list[Any]]:
    """Translate a filter into a SQL predicate and its parameters.

    Args:
        flt: A filter in LangChain's dict syntax (``None`` or ``{}``: everything).

    Returns:
        ``(predicate, params)``; the predicate is ``TRUE`` for no filter.

    Raises:
        ValueError: An unsupported operator or a malformed ``$and``/``$or``.
    """
    params: list[Any] = []
    return _compile(flt, params), params


def _compile(flt: Filter | None, params: list[Any]) -> sql.Composable:
    if not flt:
        return TRUE
    parts: list[sql.Composable] = []
    for key, cond in flt.items():
        if key in ("$and", "$or"):
            if not isinstance(cond, list | tuple):
                raise ValueError(f"{key} needs a list of filters, not {cond!r}")
            subs = [_compile(sub, params) for sub in cond]
            if not subs:
                parts.append(TRUE if key == "$and" else sql.SQL("FALSE"))
                continue
            joiner = sql.SQL(" AND " if key == "$and" else " OR ")
            parts.append(sql.SQL("({})").format(joiner.join(subs)))
        elif isinstance(cond, Mapping):
            parts.extend(_op(key, op, arg, params) for op, arg in cond.items())
        else:
            parts.append(_equals(key, cond, params))
    return sql.SQL("({})").format(sql.SQL(" AND ").join(parts)) if parts else TRUE
