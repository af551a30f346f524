"""Answer text as it is written: what a stream shows before the answer is validated.

The ``generate`` node sends each piece of the model's prose to LangGraph's ``custom`` stream
as a :func:`token_event`; the ``<summary>`` block at its end is machine-readable and never
shown (:class:`ProseFilter` holds back what could be its start), and each citation marker is
shown as the validated answer writes it, ``[n]``, once it is complete (:class:`MarkerDraft`
holds back a marker still being written). Each attempt opens with an
:func:`attempt_event`, so a client that showed a failed attempt's text clears it when the
ladder retries; an attempt whose structured-output rung falls back to the text prompt after
its text began to stream sends one again, with the reason in ``restart``, and the text
prompt's draft replaces the structured one. Streamed text is a draft: the run's final
output (status, validated answer, citations) is the only thing to trust, and a marker in the
draft becomes a citation only when the final output lists it.

LangGraph's ``messages`` stream (what the Agent Server streams, and ``graph.stream(...,
stream_mode="messages")``) sees the same draft: the model itself runs tagged
:data:`NOSTREAM_TAG`, so its raw tokens (quotes inside markers, the ``<summary>`` block, a
structured rung's JSON) never reach that stream, and :class:`MessagesDraft` opens one
chat-model run per attempt (and per restart), named :data:`DRAFT_RUN_NAME`, whose tokens are
the draft.
"""

from __future__ import annotations

from typing import Any
from uuid import uuid4

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, LLMResult
from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import get_callback_manager_for_config

from chains.citations import MARKER_FRAGMENT, bare_markers, unfinished_marker

#: LangGraph's tag for a chat-model run whose tokens stay out of the ``messages`` stream
#: (``langgraph.constants.TAG_NOSTREAM``).
NOSTREAM_TAG = "nostream"

#: The name of the chat-model run through which the ``messages`` stream sees the draft.
DRAFT_RUN_NAME = "citerag-draft"

#: Where the machine-readable block starts; nothing from there on is shown.
BLOCK_START = "<summary>"


class ProseFilter:
    """Feeds through the prose of a streamed answer and stops at its ``<summary>`` block.

    Text that could be the beginning of ``<summary>`` is held back until the next piece
    shows whether it is.
    """

    def __init__(self, block_start: str = BLOCK_START) -> None:
        """Start a filter.

        Args:
            block_start: The tag that opens the block to hide.
        """
        if not block_start:
            raise ValueError("block_start must be a non-empty tag")
        self._tag = block_start
        self._held = ""
        self._done = False

    @property
    def done(self) -> bool:
        """Whether the block has started (nothing more will be let through)."""
        return self._done

    def feed(self, text: str) -> str:
        """The part of ``text`` (with anything held back before) that is prose for sure."""
        if self._done or not text:
            return ""
        buf = self._held + text
        at = buf.find(self._tag)
        if at >= 0:
            self._done = True
            self._held = ""
            return buf[:at]
        keep = 0
        for n in range(min(len(self._tag) - 1, len(buf)), 0, -1):
            if self._tag.startswith(buf[-n:]):
                keep = n
                break
        self._held = buf[len(buf) - keep :] if keep else ""
        return buf[: len(buf) - keep]

    def flush(self) -> str:
        """What was held back, at the end of the answer (it was not the block's start)."""
        out, self._held = ("" if self._done else self._held), ""
        return out


#: Most characters of an unfinished marker a draft holds back (a quote of a long sentence
#: fits): past it the opening is shown as written, and the validated answer removes it.
MAX_HELD = 600


