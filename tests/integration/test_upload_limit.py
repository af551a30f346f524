"""``max_pending_uploads`` holds under concurrent uploads, on every registry.

The route checks the pending count before reading a body (a cheap early 503), and the
registry checks it again in the same lock or transaction as the addition, so uploads that
arrive together (threads of one process, or processes sharing a directory or a database)
cannot pass the limit together.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from citerag.stores.faiss.registry import DocumentRegistry, SharedDocumentRegistry
from citerag.stores.postgres.registry import PgDocumentRegistry
from citerag.stores.registry import PendingLimitError, make_record


def _record(n: int):
    return make_record(
        f"{n:032x}", f"doc{n}.md", f"{n:032x}/doc{n}.md", "public", 5, "ab" * 32, "al"
    )


def _received(registry, n: int) -> Path:
    registry.incoming.mkdir(parents=True, exist_ok=True)
    path = registry.incoming / f"upload-{n}"
    path.write_text(f"doc {n}", encoding="utf-8")
    return path


@pytest.fixture(params=["file", "shared", "postgres"])
def registry(request: pytest.FixtureRequest, tmp_path: Path):
    if request.param == "file":
        reg = DocumentRegistry(tmp_path)
    elif request.param == "shared":
        reg = SharedDocumentRegistry(tmp_path)
    else:
        reg = PgDocumentRegistry(request.getfixturevalue("pg_url"), tmp_path)
    yield reg
    reg.close()


def test_an_upload_past_the_limit_is_refused_and_stores_nothing(registry):
    for n in (1, 2):
        registry.add_upload(_record(n), _received(registry, n), max_pending=2)
    with pytest.raises(PendingLimitError, match="2 uploads are already waiting"):
        registry.add_upload(_record(3), _received(registry, 3), max_pending=2)
    assert registry.get(f"{3:032x}") is None and registry.count("pending") == 2
    # once one is indexed, there is room again
    registry.update(f"{1:032x}", status="indexed", chunks=1)
    registry.add_upload(_record(3), _received(registry, 3), max_pending=2)
    assert registry.count("pending") == 2


def test_concurrent_uploads_do_not_pass_the_limit_together(registry):
    tries, limit = 8, 3
    start = threading.Barrier(tries)
    outcomes: list[str] = []
    received = [_received(registry, n) for n in range(tries)]

    def upload(n: int) -> None:
        start.wait()
        try:
            registry.add_upload(_record(n), received[n], max_pending=limit)
            outcomes.append("added")
        except PendingLimitError:
            outcomes.append("refused")

    threads = [threading.Thread(target=upload, args=(n,)) for n in range(tries)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["added"] * limit + ["refused"] * (tries - limit)
    assert registry.count("pending") == limit
