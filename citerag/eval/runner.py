"""Run questions through the answering graph's retrieval prefix and score them.

Retrieval is evaluated with the **compiled graph** itself, stopped after assembly
(``build_graph(deps, stop_after="assemble")``: ``retrieve`` → ``rerank`` → ``gate`` →
``assemble``), so what is measured is what the graph does — every stage added to the graph
is in every evaluation — minus the generation call, which retrieval figures must not depend
on. Generation figures (:func:`run_generation`) invoke the full compiled graph.

For every answerable question the runner records where its evidence was lost, in pipeline
order (**failure attribution**):

``not_in_index``
    No chunk contains any evidence item whole (see :mod:`citerag.eval.evidence`; the detail
    says ``destroyed``, ``not_in_source`` or ``doc_not_indexed``).
``not_in_candidates``
    No hit among the first stage's ``k`` fused candidates.
``dropped_by_gate``
    The gate refused the question, or every hit scored below the threshold (assembly keeps
    only candidates at or above it).
``dropped_by_rerank``
    A hit passed the gate but the second stage ranked it below the context cut
    (``max_passages`` / token budget), or it was dropped as a near-duplicate. With reranker
    ``none`` the first-stage order is the final order.
``in_context``
    A hit chunk is among the passages the model would read.

Ranking metrics use the final (post-rerank) order of the top ``k`` candidates. Query
embeddings are cached, so several configurations over one question set embed each question
once.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_core.embeddings import Embeddings
from tqdm.auto import tqdm

from chains.citations import CITATION_MARKER, marker_parts
from chains.gate import candidate_signals
from citerag.eval import metrics as stats
from citerag.eval.evidence import (
    DESTROYED,
    DOC_NOT_INDEXED,
    INDEXED,
    NOT_IN_SOURCE,
    SOURCE_UNAVAILABLE,
    IndexedCorpus,
)
from citerag.eval.questions import Question

if TYPE_CHECKING:
    from chains.assemble import Passage
    from chains.citations import Validation
    from chains.gate import GateDecision

log = logging.getLogger(__name__)

KS = (1, 4, 8, 20)
MRR_CUTOFF = 20
NDCG_K = 10
ATTRIBUTIONS = (
    "in_context",
    "dropped_by_rerank",
    "dropped_by_gate",
    "not_in_candidates",
    "not_in_index",
)

#: Named configurations (values go to ``RunnableConfig["configurable"]``).
PRESETS: dict[str, dict[str, Any]] = {
    "dense": {"retrieval_mode": "dense", "reranker": "none"},
    "bm25": {"retrieval_mode": "bm25", "reranker": "none"},
    "hybrid": {"retrieval_mode": "hybrid", "reranker": "none"},
    "hybrid+sentence": {"retrieval_mode": "hybrid", "reranker": "sentence"},
    "default": {},
}
DEFAULT_CONFIGS = ("dense", "bm25", "hybrid", "hybrid+sentence")


# ------------------------------------------------------------------------------------------
# configurations
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EvalConfig:
    """A named graph configuration.

    Attributes:
        name: Label used in tables and comparisons.
        configurable: ``RAGConfig`` keys (e.g. ``{"retrieval_mode": "bm25"}``).
    """

    name: str
    configurable: tuple[tuple[str, Any], ...]

    @property
    def conf(self) -> dict[str, Any]:
        """The configurable dict."""
        return dict(self.configurable)

    def runnable(self) -> dict[str, Any]:
        """``{"configurable": {...}}`` for the graph."""
        return {"configurable": self.conf}


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_config(spec: str) -> EvalConfig:
    """Parse a configuration spec.

    Accepted forms:

    * a preset: ``dense``, ``bm25``, ``hybrid``, ``hybrid+sentence``, ``default``;
    * ``hybrid+ce:NAME_OR_DIR`` — hybrid retrieval reranked by a cross-encoder;
    * ``key=value,key=value`` — any ``RAGConfig`` keys (``retrieval_mode=dense,k=30``),
      optionally prefixed by a preset and a colon (``hybrid:gate_threshold=0.5``);
    * ``NAME=@file.json`` or ``@file.json`` — a JSON object of ``RAGConfig`` keys.

    Raises:
        ValueError: Unknown preset, unknown key or bad value.
    """
    from graphs.config import RAGConfig, knobs

    spec = spec.strip()
    name = spec
    conf: dict[str, Any]
    if "=@" in spec or spec.startswith("@"):
        name, _, path = spec.partition("@")
        name = name.rstrip("=") or Path(path).stem
        conf = json.loads(Path(path).read_text(encoding="utf-8"))
        if not isinstance(conf, dict):
            raise ValueError(f"{path}: expected a JSON object of configuration keys")
    elif spec in PRESETS:
        conf = dict(PRESETS[spec])
    elif spec.startswith(("hybrid+ce:", "hybrid+cross-encoder:")):
        conf = {"retrieval_mode": "hybrid", "reranker": "cross-encoder:" + spec.split(":", 1)[1]}
    elif "=" in spec:
        base, _, rest = spec.partition(":") if ":" in spec.split("=", 1)[0] else ("", "", spec)
        if base and base not in PRESETS:
            raise ValueError(f"unknown preset {base!r} in {spec!r}")
        conf = dict(PRESETS[base]) if base else {}
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise ValueError(f"bad configuration item {part!r} in {spec!r}")
            conf[key.strip()] = _value(value.strip())
    else:
        raise ValueError(
            f"unknown configuration {spec!r}: use one of "
            f"{', '.join(PRESETS)}, hybrid+ce:NAME, key=value,... or @file.json"
        )
    unknown = set(conf) - set(knobs())
    if unknown:
        raise ValueError(f"unknown configuration keys {sorted(unknown)} in {spec!r}")
    RAGConfig.from_runnable_config({"configurable": conf})  # validates
    return EvalConfig(name, tuple(sorted(conf.items())))


# ------------------------------------------------------------------------------------------
# cached query embeddings
# ------------------------------------------------------------------------------------------


class CachedEmbeddings(Embeddings):
    """Wrap an ``Embeddings`` and cache ``embed_query`` results (documents pass through)."""

    def __init__(self, inner: Embeddings, max_size: int = 200_000) -> None:
        """Wrap ``inner``."""
        self.inner = inner
        self.max_size = max_size
        self._cache: dict[str, list[float]] = {}

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed documents (not cached)."""
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        """Embed a query, from the cache when seen before."""
        got = self._cache.get(text)
        if got is None:
            got = self.inner.embed_query(text)
            if len(self._cache) < self.max_size:
                self._cache[text] = got
        return list(got)

    def save(self, path: Path, model_name: str) -> None:
        """Persist the cache (``.npz``) for later runs with the same model."""
        import numpy as np

        texts = list(self._cache)
        vecs = np.asarray([self._cache[t] for t in texts], dtype=np.float32)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez(
            tmp, texts=np.asarray(texts, dtype=object), vectors=vecs, model=np.asarray(model_name)
        )
        tmp.replace(path)

    def load(self, path: Path, model_name: str) -> int:
        """Load a cache saved by :meth:`save` for the same model; return entries loaded."""
        import numpy as np

        if not path.exists():
            return 0
        data = np.load(path, allow_pickle=True)
        if str(data["model"]) != model_name:
            return 0
        for t, v in zip(data["texts"], data["vectors"], strict=True):
            self._cache.setdefault(str(t), v.tolist())
        return len(data["texts"])

    def prefetch(self, texts: Sequence[str], progress: bool = True, batch: int = 128) -> None:
        """Embed many queries in batches (when the model embeds queries and documents alike).

        A model with a batched question path (``embed_queries``: citerag's
        ``SentenceEmbeddings``, the path a server's batcher takes) embeds them through it.
        Sentence-transformers models wrapped by ``HuggingFaceEmbeddings`` without query
        prompts embed a query exactly as a one-document batch, so batching gives the same
        vectors, much faster; any other model is embedded query by query.
        """
        todo = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if not todo:
            return
        batched = getattr(self.inner, "embed_queries", None)
        hf = any(c.__name__ == "HuggingFaceEmbeddings" for c in type(self.inner).__mro__)
        if batched is None and hf and not getattr(self.inner, "query_encode_kwargs", None):
            batched = self.inner.embed_documents
        bar = tqdm(total=len(todo), unit="q", desc="embed questions", disable=not progress)
        for i in range(0, len(todo), batch):
            part = todo[i : i + batch]
            vecs = batched(part) if batched else [self.inner.embed_query(t) for t in part]
            for t, v in zip(part, vecs, strict=True):
                self._cache[t] = list(v)
            bar.update(len(part))
        bar.close()


