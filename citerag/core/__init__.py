"""The bottom layer: small pure pieces every other layer shares (no project imports).

* :mod:`citerag.core.text` — the word tokenizer (BM25, reranker coverage, answer checks).
* :mod:`citerag.core.filters` — the metadata filter rule (access labels, question constraints).
* :mod:`citerag.core.identity` — who a bearer token belongs to (server and Agent Server auth).
"""
