"""Metadata filters in LangChain's common dict syntax, evaluated identically for every index.

Supported: ``{"field": value}`` (equality), ``{"field": {"$eq"|"$ne"|"$in"|"$nin": v}}``,
several fields ANDed, and ``{"$and": [...]}`` / ``{"$or": [...]}``. The same dict works as a
``filter=`` for LangChain vector stores such as PGVector, so a server store can replace FAISS
without changing the graph.

List-valued fields (``years``, ``company_aliases``) are tested element-wise, as in MongoDB
or Chroma: ``$in`` holds when **any** element is among the values, ``$nin`` when none is;
equality (``$eq`` or a bare value) with a scalar holds when the list contains it, ``$ne``
when it does not; equality with a list compares the whole list. A missing field is
``None``: ``$in`` fails, ``$nin`` and ``$ne`` hold.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Filter = Mapping[str, Any]


def _equals(value: Any, arg: Any) -> bool:
    """Equality; a list value equals a scalar it contains."""
    if isinstance(value, list | tuple) and not isinstance(arg, list | tuple):
        return arg in value
    return bool(value == arg)


def _any_in(value: Any, arg: Any) -> bool:
    """Whether the value (any element of a list value) is among ``arg``."""
    if isinstance(value, list | tuple):
        return any(v in arg for v in value)
    return value in arg


def _match_op(value: Any, op: str, arg: Any) -> bool:
    if op == "$eq":
        return _equals(value, arg)
    if op == "$ne":
        return not _equals(value, arg)
    if op == "$in":
        return _any_in(value, arg)
    if op == "$nin":
        return not _any_in(value, arg)
    raise ValueError(f"unsupported filter operator {op!r}")


def matches(metadata: Mapping[str, Any], flt: Filter | None) -> bool:
    """Return whether a chunk's metadata satisfies the filter (``None`` matches all)."""
    if not flt:
        return True
    for key, cond in flt.items():
        if key == "$and":
            if not all(matches(metadata, sub) for sub in cond):
                return False
        elif key == "$or":
            if not any(matches(metadata, sub) for sub in cond):
                return False
        elif isinstance(cond, Mapping):
            value = metadata.get(key)
            if not all(_match_op(value, op, arg) for op, arg in cond.items()):
                return False
        elif not _equals(metadata.get(key), cond):
            return False
    return True


def combine(*filters: Filter | None) -> dict[str, Any] | None:
    """AND several filters together, dropping empty ones."""
    parts = [dict(f) for f in filters if f]
    if not parts:
        return None
    if len(parts) == 1:
        return parts[0]
    return {"$and": parts}
