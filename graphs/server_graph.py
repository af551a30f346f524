"""The answering graph as the LangGraph Agent Server serves it (``langgraph.json``).

``langgraph dev`` (or ``langgraph up``) imports :func:`make_graph`: an async factory the
server awaits for every run and state read. It returns the compiled graph of
:func:`graphs.rag.build_graph` over the index named by ``$CITERAG_INDEX`` (default
``.citerag/index``; ``$CITERAG_EMBEDDING_MODEL`` as for ``citerag serve``; answers are
extractive unless ``$CITERAG_MODEL`` names a chat model, its settings in
``$CITERAG_MODEL_<SETTING>`` such as ``CITERAG_MODEL_BASE_URL`` and
``CITERAG_MODEL_TIMEOUT_S``), loaded once in a worker thread and reloaded when ``citerag
ingest`` publishes a new build. The server supplies the checkpointer (threads keep their
conversation) and the store.

Access is the server's, not the client's:

* the caller's groups come from the authenticated user only (:func:`auth_groups`, reading
  ``config["configurable"]["langgraph_auth_user"]`` set by :mod:`graphs.agent_auth`);
  ``user_groups`` in the input is ignored, and a run without an authenticated user reads
  public documents only;
* of the graph's knobs, a run's ``configurable`` may set only those clients may set over
  HTTP by default (:func:`graphs.config.client_knobs`); the others keep their defaults.

Nodes are synchronous functions. LangGraph runs a synchronous node of an async run in a
worker thread (``run_in_executor``), so none blocks the server's event loop, and the factory
does its file I/O (index, model) in :func:`asyncio.to_thread`; ``langgraph dev`` runs without
``--allow-blocking``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph

from graphs.config import client_knobs, model_knobs_from_env

log = logging.getLogger(__name__)

#: Environment variable with the index directory.
INDEX_ENV = "CITERAG_INDEX"
#: Index directory when ``$CITERAG_INDEX`` is not set.
DEFAULT_INDEX = ".citerag/index"
#: ``configurable`` key where the Agent Server puts the authenticated user.
AUTH_USER_KEY = "langgraph_auth_user"


def groups_of_user(user: Any) -> list[str]:
    """The ``groups`` of an authenticated user object (``[]`` when it has none usable)."""
    if user is None:
        return []
    groups: Any = None
    getter = getattr(user, "get", None)
    if callable(getter):
        try:
            groups = getter("groups")
        except Exception:  # a user object whose ``get`` is not a mapping's
            groups = None
    if groups is None and isinstance(user, Mapping):
        groups = user.get("groups")
    if not isinstance(groups, list | tuple) or not all(isinstance(g, str) for g in groups):
        return []
    return list(groups)


def auth_groups(config: RunnableConfig) -> list[str]:
    """The authenticated caller's groups, read from ``langgraph_auth_user`` only (fail
    closed: none, so public documents only, without an authenticated user)."""
    return groups_of_user((config.get("configurable") or {}).get(AUTH_USER_KEY))


class _Served:
    """The loaded index and its compiled graph, rebuilt when the current build changes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._embedding: Any = None
        self._build: str | None = None
        self._graph: CompiledStateGraph | None = None

    def graph(self) -> CompiledStateGraph:
        """The compiled graph of the current build (blocking: call it in a thread)."""
        from citerag.stores.dispatch import backend_for

        index_dir = Path(os.environ.get(INDEX_ENV) or DEFAULT_INDEX)
        build = backend_for(index_dir).published_build()
        with self._lock:
            if self._graph is None or build != self._build:
                self._graph = self._load(index_dir)
                self._build = build
            return self._graph

    def _load(self, index_dir: Path) -> CompiledStateGraph:
        from citerag.embeddings import load_embedding_model
        from graphs.deps import GraphDeps
        from graphs.rag import build_graph

        if self._embedding is None:
            self._embedding = load_embedding_model(os.environ.get("CITERAG_EMBEDDING_MODEL"))
        deps = GraphDeps.from_index(index_dir, embedding_model=self._embedding)
        defaults = model_knobs_from_env(os.environ)
        log.info(
            "agent server: serving %s (build %s, model %s)",
            index_dir,
            deps.manifest_id,
            defaults.get("model", "extractive"),
        )
        return build_graph(
            deps,
            groups_from=auth_groups,
            client_keys=client_knobs(("yes",)),
            defaults=defaults,
        )


_SERVED = _Served()


async def make_graph() -> CompiledStateGraph:
    """The Agent Server's graph factory (``langgraph.json``: ``graphs/server_graph.py:
    make_graph``)."""
    return await asyncio.to_thread(_SERVED.graph)
