"""Evaluation commands: ``eval``, ``calibrate``, ``chunking-study``, ``ladder``, ``eval-prepare``.

::

    citerag eval QUESTIONS.jsonl --index DIR [--config dense --config hybrid ...]
    citerag eval QUESTIONS.jsonl --index DIR --compare hybrid+sentence hybrid
    citerag eval QUESTIONS.jsonl --index DIR --generate [CONFIG ...] --judge openai:gpt-4.1-mini
    citerag calibrate QUESTIONS.jsonl --index DIR [--ood OFFTOPIC.jsonl] [--max-bluff 0.1] --write
    citerag calibrate --reset --index DIR
    citerag chunking-study --corpus DIR --questions QUESTIONS.jsonl
    citerag ladder --sample [-n 20000]
    citerag eval-prepare squad|scifact|financebench --work DIR [--ingest]

The question format is documented in :mod:`citerag.eval.questions` and docs/guides/evaluation.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from citerag.eval.judge import GenerationRun

#: The sample corpus and questions of a source checkout.
REPO = Path(__file__).resolve().parent.parent
SAMPLE_CORPUS = REPO / "examples" / "corpus"
SAMPLE_QUESTIONS = REPO / "examples" / "questions.jsonl"
#: Paired comparisons printed for the default configurations.
DEFAULT_PAIRS = (
    ("bm25", "dense"),
    ("hybrid", "dense"),
    ("hybrid", "bm25"),
    ("hybrid+sentence", "hybrid"),
    ("hybrid+sentence", "dense"),
)


def _echo(text: str = "") -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _open_index(index: Path | str, embedding_model: str | None) -> tuple[Any, Any]:
    from citerag.embeddings import load_embedding_model
    from citerag.stores.loaded import load_index

    model = load_embedding_model(embedding_model)
    return model, load_index(index, model)


def _evaluator(args: argparse.Namespace, model: Any, loaded: Any, groups: list[str]) -> Any:
    from citerag.eval.evidence import IndexedCorpus
    from citerag.eval.runner import Evaluator
    from citerag.stores.calibration import read_calibration

    corpus = IndexedCorpus.from_store(loaded.store, loaded.manifest.documents, groups)
    return Evaluator(
        loaded.store,
        model.embeddings,
        corpus,
        calibration=read_calibration(args.index),
        user_groups=groups,
        manifest_id=loaded.manifest_id,
        embedding_model=model.name,
    )


def _groups(args: argparse.Namespace) -> list[str]:
    from loaders.access import parse_groups

    return parse_groups(getattr(args, "groups", None))


def _limit(questions: list[Any], n: int | None) -> list[Any]:
    return questions if n is None else questions[:n]


# ------------------------------------------------------------------------------------------
# citerag eval
# ------------------------------------------------------------------------------------------


def _generate(
    args: argparse.Namespace, ev: Any, questions: list[Any], groups: list[str], progress: bool
) -> dict[str, GenerationRun]:
    """``--generate`` (repeatable) and ``--judge``: the full graph under each configuration,
    its figures and, with a judge, its judged figures (name -> ``GenerationRun``)."""
    from citerag.eval.runner import EvalConfig, parse_config

    specs: list[str] = list(args.generate or [])
    if args.judge and not specs:
        specs = ["default"]
    if not specs:
        return {}
    from citerag.eval.judge import AnswerJudge, judge_model, run_generations
    from graphs.rag import build_graph

    configs = []
    for spec in specs:
        gcfg = parse_config(spec)
        if args.model:
            gcfg = EvalConfig(
                f"{gcfg.name}+{args.model}",
                tuple(sorted({**gcfg.conf, "model": args.model}.items())),
            )
        configs.append(gcfg)
    judge = AnswerJudge(judge_model(args.judge, judge_settings(args))) if args.judge else None
    graph = build_graph(ev.deps)
    return run_generations(
        [(c, graph) for c in configs],
        questions,
        corpus=ev.corpus,
        judge=judge,
        judge_name=str(args.judge or ""),
        user_groups=groups,
        progress=progress,
    )


def _print_generation(name: str, gen_res: dict[str, Any]) -> None:
    from citerag.eval import report

    _echo(f"\nGeneration {name} ({gen_res['generator']}; config {gen_res['config']})\n")
    rows = []
    for key in (
        "citation_resolve",
        "quote_match",
        "answered_answerable",
        "no_evidence_answerable",
        "no_evidence_unanswerable",
        "unusable",
        "cites_evidence",
    ):
        if key in gen_res:
            p = gen_res[key]
            rows.append(
                [
                    key.replace("_", " "),
                    f"{p['k']}/{p['n']}",
                    f"{p['value']:.3f} [{p['ci95'][0]:.3f}, {p['ci95'][1]:.3f}]",
                ]
            )
    _echo(report.table(["figure", "count", "rate [95 % Wilson]"], rows))
    if gen_res["generator"] == "extractive":
        _echo(
            "(the extractive answerer quotes passages verbatim, so citation and quote "
            "figures are ~100 % by construction; configure --model to measure a model)"
        )


def check_model_specs(args: argparse.Namespace) -> None:
    """Refuse a ``--model`` or ``--judge`` that is no model spec, or names a provider
    ``init_chat_model`` does not know, before the index loads and the questions run
    (:func:`chains.models.check_model_spec`, as ``citerag ask --model`` is checked).

    Raises:
        ModelSetupError: Naming the option, the value and what would be accepted.
    """
    from chains.models import ModelSetupError, check_model_spec

    for option in ("model", "judge"):
        spec = getattr(args, option, None)
        if spec:
            try:
                check_model_spec(spec)
            except ModelSetupError as exc:
                raise ModelSetupError(f"--{option}: {exc}") from exc


def judge_settings(args: argparse.Namespace) -> Any:
    """The judge's :class:`~chains.models.ModelSettings` from ``--judge-setting`` items and
    ``--judge-base-url``.

    Raises:
        ValueError: An unknown setting or a bad value (named).
    """
    from chains.models import ModelSettings, parse_setting

    values: dict[str, Any] = {}
    for item in getattr(args, "judge_settings", None) or []:
        key, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"--judge-setting takes KEY=VALUE, not {item!r}")
        values[key.strip()] = parse_setting(key.strip(), value.strip())
    if getattr(args, "judge_base_url", None):
        values["base_url"] = args.judge_base_url
    return ModelSettings.from_mapping({k: v for k, v in values.items() if v is not None})


def cmd_eval(args: argparse.Namespace) -> int:
    """Retrieval evaluation (and, with ``--generate``, generation-side figures)."""
    from citerag.eval import report
    from citerag.eval.questions import load_questions
    from citerag.eval.runner import DEFAULT_CONFIGS, compare, evidence_summary, parse_config

    check_model_specs(args)
    questions = _limit(load_questions(args.questions), args.limit)
    pairs: list[tuple[str, str]] = [(p[0], p[1]) for p in (args.compare or [])]
    specs: list[str] = list(args.config or [])
    for a, b in pairs:
        for s in (a, b):
            if s not in specs:
                specs.append(s)
    if not specs:
        specs = list(DEFAULT_CONFIGS)
        pairs = list(DEFAULT_PAIRS)
    elif not pairs and len(specs) > 1:
        pairs = [(specs[i], specs[i - 1]) for i in range(1, len(specs))]
    configs = [parse_config(s) for s in specs]
    by_spec = dict(zip(specs, configs, strict=True))
    groups = _groups(args)
    model, loaded = _open_index(args.index, args.embedding_model)
    ev = _evaluator(args, model, loaded, groups)
    progress = not args.no_progress
    runs = {c.name: ev.run(questions, c, progress=progress) for c in configs}
    comparisons = [
        (by_spec[a].name, by_spec[b].name, compare(runs[by_spec[a].name], runs[by_spec[b].name]))
        for a, b in pairs
    ]
    evidence = evidence_summary(ev.corpus, questions)
    out: dict[str, Any] = {
        "index": str(args.index),
        "manifest_id": loaded.manifest_id,
        "questions": str(args.questions),
        "n": len(questions),
        "answerable": sum(not q.unanswerable for q in questions),
        "user_groups": groups,
        "evidence": evidence,
        "configs": {name: run.summary() for name, run in runs.items()},
        "comparisons": {
            f"{a} vs {b}": {m: p.to_json() for m, p in res.items()} for a, b, res in comparisons
        },
    }
    gens = _generate(args, ev, questions, groups, progress)
    if gens:
        first = next(iter(gens.values()))
        out["generation"] = first.figures
        if len(gens) > 1:
            out["generations"] = {name: g.figures for name, g in gens.items()}
    names = list(gens)
    gen_pairs = [(names[i], names[i - 1]) for i in range(1, len(names))]
    judged_pairs: list[tuple[str, str, dict[str, Any]]] = []
    if args.judge:
        from citerag.eval.judge import compare_judged

        for a, b in gen_pairs:
            ja, jb = gens[a].judged, gens[b].judged
            assert ja is not None and jb is not None
            judged_pairs.append((a, b, compare_judged(ja, jb)))
        out["judge_comparisons"] = {
            f"{a} vs {b}": {m: p.to_json() for m, p in res.items()} for a, b, res in judged_pairs
        }
    if args.per_question:
        path = Path(args.per_question)
        path.parent.mkdir(parents=True, exist_ok=True)
        qtext = {q.id: q for q in questions}
        with path.open("w", encoding="utf-8") as fh:
            for name, run in runs.items():
                for r in run.results:
                    rec = {"config": name, "question": qtext[r.id].question, **r.to_json()}
                    fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
            for g in gens.values():
                for rec in g.records(questions):
                    fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    if args.plot and out["answerable"]:
        from citerag.eval.plots import recall_curves, save

        out["plot"] = str(
            save(
                recall_curves(list(runs.values()), title=f"{Path(args.questions).name}"), args.plot
            )
        )
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(
            json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    if args.json:
        _echo(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    run_list = list(runs.values())
    n_ans = out["answerable"]
    _echo(
        f"{len(questions)} questions ({n_ans} answerable, {len(questions) - n_ans} "
        f"unanswerable) over index {args.index} (build {loaded.manifest_id})"
    )
    _echo("\nEvidence in the index (independent of retrieval)\n")
    _echo(report.evidence_table(evidence))
    if n_ans:
        _echo(
            "\nRetrieval (answerable questions; recall: 95 % Wilson; MRR/nDCG: 95 % "
            "percentile bootstrap)\n"
        )
        _echo(report.retrieval_table(run_list))
        _echo("\nWhere the evidence ended up (failure attribution)\n")
        _echo(report.attribution_table(run_list))
    _echo("\nGate\n")
    _echo(report.refusal_table(run_list))
    if comparisons:
        _echo(
            "\nPaired comparisons on the same questions (A's wins/losses against B, "
            "two-sided exact sign test)\n"
        )
        _echo(report.compare_table(comparisons))
    for name, g in gens.items():
        _print_generation(name, g.figures)
    judged = [g.judged for g in gens.values() if g.judged is not None]
    if judged:
        _echo(
            f"\nAnswers judged by {args.judge} (prompt {judged[0].judge_prompt}; 95 % Wilson; "
            "unjudged answers count in every denominator, never as supported)\n"
        )
        _echo(report.judge_table(judged))
        if judged_pairs:
            _echo(
                "\nPaired comparisons of judged answers (A's wins/losses against B on "
                "per-question scores, two-sided exact sign test; n = questions both scored)\n"
            )
            _echo(report.compare_table(judged_pairs))
    if args.per_question:
        _echo(f"\nper-question results: {args.per_question}")
    if out.get("plot"):
        _echo(f"recall@k plot: {out['plot']}")
    return 0


# ------------------------------------------------------------------------------------------
# citerag calibrate
# ------------------------------------------------------------------------------------------


def _reset_calibration(index: Path | str) -> int:
    """``citerag calibrate --reset``: remove the index's calibration."""
    from citerag.stores.calibration import reset_calibration

    where = reset_calibration(index)
    if where is None:
        _echo(
            f"{index} has no calibration: the packaged defaults (chains/gate_defaults.json) apply"
        )
    else:
        _echo(
            f"removed the calibration of {index} ({where}): the packaged defaults "
            "(chains/gate_defaults.json) apply again"
        )
    return 0


