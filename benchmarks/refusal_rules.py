"""Each refusal rule of the extractive answerer, alone and together, and the graded focus rule.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.refusal_rules [--cal-limit 750] [--limit N] [--seed 0]
        [--sets squad-cal,devset-cal,squad-test,scifact,sample,devset] [--kept RULE,...]
        [--coverage T] [--sentence-weight W] [--sweep-from OLD.json] [--no-alone]

The gate refuses questions the corpus does not cover; questions that *look* covered get past
it, and the offline extractive answerer then decides whether the sentence it would quote
answers the question (``chains/answer_checks.py``). Its rules are knobs: ``number_check`` (a
number the question asks about that no passage mentions), ``answer_type_check`` (who / when /
how many needs a name / date / quantity), ``quantity_check`` (its how-many half alone),
``measure_check`` (a height, speed, price … needs a unit of that kind; a rate its unit),
``counted_check`` (a how-many question needs a sentence naming what it counts),
``negation_check`` (a negated question needs a
negated sentence), ``contrast_check`` (a question naming one of two words that exclude each
other is not answered by a sentence stating the other instead: "less" / "more", "Tuesday" /
"Wednesday"), ``focus_names_check`` (the question's names and acronyms, or a close
paraphrase, must be in the passage), ``focus_check`` (the same for its names and heavy
terms) and the graded ``focus_coverage`` (the share of the
question's focus weight the sentence and its document cover must reach a threshold).
Instruction-shaped sentences are never quoted under any configuration (a safety rule, not a
knob), so it is not measured as one.

Configurations, each the full compiled graph (``GraphDeps`` + ``build_graph``) with the
packaged gate: ``default`` (the shipped rules, the ``RAGConfig`` defaults); ``previous``
(the shipped rules before ``quantity_check``, ``PREVIOUS_RULES``);
``none``; ``before`` (``number_check`` only); one per rule with every other rule off;
``kept`` (``--kept``, else the rules that alone against ``none``, counted on evidence over the
calibration halves as below, gain more than they lose); ``all``; and ``new`` =
default + ``focus_coverage`` ≥ T. ``--no-alone`` runs only ``default``, ``previous`` and ``new``.
Each rule alone against ``none`` is also counted on evidence, pooled over every calibration
half (SQuAD and the development set's corpora; ``newly_on_evidence``): a gain is a question
``none`` got wrong (unanswerable, or answered without citing the gold evidence) that the rule
refuses, or re-quotes from the evidence; a loss is the reverse (``keep_decision_evidence``).

T is chosen by a rule stated before any test-half run (``choose_threshold``): over the sweep
``SWEEP`` on the calibration halves, the threshold refusing the most unanswerable questions
of the SQuAD calibration half while answering at least ``MIN_ANSWERED_CAL`` of its
answerable ones, among thresholds whose newly refused questions on the development set's
calibration half (pooled over its four corpora) are not mostly answerable. ``--coverage``
fixes T instead (``--sweep-from`` then reports an earlier run's sweep).

Retrieval and the second stage do not depend on these knobs, so within a set they are
computed once per question and replayed for the other configurations (``MemoRetriever``,
``MemoReranker``); every node of the compiled graph still runs for every configuration. A
configuration's results are cached under ``<work>/refusal_cache/`` keyed by the set, the
index, the knobs, the questions and a hash of every file under ``chains/`` and ``graphs/``
(and the sentence and instruction rules of ``loaders/``)
(changed code or word lists are re-run); single-word embeddings under
``<work>/word_vectors-<model>.npz``.

SQuAD 2.0's 16 articles are split by article (seeded shuffle of the sorted titles, seed 12,
fixed before any result was looked at) into a calibration half and a test half; the
development set (``benchmarks/devset/questions.jsonl``) has its own fixed split, each
question asked of its own corpus and the out-of-domain ones of every corpus. Reported per
set and configuration: answerable answered, unanswerable refused (near misses and
out-of-domain separately on the development set), among answered answerable questions the
share citing the gold evidence (95 % Wilson intervals) and paired wins/losses against the
default with a two-sided exact sign test (correct = an answerable question answered, an
unanswerable one refused); the development set's test half also pooled over its corpora,
with both phrasings separately. Writes ``benchmarks/out/refusal_rules.{json,md}``, the
per-question reasons of ``previous``, ``default`` and ``new``
(``refusal_rules_reasons.jsonl``) and the trade-off plot of the calibration sweep
(``docs/figures/refusal_tradeoff.png``).
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

from benchmarks.common import (
    DEVSET,
    REPO,
    cached_embeddings,
    dataset,
    log,
    model,
    parser,
    sample,
    save_embeddings,
    write,
)
from chains.answer_checks import REFUSAL_RULES

#: Every refusal rule, by its knob name.
RULES = REFUSAL_RULES
#: The shipped rules before ``quantity_check`` went on.
PREVIOUS_RULES = frozenset(
    {"number_check", "negation_check", "contrast_check", "focus_names_check"}
)


def default_rules() -> frozenset[str]:
    """The shipped rules: those whose ``RAGConfig`` default is on."""
    from graphs.config import knob_default

    return frozenset(r for r in RULES if knob_default(r))


SPLIT_SEED = 12
#: Thresholds of the graded focus rule walked on the calibration halves.
SWEEP = (0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85)
#: The choice rule, stated before any test-half run: the threshold refusing the most
#: unanswerable questions of the SQuAD calibration half while answering at least this share
#: of its answerable ones and, on the development set's calibration half (all corpora
#: pooled), newly refusing no more answerable questions than unanswerable ones against the
#: default (:func:`choose_threshold`).
MIN_ANSWERED_CAL = 0.93
FIGURE = REPO / "docs" / "figures" / "refusal_tradeoff.png"
#: The graph's code and data (every file under ``chains/`` and ``graphs/``: the modules, the
#: word lists such as ``contrast_terms.json``, the prompts, the gate defaults; and the
#: text rules the answerer reads from ``loaders/``: sentences, instruction-shaped sentences)
#: as a hash: cached results are reused only by the same code and data.
CODE = hashlib.sha256(
    b"".join(
        f.relative_to(REPO).as_posix().encode() + b"\0" + f.read_bytes()
        for d in ("chains", "graphs", "loaders/sentences.py", "loaders/instructions.py")
        for f in sorted((REPO / d).rglob("*") if (REPO / d).is_dir() else [REPO / d])
        if f.is_file() and "__pycache__" not in f.parts
    )
).hexdigest()


class MemoRetriever:
    """Replays the first stage for a repeated (question, settings): retrieval does not depend
    on the refusal rules, so each configuration's run reuses it (deep copies: later stages
    write scores into the candidates). Every node of the graph still runs."""

    def __init__(self, inner: Any) -> None:
        """Wrap a retriever."""
        self.inner = inner
        self._cache: dict[str, Any] = {}

    def retrieve(self, question: str, **kwargs: Any) -> Any:
        """The inner retriever's result, computed once per question and settings."""
        key = repr((question, sorted(kwargs.items())))
        if key not in self._cache:
            self._cache[key] = self.inner.retrieve(question, **kwargs)
        return copy.deepcopy(self._cache[key])


