"""Regenerate the generated blocks of the reference pages: ``python -m citerag.reference_pages``.

Three pages of ``docs/reference/`` carry a block generated from the code, between
``<!-- NAME:begin -->`` and ``<!-- NAME:end -->`` markers, with hand-written prose around it:

* ``configuration.md``, ``config-table``: :func:`graphs.config.config_table_markdown`
  (``RAGConfig`` and its fields' metadata);
* ``cli.md``, ``cli-reference``: :func:`citerag.cli_reference.cli_reference_markdown`
  (the argument parser);
* ``http-routes.md``, ``http-routes``:
  :func:`citerag.server.routes_reference.app_routes_reference` (the app's OpenAPI);

and each page of the API reference (``docs/reference/api/``), ``api``: its
mkdocstrings ``::: name`` lines, from :data:`API_PAGES` (the one list of what the API
reference documents; mkdocstrings renders the docstrings when the site is built).

A unit test per page fails when its block and the code disagree; this module rewrites the
blocks (``--check``: only report which are stale, exit 1 if any).
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

#: The repository's documentation folder.
DOCS = Path(__file__).resolve().parents[1] / "docs"


@dataclass(frozen=True)
class GeneratedBlock:
    """One generated block of a page.

    Attributes:
        page: The Markdown page, relative to ``docs/``.
        marker: ``NAME`` of the ``<!-- NAME:begin -->`` / ``<!-- NAME:end -->`` markers.
        render: Returns the block's current content (imported lazily: the app, the parser).
    """

    page: str
    marker: str
    render: Callable[[], str]

    @property
    def begin(self) -> str:
        """The opening marker."""
        return f"<!-- {self.marker}:begin -->"

    @property
    def end(self) -> str:
        """The closing marker."""
        return f"<!-- {self.marker}:end -->"


def _config_table() -> str:
    from graphs.config import config_table_markdown

    return config_table_markdown()


def _cli() -> str:
    from citerag.cli_reference import cli_reference_markdown

    return cli_reference_markdown()


def _routes() -> str:
    from citerag.server.routes_reference import app_routes_reference

    return app_routes_reference()


#: The API reference: page (under ``docs/``) -> the objects it documents, in order, by the
#: name mkdocstrings finds them under (read statically by griffe: nothing is imported). The
#: one list of documented modules: prefer ``citerag``'s public names (they follow a module
#: that moves); a module path that changes is one edit here, then
#: ``python -m citerag.reference_pages``.
API_PAGES: dict[str, tuple[str, ...]] = {
    "reference/api/public.md": (
        "citerag.build_graph",
        "citerag.load_default_graph",
        "citerag.checkpoint_serde",
        "citerag.GraphDeps",
        "citerag.RAGConfig",
        "citerag.ExtractiveRules",
        "citerag.ingest",
        "citerag.IngestReport",
        "citerag.load_index",
        "citerag.LoadedIndex",
        "citerag.load_embedding_model",
        "citerag.ChunkSettings",
        "citerag.load_file",
        "citerag.process_file",
    ),
    "reference/api/state.md": ("graphs.state", "graphs.records"),
    "reference/api/store.md": (
        "citerag.SearchIndex",
        "citerag.as_search_index",
        "citerag.stores.contract.VectorStoreIndex",
        "citerag.stores.backend.Backend",
        "citerag.stores.backend.Coordination",
        "citerag.stores.dispatch.backend_for",
    ),
    "reference/api/loaders.md": ("loaders.base", "loaders.blocks"),
    "reference/api/chains.md": (
        "chains.candidates.Candidate",
        "chains.directions.split_directions",
        "chains.directions.Directions",
        "chains.retrieval.HybridRetriever",
        "chains.retrieval.RetrievalResult",
        "chains.retrieval.CiteragRetriever",
        "chains.rerank.Reranker",
        "chains.rerank.SentenceReranker",
        "chains.rerank.make_reranker",
        "chains.gate.GateSettings",
        "chains.gate.GateDecision",
        "chains.gate.decide",
        "chains.assemble.Passage",
        "chains.assemble.AssembledContext",
        "chains.assemble.assemble",
        "chains.answerers.Answerer",
        "chains.answerers.ExtractiveAnswerer",
        "chains.answerers.ChatModelAnswerer",
        "chains.answerers.make_answerer",
        "chains.citations.ParsedOutput",
        "chains.citations.Validation",
        "chains.citations.validate",
        "chains.citations.build_citations",
        "chains.citations.source_record",
        "chains.citations.build_looked_at",
    ),
}


def api_block(names: tuple[str, ...]) -> Callable[[], str]:
    """The renderer of an API page's block: one mkdocstrings ``::: name`` line per object."""
    return lambda: "\n\n".join(f"::: {name}" for name in names)


#: Every generated block of the documentation.
BLOCKS = (
    GeneratedBlock("reference/configuration.md", "config-table", _config_table),
    GeneratedBlock("reference/cli.md", "cli-reference", _cli),
    GeneratedBlock("reference/http-routes.md", "http-routes", _routes),
    *(GeneratedBlock(page, "api", api_block(names)) for page, names in API_PAGES.items()),
)


def regenerate(text: str, block: GeneratedBlock) -> str:
    """``text`` with its generated block replaced by ``block.render()``.

    Raises:
        ValueError: The page lacks the block's markers.
    """
    if block.begin not in text or block.end not in text:
        raise ValueError(f"{block.page} lacks the {block.begin} / {block.end} markers")
    head, rest = text.split(block.begin, 1)
    tail = rest.split(block.end, 1)[1]
    return f"{head}{block.begin}\n{block.render()}\n{block.end}{tail}"


def update(docs: Path = DOCS, *, check: bool = False) -> list[str]:
    """Rewrite every stale generated block (or, with ``check``, only find them).

    Args:
        docs: The documentation folder.
        check: Leave the pages as they are.

    Returns:
        The pages whose block was (or, with ``check``, would be) rewritten.
    """
    stale = []
    for block in BLOCKS:
        page = docs / block.page
        text = page.read_text(encoding="utf-8")
        new = regenerate(text, block)
        if new != text:
            stale.append(block.page)
            if not check:
                page.write_text(new, encoding="utf-8")
    return stale


def main(argv: list[str] | None = None) -> int:
    """Command line: regenerate (or ``--check``) the reference pages' blocks."""
    parser = argparse.ArgumentParser(prog="python -m citerag.reference_pages", description=__doc__)
    parser.add_argument("--check", action="store_true", help="only report stale pages")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    stale = update(check=args.check)
    for page in stale:
        log.info("%s: %s", page, "stale" if args.check else "regenerated")
    if not stale:
        log.info("every generated block is current")
    return 1 if (stale and args.check) else 0


if __name__ == "__main__":
    raise SystemExit(main())