# ------------------------------------------------------------------------------------------
# per-question results
# ------------------------------------------------------------------------------------------


@dataclass
class QuestionResult:
    """What happened to one question under one configuration.

    Attributes:
        id: Question id.
        unanswerable: Whether the question is unanswerable.
        evidence_status: Status of each evidence item (``indexed``, ``destroyed``, ...).
        item_ranks: Per evidence item, 1-based rank of its first hit in the final order.
        first_hit: Rank of the first hit in the final order (``None``: no hit in top k).
        first_stage_hit: Rank of the first hit in the first-stage (fused) order.
        gate_passed: Whether the gate let the question through.
        gate_score: Name of the score the gate compared (``rerank`` or ``dense``).
        gate_best: Best candidate's gate score.
        threshold: Gate threshold.
        best_rerank: Best ``rerank`` score among candidates.
        best_dense: Best ``dense`` cosine among candidates.
        in_context: Whether a hit is among the assembled passages.
        attribution: Where the evidence was lost (answerable only; '' otherwise).
        detail: Human detail of the attribution.
        top: Chunk ids of the first five candidates (final order).
        grades: Evidence grades (for nDCG).
        judged: Whether the evidence items are separate document-level relevance judgments
            (qrels: each relevant document counts in nDCG) rather than alternative locations
            of one answer (nDCG then credits the first hit only).
        hit_rerank: Best ``rerank`` score of a hit within the first ``max_passages`` of the
            final order (``None`` if no hit there) — for calibration curves.
        hit_dense: Same for the ``dense`` score.
        top_docs: Document names of the first five candidates (final order).
        constrained: Whether the question's constraints narrowed retrieval (a hard filter).
        refusal: Why the ``constrain`` node refused the question before retrieval ('' if
            it did not).
        top_signals: The answerability signals (:func:`chains.gate.candidate_signals`) of
            the first candidate in the final order (``None`` without candidates), for
            fitting the answerability gate.
    """

    id: str
    unanswerable: bool
    evidence_status: list[str]
    item_ranks: list[int | None]
    first_hit: int | None
    first_stage_hit: int | None
    gate_passed: bool
    gate_score: str
    gate_best: float | None
    threshold: float
    best_rerank: float | None
    best_dense: float | None
    in_context: bool
    attribution: str
    detail: str
    top: list[str] = field(default_factory=list)
    grades: list[float] = field(default_factory=list)
    judged: bool = False
    hit_rerank: float | None = None
    hit_dense: float | None = None
    top_docs: list[str] = field(default_factory=list)
    constrained: bool = False
    refusal: str = ""
    top_signals: dict[str, float] | None = None

    @property
    def destroyed(self) -> bool:
        """No evidence item is indexed and at least one is destroyed."""
        return (
            not self.unanswerable
            and INDEXED not in self.evidence_status
            and DESTROYED in self.evidence_status
        )

    def ndcg(self, k: int = NDCG_K) -> float:
        """nDCG@k: graded over documents for judged evidence, else of the first hit."""
        if self.judged:
            return stats.ndcg_at_k(self.item_ranks, self.grades or [1.0] * len(self.item_ranks), k)
        return stats.ndcg_at_k([self.first_hit], [1.0], k)

    def hit_at(self, k: int) -> bool:
        """First hit within the top ``k``."""
        return self.first_hit is not None and self.first_hit <= k

    def to_json(self) -> dict[str, Any]:
        """JSON-friendly record."""
        out = dict(self.__dict__)
        for key in ("gate_best", "best_rerank", "best_dense", "hit_rerank", "hit_dense"):
            if out[key] is not None:
                out[key] = round(out[key], 6)
        return out


