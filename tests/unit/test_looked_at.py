"""Where a refused run looked (``chains.citations.build_looked_at``) and how the command line
and notebooks show it (no model)."""

from __future__ import annotations

import pytest
from langchain_core.documents import Document

from chains.candidates import Candidate
from chains.citations import LOOKED_AT_TITLE, build_looked_at, source_record
from citerag.cli_ask import format_result
from citerag.notebook import result_markdown


def _cand(content: str, start: int, **meta: object) -> Candidate:
    base = {"doc_id": "d1", "doc_name": "handbook.docx", "source": "docs/handbook.docx"}
    meta = {**base, "chunk_id": f"d1:{start}", "content": content, **meta}
    meta |= {"start": start, "end": start + len(content)}
    doc = Document(page_content=f"Header\n\n{content}", metadata=meta)
    return Candidate(key=f"k{start}", document=doc, scores={"rerank": 0.4})


def test_the_first_passages_each_as_a_citation_of_the_whole_passage():
    cands = [_cand(f"Passage {i}.", 100 * i) for i in range(5)]
    looked = build_looked_at(cands)
    assert [r["index"] for r in looked] == [1, 2, 3]
    first = looked[0]
    assert first["quote"] == "Passage 0." and (first["start"], first["end"]) == (0, 10)
    assert first["fragment"] == "#char=0,10" and first["scores"] == {"rerank": 0.4}
    assert first == source_record(cands[0], 1, "Passage 0.", 0, 10)
    slide = build_looked_at([_cand("Welfare officer: Jo", 40, file_type="pptx", page=3)])
    assert slide[0]["fragment"] == "#slide=3" and slide[0]["locator"] == "slide 3"
    assert build_looked_at(cands, limit=0) == [] and build_looked_at([]) == []


@pytest.mark.parametrize("limit", [-1, 1.5, True, "3"])
def test_a_bad_limit_is_refused_by_name(limit):
    with pytest.raises(ValueError, match="limit must be an integer >= 0"):
        build_looked_at([], limit=limit)


def test_the_command_line_and_notebooks_show_where_a_refusal_looked():
    looked = build_looked_at([_cand("Welfare officer: Jo Albright", 285, file_type="pptx", page=3)])
    result = {"status": "no_evidence", "answer": "No evidence.", "reason": "below the gate"}
    shown = format_result({**result, "looked_at": looked})
    assert f"{LOOKED_AT_TITLE}:" in shown and "no answer was found in them" in shown
    assert "[1] handbook.docx  slide 3  #slide=3" in shown
    assert '"Welfare officer: Jo Albright"' in shown
    assert "where it looked" not in format_result(result)
    md = result_markdown({**result, "looked_at": looked})
    assert "*where it looked" in md and "| [1] | handbook.docx | slide 3 | `#slide=3` |" in md


def test_the_candidates_table_lists_the_kept_order_beside_each_second_stage_rank():
    from citerag.notebook import candidates_markdown

    def cand(name: str, rank: int) -> dict:
        return {
            "doc_name": name,
            "page": 1,
            "lists": ["dense"],
            "ranks": {"rerank": rank},
            "scores": {"dense": 0.5, "rerank": 0.6},
        }

    # a boost moved the second stage's 3rd candidate to the second place
    table = candidates_markdown({"trace": {"candidates": [cand("a", 1), cand("c", 3)]}})
    rows = table.splitlines()[2:]
    assert [r.split("|")[1:4] for r in rows] == [[" 1 ", " 1 ", " a "], [" 2 ", " 3 ", " c "]]
