"""What every benchmark shares: arguments, data sets, indexes, outputs, the one latency
percentile, servers on loopback and PostgreSQL.

Every benchmark reads the public data from ``<repo>/../shared/data`` (never copied into the
repository), materialises it under ``benchmarks/out/work/`` and writes its working files (JSON
and a Markdown file) to ``benchmarks/out/`` — both git-ignored. The figures the documentation
quotes go through :func:`benchmarks.results.write_result` into ``benchmarks/results/``
(committed), from which ``python -m benchmarks.report`` renders the docs' tables.

* :func:`percentile` — the one percentile definition of every latency figure (nearest rank);
  Wilson intervals and sign tests come from :mod:`citerag.eval.metrics`.
* :func:`server_env`, :func:`free_port`, :func:`start_server` (``citerag serve`` on 127.0.0.1),
  :func:`wait_ready` — servers the benchmarks drive over HTTP; the scripted OpenAI-compatible
  chat server is ``tests/support/openai_server.py``.
* :func:`pg_server`, :func:`store_url` — PostgreSQL 16 + pgvector from the ``pgserver`` wheel.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import math
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
#: The development set in users' words (``benchmarks/devset/``), read by several benchmarks.
DEVSET = REPO / "benchmarks" / "devset" / "questions.jsonl"
#: Working files (materialised data sets, indexes, PostgreSQL's data folder): git-ignored.
WORK = REPO / "benchmarks" / "out" / "work"
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import warnings  # noqa: E402

warnings.filterwarnings("ignore", category=DeprecationWarning)
warnings.filterwarnings("ignore", message=".*langchain-community.*")


def parser(description: str) -> argparse.ArgumentParser:
    """Arguments every evaluation benchmark takes."""
    from citerag.eval.adapters import default_data_dir

    p = argparse.ArgumentParser(description=description)
    p.add_argument(
        "--data",
        type=Path,
        default=default_data_dir(),
        help="shared data folder (default <repo>/../shared/data)",
    )
    p.add_argument(
        "--work",
        type=Path,
        default=REPO / "benchmarks" / "out" / "work",
        help="where data sets are materialised and indexed",
    )
    p.add_argument(
        "--out", type=Path, default=REPO / "benchmarks" / "out", help="where results are written"
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument(
        "--embedding-model",
        default=None,
        help="embedding model (default: the bundled all-MiniLM-L6-v2; e.g. minilm-int8). "
        "Another model gets its own index (<work>/<set>/index-<model>), query-vector cache "
        "and output folder (<out>/model-<model>/)",
    )
    return p


_MODEL: Any = None
_MODEL_NAME: str | None = None


def _model_slug(name: str | None) -> str | None:
    """A folder-safe name of a non-default model (``None`` for the bundled default)."""
    from citerag.embeddings import DEFAULT_MODEL, resolve_model

    identity, _ = resolve_model(name)
    if identity == DEFAULT_MODEL:
        return None
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in identity)


def _configure(args: argparse.Namespace) -> None:
    """Select ``--embedding-model`` once; a non-default model writes to its own folder."""
    global _MODEL_NAME
    name = getattr(args, "embedding_model", None)
    if getattr(args, "_model_configured", False):
        return
    args._model_configured = True
    _MODEL_NAME = name
    slug = _model_slug(name)
    if slug:
        args.out = args.out / f"model-{slug}"
        log(f"embedding model {name}: results go to {args.out}")


def model() -> Any:
    """The selected embedding model (``--embedding-model``; loaded once)."""
    global _MODEL
    if _MODEL is None:
        from citerag.embeddings import load_embedding_model

        _MODEL = load_embedding_model(_MODEL_NAME)
    return _MODEL


def index_folder(model_name: str | None) -> str:
    """The index folder of an embedding model: ``index`` for the bundled default, else
    ``index-<model>`` (a model's vectors never mix with another's)."""
    slug = _model_slug(model_name)
    return "index" if slug is None else f"index-{slug}"


def select_model(args: argparse.Namespace) -> None:
    """Select ``--embedding-model`` for a benchmark that loads the model itself rather than
    through :func:`model` (its workers, or its own runs): a non-default model's results go to
    ``<out>/model-<model>/`` (once per ``args``); its indexes are :func:`index_folder`'s."""
    _configure(args)