@dataclass
class ConfigRun:
    """All results of one configuration over one question set.

    Attributes:
        config: The configuration.
        results: Per-question results in question order.
    """

    config: EvalConfig
    results: list[QuestionResult]

    @property
    def answerable(self) -> list[QuestionResult]:
        """Results of answerable questions."""
        return [r for r in self.results if not r.unanswerable]

    @property
    def unanswerable(self) -> list[QuestionResult]:
        """Results of unanswerable questions."""
        return [r for r in self.results if r.unanswerable]

    def summary(self, ks: Sequence[int] = KS) -> dict[str, Any]:
        """Metrics with intervals (see :meth:`summary_objects`), JSON-friendly."""
        return {
            k: (v.to_json() if hasattr(v, "to_json") else v)
            for k, v in self.summary_objects(ks).items()
        }

    def summary_objects(self, ks: Sequence[int] = KS) -> dict[str, Any]:
        """Metric objects: ``recall@k`` (Wilson), ``mrr@20``/``ndcg@10`` (bootstrap), the
        attribution shares, destroyed questions, and refusals of unanswerable questions."""
        ans = self.answerable
        n = len(ans)
        out: dict[str, Any] = {
            "config": self.config.conf,
            "answerable": n,
            "unanswerable": len(self.unanswerable),
        }
        ranks = [r.first_hit for r in ans]
        for k in ks:
            out[f"recall@{k}"] = stats.Proportion(*stats.recall_at_k(ranks, k))
        out[f"mrr@{MRR_CUTOFF}"] = stats.Mean([stats.reciprocal_rank(r, MRR_CUTOFF) for r in ranks])
        out[f"ndcg@{NDCG_K}"] = stats.Mean([r.ndcg(NDCG_K) for r in ans])
        out["in_context"] = stats.Proportion(sum(r.in_context for r in ans), n)
        counts = Counter(r.attribution for r in ans)
        for a in ATTRIBUTIONS:
            out[f"attribution.{a}"] = stats.Proportion(counts.get(a, 0), n)
        out["destroyed"] = stats.Proportion(sum(r.destroyed for r in ans), n)
        out["answerable_refused"] = stats.Proportion(sum(not r.gate_passed for r in ans), n)
        un = self.unanswerable
        out["unanswerable_answered"] = stats.Proportion(sum(r.gate_passed for r in un), len(un))
        return out


