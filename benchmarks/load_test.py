"""Bounded load test of ``/rag/invoke`` on loopback while an upload is being indexed.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.load_test [--requests 500] [--concurrency 8]
        [--index DIR] [--upload FILE] [--max-seconds 900] [--json]
    .venv/bin/python -m benchmarks.load_test --url http://127.0.0.1:8000 --token TOKEN
        [--server-pid PID]           # an already running server (loopback only)

What it does:

1. Unless ``--url`` is given: copies ``--index`` (default: a fresh index of
   ``examples/corpus``) into a temporary folder, writes a token file and starts
   ``citerag serve`` on 127.0.0.1 on a free port, then waits for ``/ready``.
2. Sends a short warm-up, samples the server's RSS (psutil), uploads one PDF (default: a
   generated 40-page PDF) and, while it is being indexed, sends ``--requests`` questions from
   ``examples/questions.jsonl`` to ``/rag/invoke`` with ``--concurrency`` parallel clients.
3. Prints throughput, latency percentiles (p50/p95/p99/max), errors (non-200 or a status
   other than answered/no_evidence), whether the upload was indexed during the run, and the
   server's RSS before, at peak and after; then deletes the upload and stops the server it
   started.

Bounded: at most 100,000 requests and ``--max-seconds`` of wall time; only loopback URLs are
accepted. Not a test: nothing here asserts. Writes the result file
``benchmarks/results/load_test.json`` (table ``run``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx

from benchmarks.common import (
    LOOPBACK,
    REPO,
    TOKEN,
    percentile,
    start_server,
    stop_servers,
    wait_ready,
)
from benchmarks.results import table, write_result

MAX_REQUESTS = 100_000


def questions() -> list[str]:
    """The sample questions (answerable and unanswerable)."""
    path = REPO / "examples" / "questions.jsonl"
    out = [json.loads(line)["question"] for line in path.read_text().splitlines() if line.strip()]
    return out or ["What was Northwind's total revenue in 2025?"]


def make_pdf(path: Path, pages: int = 40) -> Path:
    """A PDF with a text layer: ``pages`` pages of distinct lines (pypdf only)."""
    from pypdf import PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    font = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/Helvetica"),
        }
    )
    writer = PdfWriter()
    for n in range(1, pages + 1):
        page = writer.add_blank_page(612, 792)
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})}
        )
        lines = [
            f"Load test bulletin page {n}: harbour log entry {n * 37} for vessel Kestrel-{n}.",
            f"The tide gauge at berth {n} read {n * 0.13:.2f} metres above datum at dawn.",
            f"Crew rota {n}: watch keepers swapped at {6 + n % 12:02d}:15 and logged fuel.",
            f"Cargo manifest {n} lists {n * 11} crates of slate and {n * 3} barrels of oil.",
            f"Weather note {n}: wind veering south-west, visibility {n % 9 + 1} nautical miles.",
        ] * 3
        ops = ["BT", "/F1 10 Tf", "14 TL", "60 740 Td"]
        ops += [f"({line}) Tj T*" for line in lines]
        ops.append("ET")
        stream = DecodedStreamObject()
        stream.set_data("\n".join(ops).encode("latin-1"))
        page.replace_contents(stream)
    with path.open("wb") as fh:
        writer.write(fh)
    return path


class RssSampler:
    """Samples a process's resident set size in the background."""

    def __init__(self, pid: int | None, interval: float = 0.2) -> None:
        import psutil

        self.proc = psutil.Process(pid) if pid else None
        self.interval = interval
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def rss(self) -> int | None:
        """Current RSS in bytes (``None`` without a pid)."""
        if self.proc is None:
            return None
        value = int(self.proc.memory_info().rss)
        self.peak = max(self.peak, value)
        return value

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.rss()
            except Exception:
                return

    def __enter__(self) -> RssSampler:
        if self.proc is not None:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Run the load test and return the figures."""
    proc: subprocess.Popen | None = None
    work = Path(tempfile.mkdtemp(prefix="citerag-load-"))
    url, token, pid = args.url, args.token, args.server_pid
    try:
        if url is None:
            proc, url = start_server(work, args.index)
            token, pid = TOKEN, proc.pid
        host = urlparse(url).hostname or ""
        if host not in LOOPBACK:
            raise SystemExit(f"refusing to load-test {url}: only loopback addresses")
        url = url.rstrip("/")
        ready = wait_ready(url, proc)
        headers = {"Authorization": f"Bearer {token}"}
        qs = questions()
        n = min(args.requests, MAX_REQUESTS)
        deadline = time.monotonic() + args.max_seconds

        local = threading.local()

        def client() -> httpx.Client:
            if not hasattr(local, "client"):
                local.client = httpx.Client(base_url=url, headers=headers, timeout=120.0)
            return local.client

        def one(i: int) -> tuple[float, str]:
            if time.monotonic() > deadline:
                return float("nan"), "skipped (time limit)"
            t0 = time.perf_counter()
            try:
                r = client().post("/rag/invoke", json={"input": {"question": qs[i % len(qs)]}})
                dt = time.perf_counter() - t0
                if r.status_code != 200:
                    return dt, f"HTTP {r.status_code}"
                status = r.json()["output"]["status"]
                return dt, "" if status in ("answered", "no_evidence") else f"status {status}"
            except Exception as exc:
                return time.perf_counter() - t0, f"{type(exc).__name__}: {exc}"

        for i in range(min(8, len(qs))):  # warm-up, not measured
            one(i)

        upload_path = args.upload or make_pdf(work / "load-test-upload.pdf")
        with RssSampler(pid) as rss:
            rss_before = rss.rss()
            up = httpx.post(
                f"{url}/documents",
                headers=headers,
                timeout=120.0,
                files={"file": (upload_path.name, upload_path.read_bytes())},
            )
            up.raise_for_status()
            doc_id = up.json()["id"]
            t_upload = time.perf_counter()
            upload_state: dict[str, Any] = {"status": "pending", "seconds": None}

            def watch() -> None:
                with httpx.Client(base_url=url, headers=headers, timeout=30.0) as c:
                    while time.monotonic() < deadline:
                        rec = c.get(f"/documents/{doc_id}").json()
                        if rec["status"] in ("indexed", "failed"):
                            upload_state.update(
                                status=rec["status"],
                                chunks=rec.get("chunks"),
                                seconds=time.perf_counter() - t_upload,
                                reason=rec.get("reason", ""),
                            )
                            return
                        time.sleep(0.2)

            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            t0 = time.perf_counter()
            with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
                results = list(pool.map(one, range(n)))
            wall = time.perf_counter() - t0
            indexed_during_run = upload_state["seconds"] is not None and (
                upload_state["seconds"] <= wall
            )
            rss_after = rss.rss()
            watcher.join(timeout=max(0.0, deadline - time.monotonic()))
            peak = rss.peak or None
        httpx.delete(f"{url}/documents/{doc_id}", headers=headers, timeout=30.0)

        done = [(dt, err) for dt, err in results if not err.startswith("skipped")]
        lat = [dt for dt, err in done if not err]
        errors = [err for _, err in done if err]
        mb = 1024 * 1024
        return {
            "url": url,
            "manifest_id": ready.get("manifest_id"),
            "requests": len(done),
            "skipped_time_limit": len(results) - len(done),
            "concurrency": args.concurrency,
            "wall_seconds": round(wall, 2),
            "throughput_rps": round(len(done) / wall, 2) if wall else None,
            "latency_ms": {
                "p50": round(percentile(lat, 50) * 1000, 1),
                "p95": round(percentile(lat, 95) * 1000, 1),
                "p99": round(percentile(lat, 99) * 1000, 1),
                "max": round(max(lat) * 1000, 1) if lat else None,
                "mean": round(statistics.fmean(lat) * 1000, 1) if lat else None,
            },
            "errors": len(errors),
            "error_kinds": sorted(set(errors))[:10],
            "upload": {
                "file": upload_path.name,
                "bytes": upload_path.stat().st_size,
                **upload_state,
                "indexed_during_run": indexed_during_run,
            },
            "server_rss_mb": {
                "before": round(rss_before / mb, 1) if rss_before else None,
                "peak": round(peak / mb, 1) if peak else None,
                "after": round(rss_after / mb, 1) if rss_after else None,
            },
        }
    finally:
        stop_servers(proc)
        if not args.keep_tmp:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"kept {work}")


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run, print."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--requests", type=int, default=500, help="requests to send (default 500)")
    p.add_argument("--concurrency", type=int, default=8, help="parallel clients (default 8)")
    p.add_argument(
        "--max-seconds",
        type=float,
        default=900.0,
        help="stop sending after this long (default 900)",
    )
    p.add_argument(
        "--index",
        type=Path,
        default=None,
        help="index to copy and serve (default: build one of examples/corpus)",
    )
    p.add_argument(
        "--upload",
        type=Path,
        default=None,
        help="file to upload during the run (default: a generated 40-page PDF)",
    )
    p.add_argument("--url", default=None, help="target a running server (loopback only)")
    p.add_argument("--token", default=None, help="bearer token for --url")
    p.add_argument("--server-pid", type=int, default=None, help="pid of --url's server (RSS)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--keep-tmp", action="store_true", help="keep the temporary folder")
    args = p.parse_args(argv)
    if not 1 <= args.requests <= MAX_REQUESTS:
        p.error(f"--requests must be 1..{MAX_REQUESTS}")
    if not 1 <= args.concurrency <= 64:
        p.error("--concurrency must be 1..64")
    if args.url and not args.token:
        p.error("--url needs --token")
    out = run(args)
    write_result("load_test", {"run": run_table(out)}, out)
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    lat, rss, up = out["latency_ms"], out["server_rss_mb"], out["upload"]
    print(f"target        {out['url']}  (build {out['manifest_id']})")
    print(
        f"requests      {out['requests']} at concurrency {out['concurrency']} in "
        f"{out['wall_seconds']} s ({out['skipped_time_limit']} skipped by the time limit)"
    )
    print(f"throughput    {out['throughput_rps']} requests/s")
    print(
        f"latency ms    p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}  "
        f"max {lat['max']}  mean {lat['mean']}"
    )
    print(f"errors        {out['errors']} {out['error_kinds'] or ''}")
    secs = up["seconds"]
    print(
        f"upload        {up['file']} ({up['bytes']} bytes): {up['status']}"
        + (f", {up.get('chunks')} chunks after {secs:.1f} s" if secs is not None else "")
        + (" (during the run)" if up["indexed_during_run"] else " (after the run)")
    )
    print(f"server RSS MB before {rss['before']}  peak {rss['peak']}  after {rss['after']}")
    return 0


def run_table(out: dict[str, Any]) -> dict[str, Any]:
    """The result table ``run``: throughput, latency, errors, the upload and the server's RSS."""
    lat, rss, up = out["latency_ms"], out["server_rss_mb"], out["upload"]
    when = "during the run" if up["indexed_during_run"] else "after the run"
    upload = f"{up['status']}, {up.get('chunks')} chunks, {when}"
    rows = [
        ["requests / concurrency", f"{out['requests']:,} / {out['concurrency']}"],
        ["throughput", f"{out['throughput_rps']} req/s"],
        ["latency p50 / p95 / p99", f"{lat['p50']:,} / {lat['p95']:,} / {lat['p99']:,} ms"],
        ["errors", f"**{out['errors']}**"],
        [f"upload ({up['file']})", upload],
        [
            "server RSS before / peak / after",
            f"{rss['before']} / {rss['peak']} / {rss['after']} MB",
        ],
    ]
    return table(["`/rag/invoke` while an upload is indexed", ""], rows)


if __name__ == "__main__":
    sys.exit(main())