def bundled_model_only(args: argparse.Namespace, benchmark: str) -> None:
    """Stop a benchmark that runs the bundled model only when ``--embedding-model`` names
    another (the option is every benchmark's, :func:`parser`; ignoring it would publish the
    bundled model's figures as the other's).

    Raises:
        SystemExit: Another model was asked for; the message names the benchmarks that
            take one.
    """
    if index_folder(getattr(args, "embedding_model", None)) != "index":
        raise SystemExit(
            f"{benchmark}: --embedding-model {args.embedding_model!r} is not supported here "
            "(it runs the bundled all-MiniLM-L6-v2); benchmarks.unseen_corpus, "
            "benchmarks.mixed_formats and the retrieval benchmarks take another model"
        )


def _index_name() -> str:
    return index_folder(_MODEL_NAME)


def _cache_name() -> str:
    slug = _model_slug(_MODEL_NAME)
    return "query_embeddings.npz" if slug is None else f"query_embeddings-{slug}.npz"


def index_dir(prep: Any) -> Path:
    """The configured model's index folder of a prepared data set (``<set>/index[-<model>]``)."""
    return Path(prep.root) / _index_name()


def dataset(name: str, args: argparse.Namespace, *, ingest: bool = True) -> tuple[Any, Any]:
    """Materialise a data set and (re)use its default-settings index.

    Returns:
        ``(Prepared, LoadedIndex or None)``; the index lives in ``<work>/<name>/index``.
    """
    from citerag.eval.adapters import ensure_index, prepare
    from citerag.stores.loaded import load_index

    _configure(args)
    prep = prepare(name, args.data, args.work)
    if not ingest:
        return prep, None
    folder = index_dir(prep)
    t0 = time.perf_counter()
    report = ensure_index(prep, folder, model(), progress=not args.no_progress)
    log(
        f"{name}: index {folder} ({report.summary()['indexed']} indexed, "
        f"{report.summary()['unchanged']} unchanged, failed {report.failed or 'none'}; "
        f"{time.perf_counter() - t0:.0f} s)"
    )
    return prep, load_index(folder, model())


def cached_embeddings(args: argparse.Namespace) -> Any:
    """Query embeddings shared by the benchmarks through ``<work>/query_embeddings.npz``.

    Call :func:`save_embeddings` after a run to extend the cache.
    """
    from citerag.eval.runner import CachedEmbeddings

    _configure(args)
    emb = CachedEmbeddings(model().embeddings)
    n = emb.load(args.work / _cache_name(), model().name)
    if n:
        log(f"{n} cached query embeddings")
    return emb


def save_embeddings(emb: Any, args: argparse.Namespace) -> None:
    """Persist the query-embedding cache (merging what another run saved meanwhile)."""
    path = args.work / _cache_name()
    emb.load(path, model().name)
    emb.save(path, model().name)


def sample(args: argparse.Namespace) -> tuple[Path, Any]:
    """The bundled sample corpus indexed under ``<work>/sample/index``."""
    from citerag.index.ingest import ingest
    from citerag.stores.loaded import load_index

    _configure(args)
    index_dir = args.work / "sample" / _index_name()
    ingest([REPO / "examples" / "corpus"], index_dir, model(), progress=not args.no_progress)
    return REPO / "examples" / "questions.jsonl", load_index(index_dir, model())