class MemoReranker:
    """Replays the second stage for a repeated (question, candidates), like
    :class:`MemoRetriever`."""

    def __init__(self, inner: Any) -> None:
        """Wrap a reranker."""
        self.inner = inner
        self.name = inner.name
        self.score_type = inner.score_type
        self._cache: dict[tuple[str, tuple[str, ...]], Any] = {}

    def rerank(self, query: str, candidates: list[Any], query_vector: Any = None) -> list[Any]:
        """The inner reranker's order and scores, computed once per question and shortlist."""
        key = (query, tuple(c.key for c in candidates))
        if key not in self._cache:
            self._cache[key] = self.inner.rerank(query, candidates, query_vector)
        return copy.deepcopy(self._cache[key])


class WordCache(Embeddings):
    """Caches the single-word embeddings the focus rules ask for, on disk between runs
    (``<work>/word_vectors.npz``): a corpus has a few ten thousand distinct words, and the
    answerer embeds the words of every context it reads. Everything else passes through."""

    def __init__(self, inner: Any, path: Path) -> None:
        """Wrap an embedding model; load ``path`` when it exists."""
        import numpy as np

        self.inner = inner
        self.path = path
        self._words: dict[str, Any] = {}
        if path.exists():
            got = np.load(path, allow_pickle=True)
            self._words = dict(zip(got["words"].tolist(), got["vectors"], strict=True))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def embed_query(self, text: str) -> list[float]:
        """The inner model's query embedding."""
        return list(self.inner.embed_query(text))

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Single words from the cache (embedded once), other texts by the inner model."""
        words = [t for t in dict.fromkeys(texts) if " " not in t and t not in self._words]
        if words:
            for w, v in zip(words, self.inner.embed_documents(words), strict=True):
                self._words[w] = v
        rest = [t for t in texts if " " in t]
        done = dict(zip(rest, self.inner.embed_documents(rest), strict=True)) if rest else {}
        return [list(self._words[t]) if " " not in t else done[t] for t in texts]

    def save(self) -> None:
        """Write the cache."""
        import numpy as np

        words = list(self._words)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp.npz")
        np.savez(
            tmp,
            words=np.asarray(words, dtype=object),
            vectors=np.asarray([self._words[w] for w in words], dtype=np.float32),
        )
        tmp.replace(self.path)


def squad_halves(titles: list[str], seed: int = SPLIT_SEED) -> tuple[set[str], set[str]]:
    """Split article titles into (calibration, test) halves by a seeded shuffle."""
    order = sorted(titles)
    random.Random(seed).shuffle(order)
    half = len(order) // 2
    return set(order[:half]), set(order[half:])


def rules_conf(on: set[str] | frozenset[str], coverage: float = 0.0) -> dict[str, Any]:
    """Every rule knob, on when in ``on``, and the graded focus rule's threshold."""
    return {**{r: r in on for r in RULES}, "focus_coverage": coverage}


