"""Metadata filters in LangChain's common dict syntax, evaluated identically for every index.

Supported: ``{"field": value}`` (equality), ``{"field": {"$eq"|"$ne"|"$in"|"$nin": v}}``,
several fields ANDed, and ``{"$and": [...]}`` / ``{"$or": [...]}``. The same dict works as a
``filter=`` for LangChain vector stores such as PGVector, so a server store can replace FAISS
without changing the graph.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Filter = Mapping[str, Any]


def _match_op(value: Any, op: str, arg: Any) -> bool:
    if op == "$eq":
        return bool(value == arg)
    if op == "$ne":
        return bool(value != arg)
    if op == "$in":
        return value in arg
    if op == "$nin":
        return value not in arg
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
        elif metadata.get(key) != cond:
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
