"""The documentation's graph diagram and documented config keys match the code."""

from __future__ import annotations

import dataclasses
import re

import pytest

from citerag.stores.loaded import load_index
from graphs.config import RAGConfig
from graphs.rag import build_graph

pytestmark = pytest.mark.integration

#: Where each generated piece lives (the README links these pages).
GRAPH_PAGE = "docs/concepts/answering-graph.md"
CONFIG_PAGE = "docs/reference/configuration.md"


def test_docs_mermaid_matches_the_graph(repo_root, sample_index, embedding_model):
    loaded = load_index(sample_index, embedding_model)
    graph = build_graph(loaded.store, embeddings=embedding_model.embeddings)
    page = (repo_root / GRAPH_PAGE).read_text(encoding="utf-8")
    block = re.search(r"```mermaid\n(.*?)```", page, re.DOTALL)
    assert block, f"{GRAPH_PAGE} has no mermaid block"
    assert block.group(1).strip() == graph.get_graph().draw_mermaid().strip(), (
        f"{GRAPH_PAGE}: paste graph.get_graph().draw_mermaid() into its mermaid block"
    )


def test_docs_document_every_config_key(repo_root):
    page = (repo_root / CONFIG_PAGE).read_text(encoding="utf-8")
    for field in dataclasses.fields(RAGConfig):
        if not field.name.startswith("_"):
            assert f"`{field.name}`" in page, field.name