def log(text: str) -> None:
    """Progress line on stderr."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def write(out: Path, stem: str, data: dict[str, Any], markdown: str) -> None:
    """Write ``<out>/<stem>.json`` and ``<out>/<stem>.md`` and print the Markdown."""
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{stem}.json").write_text(
        json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    (out / f"{stem}.md").write_text(markdown + "\n", encoding="utf-8")
    print(markdown)
    log(f"wrote {out / (stem + '.json')} and {out / (stem + '.md')}")


def cache_chunk_vectors(args: argparse.Namespace) -> None:
    """Reuse chunk vectors across this benchmark's indexes (``<work>/chunk_vectors-<model>``).

    Indexes that differ in one chunking knob share most embedded texts; this keeps the
    vector of every text embedded once (keyed by a hash of the text and the model), so only
    the texts a knob changes are embedded again. Vectors are the model's own, from
    :func:`citerag.embeddings.embed_texts` (batched with the other texts not yet cached, which
    changes a vector only by float rounding).
    """
    import hashlib

    import numpy as np

    from citerag.stores import chunk_vectors

    _configure(args)
    folder = args.work / f"chunk_vectors-{_model_slug(_MODEL_NAME) or 'default'}"
    folder.mkdir(parents=True, exist_ok=True)
    inner = chunk_vectors.embed_texts

    def cached(emb: Any, texts: list[str], *a: Any, **kw: Any) -> Any:
        keys = [hashlib.sha1(t.encode("utf-8")).hexdigest() for t in texts]
        paths = [folder / k[:2] / f"{k}.npy" for k in keys]
        todo = [i for i, p in enumerate(paths) if not p.exists()]
        if todo:
            fresh = inner(emb, [texts[i] for i in todo], *a, **kw)
            for row, i in enumerate(todo):
                paths[i].parent.mkdir(exist_ok=True)
                np.save(paths[i], fresh[row])
        if not texts:
            return inner(emb, texts, *a, **kw)
        return np.stack([np.load(p) for p in paths]).astype(np.float32)

    chunk_vectors.embed_texts = cached  # type: ignore[assignment]


# ------------------------------------------------------------------------------------------
# another checkout's library code
# ------------------------------------------------------------------------------------------

#: The library's top-level packages (what ``--code DIR`` takes from another checkout).
LIBRARY = ("citerag", "chains", "graphs", "loaders")


def code_from_argv(argv: Sequence[str] | None = None) -> Path | None:
    """The ``--code DIR`` of a command line (read before anything imports the library)."""
    argv = sys.argv if argv is None else argv
    for i, arg in enumerate(argv):
        if arg == "--code" and i + 1 < len(argv):
            return Path(argv[i + 1])
        if arg.startswith("--code="):
            return Path(arg.split("=", 1)[1])
    return None


def run_worker(
    module: str,
    version: str,
    code: Path,
    args: argparse.Namespace,
    keys: Sequence[str],
    extra: Sequence[str] = (),
) -> None:
    """Run one side of a two-version benchmark: ``python -m MODULE --worker VERSION --code
    CODE``, passing on the options ``keys`` of ``args`` (``max_company_pages`` as
    ``--max-company-pages``), then ``extra``, and ``--no-progress`` when set; in the
    repository's root, raising if it fails. The worker reads ``--code`` first and imports
    the library from that tree (:func:`parse_as_side`)."""
    cmd = [sys.executable, "-m", module, "--worker", version, "--code", str(code)]
    for key in keys:
        cmd += [f"--{key.replace('_', '-')}", str(getattr(args, key))]
    cmd += list(extra)
    if args.no_progress:
        cmd.append("--no-progress")
    subprocess.run(cmd, check=True, cwd=REPO)


def parse_as_side(parse: Callable[[], argparse.Namespace]) -> argparse.Namespace:
    """A two-version benchmark's arguments: in a worker (``--code TREE``), the library of
    ``TREE`` is imported first (:func:`use_library_from`, before anything imports it), then
    ``parse`` runs. The one preamble of every ``main`` that may be a side."""
    code = code_from_argv()
    if code is not None:
        use_library_from(code)
    return parse()


def run_sides(
    module: str,
    sides: Sequence[tuple[str, Path]],
    args: argparse.Namespace,
    keys: Sequence[str],
    outcome: Callable[[str], Path],
    extra: Sequence[str] = (),
) -> None:
    """Run each ``(version, tree)`` side with :func:`run_worker` (passing ``extra`` on), one
    after the other; with ``--reuse`` (``args.reuse``), a side whose outcome file
    (``outcome(version)``) exists is not run again."""
    for version, tree in sides:
        done = outcome(version)
        if args.reuse and done.exists():
            log(f"{version}: reusing {done}")
            continue
        run_worker(module, version, tree, args, keys, extra)


def use_library_from(tree: Path) -> None:
    """Import the library packages (:data:`LIBRARY`) from another checkout ``tree``.

    Registers each package with its ``__path__`` in ``tree`` before running any of them, so
    every later import of the library (and the packages' imports of one another) reads
    ``tree``'s code, while the benchmarks themselves stay this checkout's. Call it before
    anything imports the library.

    Raises:
        RuntimeError: If a library package is already imported.
        FileNotFoundError: If ``tree`` lacks one of the packages.
    """
    tree = Path(tree).resolve()
    loaded = [name for name in LIBRARY if name in sys.modules]
    if loaded:
        raise RuntimeError(f"library already imported ({', '.join(loaded)}); too late for {tree}")
    modules = []
    for name in LIBRARY:
        init = tree / name / "__init__.py"
        if not init.is_file():
            raise FileNotFoundError(f"{tree} has no package {name} ({init} missing)")
        spec = importlib.util.spec_from_file_location(
            name, init, submodule_search_locations=[str(tree / name)]
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        modules.append((module, spec))
    for module, spec in modules:
        assert spec.loader is not None
        spec.loader.exec_module(module)


def library_env(tree: Path) -> dict[str, str]:
    """Environment of a ``python -c`` child that imports the library from ``tree`` only.

    ``PYTHONSAFEPATH`` keeps the working directory off ``sys.path``; ``PYTHONPATH`` is
    ``tree``.
    """
    return server_env(PYTHONSAFEPATH="1", PYTHONPATH=str(Path(tree).resolve()))


# ------------------------------------------------------------------------------------------
# the one percentile
# ------------------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile: the smallest value with at least ``q`` % of values <= it.

    The one definition behind every latency percentile of the benchmarks (p50, p95, p99): an
    observed value, never an interpolation, ``rank = ceil(q / 100 * n)`` (at least 1).

    Args:
        values: The observations (any order).
        q: The percentile, ``0 < q <= 100``.

    Returns:
        The value at that rank; ``nan`` for no values.

    Raises:
        ValueError: If ``q`` is outside ``(0, 100]``.
    """
    if not 0 < q <= 100:
        raise ValueError(f"percentile q must be in (0, 100], got {q!r}")
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered) - 1e-9))
    return float(ordered[rank - 1])


