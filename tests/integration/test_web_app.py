"""The web app in a real headless chromium against a real uvicorn server (its own copy of
the sample index, since uploads and deletes change it): ``/`` opens the app, uploads settle
per file, the document list (search, delete, duplicates), the parsing review, a two-turn
conversation with a follow-up, thumbs-down feedback exported as an eval file, and a user
without a label who sees neither that document nor its review.

No sleeps: every wait is on a DOM condition (Playwright's ``expect``).
"""

# ruff: noqa: F811 (the browser fixtures imported from test_viewer are test parameters)
from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citerag.eval.questions import parse_questions
from tests.integration.test_server import (
    ADMIN_TOKEN,
    BOARD_TOKEN,
    OTHER_TOKEN,
    PUBLIC_TOKEN,
    REVENUE_QUESTION,
    Server,
    running_server,
    server_settings,
    write_tokens,
)
from tests.integration.test_viewer import (  # noqa: F401 (fixtures)
    WAIT_MS,
    chromium,
    playwright_driver,
    session_factory,
)

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:Accessing the .model_fields. attribute:DeprecationWarning"),
]

FOLLOW_UP = "And the year before?"


@pytest.fixture(scope="module")
def app_root(tmp_path_factory: pytest.TempPathFactory, sample_index: Path) -> Path:
    root = tmp_path_factory.mktemp("webapp")
    shutil.copytree(sample_index, root / "index", symlinks=True)
    write_tokens(root / "tokens.json")
    return root


@pytest.fixture(scope="module")
def server(app_root: Path, embedding_model: Any) -> Iterator[Server]:
    with running_server(server_settings(app_root), embedding_model) as srv:
        yield srv


@pytest.fixture(scope="module")
def board_doc_id(server: Server) -> str:
    with server.client(BOARD_TOKEN) as c:
        docs = c.get("/index/documents").json()["documents"]
    return str(next(d["doc_id"] for d in docs if d["doc_name"] == "board_minutes_2025.md"))


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def open_documents(s: Any) -> Any:
    expect = _expect()
    page = s.page
    page.click("#tab-docs")
    expect(page.locator("#docs-table")).to_have_attribute("data-state", "ready", timeout=WAIT_MS)
    return page


def test_root_opens_the_app_and_the_placeholder_names_a_document(session_factory, server):
    expect = _expect()
    s = session_factory()
    page = s.page
    page.goto(f"{server.url}/")
    expect(page.locator("#login")).to_be_visible(timeout=WAIT_MS)
    assert page.url == f"{server.url}/app/"
    s.sign_in(PUBLIC_TOKEN)
    placeholder = page.get_attribute("#question", "placeholder") or ""
    assert "Northwind's revenue" not in placeholder and "“" in placeholder
    s.assert_only_local_requests()


def test_upload_three_files_watch_them_settle_then_search_and_delete(
    session_factory, server, tmp_path
):
    expect = _expect()
    files = {
        "lighthouse.md": b"# Kestrel lighthouse\n\nThe lamp is serviced every 14 days.\n",
        "orchard.txt": b"The orchard has 112 apple trees and 9 pear trees.\n",
        "broken.pdf": b"%PDF-1.4\nthis is not really a PDF at all\n",
    }
    paths = []
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        paths.append(str(tmp_path / name))
    s = session_factory()
    s.sign_in(ADMIN_TOKEN)
    page = open_documents(s)
    page.set_input_files("#file-input", paths)
    rows = page.locator("#upload-list li")
    expect(rows).to_have_count(3, timeout=WAIT_MS)
    for name in ("lighthouse.md", "orchard.txt"):
        row = page.locator(f'#upload-list li[data-name="{name}"]')
        expect(row).to_have_attribute("data-status", "indexed", timeout=WAIT_MS)
        expect(row.locator(".up-detail")).to_contain_text("chunks")
    broken = page.locator('#upload-list li[data-name="broken.pdf"]')
    expect(broken).to_have_attribute("data-status", "failed", timeout=WAIT_MS)
    assert broken.locator(".up-detail").inner_text().strip()  # its reason, in words

    # the same bytes again: one document, the row says where it already is
    page.set_input_files("#file-input", [paths[0]])
    expect(rows).to_have_count(4, timeout=WAIT_MS)
    again = rows.nth(3)
    expect(again).to_have_attribute("data-status", "duplicate", timeout=WAIT_MS)
    expect(again.locator(".up-detail")).to_contain_text("already indexed as lighthouse.md")

    # the list: every document, searchable
    table = page.locator("#docs-body")
    expect(table.locator('tr[data-name="orchard.txt"]')).to_have_attribute(
        "data-status", "indexed", timeout=WAIT_MS
    )
    assert table.locator('tr[data-name="lighthouse.md"]').count() == 1
    assert table.locator('tr[data-name="annual_report_2025.pdf"]').count() == 1
    page.fill("#doc-search", "orchard")
    expect(table.locator("tr")).to_have_count(1)
    page.fill("#doc-search", "")

    # delete (a second press confirms), by keyboard
    delete = table.locator('tr[data-name="orchard.txt"] button.delete-doc')
    delete.focus()
    page.keyboard.press("Enter")
    expect(delete).to_have_text("Confirm delete")
    page.keyboard.press("Enter")
    expect(table.locator('tr[data-name="orchard.txt"]')).to_have_count(0, timeout=WAIT_MS)
    with server.client(ADMIN_TOKEN) as c:
        names = [d["name"] for d in c.get("/documents").json()["documents"]]
    assert "orchard.txt" not in names and names.count("lighthouse.md") == 1
    s.assert_only_local_requests()


