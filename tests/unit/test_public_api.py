"""The public API in ``citerag/__init__.py``: every name resolves, and nothing heavy loads at
``import citerag`` (docs/reference/architecture.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import citerag

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("torch", "sentence_transformers", "transformers", "faiss", "langgraph", "psycopg")


def test_import_citerag_loads_nothing_heavy():
    """In a fresh interpreter, ``import citerag`` imports none of the heavy packages."""
    code = (
        "import json, sys; import citerag; "
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == []


def test_every_public_name_resolves_from_its_module():
    assert set(citerag.__all__) == {"__version__", *citerag._EXPORTS}
    for name in citerag.__all__:
        value = getattr(citerag, name)
        if name != "__version__":
            module = citerag._EXPORTS[name]
            assert value is getattr(__import__(module, fromlist=[name]), name), name


def test_an_unknown_name_is_an_attribute_error():
    try:
        citerag.no_such_name  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("citerag.no_such_name resolved")
