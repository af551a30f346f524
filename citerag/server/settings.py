"""Server settings: one dataclass, read from a TOML file and overridden by environment variables.

Precedence, lowest first: built-in defaults, the TOML file (``--config FILE`` or
``$CITERAG_CONFIG``), ``CITERAG_*`` environment variables, command-line flags. Relative paths
in the TOML file are resolved against the file's folder; relative paths from the environment or
the command line against the working directory.

TOML layout (every key optional; see ``examples/server.toml``)::

    [server]
    host = "127.0.0.1"
    port = 8000
    log_level = "info"
    playground = false          # LangServe playground at /rag/playground/ (docs/guides/serving.md)
    public_docs = false         # true: /docs and /openapi.json without a token (schemas only)
    cookie_secure = false       # mark the playground cookie Secure (set behind HTTPS)
    workers = 0                 # uvicorn worker processes; 0 = one per core (at most 4)
    read_only = false           # serve the index directory's published build, refuse uploads
    fast_invoke = true          # /rag/invoke encodes with orjson (false: LangServe's handler)
    watch_interval = 2.0        # seconds between checks for builds published by others

    [paths]
    index = ".citerag/index"    # index directory (as for `citerag ingest --index`)
    store = "postgresql+psycopg://user@host/db?namespace=team"  # instead of index: a
                                # PostgreSQL store, shared by several serving processes
    data_dir = ".citerag/server"  # uploads and documents.json live here
    tokens = "tokens.json"      # bearer token file (JSON or TOML)

    [limits]
    max_upload_mb = 25
    max_question_chars = 2000
    max_request_kb = 1024       # any other request body (JSON to /rag/*)
    max_batch = 32              # most inputs in one /rag/batch request (more get 413)
    max_pending_uploads = 100
    allowed_types = [".pdf", ".md", ".txt"]  # default: every loader type; others get 415

    [models]
    embedding = "default"       # must be the model the index was built with
    answer = "extractive"       # or an init_chat_model string, e.g. "openai:gpt-4o-mini"
    query_batching = true       # embed concurrent requests' questions in one forward pass
    query_batch_wait_ms = 0     # longest a pass waits for more questions (0-50)
    query_cache = 1024          # recent question vectors kept (0 = none)
    embedding_threads = 0       # model's intra-op threads (0 = every core but one)
    embedding_precision = "auto" # forward passes in bf16 where the CPU has it; "fp32" = off
    traced_queries = true       # questions through a traced copy of the encoder

    [model]                     # the answer model and its settings (docs/guides/your-own-model.md)
    name = "openai:gpt-4.1-mini"  # as [models] answer
    base_url = "http://127.0.0.1:8080/v1"  # an OpenAI-compatible server (default: the provider's)
    api_key_env = "OPENAI_API_KEY"  # the variable holding the key (never the key itself)
    temperature = 0.0
    max_tokens = 512
    timeout_s = 60              # longest wait for the first or the next token
    max_retries = 2             # the client's retries (connection errors, 429, 5xx)

    [rag]                       # server-side defaults for graph knobs (RAGConfig fields)
    retrieval_mode = "hybrid"

    [client]                    # knobs clients may set in `configurable`
    configurable = ["retrieval_mode", "k", "max_passages"]
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from citerag.embeddings import PRECISIONS
from graphs.config import client_knobs
from loaders.registry import LOADERS

#: Graph knobs a client may set per request in ``config.configurable`` (a server may narrow
#: this with ``[client] configurable``), derived from ``RAGConfig``'s field metadata. ``model``,
#: ``prompt_file`` and cross-encoder rerankers are never among them: they choose code, files or
#: paid APIs on the server.
CLIENT_TUNABLE = client_knobs(("yes", "opt-in"))
#: What clients may tune unless the config says otherwise. The ``opt-in`` knobs
#: (``gate_threshold``, ``number_check``) are left out: they are what makes the service say
#: "no evidence" instead of guessing.
DEFAULT_CLIENT_KEYS = client_knobs(("yes",))

#: ``(section, key)`` in the TOML file -> dataclass field.
_TOML_KEYS: dict[tuple[str, str], str] = {
    ("server", "host"): "host",
    ("server", "port"): "port",
    ("server", "log_level"): "log_level",
    ("server", "playground"): "playground",
    ("server", "public_docs"): "public_docs",
    ("server", "cookie_secure"): "cookie_secure",
    ("server", "workers"): "workers",
    ("server", "read_only"): "read_only",
    ("server", "fast_invoke"): "fast_invoke",
    ("server", "watch_interval"): "watch_interval",
    ("paths", "index"): "index_dir",
    ("paths", "store"): "store",
    ("paths", "data_dir"): "data_dir",
    ("paths", "tokens"): "tokens_file",
    ("limits", "max_upload_mb"): "max_upload_mb",
    ("limits", "max_question_chars"): "max_question_chars",
    ("limits", "max_request_kb"): "max_request_kb",
    ("limits", "max_batch"): "max_batch",
    ("limits", "max_pending_uploads"): "max_pending_uploads",
    ("limits", "allowed_types"): "allowed_types",
    ("models", "embedding"): "embedding_model",
    ("models", "answer"): "model",
    ("models", "query_batching"): "query_batching",
    ("models", "query_batch_wait_ms"): "query_batch_wait_ms",
    ("models", "query_cache"): "query_cache",
    ("models", "embedding_threads"): "embedding_threads",
    ("models", "embedding_precision"): "embedding_precision",
    ("models", "traced_queries"): "traced_queries",
    ("client", "configurable"): "client_config_keys",
}
_PATH_FIELDS = ("index_dir", "data_dir", "tokens_file")
#: The two ways of naming the index: whichever the highest-precedence source sets wins.
_LOCATION_FIELDS = ("index_dir", "store")

#: Environment variable -> dataclass field.
ENV_VARS: dict[str, str] = {
    "CITERAG_HOST": "host",
    "CITERAG_PORT": "port",
    "CITERAG_LOG_LEVEL": "log_level",
    "CITERAG_PLAYGROUND": "playground",
    "CITERAG_INDEX": "index_dir",
    "CITERAG_STORE": "store",
    "CITERAG_WORKERS": "workers",
    "CITERAG_READ_ONLY": "read_only",
    "CITERAG_FAST_INVOKE": "fast_invoke",
    "CITERAG_WATCH_INTERVAL": "watch_interval",
    "CITERAG_DATA_DIR": "data_dir",
    "CITERAG_TOKENS": "tokens_file",
    "CITERAG_MAX_UPLOAD_MB": "max_upload_mb",
    "CITERAG_MAX_QUESTION_CHARS": "max_question_chars",
    "CITERAG_MAX_REQUEST_KB": "max_request_kb",
    "CITERAG_MAX_BATCH": "max_batch",
    "CITERAG_ALLOWED_TYPES": "allowed_types",
    "CITERAG_EMBEDDING_MODEL": "embedding_model",
    "CITERAG_MODEL": "model",
    "CITERAG_QUERY_BATCHING": "query_batching",
    "CITERAG_QUERY_BATCH_WAIT_MS": "query_batch_wait_ms",
    "CITERAG_QUERY_CACHE": "query_cache",
    "CITERAG_EMBEDDING_THREADS": "embedding_threads",
    "CITERAG_EMBEDDING_PRECISION": "embedding_precision",
    "CITERAG_TRACED_QUERIES": "traced_queries",
}
CONFIG_ENV = "CITERAG_CONFIG"
#: Most processes ``workers = 0`` starts (each holds its own embedding model and index).
AUTO_WORKERS_MAX = 4


@dataclass
class ServerSettings:
    """Everything ``citerag serve`` can be configured with.

    Attributes:
        host: Interface to bind (``127.0.0.1`` = this machine only).
        port: TCP port.
        log_level: Uvicorn/Python log level.
        playground: Serve LangServe's playground at ``/rag/playground/`` (see the
            "Playground" note in docs/reference/http-routes.md: it authenticates with a
            cookie set by ``/playground/login``).
        public_docs: Serve ``/docs`` and ``/openapi.json`` without a token.
        cookie_secure: Mark the playground cookie ``Secure`` (only sent over HTTPS).
        workers: Uvicorn worker processes of ``citerag serve``; ``0`` (the default) means
            one per core, at most :data:`AUTO_WORKERS_MAX` (:meth:`process_count`). With more
            than one, the processes share the data directory and the index: any of them
            accepts uploads and deletes, one of them (the job lock's holder) writes the
            index, and every one follows the builds published (see
            :class:`~citerag.server.worker.IndexWorker` with the coordination of
            :mod:`citerag.stores.faiss.coordination`, and on a PostgreSQL store
            :mod:`citerag.stores.postgres.coordination`). Only ``citerag serve``
            starts processes; an app built by :func:`~citerag.server.app.create_app` is one
            process, which coordinates through the same file locks with any other process
            serving the same directories.
        read_only: Serve an index directory's published build without writing anything:
            uploads and deletes are refused (405), each process follows the ``current``
            build that ``citerag ingest`` publishes.
        fast_invoke: Answer ``/rag/invoke`` with
            :class:`~citerag.server.invoke.FastInvokeHandler` (LangServe's validation and
            response, encoded with orjson); ``False``: LangServe's own handler (the same
            responses, slower; kept for comparison).
        watch_interval: Seconds between checks for builds published by another process
            (or ``citerag ingest``), and with ``store`` for uploads queued by another
            process: how long a published change takes to reach this process.
        index_dir: The index directory the server answers from and writes uploads into.
        store: A PostgreSQL store URL served instead of ``index_dir`` (kept as a string: a
            ``Path`` would collapse its ``//``). Document statuses and uploaded files then
            live in the database too, so several processes can serve it.
        data_dir: Where uploaded files and ``documents.json`` (document status) are kept;
            with ``store``, only this process's temporary and cached copies of uploads.
        tokens_file: Bearer token file (JSON or TOML) mapping tokens to users and groups.
        max_upload_mb: Largest accepted upload (MiB); larger uploads get 413.
        max_question_chars: Longest accepted question; longer ones get 422.
        max_request_kb: Largest accepted body of any other request (KiB), e.g. JSON to /rag.
        max_batch: Most inputs accepted in one ``/rag/batch`` request; more get 413.
        max_pending_uploads: Uploads that may wait for indexing at once (more get 503).
        allowed_types: Accepted file suffixes (a subset of the loaders' types); others get 415.
        embedding_model: Embedding model name or directory (``None`` = bundled default); it
            must be the model the index was built with.
        model: Answerer: ``extractive`` or an ``init_chat_model`` string.
        query_batching: Embed the questions of concurrent requests in one forward pass.
        query_batch_wait_ms: Longest a forward pass waits for more questions (0 = never).
        query_cache: Recent question vectors kept (0 = none).
        embedding_threads: Intra-op threads of the embedding model (0 = every core but one).
        embedding_precision: ``auto``, ``fp32`` or ``bf16``: arithmetic of the encoder's
            forward passes (``auto``: bfloat16 where the CPU has it natively).
        traced_queries: Embed questions through a traced copy of the encoder where it can
            be vouched for (:mod:`citerag.traced_queries`); ``False`` = through ``encode``.
        rag_defaults: Server-side defaults for other graph knobs (``RAGConfig`` fields).
        client_config_keys: Graph knobs clients may set in ``configurable``.
        config_file: The TOML file these settings were read from, if any.
    """

    host: str = "127.0.0.1"
    port: int = 8000
    log_level: str = "info"
    playground: bool = False
    public_docs: bool = False
    cookie_secure: bool = False
    workers: int = 0
    read_only: bool = False
    fast_invoke: bool = True
    watch_interval: float = 2.0
    index_dir: Path = Path(".citerag/index")
    store: str | None = None
    data_dir: Path = Path(".citerag/server")
    tokens_file: Path | None = None
    max_upload_mb: float = 25.0
    max_question_chars: int = 2000
    max_request_kb: int = 1024
    max_batch: int = 32
    max_pending_uploads: int = 100
    allowed_types: tuple[str, ...] = tuple(sorted(LOADERS))
    embedding_model: str | None = None
    model: str = "extractive"
    query_batching: bool = True
    query_batch_wait_ms: float = 0.0
    query_cache: int = 1024
    embedding_threads: int = 0
    embedding_precision: str = "auto"
    traced_queries: bool = True
    rag_defaults: dict[str, Any] = field(default_factory=dict)
    client_config_keys: tuple[str, ...] = DEFAULT_CLIENT_KEYS
    config_file: Path | None = None

    @property
    def location(self) -> Path | str:
        """The index served: the store URL when one is set, else the index directory."""
        return self.store if self.store is not None else self.index_dir

    @property
    def shared(self) -> bool:
        """Whether the index and document state live in PostgreSQL (shareable by processes)."""
        return self.store is not None

    def process_count(self) -> int:
        """How many processes ``citerag serve`` runs: ``workers``, or for ``0`` one per core
        (at most :data:`AUTO_WORKERS_MAX`)."""
        return self.workers or max(1, min(os.cpu_count() or 1, AUTO_WORKERS_MAX))

    @property
    def max_upload_bytes(self) -> int:
        """The upload limit in bytes."""
        return int(self.max_upload_mb * 1024 * 1024)

    @property
    def max_request_bytes(self) -> int:
        """The limit for non-upload request bodies in bytes."""
        return int(self.max_request_kb) * 1024

    def graph_defaults(self) -> dict[str, Any]:
        """Server-side ``configurable`` defaults for the graph (answer model + ``[rag]``)."""
        return {"model": self.model, **self.rag_defaults}

    def validate(self) -> ServerSettings:
        """Check ranges, enumerations and combinations.

        Returns:
            ``self``, for chaining.

        Raises:
            ValueError: Describing the first bad value.
        """
        if not self.host:
            raise ValueError("host must not be empty")
        if not 0 <= self.port <= 65535:
            raise ValueError(f"port must be 0-65535, not {self.port}")
        if not (math.isfinite(self.watch_interval) and 0.05 <= self.watch_interval <= 600):
            raise ValueError(f"watch_interval must be 0.05-600 seconds, not {self.watch_interval}")
        if not 0 <= self.workers <= 64:
            raise ValueError(f"workers must be 0-64 (0 = one per core), not {self.workers}")
        if self.store is not None:
            self.store = _store_url(self.store, "store")
        if self.read_only and self.store is not None:
            raise ValueError(
                "read_only applies to an index directory; a PostgreSQL store is served by "
                "several writing processes already (drop read_only or the store)"
            )
        if not (math.isfinite(self.max_upload_mb) and self.max_upload_mb > 0):
            raise ValueError(f"max_upload_mb must be positive, not {self.max_upload_mb}")
        if self.max_question_chars < 1:
            raise ValueError(f"max_question_chars must be >= 1, not {self.max_question_chars}")
        if self.max_request_kb < 1:
            raise ValueError(f"max_request_kb must be >= 1, not {self.max_request_kb}")
        if self.max_batch < 1:
            raise ValueError(f"max_batch must be >= 1, not {self.max_batch}")
        if self.max_pending_uploads < 1:
            raise ValueError(f"max_pending_uploads must be >= 1, not {self.max_pending_uploads}")
        if not (math.isfinite(self.query_batch_wait_ms) and 0 <= self.query_batch_wait_ms <= 50):
            raise ValueError(f"query_batch_wait_ms must be 0-50, not {self.query_batch_wait_ms}")
        if self.query_cache < 0:
            raise ValueError(f"query_cache must be >= 0, not {self.query_cache}")
        if not 0 <= self.embedding_threads <= 256:
            raise ValueError(f"embedding_threads must be 0-256, not {self.embedding_threads}")
        if self.embedding_precision not in PRECISIONS:
            raise ValueError(
                f"embedding_precision must be one of {list(PRECISIONS)}, "
                f"not {self.embedding_precision!r}"
            )
        unknown = [t for t in self.allowed_types if t not in LOADERS]
        if unknown or not self.allowed_types:
            raise ValueError(
                f"allowed_types must be a non-empty subset of {sorted(LOADERS)}; "
                f"no loader for {unknown}"
            )
        bad_keys = [k for k in self.client_config_keys if k not in CLIENT_TUNABLE]
        if bad_keys:
            raise ValueError(
                f"[client] configurable may only list {list(CLIENT_TUNABLE)}, not {bad_keys}"
            )
        from graphs.config import RAGConfig

        known = {f.name for f in fields(RAGConfig) if not f.name.startswith("_")}
        extra = sorted(set(self.rag_defaults) - known)
        if extra:
            raise ValueError(f"[rag] has unknown keys {extra}; known: {sorted(known)}")
        RAGConfig(**self.graph_defaults()).validate()
        return self


def _as_bool(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{name} must be true or false, not {value!r}")


def _as_types(value: Any, name: str) -> tuple[str, ...]:
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list | tuple):
        raise ValueError(f"{name} must be a list of file suffixes, not {value!r}")
    out = []
    for item in items:
        text = str(item).strip().lower()
        if text:
            out.append(text if text.startswith(".") else "." + text)
    return tuple(out)


def _as_keys(value: Any, name: str) -> tuple[str, ...]:
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list | tuple):
        raise ValueError(f"{name} must be a list of names, not {value!r}")
    return tuple(str(i).strip() for i in items if str(i).strip())


def _is_url(value: Any) -> bool:
    return isinstance(value, str) and "://" in value


def _store_url(value: Any, where: str) -> str:
    """Validate a store URL with the command line's own parser (one rule for every command)."""
    import argparse

    from citerag.cli import store_url

    if not isinstance(value, str):
        raise ValueError(f"{where} must be a postgresql:// URL, not {value!r}")
    try:
        return store_url(value.strip())
    except (argparse.ArgumentTypeError, ValueError) as exc:
        raise ValueError(f"{where}: {exc}") from None


def _layer(values: dict[str, Any], layer: dict[str, Any]) -> None:
    """Apply one source's values over the lower ones.

    ``index_dir`` and ``store`` name the same thing: a source that sets either replaces what
    lower sources set for both (an index directory on the command line beats a store in the
    config file); one that sets both uses the store.
    """
    if "index_dir" in layer and isinstance(layer["index_dir"], str):  # --index URL
        layer.setdefault("store", layer.pop("index_dir"))
    if any(k in layer for k in _LOCATION_FIELDS) and "store" not in layer:
        layer["store"] = None
    values.update(layer)


def _coerce(name: str, value: Any, source: str, base: Path | None) -> Any:
    """Convert a raw value for field ``name``; ``source`` names where it came from."""
    where = f"{source}: {name}"
    try:
        if name in (
            "port",
            "max_question_chars",
            "max_request_kb",
            "max_batch",
            "max_pending_uploads",
            "query_cache",
            "embedding_threads",
            "workers",
        ):
            if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                raise ValueError
            return int(value)
        if name in ("max_upload_mb", "query_batch_wait_ms", "watch_interval"):
            if isinstance(value, bool):
                raise ValueError
            return float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{where} must be a number, not {value!r}") from None
    if name in (
        "playground",
        "public_docs",
        "cookie_secure",
        "query_batching",
        "traced_queries",
        "read_only",
        "fast_invoke",
    ):
        return _as_bool(value, where)
    if name == "allowed_types":
        return _as_types(value, where)
    if name == "client_config_keys":
        return _as_keys(value, where)
    if name == "store" or (name == "index_dir" and _is_url(value)):
        return _store_url(value, where)
    if name in _PATH_FIELDS:
        if not isinstance(value, str | Path) or not str(value):
            raise ValueError(f"{where} must be a path, not {value!r}")
        path = Path(value).expanduser()
        return path if path.is_absolute() or base is None else Path(os.path.normpath(base / path))
    if name == "embedding_model":
        text = str(value).strip()
        return None if text in ("", "default") else text
    if not isinstance(value, str):
        raise ValueError(f"{where} must be a string, not {value!r}")
    return value


def _model_table(table: dict[str, Any], where: str) -> tuple[str | None, dict[str, Any]]:
    """``[model]``: ``name`` (the answer model, as ``[models] answer``) and the chat model's
    settings (:data:`chains.models.MODEL_SETTINGS`) as the graph knobs that carry them.

    Raises:
        ValueError: An unknown key (named, with the known ones) or a bad value.
    """
    from chains.models import MODEL_SETTINGS, check_model_spec, check_setting
    from graphs.config import MODEL_KNOBS

    knob_of = {setting: name for name, setting in MODEL_KNOBS.items()}
    knob_of["temperature"] = "temperature"
    model: str | None = None
    knobs: dict[str, Any] = {}
    for key, value in table.items():
        if key == "name":
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"{where}: [model] name must be a model string, not {value!r}")
            model = value.strip()
            try:
                check_model_spec(model)
            except ValueError as exc:
                raise ValueError(f"{where}: [model] name: {exc}") from None
            continue
        if key not in MODEL_SETTINGS:
            raise ValueError(
                f"{where}: unknown setting [model] {key}; known: name, {', '.join(MODEL_SETTINGS)}"
            )
        if isinstance(value, int) and not isinstance(value, bool) and key in ("timeout_s",):
            value = float(value)
        try:
            check_setting(key, value)
        except ValueError as exc:
            raise ValueError(f"{where}: [model] {exc}") from None
        knobs[knob_of[key]] = value
    return model, knobs


def _unknown_setting(path: Path, section: str, key: str) -> str:
    """``FILE: unknown setting [server] prot (did you mean [server] port?); known: ...``,
    the known settings being every table's, ``[model]`` and ``[rag]`` included."""
    import difflib

    from chains.models import MODEL_SETTINGS

    known = sorted(
        [f"[{s}] {k}" for s, k in _TOML_KEYS] + [f"[model] {k}" for k in ("name", *MODEL_SETTINGS)]
    )
    close = difflib.get_close_matches(f"[{section}] {key}", known, n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]}?)" if close else ""
    return (
        f"{path}: unknown setting [{section}] {key}{hint}; known: {', '.join(known)}, "
        "and [rag] KNOB for any knob (docs/reference/configuration.md)"
    )


