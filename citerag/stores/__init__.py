"""The stores: where an index lives, the contracts every backend implements, one dispatch point.

Two backends, one subpackage each:

* :mod:`citerag.stores.faiss` — an index directory of FAISS + in-process BM25 builds (the
  embedded default);
* :mod:`citerag.stores.postgres` — an index in PostgreSQL + pgvector (a store URL).

Two contracts, beside them:

* :class:`~citerag.stores.contract.SearchIndex` — what the graph reads from an index while
  answering (dense and keyword legs, term statistics, sentence vectors, metadata);
* :class:`~citerag.stores.backend.Backend` — what the rest of the application does with an
  index *location*: open the published build, get an ingest target, read/write/reset the
  gate calibration, read the published build id, open the server's document registry and the
  job coordination its worker processes share.

:func:`citerag.stores.dispatch.backend_for` is the one place that tells a directory from a
store URL (the one caller of :func:`~citerag.stores.location.is_store_url`); everything else
asks the :class:`~citerag.stores.backend.Backend` it returns.

Shared by both backends and kept here: :mod:`.location` (index locations and their errors),
:mod:`.manifest` (what a build records), :mod:`.handles` (the records passed between the
ingest pipeline and a backend), :mod:`.chunk_vectors` (how a store embeds the chunks it is
given: both stores' ``add_documents`` call it), :mod:`.cosine` (the ``VectorStore`` base of
both stores), :mod:`.record_manager` (the record managers' base, and the SQLite one of a
FAISS build), :mod:`.registry` (the document registry's records and contract),
:mod:`.loaded` and :mod:`.calibration` (the location-taking functions, through the backend).

What stays in :mod:`citerag.index` is the ingest *pipeline* — collect, plan, parse, chunk,
write through a backend's target, publish (``ingest.py``, ``plan.py``, ``attached.py``): it
knows no backend, and sits one layer above this package (docs/reference/architecture.md).
Nothing here imports the pipeline; ``import citerag.stores`` loads no model, FAISS or driver.
"""
