"""One file, one document: a file argument that is already indexed keeps its document.

A document's id is the hash of its source key (:mod:`citerag.index.plan`), and the key is
made from how the file was named: ``<folder name>/<relative path>`` for a file found in an
ingested folder, the file's name for a file argument. The same file named another way
(``citerag ingest docs/`` then ``citerag ingest ./docs/a.md``, an absolute path, a symlink)
would get another key, and so become a second document. :func:`keep_known_files` gives such
a file argument the key of the document its file already is (the resolved paths are equal),
with that document's folder metadata and, for a folder's document, its access label (the
folder's rules decide it; a stand-alone document is labelled as by its own path: ``--access``),
so it updates the document in place.
The other way round (a file ingested alone, then its folder) the plan deletes the file's
stand-alone document (:attr:`citerag.index.plan.Reason.SAME_FILE`).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from citerag.index.plan import CollectedSource
from loaders.access import PUBLIC
from loaders.pipeline import user_metadata_digest

log = logging.getLogger(__name__)


def indexed_files(documents: Mapping[str, Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    """The ledger's file documents by resolved path (attachments, read from their message
    file, and records without a path are left out; a file that is a folder's document is
    preferred to a stand-alone one of the same file).

    Args:
        documents: The ledger (document id -> record).

    Returns:
        Resolved path -> record.
    """
    out: dict[str, Mapping[str, Any]] = {}
    for rec in documents.values():
        if rec.get("root_source") or not rec.get("path"):
            continue
        where = str(Path(rec["path"]).resolve())
        held = out.get(where)
        if held is None or ("/" not in str(held.get("source")) and "/" in str(rec.get("source"))):
            out[where] = rec
    return out


def keep_known_files(
    collected: Sequence[CollectedSource],
    documents: Mapping[str, Mapping[str, Any]],
    file_arguments: Collection[Path],
) -> list[CollectedSource]:
    """Give each file argument already indexed under another key that document's identity.

    Args:
        collected: The run's sources with their hashes.
        documents: The current build's ledger.
        file_arguments: The run's file arguments (paths as given; their sources are keyed by
            the file's name).

    Returns:
        The sources, a file argument whose resolved path is an indexed document's file
        carrying that document's source key, access label, display name and folder metadata
        (its metadata digest computed again), the others unchanged.
    """
    lone = set(file_arguments)
    if not lone or not documents:
        return list(collected)
    known = indexed_files(documents)
    out = []
    for src in collected:
        rec = None
        if src.file.attached is None and src.file.path in lone:
            rec = known.get(str(src.file.path.resolve()))
        if rec is None or rec.get("source") == src.file.source:
            out.append(src)
            continue
        access = src.file.access  # a stand-alone document: labelled as by its own path
        if "/" in str(rec["source"]):  # a folder's document: the folder's rules label it
            access = str(rec.get("access", src.file.access))
            if src.file.access not in (access, PUBLIC):
                log.warning(
                    "%s is the document %s of an ingested folder: its label stays %r (the "
                    "folder's access rules decide it; --access labels files no rule matches)",
                    src.file.path,
                    rec["source"],
                    access,
                )
        file = dataclasses.replace(
            src.file,
            source=str(rec["source"]),
            access=access,
            doc_name=str(rec.get("doc_name") or src.file.doc_name),
            metadata=dict(rec.get("folder_metadata") or {}),
        )
        log.info(
            "%s is the file of the indexed document %s: updating it", src.file.path, file.source
        )
        try:
            about: str | None = user_metadata_digest(file)
        except OSError as exc:
            log.debug("cannot hash the metadata sidecar of %s: %s", file.path, exc)
            about = None
        out.append(CollectedSource(file, src.sha256, about))
    return out
