"""The ``citerag`` command line: ingest, inspect, ask.

Run ``citerag --help`` for the commands; every command takes ``--index DIR`` (default
``$CITERAG_INDEX`` or ``.citerag/index``) or ``--store URL`` (default ``$CITERAG_STORE``): a
PostgreSQL store such as ``postgresql+psycopg://user@host/db`` instead of the directory.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import logging
import os
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

DEFAULT_INDEX = Path(os.environ.get("CITERAG_INDEX", ".citerag/index"))
#: Modules that register further subcommands with ``register(subparsers, common)``.
COMMAND_MODULES = ("citerag.cli_ask", "citerag.cli_serve", "citerag.cli_eval")
#: A PostgreSQL store URL used instead of ``--index`` when set.
STORE_ENV = "CITERAG_STORE"
#: Environment set for every command unless already set: no Hugging Face progress bars
#: (transformers draws one, "Loading weights", each time a model loads; the hub one per
#: download). ``HF_HUB_DISABLE_PROGRESS_BARS=0`` brings them back.
QUIET_ENV = {"HF_HUB_DISABLE_PROGRESS_BARS": "1"}


def index_location(text: str) -> Path | str:
    """Parse ``--index``/``--store``: a store URL stays a string, anything else is a path."""
    from citerag.stores.dispatch import backend_for

    if backend_for(text).directory is None:  # a bad URL fails here, naming the parameter
        return text
    if "://" in text:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an index directory or a postgresql:// store URL"
        )
    return Path(text)


def store_url(text: str) -> str:
    """Parse ``--store``: it must be a PostgreSQL URL."""
    location = index_location(text)
    if not isinstance(location, str):
        raise argparse.ArgumentTypeError(
            f"--store takes a postgresql+psycopg://user@host/db URL, not {text!r} "
            "(use --index for a directory)"
        )
    return location


def positive_int(text: str) -> int:
    """Parse a count that must be at least 1 (``--limit N``).

    Raises:
        argparse.ArgumentTypeError: Not a whole number, or below 1 (the value named).
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def access_label(text: str) -> str:
    """Parse an access label (``ingest --access``) as the server's upload API checks one.

    Raises:
        argparse.ArgumentTypeError: Empty, or not a label name (a document labelled so
            would be readable by nobody, or by anyone holding a group of that odd name).
    """
    from citerag.core.identity import label_problem

    problem = label_problem(text)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return text


def check_index_dir(index: Path | str) -> None:
    """Refuse an ``--index`` that names an existing file (a store URL passes).

    Raises:
        ValueError: ``index`` is a file, not an index directory.
    """
    if isinstance(index, Path) and index.exists() and not index.is_dir():
        raise ValueError(f"--index {index} is a file, not an index directory")


def resolve_location(args: argparse.Namespace) -> None:
    """Settle ``args.index``: ``--store``, else ``--index``, else ``$CITERAG_STORE``, else the
    default directory (``$CITERAG_INDEX`` or ``.citerag/index``)."""
    if not hasattr(args, "index") or getattr(args, "no_default_index", False):
        return
    store = getattr(args, "store", None)
    if store is not None:
        args.index = store
    elif args.index is None:
        env = os.environ.get(STORE_ENV)
        args.index = store_url(env) if env else DEFAULT_INDEX
    check_index_dir(args.index)


def check_writable(index_dir: Path) -> None:
    """Make sure ``citerag ingest`` can write ``index_dir`` before any model loads.

    Raises:
        ValueError: The directory cannot be created or written (its reason named).
    """
    try:
        index_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=index_dir):
            pass
    except OSError as exc:
        raise ValueError(f"cannot write the index at {index_dir}: {exc.strerror or exc}") from None


