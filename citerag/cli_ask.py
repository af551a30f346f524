"""``citerag ask``: answer one question, or a batch (one per line) as JSON lines."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig


def format_result(result: dict[str, Any], width: int = 100) -> str:
    """Render an answer and its sources table for a terminal."""
    lines = []
    status = result.get("status")
    gen = result.get("generator")
    head = f"[{status}]"
    if status == "answered" and gen == "extractive":
        head += (
            " extractive answer (no generative model configured: verbatim sentences, "
            "table rows with their column names)"
        )
    lines.append(head)
    lines.append(
        textwrap.fill(result.get("answer", ""), width)
        if "\n" not in result.get("answer", "")
        else result.get("answer", "")
    )
    if result.get("reason"):
        lines.append(f"reason: {result['reason']}")
    lines += _source_lines("sources:", result.get("citations") or [])
    from chains.citations import LOOKED_AT_TITLE

    lines += _source_lines(f"{LOOKED_AT_TITLE}:", result.get("looked_at") or [])
    return "\n".join(lines)


def _source_lines(title: str, records: list[dict[str, Any]]) -> list[str]:
    """A titled table of citation-shaped records (document, locator, link, quote); none
    without records."""
    if not records:
        return []
    from chains.citations import quoted_spans

    lines = ["", title]
    name_w = max(len(str(c.get("doc_name"))) for c in records)
    for c in records:
        lines.append(
            f"  [{c['index']}] {c.get('doc_name')!s:<{name_w}}  "
            f"{c.get('locator')}  {c.get('fragment')}"
        )
        for i, q in enumerate(quoted_spans(c)):
            quote = " ".join(str(q.get("quote", "")).split())
            if len(quote) > 90:
                quote = quote[:87] + "..."
            lines.append(f'      "{quote}"')
            if i and q.get("locator") != c.get("locator"):
                lines[-1] += f"  ({q.get('locator')}  {q.get('fragment')})"
    return lines


def _questions(args: argparse.Namespace) -> Iterable[str] | None:
    """The lines of ``--file`` (``None`` without it; ``-``: standard input), stripped, blank
    ones included, so the Nth output line answers the Nth input line.

    Raises:
        ValueError: The file cannot be read (a folder, no permission), its reason named.
    """
    if args.file is None:
        return None
    if args.file == "-":
        return (line.strip() for line in sys.stdin)
    path = Path(args.file)
    if path.is_dir():
        raise ValueError(f"--file {path} is a folder: give a file of questions, one per line")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot read --file {path}: {exc.strerror or exc}") from None
    return [line.strip() for line in text.splitlines()]


#: The ``reason`` of a ``--file`` batch's record for a blank line (the graph is not run).
EMPTY_QUESTION = "empty question"


def batch_record(question: str, result: Mapping[str, Any] | None) -> dict[str, Any]:
    """One output line of ``citerag ask --file``: the question, then the run's result (for a
    blank line, ``None``: a ``failed`` record whose reason is :data:`EMPTY_QUESTION`)."""
    from graphs.state import to_jsonable

    if result is None:
        result = {
            "status": "failed",
            "answer": "",
            "citations": [],
            "reason": EMPTY_QUESTION,
            "looked_at": [],
        }
    return {"question": question, **to_jsonable(dict(result))}


def check_question_source(args: argparse.Namespace) -> None:
    """``citerag ask`` takes one question or ``--file``: exactly one of them, not blank.

    Raises:
        ValueError: Neither, both (one would be ignored), or a blank question.
    """
    from graphs.state import BLANK_QUESTION

    if args.question is not None and args.file is not None:
        raise ValueError(
            "give a question or --file FILE, not both (put the question in the file instead)"
        )
    if args.question is None and args.file is None:
        raise ValueError("give a question, or --file FILE / --file - for one question per line")
    if args.question is not None and not args.question.strip():
        raise ValueError(BLANK_QUESTION)


#: Shortcut flags of ``citerag ask`` -> the ``RAGConfig`` knob each sets.
SHORTCUTS = ("retrieval_mode", "reranker", "model", "gate_threshold", "k", "max_passages")


def settings_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The ``configurable`` of a ``citerag ask`` call: ``$CITERAG_MODEL`` and
    ``$CITERAG_MODEL_*``, then ``--set KEY=VALUE`` items (any ``RAGConfig`` knob, parsed and
    checked against its metadata), the shortcut flags and ``--model-setting`` items.

    Raises:
        ValueError: An unknown knob or a value out of its range.
    """
    import os

    from graphs.config import RAGConfig, model_knobs_from_env, parse_knob

    # $CITERAG_MODEL and $CITERAG_MODEL_* first: flags override them
    configurable: dict[str, Any] = model_knobs_from_env(os.environ)
    for item in getattr(args, "settings", None) or []:
        key, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"--set takes KEY=VALUE, not {item!r}")
        configurable[key.strip()] = parse_knob(key.strip(), value.strip())
    for key in SHORTCUTS:
        value = getattr(args, key, None)
        if value is not None:
            configurable[key] = value
    configurable.update(model_settings_from_args(getattr(args, "model_settings", None)))
    RAGConfig(**configurable)  # validates the combination before any model loads
    return configurable