def ms(values: Sequence[float], q: float, digits: int = 1) -> float | None:
    """:func:`percentile` of durations in seconds, in milliseconds (rounded; ``None`` if empty)."""
    return round(percentile(values, q) * 1000.0, digits) if values else None


# ------------------------------------------------------------------------------------------
# servers on loopback
# ------------------------------------------------------------------------------------------

#: The bearer token the benchmarks' servers accept (a token file written next to the index).
TOKEN = "benchmark-token-0123456789"
#: Hosts a benchmark may send requests to.
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


def server_env(**extra: str) -> dict[str, str]:
    """The environment of a server child: this one, offline, no tokenizer parallelism."""
    return {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
        **extra,
    }


def free_port() -> int:
    """A port that was free a moment ago on 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def write_tokens(path: Path, token: str = TOKEN, user: str = "benchmark") -> Path:
    """A token file with one user holding ``token`` (no groups)."""
    path.write_text(json.dumps({"users": [{"user": user, "token": token, "groups": []}]}))
    return path


def start_server(
    work: Path,
    index: Path | None = None,
    *,
    store: str | None = None,
    tag: str = "",
    extra_args: Sequence[str] = (),
    env: dict[str, str] | None = None,
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``citerag serve`` on a free loopback port; return the process and its URL.

    Args:
        work: A folder for the index copy, the token file, the data folder and the log.
        index: An index folder to copy into ``work``; ``None`` builds one of ``examples/corpus``
            (unless ``store`` is given).
        store: A store URL (``--store``) instead of an index folder.
        tag: Suffix of the data folder and log file (several servers in one ``work``).
        extra_args: More ``citerag serve`` arguments.
        env: The child's environment (default :func:`server_env`).
    """
    env = env or server_env()
    citerag = [sys.executable, "-m", "citerag"]
    if store is None:
        target = work / "index"
        if index is not None:
            shutil.copytree(index, target, symlinks=True)
        elif not target.exists():
            log("building an index of examples/corpus ...")
            subprocess.run(
                [
                    *citerag,
                    "ingest",
                    str(REPO / "examples" / "corpus"),
                    "--index",
                    str(target),
                    "-q",
                ],
                check=True,
                env=env,
                cwd=REPO,
                stdout=subprocess.DEVNULL,
            )
        where = ["--index", str(target)]
    else:
        where = ["--store", store]
    tokens = work / "tokens.json"
    if not tokens.exists():
        write_tokens(tokens)
    port = free_port()
    suffix = f"-{tag}" if tag else ""
    logf = (work / f"server{suffix}.log").open("wb")
    proc = subprocess.Popen(
        [
            *citerag,
            *("serve", "--host", "127.0.0.1", "--port", str(port), *where),
            *("--data-dir", str(work / f"data{suffix}"), "--tokens", str(tokens)),
            *("--log-level", "warning", *extra_args),
        ],
        env=env,
        cwd=REPO,
        stdout=logf,
        stderr=subprocess.STDOUT,
    )
    return proc, f"http://127.0.0.1:{port}"


