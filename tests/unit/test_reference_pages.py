"""``python -m citerag.reference_pages`` rewrites exactly the generated blocks of the pages."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from citerag.reference_pages import BLOCKS, GeneratedBlock, regenerate, update

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_regenerate_replaces_only_the_block():
    block = GeneratedBlock("x.md", "demo", lambda: "| new |")
    text = "prose before\n<!-- demo:begin -->\n| old |\n<!-- demo:end -->\nprose after\n"
    assert regenerate(text, block) == (
        "prose before\n<!-- demo:begin -->\n| new |\n<!-- demo:end -->\nprose after\n"
    )
    with pytest.raises(ValueError, match="lacks the <!-- demo:begin -->"):
        regenerate("no markers", block)


def test_a_stale_page_is_found_and_rewritten(tmp_path):
    docs = tmp_path / "docs"
    for block in BLOCKS:
        (docs / block.page).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(DOCS / block.page, docs / block.page)
    update(docs)  # the copies now hold the current blocks, whatever the repository's say
    assert update(docs, check=True) == []
    page = docs / "reference" / "http-routes.md"
    current = page.read_text(encoding="utf-8")
    page.write_text(current.replace("| GET | `/health` |", "| GET | `/healthz` |"), "utf-8")
    assert update(docs, check=True) == ["reference/http-routes.md"]
    assert "/healthz" in page.read_text(encoding="utf-8")  # --check leaves the page alone
    assert update(docs) == ["reference/http-routes.md"]
    assert page.read_text(encoding="utf-8") == current
