"""Atomic index builds: write a new build folder, then swap one symlink.

Layout of an index directory::

    INDEX/
      current -> builds/<build_id>     # a symlink replaced atomically with os.replace
      builds/<build_id>/               # dense.faiss, dense.pkl, bm25.jsonl, sentences.*,
                                       # records.sqlite, manifest.json
      .lock                            # one writer at a time (fcntl)

A writer copies the current build into a temporary folder, changes it, saves and fsyncs it,
renames it to its final name and only then repoints ``current``. A process killed at any
point leaves ``current`` on the previous, complete build, consistent with its own record
manager (which lives inside the build). Readers resolve ``current`` once, so a query sees
the old build or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

from citerag.stores.manifest import MANIFEST_FILE, new_build_id

CURRENT = "current"
BUILDS = "builds"
#: How many superseded builds to keep besides the current one.
KEEP_OLD_BUILDS = 1


def current_build(index_dir: Path) -> Path | None:
    """Return the resolved current build folder, or ``None`` if there is no index yet."""
    link = index_dir / CURRENT
    if not link.is_symlink() and not link.exists():
        return None
    target = link.resolve()
    return target if target.is_dir() else None


#: ``(manifest path, mtime_ns, size)`` -> build id: :func:`published_build_id` is polled
#: every few seconds by serving workers, and a manifest can be megabytes.
_MANIFEST_IDS: dict[tuple[str, int, int], str | None] = {}


def published_build_id(index_dir: Path) -> str | None:
    """The id of the published build, or ``None`` if there is no index yet.

    ``current`` is normally a symlink to ``builds/<build id>``, and the folder's name is the
    id. An index copied without symlinks (``shutil.copytree``, ``zip``, an object-store sync)
    has a real ``current`` folder instead: its manifest's ``build_id`` is the id then (read
    again only when the manifest file changes).
    """
    link = index_dir / CURRENT
    if link.is_symlink():
        build = current_build(index_dir)
        return None if build is None else build.name
    manifest = link / MANIFEST_FILE
    try:
        st = manifest.stat()
    except OSError:
        return None
    key = (str(manifest), st.st_mtime_ns, st.st_size)
    if key not in _MANIFEST_IDS:
        import json

        try:
            build_id = json.loads(manifest.read_text(encoding="utf-8")).get("build_id")
        except (OSError, ValueError):
            build_id = None
        if len(_MANIFEST_IDS) > 64:
            _MANIFEST_IDS.clear()
        _MANIFEST_IDS[key] = build_id if isinstance(build_id, str) else None
    return _MANIFEST_IDS[key]


@contextlib.contextmanager
def write_lock(index_dir: Path) -> Iterator[None]:
    """Hold an exclusive writer lock on the index directory."""
    index_dir.mkdir(parents=True, exist_ok=True)
    with (index_dir / ".lock").open("w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def start_build(index_dir: Path) -> Path:
    """Create a temporary build folder seeded with a copy of the current build."""
    builds = index_dir / BUILDS
    builds.mkdir(parents=True, exist_ok=True)
    tmp = builds / f".tmp-{new_build_id()}"
    cur = current_build(index_dir)
    if cur is not None:
        shutil.copytree(cur, tmp)
    else:
        tmp.mkdir()
    return tmp


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def commit_build(index_dir: Path, tmp: Path, build_id: str) -> Path:
    """Publish a finished temporary build and make it current.

    Args:
        index_dir: The index directory.
        tmp: The temporary folder from :func:`start_build`, fully written.
        build_id: The final build id (folder name).

    Returns:
        The final build folder.
    """
    for f in tmp.iterdir():
        if f.is_file():
            with f.open("rb") as fh:
                os.fsync(fh.fileno())
    final = index_dir / BUILDS / build_id
    os.replace(tmp, final)
    _fsync_dir(index_dir / BUILDS)
    link_tmp = index_dir / f".{CURRENT}.{uuid.uuid4().hex[:8]}"
    os.symlink(Path(BUILDS) / build_id, link_tmp)
    os.replace(link_tmp, index_dir / CURRENT)
    _fsync_dir(index_dir)
    prune_builds(index_dir)
    return final


def abort_build(tmp: Path) -> None:
    """Remove an unfinished temporary build."""
    shutil.rmtree(tmp, ignore_errors=True)


def prune_builds(index_dir: Path, keep: int = KEEP_OLD_BUILDS) -> None:
    """Delete leftover temporary folders and all but ``keep`` superseded builds."""
    builds = index_dir / BUILDS
    cur = current_build(index_dir)
    old = sorted(
        (p for p in builds.iterdir() if p.is_dir() and not p.name.startswith(".") and p != cur),
        key=lambda p: p.name,
    )
    for p in old[: max(0, len(old) - keep)]:
        shutil.rmtree(p, ignore_errors=True)
    for p in builds.glob(".tmp-*"):
        shutil.rmtree(p, ignore_errors=True)
