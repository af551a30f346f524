"""What the server's routes decide about uploaded documents: who sees or deletes one, a
duplicate upload, how a shared registry's status reads in this process, an upload's id.

The records and the registries themselves are the stores' (:mod:`citerag.stores.registry`;
each backend opens its own, :meth:`citerag.stores.backend.Backend.registry`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from citerag.server.auth import Identity
from citerag.stores.registry import ID_RE, UPLOADS_DIR, DocumentRecord


def upload_id_of(source: str) -> str | None:
    """The upload id in an index source key ``uploads/<id>/<name>``, or ``None``.

    Documents ingested with ``citerag ingest`` have other source keys (relative to the
    ingest root), so this tells uploads from CLI ingests in a manifest.
    """
    parts = source.split("/")
    if len(parts) >= 3 and parts[0] == UPLOADS_DIR and ID_RE.match(parts[1]):
        return parts[1]
    return None


def served_view(rec: DocumentRecord, served: Mapping[str, Any] | None) -> DocumentRecord:
    """A shared registry's record as the process answering the request serves it.

    With several processes the writer settles ``indexed`` as soon as *it* serves the new
    build; another process loads that build within its watch interval. Until it has, it
    reports such a document ``pending`` (with a reason), so ``indexed`` from any process
    still means "this process answers from it", as with one process.

    Args:
        rec: The record.
        served: The ``documents`` of the manifest this process serves (``None``: none yet).
    """
    if rec.status != "indexed":
        return rec
    held = (served or {}).get(rec.index_doc_id) or {}
    if held.get("status") == "indexed":
        return rec
    return replace(
        rec,
        status="pending",
        reason=f"indexed in build {rec.build_id}; this server has not loaded it yet",
    )


def visible(rec: DocumentRecord, who: Identity) -> bool:
    """Whether a user may see a document (its label is public or one of their groups)."""
    return who.admin or who.can_read(rec.access)


def may_delete(rec: DocumentRecord, who: Identity) -> bool:
    """Whether a user may delete a document (its uploader, or an admin)."""
    return who.admin or (rec.uploaded_by == who.user and who.can_read(rec.access))


def find_duplicate(
    records: Iterable[DocumentRecord], sha256: str, who: Identity
) -> DocumentRecord | None:
    """The document the caller can see with these exact bytes, if any.

    Args:
        records: The registry's records.
        sha256: Hex digest of the new upload.
        who: The uploader (a document they may not see is never revealed as a duplicate).

    Returns:
        The oldest visible record with that digest that is not ``failed`` or ``deleting``.
    """
    if not sha256:
        return None
    for rec in records:
        if rec.sha256 == sha256 and rec.status in ("pending", "indexed") and visible(rec, who):
            return rec
    return None
