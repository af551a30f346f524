"""Page diversity in the final order (``chains.diversity``): pure ordering, no model."""

from __future__ import annotations

import pytest
from langchain_core.documents import Document

from chains.candidates import Candidate
from chains.diversity import DEMOTED, diversify_pages, page_of


def _cand(key: str, doc: str, page: int | None) -> Candidate:
    meta = {"doc_id": doc, "doc_name": f"{doc}.pdf", "content": key}
    if page is not None:
        meta["page"] = page
    return Candidate(key=key, document=Document(page_content=key, metadata=meta))


def test_each_pages_best_chunk_comes_before_any_pages_second() -> None:
    ranked = [
        _cand("a1", "d", 49),
        _cand("a2", "d", 49),
        _cand("b1", "d", 46),
        _cand("a3", "d", 49),
        _cand("c1", "d", 60),
    ]
    out = diversify_pages(ranked, 1)
    assert [c.key for c in out] == ["a1", "b1", "c1", "a2", "a3"]
    assert out[3].scores[DEMOTED] == 2.0 and out[4].scores[DEMOTED] == 3.0
    assert DEMOTED not in out[0].scores


def test_a_limit_of_two_keeps_two_chunks_of_a_page_in_place() -> None:
    ranked = [_cand("a1", "d", 1), _cand("a2", "d", 1), _cand("a3", "d", 1), _cand("b1", "d", 2)]
    assert [c.key for c in diversify_pages(ranked, 2)] == ["a1", "a2", "b1", "a3"]


def test_the_same_page_number_of_another_document_is_another_page() -> None:
    ranked = [_cand("a1", "d", 3), _cand("e1", "e", 3), _cand("a2", "d", 3)]
    assert [c.key for c in diversify_pages(ranked, 1)] == ["a1", "e1", "a2"]


def test_chunks_without_a_page_never_move() -> None:
    ranked = [_cand("h1", "faq", None), _cand("h2", "faq", None), _cand("p1", "d", 1)]
    assert [c.key for c in diversify_pages(ranked, 1)] == ["h1", "h2", "p1"]
    assert page_of(ranked[0]) is None and page_of(ranked[2]) == ("d", 1)


def test_off_returns_the_order_unchanged_and_a_negative_limit_is_refused() -> None:
    ranked = [_cand("a1", "d", 1), _cand("a2", "d", 1), _cand("b1", "d", 2)]
    assert [c.key for c in diversify_pages(ranked, 0)] == ["a1", "a2", "b1"]
    with pytest.raises(ValueError, match="per_page must be 0"):
        diversify_pages(ranked, -1)
