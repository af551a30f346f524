"""Unit tests for metadata filters (LangChain dict syntax)."""

from __future__ import annotations

import pytest

from citerag.index.filters import combine, matches

META = {"access": "board", "doc_name": "minutes.md", "page": 3, "file_type": "markdown"}


@pytest.mark.parametrize(
    ("flt", "expected"),
    [
        (None, True),
        ({}, True),
        ({"access": "board"}, True),
        ({"access": "public"}, False),
        ({"access": "board", "page": 3}, True),
        ({"access": "board", "page": 4}, False),
        ({"missing": "x"}, False),
        ({"access": {"$eq": "board"}}, True),
        ({"access": {"$eq": "public"}}, False),
        ({"access": {"$ne": "public"}}, True),
        ({"access": {"$ne": "board"}}, False),
        ({"access": {"$in": ["public", "board"]}}, True),
        ({"access": {"$in": ["public"]}}, False),
        ({"access": {"$in": []}}, False),
        ({"access": {"$nin": ["public"]}}, True),
        ({"access": {"$nin": ["public", "board"]}}, False),
        ({"missing": {"$in": ["x"]}}, False),
        ({"missing": {"$nin": ["x"]}}, True),
        ({"page": {"$in": [1, 2, 3]}, "access": {"$ne": "public"}}, True),
        ({"$and": [{"access": "board"}, {"page": 3}]}, True),
        ({"$and": [{"access": "board"}, {"page": 2}]}, False),
        ({"$or": [{"access": "public"}, {"page": 3}]}, True),
        ({"$or": [{"access": "public"}, {"page": 2}]}, False),
        (
            {"$or": [{"$and": [{"page": 3}, {"access": "public"}]}, {"doc_name": "minutes.md"}]},
            True,
        ),
        ({"$and": [{"$or": [{"page": 1}, {"page": 3}]}, {"access": {"$nin": ["public"]}}]}, True),
        ({"$and": [{"$or": [{"page": 1}, {"page": 2}]}, {"access": "board"}]}, False),
    ],
)
def test_matches(flt: dict | None, expected: bool) -> None:
    assert matches(META, flt) is expected


def test_unsupported_operator_raises() -> None:
    with pytest.raises(ValueError, match=r"\$gt"):
        matches(META, {"page": {"$gt": 1}})


def test_combine() -> None:
    a, b = {"access": {"$in": ["public"]}}, {"page": 3}
    assert combine() is None
    assert combine(None, {}) is None
    assert combine(a, None) == a
    both = combine(a, b)
    assert both == {"$and": [a, b]}
    assert matches({"access": "public", "page": 3}, both)
    assert not matches({"access": "board", "page": 3}, both)
