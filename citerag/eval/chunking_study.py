"""The chunking study: six strategies from three ingredients, after the chunking article.

=========  ======================================  =========  =======
strategy   cuts                                    header     overlap
=========  ======================================  =========  =======
A          blind fixed windows                     no         no
B          blind fixed windows                     no         yes
C          boundaries (RecursiveCharacterTextSplitter) no     no
D          boundaries                              no         yes
E          boundaries                              yes        no
F          boundaries (citerag's default)          yes        yes
=========  ======================================  =========  =======

*Blind* cuts every ``chunk_size`` characters of each segment (page / section / whole text
file) without looking at the text (only whitespace at the window edges is trimmed, so that
``canonical[start:end] == content`` still holds); with overlap the window advances by
``chunk_size - overlap``. *Boundaries* is citerag's own chunker (``loaders.chunking``:
paragraphs, then lines, sentences, clauses, words). *Header* prefixes the embedded text
with ``title > section``; *overlap* repeats the last ``overlap`` characters.

Strategies C–F are indexed with the real :func:`citerag.index.ingest.ingest`; A and B build a
:class:`~citerag.stores.faiss.store.CiteragStore` directly from the same canonical texts with the
same chunk metadata. Every strategy gets its own index under the work folder (reused when
its inputs are unchanged) and no sentence vectors (the study compares first-stage retrieval).

For each question set it reports destroyed evidence (questions whose every evidence item
straddles chunk boundaries), recall@k / MRR with intervals per retrieval configuration, and
paired exact sign tests between strategies on the same questions.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.documents import Document
from tqdm.auto import tqdm

from citerag.eval import metrics as stats
from citerag.eval.evidence import IndexedCorpus, SourceText, source_text_from_file
from citerag.eval.questions import Question
from citerag.eval.report import table
from citerag.eval.runner import (
    KS,
    MRR_CUTOFF,
    CachedEmbeddings,
    ConfigRun,
    Evaluator,
    compare,
    evidence_summary,
    parse_config,
)

log = logging.getLogger(__name__)

#: Paired comparisons reported (A against B): what each ingredient buys.
PAIRS = (("B", "A"), ("C", "A"), ("D", "C"), ("E", "A"), ("E", "C"), ("F", "E"), ("F", "D"))


@dataclass(frozen=True)
class Strategy:
    """One chunking strategy.

    Attributes:
        letter: ``A``..``F``.
        blind: Fixed windows (``True``) or boundary-respecting cuts.
        header: Contextual header in the embedded text.
        overlap: Characters of overlap.
    """

    letter: str
    blind: bool
    header: bool
    overlap: int

    @property
    def label(self) -> str:
        """``blind + overlap``, ``boundaries + header``, ..."""
        parts = ["blind" if self.blind else "boundaries"]
        if self.header:
            parts.append("header")
        if self.overlap:
            parts.append("overlap")
        return " + ".join(parts)


def strategies(overlap: int = 80) -> list[Strategy]:
    """The six strategies A–F."""
    return [
        Strategy("A", True, False, 0),
        Strategy("B", True, False, overlap),
        Strategy("C", False, False, 0),
        Strategy("D", False, False, overlap),
        Strategy("E", False, True, 0),
        Strategy("F", False, True, overlap),
    ]


def blind_windows(
    text: str, start: int, end: int, size: int, overlap: int
) -> list[tuple[int, int]]:
    """Fixed windows over ``text[start:end]``, whitespace-trimmed at their edges."""
    if size <= 0 or overlap < 0 or overlap >= size:
        raise ValueError("need chunk_size > overlap >= 0")
    step = size - overlap
    out: list[tuple[int, int]] = []
    pos = start
    while pos < end:
        s, e = pos, min(end, pos + size)
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s and (not out or e > out[-1][1]):
            out.append((s, e))
        if pos + size >= end:
            break
        pos += step
    return out


def blind_documents(
    corpus: Path, size: int, overlap: int
) -> tuple[list[Document], dict[str, Path]]:
    """Blind-cut every file under ``corpus`` into chunk documents with citerag's metadata.

    Returns:
        The documents (``id`` = chunk id) and ``doc_id -> path`` for the source texts.
    """
    from citerag.index.ingest import collect_sources
    from loaders.base import DocumentLoadError
    from loaders.pipeline import document_metadata, infer_document, sha256_file
    from loaders.registry import is_supported, load_file

    sources, _ = collect_sources([corpus])
    docs: list[Document] = []
    paths: dict[str, Path] = {}
    for src in sources:
        if not is_supported(src.path):
            continue
        try:
            parsed = load_file(src.path)
        except DocumentLoadError as exc:
            log.warning("blind chunking skips %s: %s", src.source, exc.reason)
            continue
        paths[src.doc_id] = src.path
        about, _ = infer_document(src, parsed, {})
        meta = document_metadata(src, parsed, sha256_file(src.path), about)
        index = 0
        for seg in parsed.segments:
            for s, e in blind_windows(parsed.text, seg.start, seg.end, size, overlap):
                content = parsed.text[s:e]
                chunk_meta = {
                    **meta,
                    "chunk_id": f"{src.doc_id}:{s}-{e}",
                    "content": content,
                    "start": s,
                    "end": e,
                    "section": seg.section,
                    "chunk_index": index,
                }
                if seg.page is not None:
                    chunk_meta["page"] = seg.page
                docs.append(
                    Document(id=chunk_meta["chunk_id"], page_content=content, metadata=chunk_meta)
                )
                index += 1
    return docs, paths


@dataclass
class StrategyResult:
    """What one strategy produced.

    Attributes:
        strategy: The strategy.
        chunks: Chunks in its index.
        tokens: Word-pieces embedded (text) and of the chunks' own words (content).
        over_window: Chunks whose embedded text exceeds the model window.
        evidence: Question set -> evidence summary (destroyed counts).
        runs: Question set -> configuration name -> run.
    """

    strategy: Strategy
    chunks: int
    tokens: dict[str, int]
    over_window: int
    evidence: dict[str, dict[str, Any]] = field(default_factory=dict)
    runs: dict[str, dict[str, ConfigRun]] = field(default_factory=dict)


def _texts_provider(paths: dict[str, Path]) -> Any:
    def provider(doc_id: str) -> SourceText | None:
        path = paths.get(doc_id)
        return source_text_from_file(path) if path is not None else None

    return provider


def _token_stats(model: Any, store: Any) -> tuple[dict[str, int], int]:
    keys = [k for k, _ in store.iter_metadata()]
    docs = store.get_by_ids(keys)
    texts = [d.page_content for d in docs]
    contents = [str(d.metadata.get("content", d.page_content)) for d in docs]
    t = model.count_tokens(texts) if texts else []
    c = model.count_tokens(contents) if contents else []
    over = sum(1 for n in t if n > model.max_tokens)
    return {"text": int(sum(t)), "content": int(sum(c))}, over


def build_strategy(
    st: Strategy, corpus: Path, work: Path, model: Any, size: int, progress: bool = True
) -> tuple[Any, IndexedCorpus]:
    """Index the corpus with one strategy (reusing an up-to-date index); return the store and
    its :class:`IndexedCorpus`."""
    from citerag.index.ingest import collect_sources
    from citerag.stores.faiss.store import CiteragStore
    from citerag.stores.loaded import load_index
    from loaders.chunking import ChunkSettings
    from loaders.pipeline import sha256_file

    folder = work / st.letter
    folder.mkdir(parents=True, exist_ok=True)
    if not st.blind:
        from citerag.index.ingest import ingest

        index_dir = folder / "index"
        ingest(
            [corpus],
            index_dir,
            model,
            chunking=ChunkSettings(size, st.overlap, st.header),
            sentence_vectors=False,
            progress=progress,
        )
        loaded = load_index(index_dir, model)
        return loaded.store, IndexedCorpus.from_store(loaded.store, loaded.manifest.documents)
    sources, _ = collect_sources([corpus])
    fingerprint = {
        "size": size,
        "overlap": st.overlap,
        "model": model.name,
        "files": {s.source: sha256_file(s.path) for s in sources},
    }
    stamp = folder / "blind.json"
    docs, paths = blind_documents(corpus, size, st.overlap)
    if stamp.exists() and json.loads(stamp.read_text()) == fingerprint:
        store = CiteragStore.load(folder, model.embeddings, model.dimension, sentence_vectors=False)
    else:
        store = CiteragStore(model.embeddings, model.dimension, sentence_vectors=False)
        bar = tqdm(total=len(docs), desc=f"embed {st.letter}", unit="chunk", disable=not progress)
        for i in range(0, len(docs), 64):
            batch = docs[i : i + 64]
            store.add_documents(batch, ids=[str(d.id) for d in batch])
            bar.update(len(batch))
        bar.close()
        store.save(folder)
        stamp.write_text(json.dumps(fingerprint))
    return store, IndexedCorpus(store.iter_metadata(), _texts_provider(paths))


@dataclass
class StudyResult:
    """The whole study.

    Attributes:
        results: Strategy letter -> result.
        question_sets: Names of the question sets, in order.
        configs: Retrieval configuration names, in order.
        params: Chunk size and overlap.
    """

    results: dict[str, StrategyResult]
    question_sets: list[str]
    configs: list[str]
    params: dict[str, Any]

    def comparisons(self, qset: str, config: str) -> list[tuple[str, str, dict[str, Any]]]:
        """Paired sign tests for :data:`PAIRS` on one question set and configuration."""
        out = []
        for a, b in PAIRS:
            if a in self.results and b in self.results:
                out.append(
                    (
                        a,
                        b,
                        compare(
                            self.results[a].runs[qset][config], self.results[b].runs[qset][config]
                        ),
                    )
                )
        return out

    def to_json(self) -> dict[str, Any]:
        """Machine-readable results."""
        out: dict[str, Any] = {"params": self.params, "strategies": {}, "comparisons": {}}
        for letter, r in self.results.items():
            out["strategies"][letter] = {
                "label": r.strategy.label,
                "chunks": r.chunks,
                "tokens": r.tokens,
                "over_window": r.over_window,
                "evidence": r.evidence,
                "runs": {
                    qs: {c: run.summary() for c, run in runs.items()} for qs, runs in r.runs.items()
                },
            }
        for qs in self.question_sets:
            for c in self.configs:
                out["comparisons"][f"{qs}/{c}"] = {
                    f"{a} vs {b}": {m: p.to_json() for m, p in res.items()}
                    for a, b, res in self.comparisons(qs, c)
                }
        return out

    def tables(self, markdown: bool = True) -> str:
        """Readable tables: per question set, strategies x metrics, then paired tests."""
        parts = []
        letters = list(self.results)
        rows = []
        for letter in letters:
            r = self.results[letter]
            header_share = 1 - r.tokens["content"] / r.tokens["text"] if r.tokens["text"] else 0
            rows.append(
                [
                    f"{letter} {r.strategy.label}",
                    r.chunks,
                    r.tokens["text"],
                    f"{header_share:.1%}",
                    r.over_window,
                ]
            )
        parts.append(
            table(
                [
                    "strategy",
                    "chunks",
                    "embedded word-pieces",
                    "not own words (header)",
                    "over window",
                ],
                rows,
                markdown,
            )
        )
        for qs in self.question_sets:
            for c in self.configs:
                rows = []
                for letter in letters:
                    r = self.results[letter]
                    ev = r.evidence[qs]["destroyed_questions"]
                    s = r.runs[qs][c].summary_objects()
                    rows.append(
                        [
                            f"{letter} {r.strategy.label}",
                            f"{ev['k']}/{ev['n']}",
                            *[s[f"recall@{k}"].fmt() for k in KS],
                            s[f"mrr@{MRR_CUTOFF}"].fmt(),
                        ]
                    )
                parts.append(f"\n{qs} — {c} retrieval\n")
                parts.append(
                    table(
                        ["strategy", "destroyed", *[f"R@{k}" for k in KS], f"MRR@{MRR_CUTOFF}"],
                        rows,
                        markdown,
                    )
                )
                comp = self.comparisons(qs, c)
                if comp:
                    metrics = [f"recall@{k}" for k in KS]
                    rows = [[f"{a} vs {b}", *[res[m].fmt() for m in metrics]] for a, b, res in comp]
                    parts.append("")
                    parts.append(
                        table(
                            ["paired (wins/losses, exact sign test)", *[f"R@{k}" for k in KS]],
                            rows,
                            markdown,
                        )
                    )
        return "\n".join(parts)


def run_study(
    corpus: Path,
    question_sets: Mapping[str, Sequence[Question]],
    work: Path,
    model: Any,
    *,
    chunk_size: int = 600,
    overlap: int = 80,
    configs: Sequence[str] = ("dense", "hybrid"),
    only: Sequence[str] | None = None,
    progress: bool = True,
) -> StudyResult:
    """Index ``corpus`` with each strategy and evaluate every question set.

    Args:
        corpus: Folder of documents.
        question_sets: Name -> questions (answerable ones are scored).
        work: Work folder for the strategies' indexes.
        model: The embedding model (:class:`~citerag.embeddings.EmbeddingModel`).
        chunk_size: Characters per chunk (all strategies).
        overlap: Overlap for B, D and F.
        configs: Retrieval configurations (presets without a second stage).
        only: Strategy letters to run (default all six).
        progress: Progress bars.
    """
    cached = CachedEmbeddings(model.embeddings)
    cfgs = [parse_config(c) for c in configs]
    results: dict[str, StrategyResult] = {}
    all_questions = [q for qs in question_sets.values() for q in qs]
    cached.prefetch([q.question for q in all_questions], progress=progress)
    for st in strategies(overlap):
        if only and st.letter not in only:
            continue
        store, icorpus = build_strategy(st, corpus, work, model, chunk_size, progress)
        tokens, over = _token_stats(model, store)
        res = StrategyResult(st, len(icorpus), tokens, over)
        ev = Evaluator(store, cached, icorpus, cache_states=True)
        for name, qs in question_sets.items():
            answerable = [q for q in qs if not q.unanswerable]
            res.evidence[name] = evidence_summary(icorpus, answerable)
            res.runs[name] = {}
            for cfg in cfgs:
                res.runs[name][cfg.name] = ev.run(answerable, cfg, progress=progress)
        results[st.letter] = res
        log.info("strategy %s done: %d chunks", st.letter, res.chunks)
    return StudyResult(
        results,
        list(question_sets),
        [c.name for c in cfgs],
        {
            "chunk_size": chunk_size,
            "overlap": overlap,
            "model": model.name,
            "configs": list(configs),
        },
    )


def destroyed_table(study: StudyResult, markdown: bool = True) -> str:
    """Destroyed evidence per strategy and question set, with Wilson intervals."""
    rows = []
    for letter, r in study.results.items():
        cells = [f"{letter} {r.strategy.label}"]
        for qs in study.question_sets:
            d = r.evidence[qs]["destroyed_questions"]
            p = stats.Proportion(d["k"], d["n"])
            cells.append(f"{p.k}/{p.n} {p.fmt()}")
        rows.append(cells)
    return table(["strategy", *[f"destroyed ({qs})" for qs in study.question_sets]], rows, markdown)
