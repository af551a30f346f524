"""A structured-output try that falls back to the text prompt within one attempt: the draft it
streamed is dropped and the text prompt's draft replaces it (injected fake chat model)."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage

from chains.answerers import ChatModelAnswerer
from tests.support.fake_models import StructuredScriptedChatModel

#: A structured reply cut short after its answer began: not one JSON object.
CUT_SHORT = '{"answer": "The structured draft says it [1: \\"half a quo'
TEXT = 'The text prompt answers it [1: "quoted"].\n<summary>{"sources": [1]}</summary>'


def test_the_answerer_says_when_the_streamed_text_starts_over() -> None:
    model = StructuredScriptedChatModel(script=[CUT_SHORT, TEXT], chunk=7)
    answerer = ChatModelAnswerer(model, structured="auto")
    seen: list[tuple[str, str]] = []
    notes: list[str] = []
    raw = answerer.generate(
        "Q?",
        [],
        [HumanMessage("Q?")],
        on_token=lambda t: seen.append(("token", t)),
        on_restart=lambda why: seen.append(("restart", why)),
        notes=notes,
    )
    assert raw == TEXT and model.calls == 2
    kinds = [k for k, _ in seen]
    restart = kinds.index("restart")
    assert kinds.count("restart") == 1 and 0 < restart < len(kinds) - 1
    before = "".join(t for k, t in seen[:restart])
    after = "".join(t for k, t in seen[restart + 1 :])
    assert before.startswith("The structured draft") and after == TEXT
    assert seen[restart][1] == notes[0]
    assert notes[0].startswith("structured output unavailable, text prompt used: ")
    assert notes[1:] == ["text"]


def test_a_fallback_before_any_text_streamed_starts_nothing_over() -> None:
    model = StructuredScriptedChatModel(script=["plain prose, no JSON", TEXT], chunk=7)
    restarts: list[str] = []
    ChatModelAnswerer(model).generate(
        "Q?", [], [HumanMessage("Q?")], on_token=lambda t: None, on_restart=restarts.append
    )
    assert restarts == []


def test_the_cli_marks_a_draft_that_starts_over(monkeypatch, capsys) -> None:
    import graphs.rag
    from citerag.cli_ask import print_streamed

    events: list[tuple[str, dict[str, Any]]] = [
        ("attempt", {"attempt": 1}),
        ("token", {"text": "The structured draft"}),
        ("attempt", {"attempt": 1, "restart": "structured output unavailable"}),
        ("token", {"text": "The text prompt answers it [1]."}),
        ("final", {"status": "answered"}),
    ]
    monkeypatch.setattr(graphs.rag, "stream_answer", lambda *a: iter(events))
    assert print_streamed(None, {}, {}) == {"status": "answered"}
    out = capsys.readouterr().out
    assert out == "The structured draft\n[starting over]\nThe text prompt answers it [1].\n\n"
