"""An e-mail's attachments as documents of their own, on both stores: a message carrying a
spreadsheet, a PDF and a corrupt Word file is indexed as the message plus two attachment
documents and one failed attachment; a question is answered citing the spreadsheet
attachment at its sheet and rows with its message's link; the viewer opens it from the
message file; deleting the message and ingesting again removes all of it."""

from __future__ import annotations

import io
from email.message import EmailMessage
from pathlib import Path

import openpyxl
import pytest

from citerag.index.ingest import ingest
from citerag.server.viewer import DocumentViews
from citerag.stores.loaded import load_index, read_manifest
from graphs.rag import build_graph
from loaders.chunking import doc_id_for
from tests.support.ingest_checks import assert_store_in_step
from tests.support.pdfs import Line, write_pdf

pytestmark = pytest.mark.integration

MESSAGE = "mail/offer.eml"
SHEET = MESSAGE + "#attachment=1/price-list.xlsx"
PDF = MESSAGE + "#attachment=2/terms.pdf"
BROKEN = MESSAGE + "#attachment=3/quote.docx"


def _write_folder(folder: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Prices"
    ws.append(["Item", "Unit price (EUR)", "Minimum order"])
    ws.append(["Galvanised hex bolt M8", "0.42", "500"])
    ws.append(["Stainless washer M8", "0.07", "1000"])
    ws.append(["Nylon lock nut M8", "0.11", "500"])
    sheet = io.BytesIO()
    wb.save(sheet)
    pdf = write_pdf(
        folder.parent / "terms.pdf",
        [[Line("Delivery terms"), Line("Invoices are payable within 45 days of delivery.")]],
    ).read_bytes()

    msg = EmailMessage()
    msg["Subject"] = "Fastener offer for the Kestrel depot"
    msg["From"] = "Sales <sales@example.com>"
    msg["To"] = "buyers@example.com"
    msg["Date"] = "Tue, 01 Sep 2026 10:00:00 +0000"
    msg.set_content("Please find our price list and delivery terms attached.")
    msg.add_attachment(
        sheet.getvalue(),
        maintype="application",
        subtype="vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        filename="price-list.xlsx",
    )
    msg.add_attachment(pdf, maintype="application", subtype="pdf", filename="terms.pdf")
    msg.add_attachment(
        b"PK\x03\x04 this is no zip archive",
        maintype="application",
        subtype="vnd.openxmlformats-officedocument.wordprocessingml.document",
        filename="quote.docx",
    )
    (folder / "offer.eml").write_bytes(bytes(msg))
    (folder / "notes.txt").write_text(
        "The Kestrel depot receives deliveries on weekday mornings only.\n", encoding="utf-8"
    )


def test_attachments_are_documents_linked_to_their_message(
    tmp_path: Path, store_location: Path | str, embedding_model
) -> None:
    folder = tmp_path / "mail"
    folder.mkdir()
    _write_folder(folder)
    report = ingest([folder], store_location, embedding_model, progress=False)

    # three documents from the message (it and two attachments), one failed attachment
    assert sorted(report.indexed) == sorted([MESSAGE, SHEET, PDF, "mail/notes.txt"])
    assert list(report.failed) == [BROKEN]
    assert report.failed[BROKEN].startswith("quote.docx:")
    assert "zip" in report.failed[BROKEN]
    docs = read_manifest(store_location).documents
    message = docs[doc_id_for(MESSAGE)]
    assert message["status"] == "indexed"
    assert message["attachments"] == ["price-list.xlsx", "terms.pdf", "quote.docx"]
    assert message["attachment_doc_ids"] == [doc_id_for(s) for s in (SHEET, PDF, BROKEN)]
    for source in (SHEET, PDF, BROKEN):
        rec = docs[doc_id_for(source)]
        assert rec["parent_doc_id"] == doc_id_for(MESSAGE)
        assert rec["parent_source"] == MESSAGE and rec["root_source"] == MESSAGE
        assert rec["sha256"] == message["sha256"] and rec["access"] == message["access"]
    assert docs[doc_id_for(SHEET)]["file_type"] == "xlsx"
    assert docs[doc_id_for(PDF)]["file_type"] == "pdf" and docs[doc_id_for(PDF)]["pages"] == 1
    assert docs[doc_id_for(BROKEN)]["status"] == "failed"
    assert docs[doc_id_for(BROKEN)]["attachment_name"] == "quote.docx"
    listed = {r["doc_id"]: r for r in read_manifest(store_location).public_records()}
    assert listed[doc_id_for(SHEET)]["parent_doc_id"] == doc_id_for(MESSAGE)
    assert listed[doc_id_for(MESSAGE)]["parent_doc_id"] is None

    loaded = load_index(store_location, embedding_model)
    assert_store_in_step(loaded.store, store_location)
    graph = build_graph(
        loaded.store,
        embeddings=embedding_model.embeddings,
        manifest_id=loaded.manifest_id,
        embedding_model=embedding_model.name,
    )
    question = "What is the minimum order quantity of the galvanised hex bolt M8?"
    result = graph.invoke({"question": question})
    assert result["status"] == "answered", result["reason"]
    cite = result["citations"][0]
    assert cite["doc_id"] == doc_id_for(SHEET) and cite["doc_name"] == "price-list.xlsx"
    assert "500" in cite["quote"]
    assert cite["fragment"].startswith("#sheet=Prices&rows=")
    assert cite["parent_doc_id"] == doc_id_for(MESSAGE)
    assert cite["parent_source"] == MESSAGE and cite["attachment_name"] == "price-list.xlsx"

    # the viewer re-reads the attachment from the message file
    views = DocumentViews()
    record = {**docs[cite["doc_id"]], "doc_id": cite["doc_id"]}
    opened = views.canonical(record)
    assert opened.parsed.text[cite["start"] : cite["end"]] == cite["quote"]
    pdf_record = {**docs[doc_id_for(PDF)], "doc_id": doc_id_for(PDF)}
    assert "payable within 45 days" in views.canonical(pdf_record).parsed.text
    assert views.page_png(pdf_record, 1, 1.0).startswith(b"\x89PNG")

    # the message gone from the folder: ingesting it again prunes it and all its attachments
    (folder / "offer.eml").unlink()
    again = ingest([folder], store_location, embedding_model, progress=False)
    assert sorted(again.deleted) == sorted([MESSAGE, SHEET, PDF, BROKEN])
    docs = read_manifest(store_location).documents
    assert [d["source"] for d in docs.values()] == ["mail/notes.txt"]
    loaded = load_index(store_location, embedding_model)
    assert {m["source"] for _, m in loaded.store.iter_metadata()} == {"mail/notes.txt"}
    assert_store_in_step(loaded.store, store_location)


def test_a_changed_message_drops_the_attachment_it_lost(
    tmp_path: Path, store_location: Path | str, embedding_model
) -> None:
    """Given as a file (no folder to prune), a message re-ingested without its attachment
    loses that attachment's document; re-ingesting it unchanged skips it (and retries the
    failed attachment)."""
    folder = tmp_path / "mail"
    folder.mkdir()
    _write_folder(folder)
    path = folder / "offer.eml"
    ingest([path], store_location, embedding_model, progress=False)
    unchanged = ingest([path], store_location, embedding_model, progress=False)
    assert unchanged.unchanged == [
        "offer.eml",
        "offer.eml#attachment=1/price-list.xlsx",
        "offer.eml#attachment=2/terms.pdf",
    ]
    assert list(unchanged.failed) == ["offer.eml#attachment=3/quote.docx"]  # retried
    msg = EmailMessage()
    msg["Subject"] = "Fastener offer (revised)"
    msg["From"] = "Sales <sales@example.com>"
    msg.set_content("The price list follows later.")
    path.write_bytes(bytes(msg))
    report = ingest([path], store_location, embedding_model, progress=False)
    assert report.updated == ["offer.eml"]
    assert sorted(report.deleted) == sorted(
        f"offer.eml#attachment={n}" for n in ("1/price-list.xlsx", "2/terms.pdf", "3/quote.docx")
    )
    docs = read_manifest(store_location).documents
    assert [d["source"] for d in docs.values()] == ["offer.eml"]
    assert "attachments" not in docs[doc_id_for("offer.eml")]