def test_an_e_mail_and_its_attachment_are_two_rows_only_the_message_deletable(
    session_factory, server
):
    """An attachment's document carries its message's upload id: the list must still show
    it under its own name (not merged into the message's row) and offer no Delete for it
    (deleting is the message's)."""
    from email.message import EmailMessage

    expect = _expect()
    msg = EmailMessage()
    msg["Subject"] = "Heron hide rota"
    msg["From"] = "ann@example.com"
    msg["To"] = "team@example.com"
    msg.set_content("The rota is attached.")
    msg.add_attachment(
        b"# Hide rota\n\nThe heron hide is opened at 06:30 on weekdays.\n",
        maintype="text",
        subtype="markdown",
        filename="hide-rota.md",
    )
    up = server.upload(ADMIN_TOKEN, "rota.eml", msg.as_bytes())
    assert up.status_code == 202, up.text
    assert server.wait_settled(ADMIN_TOKEN, up.json()["id"])["status"] == "indexed"
    s = session_factory()
    s.sign_in(ADMIN_TOKEN)
    page = open_documents(s)
    table = page.locator("#docs-body")
    message = table.locator('tr[data-name="rota.eml"]')
    attachment = table.locator('tr[data-name="hide-rota.md"]')
    expect(attachment).to_have_count(1, timeout=WAIT_MS)
    expect(message).to_have_count(1)
    expect(message.locator("button.delete-doc")).to_have_count(1)
    expect(attachment.locator("button.delete-doc")).to_have_count(0)
    expect(attachment.locator("button.review-doc")).to_have_count(1)


def test_parsing_review_shows_each_page_image_beside_its_text(session_factory):
    expect = _expect()
    s = session_factory()
    s.sign_in(PUBLIC_TOKEN)
    page = open_documents(s)
    page.locator('#docs-body tr[data-name="annual_report_2025.pdf"] button.review-doc').click()
    pages = page.locator("#review-pages")
    expect(pages).to_have_attribute("data-state", "ready", timeout=WAIT_MS)
    assert page.locator("#panel-review").is_visible()
    cards = page.locator("#review-pages .review-page")
    assert cards.count() == 5
    second = cards.nth(1)
    img = second.locator("img")
    expect(img).to_have_attribute("src", lambda_src := img.get_attribute("src") or "x")
    assert lambda_src.endswith("/pages/2/image")
    img.scroll_into_view_if_needed()
    page.wait_for_function(
        "(el) => el.complete && el.naturalWidth > 0", arg=img.element_handle(), timeout=WAIT_MS
    )
    assert "Total revenue for 2025" in " ".join(second.locator("pre").inner_text().split())
    assert page.locator("#review-pages .block-table_row").count() > 0  # table rows marked
    assert "running header/footer" in page.inner_text("#review-warnings")
    s.assert_only_local_requests()