def model_settings_from_args(items: list[str] | None) -> dict[str, Any]:
    """``--model-setting KEY=VALUE`` items as knobs (``timeout_s=30`` -> ``model_timeout_s``;
    ``temperature`` is the ``temperature`` knob).

    Raises:
        ValueError: An unknown setting (named, with the known ones) or a bad value.
    """
    from chains.models import parse_setting
    from graphs.config import MODEL_KNOBS

    knob_of = {setting: name for name, setting in MODEL_KNOBS.items()}
    knob_of["temperature"] = "temperature"
    out: dict[str, Any] = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"--model-setting takes KEY=VALUE, not {item!r}")
        key = key.strip()
        parsed = parse_setting(key, value.strip())
        if key == "temperature" and parsed is None:
            continue  # the knob's default
        out[knob_of[key]] = parsed
    return out


def wants_stream(args: argparse.Namespace, configurable: dict[str, Any]) -> bool:
    """Whether to print the answer as it is written: ``--stream``/``--no-stream``, else when
    a chat model answers and the output is a terminal."""
    if getattr(args, "stream", None) is not None:
        return bool(args.stream)
    model = configurable.get("model", "extractive")
    return model not in ("extractive", "", "default") and sys.stdout.isatty()


def print_streamed(graph: Any, graph_input: dict[str, Any], config: RunnableConfig) -> dict:
    """Print the answer's draft as it is written, then return the run's output.

    A new attempt (the ladder retrying) starts a new line marked ``[retrying]``; an attempt
    whose structured output fell back to the text prompt after its draft began, one marked
    ``[starting over]``.
    """
    from graphs.rag import stream_answer

    last = ""  # the draft's last printed text ("" = nothing shown yet)
    final: dict[str, Any] = {}
    for kind, event in stream_answer(graph, graph_input, config):
        if kind == "attempt" and last:
            mark = "[starting over]" if event.get("restart") else "[retrying]"
            print("" if last.endswith("\n") else "\n", mark, sep="", flush=True)
        elif kind == "token" and (last or event["text"].strip()):
            print(event["text"], end="", flush=True)
            last = event["text"]
        elif kind == "final":
            final = event
    if last:
        print("\n" if last.endswith("\n") else "\n\n", end="", flush=True)
    return final


def cmd_ask(args: argparse.Namespace) -> int:
    """Answer a question (or a batch) against the index."""
    from citerag.cli import loading
    from graphs.rag import load_default_graph
    from graphs.state import to_jsonable

    check_question_source(args)
    configurable = settings_from_args(args)
    batch = _questions(args)
    with loading():  # one question: no traced encoder (0.4 s at load for a few ms saved)
        graph = load_default_graph(
            args.index, embedding_model=args.embedding_model, traced_queries=batch is not None
        )
    config: RunnableConfig = {"configurable": configurable}
    from loaders.access import parse_groups

    groups = parse_groups(args.groups)
    if batch is not None:  # one JSON result per line, models loaded once
        for q in batch:
            result = graph.invoke({"question": q, "user_groups": groups}, config) if q else None
            print(json.dumps(batch_record(q, result), ensure_ascii=False), flush=True)
        return 0
    graph_input = {"question": args.question, "user_groups": groups}
    if not args.json and wants_stream(args, configurable):
        result = print_streamed(graph, graph_input, config)
    else:
        result = graph.invoke(graph_input, config)
    if args.json:
        print(json.dumps(to_jsonable(result), indent=2, ensure_ascii=False))
    else:
        print(format_result(result))
    return 0 if result["status"] != "failed" else 1


#: Words that end ``citerag chat`` (as does an end of input).
CHAT_EXIT = ("exit", "quit", ":q")


def _chat_lines(prompt: str, *, to_stderr: bool = False) -> Iterable[str]:
    """The user's lines: read with a prompt on a terminal, else one per input line.

    ``to_stderr``: the prompt (and the line break at Ctrl-D) goes to standard error, so that
    standard output holds only results (``chat --json``).
    """
    if not sys.stdin.isatty():
        yield from sys.stdin
    elif not to_stderr:
        while True:
            try:
                yield input(prompt)  # line editing where the readline module is loaded
            except EOFError:
                print()
                return
    else:
        while True:
            sys.stderr.write(prompt)
            sys.stderr.flush()
            line = sys.stdin.readline()
            if not line:  # Ctrl-D
                sys.stderr.write("\n")
                return
            yield line.rstrip("\n")