def choose_threshold(
    curve: list[dict[str, Any]], dev_curve: dict[float, dict[str, int]] | None
) -> float | None:
    """The stated rule: most unanswerable refused on the SQuAD calibration half with at least
    ``MIN_ANSWERED_CAL`` of its answerable answered, among thresholds whose newly refused
    questions of the development set's calibration half are not mostly answerable ones."""
    ok = [
        c
        for c in curve
        if c["answered"] >= MIN_ANSWERED_CAL
        and (
            dev_curve is None
            or dev_curve[c["threshold"]]["gain"] >= dev_curve[c["threshold"]]["cost"]
        )
    ]
    if not ok:
        return None
    return float(max(ok, key=lambda c: (c["refused"], -c["threshold"]))["threshold"])


def tradeoff_figure(
    curves: dict[str, list[dict[str, Any]]],
    points: dict[str, tuple[float, float]],
    title: str = "SQuAD 2.0 calibration half, extractive answerer: refusal trade-off",
) -> Any:
    """Answerable answered against unanswerable refused: one line per sweep of the graded
    rule (a point per threshold), and single configurations as markers."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.6, 4.6))
    ax = fig.subplots()
    for (label, curve), color in zip(curves.items(), ("tab:blue", "tab:green"), strict=False):
        ax.plot(
            [c["refused"] for c in curve],
            [c["answered"] for c in curve],
            "-o",
            color=color,
            markersize=4,
            label=label,
        )
        for c in curve:
            ax.annotate(
                f"{c['threshold']:.2f}",
                (c["refused"], c["answered"]),
                fontsize=6,
                textcoords="offset points",
                xytext=(4, 2),
                color=color,
            )
    markers = ("s", "^", "D", "v", "P", "X")
    for (name, (x, y)), mk in zip(points.items(), markers, strict=False):
        ax.plot([x], [y], mk, color="tab:orange", label=name, markersize=7, alpha=0.85)
    ax.axhline(0.9, color="tab:red", lw=0.8, ls="--")
    ax.axvline(0.3, color="tab:red", lw=0.8, ls="--")
    ax.set_xlabel("unanswerable refused")
    ax.set_ylabel("answerable answered")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    return fig


def main() -> int:
    """Run the benchmark."""
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--limit", type=int, help="sample at most N questions per kind and set")
    p.add_argument(
        "--cal-limit",
        type=int,
        help="sample at most N questions per kind of the SQuAD calibration half (overrides "
        "--limit there)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--sets",
        default="squad-cal,devset-cal,squad-test,scifact,sample,devset",
        help="comma-separated: squad-cal, devset-cal, squad-test, scifact, sample, devset",
    )
    p.add_argument(
        "--kept",
        help="comma-separated rules for the 'kept' configuration (default: decided on squad-cal "
        "in this run; needs squad-cal)",
    )
    p.add_argument(
        "--coverage",
        type=float,
        help="the graded focus rule's threshold of 'new' (default: chosen on the calibration "
        "halves in this run by the stated rule)",
    )
    p.add_argument(
        "--candidates",
        default="",
        help="comma-separated focus_coverage thresholds also run on every set (results are "
        "cached under <work>/refusal_cache; only the chosen one is reported)",
    )
    p.add_argument(
        "--sentence-weight",
        type=float,
        help="the graded rule's weight of the sentence's own coverage (default "
        "chains.answerers.COVERAGE_SENTENCE_WEIGHT)",
    )
    p.add_argument(
        "--sweep-from",
        type=Path,
        help="with --coverage: the sweep of an earlier run's refusal_rules.json (not re-run)",
    )
    p.add_argument(
        "--no-alone",
        action="store_true",
        help="only the default and the graded rule (no none / before / one rule alone / all)",
    )
    p.add_argument("--figure", type=Path, default=FIGURE, help="where the trade-off PNG goes")
    args = p.parse_args()
    wanted = [s.strip() for s in args.sets.split(",") if s.strip()]

    import chains.answerers as answerers
    from chains.rerank import make_reranker
    from citerag.eval import metrics as stats
    from citerag.eval import plots, report
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.questions import Question, load_questions
    from citerag.eval.runner import EvalConfig, generation_figures, parse_config, run_generation
    from graphs.deps import GraphDeps
    from graphs.rag import build_graph

    if args.sentence_weight is not None:
        answerers.COVERAGE_SENTENCE_WEIGHT = args.sentence_weight
    variant = (
        []
        if answerers.COVERAGE_SENTENCE_WEIGHT == 0.5
        else [f"sentence_weight={answerers.COVERAGE_SENTENCE_WEIGHT}"]
    )
    emb = cached_embeddings(args)
    slug = "".join(ch if ch.isalnum() else "_" for ch in model().name)
    words = WordCache(emb, args.work / f"word_vectors-{slug}.npz")
    base_conf = parse_config("default").conf
    rng = random.Random(args.seed)

    def limited(qs: list[Question], limit: int | None = None) -> list[Question]:
        limit = args.limit if limit is None else limit
        out: list[Question] = []
        for unans in (False, True):
            part = [q for q in qs if q.unanswerable == unans]
            if limit is not None and len(part) > limit:
                part = rng.sample(part, limit)
            out += part
        return out

    indexes: dict[str, Any] = {}

    def index(name: str) -> Any:
        if name not in indexes:
            if name == "sample":
                indexes[name] = sample(args)[1]
            else:
                indexes[name] = dataset(name, args)[1]
        return indexes[name]

    #: (name, corpus, questions, calibration?)
    sets: list[tuple[str, str, list[Question], bool]] = []
    if any(s.startswith("squad") for s in wanted):
        prep, _ = dataset("squad", args, ingest=False)
        squad_q = load_questions(prep.questions)
        cal, test = squad_halves(list({str(q.meta.get("article")) for q in squad_q}))
        if "squad-cal" in wanted:
            qs = [q for q in squad_q if q.meta.get("article") in cal]
            sets.append(("SQuAD 2.0 calibration half", "squad", limited(qs, args.cal_limit), True))
        if "squad-test" in wanted:
            qs = [q for q in squad_q if q.meta.get("article") in test]
            sets.append(("SQuAD 2.0 test half", "squad", limited(qs), False))
    if "scifact" in wanted:
        prep, _ = dataset("scifact", args, ingest=False)
        sets.append(
            ("SciFact answerable claims", "scifact", limited(load_questions(prep.questions)), False)
        )
    if "sample" in wanted:
        sets.append(
            (
                "sample corpus",
                "sample",
                load_questions(REPO / "examples" / "questions.jsonl"),
                False,
            )
        )
    for key, split in (("devset-cal", "calibration"), ("devset", "test")):
        if key not in wanted:
            continue
        if not DEVSET.is_file():
            log(f"{DEVSET} not found: skipping the development set")
            continue
        dev = [q for q in load_questions(DEVSET) if q.meta.get("split") == split]
        corpora = sorted({str(q.meta.get("corpus")) for q in dev} - {"none"})
        corpora = [c for c in corpora if c in ("squad", "scifact", "sample", "financebench")]
        for corpus in corpora:
            qs = [q for q in dev if q.meta.get("corpus") in (corpus, "none")]
            half = "calibration" if split == "calibration" else "test"
            sets.append((f"devset {half} half: {corpus}", corpus, qs, split == "calibration"))

    shipped = default_rules()
    configs: dict[str, dict[str, Any]] = {
        "default": rules_conf(shipped),
        "previous": rules_conf(PREVIOUS_RULES),
    }
    if not args.no_alone:
        configs["none"] = rules_conf(set())
        configs["before"] = rules_conf({"number_check"})
        for r in RULES:
            configs[f"{r} alone"] = rules_conf({r})
        configs["all"] = rules_conf(set(RULES))
    sweep = {f"coverage ≥ {t:.2f}": rules_conf(shipped, t) for t in SWEEP}
    for t in (float(x) for x in args.candidates.split(",") if x.strip()):
        configs[f"candidate ≥ {t:.2f}"] = rules_conf(shipped, t)
    if args.sweep_from:
        sweep = {}  # reported from the earlier run

    status: dict[str, dict[str, list[str]]] = {}
    #: per set and configuration: (status, reason, answer) per question, and the figures
    brief: dict[str, dict[str, list[tuple[str, str, str]]]] = {}
    cites: dict[str, dict[str, list[bool]]] = {}
    #: per set: whether each question's gold evidence is found in the index
    has_gold: dict[str, list[bool]] = {}
    figures: dict[str, dict[str, dict[str, Any]]] = {}
    data: dict[str, Any] = {"base_config": base_conf, "split_seed": SPLIT_SEED, "sets": {}}
    chosen: set[str] | None = set(args.kept.split(",")) if args.kept else None
    kept: set[str] | None = None
    all_configs = {**configs, **sweep}

    def run_set(
        name: str, corpus: str, qs: list[Question], cfgs: dict[str, dict[str, Any]]
    ) -> None:
        loaded = index(corpus)
        deps: Any = GraphDeps.from_store(
            loaded.store,
            embeddings=words,
            manifest_id=loaded.manifest_id,
            embedding_model=model().name,
        )
        deps.retriever = MemoRetriever(deps.retriever)
        spec = str(base_conf.get("reranker", "sentence"))
        deps.rerankers[spec] = MemoReranker(make_reranker(spec, deps.embeddings, deps.store))
        graph = build_graph(deps)
        corpus_idx = IndexedCorpus.from_store(loaded.store, loaded.manifest.documents)
        gold = [
            set().union(*(corpus_idx.chunk_ids(corpus_idx.hits(ev)) for ev in q.evidence))
            if q.evidence
            else set()
            for q in qs
        ]
        has_gold[name] = [bool(g) for g in gold]
        for cname, rules in cfgs.items():
            if cname in status.get(name, {}):
                continue
            same = [c for c in status.get(name, {}) if all_configs.get(c) == rules]
            if same:  # the same knobs under another name: same results
                status[name][cname] = status[name][same[0]]
                figures[name][cname] = figures[name][same[0]]
                brief[name][cname] = brief[name][same[0]]
                cites[name][cname] = cites[name][same[0]]
                continue
            run_cfg = EvalConfig(cname, tuple(sorted({**base_conf, **rules}.items())))
            key = hashlib.sha256(
                json.dumps(
                    [name, loaded.manifest_id, run_cfg.conf, [q.id for q in qs], CODE, *variant],
                    sort_keys=True,
                    default=str,
                ).encode()
            ).hexdigest()[:24]
            cached = args.work / "refusal_cache" / f"{key}.json"
            if cached.is_file():
                got = json.loads(cached.read_text(encoding="utf-8"))
                status.setdefault(name, {})[cname] = got["status"]
                figures.setdefault(name, {})[cname] = got["figures"]
                cites.setdefault(name, {})[cname] = got["cites"]
                brief.setdefault(name, {})[cname] = [tuple(b) for b in got["brief"]]
                log(f"{name} / {cname}: from {cached}")
                continue
            res = run_generation(graph, qs, run_cfg, progress=not args.no_progress)
            status.setdefault(name, {})[cname] = [r.get("status", "failed") for r in res]
            figures.setdefault(name, {})[cname] = generation_figures(qs, res, corpus_idx)
            cites.setdefault(name, {})[cname] = [
                r.get("status") == "answered"
                and any(c.get("chunk_id") in g for c in r.get("citations") or [])
                for r, g in zip(res, gold, strict=True)
            ]
            brief.setdefault(name, {})[cname] = [
                (
                    str(r.get("status", "failed")),
                    str(r.get("reason") or ""),
                    str(r.get("answer") or "") if r.get("status") == "answered" else "",
                )
                for r in res
            ]
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.write_text(
                json.dumps(
                    {
                        "status": status[name][cname],
                        "figures": figures[name][cname],
                        "cites": cites[name][cname],
                        "brief": brief[name][cname],
                    }
                ),
                encoding="utf-8",
            )
        save_embeddings(emb, args)
        words.save()

    def newly_on_evidence(name: str, qs: list[Question], a: str, b: str) -> tuple[int, int]:
        """(gains, losses) of ``a`` against ``b`` counted on evidence.

        A gain: ``a`` refuses a question ``b`` got wrong (unanswerable, or answered without
        citing its evidence), or both answer and only ``a`` cites the evidence (it quoted
        another sentence). A loss: ``a`` refuses a question ``b`` answered citing its
        evidence, or both answer and only ``b`` cites it. Answerable questions whose evidence
        is in no chunk of the index are left out.
        """
        sa, sb, ca, cb = status[name][a], status[name][b], cites[name][a], cites[name][b]
        gain = cost = 0
        for i, q in enumerate(qs):
            if not q.unanswerable and not has_gold[name][i]:
                continue
            if sa[i] == "no_evidence" and sb[i] != "no_evidence":
                if not q.unanswerable and cb[i]:
                    cost += 1
                else:
                    gain += 1
            elif sa[i] == sb[i] == "answered" and not q.unanswerable:
                gain += ca[i] and not cb[i]
                cost += cb[i] and not ca[i]
        return gain, cost

    def newly(name: str, qs: list[Question], a: str, b: str) -> tuple[int, int]:
        """(unanswerable, answerable) questions ``a`` refuses and ``b`` does not."""
        sa, sb = status[name][a], status[name][b]
        gain = sum(
            x == "no_evidence" and y != "no_evidence" and q.unanswerable
            for x, y, q in zip(sa, sb, qs, strict=True)
        )
        cost = sum(
            x == "no_evidence" and y != "no_evidence" and not q.unanswerable
            for x, y, q in zip(sa, sb, qs, strict=True)
        )
        return gain, cost

    # -- calibration halves: every configuration and the sweep -------------------------------
    curve: list[dict[str, Any]] = []
    dev_curve: dict[float, dict[str, int]] | None = None
    for name, corpus, qs, is_cal in sets:
        if not is_cal:
            continue
        log(f"{name}: {len(qs)} questions on the {corpus} index")
        run_set(name, corpus, qs, {**configs, **sweep})
        for r in RULES:
            if f"{r} alone" in status[name]:
                gain, cost = newly_on_evidence(name, qs, f"{r} alone", "none")
                pooled_ev = data.setdefault("keep_decision_evidence", {}).setdefault(
                    r, {"gain": 0, "cost": 0}
                )
                pooled_ev["gain"] += gain
                pooled_ev["cost"] += cost
        if any(f"{r} alone" in status[name] for r in RULES):
            data.setdefault("keep_decision_evidence_sets", []).append(name)
        if name.startswith("SQuAD 2.0 calibration"):
            kept = set()
            for r in RULES:
                if f"{r} alone" not in status[name]:
                    continue
                gain, cost = newly(name, qs, f"{r} alone", "none")
                data.setdefault("keep_decision", {})[r] = {"gain": gain, "cost": cost}
                if gain > cost:
                    kept.add(r)
            log(f"the calibration rule keeps: {sorted(kept) or 'none'}")
            ans = [i for i, q in enumerate(qs) if not q.unanswerable]
            un = [i for i, q in enumerate(qs) if q.unanswerable]
            for t, cname in zip(SWEEP, sweep, strict=False):
                st = status[name][cname]
                curve.append(
                    {
                        "threshold": t,
                        "answered": sum(st[i] == "answered" for i in ans) / max(1, len(ans)),
                        "refused": sum(st[i] == "no_evidence" for i in un) / max(1, len(un)),
                    }
                )
        elif name.startswith("devset calibration"):
            dev_curve = dev_curve or {t: {"gain": 0, "cost": 0} for t in SWEEP}
            for t, cname in zip(SWEEP, sweep, strict=False):
                gain, cost = newly(name, qs, cname, "default")
                dev_curve[t]["gain"] += gain
                dev_curve[t]["cost"] += cost
    if args.sweep_from:
        earlier = json.loads(args.sweep_from.read_text(encoding="utf-8"))
        curve = earlier.get("sweep_squad_calibration", [])
        dev_curve = {
            float(k): v for k, v in earlier.get("sweep_devset_calibration", {}).items()
        } or None
        keys = ("keep_decision", "keep_decision_evidence", "keep_decision_evidence_sets")
        if not any(k in data for k in keys):  # not run here: both decisions from that run
            data.update({k: earlier[k] for k in keys if k in earlier})
        log(f"sweep from {args.sweep_from}: it chose {earlier.get('chosen_coverage')}")
    data["sweep_squad_calibration"] = curve
    data["sweep_devset_calibration"] = {str(k): v for k, v in (dev_curve or {}).items()}
    coverage = args.coverage
    if coverage is None and curve:
        coverage = choose_threshold(curve, dev_curve)
        log(f"the stated rule chooses focus_coverage = {coverage}")
    data["chosen_coverage"] = coverage
    data["coverage_sentence_weight"] = answerers.COVERAGE_SENTENCE_WEIGHT
    rule_kept = sorted(kept) if kept is not None else None
    on_evidence = data.get("keep_decision_evidence", {})
    data["calibration_rule_keeps_on_evidence"] = sorted(
        r for r, v in on_evidence.items() if v["gain"] > v["cost"]
    )
    if kept is not None:  # the calibration halves ran here: the rule counts on evidence
        kept = set(data["calibration_rule_keeps_on_evidence"])
    if chosen is not None:
        kept = chosen
    if kept is None:
        kept = set(shipped)
    data["calibration_rule_keeps"] = rule_kept
    data["kept"] = sorted(kept)
    configs["kept"] = rules_conf(kept)
    if coverage is not None:
        configs["new"] = rules_conf(shipped, coverage)
    all_configs.update(configs)

    # -- every set: the configurations (the sweep only on calibration halves) ----------------
    for name, corpus, qs, is_cal in sets:
        if not is_cal:
            log(f"{name}: {len(qs)} questions on the {corpus} index")
        run_set(name, corpus, qs, configs)

    order: list[str] = [c for c in ("none", "before", "previous", "default") if c in configs]
    order += [f"{r} alone" for r in RULES if f"{r} alone" in configs]
    order += [c for c in ("kept", "all", "new") if c in configs]
    if "kept" in order and configs["kept"] == configs["default"]:
        order.remove("kept")  # the same knobs as the default
    ref = "default"
    md: list[str] = [
        "## Refusal rules past the gate: the default, each rule alone, all, and the graded "
        "focus rule\n",
        "The calibration rule (alone vs none on the SQuAD calibration half, newly refused "
        "unanswerable > newly refused answerable) keeps: "
        f"{', '.join(rule_kept or []) or 'not run'}. 'default' = the shipped rules "
        f"({', '.join(sorted(shipped))}); 'previous' = the shipped rules before "
        f"({', '.join(sorted(PREVIOUS_RULES))}); 'new' = default + `focus_coverage` ≥ "
        f"{coverage if coverage is not None else '—'}, sentence weight "
        f"{answerers.COVERAGE_SENTENCE_WEIGHT} (chosen by the stated rule: most "
        f"unanswerable refused on the SQuAD calibration half with ≥ {MIN_ANSWERED_CAL:.0%} of "
        "its answerable answered, among thresholds whose newly refused questions on the "
        "development set's calibration half are not mostly answerable). Full graph, packaged "
        "gate.\n",
    ]
    if data.get("keep_decision") or on_evidence:
        md += [
            "### Each rule alone against none, on the calibration halves\n",
            "Newly refused: on the SQuAD calibration half, unanswerable / answerable. On "
            "evidence, pooled over "
            f"{', '.join(data.get('keep_decision_evidence_sets', [])) or 'no set'} "
            "(an out-of-domain question counts once per corpus it is asked of): refused "
            "questions none got wrong (unanswerable, or answered without citing the evidence) "
            "plus questions both answer where only the rule's quote cites the evidence / "
            "refused questions none answered citing the evidence plus the reverse switches. "
            "Keeps on evidence: "
            f"{', '.join(data['calibration_rule_keeps_on_evidence']) or 'none'}.\n",
            report.table(
                ["rule", "SQuAD cal: unanswerable / answerable", "pooled, on evidence"],
                [
                    [
                        r,
                        "+{gain}/−{cost}".format(**data["keep_decision"][r])
                        if r in data.get("keep_decision", {})
                        else "—",
                        "+{gain}/−{cost}".format(**on_evidence[r]) if r in on_evidence else "—",
                    ]
                    for r in RULES
                ],
            ),
            "",
        ]
    if curve:
        md += [
            "### The sweep on the calibration halves\n",
            report.table(
                [
                    "focus_coverage ≥",
                    "SQuAD cal: answerable answered",
                    "SQuAD cal: unanswerable refused",
                    "devset cal: newly refused unanswerable / answerable vs default",
                ],
                [
                    [
                        f"{c['threshold']:.2f}",
                        f"{c['answered']:.3f}",
                        f"{c['refused']:.3f}",
                        f"+{dev_curve[c['threshold']]['gain']}/−{dev_curve[c['threshold']]['cost']}"
                        if dev_curve
                        else "—",
                    ]
                    for c in curve
                ],
            ),
            "",
        ]
    kinds_of = {"near_miss": "near misses refused", "ood": "out-of-domain refused"}
    pooled: dict[str, dict[str, list[Any]]] = {}
    for name, _, qs, _ in sets:
        ans = [i for i, q in enumerate(qs) if not q.unanswerable]
        groups: dict[str, list[int]] = {}
        for i, q in enumerate(qs):
            if q.unanswerable:
                kind = str(q.meta.get("kind") or "unanswerable")
                groups.setdefault(kinds_of.get(kind, "unanswerable refused"), []).append(i)
        cols = sorted(groups)
        rows: list[list[str]] = []
        out: dict[str, Any] = {"questions": len(qs), "answerable": len(ans)}
        correct = {
            c: [(status[name][c][i] == "no_evidence") == q.unanswerable for i, q in enumerate(qs)]
            for c in order
        }
        is_test = name.startswith("devset test")
        for c in order:
            st = status[name][c]
            answered = stats.Proportion(sum(st[i] == "answered" for i in ans), len(ans))
            refused = {
                g: stats.Proportion(sum(st[i] == "no_evidence" for i in idx), len(idx))
                for g, idx in groups.items()
            }
            n_cited = sum(cites[name][c][i] for i in ans)
            cited = stats.Proportion(n_cited, answered.k)
            pr = stats.paired(correct[c], correct[ref]).to_json()
            out[c] = {
                "rules": all_configs[c],
                "answerable_answered": answered.to_json(),
                **{g: v.to_json() for g, v in refused.items()},
                "cites_evidence_among_answered": cited.to_json(),
                "paired_vs_default": pr,
                "status": {s: st.count(s) for s in set(st)},
            }
            if is_test:
                pc = pooled.setdefault(c, {"st": [], "qs": [], "cites": [], "correct": []})
                pc["st"] += st
                pc["qs"] += qs
                pc["cites"] += cites[name][c]
                pc["correct"] += correct[c]
            rows.append(
                [
                    c,
                    answered.fmt() if ans else "—",
                    *(refused[g].fmt() for g in cols),
                    f"{cited.fmt()} ({cited.k}/{cited.n})" if cited.n else "—",
                    f"+{pr['wins']}/−{pr['losses']}, p = {stats.format_p(pr['p_sign_test'])}"
                    if c != ref
                    else "—",
                ]
            )
        data["sets"][name] = out
        md += [
            f"### {name} ("
            + ", ".join(
                [f"{len(ans)} answerable"]
                + [f"{len(groups[g])} {g.split(' refused')[0]}" for g in cols]
            )
            + ")\n",
            report.table(
                [
                    "configuration",
                    "answerable answered",
                    *cols,
                    "answered citing the evidence",
                    "paired vs default",
                ],
                rows,
            ),
            "",
        ]
    if pooled:
        rows = []
        pooled_out: dict[str, Any] = {}
        for c in order:
            pc = pooled[c]
            qs_all: list[Question] = pc["qs"]
            st_all: list[str] = pc["st"]

            def prop(pred: Any, _st: list[str] = st_all, _qs: list[Question] = qs_all) -> Any:
                idx = [i for i, q in enumerate(_qs) if pred(q)]
                return stats.Proportion(sum(_st[i] == "answered" for i in idx), len(idx))

            a = prop(lambda q: not q.unanswerable)
            a_doc = prop(lambda q: not q.unanswerable and q.meta.get("phrasing") == "document")
            a_user = prop(lambda q: not q.unanswerable and q.meta.get("phrasing") == "user")
            nm = prop(lambda q: q.meta.get("kind") == "near_miss")
            ood = prop(lambda q: q.meta.get("kind") == "ood")
            ans_idx = [
                i for i, q in enumerate(qs_all) if not q.unanswerable and st_all[i] == "answered"
            ]
            cited = stats.Proportion(sum(pc["cites"][i] for i in ans_idx), len(ans_idx))
            pr = stats.paired(pc["correct"], pooled[ref]["correct"]).to_json()
            refused_nm = stats.Proportion(nm.n - nm.k, nm.n)
            pooled_out[c] = {
                "answerable_answered": a.to_json(),
                "documents_words_answered": a_doc.to_json(),
                "users_words_answered": a_user.to_json(),
                "near_misses_refused": refused_nm.to_json(),
                "ood_answered": ood.to_json(),
                "cites_evidence_among_answered": cited.to_json(),
                "paired_vs_default": pr,
            }
            rows.append(
                [
                    c,
                    a.fmt(),
                    a_doc.fmt(),
                    a_user.fmt(),
                    refused_nm.fmt(),
                    ood.fmt(),
                    f"{cited.fmt()} ({cited.k}/{cited.n})",
                    f"+{pr['wins']}/−{pr['losses']}, p = {stats.format_p(pr['p_sign_test'])}"
                    if c != ref
                    else "—",
                ]
            )
        data["devset_test_pooled"] = pooled_out
        md += [
            "### devset test half, all four corpora pooled (out-of-domain questions asked of "
            "every corpus)\n",
            report.table(
                [
                    "configuration",
                    "answerable answered",
                    "documents' words",
                    "users' words",
                    "near misses refused",
                    "out-of-domain answered",
                    "answered citing the evidence",
                    "paired vs default",
                ],
                rows,
            ),
            "",
        ]
    md.append(
        "Paired: +wins/−losses = questions the configuration handles correctly and the "
        "default does not, and the reverse (correct = answerable answered, unanswerable "
        "refused); two-sided exact sign test. 95 % Wilson intervals."
    )
    cal_name = "SQuAD 2.0 calibration half"
    if curve and cal_name in status:
        qs = next(q for n, _, q, _ in sets if n == cal_name)
        ans = [i for i, q in enumerate(qs) if not q.unanswerable]
        un = [i for i, q in enumerate(qs) if q.unanswerable]
        points: dict[str, tuple[float, float]] = {}
        for pc_name in ("default", "focus_check alone", "kept", "all"):
            if pc_name in status[cal_name]:
                st = status[cal_name][pc_name]
                points[pc_name] = (
                    sum(st[i] == "no_evidence" for i in un) / len(un),
                    sum(st[i] == "answered" for i in ans) / len(ans),
                )
        label = f"default + focus_coverage ≥ t (w = {answerers.COVERAGE_SENTENCE_WEIGHT})"
        plots.save(tradeoff_figure({label: curve}, points), args.figure)
        log(f"wrote {args.figure}")
    write(args.out, "refusal_rules", data, "\n".join(md))
    (args.out / "refusal_rules_reasons.jsonl").write_text(
        "".join(
            json.dumps(
                {
                    "set": name,
                    "config": c,
                    "id": q.id,
                    "unanswerable": q.unanswerable,
                    "question": q.question,
                    "status": st,
                    "reason": why,
                    "answer": answer or None,
                },
                ensure_ascii=False,
            )
            + "\n"
            for name, _, qs, _ in sets
            for c in ("previous", "default", "new")
            if c in brief[name]
            for q, (st, why, answer) in zip(qs, brief[name][c], strict=True)
        ),
        encoding="utf-8",
    )
    log(f"wrote {Path(args.out) / 'refusal_rules_reasons.jsonl'}")
    return 0


#: Results of this module that no single run writes (result name -> why).
HAND_COLLECTED_RESULTS = {
    "refusal_rules_history": (
        "each rule's table comes from a run with its own --kept / --sets / --sweep-from "
        "at the commit that added the rule; the MiniLM / mpnet table pairs two runs"
    ),
}


if __name__ == "__main__":
    raise SystemExit(main())
