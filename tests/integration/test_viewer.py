"""The citation viewer in a real headless browser against a real ``citerag serve`` app.

Debian's ``chromium`` is driven with Playwright (never ``playwright install``). Without the
browser the tests skip on a developer machine and fail under ``CI=true``. The server is the
real app under uvicorn on 127.0.0.1 over the sample corpus; every page session records its
requests and must make none outside that server.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from loaders.registry import load_file
from tests.integration.test_server import (
    BOARD_QUESTION,
    BOARD_TOKEN,
    PUBLIC_TOKEN,
    RESTRICTED,
    REVENUE_QUESTION,
    Server,
    auth,
    running_server,
    server_settings,
    write_tokens,
)

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:Accessing the .model_fields. attribute:DeprecationWarning"),
]

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
REVENUE_SENTENCE = (
    "Total revenue for 2025 was £412,860, an increase of 11% on the £371,540 reported for 2024."
)
SHARES_QUESTION = "What is the minimum number of shares a member must hold?"
PASSPORT_QUESTION = "How do I renew a UK passport?"
TWO_SOURCES_QUESTION = "When was the Fennick Farm array installed and who maintains it?"
WAIT_MS = 90_000


def collapse(text: str) -> str:
    return " ".join(text.split())


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but {reason}: .ci/run installs chromium before `make test`")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def chromium() -> str:
    """The system chromium's path (skip without it, except under CI=true: fail)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _unavailable("the playwright package is not installed (pip install -e '.[dev]')")
    path = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        _unavailable("no chromium browser (apt-get install -y chromium)")
    return path


@pytest.fixture(scope="module")
def viewer_root(tmp_path_factory: pytest.TempPathFactory, sample_index: Path) -> Path:
    root = tmp_path_factory.mktemp("viewer")
    shutil.copytree(sample_index, root / "index", symlinks=True)
    write_tokens(root / "tokens.json")
    return root


@pytest.fixture(scope="module")
def server(viewer_root: Path, embedding_model: Any) -> Iterator[Server]:
    with running_server(server_settings(viewer_root), embedding_model) as srv:
        yield srv


@pytest.fixture(scope="module")
def playwright_driver() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="module")
def board_doc_id(viewer_root: Path) -> str:
    from citerag.stores.loaded import read_manifest

    docs = read_manifest(viewer_root / "index").documents.values()
    ids = [d["doc_id"] for d in docs if d["doc_name"] == "board_minutes_2025.md"]
    assert len(ids) == 1 and next(d for d in docs if d["doc_id"] == ids[0])["access"] == "board"
    return str(ids[0])


class Session:
    """One browser profile (fresh user-data-dir) on the viewer page, recording requests."""

    def __init__(self, page: Any, server: Server) -> None:
        self.page = page
        self.server = server
        self.requests: list[str] = []
        page.on("request", lambda req: self.requests.append(req.url))

    def sign_in(self, token: str) -> None:
        from playwright.sync_api import expect

        page = self.page
        page.goto(f"{self.server.url}/app/")
        expect(page.locator("#login")).to_be_visible(timeout=WAIT_MS)
        page.fill("#token", token)
        page.press("#token", "Enter")
        expect(page.locator("#workspace")).to_be_visible(timeout=WAIT_MS)

    def ask(self, question: str) -> str:
        """Ask through the form; return the result's status once it is shown."""
        from playwright.sync_api import expect

        page = self.page
        page.fill("#question", question)
        page.click("#ask-button")
        result = page.locator("#result")
        expect(result).to_have_attribute("data-state", "done", timeout=WAIT_MS)
        return str(result.get_attribute("data-status"))

    def wait_viewer(self) -> Any:
        from playwright.sync_api import expect

        viewer = self.page.locator("#viewer")
        expect(viewer).to_have_attribute("data-state", "ready", timeout=WAIT_MS)
        return viewer

    def fetch_status(self, path: str) -> tuple[int, str]:
        """Fetch a path from inside the page (with the page's cookie)."""
        res = self.page.evaluate(
            "async (p) => { const r = await fetch(p); return [r.status, await r.text()]; }", path
        )
        return int(res[0]), str(res[1])

    def assert_only_local_requests(self) -> None:
        outside = [u for u in self.requests if not u.startswith(f"{self.server.url}/")]
        assert not outside, f"requests outside the server: {outside}"
        assert self.requests, "no requests recorded"