def evidence_summary(corpus: IndexedCorpus, questions: Iterable[Question]) -> dict[str, Any]:
    """Evidence items and questions by status: how much evidence the index destroyed.

    Independent of retrieval: computed from the index contents and the source texts.
    """
    items: Counter[str] = Counter()
    qs: Counter[str] = Counter()
    for q in questions:
        if q.unanswerable:
            continue
        statuses = [corpus.status(ev) for ev in q.evidence]
        items.update(statuses)
        for s in (INDEXED, DESTROYED, NOT_IN_SOURCE, SOURCE_UNAVAILABLE, DOC_NOT_INDEXED):
            if s in statuses:
                qs[s] += 1
                break
    n_q = sum(qs.values())
    return {
        "items": dict(items),
        "questions": dict(qs),
        "answerable": n_q,
        "destroyed_questions": stats.Proportion(qs.get(DESTROYED, 0), n_q).to_json(),
        "destroyed_items": stats.Proportion(items.get(DESTROYED, 0), sum(items.values())).to_json(),
    }


# ------------------------------------------------------------------------------------------
# the evaluator
# ------------------------------------------------------------------------------------------


class Evaluator:
    """Runs questions through the compiled graph's prefix (retrieve → rerank → gate →
    assemble, :func:`graphs.rag.build_graph` with ``stop_after="assemble"``) over one index.
    """

    def __init__(
        self,
        store: Any,
        embeddings: Embeddings,
        corpus: IndexedCorpus | None = None,
        *,
        calibration: dict[str, Any] | None = None,
        rerankers: dict[str, Any] | None = None,
        user_groups: list[str] | None = None,
        manifest_id: str = "",
        embedding_model: str = "",
        cache_states: bool = False,
    ) -> None:
        """Bind the graph's dependencies and compile its prefix.

        Args:
            store: The vector store (a ``CiteragStore``).
            embeddings: The index's embedding model (wrapped in a query cache).
            corpus: Index contents for evidence matching (built from ``store`` if omitted).
            calibration: Per-index gate calibration (``INDEX/calibration.json``).
            rerankers: Prebuilt rerankers by config name.
            user_groups: Groups the evaluation runs as.
            manifest_id: Build id (recorded in outputs).
            embedding_model: Embedding model name (recorded in traces).
            cache_states: Keep each (question, configuration)'s stage outputs, so scoring
                the same questions against another evidence definition re-runs nothing.
        """
        from graphs.deps import GraphDeps
        from graphs.rag import build_graph

        self.embeddings = (
            embeddings if isinstance(embeddings, CachedEmbeddings) else CachedEmbeddings(embeddings)
        )
        self.store = store
        self.user_groups = list(user_groups or [])
        self.corpus = corpus or IndexedCorpus.from_store(store, user_groups=self.user_groups)
        self.manifest_id = manifest_id
        self.deps = GraphDeps.from_store(
            store,
            embeddings=self.embeddings,
            manifest_id=manifest_id,
            embedding_model=embedding_model,
            rerankers=rerankers,
            calibration=calibration,
        )
        self.graph = build_graph(self.deps, stop_after="assemble")
        self._states: dict[tuple[str, str], dict[str, Any]] | None = {} if cache_states else None

    def stages(self, question: str, config: EvalConfig) -> dict[str, Any]:
        """Run the graph's prefix on one question; return its whole state.

        The state holds ``candidates`` (after the second stage), ``retrieval`` (with the
        first-stage order), ``reranking``, ``gate`` (a :class:`~chains.gate.GateDecision`)
        and, when the gate passes, ``context``.
        """
        ck = (question, config.name)
        if self._states is not None and ck in self._states:
            return self._states[ck]
        rc: Any = config.runnable()
        state = dict(
            self.graph.invoke(
                {"question": question, "user_groups": self.user_groups, "filters": None}, rc
            )
        )
        if self._states is not None:
            state.pop("model_messages", None)  # the prompt: not needed for scoring
            state.pop("query_vector", None)
            self._states[ck] = state
        return state

    def _refused(self, config: EvalConfig) -> GateDecision:
        """The gate's record for a question the ``constrain`` node refused (no candidates)."""
        from chains import gate as gating
        from graphs.config import RAGConfig

        cfg = RAGConfig.from_runnable_config(config.runnable())  # type: ignore[arg-type]
        settings = gating.resolve(
            gate_score=cfg.gate_score,
            gate_threshold=cfg.gate_threshold,
            reranker_name=self.deps.reranker(cfg.reranker).name,
            calibration=self.deps.calibration,
        )
        return gating.decide([], settings, self.deps.reranker(cfg.reranker).name)

    def run_one(self, q: Question, config: EvalConfig) -> QuestionResult:
        """Evaluate one question under one configuration."""
        from graphs.config import RAGConfig

        state = self.stages(q.question, config)
        cands = state.get("candidates") or []
        ranked = [c.key for c in cands]
        constraints = state.get("constraints")
        refusal = constraints.refusal if constraints is not None else ""
        gate: GateDecision = state["gate"] if "gate" in state else self._refused(config)
        first_stage_keys = state["retrieval"].first_stage if "retrieval" in state else ()
        ctx = state.get("context")
        ctx_keys = [p.candidate.key for p in ctx.passages] if ctx is not None else []
        rer = [c.scores["rerank"] for c in cands if "rerank" in c.scores]
        den = [c.scores["dense"] for c in cands if "dense" in c.scores]
        base: dict[str, Any] = {
            "id": q.id,
            "unanswerable": q.unanswerable,
            "gate_passed": gate.passed,
            "gate_score": gate.score,
            "gate_best": gate.best,
            "threshold": gate.threshold,
            "best_rerank": max(rer) if rer else None,
            "best_dense": max(den) if den else None,
            "top": [self.corpus.chunk_id.get(k, k) for k in ranked[:5]],
            "top_docs": [str(c.meta.get("doc_name") or "") for c in cands[:5]],
            "constrained": bool(constraints is not None and constraints.filter),
            "refusal": refusal,
            "top_signals": candidate_signals(cands[0]) if cands else None,
        }
        if q.unanswerable:
            return QuestionResult(
                evidence_status=[],
                item_ranks=[],
                first_hit=None,
                first_stage_hit=None,
                in_context=False,
                attribution="",
                detail="answered (bluff)" if gate.passed else "refused",
                **base,
            )
        statuses = [self.corpus.status(ev) for ev in q.evidence]
        hit_sets = [self.corpus.hits(ev) for ev in q.evidence]
        hit_any = frozenset().union(*hit_sets)
        item_ranks = [
            next((i for i, k in enumerate(ranked, 1) if k in hs), None) for hs in hit_sets
        ]
        first = min((r for r in item_ranks if r is not None), default=None)
        first_stage = next((i for i, k in enumerate(first_stage_keys, 1) if k in hit_any), None)
        in_context = any(k in hit_any for k in ctx_keys)
        cfg = RAGConfig.from_runnable_config(config.runnable())  # type: ignore[arg-type]
        if INDEXED not in statuses:
            attribution = "not_in_index"
            order = (DESTROYED, NOT_IN_SOURCE, SOURCE_UNAVAILABLE, DOC_NOT_INDEXED)
            detail = next(s for s in order if s in statuses)
        elif refusal:
            attribution, detail = "not_in_candidates", f"refused by constraints: {refusal}"
        elif first_stage is None:
            attribution, detail = "not_in_candidates", f"no hit in the first {cfg.k} candidates"
            if base["constrained"]:
                detail += " (narrowed by the question's constraints)"
        elif not gate.passed:
            attribution = "dropped_by_gate"
            best_txt = "none" if gate.best is None else f"{gate.best:.3f}"
            detail = f"question refused: best {gate.score} {best_txt} < {gate.threshold:.3f}"
        elif not any(c.key in hit_any and gate.passes(c) for c in cands):
            attribution = "dropped_by_gate"
            detail = "every evidence chunk scored below the threshold"
        elif not in_context:
            attribution = "dropped_by_rerank"
            dup = ctx is not None and any(
                self.corpus.chunk_id.get(k) in ctx.dropped_duplicates for k in hit_any
            )
            detail = (
                "dropped as a near-duplicate of a better passage"
                if dup
                else f"best hit at rank {first} after the second stage, context holds "
                f"{len(ctx_keys)} passage(s)"
            )
        else:
            attribution, detail = "in_context", f"hit at rank {first}"
        top_hits = [c for c in cands[: cfg.max_passages] if c.key in hit_any]
        hr = [c.scores["rerank"] for c in top_hits if "rerank" in c.scores]
        hd = [c.scores["dense"] for c in top_hits if "dense" in c.scores]
        return QuestionResult(
            evidence_status=statuses,
            item_ranks=item_ranks,
            first_hit=first,
            first_stage_hit=first_stage,
            in_context=in_context,
            attribution=attribution,
            detail=detail,
            grades=[ev.grade for ev in q.evidence],
            judged=all(
                ev.page is None and ev.needle is None and ev.start is None for ev in q.evidence
            ),
            hit_rerank=max(hr) if hr else None,
            hit_dense=max(hd) if hd else None,
            **base,
        )

    def run(
        self, questions: Sequence[Question], config: EvalConfig, *, progress: bool = True
    ) -> ConfigRun:
        """Evaluate every question under one configuration (with a progress bar)."""
        self.embeddings.prefetch([q.question for q in questions], progress=progress)
        results = [
            self.run_one(q, config)
            for q in tqdm(questions, desc=f"eval {config.name}", unit="q", disable=not progress)
        ]
        return ConfigRun(config, results)


