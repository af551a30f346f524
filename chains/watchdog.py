"""The one way a run calls a chat model: streamed behind a watchdog, retried, cancellable.

Every model call of a run goes through :class:`WatchedModel` — the answer
(:class:`chains.answerers.ChatModelAnswerer`), the follow-up rewrite
(:func:`chains.followup.condense_with_model`) and the support judge
(:func:`chains.support.ask_until_parsed`):

* **Stall clock.** The model is streamed in a daemon worker thread and read through a queue
  with a deadline: no chunk from the server for ``timeout_s`` (before the first or between
  two) ends the call with :class:`~chains.models.ModelTimeoutError`, whatever the client
  does. The clock is reset by every chunk the server sends, before any parsing (a slow but
  steady structured reply is not a stall), and it starts once the client is set up
  (:func:`prime_client`: a client's one-off lazy imports are not the server's time).
* **Retries.** A transport failure before the first chunk (connection error, 429, 5xx:
  :data:`RETRYABLE_KINDS`) is retried here, up to ``retries`` times with a short back-off,
  each try under the same clock. A timeout is never retried (it would double the wait), and
  a call that was abandoned is never tried again: the client citerag builds makes no retries
  of its own (``max_retries=0``), so an abandoned worker sends no further request.
* **Cancel.** :func:`cancel_generations` wakes every call waiting on a model, its back-off
  included, with :class:`ModelCancelledError` (``citerag serve`` on SIGTERM).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig

from chains.models import ModelSettings, ModelTimeoutError, describe_model_error

#: Failure kinds (:func:`chains.models.describe_model_error`) the watchdog tries again.
RETRYABLE_KINDS: frozenset[str] = frozenset({"connection", "rate_limit", "server"})
#: Back-off before retry ``n`` (0-based): ``RETRY_BASE_S * 2**n``, at most ``RETRY_MAX_S``
#: (a server's ``Retry-After`` of at most ``RETRY_MAX_S`` is honoured instead).
RETRY_BASE_S = 0.5
RETRY_MAX_S = 8.0


class ModelCancelledError(RuntimeError):
    """A model call abandoned by :func:`cancel_generations` (the server is shutting down)."""


#: The queues of the model calls waiting right now (see :func:`cancel_generations`).
_WAITING: set[queue.Queue[tuple[int, str, Any]]] = set()
_WAITING_LOCK = threading.Lock()
#: The tag of a message that concerns every try of a call (a cancel).
_ANY_TRY = -1
#: Why every later call fails at once (``cancel_generations(..., lasting=True)``), or None.
_closed: list[str] = []


def cancel_generations(reason: str, *, lasting: bool = False) -> int:
    """Wake every model call waiting on a model with :class:`ModelCancelledError`.

    ``citerag serve`` calls it when it is told to stop, so a request waiting on a stalled
    model (its answer, its follow-up rewrite or its support judge) is answered ``failed`` at
    once instead of holding the shutdown until its deadline.

    Args:
        reason: The cancelled calls' message.
        lasting: Also fail every call started afterwards at once, with the same reason (the
            process is shutting down: a run whose rewrite was cancelled must not wait on
            the model again for its answer).

    Returns:
        How many calls were woken.
    """
    with _WAITING_LOCK:
        if lasting and not _closed:
            _closed.append(reason)
        waiting = list(_WAITING)
    for q in waiting:
        q.put((_ANY_TRY, "error", ModelCancelledError(reason)))
    return len(waiting)


def retry_delay(retry: int, exc: BaseException) -> float:
    """Seconds to wait before retry ``retry`` (0-based) after ``exc``: the server's
    ``Retry-After`` when it gives one within :data:`RETRY_MAX_S`, else exponential."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    try:
        after = float(headers.get("retry-after")) if headers is not None else None
    except (TypeError, ValueError):
        after = None
    if after is not None and 0 <= after <= RETRY_MAX_S:
        return after
    return min(RETRY_MAX_S, RETRY_BASE_S * 2**retry)


def prime_client(model: Any) -> None:
    """Do a client's one-off set-up before the stall clock starts.

    The OpenAI client imports its structured-output support (``client.beta``: several hundred
    modules, seconds on a busy machine) on its first structured request; counted against
    ``timeout_s`` it failed the first question of a process as a stall. Touching the lazy
    attribute here imports it off the clock. Clients without one are left alone.
    """
    root = getattr(model, "root_client", None)
    if root is not None:
        getattr(root, "beta", None)


def split_parser(runnable: Any) -> tuple[Any, Any | None]:
    """``(model part, parser part or None)`` of a ``with_structured_output`` runnable.

    The model part is streamed behind the watchdog (its chunks reset the clock); the parser
    part turns the chunks into (partial) objects in the caller's thread. A runnable of any
    other shape is streamed whole.
    """
    from langchain_core.runnables import RunnableSequence

    if isinstance(runnable, RunnableSequence) and len(runnable.steps) >= 2:
        steps = runnable.steps
        rest = steps[1] if len(steps) == 2 else RunnableSequence(*steps[1:])
        return steps[0], rest
    return runnable, None