@pytest.fixture
def session_factory(
    chromium: str, playwright_driver: Any, server: Server, tmp_path: Path
) -> Iterator[Any]:
    """Open browser sessions, each with a fresh user-data-dir; all are closed at the end."""
    with contextlib.ExitStack() as stack:
        count = 0

        def open_session(width: int = 1366, height: int = 860) -> Session:
            nonlocal count
            count += 1
            context = playwright_driver.chromium.launch_persistent_context(
                str(tmp_path / f"profile-{count}"),
                executable_path=chromium,
                args=CHROMIUM_ARGS,
                viewport={"width": width, "height": height},
            )
            stack.callback(context.close)
            page = context.pages[0] if context.pages else context.new_page()
            return Session(page, server)

        yield open_session


# -- tests ---------------------------------------------------------------------------------


def test_pdf_citation_opens_the_cited_page_with_the_quote_highlighted(session_factory):
    s = session_factory()
    s.sign_in(PUBLIC_TOKEN)
    assert s.ask(REVENUE_QUESTION) == "answered"
    page = s.page
    assert page.inner_text("#status") == "Answered"
    assert "annual_report_2025.pdf" in page.inner_text("#sources")

    page.locator("#answer button.marker", has_text="[1]").first.click()
    viewer = s.wait_viewer()
    assert viewer.get_attribute("data-page") == "2"
    assert viewer.get_attribute("data-kind") == "pdf"
    assert "page 2 of 5" in page.inner_text("#viewer-where")

    img = page.locator("#viewer-body figure.page img")
    assert re.search(r"/app/api/documents/[0-9a-f]+/pages/2/image$", img.get_attribute("src"))
    assert page.evaluate("document.querySelector('#viewer-body img').naturalWidth") > 500

    overlay = page.locator("#viewer-body .highlights")
    assert overlay.get_attribute("data-method") == "exact"
    assert REVENUE_SENTENCE in collapse(overlay.get_attribute("data-highlight-text") or "")
    boxes = page.locator("#viewer-body .hl")
    assert boxes.count() >= 1
    box_texts = " ".join(boxes.nth(i).get_attribute("data-text") for i in range(boxes.count()))
    assert REVENUE_SENTENCE in collapse(box_texts)
    # the boxes are drawn over the page image, in its upper part (where the sentence is)
    img_box = img.bounding_box()
    first = boxes.nth(0).bounding_box()
    assert img_box and first and first["width"] > 0 and first["height"] > 0
    assert (
        img_box["x"] <= first["x"]
        and first["x"] + first["width"] <= img_box["x"] + img_box["width"] + 1
    )
    assert img_box["y"] <= first["y"] < img_box["y"] + img_box["height"] * 0.25
    marker = page.locator("#answer button.marker", has_text="[1]").first
    assert marker.get_attribute("aria-pressed") == "true"

    # the answer quotes the page twice (the sentence and the statement's row): the source
    # lists both quotes, and the second opens at its own range
    second = page.locator("#sources button.quote-open").first
    assert "412,860" in collapse(second.inner_text())
    second.click()
    from playwright.sync_api import expect

    overlay = page.locator("#viewer-body .highlights")
    row = re.compile(r"^\s*Total revenue\s+412,860\s+371,540\s*$")  # not the sentence
    expect(overlay).to_have_attribute("data-highlight-text", row, timeout=WAIT_MS)
    assert viewer.get_attribute("data-page") == "2"
    s.assert_only_local_requests()


