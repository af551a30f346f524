"""A writer killed with SIGKILL mid-ingest leaves the previous build current and consistent."""

from __future__ import annotations

import fcntl
import random
import shutil
import signal
from pathlib import Path

import pytest

from citerag.index.ingest import ingest
from citerag.stores.faiss.builds import BUILDS, current_build
from citerag.stores.loaded import load_index
from tests.support.ingest_checks import assert_parts_in_step, clone_index, record_keys
from tests.support.killed_writer import writer_stuck_mid_ingest

pytestmark = pytest.mark.integration


def _generate_texts(folder: Path, count: int) -> None:
    """Write ``count`` small text files (one chunk each) with a unique code in each."""
    rng = random.Random(11)
    words = [
        "inverter",
        "panel",
        "meter",
        "cable",
        "roof",
        "site",
        "member",
        "share",
        "board",
        "audit",
        "tariff",
        "grid",
        "battery",
        "export",
        "survey",
        "volunteer",
        "fuse",
    ]
    folder.mkdir(parents=True)
    for i in range(count):
        body = " ".join(rng.choice(words) for _ in range(rng.randint(15, 40)))
        (folder / f"note_{i:03d}.txt").write_text(
            f"Site log {i} has reference LOG-{i:04d}.\n\n{body}.\n", encoding="utf-8"
        )


def test_sigkill_mid_ingest_keeps_the_old_build(
    tmp_path: Path, sample_corpus: Path, sample_index: Path, embedding_model
) -> None:
    # Start from a copy of the sample index: an index over the sample corpus in tmp.
    corpus = Path(shutil.copytree(sample_corpus, tmp_path / "corpus"))
    index_dir = clone_index(sample_index, tmp_path / "index")
    generated = tmp_path / "generated"
    _generate_texts(generated, 200)
    old = load_index(index_dir, embedding_model)
    old_build = old.manifest_id
    old_keys = set(old.store.dense.index_to_docstore_id.values())
    n_docs = len(old.manifest.documents)

    with writer_stuck_mid_ingest(
        "citerag.stores.faiss.store:CiteragStore",
        index_dir,
        [corpus, generated],
        tmp_path / "child.err",
    ) as child:
        leftovers = list((index_dir / BUILDS).glob(".tmp-*"))
        assert len(leftovers) == 1, "the child should be writing a temporary build"
    assert child.returncode == -signal.SIGKILL
    assert leftovers[0].exists(), "a killed writer cannot clean up after itself"

    # The writer lock died with the child.
    with (index_dir / ".lock").open("w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(fh, fcntl.LOCK_UN)

    # Readers still see the old, complete build.
    after = load_index(index_dir, embedding_model)
    assert after.manifest_id == old_build
    assert current_build(index_dir).name == old_build
    assert set(after.store.dense.index_to_docstore_id.values()) == old_keys
    assert len(after.store) == len(old.store)
    assert not any(m["source"].startswith("generated/") for _, m in after.store.iter_metadata())
    assert_parts_in_step(after.store)
    assert set(record_keys(index_dir)) == old_keys
    assert len(record_keys(index_dir)) == len(after.store)
    (top, _), *_ = after.store.bm25_search("E-217", k=1)
    assert top.metadata["doc_name"] == "maintenance_notes.txt"
    assert len(after.store.similarity_search("annual revenue", k=3)) == 3

    # The next normal ingest completes and clears the dead writer's temporary folder.
    report = ingest([corpus, generated], index_dir, embedding_model, progress=False)
    assert len(report.indexed) == 200 and not report.failed
    assert len(report.unchanged) == n_docs
    assert report.build_id != old_build
    assert not list((index_dir / BUILDS).glob(".tmp-*"))
    final = load_index(index_dir, embedding_model)
    assert final.manifest_id == report.build_id
    assert old_keys < set(final.store.dense.index_to_docstore_id.values())
    assert_parts_in_step(final.store)
    assert len(record_keys(index_dir)) == len(final.store)
    (top, _), *_ = final.store.bm25_search("LOG-0137", k=1)
    assert top.metadata["doc_name"] == "note_137.txt"