@contextlib.contextmanager
def loading() -> Iterator[None]:
    """Load modules and models with the cyclic garbage collector off, then freeze them.

    Importing torch, transformers and sentence-transformers creates millions of objects, and
    none of them is garbage; the collector still walks them over and over while they are
    created (about 0.5 s of a cold ``citerag ask``), and again when the process exits
    (0.8 s). At the end, :func:`gc.freeze` moves everything then alive (modules, the model,
    the index, and the little garbage the imports left) into the permanent generation: the
    collector, back on, no longer scans those objects, and exit skips them. Use it around
    loading only, not around work that creates garbage cycles (answering questions).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def _setup_logging(verbose: bool) -> None:
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    import warnings

    warnings.filterwarnings("ignore", category=DeprecationWarning)
    warnings.filterwarnings("ignore", message=".*langchain-community.*")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def cmd_ingest(args: argparse.Namespace) -> int:
    """Ingest files/folders and print the run summary."""
    from citerag.embeddings import load_embedding_model
    from citerag.index.ingest import ingest
    from loaders.chunking import ChunkSettings

    if isinstance(args.index, Path):
        check_writable(args.index)
    if args.no_ocr:
        # read at load time by loaders.ocr, in this process and in ingest's workers
        os.environ["CITERAG_OCR"] = "0"
    # ingest embeds documents only: no traced question path (0.2 s and ~40 MB for nothing)
    model = load_embedding_model(
        args.embedding_model, precision=args.embedding_precision, traced=False
    )
    report = ingest(
        [Path(p) for p in args.paths],
        args.index,
        model,
        chunking=ChunkSettings(
            args.chunk_size,
            args.chunk_overlap,
            not args.no_header,
            table_rows=args.table_rows,
            table_titles=not args.no_table_titles,
            qa_pairs=not args.no_qa_pairs,
        ),
        sentence_vectors=not args.no_sentence_vectors,
        default_access=args.access,
        prune_missing=not args.no_prune,
        progress=not args.quiet,
    )
    if args.json:
        print(json.dumps(report.summary(), indent=2))
        return 0
    print(f"index: {args.index}  build: {report.build_id}")
    print(
        f"indexed {len(report.indexed)}, re-indexed {len(report.updated)}, "
        f"skipped unchanged {len(report.unchanged)}, deleted {len(report.deleted)}, "
        f"failed {len(report.failed)}"
    )
    print(
        f"chunks: {report.chunks_added - report.chunks_reused} embedded, "
        f"{report.chunks_reused} rewritten with their stored vectors, "
        f"{report.chunks_skipped} already indexed, {report.chunks_deleted} deleted; "
        f"{report.over_window} over the embedding window"
    )
    hint = over_window_hint(report.over_window, model.max_tokens, args.chunk_size)
    if hint:
        print(hint + " See `citerag inspect`.")
    for source, reason in report.failed.items():
        print(f"  FAILED {source}: {reason}")
    print(f"took {report.seconds:.1f} s")
    return 0


def over_window_hint(count: int, window: int, chunk_size: int) -> str | None:
    """What over-window chunks mean and what to do about them, or ``None`` for none.

    Args:
        count: Chunks whose embedded text is longer than the model reads.
        window: The embedding model's window (word-pieces).
        chunk_size: The index's chunk size (characters).
    """
    if count <= 0:
        return None
    return (
        f"  note: {count} chunk(s) are longer than the embedding model reads ({window} "
        "word-pieces; codes and figures cost several each): their vectors see only their "
        "beginning, while keyword and sentence search read all of them. To embed them whole, "
        f"re-ingest with a smaller --chunk-size (now {chunk_size}); the 'over' column names "
        "the documents."
    )


def _print_document_metadata(documents: Iterable[dict[str, Any]]) -> None:
    """Print what each document is about: company, period, type and title (with its source).

    Args:
        documents: Manifest ledger records (failed ones have no metadata: shown as ``-``).
    """
    rows = [
        (
            d["source"],
            d.get("company") or "-",
            d.get("period") or "-",
            d.get("doc_type") or "-",
            f"{d['title']} ({d.get('title_source') or '?'})" if d.get("title") else "-",
        )
        for d in sorted(documents, key=lambda d: d["source"])
    ]
    if not rows:
        return
    head = ("source", "company", "period", "type", "title (source)")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(4)]
    print("\ndocument metadata (filterable as company, period, doc_type):")
    for row in [head, *rows]:
        print("  " + " ".join(f"{c:{w}}" for c, w in zip(row, widths, strict=False)) + f" {row[4]}")


def _print_blocks(documents: Any) -> None:
    """The structural model per document: how many blocks of each type (and tables)."""
    from loaders.blocks import BLOCK_TYPES

    docs = [d for d in documents if d.get("blocks")]
    if not docs:
        return
    kinds = [k for k in BLOCK_TYPES if any(d["blocks"].get(k) for d in docs)]
    short = {k: k.replace("page_", "p_").replace("_item", "").replace("_pair", "") for k in kinds}
    print("\nstructure (blocks per type):")
    print("  " + " ".join(f"{short[k]:>9}" for k in kinds) + "  source")
    for d in sorted(docs, key=lambda d: d["source"]):
        print("  " + " ".join(f"{d['blocks'].get(k, 0):>9}" for k in kinds) + f"  {d['source']}")


def _print_ocr(documents: Iterable[dict[str, Any]]) -> None:
    """Documents with pages read by OCR, and their low-confidence pages to check."""
    from loaders.ocr import LOW_CONFIDENCE

    docs = sorted((d for d in documents if d.get("ocr_pages")), key=lambda d: d["source"])
    if not docs:
        return
    print(f"\npages read by OCR (confidence 0-1; below {LOW_CONFIDENCE:.2f} is low: check them):")
    for d in docs:
        pages: dict[str, float] = d["ocr_pages"]
        low = {int(p): c for p, c in pages.items() if c < LOW_CONFIDENCE}
        mean = sum(pages.values()) / len(pages)
        note = f"; LOW confidence on pages {low}" if low else ""
        print(f"  {d['source']}: {len(pages)} page(s), mean confidence {mean:.2f}{note}")


def cmd_inspect(args: argparse.Namespace) -> int:
    """Print the manifest's parsing review."""
    from citerag.stores.loaded import read_manifest

    manifest = read_manifest(args.index)
    data = manifest.to_json()
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    emb = data["embedding"]
    print(f"build {data['build_id']} created {data['created_at']}")
    print(
        f"embedding {emb['model']} dim={emb['dimension']} normalized={emb['normalized']} "
        f"window={emb['max_tokens']} word-pieces"
    )
    idx = data["index"]
    if "hnsw" in idx:
        h = idx["hnsw"]
        print(
            f"index PostgreSQL {idx.get('postgresql', '?')} + pgvector {idx.get('pgvector', '?')} "
            f"at {idx.get('store_url', '?')}; HNSW m={h['m']} ef_construction="
            f"{h['ef_construction']} ef_search={h['ef_search']}; {idx['distance']}"
        )
    else:
        print(f"index {idx['faiss_index_type']}; {idx['distance']}")
    ch = data["chunking"]
    print(
        f"chunking size={ch['chunk_size']} overlap={ch['chunk_overlap']} "
        f"header={ch['contextual_header']}"
    )
    t = data["totals"]
    print(
        f"documents {t['documents']}: indexed {t['indexed']}, failed {t['failed']}; "
        f"chunks {t['chunks']}; over-window chunks {t['over_window_chunks']}"
    )
    hint = over_window_hint(t["over_window_chunks"], emb["max_tokens"], ch["chunk_size"])
    if hint:
        print(hint)
    print()
    print(f"{'status':8} {'chunks':>6} {'pages':>5} {'empty':>5} {'over':>4}  {'access':8} source")
    for d in sorted(data["documents"].values(), key=lambda d: d["source"]):
        print(
            f"{d['status']:8} {d.get('chunks', 0):>6} {d.get('pages') or '-':>5} "
            f"{len(d.get('empty_pages') or []):>5} {d.get('over_window_chunks', 0):>4}  "
            f"{d.get('access', ''):8} {d['source']}"
        )
    _print_document_metadata(data["documents"].values())
    _print_blocks(data["documents"].values())
    failed = [d for d in data["documents"].values() if d["status"] == "failed"]
    if failed:
        print("\nfailed documents (retried on the next ingest):")
        for d in failed:
            print(f"  {d['source']}: {d.get('reason')}")
    hidden = [d for d in data["documents"].values() if d.get("hidden_chars")]
    if hidden:
        print("\nhidden content left out of the index (not visible in the rendered document):")
        for d in hidden:
            print(f"  {d['source']}: {d['hidden_chars']} characters")
    planted = [d for d in data["documents"].values() if d.get("instruction_sentences")]
    if planted:
        print(
            "\ninstruction-shaped sentences (indexed as data; never quoted, and marked for a "
            "chat model):"
        )
        for d in planted:
            print(f"  {d['source']}: {d['instruction_sentences']}")
    _print_ocr(data["documents"].values())
    empties = [d for d in data["documents"].values() if d.get("empty_pages")]
    if empties:
        print("\npages with no or almost no text (check them; scanned pages need OCR):")
        for d in empties:
            print(f"  {d['source']}: pages {d['empty_pages']}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser."""
    from citerag.embeddings import PRECISIONS

    p = argparse.ArgumentParser(prog="citerag", description=__doc__)
    p.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    sub = p.add_subparsers(dest="command", required=True)

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument(
            "--index",
            type=index_location,
            default=None,
            help=f"index directory (default {DEFAULT_INDEX}) or a store URL",
        )
        sp.add_argument(
            "--store",
            type=store_url,
            default=None,
            metavar="URL",
            help="a PostgreSQL store (postgresql+psycopg://user@host/db[?namespace=NAME]) "
            f"instead of the index directory (default ${STORE_ENV})",
        )
        sp.add_argument("--json", action="store_true", help="machine-readable output")

    sp = sub.add_parser("ingest", help="add, update and prune documents in the index")
    common(sp)
    sp.add_argument("paths", nargs="+", help="files and folders to ingest")
    sp.add_argument(
        "--embedding-model",
        default=None,
        help="Hugging Face name or local directory (default: bundled MiniLM)",
    )
    sp.add_argument(
        "--embedding-precision",
        choices=PRECISIONS,
        default=PRECISIONS[0],
        help="forward passes in bfloat16 where the CPU has it natively (auto), "
        "or always fp32 / bf16",
    )
    sp.add_argument("--chunk-size", type=int, default=600)
    sp.add_argument("--chunk-overlap", type=int, default=80)
    sp.add_argument(
        "--no-header",
        action="store_true",
        help="do not prefix embedded text with 'title > section'",
    )
    sp.add_argument(
        "--table-rows",
        action="store_true",
        help="chunk tables by whole rows, each row's embedded text carrying the table's title "
        "and column headers (off by default: not better on the measured filings)",
    )
    sp.add_argument(
        "--no-table-titles",
        action="store_true",
        help="do not add the title of the table a chunk is cut from to its embedded header "
        "(on by default: it finds statement pages first more often)",
    )
    sp.add_argument(
        "--no-qa-pairs",
        action="store_true",
        help="pack several FAQ question-and-answer pairs into one chunk up to the chunk size "
        "(by default each pair starts a chunk of its own)",
    )
    sp.add_argument(
        "--no-sentence-vectors",
        action="store_true",
        help="skip sentence vectors (faster ingest; disables the sentence reranker)",
    )
    sp.add_argument(
        "--access",
        type=access_label,
        default="public",
        metavar="LABEL",
        help="access label for files no .citerag-access.json rule matches "
        "(a label name such as public, board or hr-staff; never empty)",
    )
    sp.add_argument(
        "--no-prune",
        action="store_true",
        help="keep documents whose files disappeared from an ingested folder",
    )
    sp.add_argument(
        "--no-ocr",
        action="store_true",
        help="do not OCR scanned pages and images (they fail needs_ocr; same as CITERAG_OCR=0)",
    )
    sp.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    sp.set_defaults(func=cmd_ingest)

    sp = sub.add_parser("inspect", help="print the index manifest's parsing review")
    common(sp)
    sp.set_defaults(func=cmd_inspect)

    import importlib

    for module in COMMAND_MODULES:  # each module adds its own subcommands
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        mod.register(sub, common)
    return p


#: Exit status of a command interrupted by Ctrl-C (SIGINT), as shells report it: 128 + 2.
EXIT_INTERRUPTED = 130
#: Exit status of a command whose reader went away (``citerag inspect | head -3``), as shells
#: report a tool ended by SIGPIPE: 128 + 13.
EXIT_BROKEN_PIPE = 141


def _stdout_broken() -> bool:
    """Whether standard output is the broken pipe: its reader is gone (``poll`` reports an
    error on it). Where that cannot be asked (no ``poll``), a broken pipe is taken to be
    standard output's; where standard output has no file descriptor (a test's capture), it
    is not."""
    import select

    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError, AttributeError):
        return False
    if not hasattr(select, "poll"):
        return True
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    return any(ev & (select.POLLERR | select.POLLHUP) for _fd, ev in poller.poll(0))


