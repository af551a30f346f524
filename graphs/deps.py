"""Heavy dependencies of the graph, built once and injected into :func:`graphs.rag.build_graph`.

Two ways to get them, and no other:

* :meth:`GraphDeps.from_index` opens an index directory (embedding model check, manifest id,
  the index's gate calibration);
* :meth:`GraphDeps.from_store` wraps any LangChain ``VectorStore`` you already hold.

Everything that answers or measures (CLI, server, evaluation, calibration, benchmarks,
notebooks) builds its graph from one of these, so what is measured is what users run.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from chains.answer_checks import REFUSAL_RULES
from chains.answerers import Answerer, make_answerer
from chains.constraints import Gazetteer
from chains.rerank import Reranker, make_reranker
from chains.retrieval import HybridRetriever
from chains.watchdog import WatchedModel
from citerag.stores.contract import SearchIndex, as_search_index, document_key
from graphs.config import RAGConfig
from loaders.access import PUBLIC, allowed_labels

#: Document-level metadata the ``constrain`` node reads (copied onto every chunk at ingest).
DOCUMENT_FIELDS = (
    "doc_id",
    "doc_name",
    "title",
    "company",
    "company_aliases",
    "period",
    "period_source",
    "period_span",
    "period_end",
    "doc_type",
    "years",
    "access",
)

if TYPE_CHECKING:
    from citerag.embeddings import EmbeddingModel
    from citerag.stores.handles import LoadedIndex


def _query_cache(inner: Embeddings) -> Embeddings:
    """The store's model behind a small cache of question vectors, so a question is embedded
    once per run (retrieval, then the extractive answerer scoring sentences), as the server's
    :class:`~citerag.batching.EmbeddingBatcher` does; each call is still the model's own
    ``embed_query`` (no batching)."""
    from citerag.batching import EmbeddingBatcher

    return EmbeddingBatcher(inner, batching=False, cache_size=QUERY_CACHE_SIZE)


#: Question vectors a :class:`GraphDeps` built without ``embeddings=`` keeps.
QUERY_CACHE_SIZE = 256


@dataclass
class GraphDeps:
    """Everything the nodes need that is expensive to build.

    Attributes:
        retriever: First-stage retriever over the index.
        embeddings: The index's embedding model.
        store: The index the nodes read (:class:`~citerag.stores.contract.SearchIndex`; any
            other store given is wrapped once by
            :func:`~citerag.stores.contract.as_search_index`, which says what degrades).
        manifest_id: Build id of the loaded index, recorded in traces.
        embedding_model: Embedding model identity, recorded in traces.
        answerer: An injected answerer or chat model; overrides ``config.model``.
        rewriter: A chat model that rewrites follow-up questions (the ``condense`` node);
            ``None`` = the answering chat model when there is one, else the offline rule.
        rerankers: Injected rerankers by config name (others are built lazily and cached).
        calibration: Gate thresholds calibrated for this index (``INDEX/calibration.json``),
            overriding the packaged defaults per score name.
        index: The loaded index build (manifest, build folder) when built by
            :meth:`from_index`.
    """

    retriever: HybridRetriever
    embeddings: Embeddings
    store: SearchIndex | Any = None
    manifest_id: str = ""
    embedding_model: str = ""
    answerer: Answerer | BaseChatModel | None = None
    rewriter: BaseChatModel | None = None
    rerankers: dict[str, Reranker] = field(default_factory=dict)
    calibration: dict[str, Any] = field(default_factory=dict)
    index: LoadedIndex | None = None
    _answerers: dict[Any, Answerer] = field(default_factory=dict, repr=False)
    _documents: list[dict[str, Any]] | None = field(default=None, repr=False)
    _gazetteers: dict[tuple[str, ...], Gazetteer] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        """Hold the store through the contract (wrapped once when it is not an index)."""
        if self.store is not None:
            self.store = as_search_index(self.store)

    @classmethod
    def from_store(
        cls,
        store: Any,
        *,
        embeddings: Embeddings | None = None,
        lexical: Any | None = None,
        model: BaseChatModel | Answerer | None = None,
        rerankers: dict[str, Reranker] | None = None,
        manifest_id: str = "",
        embedding_model: str = "",
        calibration: dict[str, Any] | None = None,
    ) -> GraphDeps:
        """Dependencies over a store you already hold.

        Args:
            store: The vector store (a :class:`~citerag.stores.faiss.store.CiteragStore` gives
                dense, BM25 and sentence vectors; any LangChain ``VectorStore`` with dict
                filters works for dense retrieval).
            embeddings: Query embedder (defaults to ``store.embeddings`` behind a cache of
                :data:`QUERY_CACHE_SIZE` question vectors).
            lexical: BM25 search (defaults to the store when it has ``bm25_search``).
            model: A chat model or answerer; overrides ``configurable.model``.
            rerankers: Prebuilt rerankers by config name (e.g. a loaded cross-encoder).
            manifest_id: Index build id, recorded in traces.
            embedding_model: Embedding model identity, recorded in traces.
            calibration: Gate thresholds per score name, overriding the packaged defaults.

        Raises:
            ValueError: Neither ``embeddings`` nor ``store.embeddings`` is set.
        """
        index = as_search_index(store)
        emb = embeddings
        if emb is None:
            own = index.embeddings
            if own is None:
                raise ValueError("the store has no embedding model: pass embeddings=")
            emb = _query_cache(own)
        return cls(
            retriever=HybridRetriever(index, lexical=lexical, embeddings=emb),
            embeddings=emb,
            store=index,
            manifest_id=manifest_id,
            embedding_model=embedding_model,
            answerer=model,
            rerankers=dict(rerankers or {}),
            calibration=dict(calibration or {}),
        )

    @classmethod
    def from_index(
        cls,
        index_dir: Path | str,
        *,
        embedding_model: EmbeddingModel | str | None = None,
        embeddings: Embeddings | None = None,
        model: BaseChatModel | Answerer | None = None,
        rerankers: dict[str, Reranker] | None = None,
        calibration: dict[str, Any] | None = None,
    ) -> GraphDeps:
        """Open an index directory written by ``citerag ingest``.

        Args:
            index_dir: The index directory.
            embedding_model: A loaded :class:`~citerag.embeddings.EmbeddingModel` to reuse,
                or a model name/directory to load (``None`` = the bundled MiniLM).
            embeddings: Query embedder to use instead of the model's own (e.g. a cache
                around it); must be the same model.
            model: A chat model or answerer; overrides ``configurable.model``.
            rerankers: Prebuilt rerankers by config name.
            calibration: Gate thresholds; ``None`` = the index's ``calibration.json``.

        Raises:
            IndexNotFoundError: Nothing has been ingested into ``index_dir``.
            IndexMismatchError: The index was built with another embedding model.
        """
        from citerag.embeddings import EmbeddingModel, load_embedding_model
        from citerag.stores.calibration import read_calibration
        from citerag.stores.loaded import load_index

        emb = (
            embedding_model
            if isinstance(embedding_model, EmbeddingModel)
            else load_embedding_model(embedding_model)
        )
        loaded = load_index(index_dir, emb)
        deps = cls.from_store(
            loaded.store,
            embeddings=embeddings or _query_cache(emb.embeddings),
            model=model,
            rerankers=rerankers,
            manifest_id=loaded.manifest_id,
            embedding_model=emb.name,
            calibration=read_calibration(index_dir) if calibration is None else calibration,
        )
        deps.index = loaded
        return deps

    def with_answerer(self, model: BaseChatModel | Answerer | None) -> GraphDeps:
        """The same index dependencies with another injected answerer (shares rerankers)."""
        return GraphDeps(
            retriever=self.retriever,
            embeddings=self.embeddings,
            store=self.store,
            manifest_id=self.manifest_id,
            embedding_model=self.embedding_model,
            answerer=model,
            rewriter=self.rewriter,
            rerankers=self.rerankers,
            calibration=self.calibration,
            index=self.index,
            _documents=self._documents,
            _gazetteers=self._gazetteers,
        )

    def documents(self) -> list[dict[str, Any]]:
        """One metadata record per indexed document (read once from the store's chunks).

        A store that cannot list its documents (a wrapped plain ``VectorStore``) yields
        none, and the ``constrain`` node then applies nothing.
        """
        with self._lock:
            if self._documents is None:
                seen: dict[str, dict[str, Any]] = {}
                metas = () if self.store is None else self.store.iter_document_metadata()
                for meta in metas:
                    doc_id = document_key(meta)
                    if doc_id and doc_id not in seen:
                        seen[doc_id] = {k: meta.get(k) for k in DOCUMENT_FIELDS}
                self._documents = list(seen.values())
            return self._documents

    def gazetteer(self, user_groups: list[str] | None) -> Gazetteer:
        """The gazetteer of the documents these groups may read (built once per label set).

        Built from readable documents only, so a company that only restricted documents are
        about is, to a caller without the label, exactly like a company not indexed at all.
        """
        labels = tuple(sorted(allowed_labels(list(user_groups or []))))
        docs = self.documents()
        with self._lock:
            gaz = self._gazetteers.get(labels)
            if gaz is None:
                if len(self._gazetteers) >= 64:
                    self._gazetteers.clear()
                gaz = Gazetteer(d for d in docs if d.get("access", PUBLIC) in labels)
                self._gazetteers[labels] = gaz
            return gaz

    def reranker(self, spec: str) -> Reranker:
        """The reranker for a config name, built once."""
        with self._lock:
            if spec not in self.rerankers:
                self.rerankers[spec] = make_reranker(spec, self.embeddings, self.store)
            return self.rerankers[spec]

    def answerer_for(self, cfg: RAGConfig) -> Answerer:
        """The injected answerer, else the one ``cfg.model`` names, built once per distinct
        answerer setting (the cache key is the very arguments it is built with)."""
        if self.answerer is not None:
            spec: Any = self.answerer
            # an injected chat model keeps its own client settings; the watchdog's deadline
            # (``model_timeout_s``) still applies to it
            kwargs: dict[str, Any] = (
                {"settings": cfg.model_settings(), "structured": cfg.structured_output}
                if isinstance(spec, BaseChatModel)
                else {}
            )
            key: Any = ("__injected__", tuple(sorted(kwargs.items())))
        else:
            spec = cfg.model
            kwargs = {
                "temperature": cfg.temperature,
                "focus_coverage": cfg.focus_coverage,
                "read_passages": cfg.extractive_passages,
                "settings": cfg.model_settings(),
                "structured": cfg.structured_output,
                **{rule: getattr(cfg, rule) for rule in REFUSAL_RULES},
            }
            key = (spec, tuple(sorted(kwargs.items())))
        with self._lock:
            if key not in self._answerers:
                self._answerers[key] = make_answerer(spec, self.embeddings, self.store, **kwargs)
            return self._answerers[key]

    def rewrite_model(self, cfg: RAGConfig) -> WatchedModel | None:
        """The chat model that rewrites follow-ups, behind the run's watchdog
        (:mod:`chains.watchdog`): the injected ``rewriter`` (with the run's deadline; its
        client keeps its own retries), else the answering chat model's (``None`` for the
        extractive answerer: the offline rule)."""
        from chains.answerers import ChatModelAnswerer
        from chains.models import ModelSetupError

        if self.rewriter is not None:
            return WatchedModel(self.rewriter, cfg.model_settings())

        try:
            answerer = self.answerer_for(cfg)
        except ModelSetupError:  # the generate node reports it; the offline rule rewrites
            return None
        return answerer.watched if isinstance(answerer, ChatModelAnswerer) else None
