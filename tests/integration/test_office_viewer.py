"""The citation viewer opens slide and spreadsheet citations as canonical text with the quote
marked (a slide number is not a PDF page): real ingest, real ``citerag serve`` under uvicorn,
real chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citerag.index.ingest import ingest
from loaders.registry import load_file
from tests.integration.test_office_ingest import CASES, _write_files
from tests.integration.test_server import (
    PUBLIC_TOKEN,
    Server,
    running_server,
    server_settings,
    write_tokens,
)
from tests.integration.test_viewer import (  # noqa: F401  (fixtures used by name)
    chromium,
    playwright_driver,
    session_factory,
)

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:Accessing the .model_fields. attribute:DeprecationWarning"),
]


@pytest.fixture(scope="module")
def office_root(tmp_path_factory: pytest.TempPathFactory, embedding_model: Any) -> Path:
    root = tmp_path_factory.mktemp("office_viewer")
    folder = root / "docs"
    folder.mkdir()
    _write_files(folder)
    report = ingest([folder], root / "index", embedding_model, progress=False)
    assert list(report.failed) == ["docs/locked.docx"]
    write_tokens(root / "tokens.json")
    return root


@pytest.fixture(scope="module")
def server(office_root: Path, embedding_model: Any) -> Iterator[Server]:
    with running_server(server_settings(office_root), embedding_model) as srv:
        yield srv


@pytest.mark.parametrize("doc", ["boiler_review.pptx", "regional_sales.xlsx", "canteen.eml"])
def test_office_citation_opens_as_marked_text(session_factory, office_root: Path, doc: str):  # noqa: F811
    question = next(q for q, d, *_ in CASES if d == doc)
    s = session_factory()
    s.sign_in(PUBLIC_TOKEN)
    assert s.ask(question) == "answered"
    page = s.page
    assert doc in page.inner_text("#sources")
    page.locator("#answer button.marker", has_text="[1]").click()
    viewer = s.wait_viewer()
    assert viewer.get_attribute("data-kind") == "text" and viewer.get_attribute("data-page") is None
    mark = page.locator("#viewer-body mark#cited")
    start, end = int(mark.get_attribute("data-start")), int(mark.get_attribute("data-end"))
    canonical = load_file(office_root / "docs" / doc).text
    assert mark.text_content() == canonical[start:end] and end > start
    assert page.locator("#viewer-body pre").text_content() == canonical
    s.assert_only_local_requests()
