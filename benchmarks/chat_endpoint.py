"""A chat model over HTTP: the fault table (timeouts, stalls mid-stream, 429, 401, 500) and
time to first token against time to the whole answer.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.chat_endpoint [-n 40] [--timeout-s 1.0] [--pace-ms 15]

Everything runs through the real compiled graph over the bundled sample corpus
(``benchmarks/out/work/sample/index``) and the real ``langchain-openai`` client, against the
scripted OpenAI-compatible server of ``tests/support/openai_server.py`` on 127.0.0.1:

1. **Faults**: for each scripted behaviour, ``n`` answerable sample questions; per row, the
   runs' outcomes (answered / no evidence / failed, with Wilson 95 % intervals), whether the
   reason names the fault's cause, the HTTP requests the run made, and its wall time (median
   and maximum), which the watchdog bounds by ``--timeout-s`` for stalls.
2. **Streaming**: a reply streamed in 4-character pieces every ``--pace-ms`` milliseconds (a
   model writing ~270 characters a second); time to the first token event and to the final
   output, through ``graphs.rag.stream_answer``.

Writes ``benchmarks/out/chat_endpoint.{json,md}`` and the result file
``benchmarks/results/chat_endpoint.json`` (tables ``faults`` and ``streaming``).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from benchmarks.common import REPO, _index_name, log, model, parser, sample, write
from benchmarks.results import table, tables_from_markdown, write_result


def _rows(args: Any) -> list[tuple[str, list[Any], str]]:
    from tests.support.fake_models import good_answer
    from tests.support.openai_server import error, reply, stall

    invented = (
        'It is a grid fault [7: "nothing like this is in any passage"].\n'
        '<summary>{"confidence": "high", "sources": [7], "insufficient_evidence": false}'
        "</summary>"
    )
    malformed = lambda m: good_answer(1)(m).replace('"sources"', "'sources'")  # noqa: E731
    return [
        ("well-formed answer", [reply(good_answer(1))], ""),
        ("malformed block", [reply(malformed)], ""),
        ("timeout before the first token", [stall()], "no answer from"),
        ("stall mid-stream", [stall(good_answer(1), after=3)], "no answer from"),
        ("429 rate limit", [error(429)], "rate-limiting"),
        ("401 bad key", [error(401)], "refused the API key"),
        ("500 once, then an answer", [error(500), reply(good_answer(1))], ""),
        ("500 twice", [error(500)], "answered 500"),
        ("invented citation twice", [reply(invented)], "cited no supplied passage"),
    ]


def main() -> int:
    """Run the benchmark."""
    p = parser(__doc__.split("\n")[0])
    p.add_argument("-n", type=int, default=40, help="questions per fault")
    p.add_argument("--timeout-s", type=float, default=1.0, help="the watchdog's model_timeout_s")
    p.add_argument("--pace-ms", type=float, default=15.0, help="ms between streamed pieces")
    args = p.parse_args()

    import os

    from tqdm.auto import tqdm

    from citerag.eval.metrics import wilson_interval
    from citerag.eval.questions import load_questions
    from graphs.deps import GraphDeps
    from graphs.rag import build_graph, stream_answer
    from tests.support.fake_models import good_answer
    from tests.support.openai_server import ScriptedOpenAIServer, reply

    os.environ.pop("OPENAI_API_KEY", None)
    os.environ.pop("OPENAI_BASE_URL", None)
    qfile, _loaded = sample(args)
    questions = [q for q in load_questions(qfile) if not q.unanswerable][: args.n]
    index_dir = args.work / "sample" / _index_name()
    graph = build_graph(GraphDeps.from_index(index_dir, embedding_model=model()))
    server = ScriptedOpenAIServer().start()
    config = {
        "configurable": {
            "model": "openai:scripted",
            "model_base_url": server.base_url,
            "model_timeout_s": args.timeout_s,
            "model_max_retries": 0,
            "gate_threshold": 0.0,  # every question reaches the model
            "trace": "summary",
        }
    }
    rows = []
    try:
        for label, script, cause in _rows(args):
            outcomes: list[str] = []
            named: list[bool] = []
            walls: list[float] = []
            requests: list[int] = []
            for q in tqdm(questions, desc=label, disable=args.no_progress, leave=False):
                server.set_script(*script)
                t0 = time.perf_counter()
                out = graph.invoke({"question": q.question}, config)
                walls.append(time.perf_counter() - t0)
                outcomes.append(out["status"])
                named.append(bool(cause) and cause in out["reason"])
                requests.append(len(server.requests))
            n = len(outcomes)
            rows.append(
                {
                    "fault": label,
                    "n": n,
                    **{
                        s: {
                            "rate": outcomes.count(s) / n,
                            "ci": wilson_interval(outcomes.count(s), n),
                        }
                        for s in ("answered", "no_evidence", "failed")
                    },
                    "reason_names_cause": (sum(named) / n) if cause else None,
                    "requests_mean": statistics.mean(requests),
                    "wall_median_s": statistics.median(walls),
                    "wall_max_s": max(walls),
                }
            )
            log(f"{label}: {rows[-1]['answered']['rate']:.0%} answered")
        ttft: list[float] = []
        total: list[float] = []
        pace = args.pace_ms / 1000
        for q in tqdm(questions, desc="streaming", disable=args.no_progress, leave=False):
            server.set_script(reply(good_answer(1), chunk=4, pace_s=pace))
            t0 = time.perf_counter()
            first = None
            for kind, _event in stream_answer(graph, {"question": q.question}, config):
                if kind == "token" and first is None:
                    first = time.perf_counter() - t0
            total.append(time.perf_counter() - t0)
            ttft.append(first if first is not None else float("nan"))
    finally:
        server.close()

    def pct(cell: dict[str, Any]) -> str:
        lo, hi = cell["ci"]
        return f"{cell['rate']:.0%} [{lo:.0%}, {hi:.0%}]"

    lines = [
        f"Faults through the real OpenAI client (n = {len(questions)} per row, "
        f"model_timeout_s = {args.timeout_s:g}, max_retries = 0, gate off):",
        "",
        "| scripted behaviour | answered | failed | reason names the cause | requests | "
        "wall s, median / max |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        cause = "–" if r["reason_names_cause"] is None else f"{r['reason_names_cause']:.0%}"
        lines.append(
            f"| {r['fault']} | {pct(r['answered'])} | {pct(r['failed'])} | {cause} | "
            f"{r['requests_mean']:.1f} | {r['wall_median_s']:.2f} / {r['wall_max_s']:.2f} |"
        )
    lines += [
        "",
        f"Streaming ({args.pace_ms:g} ms per 4-character piece, n = {len(total)}): time to the "
        f"first token {statistics.median(ttft):.2f} s (median; max {max(ttft):.2f}), to the "
        f"final output {statistics.median(total):.2f} s (median; max {max(total):.2f}).",
    ]
    data = {
        "rows": rows,
        "streaming": {"ttft_s": ttft, "total_s": total, "pace_ms": args.pace_ms},
        "timeout_s": args.timeout_s,
        "repo": str(REPO),
    }
    write(args.out, "chat_endpoint", data, "\n".join(lines))
    (faults,) = tables_from_markdown("\n".join(lines))
    streaming = table(
        [
            f"streamed, {args.pace_ms:g} ms per 4-character piece (n = {len(total)})",
            "median s",
            "max s",
        ],
        [
            ["time to the first token", f"{statistics.median(ttft):.2f}", f"{max(ttft):.2f}"],
            ["time to the final output", f"{statistics.median(total):.2f}", f"{max(total):.2f}"],
        ],
    )
    write_result("chat_endpoint", {"faults": faults, "streaming": streaming}, data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