def compare(a: ConfigRun, b: ConfigRun, ks: Sequence[int] = KS) -> dict[str, stats.PairedResult]:
    """Paired comparison of two runs over the same answerable questions.

    Returns:
        ``recall@k`` -> wins/losses/sign test of ``a`` against ``b``, plus ``in_context``.

    Raises:
        ValueError: If the runs did not answer the same questions.
    """
    ra, rb = a.answerable, b.answerable
    if [r.id for r in ra] != [r.id for r in rb]:
        raise ValueError("the two runs must cover the same questions in the same order")
    ids = [r.id for r in ra]
    out = {
        f"recall@{k}": stats.paired([r.hit_at(k) for r in ra], [r.hit_at(k) for r in rb], ids)
        for k in ks
    }
    out["in_context"] = stats.paired([r.in_context for r in ra], [r.in_context for r in rb], ids)
    return out


# ------------------------------------------------------------------------------------------
# generation-side figures
# ------------------------------------------------------------------------------------------


def generation_figures(
    questions: Sequence[Question],
    results: Sequence[dict[str, Any]],
    corpus: IndexedCorpus | None = None,
) -> dict[str, Any]:
    """Figures computed from full graph results (with traces), one per question.

    * ``citation_resolve``: cited ids that name a supplied passage / all cited ids (answers
      that reached validation).
    * ``quote_match``: quotes found verbatim in the cited passage / quotes on valid ids.
    * ``no_evidence`` (answerable and unanswerable separately), ``failed`` (unusable: no
      answer and no honest no-evidence reply), ``answered``.
    * ``cites_evidence``: answered answerable questions citing a chunk that hits the evidence
      (needs ``corpus``).
    """
    resolved = cited_total = quotes_ok = quotes_total = 0
    status: Counter[str] = Counter()
    by_kind: dict[str, Counter[str]] = {"answerable": Counter(), "unanswerable": Counter()}
    cites_ev = answered_ans = 0
    for q, res in zip(questions, results, strict=True):
        st = res.get("status", "failed")
        status[st] += 1
        by_kind["unanswerable" if q.unanswerable else "answerable"][st] += 1
        tr = res.get("trace") or {}
        v = tr.get("validation")
        if v is not None:
            valid = len(v.get("cited") or [])
            invalid = len(v.get("invalid_ids") or [])
            resolved += valid
            cited_total += valid + invalid
            raw = (tr.get("raw_outputs") or [""])[-1]
            fab = v.get("fabricated_quotes") or []
            on_valid_ids = set(v.get("cited") or []) | {f["passage"] for f in fab}
            offered = [
                m
                for m in map(marker_parts, CITATION_MARKER.finditer(raw))
                if m[1] is not None and m[0] in on_valid_ids
            ]
            fabricated = len(fab)
            quotes_total += len(offered)
            quotes_ok += max(0, len(offered) - fabricated)
        if st == "answered" and not q.unanswerable:
            answered_ans += 1
            if corpus is not None:
                gold = set().union(*(corpus.chunk_ids(corpus.hits(ev)) for ev in q.evidence))
                if any(c.get("chunk_id") in gold for c in res.get("citations") or []):
                    cites_ev += 1
    n = len(results)
    n_ans = sum(by_kind["answerable"].values())
    n_un = sum(by_kind["unanswerable"].values())
    out: dict[str, Any] = {
        "questions": n,
        "status": dict(status),
        "citation_resolve": stats.Proportion(resolved, cited_total).to_json(),
        "quote_match": stats.Proportion(quotes_ok, quotes_total).to_json(),
        "answered_answerable": stats.Proportion(by_kind["answerable"]["answered"], n_ans).to_json(),
        "no_evidence_answerable": stats.Proportion(
            by_kind["answerable"]["no_evidence"], n_ans
        ).to_json(),
        "no_evidence_unanswerable": stats.Proportion(
            by_kind["unanswerable"]["no_evidence"], n_un
        ).to_json(),
        "unusable": stats.Proportion(status["failed"], n).to_json(),
    }
    if corpus is not None:
        out["cites_evidence"] = stats.Proportion(cites_ev, answered_ans).to_json()
    return out


