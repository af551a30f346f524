"""Evaluation and calibration harness: measure retrieval, the gate and the fallback ladder.

Modules:

* :mod:`citerag.eval.questions` — the JSONL question format, its loader and validator.
* :mod:`citerag.eval.evidence` — when a chunk "hits" an evidence item; destroyed evidence.
* :mod:`citerag.eval.metrics` — recall@k, MRR, nDCG, Wilson intervals, exact sign tests.
* :mod:`citerag.eval.runner` — run questions through the graph's own nodes, with per-question
  failure attribution; paired comparisons; generation-side figures.
* :mod:`citerag.eval.adapters` — SQuAD 2.0, SciFact and FinanceBench as documents + questions.
* :mod:`citerag.eval.calibrate` — gate threshold sweep, selection rule, plot, calibration file.
* :mod:`citerag.eval.chunking_study` — blind / boundaries / header / overlap strategies.
* :mod:`citerag.eval.faults` — fault-injection fake chat model and the fallback-ladder table.
* :mod:`citerag.eval.report` — plain-text / Markdown tables.
"""
