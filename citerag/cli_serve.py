"""``citerag serve``: run the HTTP service (LangServe graph routes + documents API) with uvicorn.

Settings come from ``--config FILE`` (TOML), then ``CITERAG_*`` environment variables, then
these flags; see :mod:`citerag.server.settings` and docs/guides/serving.md.

By default one uvicorn worker process per core (at most 4; ``--workers N`` to choose, ``1``
for a single process) shares one port; each builds the app from the parent's settings,
handed over as JSON in ``$CITERAG_SERVER_SETTINGS_JSON``. On an index directory they share
the data directory: any of them accepts uploads, one of them writes the index, all follow
its builds. With a PostgreSQL store (``--store URL``) separate ``citerag serve --port P``
processes, on one machine or several, may serve the same data too.

With ``--read-only`` the processes answer from the directory's published build and follow
the builds ``citerag ingest`` publishes; uploads and deletes are refused (405).
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def cmd_serve(args: argparse.Namespace) -> int:
    """Load settings, build the app and run uvicorn until interrupted."""
    import uvicorn

    from citerag.cli import check_index_dir
    from citerag.server import create_app, load_settings
    from citerag.server.settings import SETTINGS_JSON_ENV, settings_to_json

    settings = load_settings(
        args.config,
        overrides={
            "host": args.host,
            "port": args.port,
            "workers": args.workers,
            "read_only": args.read_only,
            "index_dir": args.index,
            "store": args.store,
            "data_dir": args.data_dir,
            "tokens_file": args.tokens,
            "max_upload_mb": args.max_upload_mb,
            "max_question_chars": args.max_question_chars,
            "embedding_model": args.embedding_model,
            "model": args.model,
            "playground": args.playground,
            "log_level": args.log_level,
        },
    )
    if settings.store is None:  # a file is refused now, not at the first upload
        check_index_dir(settings.index_dir)
    level = getattr(logging, settings.log_level.upper(), logging.INFO)
    for name in ("citerag", "graphs", "chains", "loaders"):
        logging.getLogger(name).setLevel(level)
    if not _is_loopback(settings.host):
        log.warning(
            "listening on %s, reachable from other machines: tokens travel in clear text "
            "unless a TLS-terminating proxy is in front",
            settings.host,
        )
    settings = replace(settings, workers=settings.process_count())
    if settings.workers > 1:
        # Each worker process builds its own app (model, reader pool, index worker) from
        # the parent's settings; one of them becomes the writer (a coordinated IndexWorker:
        # the backend's job lock), read-only each follows the published build.
        log.info("starting %d worker processes", settings.workers)
        os.environ[SETTINGS_JSON_ENV] = settings_to_json(settings)
        uvicorn.run(
            "citerag.server.app:app_from_env",
            factory=True,
            host=settings.host,
            port=settings.port,
            log_level=settings.log_level.lower(),
            workers=settings.workers,
            timeout_graceful_shutdown=30,
        )
        return 0
    app = create_app(settings)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level.lower(),
        workers=1,  # the writer (or a read-only reader) and the loaded graph live here
        timeout_graceful_shutdown=30,
    )
    return 0


def register(sub: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    """Register ``citerag serve``.

    ``common`` is not used: ``--index``/``--store`` here default to the settings chain
    (config file, ``$CITERAG_INDEX``/``$CITERAG_STORE``) instead of the other commands'
    default, and ``--json`` has no meaning. The values are parsed by the same functions as
    every other command's (:func:`citerag.cli.index_location`, :func:`citerag.cli.store_url`).
    """
    from citerag.cli import index_location, store_url

    sp = sub.add_parser(
        "serve",
        help="serve the graph over HTTP (LangServe) with a documents API and token access",
        description="Run the citerag HTTP service. Precedence: defaults < --config FILE "
        "(or $CITERAG_CONFIG) < CITERAG_* environment variables < these flags.",
    )
    sp.add_argument("--config", type=Path, default=None, help="TOML settings file")
    sp.add_argument("--host", default=None, help="interface to bind (default 127.0.0.1)")
    sp.add_argument("--port", type=int, default=None, help="TCP port (default 8000)")
    sp.add_argument(
        "--workers",
        type=int,
        default=None,
        help="uvicorn worker processes (default 0: one per core, at most 4; 1: a single process)",
    )
    sp.add_argument(
        "--read-only",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="answer from the index directory's published build and follow new builds "
        "(citerag ingest); uploads and deletes get 405. Several processes may serve one "
        "directory this way (--workers N)",
    )
    where = sp.add_mutually_exclusive_group()
    where.add_argument(
        "--index",
        type=index_location,
        default=None,
        help="index directory (default .citerag/index) or a store URL",
    )
    where.add_argument(
        "--store",
        type=store_url,
        default=None,
        metavar="URL",
        help="serve a PostgreSQL store (postgresql+psycopg://user@host/db[?namespace=NAME]) "
        "instead of an index directory; statuses and uploads then live in it too, and "
        "several processes may serve it (default $CITERAG_STORE)",
    )
    sp.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="uploads and document status (default .citerag/server)",
    )
    sp.add_argument("--tokens", type=Path, default=None, help="bearer token file (JSON/TOML)")
    sp.add_argument("--max-upload-mb", type=float, default=None)
    sp.add_argument("--max-question-chars", type=int, default=None)
    sp.add_argument(
        "--embedding-model",
        default=None,
        help="embedding model; must be the one the index was built with",
    )
    sp.add_argument(
        "--model", default=None, help="answerer: extractive | an init_chat_model string"
    )
    sp.add_argument(
        "--playground",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="serve LangServe's playground at /rag/playground/ (login at /playground/login)",
    )
    sp.add_argument("--log-level", default=None, choices=["debug", "info", "warning", "error"])
    # resolve_location must not fill --index: the settings chain decides (config < env < flags)
    sp.set_defaults(func=cmd_serve, no_default_index=True)
