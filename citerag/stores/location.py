"""Where an index lives: a directory (FAISS, the embedded default) or a PostgreSQL store URL.

Every entry point (``citerag ingest/ask/serve/eval --index``, ``load_index``,
``GraphDeps.from_index``, the server) takes one *index location*; this module holds the rule
that tells the two kinds apart (:func:`is_store_url`), without importing any database driver,
and :func:`citerag.stores.dispatch.backend_for` is its one caller: everything else asks the
backend. It imports nothing of the project (the bottom of :mod:`citerag.stores`); the check
that reads a location's manifest is :func:`citerag.stores.loaded.check_index`.
"""

from __future__ import annotations

import contextlib
import difflib
import pickle
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

#: URL schemes that name a PostgreSQL store (with any SQLAlchemy driver suffix, e.g.
#: ``postgresql+psycopg://``).
SCHEMES = ("postgresql", "postgres")

#: An index location: a directory path, or a store URL string.
IndexLocation = Path | str


def is_store_url(location: object) -> bool:
    """Whether an index location is a PostgreSQL URL (else it is an index directory)."""
    if not isinstance(location, str) or "://" not in location:
        return False
    scheme = location.split("://", 1)[0].lower()
    return scheme.split("+", 1)[0] in SCHEMES


def describe(location: IndexLocation) -> str:
    """The location as logs and messages show it (a URL's password masked)."""
    return redact_url(str(location)) if is_store_url(location) else str(location)


def redact_url(url: str) -> str:
    """A URL without its password (for logs, manifests and traces)."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        user, host = netloc.rsplit("@", 1)
        if ":" in user:
            user = user.split(":", 1)[0] + ":***"
        netloc = f"{user}@{host}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))


#: Files every FAISS build folder holds and a reader opens (besides ``manifest.json``).
BUILD_FILES = ("dense.faiss", "dense.pkl", "bm25.jsonl")


class IndexNotFoundError(FileNotFoundError):
    """No index has been built at this location yet."""


#: Most existing indexes a not-found message names (the closest names first).
MAX_NAMED_INDEXES = 5


def not_found_message(where: str, index_arg: str, asked: str, existing: dict[str, str]) -> str:
    """What to say when a location holds no index, on every store: the ingest command, and
    the existing indexes beside it (the index directories next to a mistyped directory, the
    other namespaces of the database), so a user who has an index is pointed at it rather
    than told to ingest again.

    Args:
        where: The location as the message names it (``in .citerag/index``,
            ``at postgresql://... (namespace 'x')``).
        index_arg: The location as ``--index`` takes it.
        asked: The name looked for (a directory's name, a namespace).
        existing: Each existing index's name -> how to pass it.

    Returns:
        ``no index in X: run `citerag ingest PATH --index X` first, or pass an existing one
        (found: A, B)``; the names most like ``asked`` first, at most
        :data:`MAX_NAMED_INDEXES` of them.
    """
    message = f"no index {where}: run `citerag ingest PATH --index {index_arg}` first"
    if not existing:
        return message
    likeness = {n: difflib.SequenceMatcher(None, asked, n).ratio() for n in existing}
    names = sorted(existing, key=lambda n: (-likeness[n], n))
    shown = [existing[n] for n in names[:MAX_NAMED_INDEXES]]
    more = len(names) - len(shown)
    found = ", ".join(shown) + (f" and {more} more" if more else "")
    return message + f", or pass an existing one (found: {found})"


class IndexUnavailableError(RuntimeError):
    """An index that exists but cannot be read, or a store that cannot be reached."""


#: What reading a damaged or truncated build file raises: a file cut short, garbage where a
#: pickle, a FAISS index, a JSON document or a SQLite database should be.
READ_ERRORS: tuple[type[Exception], ...] = (
    OSError,
    EOFError,
    ValueError,
    KeyError,
    TypeError,
    RuntimeError,
    pickle.UnpicklingError,
    sqlite3.DatabaseError,
)


def unreadable(where: object, path: object, exc: BaseException) -> IndexUnavailableError:
    """The one-line error for an index file that cannot be read, saying what to do.

    Args:
        where: The index (its directory) or the build folder, as the message names it.
        path: The file (or files) that could not be read.
        exc: What reading it raised.
    """
    lines = str(exc).splitlines()
    reason = f"no {exc} field" if isinstance(exc, KeyError) else (lines[0] if lines else "")
    return IndexUnavailableError(
        f"the index in {where} cannot be read ({path}: {reason or type(exc).__name__}); "
        "ingest again into a new --index directory"
    )


@contextlib.contextmanager
def reading(where: object, path: object) -> Iterator[None]:
    """Read index files inside this block: a damaged one is :func:`unreadable`, not a traceback.

    Args:
        where: The index directory or build folder the message names.
        path: The file (or files) read in the block.

    Raises:
        IndexUnavailableError: Reading raised one of :data:`READ_ERRORS`.
    """
    try:
        yield
    except IndexUnavailableError:
        raise
    except READ_ERRORS as exc:
        raise unreadable(where, path, exc) from exc
