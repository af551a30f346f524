"""The ingest plan: what a run does with each document, decided from data alone.

:func:`plan_ingest` compares the sources collected for a run (each with the sha256 of its
bytes, read beforehand) with the previous build's per-document ledger and the run's options,
and returns an :class:`IngestPlan`: one :class:`DocumentAction` per document with its kind
and the reason for it. It reads no files and touches no index, so it is tested without a
model; :mod:`citerag.index.ingest` carries the plan out.

The rules:

* A source whose previous record is ``indexed`` with the same access label, the same sha256,
  the same metadata digest (its sidecar and folder metadata, see
  :func:`loaders.pipeline.metadata_digest`) and the same settings fingerprint is **skipped**.
* A source with no previous record, other bytes, other user-supplied metadata, another
  access label or other settings is **processed**; one whose previous record is not
  ``indexed`` (the ledger says ``failed``) is **retried**.
* A previous document that is not among the sources is **deleted** when its source key was
  asked to be deleted, or when it lay under an ingested folder and pruning is on; one whose
  key has the folder's name but whose file was read from another folder of that name
  (``alpha/docs`` then ``beta/docs``) is **kept**, never pruned, unless most files of the
  ingested folder that had a document have its bytes (a moved or copied folder is the same
  one).
* A source whose key's previous document was read from another file (``teamA/notes.md``
  then ``teamB/notes.md``, both keyed ``notes.md``) replaces it, with its own reason, which
  the ingest logs as a warning.
* A previous document of a file ingested alone (its key is the file's name) whose file is
  now among the run's sources under another key (its folder was ingested: ``a.md`` then
  ``docs/``, whose key is ``docs/a.md``) is **deleted**: one file is one document. (The
  other way round, a file argument that is already a folder's document takes that document's
  key before planning: :mod:`citerag.index.same_file`.)
* Otherwise it is **kept**, except that after a settings change it is processed again from
  its recorded path when that file still exists.

An e-mail attachment's document (its record has ``root_source``, the source key of the
message file it is read from; see :mod:`citerag.index.attached`) follows its message file:
it is **deleted** when that key was asked to be deleted, and when the message file is among
the run's sources but the attachment was not collected from it again (the message changed,
or can no longer be read); it is re-processed from the message file after a settings change
like any document.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from loaders.access import PUBLIC
from loaders.pipeline import AttachedTo, SourceFile

#: The ledger status of a document whose chunks are in the index.
INDEXED = "indexed"


class ActionKind(StrEnum):
    """What happens to one document."""

    SKIP = "skip"
    PROCESS = "process"
    RETRY = "retry"
    DELETE = "delete"
    KEEP = "keep"


class Reason(StrEnum):
    """Why a document gets its action."""

    UNCHANGED = "unchanged bytes, access and settings"
    NEW = "not in the previous build"
    CHANGED = "its bytes changed"
    METADATA_CHANGED = "its metadata sidecar or folder metadata changed"
    UNREADABLE = "its bytes could not be read"
    ACCESS_CHANGED = "its access label changed"
    SETTINGS_CHANGED = "the chunking, embedding or sentence-vector settings changed"
    PREVIOUSLY_FAILED = "it failed in the previous build"
    REQUESTED = "its deletion was requested"
    GONE = "its file is gone from an ingested folder"
    OTHER_FOLDER = (
        "it was read from another folder of the same name, not the one ingested: kept "
        "(a folder's documents are keyed by its name; delete it by its source key)"
    )
    REPLACES_OTHER_FILE = (
        "another file of the same source key replaces it (keys are a folder's name and the "
        "path inside it, or a lone file's name)"
    )
    ATTACHMENT_GONE = "its message no longer holds it as an attachment"
    SAME_FILE = "its file is ingested under another source key now (one file, one document)"
    PRUNE_DISABLED = "its file is gone from an ingested folder, but pruning is off"
    FILE_MISSING = "the settings changed, but its recorded file is gone"
    NOT_IN_RUN = "it is not part of this run"


@dataclass(frozen=True)
class CollectedSource:
    """A source of this run with the hash of its bytes.

    Attributes:
        file: The file and its identity.
        sha256: Hex sha256 of its bytes, ``None`` when they could not be read.
        metadata_sha256: Digest of its user-supplied metadata outside its bytes (``''``
            when it has none), ``None`` when its sidecar could not be read.
    """

    file: SourceFile
    sha256: str | None
    metadata_sha256: str | None = ""

    @property
    def doc_id(self) -> str:
        """The document id."""
        return self.file.doc_id


@dataclass(frozen=True)
class DocumentAction:
    """The plan for one document.

    Attributes:
        kind: What to do.
        reason: Why.
        doc_id: The document id.
        source: The source key.
        file: What to parse (set for sources of this run and for documents re-processed from
            their recorded path; ``None`` for deleted or kept previous documents).
        previous_status: The document's status in the previous build, ``None`` if new.
    """

    kind: ActionKind
    reason: Reason
    doc_id: str
    source: str
    file: SourceFile | None = None
    previous_status: str | None = None

    @property
    def writes(self) -> bool:
        """Whether the document is parsed and indexed (processed or retried)."""
        return self.kind in (ActionKind.PROCESS, ActionKind.RETRY)


@dataclass(frozen=True)
class IngestPlan:
    """What an ingest run does, per document.

    Attributes:
        actions: The sources of the run in order, then the previous documents that are not
            among them, in ledger order.
        settings_changed: A previous build holds documents made with other settings.
    """

    actions: tuple[DocumentAction, ...]
    settings_changed: bool = False

    def of_kind(self, *kinds: ActionKind) -> tuple[DocumentAction, ...]:
        """The actions of the given kinds, in plan order.

        Args:
            *kinds: The kinds wanted.

        Returns:
            The matching actions.
        """
        return tuple(a for a in self.actions if a.kind in kinds)

    @property
    def to_write(self) -> tuple[DocumentAction, ...]:
        """Documents to parse and index (processed or retried), in order."""
        return self.of_kind(ActionKind.PROCESS, ActionKind.RETRY)

    @property
    def to_delete(self) -> tuple[DocumentAction, ...]:
        """Documents to remove from every index and the ledger."""
        return self.of_kind(ActionKind.DELETE)

    @property
    def skipped(self) -> tuple[DocumentAction, ...]:
        """Sources left alone because nothing about them changed."""
        return self.of_kind(ActionKind.SKIP)

    @property
    def changes_index(self) -> bool:
        """Whether carrying the plan out writes or deletes anything."""
        return any(a.writes or a.kind is ActionKind.DELETE for a in self.actions)


def _plan_source(
    src: CollectedSource, prev: Mapping[str, Any] | None, same_settings: bool
) -> DocumentAction:
    """Decide what to do with one source of the run."""
    status = None if prev is None else prev.get("status")
    if prev is None:
        kind, reason = ActionKind.PROCESS, Reason.NEW
    elif status != INDEXED:
        kind, reason = ActionKind.RETRY, Reason.PREVIOUSLY_FAILED
    elif not same_settings:
        kind, reason = ActionKind.PROCESS, Reason.SETTINGS_CHANGED
    elif prev.get("access") != src.file.access:
        kind, reason = ActionKind.PROCESS, Reason.ACCESS_CHANGED
    elif src.sha256 is None:
        kind, reason = ActionKind.PROCESS, Reason.UNREADABLE
    elif prev.get("sha256") != src.sha256:
        kind, reason = ActionKind.PROCESS, Reason.CHANGED
        if src.file.attached is None and _other_file(prev, src.file.path):
            reason = Reason.REPLACES_OTHER_FILE
    elif src.metadata_sha256 is None or prev.get("metadata_sha256", "") != src.metadata_sha256:
        kind, reason = ActionKind.PROCESS, Reason.METADATA_CHANGED
    else:
        kind, reason = ActionKind.SKIP, Reason.UNCHANGED
    return DocumentAction(kind, reason, src.doc_id, src.file.source, src.file, status)


def _other_file(prev: Mapping[str, Any], path: Path) -> bool:
    """Whether a previous record was read from another file than ``path`` (records without
    a path, from older ledgers, are taken to be the same file)."""
    recorded = prev.get("path")
    if not recorded:
        return False
    return Path(recorded).resolve() != path.resolve()


def _stand_alone(prev: Mapping[str, Any]) -> bool:
    """Whether a previous record is a file ingested alone (keyed by its name: no ``/``; not
    an attachment) with a recorded path."""
    source = str(prev.get("source", ""))
    return bool(prev.get("path")) and "/" not in source and not prev.get("root_source")


def _outside_roots(prev: Mapping[str, Any], roots: Collection[str]) -> bool:
    """Whether a previous record's file lies outside every folder ingested under its
    prefix (``roots``: their resolved paths; none known, or no recorded path: ``False``)."""
    recorded = prev.get("path")
    if not roots or not recorded:
        return False
    where = Path(recorded).resolve()
    return not any(where.is_relative_to(root) for root in roots)


def _plan_absent(
    doc_id: str,
    prev: Mapping[str, Any],
    *,
    same_settings: bool,
    prefixes: Sequence[str],
    roots: Mapping[str, Collection[str]],
    delete_sources: Collection[str],
    prune_missing: bool,
    existing: Collection[str],
    run_files: Collection[str],
    run_paths: Collection[str],
    replaced: Collection[str] = (),
) -> DocumentAction:
    """Decide what to do with a previous document that is not among the run's sources.

    ``replaced``: source keys of the stand-alone documents deleted as
    :attr:`Reason.SAME_FILE`; their attachments go with them (the folder's run indexes the
    message's attachments again under its own key)."""
    source = prev.get("source", "")
    status = prev.get("status")
    under_folder = any(source.startswith(p) for p in prefixes)
    root = prev.get("root_source")
    file = None
    if prev.get("source") in delete_sources or (root and root in delete_sources):
        kind, reason = ActionKind.DELETE, Reason.REQUESTED
    elif (_stand_alone(prev) and str(Path(prev["path"]).resolve()) in run_paths) or (
        root and root in replaced  # an attachment of such a document
    ):
        kind, reason = ActionKind.DELETE, Reason.SAME_FILE
    elif root and root in run_files:
        kind, reason = ActionKind.DELETE, Reason.ATTACHMENT_GONE
    elif under_folder and _outside_roots(
        prev, [r for p, rs in roots.items() if source.startswith(p) for r in rs]
    ):
        kind, reason = ActionKind.KEEP, Reason.OTHER_FOLDER
    elif prune_missing and under_folder:
        kind, reason = ActionKind.DELETE, Reason.GONE
    elif not same_settings and doc_id in existing:
        file = SourceFile(
            Path(prev["path"]),
            prev["source"],
            prev.get("access", PUBLIC),
            prev.get("doc_name", ""),
            dict(prev.get("folder_metadata") or {}),
            attached=AttachedTo.from_record(prev),
        )
        if status == INDEXED:
            kind, reason = ActionKind.PROCESS, Reason.SETTINGS_CHANGED
        else:
            kind, reason = ActionKind.RETRY, Reason.PREVIOUSLY_FAILED
    elif under_folder:
        kind, reason = ActionKind.KEEP, Reason.PRUNE_DISABLED
    elif not same_settings:
        kind, reason = ActionKind.KEEP, Reason.FILE_MISSING
    else:
        kind, reason = ActionKind.KEEP, Reason.NOT_IN_RUN
    return DocumentAction(kind, reason, doc_id, prev.get("source", doc_id), file, status)


def plan_ingest(
    sources: Sequence[CollectedSource],
    previous: Mapping[str, Mapping[str, Any]],
    *,
    fingerprint: Mapping[str, Any],
    previous_fingerprint: Mapping[str, Any] | None,
    prefixes: Sequence[str] = (),
    delete_sources: Collection[str] = (),
    prune_missing: bool = True,
    existing: Collection[str] = (),
    roots: Mapping[str, Collection[str]] | None = None,
) -> IngestPlan:
    """Decide what an ingest run does with every document.

    Args:
        sources: The run's sources with their hashes, in order (a document listed twice is
            planned twice, as it is processed twice).
        previous: The previous build's ledger (document id -> record with ``source``,
            ``path``, ``status``, ``sha256``, ``metadata_sha256``, ``access``, ``doc_name``,
            ``folder_metadata``); empty for a first build. Not modified.
        fingerprint: The settings of this run.
        previous_fingerprint: The settings the previous build was made with (``None`` when
            unknown or there is no previous build).
        prefixes: Source-key prefixes of the ingested folders (``"<folder name>/"``).
        delete_sources: Source keys to delete (a message file's key also deletes its
            attachments' documents).
        prune_missing: Delete documents that lay under an ingested folder and are gone.
        existing: Ids of previous documents whose recorded file still exists (consulted only
            after a settings change, to re-process documents outside this run).
        roots: The ingested folders' resolved paths by prefix: a previous document under a
            prefix whose recorded file lies in none of them came from another folder of the
            same name and is kept, never pruned, unless most of the run's files under that
            prefix that had a document have its bytes (the folder was moved or copied: the
            same folder) (``None``: not checked).

    Returns:
        The plan.
    """
    same_settings = previous_fingerprint is not None and previous_fingerprint == fingerprint
    # A folder moved or copied elsewhere is the same folder: most of its files that had a
    # document still have its bytes; its gone files are pruned as always. (One shared file,
    # a LICENSE in two folders of the same name, does not make them one.)
    carried = set()
    for prefix in roots or {}:
        known = [
            (src, prev)
            for src in sources
            if src.file.source.startswith(prefix) and (prev := previous.get(src.doc_id)) is not None
        ]
        same = sum(
            src.sha256 is not None and prev.get("sha256") == src.sha256 for src, prev in known
        )
        if known and 2 * same > len(known):
            carried.add(prefix)
    roots = {p: r for p, r in (roots or {}).items() if p not in carried}
    actions = [_plan_source(src, previous.get(src.doc_id), same_settings) for src in sources]
    actions = [
        dataclasses.replace(a, reason=Reason.CHANGED)
        if a.reason is Reason.REPLACES_OTHER_FILE and any(a.source.startswith(p) for p in carried)
        else a
        for a in actions
    ]  # an edited file of a moved folder replaces nothing else
    seen = {src.doc_id for src in sources}
    run_files = {src.file.source for src in sources if src.file.attached is None}
    run_paths: set[str] = set()
    replaced: set[str] = set()  # stand-alone documents whose file is a folder's now
    if any(_stand_alone(p) for d, p in previous.items() if d not in seen):
        run_paths = {str(s.file.path.resolve()) for s in sources if s.file.attached is None}
        replaced = {
            str(p["source"])
            for d, p in previous.items()
            if d not in seen and _stand_alone(p) and str(Path(p["path"]).resolve()) in run_paths
        }
    actions += [
        _plan_absent(
            doc_id,
            prev,
            same_settings=same_settings,
            prefixes=prefixes,
            roots=roots,
            delete_sources=delete_sources,
            prune_missing=prune_missing,
            existing=existing,
            run_files=run_files,
            run_paths=run_paths,
            replaced=replaced,
        )
        for doc_id, prev in previous.items()
        if doc_id not in seen
    ]
    return IngestPlan(tuple(actions), settings_changed=bool(previous) and not same_settings)
