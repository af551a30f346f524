"""Operators' view: Prometheus metrics and (opt-in) OpenTelemetry spans per graph node
and per ingest stage.

:class:`Observer` is called with every answer the ``/rag`` routes return
(:func:`~citerag.server.runnable.build_served_runnable`'s ``observe``). It gives the run a
trace id (``trace.trace_id`` in the response; the OpenTelemetry trace id when tracing is
on), counts the answer's status and the gate's outcome, observes each node's time from the
trace's ``timings_s`` and, with tracing on, emits one span per node under a ``citerag.rag``
span. The graph measures node times itself (no callbacks run on the fast paths), so the
spans are laid out one after another from those durations, ending when the answer is
returned.

Each ingest run the server applies (uploads, deletes, re-ingests: :class:`~citerag.server.
worker.IndexWorker` calls :meth:`Observer.ingest` with its
:class:`~citerag.index.ingest.IngestReport`) gets, with tracing on, a ``citerag.ingest``
span with one child per stage the run spent time in (``citerag.ingest.parse``,
``...chunk``, ``...embed_chunks``, ``...write``, ``...publish``; the stage names of
:data:`citerag.index.ingest.STAGES`), laid out the same way from the report's
``stages`` seconds. Every run also adds to the ``citerag_ingest_stage_seconds`` histogram.

Tracing is opt-in: ``CITERAG_OTEL_EXPORTER=console`` or ``otlp`` (the OTLP/HTTP exporter,
configured by the standard ``OTEL_EXPORTER_OTLP_*`` variables) needs the ``otel`` extra
(``pip install 'citerag[otel]'``); a tracer provider can also be passed to
:func:`~citerag.server.app.create_app`.

``/metrics`` (Prometheus text format) is served to admin tokens only
(:mod:`citerag.server.routes.operators`).
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

if TYPE_CHECKING:
    from citerag.index.ingest import IngestReport

log = logging.getLogger(__name__)

OTEL_ENV = "CITERAG_OTEL_EXPORTER"
OTEL_CHOICES = ("", "none", "console", "otlp")
#: Seconds: node and request latency buckets.
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


def tracer_provider_from_env(env: dict[str, str] | None = None) -> Any | None:
    """An OpenTelemetry SDK tracer provider as ``$CITERAG_OTEL_EXPORTER`` asks, or ``None``.

    Raises:
        ValueError: The variable holds another value.
        ImportError: Tracing asked for without the ``otel`` extra installed.
    """
    choice = (env if env is not None else os.environ).get(OTEL_ENV, "").strip().lower()
    if choice not in OTEL_CHOICES:
        raise ValueError(f"${OTEL_ENV} must be one of console, otlp or none, not {choice!r}")
    if choice in ("", "none"):
        return None
    try:
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter
    except ImportError as exc:
        raise ImportError(
            f"${OTEL_ENV}={choice} needs opentelemetry-sdk: pip install 'citerag[otel]'"
        ) from exc
    provider = TracerProvider(resource=Resource.create({"service.name": "citerag"}))
    exporter: Any
    if choice == "console":
        exporter = ConsoleSpanExporter()
    else:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        exporter = OTLPSpanExporter()
    provider.add_span_processor(BatchSpanProcessor(exporter))
    return provider


class Observer:
    """Metrics (one Prometheus registry per app) and optional spans for each answer."""

    def __init__(self, tracer_provider: Any | None = None) -> None:
        """Create the metrics.

        Args:
            tracer_provider: An OpenTelemetry tracer provider (``None``: no spans).
        """
        self.registry = CollectorRegistry()
        reg = self.registry
        self.requests = Counter(
            "citerag_http_requests", "HTTP requests.", ["method", "route", "status"], registry=reg
        )
        self.latency = Histogram(
            "citerag_http_request_seconds",
            "HTTP request latency.",
            ["route"],
            buckets=BUCKETS,
            registry=reg,
        )
        self.node_seconds = Histogram(
            "citerag_node_seconds",
            "Time spent in each graph node.",
            ["node"],
            buckets=BUCKETS,
            registry=reg,
        )
        self.answers = Counter("citerag_answers", "Answers by status.", ["status"], registry=reg)
        self.gate = Counter(
            "citerag_gate", "Gate outcomes (passed or refused).", ["outcome"], registry=reg
        )
        self.ingest_queue = Gauge(
            "citerag_ingest_queue", "Index jobs waiting (uploads, deletes).", registry=reg
        )
        self.documents = Gauge(
            "citerag_documents", "Uploaded documents by status.", ["status"], registry=reg
        )
        self.feedback = Gauge(
            "citerag_feedback", "Feedback votes by rating.", ["rating"], registry=reg
        )
        self.ingest_stage_seconds = Histogram(
            "citerag_ingest_stage_seconds",
            "Time spent in each ingest stage of the server's ingest runs.",
            ["stage"],
            buckets=BUCKETS,
            registry=reg,
        )
        self.tracer = None
        if tracer_provider is not None:
            self.tracer = tracer_provider.get_tracer("citerag.server")

    def new_trace_id(self) -> str:
        """A fresh trace id (32 hex digits, the OpenTelemetry trace id format)."""
        return uuid.uuid4().hex

    def answer(self, out: dict[str, Any], user: str = "") -> dict[str, Any]:
        """Record one answer; return it with ``trace.trace_id`` set (unless the trace is
        empty: a client that asked for ``trace: none`` gets none).

        Args:
            out: The graph's output (``status``, ``trace`` with ``timings_s`` and ``gate``).
            user: Who asked (a span attribute).
        """
        trace = dict(out.get("trace") or {})
        status = str(out.get("status") or "failed")
        self.answers.labels(status).inc()
        gate = trace.get("gate")
        if isinstance(gate, dict) and "passed" in gate:
            self.gate.labels("passed" if gate["passed"] else "refused").inc()
        timings = trace.get("timings_s") or {}
        nodes = [(str(k), float(v)) for k, v in timings.items() if isinstance(v, int | float)]
        for node, seconds in nodes:
            self.node_seconds.labels(node).observe(max(0.0, seconds))
        trace_id = self._spans(nodes, status, user) if self.tracer is not None else None
        if not trace:
            return out  # ``trace: none`` asked for no trace: not even its id
        trace["trace_id"] = trace_id or self.new_trace_id()
        return {**out, "trace": trace}

    def ingest(self, report: IngestReport) -> str | None:
        """Record one of the server's ingest runs; with tracing on, emit its stage spans.

        Args:
            report: The run's report (``stages``: seconds by stage; ``indexed``,
                ``updated``, ``deleted``, ``failed``, ``chunks_added`` become attributes).

        Returns:
            The ``citerag.ingest`` span's trace id (32 hex digits), or ``None`` with
            tracing off.
        """
        from citerag.index.ingest import STAGES  # already imported by the worker

        stages = [
            (name, float(report.stages.get(name, 0.0)))
            for name in (*STAGES, *sorted(set(report.stages) - set(STAGES)))
            if report.stages.get(name, 0.0) > 0
        ]
        for stage, seconds in stages:
            self.ingest_stage_seconds.labels(stage).observe(seconds)
        if self.tracer is None:
            return None
        attributes = {
            "citerag.build_id": report.build_id,
            "citerag.indexed": len(report.indexed),
            "citerag.updated": len(report.updated),
            "citerag.deleted": len(report.deleted),
            "citerag.failed": len(report.failed),
            "citerag.chunks_added": report.chunks_added,
        }
        total = max(report.seconds, sum(s for _, s in stages))
        return self._tree(
            "citerag.ingest", "citerag.ingest.", "citerag.stage", stages, attributes, total
        )

    def _spans(self, nodes: list[tuple[str, float]], status: str, user: str) -> str | None:
        """One ``citerag.rag`` span with a child per node (laid out from the timings)."""
        attributes = {"citerag.status": status, "citerag.user": user}
        total = sum(s for _, s in nodes)
        return self._tree("citerag.rag", "citerag.node.", "citerag.node", nodes, attributes, total)

    def _tree(
        self,
        name: str,
        prefix: str,
        key: str,
        parts: list[tuple[str, float]],
        attributes: dict[str, Any],
        total: float,
    ) -> str:
        """A root span ``name`` ending now with one child per part, laid out one after
        another from its start; returns the trace id."""
        from opentelemetry import trace as otel

        assert self.tracer is not None
        end = time.time_ns()
        start = end - max(int(total * 1e9), sum(int(s * 1e9) for _, s in parts))
        root = self.tracer.start_span(name, start_time=start, attributes=attributes)
        ctx = otel.set_span_in_context(root)
        at = start
        for part, seconds in parts:
            span = self.tracer.start_span(
                f"{prefix}{part}", context=ctx, start_time=at, attributes={key: part}
            )
            at += int(seconds * 1e9)
            span.end(end_time=at)
        root.end(end_time=end)
        return f"{root.get_span_context().trace_id:032x}"

    def refresh(
        self,
        *,
        queue: Callable[[], int],
        counts: Callable[[str], int],
        statuses: tuple[str, ...],
        votes: Callable[[], dict[str, int]],
    ) -> None:
        """Set the gauges before a scrape."""
        self.ingest_queue.set(queue())
        for status in statuses:
            self.documents.labels(status).set(counts(status))
        for rating, n in votes().items():
            self.feedback.labels(rating).set(n)


#: HTTP methods counted by name; any other (a client may send any token) is ``other``.
KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class MetricsMiddleware:
    """ASGI middleware counting requests and their latency by route template."""

    def __init__(self, app: Any, observer: Observer) -> None:
        """Wrap ``app``."""
        self.app = app
        self.observer = observer

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Count one HTTP request."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = [500]

        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                status[0] = int(message["status"])
            await send(message)

        t0 = time.perf_counter()
        try:
            await self.app(scope, receive, sending)
        finally:
            route = scope.get("route")
            name = getattr(route, "path", None) or "unmatched"
            method = str(scope.get("method", ""))
            method = method if method in KNOWN_METHODS else "other"
            self.observer.requests.labels(method, name, str(status[0])).inc()
            self.observer.latency.labels(name).observe(time.perf_counter() - t0)