def _packaged_thresholds() -> dict[str, Any]:
    """The packaged thresholds by calibration key (with the packaged answerability model)."""
    from chains.gate import gate_defaults, packaged_answerability

    out: dict[str, Any] = dict(gate_defaults())
    model = packaged_answerability()
    if model is not None:
        out["answerability"] = {"threshold": model.threshold}
    return out


def _gate_in_effect(gens: list[Any]) -> dict[str, Any]:
    """The gate record (score, threshold, source) of the first run that reached the gate."""
    for g in gens:
        gate = (g.result.get("trace") or {}).get("gate")
        if gate:
            return {k: gate.get(k) for k in ("score", "score_of", "threshold", "threshold_source")}
    return {}


def _ask_to_write(path: str) -> bool:
    """In an interactive terminal: ask before writing."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    try:
        reply = input(f"write these thresholds to {path}? [y/N] ")
    except EOFError:
        return False
    return reply.strip().lower() in ("y", "yes")


def cmd_calibrate(args: argparse.Namespace) -> int:
    """Sweep the gate threshold on the full graph's outcome, choose one by a rule, show the
    diff and what it keeps, and write INDEX/calibration.json only with ``--write`` (and an
    adequate sample, unless ``--force``); ``--reset`` removes it."""
    if args.reset:
        if args.questions or args.write:
            raise ValueError("--reset removes the calibration: give it no question file or --write")
        return _reset_calibration(args.index)
    if not args.questions:
        raise ValueError("give a question file (or --reset to remove the index's calibration)")
    from dataclasses import replace

    from citerag.eval import calibrate as calib
    from citerag.eval import calibration_policy as policy
    from citerag.eval.adapters import out_of_domain
    from citerag.eval.plots import plot_calibration
    from citerag.eval.questions import load_questions
    from citerag.eval.runner import EvalConfig, generate_answers, parse_config
    from citerag.stores.calibration import CALIBRATION_PLOT, write_calibration
    from citerag.stores.dispatch import backend_for
    from citerag.stores.location import describe
    from graphs.rag import build_graph

    check_model_specs(args)
    questions = _limit(load_questions(args.questions), args.limit)
    ood: list[Any] = []
    for path in args.ood or []:
        ood += out_of_domain(load_questions(path), f"ood:{Path(path).stem}:")
    cfg = parse_config(args.config)
    if args.model:
        cfg = EvalConfig(
            f"{cfg.name}+{args.model}", tuple(sorted({**cfg.conf, "model": args.model}.items()))
        )
    model, loaded = _open_index(args.index, args.embedding_model)
    groups = _groups(args)
    ev = _evaluator(args, model, loaded, groups)
    progress = not args.no_progress
    current = dict(ev.deps.calibration or {})
    answer_graph = build_graph(ev.deps)
    rule = (
        calib.Rule("min-kept", args.min_kept)
        if args.min_kept is not None
        else calib.Rule("max-bluff", args.max_bluff)
    )
    result = calib.run_calibration(
        ev,
        questions,
        cfg,
        ood=ood,
        rule=rule,
        bluff_set=args.bluff_set,
        progress=progress,
        answer_graph=answer_graph,
    )
    cals, bluff_set = result.calibrations, result.bluff_set
    data = {"questions": str(args.questions), "ood": [str(p) for p in args.ood or []]}
    entries = result.entries(data)
    intervals: dict[str, policy.ThresholdInterval | None] = {}
    for cal in cals:
        try:
            intervals[cal.scores.key] = policy.threshold_interval(cal.scores, rule, bluff_set)
        except ValueError:
            intervals[cal.scores.key] = None
    for cal in cals:
        iv = intervals[cal.scores.key]
        if iv is not None:
            entries[cal.scores.key]["threshold_ci95"] = [round(iv.low, 6), round(iv.high, 6)]
    diff = policy.threshold_diff(entries, current, _packaged_thresholds())

    # the full graph under the current thresholds and under the proposed ones
    allq = [*questions, *ood]
    cur_gens = generate_answers(answer_graph, allq, cfg, user_groups=groups, progress=progress)
    proposed_graph = build_graph(replace(ev.deps, calibration={**current, **entries}))
    new_gens = generate_answers(proposed_graph, allq, cfg, user_groups=groups, progress=progress)
    kept = policy.compare_kept(
        [q.id for q in allq],
        [q.unanswerable for q in allq],
        [g.status == "answered" for g in cur_gens],
        [g.status == "answered" for g in new_gens],
    )
    gate_now, gate_new = _gate_in_effect(cur_gens), _gate_in_effect(new_gens)
    sample = policy.SampleRule()
    n_bluff = len(result.negatives[bluff_set].unanswerable)
    decision = policy.decide_write(sample, len(result.run.answerable), n_bluff, bluff_set, kept)
    backend = backend_for(args.index)
    target = backend.calibration_place()
    written = None
    refused = bool(decision.blockers) and not args.force
    if not refused and (args.write or (not args.json and _ask_to_write(target))):
        written = write_calibration(args.index, entries)
    plot_path: Path | None = None
    if args.plot:
        plot_path = Path(args.plot)
    elif written is not None and backend.directory is not None:
        plot_path = backend.directory / CALIBRATION_PLOT
    if plot_path is not None:
        plot_calibration(
            cals,
            plot_path,
            title=f"gate calibration — {Path(args.questions).name}"
            + (f" + out-of-domain {', '.join(Path(p).name for p in args.ood)}" if args.ood else ""),
        )
    refused_anyway = result.refused_anyway()
    if args.json:
        _echo(
            json.dumps(
                {
                    "entries": entries,
                    "decided_on": {
                        "generator": result.generator,
                        "refused_with_gate_open": refused_anyway,
                    },
                    "thresholds": {r.key: r.to_json() for r in diff},
                    "intervals": {k: (iv.to_json() if iv else None) for k, iv in intervals.items()},
                    "full_graph": {
                        "current_gate": gate_now,
                        "proposed_gate": gate_new,
                        "predicted_answerable_kept": _predicted_kept(result, gate_new),
                        **kept.to_json(),
                    },
                    "sample_rule": sample.describe(),
                    "blockers": decision.blockers,
                    "warnings": decision.warnings,
                    "plot": str(plot_path) if plot_path else None,
                    "written": describe(written) if written else None,
                    "tables": {
                        cal.scores.key: [
                            calib.evaluate_threshold(cal.scores, r["threshold"]) for r in cal.table
                        ]
                        for cal in cals
                    },
                },
                indent=2,
            )
        )
        return 1 if args.write and refused else 0
    _print_calibration(
        args, result, rule, intervals, diff, kept, gate_now, gate_new, refused_anyway
    )
    _echo(f"\nsample rule: {sample.describe()}")
    for w in decision.warnings:
        _echo(f"warning: {w}")
    if plot_path is not None:
        _echo(f"plot: {plot_path}")
    if decision.blockers:
        head = "NOT WRITTEN" if refused else "written anyway (--force)" if written else "note"
        for b in decision.blockers:
            _echo(f"{head}: {b}")
    if written:
        _echo(
            f"wrote {describe(written)} ({', '.join(entries)}): these thresholds now override the "
            "packaged defaults for this index; `citerag calibrate --reset` removes them"
        )
    elif refused:
        _echo(
            f"{target} not written: add questions (or pass --force to write anyway); the "
            "thresholds in effect are unchanged"
        )
        return 1 if args.write else 0
    else:
        _echo(
            f"not written: pass --write to write {target}; the thresholds in effect are unchanged"
        )
    return 0


def _print_calibration(
    args: argparse.Namespace,
    result: Any,
    rule: Any,
    intervals: dict[str, Any],
    diff: list[Any],
    kept: Any,
    gate_now: dict[str, Any],
    gate_new: dict[str, Any],
    refused_anyway: dict[str, list[str]],
) -> None:
    """The text report of ``citerag calibrate``."""
    from citerag.eval import calibrate as calib
    from citerag.eval import report

    _echo(f"rule: {rule.describe(result.bluff_set)}")
    ra, ru = refused_anyway["answerable"], refused_anyway["unanswerable"]
    _echo(
        f"decided on the full graph's outcome ({result.generator or 'the'} answerer, gate "
        f"open): it does not answer {len(ra)} answerable and {len(ru)} unanswerable "
        "question(s) whatever the threshold — those are never kept, and never bluffs"
        + (f" (unanswerable: {', '.join(ru[:8])}{' …' if len(ru) > 8 else ''})" if ru else "")
    )
    for cal in result.calibrations:
        s = cal.scores
        _echo(
            f"\ngate score {s.score} ({s.key}): {len(s.positives)} answerable; "
            + "; ".join(f"{k}: {len(v)}" for k, v in s.negatives.items())
            + "; ROC AUC "
            + ", ".join(f"vs {k} {v:.3f}" for k, v in cal.auc.items())
        )
        _echo("")
        _echo(calib.format_table(cal))
        c = cal.chosen
        iv = intervals.get(s.key)
        ivt = (
            f" (95 % interval {iv.fmt()}: stratified bootstrap over the questions, "
            f"{iv.resamples} resamples)"
            if iv is not None
            else ""
        )
        parts = [f"answerable kept {_count(c['answerable_kept'])}"]
        for k, v in c.items():
            if k.startswith("bluffs:"):
                name = k.split(":", 1)[1]
                parts.append(f"{name} refused {_count(_complement(v))}")
        _echo(f"\nchosen threshold {cal.threshold:.3f}{ivt}: " + "; ".join(parts))
    _echo("\nThresholds: packaged default -> this index's calibration -> proposed\n")
    rows = [
        [
            r.key,
            "—" if r.packaged is None else f"{r.packaged:.3f}",
            "—" if r.current is None else f"{r.current:.3f}",
            f"{r.proposed:.3f}" + ("" if r.changed else " (unchanged)"),
        ]
        for r in diff
    ]
    _echo(report.table(["score", "packaged", "current", "proposed"], rows))

    def gate_txt(g: dict[str, Any]) -> str:
        if not g:
            return "no question reached the gate"
        return f"{g['score_of']} >= {float(g['threshold']):.3f}, {g['threshold_source']}"

    p = kept.paired
    _echo(
        f"\nThe full graph on this sample (configuration {args.config}), current "
        f"({gate_txt(gate_now)}) against proposed ({gate_txt(gate_new)}):\n"
    )
    _echo(
        report.table(
            ["figure", "current", "proposed"],
            [
                ["answerable kept", _count(kept.current_kept), _count(kept.proposed_kept)],
                [
                    "unanswerable refused (all negative sets)",
                    _count(kept.current_refused),
                    _count(kept.proposed_refused),
                ],
            ],
        )
    )
    _echo(
        f"answerable kept, proposed against current: {p.wins} won, {p.losses} lost "
        f"(exact sign test p = {p.p_value:.3g})"
    )
    predicted = _predicted_kept(result, gate_new)
    if predicted is not None and predicted != kept.proposed_kept.k:
        _echo(
            f"note: the sweep predicted {predicted} answerable kept at the proposed threshold "
            f"(from the gate-open run); the full graph at that threshold kept "
            f"{kept.proposed_kept.k} (the answerer reads fewer passages once the gate cuts)"
        )


def _predicted_kept(result: Any, gate: dict[str, Any]) -> int | None:
    """Answerable kept at the proposed threshold as the sweep predicted it, for the score the
    graph uses (``None``: that score was not calibrated)."""
    key = {"answerability model": "answerability"}.get(
        str(gate.get("score_of")), gate.get("score_of")
    )
    for cal in result.calibrations:
        if cal.scores.key == key:
            return int(cal.chosen["answerable_kept"].k)
    return None


def _count(p: Any) -> str:
    lo, hi = p.interval
    return f"{p.k}/{p.n} = {p.value:.0%} [{lo:.0%}, {hi:.0%}]"


def _complement(p: Any) -> Any:
    from citerag.eval.metrics import Proportion

    return Proportion(p.n - p.k, p.n)


# ------------------------------------------------------------------------------------------
# citerag chunking-study
# ------------------------------------------------------------------------------------------


def cmd_chunking_study(args: argparse.Namespace) -> int:
    """Index a corpus with six chunking strategies and compare them."""
    from citerag.embeddings import load_embedding_model
    from citerag.eval.adapters import default_data_dir, prepare
    from citerag.eval.chunking_study import destroyed_table, run_study
    from citerag.eval.questions import load_questions

    work = Path(args.work)
    sets: dict[str, list[Any]] = {}
    if args.dataset == "squad":
        data = Path(args.data) if args.data else default_data_dir()
        prep = prepare("squad", data, work / "data")
        corpus = prep.corpus
        sets["answer sentence"] = _limit(load_questions(prep.extra["sentence"]), args.limit)
        sets["answer span"] = _limit(load_questions(prep.questions), args.limit)
    elif args.dataset == "sample" or (args.corpus is None and args.questions is None):
        if not SAMPLE_CORPUS.is_dir():
            raise ValueError("no sample corpus here: pass --corpus DIR --questions FILE")
        corpus = SAMPLE_CORPUS
        sets["needle"] = load_questions(SAMPLE_QUESTIONS)
    else:
        if args.corpus is None or args.questions is None:
            raise ValueError("give both --corpus DIR and --questions FILE")
        corpus = Path(args.corpus)
        sets["questions"] = _limit(load_questions(args.questions), args.limit)
    model = load_embedding_model(args.embedding_model)
    study = run_study(
        corpus,
        sets,
        work / "strategies",
        model,
        chunk_size=args.chunk_size,
        overlap=args.overlap,
        configs=args.configs.split(","),
        only=list(args.only) if args.only else None,
        progress=not args.no_progress,
    )
    result = study.to_json()
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    if args.json:
        _echo(json.dumps(result, indent=2))
        return 0
    _echo(f"corpus {corpus}; chunk size {args.chunk_size}, overlap {args.overlap}\n")
    _echo(destroyed_table(study))
    _echo("")
    _echo(study.tables())
    return 0


# ------------------------------------------------------------------------------------------
# citerag ladder
# ------------------------------------------------------------------------------------------


def cmd_ladder(args: argparse.Namespace) -> int:
    """Fault injection through the real graph: the ladder article's unusable-answer table."""
    from citerag.eval.faults import ladder_on_index
    from citerag.eval.questions import load_questions
    from citerag.eval.runner import CachedEmbeddings, parse_config
    from citerag.stores.calibration import read_calibration

    index = args.index
    tmp = None
    if args.sample:
        from citerag.embeddings import load_embedding_model
        from citerag.index.ingest import ingest

        if not SAMPLE_CORPUS.is_dir():
            raise ValueError("no sample corpus in this installation: pass --index")
        tmp = tempfile.TemporaryDirectory(prefix="citerag-ladder-")
        index = Path(tmp.name) / "index"
        ingest(
            [SAMPLE_CORPUS],
            index,
            load_embedding_model(args.embedding_model),
            progress=not args.no_progress,
        )
    try:
        questions = load_questions(args.questions or SAMPLE_QUESTIONS)
        model, loaded = _open_index(index, args.embedding_model)
        run = ladder_on_index(
            loaded,
            CachedEmbeddings(model.embeddings),
            questions,
            parse_config(args.config),
            embedding_model=model.name,
            calibration=read_calibration(index),
            n=args.n,
            p_no_results=args.p_no_results,
            p_error=args.p_error,
            p_malformed=args.p_malformed,
            seed=args.seed,
            progress=not args.no_progress,
        )
        res, off_topic = run.result, run.off_topic
        near = [q.id for q in run.near_miss]
    finally:
        if tmp is not None:
            tmp.cleanup()
    out = res.to_json()
    out["off_topic_questions"] = [q.id for q in off_topic]
    out["not_used_unanswerable (gate passes them)"] = near
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    if args.json:
        _echo(json.dumps(out, indent=2))
        return 0
    _echo(
        f"{res.n} runs through the real graph with a fault-injecting chat model "
        f"(p_error={args.p_error}, p_malformed={args.p_malformed}, "
        f"p_no_results={args.p_no_results}, seed={args.seed})"
    )
    _echo(
        f"answerable pool: {sum(not q.unanswerable for q in questions)} questions; "
        f"off-topic pool (refused by the gate): {', '.join(q.id for q in off_topic)}"
    )
    nr = out["no_results"]
    _echo(
        f"realised: no results {nr['k']}/{nr['n']} = {nr['value']:.2%}; model calls "
        f"{res.tally.get('calls', 0)}, errors {res.tally.get('errors', 0)}, malformed "
        f"{sum(v for k, v in res.tally.items() if k.startswith('malformed'))}"
    )
    _echo(f"final statuses: {res.status}; rungs needed: {res.needed}\n")
    _echo(res.table())
    _echo(
        "\n'expected' is the analytic value for independent faults; the ladder article's figures "
        "come from its own simulation (N=20,000)."
    )
    return 0