def wait_ready(
    url: str, proc: subprocess.Popen[Any] | None, timeout: float = 300.0
) -> dict[str, Any]:
    """Poll ``/ready`` (bounded) until it answers 200; return its JSON."""
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise SystemExit(f"the server exited with code {proc.returncode} during startup")
        try:
            r = httpx.get(f"{url}/ready", timeout=5.0)
            if r.status_code == 200:
                return dict(r.json())
        except httpx.TransportError:
            pass
        time.sleep(0.25)
    raise SystemExit(f"{url} was not ready within {timeout:.0f} s")


def stop_servers(*procs: subprocess.Popen[Any] | None, timeout: float = 60.0) -> None:
    """Stop server processes: terminate all first, then wait for each (killed if it
    outlives ``timeout``). ``None`` entries are skipped."""
    live = [p for p in procs if p is not None]
    for p in live:
        if p.poll() is None:
            p.terminate()
    for p in live:
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(timeout=30)


# ------------------------------------------------------------------------------------------
# PostgreSQL
# ------------------------------------------------------------------------------------------


@contextlib.contextmanager
def pg_server(folder: Path) -> Iterator[str]:
    """Start PostgreSQL from the ``pgserver`` wheel in ``folder``; yield its URI; stop it."""
    import pgserver

    folder.mkdir(parents=True, exist_ok=True)
    server = pgserver.get_server(folder, cleanup_mode="stop")
    try:
        server.psql("CREATE EXTENSION IF NOT EXISTS vector;")
        yield server.get_uri()
    finally:
        server.cleanup()


def store_url(uri: str, namespace: str, **params: Any) -> str:
    """A citerag store URL: ``uri`` with ``namespace`` (and e.g. ``ef_search``) added."""
    extra = "&".join(f"{k}={v}" for k, v in {"namespace": namespace, **params}.items())
    return f"{uri}{'&' if '?' in uri else '?'}{extra}"
