"""E-mail attachments as documents of their own: which parts they are, their stable ids,
the caps, reading one back by position, and how the plan keeps them with their message."""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl
import pytest

from citerag.index.attached import with_attachments
from citerag.index.plan import ActionKind, CollectedSource, Reason, plan_ingest
from loaders.attachments import (
    MARK,
    MAX_ATTACHMENTS,
    MAX_DEPTH,
    attachment_tree,
    read_attachment,
)
from loaders.base import DocumentLoadError
from loaders.chunking import ChunkSettings, doc_id_for
from loaders.pipeline import AttachedTo, SourceFile, process_file, sha256_file
from loaders.registry import load_attachment
from tests.support.hostile import message, nested_message

FINGERPRINT = {"model": "m"}


def _xlsx() -> bytes:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Prices"
    ws.append(["Item", "Unit price"])
    ws.append(["Hex bolt M8", "0.42"])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _offer(tmp_path: Path) -> Path:
    """A message with an .xlsx, a corrupt .docx, a .zip, and a forwarded message holding a
    .txt."""
    msg = message("Offer", "Our offer is attached.")
    msg.add_attachment(
        _xlsx(), maintype="application", subtype="octet-stream", filename="price-list.xlsx"
    )
    msg.add_attachment(
        b"PK\x03\x04 not a zip", maintype="application", subtype="octet-stream", filename="x.docx"
    )
    msg.add_attachment(b"\x00\x01", maintype="application", subtype="zip", filename="a.zip")
    fwd = message("Terms", "Terms follow.")
    fwd.add_attachment(
        b"Payment is due in 30 days.\n", maintype="text", subtype="plain", filename="terms.txt"
    )
    msg.add_attachment(fwd)
    path = tmp_path / "offer.eml"
    path.write_bytes(bytes(msg))
    return path


def _collect(path: Path, source: str = "mail/offer.eml") -> list[CollectedSource]:
    return with_attachments([CollectedSource(SourceFile(path, source), sha256_file(path))])


def test_supported_attachments_become_child_sources_with_stable_keys(tmp_path: Path) -> None:
    path = _offer(tmp_path)
    first = _collect(path)
    keys = [c.file.source for c in first]
    assert keys == [
        "mail/offer.eml",
        "mail/offer.eml#attachment=1/price-list.xlsx",
        "mail/offer.eml#attachment=2/x.docx",
        "mail/offer.eml#attachment=4/message.eml",
        "mail/offer.eml#attachment=4/message.eml#attachment=1/terms.txt",
    ]  # a.zip (position 3) is not a supported type
    again = _collect(path)
    assert [c.doc_id for c in again] == [c.doc_id for c in first]
    message_sha = first[0].sha256
    for child in first[1:]:
        assert child.sha256 == message_sha and child.metadata_sha256 == ""
        assert child.file.path == path and child.file.attached is not None
    nested = first[-1].file.attached
    assert nested == AttachedTo(
        "mail/offer.eml", "mail/offer.eml#attachment=4/message.eml", (4, 1), "terms.txt"
    )
    assert any("a.zip" in w for w in attachment_tree(path.read_bytes()).warnings)


def test_child_inherits_the_access_label_and_no_sidecar(tmp_path: Path) -> None:
    path = _offer(tmp_path)
    (tmp_path / "offer.eml.meta.json").write_text('{"title": "The offer"}', encoding="utf-8")
    collected = with_attachments(
        [CollectedSource(SourceFile(path, "mail/offer.eml", "finance"), "s")]
    )
    child = collected[1].file
    assert child.access == "finance"
    out = process_file(child, ChunkSettings())
    assert out.status == "ok", out.reason
    assert out.chunks[0].metadata["title"] != "The offer"
    root = process_file(collected[0].file, ChunkSettings())
    assert root.chunks[0].metadata["title"] == "The offer"


