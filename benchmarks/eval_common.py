"""Shared plumbing of the evaluation benchmarks (``retrieval_eval.py``, ``calibration.py``,
``chunking_study.py``, ``ladder.py``): arguments, data sets, indexes, outputs.

Every benchmark reads the public data from ``<repo>/../shared/data`` (never copied into the
repository), materialises it under ``benchmarks/out/work/`` and writes its results (JSON and
a Markdown file with the tables of docs/benchmarks/) to ``benchmarks/out/`` — both git-ignored.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
#: The development set in users' words (``benchmarks/devset/``), read by several benchmarks.
DEVSET = REPO / "benchmarks" / "devset" / "questions.jsonl"
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
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


def _index_name() -> str:
    slug = _model_slug(_MODEL_NAME)
    return "index" if slug is None else f"index-{slug}"


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
