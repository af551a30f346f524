"""Shared fixtures for the citerag test suite.

Fast fixtures (paths) are plain; the real embedding model and the sample index are
session-scoped and only built when a test asks for them, so unit tests stay model-free.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# The bundled model must load without touching the network.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO_ROOT / ".." / "shared" / "data"
SAMPLE_CORPUS = REPO_ROOT / "examples" / "corpus"


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository root."""
    return REPO_ROOT


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The shared evaluation data folder ``<repo>/../shared/data`` (skips if missing)."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared evaluation data not found at {SHARED_DATA.resolve()}")
    return SHARED_DATA


@pytest.fixture(scope="session")
def sample_corpus() -> Path:
    """The sample corpus folder ``examples/corpus`` (read-only: copy it before editing)."""
    assert SAMPLE_CORPUS.is_dir(), f"sample corpus missing at {SAMPLE_CORPUS}"
    return SAMPLE_CORPUS


@pytest.fixture(scope="session")
def embedding_model():
    """The real bundled embedding model, loaded once per session (offline)."""
    from citerag.embeddings import load_embedding_model

    return load_embedding_model()


@pytest.fixture(scope="session")
def sample_index(tmp_path_factory: pytest.TempPathFactory, embedding_model, sample_corpus) -> Path:
    """An index over ``examples/corpus`` built once per session; returns the index dir.

    Treat it as read-only: tests that change an index must build their own.
    """
    from citerag.index.ingest import ingest

    index_dir = tmp_path_factory.mktemp("sample_index") / "index"
    report = ingest([sample_corpus], index_dir, embedding_model, progress=False)
    assert not report.failed, f"sample corpus failed to ingest: {report.failed}"
    return index_dir


# PostgreSQL (pgserver) fixtures, shared by every test module.
# The scripted OpenAI-compatible chat server (tests/support/openai_server.py).
from tests.support.openai_server import scripted_openai  # noqa: E402, F401
from tests.support.pg import (  # noqa: E402, F401
    _close_pg_pools,
    pg_server,
    pg_url,
    sample_deps,
    sample_location,
    sample_pg_index,
    store_location,
)