def test_attachment_documents_are_linked_to_their_message(tmp_path: Path) -> None:
    path = _offer(tmp_path)
    collected = _collect(path)
    outcomes = {c.file.source: process_file(c.file, ChunkSettings()) for c in collected}
    root = outcomes["mail/offer.eml"]
    assert root.status == "ok"
    assert root.info["attachments"] == ["price-list.xlsx", "x.docx", "message.eml"]
    assert root.info["attachment_doc_ids"] == [c.doc_id for c in collected[1:4]]
    text = " ".join(c.content for c in root.chunks)
    assert "Attachments: price-list.xlsx; x.docx; a.zip; message.eml" in text
    assert "Hex bolt" not in text  # the attachment's text is its own document's

    sheet = outcomes["mail/offer.eml#attachment=1/price-list.xlsx"]
    assert sheet.status == "ok" and sheet.sha256 == collected[0].sha256
    meta = sheet.chunks[0].to_metadata()
    assert meta["file_type"] == "xlsx" and meta["sheet"] == "Prices"
    assert meta["row_start"] == 2 and "Item: Hex bolt M8" in sheet.chunks[0].text
    assert meta["parent_doc_id"] == doc_id_for("mail/offer.eml")
    assert meta["parent_source"] == "mail/offer.eml"
    assert meta["attachment_name"] == meta["doc_name"] == "price-list.xlsx"

    broken = outcomes["mail/offer.eml#attachment=2/x.docx"]
    assert broken.status == "failed" and broken.reason.startswith("x.docx:")

    fwd = outcomes["mail/offer.eml#attachment=4/message.eml"]
    assert fwd.status == "ok" and fwd.info["attachments"] == ["terms.txt"]
    terms = outcomes["mail/offer.eml#attachment=4/message.eml#attachment=1/terms.txt"]
    assert terms.chunks[0].metadata["parent_doc_id"] == collected[3].doc_id
    assert "Payment is due in 30 days." in terms.chunks[0].content


def test_read_attachment_by_position(tmp_path: Path) -> None:
    data = _offer(tmp_path).read_bytes()
    assert read_attachment(data, (4, 1)) == ("terms.txt", b"Payment is due in 30 days.\n")
    name, sheet = read_attachment(data, (1,))
    assert name == "price-list.xlsx" and sheet.startswith(b"PK\x03\x04")
    with pytest.raises(DocumentLoadError, match="no attachment 9"):
        read_attachment(data, (9,))
    with pytest.raises(DocumentLoadError):
        read_attachment(data, (1, 1))  # a spreadsheet holds no attachments
    with pytest.raises(DocumentLoadError):
        read_attachment(data, ())


def test_nested_messages_deeper_than_the_cap_are_not_collected(tmp_path: Path) -> None:
    msg = nested_message(MAX_DEPTH + 2)
    path = tmp_path / "deep.eml"
    path.write_bytes(bytes(msg))
    tree = attachment_tree(path.read_bytes())
    assert max(len(a.positions) for a in tree.attachments) == MAX_DEPTH
    assert any("nested deeper" in w for w in tree.warnings)
    children = _collect(path, "deep.eml")[1:]
    assert len(children) == MAX_DEPTH
    assert children[-1].file.source == "deep.eml" + f"{MARK}1/message.eml" * MAX_DEPTH
    deepest = process_file(children[-1].file, ChunkSettings())
    assert deepest.status == "ok" and "body 2" in " ".join(c.content for c in deepest.chunks)


def test_at_most_max_attachments_per_file(tmp_path: Path) -> None:
    msg = message("Many", "Many notes.")
    for i in range(MAX_ATTACHMENTS + 5):
        msg.add_attachment(
            f"note {i}\n".encode(), maintype="text", subtype="plain", filename=f"n{i}.txt"
        )
    path = tmp_path / "many.eml"
    path.write_bytes(bytes(msg))
    tree = attachment_tree(path.read_bytes())
    assert len(tree.attachments) == MAX_ATTACHMENTS
    assert any(f"more than {MAX_ATTACHMENTS}" in w for w in tree.warnings)
    assert len(_collect(path, "many.eml")) == 1 + MAX_ATTACHMENTS


def _ledger(collected: list[CollectedSource]) -> dict[str, dict]:
    out = {}
    for c in collected:
        out[c.doc_id] = {
            "source": c.file.source,
            "path": str(c.file.path),
            "status": "indexed",
            "sha256": c.sha256,
            "access": c.file.access,
            **c.file.link_record(),
        }
    return out


def test_plan_deletes_attachments_with_their_message(tmp_path: Path) -> None:
    path = _offer(tmp_path)
    collected = _collect(path)
    previous = _ledger(collected)
    # unchanged: everything skipped
    plan = plan_ingest(
        collected, previous, fingerprint=FINGERPRINT, previous_fingerprint=FINGERPRINT
    )
    assert {a.kind for a in plan.actions} == {ActionKind.SKIP}
    # the message lost its attachments: the message is in the run, its children are not
    plan = plan_ingest(
        collected[:1], previous, fingerprint=FINGERPRINT, previous_fingerprint=FINGERPRINT
    )
    gone = plan.to_delete
    assert {a.source for a in gone} == {c.file.source for c in collected[1:]}
    assert {a.reason for a in gone} == {Reason.ATTACHMENT_GONE}
    # the message's deletion asked for (a file argument, not a folder): all of it goes
    plan = plan_ingest(
        [],
        previous,
        fingerprint=FINGERPRINT,
        previous_fingerprint=FINGERPRINT,
        delete_sources=["mail/offer.eml"],
    )
    assert len(plan.to_delete) == len(collected)
    # the folder is ingested and the message is gone: pruned with it
    plan = plan_ingest(
        [], previous, fingerprint=FINGERPRINT, previous_fingerprint=FINGERPRINT, prefixes=["mail/"]
    )
    assert len(plan.to_delete) == len(collected)
    # not part of this run: kept with it
    plan = plan_ingest([], previous, fingerprint=FINGERPRINT, previous_fingerprint=FINGERPRINT)
    assert {a.kind for a in plan.actions} == {ActionKind.KEEP}


