"""One-off studies: each answered one question once, and its answer is in the docs' prose.

Run as ``python -m benchmarks.experiments.NAME``; they share :mod:`benchmarks.common` with the
standing benchmarks. The tables of theirs the docs quote come from result files like any other
(``benchmarks/results/``; transcribed from the published tables until a study is re-run). Kept
so a study can be repeated on new code or data.

* ``calibrate_outcome`` — calibrating the gate on the full graph's outcome vs the gate alone.
* ``chunking_study`` — chunking strategies A–F on SQuAD 2.0 (boundaries, overlap, header).
* ``constraint_parsing`` — company / period parsing of FinanceBench questions and filings.
* ``count_rule`` — the gold answers of counting questions that the count rule of
  ``quantity_check`` refuses.
* ``embedding_compare`` — a candidate embedding model against the default, paired.
* ``extractive_refusals`` — the extractive answerer's number check on and off.
* ``mmr_eval`` — MMR when assembling the context, against rank order.
* ``row_groups`` — table rows chunked as units on filings, against the default chunking.
* ``sentence_method_eval`` — contextual vs separately embedded sentence vectors.
* ``table_cost`` — the cost of reading PDF tables at parse time.
* ``table_libraries`` — pdfplumber against pypdfium2's character boxes on statement pages.
* ``table_titles`` — two versions of the PDF table reader on the filings, paired: table
  titles without the paragraph above them (``table_titles.json``); group labels that end
  where their indented rows do (``--result table_groups``).
"""
