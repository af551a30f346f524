"""Unit tests for metadata filters (LangChain dict syntax)."""

from __future__ import annotations

import pytest

from citerag.core.filters import combine, matches

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


#: A chunk's document metadata as ingest writes it: scalars and lists of scalars.
FILING = {
    "company": "Adobe",
    "period": "FY2022",
    "doc_type": "10-K",
    "years": [2021, 2022],
    "company_aliases": ["Adobe Inc.", "ADBE"],
}


@pytest.mark.parametrize(
    ("flt", "expected"),
    [
        ({"company": {"$in": ["Adobe", "Amcor"]}}, True),
        ({"company": {"$in": ["Amcor"]}}, False),
        ({"period": {"$in": ["FY2022"]}}, True),
        ({"period": {"$in": ["FY2021", "2022Q2"]}}, False),
        # list-valued fields: $in means "any element in", $nin "no element in"
        ({"years": {"$in": [2022]}}, True),
        ({"years": {"$in": [2019, 2021]}}, True),
        ({"years": {"$in": [2019, 2020]}}, False),
        ({"years": {"$in": []}}, False),
        ({"years": {"$nin": [2019]}}, True),
        ({"years": {"$nin": [2019, 2021]}}, False),
        ({"company_aliases": {"$in": ["ADBE"]}}, True),
        # equality with a scalar: the list contains it; with a list: the whole list
        ({"years": 2021}, True),
        ({"years": 2020}, False),
        ({"years": {"$eq": 2022}}, True),
        ({"years": {"$ne": 2022}}, False),
        ({"years": {"$ne": 2020}}, True),
        ({"years": [2021, 2022]}, True),
        ({"years": [2022]}, False),
        # the filter the question-constraints stage builds
        ({"$and": [{"company": {"$in": ["Adobe"]}}, {"period": {"$in": ["FY2022"]}}]}, True),
        ({"$and": [{"company": {"$in": ["Adobe"]}}, {"doc_type": {"$in": ["10-Q"]}}]}, False),
    ],
)
def test_matches_document_metadata(flt: dict, expected: bool) -> None:
    assert matches(FILING, flt) is expected


def test_list_valued_field_that_is_empty_or_missing() -> None:
    assert not matches({"years": []}, {"years": {"$in": [2022]}})
    assert matches({"years": []}, {"years": {"$nin": [2022]}})
    # a document without a company (no None values are stored): $in fails, $nin holds
    assert not matches({"period": "FY2022"}, {"company": {"$in": ["Adobe"]}})
    assert matches({"period": "FY2022"}, {"company": {"$nin": ["Adobe"]}})