def _silence_stdout() -> None:
    """Point standard output at ``/dev/null`` after a broken pipe, so that the interpreter's
    last flush at exit does not fail (and print) again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real file descriptor (a test's capture)
        pass


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``citerag`` console script.

    A usage error (a bad value, a missing file, a file that cannot be read) is one line on
    stderr and status 2; Ctrl-C is ``citerag: interrupted`` and status
    :data:`EXIT_INTERRUPTED`, whatever the command was doing (an ingest left half done keeps
    the previous index: it publishes atomically). Output piped into a reader that stops early
    (``| head``) ends the command quietly, status :data:`EXIT_BROKEN_PIPE`, as other Unix
    tools do.
    """
    for key, value in QUIET_ENV.items():
        os.environ.setdefault(key, value)
    parser = build_parser()
    args = parser.parse_args(argv)
    _setup_logging(args.verbose)
    try:
        resolve_location(args)
        result: Any = args.func(args)
        sys.stdout.flush()  # a pipe's buffered output fails here, not at the interpreter's exit
    except BrokenPipeError as exc:
        if not _stdout_broken():  # another pipe or socket of the command: an error
            print(f"citerag: error: {exc}", file=sys.stderr)
            return 2
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except (OSError, ValueError, RuntimeError) as exc:
        print(f"citerag: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nciterag: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
