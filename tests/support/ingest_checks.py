"""Helpers shared by the ingestion integration tests: store inspection and provenance checks."""

from __future__ import annotations

import re
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

from langchain_core.documents import Document

from citerag.stores.faiss.builds import current_build
from citerag.stores.faiss.open import RECORDS_FILE
from citerag.stores.faiss.store import CiteragStore
from citerag.stores.record_manager import SQLiteRecordManager
from loaders.attachments import MARK, read_attachment
from loaders.registry import load_attachment, load_file


def collapse(text: str) -> str:
    """Collapse every run of whitespace to one space (the needles' normal form)."""
    return " ".join(text.split())


def alnum(text: str) -> str:
    """Lower-case words and numbers only: robust against PDF extraction differences."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.lower()).split())


def chunks_by_source(store: CiteragStore) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Group ``(key, metadata)`` of every stored chunk by source key."""
    out: dict[str, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    for key, meta in store.iter_metadata():
        out[meta["source"]].append((key, meta))
    return dict(out)


def keys_of(store: CiteragStore, doc_id: str) -> set[str]:
    """Store keys of one document's chunks."""
    return {key for key, meta in store.iter_metadata() if meta["doc_id"] == doc_id}


def record_keys(index_dir: Path, group_ids: list[str] | None = None) -> list[str]:
    """Keys in the current build's record manager (optionally of some documents only)."""
    build = current_build(index_dir)
    assert build is not None, f"no current build in {index_dir}"
    records = SQLiteRecordManager("citerag", build / RECORDS_FILE)
    try:
        return records.list_keys(group_ids=group_ids)
    finally:
        records.close()


def assert_parts_in_step(store: CiteragStore) -> None:
    """FAISS, its docstore, BM25 and (when on) the sentence store hold the same keys."""
    dense = set(store.dense.index_to_docstore_id.values())
    assert len(dense) == store.dense.index.ntotal == len(store)
    assert all(isinstance(store.dense.docstore.search(k), Document) for k in dense)
    assert set(store.bm25.keys()) == dense
    if store.sentence_vectors:
        assert set(store.sentences) == dense


def _load_source(source: str, path_for_source: dict[str, Path]) -> Any:
    """Load a source: a file, or an e-mail attachment read from its message file."""
    if source in path_for_source or MARK not in source:
        return load_file(path_for_source[source])
    root, *steps = source.split(MARK)
    positions = tuple(int(step.split("/", 1)[0]) for step in steps)
    name, data = read_attachment(path_for_source[root].read_bytes(), positions)
    return load_attachment(name, data)


def assert_offsets(store: CiteragStore, path_for_source: dict[str, Path]) -> int:
    """Re-load every document and check ``canonical[start:end] == content`` for each chunk.

    Args:
        store: The loaded store.
        path_for_source: Source key -> file on disk, for every source in the store (an
            e-mail attachment is read from its message's file).

    Returns:
        How many chunks were checked.
    """
    checked = 0
    for source, items in chunks_by_source(store).items():
        parsed = _load_source(source, path_for_source)
        for key, meta in items:
            start, end = meta["start"], meta["end"]
            assert parsed.text[start:end] == meta["content"], f"{source} {key} {start}-{end}"
            doc = store.get_by_ids([key])[0]
            if meta.get("block_type") == "table_row" and not doc.page_content.endswith(
                meta["content"]
            ):
                # A row group (``--table-rows``) embeds its rows with their headers; it quotes
                # them verbatim. Text split as plain text may lie in a table too.
                rows = [t for t in parsed.tables for r in t.rows if start <= r.start < end]
                assert rows, f"{source} {key}: a table_row chunk holds a row"
                assert all(
                    r.label in doc.page_content
                    for t in rows
                    for r in t.rows
                    if start <= r.start < end
                )
            else:
                assert doc.page_content.endswith(meta["content"])
            assert meta["chunk_id"] == f"{meta['doc_id']}:{start}-{end}"
            if parsed.pages:
                seg = [s for s in parsed.segments if s.start <= start and end <= s.end]
                assert len(seg) == 1 and seg[0].page == meta["page"], f"{source} {key} page"
            checked += 1
    return checked


def clone_index(index_dir: Path, dest: Path) -> Path:
    """Copy an index directory (its ``current`` link is relative, so the copy works)."""
    shutil.copytree(index_dir, dest, symlinks=True)
    return dest


def stored_record_keys(location: Path | str, group_ids: list[str] | None = None) -> list[str]:
    """Record-manager keys of an index on either store (optionally of some documents)."""
    from citerag.stores.dispatch import backend_for

    if backend_for(location).directory is not None:
        return record_keys(Path(location), group_ids)
    from citerag.stores.postgres.db import StoreURL, connect
    from citerag.stores.postgres.records import PostgresRecordManager

    url = StoreURL.parse(str(location))
    with connect(url) as conn:
        return PostgresRecordManager("citerag", url, conn).list_keys(group_ids=group_ids)


def assert_store_in_step(store: Any, location: Path | str) -> set[str]:
    """Every part of a store, and its record manager, hold the same chunk keys.

    FAISS: the dense index, its docstore, BM25 and the sentence store. PostgreSQL: the chunk
    rows (dense and keyword legs read the same rows) and the sentence-vector rows.

    Returns:
        The keys.
    """
    from citerag.stores.postgres.store import PostgresStore

    keys = {key for key, _ in store.iter_metadata()}
    if isinstance(store, PostgresStore):
        assert len(store) == len(keys)
        if store.sentence_vectors:
            assert set(store.sentence_vectors_many(sorted(keys))) == keys
    else:
        assert_parts_in_step(store)
    assert set(stored_record_keys(location)) == keys
    return keys
