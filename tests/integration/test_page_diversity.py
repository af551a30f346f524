"""Page diversity over a real index (``per_page``): the sample corpus on FAISS and on
PostgreSQL, the real graph and embedding model. The annual report's revenue table is cut into
several chunks of one page; with ``per_page = 1`` each page's best chunk comes before any
page's second, the moved chunks say so in the trace, and nothing is lost or added."""

from __future__ import annotations

from typing import Any

import pytest

from chains.diversity import DEMOTED
from graphs.deps import GraphDeps
from graphs.rag import build_graph

pytestmark = pytest.mark.integration

QUESTION = "What was Northwind's total revenue in 2025?"


@pytest.fixture(scope="module")
def deps(sample_deps) -> GraphDeps:
    return sample_deps


def candidates(deps: GraphDeps, **knobs: Any) -> list[dict[str, Any]]:
    result = build_graph(deps).invoke({"question": QUESTION}, {"configurable": knobs})
    return list(result["trace"]["candidates"])


def page(c: dict[str, Any]) -> tuple[str, int] | None:
    return (c["doc_id"], c["page"]) if c.get("page") is not None else None


def test_one_chunk_per_page_first_then_the_repeats(deps):
    plain = candidates(deps)
    pages = [page(c) for c in plain if page(c) is not None]
    assert len(pages) > len(set(pages)), "the question should find two chunks of one page"
    div = candidates(deps, per_page=1)
    assert sorted(c["chunk_id"] for c in div) == sorted(c["chunk_id"] for c in plain)
    moved = [i for i, c in enumerate(div) if DEMOTED in c["scores"]]
    assert moved and moved == list(range(moved[0], len(div)))  # the repeats come last
    leading = [page(c) for c in div[: moved[0]] if page(c) is not None]
    assert len(leading) == len(set(leading))
    assert all(c["scores"][DEMOTED] >= 2 for c in div[moved[0] :])
    # the kept chunks keep the second stage's order
    kept = [c["chunk_id"] for c in div[: moved[0]]]
    assert kept == [c["chunk_id"] for c in plain if c["chunk_id"] in set(kept)]
    assert not any(DEMOTED in c["scores"] for c in plain)
