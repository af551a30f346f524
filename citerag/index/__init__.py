"""The ingest pipeline: files -> chunks -> a published build, through a backend's target.

``ingest.py`` collects and hashes the sources, plans each document (``plan.py``, pure),
collects e-mail attachments as sources of their own (``attached.py``), parses and chunks in
worker processes and writes each phase through the ingest target of the location's backend
(``citerag.stores.dispatch.backend_for(location).target()``), then publishes it. It knows no
backend: the stores, their builds, manifests, record managers and the chunk embedding they
share live in :mod:`citerag.stores`, one layer below (docs/reference/architecture.md).
"""