def cmd_chat(args: argparse.Namespace) -> int:
    """A conversation in the terminal: follow-ups are rewritten from the earlier turns."""
    from uuid import uuid4

    from langgraph.checkpoint.memory import InMemorySaver

    from citerag.cli import loading
    from graphs.rag import checkpoint_serde, load_default_graph

    configurable = settings_from_args(args)
    with loading():
        graph = load_default_graph(
            args.index,
            embedding_model=args.embedding_model,
            checkpointer=InMemorySaver(serde=checkpoint_serde()),
        )
    config: RunnableConfig = {"configurable": {**configurable, "thread_id": uuid4().hex}}
    from loaders.access import parse_groups

    groups = parse_groups(args.groups)
    if not args.json:
        print(
            "citerag chat: ask about your documents; a follow-up may lean on earlier turns "
            f"('And in 2024?'). {' / '.join(CHAT_EXIT)} or Ctrl-D ends.",
            flush=True,
        )
    failures = 0
    for line in _chat_lines("you> ", to_stderr=args.json):
        question = line.strip()
        if not question:
            continue
        if question.lower() in CHAT_EXIT:
            break
        graph_input = {"question": question, "user_groups": groups}
        if args.json:  # one JSON result per turn, as `ask --file` (the rewrite in its trace)
            result = graph.invoke(graph_input, config)
            print(json.dumps(batch_record(question, result), ensure_ascii=False), flush=True)
            failures += result.get("status") == "failed"
            continue
        if wants_stream(args, configurable):
            result = print_streamed(graph, graph_input, config)
        else:
            result = graph.invoke(graph_input, config)
        condensed = (result.get("trace") or {}).get("condense") or {}
        if condensed.get("rewritten"):
            print(f"(asked as: {condensed.get('standalone')})")
        print(format_result(result), end="\n\n", flush=True)
        failures += result.get("status") == "failed"
    return 1 if failures else 0


def register(sub: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    """Register ``citerag ask`` and ``citerag chat``."""
    sp = sub.add_parser("ask", help="answer a question with citations (or 'no evidence')")
    common(sp)
    sp.add_argument("question", nargs="?", help="the question")
    sp.add_argument(
        "--file",
        help="batch: read questions one per line from FILE ('-' = stdin) and print one "
        "JSON result per input line, with its question (instead of QUESTION, not with it; "
        "a blank line: failed, empty question)",
    )
    _answer_arguments(sp)
    sp.set_defaults(func=cmd_ask)

    sp = sub.add_parser(
        "chat", help="a conversation in the terminal (follow-ups rewritten from earlier turns)"
    )
    common(sp)
    _answer_arguments(sp)
    sp.set_defaults(func=cmd_chat)


def _answer_arguments(sp: argparse.ArgumentParser) -> None:
    """The arguments ``ask`` and ``chat`` share: access, knobs and the model."""
    sp.add_argument("--groups", help="comma-separated user groups (access labels you hold)")
    sp.add_argument("--mode", dest="retrieval_mode", choices=["dense", "bm25", "hybrid"])
    sp.add_argument("--reranker", help="sentence | none | cross-encoder:NAME_OR_DIR")
    sp.add_argument(
        "--model",
        help="extractive | smollm2 | provider:model (openai:gpt-4.1-mini, "
        "anthropic:claude-sonnet-4-5, ollama:llama3.1)",
    )
    sp.add_argument(
        "--model-setting",
        dest="model_settings",
        action="append",
        metavar="KEY=VALUE",
        help="chat model setting: base_url, api_key_env, temperature, max_tokens, timeout_s "
        "(default 60), max_retries (default 2); repeatable",
    )
    sp.add_argument(
        "--stream",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="print the answer as it is written (default: with a chat model on a terminal)",
    )
    sp.add_argument("--gate-threshold", dest="gate_threshold", type=float)
    sp.add_argument("-k", dest="k", type=int, help="candidates after fusion")
    sp.add_argument("--max-passages", dest="max_passages", type=int)
    sp.add_argument(
        "--set",
        dest="settings",
        action="append",
        metavar="KEY=VALUE",
        help="any configuration knob (see docs/reference/configuration.md), e.g. "
        "--set number_check=false --set k=30; repeatable",
    )
    sp.add_argument("--embedding-model", default=None)