def test_a_user_without_the_label_sees_neither_the_document_nor_its_review(
    session_factory, board_doc_id
):
    s = session_factory()
    s.sign_in(PUBLIC_TOKEN)
    page = open_documents(s)
    assert page.locator('#docs-body tr[data-name="board_minutes_2025.md"]').count() == 0
    assert "board_minutes" not in page.inner_text("#docs-body")
    assert s.fetch_status(f"/app/api/documents/{board_doc_id}/review")[0] == 404
    director = session_factory()
    director.sign_in(BOARD_TOKEN)
    page = open_documents(director)
    assert page.locator('#docs-body tr[data-name="board_minutes_2025.md"]').count() == 1
    assert director.fetch_status(f"/app/api/documents/{board_doc_id}/review")[0] == 200


def test_a_follow_up_is_answered_in_the_thread_with_its_rewritten_question(session_factory, server):
    expect = _expect()
    with server.client(OTHER_TOKEN) as c:  # a user of their own: a known, empty history
        assert c.delete("/app/api/conversation").status_code == 200
    s = session_factory()
    s.sign_in(OTHER_TOKEN)
    page = s.page
    expect(page.locator("#thread")).to_have_attribute("data-restored", "0", timeout=WAIT_MS)
    assert s.ask(REVENUE_QUESTION) == "answered"
    assert "412,860" in page.inner_text("#answer")
    assert page.locator("#rewritten").is_hidden()  # a first question is not rewritten
    assert s.ask(FOLLOW_UP) == "answered"
    assert "371,540" in page.inner_text("#answer")
    expect(page.locator("#thread li")).to_have_count(1)
    assert REVENUE_QUESTION in page.inner_text("#thread")
    page.locator("#rewritten summary").click()
    assert page.inner_text("#rewritten-text") == "What was Northwind's total revenue in 2024?"
    assert "annual_report_2025.pdf" in page.inner_text("#sources")
    assert page.locator("#answer button.marker").count() >= 1

    # kept per user on the server: a reload (or another browser) shows the thread again,
    # and the next follow-up is read with it
    page.reload()
    expect(page.locator("#thread")).to_have_attribute("data-restored", "2", timeout=WAIT_MS)
    assert "371,540" in page.inner_text("#thread") and REVENUE_QUESTION in page.inner_text(
        "#thread"
    )
    with server.client(BOARD_TOKEN) as c:  # another user's conversation is their own
        assert c.get("/app/api/conversation").json()["turns"] == []
    page.click("#new-thread")
    expect(page.locator("#thread li")).to_have_count(0)
    expect(page.locator("#new-thread")).to_be_hidden()
    with server.client(OTHER_TOKEN) as c:  # cleared on the server too
        assert c.get("/app/api/conversation").json()["turns"] == []
    s.assert_only_local_requests()


def test_thumbs_down_with_a_comment_is_stored_and_exported(session_factory, server):
    expect = _expect()
    s = session_factory()
    s.sign_in(PUBLIC_TOKEN)
    page = s.page
    assert s.ask(REVENUE_QUESTION) == "answered"
    page.click("#vote-down")
    assert page.get_attribute("#vote-down", "aria-pressed") == "true"
    page.fill("#vote-comment", "I wanted the figure before tax")
    page.keyboard.press("Enter")
    expect(page.locator("#feedback")).to_have_attribute("data-stored", "down", timeout=WAIT_MS)
    # the cookie alone does not change anything: a POST without the page's header is refused
    status = page.evaluate(
        """async () => (await fetch('/app/api/feedback', {method: 'POST',
            headers: {'content-type': 'application/json'},
            body: JSON.stringify({trace_id: 'x', rating: 'up', question: 'q'})})).status"""
    )
    assert status == 403
    assert s.fetch_status("/documents")[0] == 200  # reading needs no header
    with server.client(ADMIN_TOKEN) as c:
        export = c.get("/feedback/export")
    questions = parse_questions(export.text.splitlines(), "export")
    mine = [
        q for q in questions if q.meta["feedback"]["comment"] == "I wanted the figure before tax"
    ]
    assert len(mine) == 1 and mine[0].question == REVENUE_QUESTION
    assert mine[0].evidence[0].doc == "annual_report_2025.pdf"


def test_phone_width_documents_and_review_fit(session_factory):
    s = session_factory(width=390, height=844)
    s.sign_in(PUBLIC_TOKEN)
    page = open_documents(s)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator('#docs-body tr[data-name="handbook.md"] button.review-doc').click()
    _expect()(page.locator("#review-pages")).to_have_attribute(
        "data-state", "ready", timeout=WAIT_MS
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator("#review-pages .block-heading").count() > 0
