"""One file, one document: the same file ingested again by another path updates its document.

Real FAISS index and the real embedding model: a folder, then one of its files by a relative
path, an absolute path and a symlink; and a file alone, then its folder.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from citerag.index.ingest import ingest
from citerag.stores.loaded import load_index, read_manifest
from loaders.chunking import doc_id_for
from tests.support.ingest_checks import assert_store_in_step

pytestmark = pytest.mark.integration


@pytest.fixture
def docs(tmp_path: Path, sample_corpus: Path) -> Path:
    """A folder ``docs`` with two text files of the sample corpus."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("handbook.md", "maintenance_notes.txt"):
        shutil.copy(sample_corpus / name, folder / name)
    return folder


def _sources(index: Path) -> list[str]:
    return sorted(d["source"] for d in read_manifest(index).documents.values())


def test_a_file_of_an_ingested_folder_named_another_way_updates_its_document(
    docs: Path, tmp_path: Path, embedding_model, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = tmp_path / "index"
    ingest([docs], index, embedding_model, progress=False)
    assert _sources(index) == ["docs/handbook.md", "docs/maintenance_notes.txt"]
    (tmp_path / "link.md").symlink_to(docs / "handbook.md")
    monkeypatch.chdir(tmp_path)
    path = docs / "handbook.md"
    for n, given in enumerate((Path("./docs/handbook.md"), path.absolute(), Path("link.md"))):
        path.write_text(path.read_text(encoding="utf-8") + f"\nEdit {n}: the gate code is 40{n}.\n")
        report = ingest([given], index, embedding_model, progress=False)
        assert report.updated == ["docs/handbook.md"] and not report.indexed, given
        assert _sources(index) == ["docs/handbook.md", "docs/maintenance_notes.txt"]
    # unchanged by yet another path: nothing to do
    again = ingest([path], index, embedding_model, progress=False)
    assert again.unchanged == ["docs/handbook.md"] and again.chunks_added == 0
    store = load_index(index, embedding_model).store
    assert_store_in_step(store, index)
    assert {m["doc_id"] for _, m in store.iter_metadata()} == {
        doc_id_for("docs/handbook.md"),
        doc_id_for("docs/maintenance_notes.txt"),
    }
    (top, _), *_ = store.bm25_search("gate code 402", k=1)
    assert top.metadata["source"] == "docs/handbook.md"
    # the folder's next run prunes as before, and keeps the document
    assert ingest([docs], index, embedding_model, progress=False).unchanged == _sources(index)


def test_a_file_ingested_alone_then_with_its_folder_is_one_document(
    docs: Path, tmp_path: Path, embedding_model
) -> None:
    index = tmp_path / "index"
    ingest([docs / "handbook.md"], index, embedding_model, progress=False)
    assert _sources(index) == ["handbook.md"]
    report = ingest([docs], index, embedding_model, progress=False)
    assert report.deleted == ["handbook.md"]
    assert _sources(index) == ["docs/handbook.md", "docs/maintenance_notes.txt"]
    store = load_index(index, embedding_model).store
    assert doc_id_for("handbook.md") not in {m["doc_id"] for _, m in store.iter_metadata()}
    assert_store_in_step(store, index)
