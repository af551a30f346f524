"""The embedded backend: an index directory of atomically swapped FAISS + BM25 build folders.

* :mod:`.store` — :class:`~citerag.stores.faiss.store.CiteragStore`, the ``SearchIndex``
  (FAISS for the dense leg, :mod:`.bm25` in process for the keyword leg, :mod:`.sentence_table`
  for the precomputed sentence vectors; :mod:`.dense` is the one module that imports
  ``langchain_community``'s FAISS, :mod:`.row_file` the spill files a writer appends to);
* :mod:`.builds` — the directory layout (``current`` -> ``builds/<id>``) and its file lock;
* :mod:`.target` — the ingest target (a copy of the current build, published by a rename);
* :mod:`.backend` — :class:`~citerag.stores.faiss.backend.FaissBackend`, the
  :class:`~citerag.stores.backend.Backend` of an index directory;
* :mod:`.registry` — the document registry of a server on an index directory
  (``<data_dir>/documents.json``), and :mod:`.coordination` the job lock its worker
  processes share.
"""
