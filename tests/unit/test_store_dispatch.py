"""One dispatch point from an index location to its backend (issue 33).

:func:`citerag.stores.dispatch.backend_for` is the only place in the project that tells a
directory from a PostgreSQL store URL: a call of :func:`~citerag.stores.location.is_store_url`
anywhere else (outside its own module and the tests) fails here, found with :mod:`ast` in
every project source file (benchmarks and notebooks' helper code included).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from citerag.stores.dispatch import backend_for
from citerag.stores.faiss.backend import FaissBackend
from citerag.stores.postgres.backend import PostgresBackend

ROOT = Path(__file__).resolve().parents[2]
#: Where project code lives (tests are left out: they may check the function itself).
SOURCES = ("citerag", "chains", "graphs", "loaders", "benchmarks")
#: Its definition's module (``describe`` there uses it to mask a URL's password).
DEFINITION = Path("citerag/stores/location.py")


def _calls(name: str) -> list[str]:
    """``path:line`` of every call of a function called ``name`` (plain or attribute)."""
    found = []
    for package in SOURCES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if rel == DEFINITION:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if called == name:
                    found.append(f"{rel}:{node.lineno}")
    return found


def test_is_store_url_has_one_call_site_the_dispatch() -> None:
    calls = _calls("is_store_url")
    assert len(calls) == 1, f"is_store_url is called outside backend_for: {calls}"
    assert calls[0].startswith("citerag/stores/dispatch.py:")


def test_the_check_sees_a_call() -> None:
    # the AST walk finds both spellings (so the test above could fail)
    tree = ast.parse("from m import is_store_url\nis_store_url(x)\nlocation.is_store_url(y)\n")
    names = [
        n.func.id if isinstance(n.func, ast.Name) else n.func.attr
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name | ast.Attribute)
    ]
    assert names.count("is_store_url") == 2


@pytest.mark.parametrize(
    ("location", "kind"),
    [
        (Path("idx"), FaissBackend),
        ("idx", FaissBackend),
        ("relative/dir", FaissBackend),
        ("postgresql://u@h/db", PostgresBackend),
        ("postgresql+psycopg://u:secret@h/db?namespace=team", PostgresBackend),
        ("POSTGRES://h/db", PostgresBackend),
    ],
)
def test_backend_for_picks_the_backend(location: Path | str, kind: type) -> None:
    backend = backend_for(location)
    assert type(backend) is kind and backend.location == location
    assert "secret" not in backend.describe()


def test_a_malformed_store_url_fails_naming_the_parameter() -> None:
    with pytest.raises(ValueError, match="namespace"):
        backend_for("postgresql://h/db?namespace=Bad-Name")


def test_dispatching_a_directory_loads_no_database_driver() -> None:
    """The PostgreSQL backend (and psycopg) is imported only for a store URL."""
    import subprocess
    import sys

    code = (
        "import sys; from citerag.stores.dispatch import backend_for; backend_for('idx'); "
        "print('psycopg' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