# ------------------------------------------------------------------------------------------
# citerag eval-prepare
# ------------------------------------------------------------------------------------------


def cmd_prepare(args: argparse.Namespace) -> int:
    """Materialise a public data set as documents + a question file (and optionally ingest)."""
    from citerag.eval.adapters import default_data_dir, ensure_index, prepare

    data = Path(args.data) if args.data else default_data_dir()
    prep = prepare(args.dataset, data, Path(args.work))
    info: dict[str, Any] = {
        "dataset": prep.name,
        "corpus": str(prep.corpus),
        "questions": str(prep.questions),
        "extra": {k: str(v) for k, v in prep.extra.items()},
        "counts": prep.counts,
    }
    if args.ingest:
        from citerag.embeddings import load_embedding_model

        rep = ensure_index(
            prep,
            Path(args.index),
            load_embedding_model(args.embedding_model),
            progress=not args.no_progress,
        )
        info["index"] = str(args.index)
        info["ingest"] = rep.summary()
    if args.json:
        _echo(json.dumps(info, indent=2))
        return 0
    _echo(f"{prep.name}: {prep.counts}")
    _echo(f"documents: {prep.corpus}")
    _echo(f"questions: {prep.questions}")
    for k, v in prep.extra.items():
        _echo(f"questions ({k}): {v}")
    if args.ingest:
        _echo(f"index: {args.index} ({info['ingest']})")
    else:
        _echo(
            f"next: citerag ingest {prep.corpus} --index INDEX && "
            f"citerag eval {prep.questions} --index INDEX"
        )
    return 0