class MarkerDraft:
    """Shows a streamed answer's citation markers as the validated answer will write them.

    A complete marker (``[1: "the quoted text"]``, ``【1】``, ``[1, 2]``) is shown as ``[1]``
    (``[1][2]``) by :func:`chains.citations.bare_markers`; a marker still being written at the
    end of what has arrived (``[1: "the quo``) is held back until it is complete
    (:func:`chains.citations.unfinished_marker`), and only that tail, up to
    :data:`MAX_HELD` characters (a marker a model opens and never closes does not hold back
    the rest of the answer). Which markers become
    citations is still the validator's to say: the draft shows their form, not their
    verdict.
    """

    def __init__(self) -> None:
        """Start a draft with nothing held back."""
        self._held = ""

    def feed(self, text: str) -> str:
        """The part of ``text`` (with anything held back before) that reads the same
        whatever comes next, its markers as ``[n]``."""
        if not text:
            return ""
        buf = self._held + text
        cut = unfinished_marker(buf)
        if len(buf) - cut > MAX_HELD:  # an opening never closed: shown as written, not held
            cut = len(buf)  # to the end (and the held text, so each feed's scan, is bounded)
        self._held = buf[cut:]
        return bare_markers(buf[:cut])

    def flush(self) -> str:
        """What was held back, at the end of the answer: a marker never completed is what
        is left of one (:data:`chains.citations.MARKER_FRAGMENT`), which the validated answer
        does not show either."""
        held, self._held = self._held, ""
        return MARKER_FRAGMENT.sub("", bare_markers(held))


def token_event(text: str, attempt: int) -> dict[str, Any]:
    """A ``custom`` stream event with a piece of answer text."""
    return {"type": "token", "attempt": attempt, "text": text}


def attempt_event(attempt: int, restart: str = "") -> dict[str, Any]:
    """A ``custom`` stream event opening a generation attempt (clear earlier text).

    Args:
        attempt: The attempt's number (1 for the first).
        restart: Why the same attempt starts its text over (its structured-output rung fell
            back to the text prompt); '' for a new attempt.
    """
    event: dict[str, Any] = {"type": "attempt", "attempt": attempt}
    if restart:
        event["restart"] = restart
    return event


def unstreamed(config: RunnableConfig | None) -> RunnableConfig | None:
    """``config`` with :data:`NOSTREAM_TAG` added: the model's own tokens stay out of the
    ``messages`` stream (its callbacks, tracing included, still see the run)."""
    if config is None:
        return None
    tags = list(config.get("tags") or [])
    return {**config, "tags": tags if NOSTREAM_TAG in tags else [*tags, NOSTREAM_TAG]}


class MessagesDraft:
    """One attempt's draft as a chat-model run of its own, for the ``messages`` stream.

    Each piece fed is sent to the run's callbacks as a token (an ``AIMessageChunk`` with one
    id per attempt), so LangGraph's ``messages`` stream carries the draft exactly as the
    ``custom`` stream does; :meth:`end` closes the run with the whole draft (not streamed a
    second time), :meth:`error` closes it when the attempt failed. Outside a graph run (no
    callbacks) it does nothing.
    """

    def __init__(self, config: RunnableConfig | None, attempt: int) -> None:
        """Open the run.

        Args:
            config: The node's config (its callbacks carry the ``messages`` stream).
            attempt: The generation attempt this draft belongs to (in the run's metadata).
        """
        if attempt < 1:
            raise ValueError(f"attempt must be 1 or more, got {attempt!r}")
        self.id = f"{DRAFT_RUN_NAME}-{uuid4()}"
        self._pieces: list[str] = []
        self._runs: list[CallbackManagerForLLMRun] = []
        if config is not None and config.get("callbacks") is not None:
            metadata = {**(config.get("metadata") or {}), "citerag_attempt": attempt}
            manager = get_callback_manager_for_config({**config, "metadata": metadata})
            self._runs = manager.on_chat_model_start(
                {"name": DRAFT_RUN_NAME}, [[]], name=DRAFT_RUN_NAME
            )

    def feed(self, text: str) -> None:
        """Send one piece of the draft."""
        if not text:
            return
        self._pieces.append(text)
        for run in self._runs:
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=text, id=self.id))
            run.on_llm_new_token(text, chunk=chunk)

    def end(self) -> None:
        """Close the run with the whole draft (an attempt that showed nothing is closed as
        failed rather than sent as an empty message)."""
        if not self._pieces:
            self.error(RuntimeError("nothing was drafted"))
            return
        message = AIMessage(content="".join(self._pieces), id=self.id)
        for run in self._runs:
            run.on_llm_end(LLMResult(generations=[[ChatGeneration(message=message)]]))
        self._runs = []

    def error(self, exc: BaseException) -> None:
        """Close the run as failed (the attempt's error is the ladder's to record)."""
        for run in self._runs:
            run.on_llm_error(exc)
        self._runs = []