def test_markdown_citation_by_keyboard_marks_exactly_the_cited_range(
    session_factory, server: Server, sample_corpus: Path
):
    s = session_factory()
    s.sign_in(PUBLIC_TOKEN)
    assert s.ask(SHARES_QUESTION) == "answered"
    page = s.page
    page.focus("#question")
    for _ in range(12):  # Tab from the question to the first marker
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('#answer button.marker')"):
            break
    else:
        raise AssertionError("the [1] marker is not reachable with Tab")
    assert page.evaluate("document.activeElement.textContent") == "[1]"
    page.keyboard.press("Enter")
    viewer = s.wait_viewer()
    assert viewer.get_attribute("data-kind") == "text" and viewer.get_attribute("data-page") is None

    mark = page.locator("#viewer-body mark#cited")
    start, end = int(mark.get_attribute("data-start")), int(mark.get_attribute("data-end"))
    canonical = load_file(sample_corpus / "handbook.md").text
    assert mark.text_content() == canonical[start:end]
    assert "The minimum holding is 5 shares" in canonical[start:end]
    assert "Buying Shares" in page.inner_text("#viewer-where")
    # the whole document is shown around the mark, and the mark is scrolled into view
    assert page.locator("#viewer-body pre").text_content() == canonical
    body_box = page.locator("#viewer-body").bounding_box()
    mark_box = mark.bounding_box()
    assert body_box and mark_box
    assert body_box["y"] <= mark_box["y"] <= body_box["y"] + body_box["height"]

    # the served canonical text holds the citation's quote at exactly its range
    with server.client(PUBLIC_TOKEN) as c:
        out = c.post("/rag/invoke", json={"input": {"question": SHARES_QUESTION}}).json()["output"]
        cite = out["citations"][0]
        served = c.get(
            f"/app/api/documents/{cite['doc_id']}/text",
            params={"start": cite["start"], "end": cite["end"]},
        ).json()
    off = served["offset"]
    assert served["text"][cite["start"] - off : cite["end"] - off] == cite["quote"]
    assert (cite["start"], cite["end"]) == (start, end)

    # a source entry opens with Enter too (a new session's answer citing two text documents:
    # the handbook's sites table and the maintenance notes)
    s = session_factory()
    s.sign_in(PUBLIC_TOKEN)
    assert s.ask(TWO_SOURCES_QUESTION) == "answered"
    page = s.page
    source = page.locator("#sources button.source").nth(1)
    cite = source.get_attribute("data-cite")
    source.focus()
    page.keyboard.press("Enter")
    from playwright.sync_api import expect

    expect(page.locator("#viewer")).to_have_attribute("data-cite", str(cite), timeout=WAIT_MS)
    s.wait_viewer()
    where = page.inner_text("#viewer-where")
    name = next(n for n in ("maintenance_notes.txt", "handbook.md") if n in where)
    text = load_file(sample_corpus / name).text
    second = page.locator("#viewer-body mark#cited")
    start, end = int(second.get_attribute("data-start")), int(second.get_attribute("data-end"))
    assert second.text_content() == text[start:end]
    s.assert_only_local_requests()


def test_member_never_sees_nor_opens_the_board_document(
    session_factory, server: Server, board_doc_id: str
):
    member = session_factory()
    member.sign_in(PUBLIC_TOKEN)
    status = member.ask(BOARD_QUESTION)
    assert status in ("no_evidence", "answered")
    shown = member.page.inner_text("body") + member.page.content()
    leaked = [w for w in RESTRICTED if w.lower() in shown.lower()]
    assert not leaked, f"restricted text shown to a member: {leaked}"
    assert board_doc_id not in member.page.content()

    missing = member.fetch_status("/app/api/documents/0123456789abcdef/text")
    for path in (
        f"/app/api/documents/{board_doc_id}/text",
        f"/app/api/documents/{board_doc_id}/text?start=0&end=10",
        f"/app/api/documents/{board_doc_id}/pages/1/image",
        f"/app/api/documents/{board_doc_id}/pages/1/highlight?start=0&end=10",
    ):
        assert member.fetch_status(path) == (404, missing[1]), path
    assert missing[0] == 404

    director = session_factory()
    director.sign_in(BOARD_TOKEN)
    code, body = director.fetch_status(f"/app/api/documents/{board_doc_id}/text")
    assert code == 200 and "Heron" in body  # the id is real; only the label decides
    # the same rule over a bearer token
    with server.client(PUBLIC_TOKEN) as c:
        assert c.get(f"/app/api/documents/{board_doc_id}/text").status_code == 404
    with server.client(BOARD_TOKEN) as c:
        assert c.get(f"/app/api/documents/{board_doc_id}/text").status_code == 200
    member.assert_only_local_requests()