#: Graph state kept beside each full-graph result, for the judge (never in the output).
STATE_KEYS = ("validation", "context")


@dataclass
class Generation:
    """One question run through the full graph.

    Attributes:
        result: The graph's output: ``status``, ``answer``, ``citations``, ``reason``,
            ``generator``, ``trace`` (a crash is a ``failed`` result).
        validation: The validated answer (``None`` when the run ended before validation).
        passages: The numbered passages the answer was written from (empty without context).
    """

    result: dict[str, Any]
    validation: Validation | None = None
    passages: list[Passage] = field(default_factory=list)

    @property
    def status(self) -> str:
        """``answered``, ``no_evidence`` or ``failed``."""
        return str(self.result.get("status", "failed"))

    def record(self, question: Question) -> dict[str, Any]:
        """The per-question record (``--per-question``): the outcome without the trace."""
        res = self.result
        return {
            "kind": "generation",
            "id": question.id,
            "question": question.question,
            "unanswerable": question.unanswerable,
            "status": self.status,
            "answer": res.get("answer", ""),
            "reason": res.get("reason", ""),
            "generator": res.get("generator"),
            "citations": [
                {k: c.get(k) for k in ("index", "doc_name", "locator", "chunk_id", "quote")}
                for c in res.get("citations") or []
            ],
        }


