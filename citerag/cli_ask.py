"""``citerag ask``: answer one question, or a batch (one per line) as JSON lines."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Callable, Iterable
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
        head += " extractive answer (no generative model configured: verbatim sentences)"
    lines.append(head)
    lines.append(
        textwrap.fill(result.get("answer", ""), width)
        if "\n" not in result.get("answer", "")
        else result.get("answer", "")
    )
    if result.get("reason"):
        lines.append(f"reason: {result['reason']}")
    cites = result.get("citations") or []
    if cites:
        lines.append("")
        lines.append("sources:")
        name_w = max(len(str(c.get("doc_name"))) for c in cites)
        for c in cites:
            quote = " ".join(str(c.get("quote", "")).split())
            if len(quote) > 90:
                quote = quote[:87] + "..."
            lines.append(
                f"  [{c['index']}] {c.get('doc_name')!s:<{name_w}}  "
                f"{c.get('locator')}  {c.get('fragment')}"
            )
            lines.append(f'      "{quote}"')
    return "\n".join(lines)


def _questions(args: argparse.Namespace) -> Iterable[str] | None:
    if args.file is None:
        return None
    if args.file == "-":
        return (line.strip() for line in sys.stdin if line.strip())
    text = Path(args.file).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip()]


#: Shortcut flags of ``citerag ask`` -> the ``RAGConfig`` knob each sets.
SHORTCUTS = ("retrieval_mode", "reranker", "model", "gate_threshold", "k", "max_passages")


def settings_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The ``configurable`` of a ``citerag ask`` call: ``--set KEY=VALUE`` items (any
    ``RAGConfig`` knob, parsed and checked against its metadata) and the shortcut flags.

    Raises:
        ValueError: An unknown knob or a value out of its range.
    """
    from graphs.config import RAGConfig, parse_knob

    configurable: dict[str, Any] = {}
    for item in getattr(args, "settings", None) or []:
        key, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"--set takes KEY=VALUE, not {item!r}")
        configurable[key.strip()] = parse_knob(key.strip(), value.strip())
    for key in SHORTCUTS:
        value = getattr(args, key, None)
        if value is not None:
            configurable[key] = value
    RAGConfig(**configurable)  # validates the combination before any model loads
    return configurable


def cmd_ask(args: argparse.Namespace) -> int:
    """Answer a question (or a batch) against the index."""
    from citerag.cli import loading
    from graphs.rag import load_default_graph
    from graphs.state import to_jsonable

    if not args.question and args.file is None:
        raise ValueError("give a question, or --file FILE / --file - for one question per line")
    configurable = settings_from_args(args)
    batch = _questions(args)
    with loading():  # one question: no traced encoder (0.4 s at load for a few ms saved)
        graph = load_default_graph(
            args.index, embedding_model=args.embedding_model, traced_queries=batch is not None
        )
    config: RunnableConfig = {"configurable": configurable}
    groups = [g for g in (args.groups or "").split(",") if g]
    if batch is not None:  # one JSON result per line, models loaded once
        for q in batch:
            result = graph.invoke({"question": q, "user_groups": groups}, config)
            print(json.dumps(to_jsonable(result), ensure_ascii=False), flush=True)
        return 0
    result = graph.invoke({"question": args.question, "user_groups": groups}, config)
    if args.json:
        print(json.dumps(to_jsonable(result), indent=2, ensure_ascii=False))
    else:
        print(format_result(result))
    return 0 if result["status"] != "failed" else 1


def register(sub: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    """Register ``citerag ask``."""
    sp = sub.add_parser("ask", help="answer a question with citations (or 'no evidence')")
    common(sp)
    sp.add_argument("question", nargs="?", help="the question")
    sp.add_argument(
        "--file",
        help="batch: read questions one per line from FILE ('-' = stdin) "
        "and print one JSON result per line",
    )
    sp.add_argument("--groups", help="comma-separated user groups (access labels you hold)")
    sp.add_argument("--mode", dest="retrieval_mode", choices=["dense", "bm25", "hybrid"])
    sp.add_argument("--reranker", help="sentence | none | cross-encoder:NAME_OR_DIR")
    sp.add_argument("--model", help="extractive | an init_chat_model string (openai:gpt-4o-mini)")
    sp.add_argument("--gate-threshold", dest="gate_threshold", type=float)
    sp.add_argument("-k", dest="k", type=int, help="candidates after fusion")
    sp.add_argument("--max-passages", dest="max_passages", type=int)
    sp.add_argument(
        "--set",
        dest="settings",
        action="append",
        metavar="KEY=VALUE",
        help="any configuration knob (see the README's configuration table), e.g. "
        "--set number_check=false --set k=30; repeatable",
    )
    sp.add_argument("--embedding-model", default=None)
    sp.set_defaults(func=cmd_ask)
