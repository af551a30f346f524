"""The README's graph diagram and documented config keys match the code."""

from __future__ import annotations

import dataclasses
import re

import pytest

from citerag.index.loaded import load_index
from graphs.config import RAGConfig
from graphs.rag import build_graph

pytestmark = pytest.mark.integration


def test_readme_mermaid_matches_the_graph(repo_root, sample_index, embedding_model):
    loaded = load_index(sample_index, embedding_model)
    graph = build_graph(loaded.store, embeddings=embedding_model.embeddings)
    readme = (repo_root / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```mermaid\n(.*?)```", readme, re.DOTALL)
    assert block, "README has no mermaid block"
    assert block.group(1).strip() == graph.get_graph().draw_mermaid().strip()


def test_readme_documents_every_config_key(repo_root):
    readme = (repo_root / "README.md").read_text(encoding="utf-8")
    for field in dataclasses.fields(RAGConfig):
        if not field.name.startswith("_"):
            assert f"`{field.name}`" in readme, field.name