# ------------------------------------------------------------------------------------------
# registration
# ------------------------------------------------------------------------------------------


def register(sub: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    """Register the evaluation subcommands."""
    from citerag.cli import positive_int
    from citerag.eval.adapters import DATASETS

    def shared(sp: argparse.ArgumentParser) -> None:
        common(sp)
        sp.add_argument(
            "--embedding-model",
            default=None,
            help="embedding model of the index (default: bundled MiniLM)",
        )
        sp.add_argument("--no-progress", action="store_true", help="no progress bars")

    sp = sub.add_parser(
        "eval",
        help="retrieval metrics with intervals, failure attribution, paired tests",
        description="Run a question file (JSONL; see docs/guides/evaluation.md, 'Question "
        "format') through the graph's retrieval stages under one or more configurations.",
    )
    shared(sp)
    sp.add_argument("questions", help="question file (JSONL)")
    sp.add_argument(
        "--config",
        action="append",
        metavar="SPEC",
        help="configuration to evaluate (repeatable): dense, bm25, hybrid, "
        "hybrid+sentence, default, hybrid+ce:NAME, key=value,... or "
        "@file.json (default: the first four)",
    )
    sp.add_argument(
        "--compare",
        nargs=2,
        action="append",
        metavar=("A", "B"),
        help="paired comparison of A against B (repeatable)",
    )
    sp.add_argument("--groups", help="comma-separated user groups to evaluate as")
    sp.add_argument(
        "--generate",
        nargs="?",
        const="default",
        action="append",
        metavar="CONFIG",
        help="also run the full graph (generation) under CONFIG (default: "
        "'default') and report citation/quote/no-evidence/unusable rates; repeatable: "
        "each configuration is compared with the one before it when judged",
    )
    sp.add_argument("--model", help="chat model for --generate (init_chat_model string)")
    sp.add_argument(
        "--judge",
        metavar="MODEL",
        help="judge the generated answers with this chat model (e.g. openai:gpt-4.1-mini): "
        "faithfulness (ALCE citation recall), citation precision, answer relevance, "
        "correctness against gold answers; implies --generate",
    )
    sp.add_argument(
        "--judge-base-url",
        metavar="URL",
        help="OpenAI-compatible server for --judge (e.g. http://localhost:8000/v1); the same "
        "as --judge-setting base_url=URL",
    )
    sp.add_argument(
        "--judge-setting",
        dest="judge_settings",
        action="append",
        metavar="KEY=VALUE",
        help="a setting of the judge's chat model (as --model-setting: base_url, api_key_env, "
        "max_tokens, timeout_s, max_retries); repeatable",
    )
    sp.add_argument("--limit", type=positive_int, help="only the first N questions")
    sp.add_argument("--out", help="write the JSON results to this file")
    sp.add_argument("--per-question", help="write per-question results (JSONL) to this file")
    sp.add_argument("--plot", help="save recall@k curves with 95 %% intervals to this PNG")
    sp.set_defaults(func=cmd_eval)

    sp = sub.add_parser(
        "calibrate",
        help="choose gate thresholds on your questions; --write them to INDEX/calibration.json",
        description="Sweep the gate threshold over answerable vs unanswerable (and "
        "out-of-domain) questions, decided on the full graph's outcome (a question the "
        "answerer refuses anyway is never a bluff), choose one by a stated rule and report it "
        "with a bootstrap interval, what it keeps and refuses (Wilson intervals) and the diff "
        "against the thresholds in effect. Writes INDEX/calibration.json only with --write, "
        "and only on an adequate sample (--force overrides); --reset removes it.",
    )
    shared(sp)
    sp.add_argument(
        "questions",
        nargs="?",
        help="question file with answerable (and unanswerable) questions",
    )
    sp.add_argument(
        "--ood",
        action="append",
        metavar="FILE",
        help="out-of-domain questions (any labels; all treated as unanswerable)",
    )
    sp.add_argument(
        "--config",
        default="default",
        help="graph configuration whose gate is calibrated (default: default)",
    )
    sp.add_argument(
        "--max-bluff",
        type=float,
        default=0.10,
        help="rule: most answerable kept with bluff rate <= this (default 0.10)",
    )
    sp.add_argument(
        "--min-kept",
        type=float,
        help="rule instead: highest threshold keeping >= this share answerable",
    )
    sp.add_argument(
        "--bluff-set",
        choices=["auto", "ood", "unanswerable"],
        default="auto",
        help="negatives the rule applies to (auto: out-of-domain if given)",
    )
    sp.add_argument(
        "--write",
        action="store_true",
        help="write the proposed thresholds to INDEX/calibration.json (without it: show what "
        "would be written and the diff; an interactive terminal is asked)",
    )
    sp.add_argument(
        "--force",
        action="store_true",
        help="write even below the minimum sample or when the proposed thresholds keep "
        "markedly fewer answerable questions than the current ones",
    )
    sp.add_argument(
        "--reset",
        action="store_true",
        help="remove the index's calibration and its plot (the packaged defaults apply again)",
    )
    sp.add_argument("--model", help="chat model whose answers decide (default: extractive)")
    sp.add_argument("--plot", help="PNG path (default with --write: INDEX/calibration.png)")
    sp.add_argument("--dry-run", action="store_true", help=argparse.SUPPRESS)  # the default now
    sp.add_argument("--groups", help="comma-separated user groups to evaluate as")
    sp.add_argument("--limit", type=positive_int, help="only the first N questions")
    sp.set_defaults(func=cmd_calibrate)

    sp = sub.add_parser(
        "chunking-study",
        help="compare blind/boundary cuts, header and overlap (A-F)",
        description="Index a corpus with six chunking strategies and report destroyed "
        "evidence, recall and paired sign tests.",
    )
    shared(sp)
    sp.add_argument("--corpus", help="folder of documents (with --questions)")
    sp.add_argument("--questions", help="question file for --corpus")
    sp.add_argument(
        "--dataset",
        choices=["squad", "sample"],
        help="squad: SQuAD 2.0 articles from the shared data; sample: the bundled "
        "corpus (default when no --corpus)",
    )
    sp.add_argument("--data", help="shared data folder (default <repo>/../shared/data)")
    sp.add_argument(
        "--work", default=".citerag/chunking-study", help="work folder for the strategies' indexes"
    )
    sp.add_argument("--chunk-size", type=int, default=600)
    sp.add_argument("--overlap", type=int, default=80)
    sp.add_argument(
        "--configs",
        default="dense,hybrid",
        help="retrieval configurations, comma-separated (default dense,hybrid)",
    )
    sp.add_argument("--only", help="strategy letters to run, e.g. ACE")
    sp.add_argument("--limit", type=positive_int, help="only the first N questions of each set")
    sp.add_argument("--out", help="write the JSON results to this file")
    sp.set_defaults(func=cmd_chunking_study)

    sp = sub.add_parser(
        "ladder",
        help="fault injection on the real graph: the fallback-ladder table",
        description="Run N questions through the real graph with a fake chat model that "
        "fails, malforms its block, or answers; count unusable answers under "
        "four fallback policies.",
    )
    shared(sp)
    sp.add_argument(
        "--sample",
        action="store_true",
        help="build the bundled sample corpus into a temporary index",
    )
    sp.add_argument(
        "--questions",
        help="question file (default: examples/questions.jsonl); "
        "its unanswerable questions that the gate refuses "
        "are the 'no results' pool",
    )
    sp.add_argument("-n", type=int, default=20_000, help="runs (default 20000)")
    sp.add_argument("--seed", type=int, default=31)
    sp.add_argument("--p-error", type=float, default=0.02)
    sp.add_argument("--p-malformed", type=float, default=0.05)
    sp.add_argument("--p-no-results", type=float, default=0.06)
    sp.add_argument("--config", default="default", help="graph configuration")
    sp.add_argument("--out", help="write the JSON results to this file")
    sp.set_defaults(func=cmd_ladder)

    sp = sub.add_parser(
        "eval-prepare",
        help="turn SQuAD 2.0 / SciFact / FinanceBench into documents + questions",
        description="Materialise a public evaluation set from the shared data folder as "
        "documents in WORK/<name>/corpus and a question file.",
    )
    shared(sp)
    sp.add_argument("dataset", choices=list(DATASETS))
    sp.add_argument("--data", help="shared data folder (default <repo>/../shared/data)")
    sp.add_argument("--work", default=".citerag/eval-data", help="work folder")
    sp.add_argument("--ingest", action="store_true", help="also ingest into --index")
    sp.set_defaults(func=cmd_prepare)
