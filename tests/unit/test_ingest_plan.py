"""Unit tests for the ingest plan: per-document decisions from data alone (no files, no model)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from citerag.index.plan import (
    ActionKind,
    CollectedSource,
    DocumentAction,
    IngestPlan,
    Reason,
    plan_ingest,
)
from loaders.pipeline import SourceFile

SETTINGS = {"model": "m", "chunking": {"size": 800}, "sentence_vectors": True}
OTHER_SETTINGS = {**SETTINGS, "chunking": {"size": 400}}


def _src(key: str, sha: str | None = "aaa", access: str = "public") -> CollectedSource:
    return CollectedSource(SourceFile(Path("/corpus") / key, key, access), sha)


def _file(path: str, key: str, sha: str) -> CollectedSource:
    """A source read from ``path`` under the key ``key`` (where the key does not follow the
    path, as for folders of the same name)."""
    return CollectedSource(SourceFile(Path(path), key), sha)


def _record(
    src: CollectedSource, *, status: str = "indexed", sha: str | None = None
) -> dict[str, Any]:
    """A ledger record as the previous build would hold for ``src``."""
    return {
        "doc_id": src.doc_id,
        "source": src.file.source,
        "path": str(src.file.path),
        "doc_name": src.file.path.name,
        "sha256": src.sha256 if sha is None else sha,
        "access": src.file.access,
        "status": status,
    }


def _ledger(*records: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["doc_id"]: r for r in records}


def _plan(
    sources: list[CollectedSource],
    previous: dict[str, dict[str, Any]],
    *,
    fingerprint: dict[str, Any] = SETTINGS,
    previous_fingerprint: dict[str, Any] | None = SETTINGS,
    **options: Any,
) -> IngestPlan:
    return plan_ingest(
        sources,
        previous,
        fingerprint=fingerprint,
        previous_fingerprint=previous_fingerprint,
        **options,
    )


def _only(plan: IngestPlan, source: str) -> DocumentAction:
    (action,) = [a for a in plan.actions if a.source == source]
    return action


def test_first_build_processes_every_source() -> None:
    a, b = _src("docs/a.txt"), _src("docs/b.pdf")
    plan = _plan([a, b], {}, previous_fingerprint=None, prefixes=["docs/"])
    assert [(x.kind, x.reason) for x in plan.actions] == [(ActionKind.PROCESS, Reason.NEW)] * 2
    assert [x.file for x in plan.to_write] == [a.file, b.file]
    assert all(x.previous_status is None for x in plan.actions)
    assert plan.changes_index and not plan.settings_changed


def test_new_file_beside_indexed_ones_is_processed() -> None:
    old, new = _src("docs/old.txt"), _src("docs/new.txt", sha="bbb")
    plan = _plan([old, new], _ledger(_record(old)), prefixes=["docs/"])
    assert _only(plan, "docs/old.txt").kind is ActionKind.SKIP
    action = _only(plan, "docs/new.txt")
    assert (action.kind, action.reason, action.file) == (ActionKind.PROCESS, Reason.NEW, new.file)


def test_unchanged_source_is_skipped_and_nothing_changes() -> None:
    a = _src("docs/a.txt")
    plan = _plan([a], _ledger(_record(a)), prefixes=["docs/"])
    (action,) = plan.actions
    assert (action.kind, action.reason) == (ActionKind.SKIP, Reason.UNCHANGED)
    assert action.previous_status == "indexed"
    assert plan.skipped == (action,)
    assert plan.to_write == () and plan.to_delete == ()
    assert not plan.changes_index


def test_changed_bytes_are_processed() -> None:
    a = _src("docs/a.txt", sha="new-hash")
    plan = _plan([a], _ledger(_record(a, sha="old-hash")))
    (action,) = plan.actions
    assert (action.kind, action.reason) == (ActionKind.PROCESS, Reason.CHANGED)
    assert action.previous_status == "indexed"  # an update, not a new document
    assert plan.changes_index


def test_changed_access_label_is_processed() -> None:
    a = _src("docs/a.txt", access="board")
    previous = _record(a)
    previous["access"] = "public"
    (action,) = _plan([a], _ledger(previous)).actions
    assert (action.kind, action.reason) == (ActionKind.PROCESS, Reason.ACCESS_CHANGED)


def test_unreadable_source_is_processed_so_the_parser_records_the_failure() -> None:
    a = _src("docs/a.txt")
    previous = _record(a)
    unreadable = CollectedSource(a.file, None)
    (action,) = _plan([unreadable], _ledger(previous)).actions
    assert (action.kind, action.reason) == (ActionKind.PROCESS, Reason.UNREADABLE)


def _with_metadata(src: CollectedSource, digest: str | None) -> CollectedSource:
    return CollectedSource(src.file, src.sha256, digest)


@pytest.mark.parametrize(
    ("before", "now", "kind"),
    [
        ("", "", ActionKind.SKIP),  # no sidecar, no folder metadata, then or now
        (None, "", ActionKind.SKIP),  # a record from before metadata digests, still none
        ("d1", "d1", ActionKind.SKIP),
        ("", "d1", ActionKind.PROCESS),  # a sidecar (or folder rule) appeared
        ("d1", "d2", ActionKind.PROCESS),  # it changed
        ("d1", "", ActionKind.PROCESS),  # it was removed
        (None, "d1", ActionKind.PROCESS),
        ("d1", None, ActionKind.PROCESS),  # the sidecar cannot be read now
    ],
)
def test_metadata_sidecar_and_folder_rules_are_part_of_the_fingerprint(
    before: str | None, now: str | None, kind: ActionKind
) -> None:
    a = _src("docs/a.txt")
    previous = _record(a)
    if before is not None:
        previous["metadata_sha256"] = before
    (action,) = _plan([_with_metadata(a, now)], _ledger(previous)).actions
    assert action.kind is kind
    if kind is ActionKind.PROCESS:
        assert action.reason is Reason.METADATA_CHANGED


def test_changed_bytes_are_reported_before_changed_metadata() -> None:
    a = _src("docs/a.txt", sha="new-hash")
    previous = {**_record(a, sha="old-hash"), "metadata_sha256": "d1"}
    (action,) = _plan([_with_metadata(a, "d2")], _ledger(previous)).actions
    assert action.reason is Reason.CHANGED


def test_settings_change_rebuilds_the_recorded_folder_metadata() -> None:
    doc = _src("other/report.pdf")
    previous = {**_record(doc), "folder_metadata": {"company": "Acme"}}
    plan = _plan([], _ledger(previous), previous_fingerprint=OTHER_SETTINGS, existing={doc.doc_id})
    (action,) = plan.to_write
    assert action.file is not None and action.file.metadata == {"company": "Acme"}


@pytest.mark.parametrize("previous_fingerprint", [OTHER_SETTINGS, None])
def test_settings_change_processes_every_document(previous_fingerprint: Any) -> None:
    a, b = _src("docs/a.txt"), _src("docs/b.txt")
    elsewhere = _src("other/c.txt")  # ingested by an earlier run, its file still exists
    gone = _src("other/d.txt")  # ingested by an earlier run, its file is gone
    previous = _ledger(_record(a), _record(b), _record(elsewhere), _record(gone))
    plan = _plan(
        [a, b],
        previous,
        previous_fingerprint=previous_fingerprint,
        prefixes=["docs/"],
        existing={a.doc_id, b.doc_id, elsewhere.doc_id},
    )
    assert plan.settings_changed
    assert [(x.source, x.reason) for x in plan.to_write] == [
        ("docs/a.txt", Reason.SETTINGS_CHANGED),
        ("docs/b.txt", Reason.SETTINGS_CHANGED),
        ("other/c.txt", Reason.SETTINGS_CHANGED),
    ]
    rebuilt = _only(plan, "other/c.txt").file
    assert rebuilt == SourceFile(elsewhere.file.path, "other/c.txt", "public", "c.txt")
    kept = _only(plan, "other/d.txt")
    assert (kept.kind, kept.reason, kept.file) == (ActionKind.KEEP, Reason.FILE_MISSING, None)


def test_settings_change_rebuilds_the_recorded_access_label() -> None:
    board = _src("other/minutes.md", access="board")
    plan = _plan(
        [], _ledger(_record(board)), previous_fingerprint=OTHER_SETTINGS, existing={board.doc_id}
    )
    (action,) = plan.to_write
    assert action.file is not None and action.file.access == "board"


def test_file_gone_from_ingested_folder_is_deleted_with_prune() -> None:
    kept, gone = _src("docs/kept.txt"), _src("docs/gone.txt")
    plan = _plan([kept], _ledger(_record(kept), _record(gone)), prefixes=["docs/"])
    (action,) = plan.to_delete
    assert (action.doc_id, action.source, action.reason) == (
        gone.doc_id,
        "docs/gone.txt",
        Reason.GONE,
    )
    assert action.file is None
    assert plan.changes_index


def test_file_gone_without_prune_is_kept() -> None:
    kept, gone = _src("docs/kept.txt"), _src("docs/gone.txt")
    plan = _plan(
        [kept], _ledger(_record(kept), _record(gone)), prefixes=["docs/"], prune_missing=False
    )
    assert plan.to_delete == ()
    action = _only(plan, "docs/gone.txt")
    assert (action.kind, action.reason) == (ActionKind.KEEP, Reason.PRUNE_DISABLED)
    assert not plan.changes_index


def test_documents_outside_the_ingested_folders_are_kept_even_with_prune() -> None:
    run, upload = _src("docs/a.txt"), _src("uploads/u.pdf")
    plan = _plan([run], _ledger(_record(run), _record(upload)), prefixes=["docs/"])
    action = _only(plan, "uploads/u.pdf")
    assert (action.kind, action.reason) == (ActionKind.KEEP, Reason.NOT_IN_RUN)


def test_requested_deletion_applies_without_prune_and_outside_folders() -> None:
    upload, other = _src("uploads/u.pdf"), _src("uploads/v.pdf")
    plan = _plan(
        [],
        _ledger(_record(upload), _record(other)),
        delete_sources=["uploads/u.pdf"],
        prune_missing=False,
    )
    assert [(a.source, a.reason) for a in plan.to_delete] == [("uploads/u.pdf", Reason.REQUESTED)]
    assert _only(plan, "uploads/v.pdf").kind is ActionKind.KEEP


def test_previously_failed_document_is_retried_even_with_the_same_bytes() -> None:
    bad = _src("docs/locked.pdf")
    plan = _plan([bad], _ledger(_record(bad, status="failed")))
    (action,) = plan.actions
    assert (action.kind, action.reason) == (ActionKind.RETRY, Reason.PREVIOUSLY_FAILED)
    assert action.previous_status == "failed"
    assert plan.to_write == (action,)
    assert plan.changes_index


def test_mixed_run() -> None:
    same = _src("docs/same.txt")
    edited = _src("docs/edited.txt", sha="v2")
    new = _src("docs/new.md")
    failed = _src("docs/scanned.pdf")
    gone = _src("docs/gone.html")
    outside = _src("notes/n.txt")
    previous = _ledger(
        _record(same),
        _record(edited, sha="v1"),
        _record(failed, status="failed"),
        _record(gone),
        _record(outside),
    )
    plan = _plan([same, edited, new, failed], previous, prefixes=["docs/"])
    assert [(a.source, a.kind) for a in plan.actions] == [
        ("docs/same.txt", ActionKind.SKIP),
        ("docs/edited.txt", ActionKind.PROCESS),
        ("docs/new.md", ActionKind.PROCESS),
        ("docs/scanned.pdf", ActionKind.RETRY),
        ("docs/gone.html", ActionKind.DELETE),
        ("notes/n.txt", ActionKind.KEEP),
    ]
    assert [a.source for a in plan.to_write] == [
        "docs/edited.txt",
        "docs/new.md",
        "docs/scanned.pdf",
    ]
    assert [a.reason for a in plan.to_write] == [
        Reason.CHANGED,
        Reason.NEW,
        Reason.PREVIOUSLY_FAILED,
    ]
    assert not plan.settings_changed


def test_planning_leaves_the_ledger_untouched_and_the_plan_frozen() -> None:
    a, gone = _src("docs/a.txt", sha="v2"), _src("docs/gone.txt")
    previous = _ledger(_record(a, sha="v1"), _record(gone))
    snapshot = {k: dict(v) for k, v in previous.items()}
    plan = _plan([a], previous, prefixes=["docs/"])
    assert previous == snapshot
    with pytest.raises(AttributeError):
        plan.actions[0].kind = ActionKind.SKIP  # type: ignore[misc]


def test_a_file_name_that_is_not_utf8_gets_a_printable_key_and_is_still_read(
    tmp_path: Path,
) -> None:
    """A Latin-1 name (bytes ``caf\\xe9``) no longer aborts the whole folder: its key and
    display name escape the byte, and the loaders still read the real file."""
    import os

    from citerag.index.ingest import collect_sources
    from loaders.pipeline import load_source, printable_key

    folder = tmp_path / "menus"
    folder.mkdir()
    bad = os.fsencode(folder) + b"/caf\xe9 menu.txt"
    with open(bad, "wb") as fh:
        fh.write(b"The espresso costs 2 euros.\n")
    (folder / "good.txt").write_text("The tea costs 1 euro.\n", encoding="utf-8")
    sources, _ = collect_sources([folder])
    keys = sorted(s.source for s in sources)
    assert keys == ["menus/caf\\xe9 menu.txt", "menus/good.txt"]
    for key in keys:
        key.encode("utf-8")  # every key is valid UTF-8 (the document id, manifest, PostgreSQL)
    src = next(s for s in sources if "caf" in s.source)
    assert src.file_name == "caf\\xe9 menu.txt"
    assert src.doc_id != next(s for s in sources if "good" in s.source).doc_id
    parsed = load_source(src, src.path.read_bytes())
    assert "espresso costs 2 euros" in parsed.text
    assert parsed.title.encode("utf-8")
    assert printable_key("plain name.txt") == "plain name.txt"
    # a PDF is re-opened from its path by its loader: still its real one
    from tests.support.scans import text_pdf

    made = text_pdf(tmp_path / "made.pdf", [["The latte costs 3 euros."]])
    pdf = os.fsencode(folder) + b"/men\xfc.pdf"
    os.rename(made, pdf)
    (src,) = [s for s in collect_sources([folder])[0] if s.source.endswith(".pdf")]
    assert src.source == "menus/men\\xfc.pdf"
    parsed = load_source(src, src.path.read_bytes())
    assert "latte costs 3 euros" in parsed.text and parsed.title.encode("utf-8")


def test_a_folder_of_the_same_name_elsewhere_never_prunes_the_first_ones_documents() -> None:
    """``alpha/docs`` then ``beta/docs``: both key their files ``docs/...``; alpha's FAQ,
    absent from beta, is kept (it was pruned before), and gone files of the ingested folder
    itself are still pruned."""
    faq = _file("/alpha/docs/faq.md", "docs/faq.md", "aaa")
    gone = _file("/beta/docs/old.md", "docs/old.md", "bbb")
    hand = _file("/beta/docs/handbook.md", "docs/handbook.md", "c")
    plan = _plan(
        [hand],
        _ledger(_record(faq), _record(gone)),
        prefixes=["docs/"],
        roots={"docs/": ["/beta/docs"]},
    )
    assert (_only(plan, "docs/faq.md").kind, _only(plan, "docs/faq.md").reason) == (
        ActionKind.KEEP,
        Reason.OTHER_FOLDER,
    )
    assert _only(plan, "docs/old.md").reason is Reason.GONE


def test_another_file_of_the_same_key_replaces_with_its_own_reason() -> None:
    """``teamA/notes.md`` then ``teamB/notes.md``, both keyed ``notes.md``: processed (the
    keying is documented), with a reason the ingest logs as a warning."""
    first = _file("/teamA/notes.md", "notes.md", "aaa")
    second = _file("/teamB/notes.md", "notes.md", "bbb")
    action = _only(_plan([second], _ledger(_record(first))), "notes.md")
    assert (action.kind, action.reason) == (ActionKind.PROCESS, Reason.REPLACES_OTHER_FILE)
    moved = _file("/teamA/notes.md", "notes.md", "bbb")
    assert _only(_plan([moved], _ledger(_record(first))), "notes.md").reason is Reason.CHANGED


def test_a_moved_folder_is_the_same_folder_and_its_gone_files_are_pruned() -> None:
    """The folder moved from /old/docs to /new/docs: its files keep their previous bytes,
    so it is the same folder, and the file deleted meanwhile is pruned, not kept."""
    kept_old = _file("/old/docs/kept.md", "docs/kept.md", "aaa")
    also_old = _file("/old/docs/also.md", "docs/also.md", "ddd")
    gone_old = _file("/old/docs/gone.md", "docs/gone.md", "bbb")
    kept_new = _file("/new/docs/kept.md", "docs/kept.md", "aaa")
    also_new = _file("/new/docs/also.md", "docs/also.md", "ddd")
    plan = _plan(
        [kept_new],
        _ledger(_record(kept_old), _record(gone_old)),
        prefixes=["docs/"],
        roots={"docs/": ["/new/docs"]},
    )
    assert _only(plan, "docs/gone.md").reason is Reason.GONE
    assert _only(plan, "docs/kept.md").kind is ActionKind.SKIP
    edited = _file("/new/docs/gone.md", "docs/gone.md", "ccc")
    plan = _plan(
        [kept_new, also_new, edited],
        _ledger(_record(kept_old), _record(also_old), _record(gone_old)),
        prefixes=["docs/"],
        roots={"docs/": ["/new/docs"]},
    )
    assert _only(plan, "docs/gone.md").reason is Reason.CHANGED  # edited, not replaced


def test_one_file_shared_by_two_folders_of_the_same_name_does_not_make_them_one() -> None:
    """alpha/docs and beta/docs both hold the same LICENSE; beta's handbook differs: alpha's
    FAQ is still kept."""
    lic_a = _file("/alpha/docs/LICENSE", "docs/LICENSE", "lic")
    hb_a = _file("/alpha/docs/handbook.md", "docs/handbook.md", "h1")
    faq_a = _file("/alpha/docs/faq.md", "docs/faq.md", "faq")
    lic_b = _file("/beta/docs/LICENSE", "docs/LICENSE", "lic")
    hb_b = _file("/beta/docs/handbook.md", "docs/handbook.md", "h2")
    plan = _plan(
        [lic_b, hb_b],
        _ledger(_record(lic_a), _record(hb_a), _record(faq_a)),
        prefixes=["docs/"],
        roots={"docs/": ["/beta/docs"]},
    )
    assert _only(plan, "docs/faq.md").reason is Reason.OTHER_FOLDER
    assert _only(plan, "docs/handbook.md").reason is Reason.REPLACES_OTHER_FILE


# -- one file, one document -------------------------------------------------------------------


def test_a_lone_file_whose_folder_is_ingested_now_is_deleted_as_the_same_file() -> None:
    lone = _file("/corpus/docs/a.md", "a.md", "aaa")
    other = _file("/elsewhere/b.md", "b.md", "bbb")  # another file: kept
    plan = _plan(
        [_file("/corpus/docs/a.md", "docs/a.md", "aaa")], _ledger(_record(lone), _record(other))
    )
    assert _only(plan, "a.md").kind is ActionKind.DELETE
    assert _only(plan, "a.md").reason is Reason.SAME_FILE
    assert _only(plan, "b.md").kind is ActionKind.KEEP


def test_a_folder_document_of_the_same_file_is_never_deleted_as_the_same_file() -> None:
    # alpha/docs/a.md is a folder's document: another folder's run never deletes it
    alpha = _file("/alpha/docs/a.md", "alpha/a.md", "aaa")
    plan = _plan([_file("/alpha/docs/a.md", "docs/a.md", "aaa")], _ledger(_record(alpha)))
    assert _only(plan, "alpha/a.md").kind is ActionKind.KEEP


def test_a_file_argument_already_indexed_takes_its_documents_identity(tmp_path: Path) -> None:
    from citerag.index.same_file import keep_known_files

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nText.\n")
    (tmp_path / "link.md").symlink_to(folder / "a.md")
    indexed = _file(str(folder / "a.md"), "docs/a.md", "aaa")
    ledger = _ledger({**_record(indexed), "access": "board", "folder_metadata": {"team": "x"}})
    for given in (folder / "a.md", folder / ".." / "docs" / "a.md", tmp_path / "link.md"):
        src = CollectedSource(SourceFile(given, given.name), "bbb")
        (kept,) = keep_known_files([src], ledger, [given])
        assert kept.doc_id == indexed.doc_id and kept.file.source == "docs/a.md", given
        assert kept.file.access == "board" and kept.file.metadata == {"team": "x"}
        assert kept.file.path == given and kept.sha256 == "bbb"
        plan = _plan([kept], ledger)
        assert [(a.kind, a.source) for a in plan.actions] == [(ActionKind.PROCESS, "docs/a.md")]
    # a file the index does not hold, or one found in a folder argument, keeps its key
    new = CollectedSource(SourceFile(tmp_path / "new.md", "new.md"), "ccc")
    assert keep_known_files([new], ledger, [new.file.path]) == [new]
    found = CollectedSource(SourceFile(folder / "a.md", "other/a.md"), "aaa")
    assert keep_known_files([found], ledger, []) == [found]


def test_a_stand_alone_document_by_another_path_takes_the_arguments_access(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from citerag.index.same_file import keep_known_files

    (tmp_path / "a.md").write_text("# A\n\nText.\n")
    (tmp_path / "link.md").symlink_to(tmp_path / "a.md")
    lone = _file(str(tmp_path / "a.md"), "a.md", "aaa")  # ingested alone, public
    ledger = _ledger(_record(lone))
    given = tmp_path / "link.md"
    src = CollectedSource(SourceFile(given, given.name, "hr"), "aaa")  # --access hr link.md
    (kept,) = keep_known_files([src], ledger, [given])
    assert kept.file.source == "a.md" and kept.file.access == "hr"  # as `--access hr a.md`
    # a folder's document keeps its folder's label, and says why --access did not apply
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "b.md").write_text("# B\n")
    ours = _file(str(folder / "b.md"), "docs/b.md", "bbb")
    ledger = _ledger({**_record(ours), "access": "board"})
    src = CollectedSource(SourceFile(folder / "b.md", "b.md", "hr"), "bbb")
    with caplog.at_level("WARNING"):
        (kept,) = keep_known_files([src], ledger, [folder / "b.md"])
    assert kept.file.access == "board" and "its label stays 'board'" in caplog.text


def test_the_attachments_of_a_lone_message_go_with_it_when_its_folder_takes_it() -> None:
    lone = _file("/corpus/docs/mail.eml", "mail.eml", "mmm")
    attachment = {
        **_record(_file("/corpus/docs/mail.eml", "mail.eml/1/att.pdf", "ppp")),
        "root_source": "mail.eml",
    }
    plan = _plan(
        [_file("/corpus/docs/mail.eml", "docs/mail.eml", "mmm")],
        _ledger(_record(lone), attachment),
    )
    assert _only(plan, "mail.eml").reason is Reason.SAME_FILE
    assert _only(plan, "mail.eml/1/att.pdf").kind is ActionKind.DELETE
    assert _only(plan, "mail.eml/1/att.pdf").reason is Reason.SAME_FILE
