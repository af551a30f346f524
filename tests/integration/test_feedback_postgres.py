"""Feedback on a server of a PostgreSQL store: votes go to the store's ``<ns>_feedback``
table (no SQLite file in the data directory), a second vote of the same user on the same
run replaces the first, and the export is the same evaluation file as on an index
directory. Real parts: PostgreSQL from the ``pgserver`` wheel, the sample corpus ingested
into it, uvicorn on 127.0.0.1, the real embedding model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from citerag.eval.questions import parse_questions
from tests.integration.test_server import (
    ADMIN_TOKEN,
    OTHER_TOKEN,
    PUBLIC_TOKEN,
    REVENUE_QUESTION,
    running_server,
    write_tokens,
)

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:Accessing the .model_fields. attribute:DeprecationWarning"),
]


def test_votes_are_kept_in_the_store_and_exported(
    tmp_path: Path, sample_pg_index: str, embedding_model: Any
):
    import psycopg

    from citerag.server.feedback import FEEDBACK_FILE
    from citerag.server.settings import ServerSettings
    from citerag.stores.postgres.db import StoreURL

    write_tokens(tmp_path / "tokens.json")
    settings = ServerSettings(
        host="127.0.0.1",
        port=0,
        store=sample_pg_index,
        data_dir=tmp_path / "data",
        tokens_file=tmp_path / "tokens.json",
    ).validate()
    with running_server(settings, embedding_model) as srv:
        with srv.client(PUBLIC_TOKEN) as c:
            out = c.post("/rag/invoke", json={"input": {"question": REVENUE_QUESTION}}).json()
            answer = out["output"]
            assert answer["citations"], answer
            vote = {
                "trace_id": answer["trace"]["trace_id"],
                "rating": "up",
                "question": REVENUE_QUESTION,
                "status": answer["status"],
                "answer": answer["answer"],
                "citations": answer["citations"],
            }
            assert c.post("/app/api/feedback", json=vote).status_code == 201
            changed = {**vote, "rating": "down", "comment": "wrong year"}
            assert c.post("/app/api/feedback", json=changed).status_code == 201
        with srv.client(OTHER_TOKEN) as c:
            assert c.post("/app/api/feedback", json=vote).status_code == 201
        with srv.client(ADMIN_TOKEN) as c:
            listed = c.get("/feedback").json()["feedback"]
            export = c.get("/feedback/export")
            metrics = c.get("/metrics").text
    assert [(v["user"], v["rating"]) for v in listed] == [("member", "down"), ("other", "up")]
    assert 'citerag_feedback{rating="down"} 1.0' in metrics
    assert export.status_code == 200
    (question,) = parse_questions(export.text.splitlines(), "export")
    assert question.question == REVENUE_QUESTION
    assert question.evidence[0].doc == "annual_report_2025.pdf"
    assert question.meta["feedback"]["comment"] == "wrong year"
    assert question.meta["feedback"]["user"] == "member"
    assert not (tmp_path / "data" / FEEDBACK_FILE).exists()
    url = StoreURL.parse(sample_pg_index)
    with psycopg.connect(url.conninfo) as conn:
        rows = conn.execute(
            f'SELECT "user", rating, citations FROM {url.namespace}_feedback ORDER BY id'
        ).fetchall()
    assert [(u, r) for u, r, _ in rows] == [("member", "down"), ("other", "up")]
    stored = rows[0][2]  # JSONB: the vote's citations as the route keeps them
    assert [(c["doc_name"], c["quote"]) for c in stored] == [
        (c["doc_name"], c["quote"]) for c in answer["citations"]
    ]