def _from_toml(path: Path) -> dict[str, Any]:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(f"config file not found: {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML: {exc}") from None
    base = path.resolve().parent
    values: dict[str, Any] = {}
    for section, table in raw.items():
        if not isinstance(table, dict):
            raise ValueError(f"{path}: top-level key {section!r} must be a [table]")
        if section == "rag":
            from graphs.config import knobs as rag_knobs
            from graphs.config import unknown_keys_message

            extra = [str(k) for k in table if k not in rag_knobs()]
            if extra:
                raise ValueError(
                    f"{path}: [rag] {unknown_keys_message(extra)}; the knobs are listed in "
                    "docs/reference/configuration.md"
                )
            values["rag_defaults"] = {**values.get("rag_defaults", {}), **table}
            continue
        if section == "model":
            model, knobs = _model_table(table, str(path))
            if model is not None:
                values["model"] = model
            values["rag_defaults"] = {**knobs, **values.get("rag_defaults", {})}
            continue
        for key, value in table.items():
            name = _TOML_KEYS.get((section, key))
            if name is None:
                raise ValueError(_unknown_setting(path, section, key))
            values[name] = _coerce(name, value, str(path), base)
    if "store" in values and "index_dir" in values:
        raise ValueError(f"{path}: set [paths] index or [paths] store, not both")
    return values


