"""A scripted chat model for injecting LLM behaviour (errors, malformed blocks, bad ids).

Fakes are used only to inject model behaviour; retrieval, FAISS and embeddings stay real.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.exceptions import OutputParserException
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable, RunnableGenerator
from langchain_core.utils.json import parse_partial_json

Step = str | Exception | Callable[[list[BaseMessage]], str]


class ScriptedChatModel(BaseChatModel):
    """Replays a script: each call takes the next step (a reply, an exception to raise, or a
    function of the messages). ``calls`` counts invocations."""

    script: list[Any]
    calls: int = 0

    @property
    def _llm_type(self) -> str:
        return "scripted-fake"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        step = self.script[min(self.calls, len(self.script) - 1)]
        self.calls += 1
        if isinstance(step, Exception):
            raise step
        text = step(messages) if callable(step) else step
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


class StructuredScriptedChatModel(ScriptedChatModel):
    """A :class:`ScriptedChatModel` that streams its replies in pieces of ``chunk`` characters
    and supports ``with_structured_output``: the structured runnable is the model and a JSON
    parser that yields the partial object as the reply arrives, and raises
    ``OutputParserException`` at its end when the whole reply is not one JSON object (a reply
    cut short, prose instead of JSON)."""

    chunk: int = 8

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        text = str(self._generate(messages, stop, run_manager, **kwargs).generations[0].text)
        for i in range(0, len(text), self.chunk):
            yield ChatGenerationChunk(message=AIMessageChunk(content=text[i : i + self.chunk]))

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Runnable[Any, Any]:
        def objects(chunks: Iterator[Any]) -> Iterator[dict[str, Any]]:
            text = ""
            for piece in chunks:
                text += str(piece.content)
                partial = parse_partial_json(text) if text.strip() else None
                if isinstance(partial, dict):
                    yield partial
            try:
                whole = json.loads(text)
            except ValueError as exc:
                raise OutputParserException(f"not a JSON object: {text[-40:]!r}") from exc
            if not isinstance(whole, dict):
                raise OutputParserException(f"not a JSON object: {text[-40:]!r}")

        return self | RunnableGenerator(objects)


def passages_in(messages: list[BaseMessage]) -> dict[int, str]:
    """Parse the numbered passages out of the rendered user message."""
    text = str(messages[-1].content)
    body = text.split("QUESTION")[0]
    parts = re.split(r"^\[(\d+)\] [^\n]*\n", body, flags=re.MULTILINE)
    return {int(parts[i]): parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}


def quote_of(messages: list[BaseMessage], n: int = 1, words: int = 8) -> str:
    """The first ``words`` words of passage ``n``, verbatim (whitespace-collapsed)."""
    return " ".join(passages_in(messages)[n].split()[:words])


def good_answer(n: int = 1, block: str | None = None) -> Callable[[list[BaseMessage]], str]:
    """A well-formed answer citing passage ``n`` with a real quote."""

    def reply(messages: list[BaseMessage]) -> str:
        quote = quote_of(messages, n)
        tail = (
            block
            if block is not None
            else (
                f'<summary>{{"confidence": "high", "sources": [{n}], '
                '"insufficient_evidence": false}</summary>'
            )
        )
        return f'The passage states it [{n}: "{quote}"].\n{tail}'

    return reply
