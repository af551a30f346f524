"""Feedback on answers: the page's thumbs and the admin's export.

* ``POST /app/api/feedback`` ``{"trace_id", "rating": "up"|"down", "comment"?, "question",
  "status"?, "answer"?, "citations"?}`` (token or the viewer cookie): stores the caller's
  vote on one run (a later vote on the same run replaces it).
* ``GET /feedback/export[?rating=down]`` (admin tokens): the votes as an evaluation
  question file (JSON Lines) that ``citerag eval`` reads; ``GET /feedback`` lists them.
"""

from __future__ import annotations

from typing import Any, Literal

import anyio
from fastapi import APIRouter, HTTPException, Request, Security
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from citerag.server.deps import Caller, bearer
from citerag.server.feedback import MAX_COMMENT_CHARS, Feedback, FeedbackStore

router = APIRouter(tags=["feedback"], dependencies=[Security(bearer)])


class Vote(BaseModel):
    """``POST /app/api/feedback`` body."""

    model_config = ConfigDict(extra="forbid")
    trace_id: str = Field(min_length=1, max_length=128, pattern=r"^[0-9A-Za-z_-]+$")
    rating: Literal["up", "down"]
    comment: str = Field(default="", max_length=MAX_COMMENT_CHARS)
    question: str = Field(min_length=1, max_length=20_000)
    status: str = Field(default="", max_length=32)
    answer: str = Field(default="", max_length=50_000)
    citations: list[dict[str, Any]] = Field(default_factory=list, max_length=100)


def _store(request: Request) -> FeedbackStore:
    store: FeedbackStore = request.app.state.feedback
    return store


@router.post("/app/api/feedback", status_code=201, max_body_size=256 * 1024)
async def vote(body: Vote, who: Caller, request: Request) -> JSONResponse:
    """Store the caller's vote on one answer."""
    keep = ("doc_name", "doc_id", "page", "locator", "quote")
    fb = Feedback(
        trace_id=body.trace_id,
        user=who.user,
        rating=body.rating,
        comment=body.comment.strip(),
        question=body.question.strip(),
        status=body.status,
        answer=body.answer,
        citations=tuple({k: c[k] for k in keep if k in c} for c in body.citations),
    )
    await anyio.to_thread.run_sync(_store(request).add, fb)
    return JSONResponse({"stored": True, "trace_id": fb.trace_id, "rating": fb.rating}, 201)


def _admin(who: Caller) -> None:
    if not who.admin:
        raise HTTPException(403, "feedback is exported by admin tokens")


@router.get("/feedback")
async def list_feedback(who: Caller, request: Request, rating: str | None = None) -> JSONResponse:
    """Every vote (admin tokens)."""
    _admin(who)
    rows = await anyio.to_thread.run_sync(_store(request).rows, rating)
    return JSONResponse({"feedback": rows})


@router.get("/feedback/export")
async def export(who: Caller, request: Request, rating: Literal["up", "down"] = "down") -> Response:
    """The votes as a ``citerag eval`` question file (JSON Lines, admin tokens).

    ``X-Citerag-Skipped`` counts votes left out because their answer cited nothing.
    """
    _admin(who)
    text, skipped = await anyio.to_thread.run_sync(_store(request).export_questions, rating)
    return Response(
        text,
        media_type="application/x-ndjson",
        headers={
            "Content-Disposition": f'attachment; filename="feedback-{rating}.jsonl"',
            "X-Citerag-Skipped": str(skipped),
        },
    )
