"""The server backend: an index kept in PostgreSQL + pgvector (``--store postgresql+psycopg://``).

* :mod:`.db` — the store URL, connections, the schema and the meta table;
* :mod:`.store` — :class:`~citerag.stores.postgres.store.PostgresStore`, the ``SearchIndex``
  (pgvector HNSW for the dense leg, :mod:`.keyword` BM25 over PostgreSQL lexemes for the
  keyword leg, :mod:`.filters` the metadata filter compiled to SQL);
* :mod:`.records` — the record manager's table;
* :mod:`.index` — open for reading, the ingest target, the calibration and build-id rows;
* :mod:`.backend` — :class:`~citerag.stores.postgres.backend.PostgresBackend`, the
  :class:`~citerag.stores.backend.Backend` of a store URL;
* :mod:`.registry` — the document registry in the store's tables, and :mod:`.coordination`
  the advisory job lock and ``LISTEN``/``NOTIFY`` the serving processes share.
"""