def test_no_evidence_shows_its_reason_and_where_it_looked_but_no_sources(session_factory):
    from playwright.sync_api import expect

    s = session_factory()
    s.sign_in(PUBLIC_TOKEN)
    assert s.ask(PASSPORT_QUESTION) == "no_evidence"
    page = s.page
    assert page.inner_text("#status") == "No evidence"
    # plain words first; the gate's technical reason behind a toggle, closed at first
    reason = page.inner_text("#reason")
    assert "None of the documents you may read answers this" in reason
    assert "threshold" not in reason
    assert page.locator("#reason-technical").is_hidden()
    page.locator("#reason-details summary").click()
    assert "threshold" in page.inner_text("#reason-technical")
    assert page.locator("#sources li").count() == 0
    assert page.locator("#answer button.marker").count() == 0
    assert page.locator("#sources-title").is_hidden()
    # where it looked: the passages it read, behind a closed toggle, each opens the viewer
    looked = page.locator("#looked")
    assert looked.is_visible() and looked.get_attribute("open") is None
    assert page.locator("#looked-list li").count() == 3
    assert page.inner_text("#looked-title") == "Where it looked (3 passages)"
    page.locator("#looked summary").click()
    page.locator("#looked-list button.source").first.click()
    expect(page.locator("#viewer")).to_have_attribute("data-cite", "1", timeout=WAIT_MS)
    s.wait_viewer()
    # a new question clears it
    assert s.ask(TWO_SOURCES_QUESTION) == "answered"
    assert page.locator("#looked").is_hidden() and page.locator("#looked-list li").count() == 0
    s.assert_only_local_requests()


