"""Small display helpers for notebooks: a result as Markdown, a trace summary, the diagram.

Notebooks stay glue: everything they show comes from these functions and the library.
"""

from __future__ import annotations

import json
from typing import Any


def _cell(text: Any) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def result_markdown(result: dict[str, Any], max_quote: int = 160) -> str:
    """Render an answer with its sources table (name, locator, quote) as Markdown."""
    lines = [f"**status:** `{result.get('status')}`"]
    if result.get("generator"):
        lines[0] += f" · **generator:** `{result['generator']}`"
    lines += ["", str(result.get("answer", "")).replace("\n", "  \n")]
    if result.get("reason"):
        lines += ["", f"*reason:* {result['reason']}"]
    lines += _sources_table(result.get("citations") or [], max_quote)
    looked = result.get("looked_at") or []
    if looked:
        from chains.citations import LOOKED_AT_TITLE

        lines += ["", f"*{LOOKED_AT_TITLE}:*"]
        lines += _sources_table(looked, max_quote)
    return "\n".join(lines)


def _sources_table(records: list[dict[str, Any]], max_quote: int) -> list[str]:
    """Citation-shaped records as a Markdown table (none without records)."""
    if not records:
        return []
    from chains.citations import quoted_spans

    lines = ["", "| # | document | locator | link | quote |", "|---|---|---|---|---|"]
    for c in records:
        quotes = []
        for q in quoted_spans(c):
            quote = _cell(q.get("quote", ""))
            quotes.append(quote[: max_quote - 1] + "…" if len(quote) > max_quote else quote)
        quote = " · ".join(quotes)
        lines.append(
            f"| [{c['index']}] | {_cell(c.get('doc_name'))} | "
            f"{_cell(c.get('locator'))} | `{c.get('fragment')}` | {quote} |"
        )
    return lines


def show_result(result: dict[str, Any]) -> None:
    """Display a result as Markdown in a notebook (plain text elsewhere)."""
    text = result_markdown(result)
    try:
        from IPython.display import Markdown, display
    except ImportError:  # pragma: no cover - outside IPython
        import logging

        logging.getLogger(__name__).info("%s", text)
        return
    display(Markdown(text))


def candidates_markdown(result: dict[str, Any], n: int = 8) -> str:
    """The trace's top candidates in the order the graph kept them (``#``), with each one's
    rank in the second stage (or the fused list), its lists and scores, as Markdown. The two
    orders differ where boosts (a period, a company) or diversity moved a candidate."""
    rows = [
        "| # | rank | document | locator | lists | dense | bm25 | rrf | rerank |",
        "|---:|---:|---|---|---|---:|---:|---:|---:|",
    ]
    for i, c in enumerate(result["trace"]["candidates"][:n], start=1):
        s = c["scores"]
        where = f"page {c['page']}" if c.get("page") else f"chars {c['start']}–{c['end']}"
        rows.append(
            f"| {i} | {c['ranks'].get('rerank', c['ranks'].get('fused'))} | "
            f"{_cell(c['doc_name'])} | "
            f"{where} | {', '.join(c['lists'])} | {s.get('dense', float('nan')):.3f} | "
            f"{s.get('bm25', float('nan')):.2f} | {s.get('rrf', float('nan')):.4f} | "
            f"{s.get('rerank', float('nan')):.3f} |"
        )
    return "\n".join(rows)


def trace_summary(result: dict[str, Any]) -> str:
    """A compact JSON view of a trace (long texts shortened)."""

    def shorten(value: Any) -> Any:
        if isinstance(value, str) and len(value) > 200:
            return value[:197] + "..."
        if isinstance(value, list):
            return [shorten(v) for v in value[:5]] + (["..."] if len(value) > 5 else [])
        if isinstance(value, dict):
            return {k: shorten(v) for k, v in value.items()}
        return value

    return json.dumps(shorten(result["trace"]), indent=2, ensure_ascii=False)


def mermaid_markdown(graph: Any) -> str:
    """The graph's Mermaid diagram in a fenced block (rendered natively by JupyterLab ≥ 4.1)."""
    return "```mermaid\n" + graph.get_graph().draw_mermaid() + "\n```"
