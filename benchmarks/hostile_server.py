"""Hostile files uploaded to a running server: the upload's answer, the document's final
state, whether the server keeps serving, and what the server's memory grows by.

The server mode of :mod:`benchmarks.hostile_files` (``python -m benchmarks.hostile_files
--server``): for each hostile file (the same generators, ``tests/support/hostile.py``), one
fresh ``citerag serve`` (uvicorn on 127.0.0.1, a free port, default settings: one worker
process per core) over a copy of an index holding the two ordinary documents (ingested once
by ``citerag ingest``). Each run:

1. waits for ``/ready``, uploads a third ordinary document (a small Word file) through
   ``POST /documents`` and waits until it is ``indexed``, asks a question — the server's
   baseline: the model loaded, the upload path and the graph exercised;
2. reads every server process's ``VmHWM`` (``/proc/<pid>/status``: the uvicorn supervisor
   and its worker processes);
3. uploads the hostile file as the web page does (multipart, field ``file``), polls
   ``GET /documents/{id}`` until the state is final (``indexed`` or ``failed``), reading the
   processes' ``VmHWM`` at every poll (a process that dies keeps its last reading);
4. checks ``/health``, asks a question each ordinary document answers (its citation must
   name it), and reads ``VmHWM`` once more before stopping the server.

The growth is the largest increase of one process's ``VmHWM`` over its own baseline reading
(the upload is indexed in one process, the job lock's holder). Not a test: nothing here
asserts.
"""

from __future__ import annotations

import mimetypes
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

from benchmarks.common import REPO, TOKEN, log, server_env, start_server, stop_servers, wait_ready
from benchmarks.results import table
from tests.support.hostile import Hostile, small_docx

MIB = 1 << 20
#: Longest wait for an upload's final state (seconds).
SETTLE_TIMEOUT = 900.0
#: The ordinary upload of every run's baseline.
WARMUP = "forklift_note.docx"
#: A question each ordinary document answers, and the source its citation must name.
QUESTIONS = {
    "docs/ladder_guide.docx": "Who inspects the ladders on the Kestrel site, and when?",
    "docs/canteen.md": "When is the staff canteen closed for refurbishment?",
}


def _children(pid: int) -> list[int]:
    """The live child processes of ``pid``."""
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            out += [int(c) for c in task.read_text().split()]
        except OSError:
            continue
    return out


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants that are alive now."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += _children(p)
    return out


def _vmhwm(pid: int) -> float | None:
    """A process's peak resident memory (``VmHWM``) in MiB, ``None`` once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024 / MIB
    except OSError:
        return None
    return None


class Peaks:
    """The last ``VmHWM`` reading of every process a server has had."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.seen: dict[int, float] = {}

    def read(self) -> dict[int, float]:
        """Read the live processes; return every process's last reading."""
        for p in _tree(self.pid):
            value = _vmhwm(p)
            if value is not None:
                self.seen[p] = value
        return dict(self.seen)


class Client:
    """The HTTP calls of a run (a bearer token, bounded timeouts)."""

    def __init__(self, url: str) -> None:
        import httpx

        self.http = httpx.Client(
            base_url=url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=120.0
        )

    def upload(self, path: Path) -> tuple[int | str, dict[str, Any]]:
        """``POST /documents`` with ``path`` as the web page sends it; the status (or the
        transport error's name) and the JSON body."""
        import httpx

        ctype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        try:
            with path.open("rb") as fh:
                r = self.http.post("/documents", files={"file": (path.name, fh, ctype)})
        except httpx.TransportError as exc:
            return type(exc).__name__, {"detail": str(exc)}
        try:
            body = r.json()
        except ValueError:
            body = {"detail": r.text[:300]}
        return r.status_code, body if isinstance(body, dict) else {"detail": str(body)}

    def settle(self, doc_id: str, peaks: Peaks, proc: subprocess.Popen[bytes]) -> dict[str, Any]:
        """Poll ``GET /documents/{doc_id}`` until its state is final (bounded), reading the
        server's memory meanwhile; the last record seen."""
        import httpx

        rec: dict[str, Any] = {"status": "unknown"}
        deadline = time.monotonic() + SETTLE_TIMEOUT
        while time.monotonic() < deadline and proc.poll() is None:
            peaks.read()
            try:
                rec = dict(self.http.get(f"/documents/{doc_id}").json())
            except (httpx.TransportError, ValueError) as exc:
                rec = {"status": "unknown", "reason": f"{type(exc).__name__}: {exc}"}
            if rec.get("status") in ("indexed", "failed"):
                return rec
            time.sleep(0.5)
        if proc.poll() is not None:
            rec["status"] = f"server exited ({proc.returncode})"
        return rec

    def health(self) -> bool:
        """Whether ``/health`` answers 200."""
        import httpx

        try:
            return self.http.get("/health").status_code == 200
        except httpx.TransportError:
            return False

    def cites(self, question: str, source: str) -> bool:
        """Whether ``/rag/invoke`` answers ``question`` citing ``source``."""
        import httpx

        try:
            r = self.http.post("/rag/invoke", json={"input": {"question": question}})
        except httpx.TransportError:
            return False
        if r.status_code != 200:
            return False
        cited = r.json().get("output", {}).get("citations") or []
        return any(str(c.get("source", "")) == source for c in cited)

    def close(self) -> None:
        self.http.close()


