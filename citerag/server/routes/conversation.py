"""The web app's conversation, kept per user (:mod:`citerag.server.conversations`).

* ``GET /app/api/conversation``: the caller's turns, oldest first.
* ``POST /app/api/conversation/turns``: append a turn the page has shown.
* ``DELETE /app/api/conversation``: start over.

Token or the viewer cookie; each user reads and writes only their own conversation.
"""

from __future__ import annotations

from typing import Any, Literal

import anyio
from fastapi import APIRouter, Request, Security
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from citerag.server.conversations import ConversationStore, Turn
from citerag.server.deps import Caller, bearer

router = APIRouter(prefix="/app/api/conversation", tags=["viewer"], dependencies=[Security(bearer)])


class TurnBody(BaseModel):
    """``POST /app/api/conversation/turns`` body."""

    model_config = ConfigDict(extra="forbid")
    question: str = Field(min_length=1, max_length=20_000)
    status: Literal["answered", "no_evidence", "failed"]
    answer: str = Field(default="", max_length=50_000)
    reason: str = Field(default="", max_length=5_000)
    standalone: str = Field(default="", max_length=20_000)
    trace_id: str = Field(default="", max_length=128)
    citations: list[dict[str, Any]] = Field(default_factory=list, max_length=100)


def _store(request: Request) -> ConversationStore:
    store: ConversationStore = request.app.state.conversations
    return store


@router.get("")
async def get_conversation(who: Caller, request: Request) -> JSONResponse:
    """The caller's current conversation."""
    turns = await anyio.to_thread.run_sync(_store(request).turns, who.user)
    return JSONResponse({"turns": turns}, headers={"Cache-Control": "private, no-store"})


@router.post("/turns", status_code=201, max_body_size=512 * 1024)
async def add_turn(body: TurnBody, who: Caller, request: Request) -> JSONResponse:
    """Append one turn to the caller's conversation."""
    turn = Turn(**body.model_dump())
    await anyio.to_thread.run_sync(_store(request).add, who.user, turn)
    return JSONResponse({"stored": True}, status_code=201)


@router.delete("")
async def clear_conversation(who: Caller, request: Request) -> JSONResponse:
    """Forget the caller's conversation."""
    dropped = await anyio.to_thread.run_sync(_store(request).clear, who.user)
    return JSONResponse({"dropped": dropped})
