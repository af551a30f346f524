"""Index locations and PostgreSQL store URLs: parsing, validation, redaction (no database)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from citerag.cli import index_location, store_url
from citerag.stores.location import describe, is_store_url
from citerag.stores.postgres.db import (
    DEFAULT_NAMESPACE,
    HNSW_EF_CONSTRUCTION,
    HNSW_EF_SEARCH,
    HNSW_M,
    StoreURL,
)
from citerag.stores.postgres.filters import compile_filter
from citerag.stores.postgres.keyword import tsquery_text


@pytest.mark.parametrize(
    ("location", "expected"),
    [
        ("postgresql://u@h/db", True),
        ("postgresql+psycopg://u:p@h:5432/db", True),
        ("postgres://h/db", True),
        ("POSTGRESQL+asyncpg://h/db", True),
        (".citerag/index", False),
        ("sqlite:///x.db", False),
        (Path("postgresql://h/db"), False),  # a Path is always a directory
        (None, False),
    ],
)
def test_is_store_url(location, expected) -> None:
    assert is_store_url(location) is expected


def test_parse_drops_the_driver_and_citerag_parameters() -> None:
    url = StoreURL.parse(
        "postgresql+psycopg://ann:s3cret@db.example:5433/rag?sslmode=require&namespace=team_a"
        "&ef_search=200"
    )
    assert url.conninfo == "postgresql://ann:s3cret@db.example:5433/rag?sslmode=require"
    assert url.namespace == "team_a"
    assert url.hnsw["ef_search"] == 200
    assert url.table("chunks").as_string(None) == '"team_a_chunks"'
    assert "s3cret" not in url.redacted() and "ann:***@db.example" in url.redacted()
    assert "s3cret" not in describe(url.url)


def test_defaults() -> None:
    url = StoreURL.parse("postgresql://localhost/rag")
    assert url.namespace == DEFAULT_NAMESPACE
    assert url.hnsw == {
        "m": HNSW_M,
        "ef_construction": HNSW_EF_CONSTRUCTION,
        "ef_search": HNSW_EF_SEARCH,
    }
    assert url.lock_key == StoreURL.parse("postgresql://elsewhere/rag").lock_key
    assert url.lock_key != StoreURL.parse("postgresql://localhost/rag?namespace=b").lock_key


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("postgresql://h/db?namespace=Team-A", "namespace 'Team-A'"),
        ("postgresql://h/db?namespace=1abc", "namespace '1abc'"),
        ("postgresql://h/db?ef_search=0", "ef_search='0'"),
        ("postgresql://h/db?m=abc", "m='abc'"),
        ("mysql://h/db", "not a PostgreSQL store URL"),
    ],
)
def test_bad_urls_name_the_value(url: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        StoreURL.parse(url)


def test_cli_locations() -> None:
    assert index_location("postgresql://h/db") == "postgresql://h/db"  # not a collapsed Path
    assert index_location("some/dir") == Path("some/dir")
    with pytest.raises(argparse.ArgumentTypeError, match="not an index directory"):
        index_location("s3://bucket/index")
    with pytest.raises(argparse.ArgumentTypeError, match="--index for a directory"):
        store_url("some/dir")
    with pytest.raises(ValueError, match="namespace"):
        store_url("postgresql://h/db?namespace=BAD")


def test_tsquery_quotes_lexemes() -> None:
    assert tsquery_text(["log-0042", "o'brien"]) == "'log-0042' | 'o''brien'"


def test_filters_bind_every_value() -> None:
    where, params = compile_filter({"access": {"$in": ["public", "x'; DROP TABLE t; --"]}})
    assert "DROP" not in where.as_string(None)
    assert params == [["public", "x'; DROP TABLE t; --"]]
    assert compile_filter(None)[0].as_string(None) == "TRUE"
    with pytest.raises(ValueError, match=r"\$gt"):
        compile_filter({"page": {"$gt": 3}})
    with pytest.raises(ValueError, match="list of values"):
        compile_filter({"page": {"$in": 3}})