def build_index(root: Path, ordinary: Any) -> Path:
    """The index every run's server copies: the ordinary documents, by ``citerag ingest``."""
    import sys

    folder = root / "docs"
    folder.mkdir(parents=True)
    ordinary(folder)
    index = root / "index"
    subprocess.run(
        [sys.executable, "-m", "citerag", "ingest", "-q", "--index", str(index), str(folder)],
        check=True,
        cwd=REPO,
        env=server_env(),
        stdout=subprocess.DEVNULL,
    )
    return index


def run_server_case(root: Path, index: Path, hostile: Hostile | None) -> dict[str, Any]:
    """One fresh server: the baseline, then ``hostile`` uploaded (if given)."""
    name = hostile.name if hostile else "baseline"
    case = root / name.replace(".", "_")
    case.mkdir(parents=True)
    size = 0
    path = case / WARMUP
    if hostile is not None:
        t0 = time.perf_counter()
        path = hostile.write(case / hostile.name)
        for extra in case.glob("*.tmp.*"):
            extra.unlink()
        size = path.stat().st_size
        log(f"{hostile.name}: {size:,} bytes written in {time.perf_counter() - t0:.1f} s")
    small_docx(
        case / WARMUP,
        "Forklifts",
        "Forklift keys are kept in the gatehouse and signed out by the shift lead.",
    )
    proc, url = start_server(case, index)
    client = Client(url)
    result: dict[str, Any] = {"name": name, "what": hostile.what if hostile else "", "bytes": size}
    try:
        wait_ready(url, proc)
        peaks = Peaks(proc.pid)
        status, body = client.upload(case / WARMUP)
        warm = client.settle(str(body.get("id")), peaks, proc) if status == 202 else body
        result["warmup"] = warm.get("status")
        client.cites(*next(iter(QUESTIONS.items())))
        base = peaks.read()
        workers = set(_children(proc.pid))  # uvicorn's worker processes (and its helpers)
        t0 = time.perf_counter()
        if hostile is not None:
            status, body = client.upload(path)
            result.update(http=status, upload=body)
            rec = body
            if status in (200, 202) and body.get("id"):
                rec = client.settle(str(body["id"]), peaks, proc)
            result.update(
                status=rec.get("status", "—"),
                reason=str(rec.get("reason") or rec.get("detail") or ""),
                settle_s=time.perf_counter() - t0,
            )
        result["alive"] = proc.poll() is None
        result["health"] = client.health()
        result["ordinary_cited"] = {s: client.cites(q, s) for s, q in QUESTIONS.items()}
        end = peaks.read()
        live = set(_children(proc.pid))
    finally:
        client.close()
        stop_servers(proc)
        path.unlink(missing_ok=True)
    result["processes"] = {str(p): [base.get(p), v] for p, v in end.items()}
    result["died"] = sorted(workers - live)
    result["new"] = sorted(live - workers)
    result["baseline_mib"] = max(base.values())
    result["peak_mib"] = max(end.values())
    result["growth_mib"] = max(v - base.get(p, 0.0) for p, v in end.items())
    shutil.rmtree(case / "index", ignore_errors=True)
    return result


def _answered(r: dict[str, Any]) -> str:
    """Whether the server kept serving: health, and each ordinary document cited."""
    cited = r["ordinary_cited"]
    parts = ["yes" if r["health"] and r["alive"] else "**no**"]
    parts.append(f"{sum(cited.values())}/{len(cited)} cited")
    if r["died"] or r["new"]:
        parts.append(f"**{len(r['died'])} process(es) died, {len(r['new'])} new**")
    return ", ".join(parts)


def server_table(runs: list[dict[str, Any]], size: Any) -> dict[str, Any]:
    """The result file's table: one row per hostile file uploaded to a fresh server."""
    rows = []
    for r in runs:
        if r["name"] == "baseline":
            continue
        state = r["status"] if r["status"] not in ("—",) else "not accepted"
        rows.append(
            [
                f"`{r['name']}`",
                size(r["bytes"]),
                str(r["http"]),
                state,
                (r["reason"] or "—").replace("|", "/").replace("\n", " "),
                _answered(r),
                f"{r['settle_s']:.1f}",
                f"{r['peak_mib']:.0f} ({r['growth_mib']:+.0f})",
            ]
        )
    return table(
        [
            "file",
            "size on disk",
            "upload HTTP status",
            "final state",
            "reason",
            "server still answers (health; ordinary documents cited)",
            "s to final state",
            "largest server process peak RSS, MiB (growth over its baseline)",
        ],
        rows,
        align=["left"] * 6 + ["right"] * 2,
    )


def server_markdown(runs: list[dict[str, Any]], size: Any) -> tuple[str, dict[str, Any]]:
    """The runs as Markdown, and the result file's tables."""
    from benchmarks.report import render_table

    bases = [r["peak_mib"] for r in runs if r["name"] == "baseline"]
    own = [r["baseline_mib"] for r in runs]
    t = server_table(runs, size)
    lines = [
        f"Server without a hostile upload (the ordinary documents alone): largest process "
        f"{', '.join(f'{b:.0f}' for b in bases)} MiB peak RSS; every run's own baseline "
        f"{min(own):.0f}-{max(own):.0f} MiB.",
        "",
        render_table(t),
    ]
    return "\n".join(lines) + "\n", {"server": t}