def load_settings(
    config_file: Path | str | None = None,
    *,
    env: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> ServerSettings:
    """Build settings from defaults, a TOML file, the environment and explicit overrides.

    Args:
        config_file: TOML file (default ``$CITERAG_CONFIG`` if set, else none).
        env: Environment to read ``CITERAG_*`` variables from (default ``os.environ``).
        overrides: Field values that win over everything (e.g. command-line flags);
            ``None`` values are ignored.

    Returns:
        Validated settings.

    Raises:
        FileNotFoundError: The config file does not exist.
        ValueError: A value is malformed or out of range.
    """
    env = os.environ if env is None else env
    settings = ServerSettings()
    path = config_file or env.get(CONFIG_ENV) or None
    values: dict[str, Any] = {}
    if path:
        _layer(values, _from_toml(Path(path)))
        values["config_file"] = Path(path)
    from_env: dict[str, Any] = {}
    for var, name in ENV_VARS.items():
        raw = env.get(var)
        if raw is not None and raw.strip() != "":
            from_env[name] = _coerce(name, raw.strip(), f"${var}", None)
    from graphs.config import model_knobs_from_env

    env_knobs = {k: v for k, v in model_knobs_from_env(env).items() if k != "model"}
    if env_knobs:  # CITERAG_MODEL_* over the TOML's [model] settings ($CITERAG_MODEL: above)
        from_env["rag_defaults"] = {**values.get("rag_defaults", {}), **env_knobs}
    _layer(values, from_env)
    flags: dict[str, Any] = {}
    for name, value in (overrides or {}).items():
        if value is None:
            continue
        if name == "rag_defaults":
            flags[name] = dict(value)
        else:
            flags[name] = _coerce(name, value, "command line", None)
    _layer(values, flags)
    return replace(settings, **values).validate()


#: Environment variable holding a whole :class:`ServerSettings` as JSON: how ``citerag serve
#: --workers N`` hands the parent's settings to uvicorn's worker processes.
SETTINGS_JSON_ENV = "CITERAG_SERVER_SETTINGS_JSON"


def settings_to_json(settings: ServerSettings) -> str:
    """Serialise settings (paths as strings, tuples as lists) for :func:`settings_from_json`."""
    import json

    data: dict[str, Any] = {}
    for f in fields(ServerSettings):
        value = getattr(settings, f.name)
        if isinstance(value, Path):
            value = str(value)
        elif isinstance(value, tuple):
            value = list(value)
        data[f.name] = value
    return json.dumps(data)


def settings_from_json(text: str) -> ServerSettings:
    """The settings :func:`settings_to_json` wrote, validated.

    Raises:
        ValueError: Not such a JSON object, or a value out of range.
    """
    import json

    raw = json.loads(text)
    if not isinstance(raw, dict):
        raise ValueError("server settings JSON must be an object")
    known = {f.name for f in fields(ServerSettings)}
    kwargs: dict[str, Any] = {}
    for name, value in raw.items():
        if name not in known:
            raise ValueError(f"unknown server setting {name!r} in the settings JSON")
        if name in (*_PATH_FIELDS, "config_file"):
            value = None if value is None else Path(value)
        elif name in ("allowed_types", "client_config_keys"):
            value = tuple(value)
        kwargs[name] = value
    return ServerSettings(**kwargs).validate()
