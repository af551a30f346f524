"""The API reference (docs/reference/api/): what it documents resolves, read statically.

``mkdocs build --strict`` (``make lint``) renders the pages; these tests fail faster and say
which name broke: every object of ``API_PAGES`` is found by griffe without importing
anything, the pages' generated blocks are current, and the two griffe extensions of
``tools/`` rewrite what they claim to.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from citerag.reference_pages import API_PAGES, BLOCKS, update

griffe = pytest.importorskip("griffe")

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("citerag", "graphs", "chains", "loaders")


def _load(*extensions: str) -> griffe.ModulesCollection:
    exts = griffe.load_extensions(*(str(ROOT / "tools" / e) for e in extensions))
    loader = griffe.GriffeLoader(search_paths=[str(ROOT)], allow_inspection=False, extensions=exts)
    for package in PACKAGES:
        loader.load(package)
    loader.resolve_aliases(implicit=False, external=False)
    return loader.modules_collection


def test_every_documented_name_resolves_statically():
    before = set(sys.modules)
    modules = _load()
    missing = []
    for page, names in API_PAGES.items():
        assert (ROOT / "docs" / page).is_file(), page
        for name in names:
            try:
                obj = modules.get_member(name)
                if obj.is_alias:
                    obj = obj.final_target
            except (KeyError, griffe.AliasResolutionError):
                missing.append(f"{page}: {name}")
                continue
            assert obj.docstring is not None, f"{name} has no docstring"
    assert missing == []
    # griffe read the sources: nothing of the project (nor torch) was imported
    assert not {"torch", "graphs.rag", "chains.retrieval"} & (set(sys.modules) - before)


def test_the_api_pages_blocks_are_current():
    api = [b.page for b in BLOCKS if b.marker == "api"]
    assert sorted(api) == sorted(API_PAGES)
    assert [p for p in update(check=True) if p in API_PAGES] == []


def test_sphinx_roles_become_code_spans():
    spec = importlib.util.spec_from_file_location("roles", ROOT / "tools/griffe_sphinx_roles.py")
    assert spec is not None and spec.loader is not None
    roles = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(roles)
    plain_roles = roles.plain_roles
    text = "See :class:`~graphs.deps.GraphDeps` and :func:`citerag.stores.dispatch.backend_for`."
    assert plain_roles(text) == "See `GraphDeps` and `citerag.stores.dispatch.backend_for`."
    assert plain_roles("no role: ``x``") == "no role: ``x``"


def test_knob_fields_show_their_default_and_description():
    modules = _load("griffe_sphinx_roles.py", "griffe_knobs.py")
    config = modules.get_member("graphs.config.RAGConfig")
    condense = config.members["condense"]
    assert str(condense.value) == "'auto'"
    assert condense.docstring is not None
    assert condense.docstring.value.startswith("Follow-up questions (the `condense` node)")
    base_url = config.members["model_base_url"]
    assert base_url.docstring is not None and "base_url" in base_url.docstring.value
    # the roles extension ran on the same objects
    contract = modules.get_member("citerag.SearchIndex").final_target
    assert contract.docstring is not None
    assert "(`citerag.core.filters`: access labels" in contract.docstring.value
    assert ":mod:" not in contract.docstring.value