def test_plan_reprocesses_attachments_from_the_message_after_a_settings_change(
    tmp_path: Path,
) -> None:
    path = _offer(tmp_path)
    collected = _collect(path)
    previous = _ledger(collected)
    plan = plan_ingest(
        [],
        previous,
        fingerprint={"model": "other"},
        previous_fingerprint=FINGERPRINT,
        existing=set(previous),
    )
    files = {a.source: a.file for a in plan.to_write}
    assert len(files) == len(collected)
    child = files["mail/offer.eml#attachment=1/price-list.xlsx"]
    assert child is not None and child.attached == collected[1].file.attached
    out = process_file(child, ChunkSettings())
    assert out.status == "ok" and out.chunks[0].metadata["sheet"] == "Prices"


def test_a_large_message_is_published_with_its_attachments(tmp_path: Path) -> None:
    from citerag.index.ingest import split_phases

    path = _offer(tmp_path)
    notes = tmp_path / "notes.txt"
    notes.write_text("Deliveries on weekday mornings.\n", encoding="utf-8")
    collected = [*_collect(path), CollectedSource(SourceFile(notes, "mail/notes.txt"), "n")]
    plan = plan_ingest(collected, {}, fingerprint=FINGERPRINT, previous_fingerprint=None)
    first, *large = split_phases(plan, large_bytes=path.stat().st_size)
    assert [a.source for a in first.actions] == ["mail/notes.txt"]
    assert len(large) == 1
    assert [a.source for a in large[0].actions] == [c.file.source for c in collected[:-1]]


def test_a_zip_bomb_attachment_fails_alone(tmp_path: Path) -> None:
    import zipfile

    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml", b" " * (8 * 1024 * 1024))
    msg = message("Report", "The report is attached.")
    msg.add_attachment(
        bomb.getvalue(), maintype="application", subtype="octet-stream", filename="report.docx"
    )
    msg.add_attachment(b"Kept in locker 9.\n", maintype="text", subtype="plain", filename="k.txt")
    path = tmp_path / "bomb.eml"
    path.write_bytes(bytes(msg))
    out = [process_file(c.file, ChunkSettings()) for c in _collect(path, "bomb.eml")]
    assert [o.status for o in out] == ["ok", "failed", "ok"]
    assert out[1].kind == "unsafe" and "report.docx" in out[1].reason


@pytest.mark.parametrize(
    "name",
    ["報告書" * 45 + ".txt", "a\x00b.txt"],
    ids=["longer-than-255-bytes", "nul-byte"],
)
def test_an_attachment_whose_name_is_no_file_name_still_loads(name: str) -> None:
    """A name the file system refuses (over 255 UTF-8 bytes, a NUL) must not fail the load:
    the attachment's bytes are what is read, its name only picks the loader."""
    msg = message("Report", "See the attachment.")
    msg.add_attachment(
        b"Quarterly figures are up. " * 10, maintype="text", subtype="plain", filename=name
    )
    data = msg.as_bytes()
    (att,) = attachment_tree(data).attachments
    assert att.indexed
    got_name, member = read_attachment(data, att.positions)
    doc = load_attachment(got_name, member)
    assert "Quarterly figures are up." in doc.text


def test_a_message_nested_hostile_deep_fails_unsafe_and_a_deep_one_is_read(tmp_path: Path) -> None:
    from loaders.attachments import HOSTILE_DEPTH
    from loaders.base import DocumentLoadError
    from loaders.registry import load_file

    hostile = tmp_path / "hostile.eml"
    hostile.write_bytes(bytes(nested_message(40)))
    with pytest.raises(DocumentLoadError, match=f"nested {HOSTILE_DEPTH} or more") as err:
        load_file(hostile)
    assert err.value.kind == "unsafe"
    # deeper than the reading cap but short of hostile: read, with its first levels
    deep = tmp_path / "deep.eml"
    deep.write_bytes(bytes(nested_message(HOSTILE_DEPTH - 1)))
    assert load_file(deep).text