@dataclass(frozen=True)
class WatchedModel:
    """A chat model and the bounds of every call to it.

    Attributes:
        model: The chat model.
        settings: Its settings (``timeout_s`` is the stall clock's limit).
        spec: The spec it was built from (to classify its errors).
        retries: Retries of a transport failure made here (``0`` for a model whose own
            client retries: an injected instance keeps its client's settings).
    """

    model: BaseChatModel
    settings: ModelSettings = field(default_factory=ModelSettings)
    spec: str = ""
    retries: int = 0

    def __post_init__(self) -> None:
        """Check ``retries``.

        Raises:
            ValueError: ``retries`` is negative or not an integer.
        """
        if not isinstance(self.retries, int) or self.retries < 0:
            raise ValueError(f"retries must be an integer >= 0, not {self.retries!r}")

    def chunks(
        self,
        messages: list[BaseMessage],
        *,
        config: RunnableConfig | None = None,
        runnable: Any = None,
    ) -> Iterator[Any]:
        """Stream ``runnable`` (default: the model) behind the watchdog; yield its chunks.

        Raises:
            ModelTimeoutError: No chunk within ``settings.timeout_s``.
            ModelCancelledError: :func:`cancel_generations` was called.
            Exception: Whatever the client raised, once the retries are spent (or at once
                for a failure that is not a transport failure, or after the first chunk).
        """
        target = self.model if runnable is None else runnable
        pieces: queue.Queue[tuple[int, str, Any]] = queue.Queue()
        timeout = self.settings.timeout_s
        with _WAITING_LOCK:
            if _closed:
                raise ModelCancelledError(_closed[0])
            _WAITING.add(pieces)
        try:
            for attempt in range(self.retries + 1):
                stop = threading.Event()
                _start_worker(target, messages, config, pieces, stop, attempt)
                got_any = False
                try:
                    while True:
                        kind, value = _next(pieces, attempt, timeout, got_any)
                        if kind == "chunk":
                            got_any = True
                            yield value
                        elif kind == "end":
                            return
                        elif got_any or not self._retryable(value, attempt):
                            raise value
                        else:
                            break
                finally:
                    stop.set()
                _wait(pieces, retry_delay(attempt, value))
        finally:
            with _WAITING_LOCK:
                _WAITING.discard(pieces)

    def text(
        self,
        messages: list[BaseMessage],
        *,
        config: RunnableConfig | None = None,
        on_token: Callable[[str], None] | None = None,
    ) -> str:
        """The model's reply text (content blocks joined), each piece to ``on_token``.

        Raises:
            ModelTimeoutError, ModelCancelledError, Exception: As :meth:`chunks`.
        """
        out: list[str] = []
        for chunk in self.chunks(messages, config=config):
            piece = content_text(chunk.content if hasattr(chunk, "content") else chunk)
            if piece:
                out.append(piece)
                if on_token is not None:
                    on_token(piece)
        return "".join(out)

    def _retryable(self, exc: BaseException, attempt: int) -> bool:
        if attempt >= self.retries or isinstance(exc, ModelCancelledError | ModelTimeoutError):
            return False
        return describe_model_error(exc, self.spec, self.settings).kind in RETRYABLE_KINDS


def _start_worker(
    runnable: Any,
    messages: list[BaseMessage],
    config: RunnableConfig | None,
    pieces: queue.Queue[tuple[int, str, Any]],
    stop: threading.Event,
    attempt: int,
) -> None:
    def work() -> None:
        try:
            stream = runnable.stream(messages, config=config)
            try:
                for chunk in stream:
                    if stop.is_set():
                        break
                    pieces.put((attempt, "chunk", chunk))
            finally:
                close = getattr(stream, "close", None)
                if close is not None:
                    close()
            pieces.put((attempt, "end", None))
        except BaseException as exc:  # handed to the caller's thread
            pieces.put((attempt, "error", exc))

    threading.Thread(target=work, name="citerag-model", daemon=True).start()


def _next(
    pieces: queue.Queue[tuple[int, str, Any]], attempt: int, timeout: float, got_any: bool
) -> tuple[str, Any]:
    """The next message of try ``attempt`` (or a cancel) within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            tag, kind, value = pieces.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            where = "after" if got_any else "before"
            raise ModelTimeoutError(f"no token within {timeout:g} s ({where} the first)") from None
        if tag in (attempt, _ANY_TRY):
            return kind, value


def _wait(pieces: queue.Queue[tuple[int, str, Any]], seconds: float) -> None:
    """Sleep ``seconds`` before a retry, woken at once by a cancel."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            tag, kind, value = pieces.get(timeout=left)
        except queue.Empty:
            return
        if tag == _ANY_TRY and kind == "error":
            raise value


def watched(model: BaseChatModel | WatchedModel) -> WatchedModel:
    """``model`` behind the watchdog: a :class:`WatchedModel` as it is, a bare chat model
    with the default settings (it keeps its own client's retries)."""
    return model if isinstance(model, WatchedModel) else WatchedModel(model)


def content_text(content: Any) -> str:
    """A message's text (content blocks joined)."""
    if isinstance(content, list):
        return "".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content)
    return str(content or "")