def test_sign_in_cookie_sign_out_and_phone_width(session_factory, server: Server):
    from playwright.sync_api import expect

    s = session_factory(width=390, height=844)
    page = s.page
    page.goto(f"{server.url}/app/")
    page.fill("#token", "not-a-token-of-this-server")
    page.press("#token", "Enter")
    expect(page.locator("#login-error")).to_have_text("Unknown token. Try again.")
    s.sign_in(PUBLIC_TOKEN)
    cookies = page.context.cookies()
    viewer_cookies = [c for c in cookies if c["name"] == "citerag_viewer"]
    assert len(viewer_cookies) == 1
    cookie = viewer_cookies[0]
    assert cookie["httpOnly"] is True and cookie["sameSite"] == "Strict" and cookie["path"] == "/"
    assert page.evaluate("document.cookie") == ""  # not readable by scripts
    # the cookie is not a bearer token elsewhere: batch, metrics and exports want the header
    assert s.fetch_status("/feedback/export")[0] == 401
    assert s.fetch_status("/metrics")[0] == 401
    assert s.fetch_status("/app/api/me")[0] == 200
    assert s.fetch_status("/documents")[0] == 200  # the page lists documents with it

    # phone width: one column, the source below the answer, no sideways scrolling
    assert s.ask(REVENUE_QUESTION) == "answered"
    page.locator("#sources button.source").first.click()
    s.wait_viewer()
    result_box = page.locator("#result").bounding_box()
    viewer_box = page.locator("#viewer").bounding_box()
    assert result_box and viewer_box
    assert viewer_box["y"] >= result_box["y"] + result_box["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    page.click("#logout")
    expect(page.locator("#login")).to_be_visible()
    assert not [c for c in page.context.cookies() if c["name"] == "citerag_viewer"]
    assert s.fetch_status("/app/api/me")[0] == 401
    s.assert_only_local_requests()


def test_viewer_api_bad_input_is_a_clear_4xx(server: Server):
    page = httpx.get(f"{server.url}/app/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assert httpx.get(f"{server.url}/app/static/viewer.js").status_code == 200
    assert httpx.get(f"{server.url}/app/static/index.html").status_code == 404
    assert httpx.get(f"{server.url}/app/static/..%2Fviewer.py").status_code == 404
    assert httpx.get(f"{server.url}/app/api/me").status_code == 401
    bad_login = httpx.post(f"{server.url}/app/login", json={"token": "x" * 600})
    assert bad_login.status_code == 422
    assert httpx.post(f"{server.url}/app/login", content=b"{").status_code == 422
    assert httpx.post(f"{server.url}/app/login", json={"token": "wrong-token"}).status_code == 401
    # a cross-site form can only send form or text/plain bodies: those never sign anyone in
    for kind in ("text/plain", "application/x-www-form-urlencoded"):
        forged = httpx.post(
            f"{server.url}/app/login",
            content=f'{{"token": "{PUBLIC_TOKEN}"}}',
            headers={"content-type": kind},
        )
        assert forged.status_code == 422 and "set-cookie" not in forged.headers, kind

    with server.client(PUBLIC_TOKEN) as c:
        docs = {d["doc_name"]: d["doc_id"] for d in c.get("/index/documents").json()["documents"]}
        pdf, md = docs["annual_report_2025.pdf"], docs["handbook.md"]
        base = "/app/api/documents"
        cases = {
            f"{base}/{pdf}/pages/2/highlight?start=10&end=5": 422,
            f"{base}/{pdf}/pages/2/highlight?start=x&end=5": 422,
            f"{base}/{pdf}/pages/2/highlight": 422,
            f"{base}/{pdf}/pages/2/highlight?start=0&end=99999999": 422,
            f"{base}/{pdf}/pages/3/highlight?start=1018&end=1108": 422,  # not on page 3
            f"{base}/{pdf}/pages/9/highlight?start=1018&end=1108": 404,
            f"{base}/{pdf}/pages/0/image": 404,
            f"{base}/{pdf}/pages/2/image?scale=50": 422,
            f"{base}/{pdf}/pages/two/image": 422,
            f"{base}/{md}/pages/1/image": 422,
            f"{base}/{md}/text?start=5": 422,
            f"{base}/{md}/text?start=-1&end=4": 422,
            f"{base}/{'f' * 300}/text": 404,
            f"{base}/..%2F..%2Fetc%2Fpasswd/text": 404,
        }
        for path, expected in cases.items():
            res = c.get(path)
            assert res.status_code == expected, (path, res.status_code, res.text)
            assert res.headers["content-type"].startswith("application/json"), path
            assert "detail" in res.json(), path
        png = c.get(f"{base}/{pdf}/pages/2/image", params={"scale": 1})
        assert png.status_code == 200 and png.content[:4] == b"\x89PNG"
        assert png.headers["cache-control"] == "private, no-store"
        text = c.get(f"{base}/{md}/text").json()
        assert "path" not in text and str(server.settings.index_dir) not in str(text)
    assert httpx.get(f"{server.url}/app/api/documents/{pdf}/text").status_code == 401
    with httpx.Client(base_url=server.url, headers=auth("unknown-token-000000000")) as c:
        assert c.get(f"/app/api/documents/{pdf}/text").status_code == 401


@pytest.fixture(scope="module")
def model_server(
    tmp_path_factory: pytest.TempPathFactory,
    sample_index: Path,
    embedding_model: Any,
    scripted_openai: Any,
) -> Iterator[Server]:
    """The server with a chat model: the scripted OpenAI-compatible endpoint."""
    from tests.support.openai_server import serving_chat_model

    root = tmp_path_factory.mktemp("viewer_model")
    with serving_chat_model(root, sample_index, embedding_model, scripted_openai) as srv:
        yield srv


def test_the_answer_streams_into_the_page_and_markers_become_links_when_validated(
    chromium: str,
    playwright_driver: Any,
    model_server: Server,
    scripted_openai: Any,
    tmp_path: Path,
):
    chat_endpoint = scripted_openai
    from playwright.sync_api import expect

    from tests.support.fake_models import good_answer
    from tests.support.openai_server import hold

    context = playwright_driver.chromium.launch_persistent_context(
        str(tmp_path / "profile-stream"), executable_path=chromium, args=CHROMIUM_ARGS
    )
    try:
        s = Session(context.pages[0] if context.pages else context.new_page(), model_server)
        s.sign_in(PUBLIC_TOKEN)
        chat_endpoint.set_script(hold(good_answer(1), after=3, chunk=4))
        page = s.page
        page.fill("#question", "What does inverter fault code E-217 mean?")
        page.click("#ask-button")
        result = page.locator("#result")
        # half-written: the draft is on the page before the model has finished
        expect(result).to_have_attribute("data-state", "streaming", timeout=WAIT_MS)
        expect(page.locator("#answer")).to_have_text("The passage ", timeout=WAIT_MS)
        assert page.locator("#answer button.marker").count() == 0
        assert page.inner_text("#status") == "Writing…"
        chat_endpoint.proceed()
        expect(result).to_have_attribute("data-state", "done", timeout=WAIT_MS)
        assert result.get_attribute("data-status") == "answered"
        expect(page.locator("#answer button.marker", has_text="[1]")).to_have_count(1)
        assert '[1: "' not in page.inner_text("#answer")  # the draft's marker text is gone
        s.assert_only_local_requests()
    finally:
        context.close()