def _output_keys(graph: Any) -> list[str] | None:
    """The graph's own output channels plus :data:`STATE_KEYS` (``None``: not a Pregel)."""
    outs = getattr(graph, "output_channels", None)
    if outs is None:
        return None
    keys = [outs] if isinstance(outs, str) else list(outs)
    return [*keys, *(k for k in STATE_KEYS if k not in keys)]


def generate_answers(
    graph: Any,
    questions: Sequence[Question],
    config: EvalConfig,
    *,
    user_groups: list[str] | None = None,
    progress: bool = True,
) -> list[Generation]:
    """Invoke the compiled graph on every question, keeping what the judge reads.

    The graph's output is returned as it is; the validated answer and the numbered passages
    are read from the run's final state (``invoke(..., output_keys=...)``) so that the judge
    sees exactly the verified quotes the graph checked. Errors become ``failed`` results.
    """
    keys = _output_keys(graph)
    extra: dict[str, Any] = {"output_keys": keys} if keys is not None else {}
    out = []
    for q in tqdm(questions, desc=f"answer {config.name}", unit="q", disable=not progress):
        try:
            res = dict(
                graph.invoke(
                    {"question": q.question, "user_groups": list(user_groups or [])},
                    config.runnable(),
                    **extra,
                )
            )
        except Exception as exc:  # a crash is an unusable answer, and is reported as one
            log.warning("graph failed on %s: %s", q.id, exc)
            res = {
                "status": "failed",
                "answer": "",
                "citations": [],
                "reason": f"{type(exc).__name__}: {exc}",
                "trace": {},
            }
        validation = res.pop("validation", None)
        ctx = res.pop("context", None)
        out.append(Generation(res, validation, list(ctx.passages) if ctx is not None else []))
    return out


def run_generation(
    graph: Any,
    questions: Sequence[Question],
    config: EvalConfig,
    *,
    user_groups: list[str] | None = None,
    progress: bool = True,
) -> list[dict[str, Any]]:
    """Invoke the compiled graph on every question; errors become ``failed`` results.

    The graph's outputs only (:func:`generate_answers` also keeps what the judge reads).
    """
    return [
        g.result
        for g in generate_answers(
            graph, questions, config, user_groups=user_groups, progress=progress
        )
    ]
