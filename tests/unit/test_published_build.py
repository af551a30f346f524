"""The published build id of a FAISS index directory, symlinked or copied without links.

Serving workers poll it to decide whether to reload: it must equal the served manifest's
``build_id`` in both layouts, or a server reloads the whole index every watch interval.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from citerag.stores.dispatch import backend_for
from citerag.stores.faiss.builds import published_build_id


def _index(root: Path, build_id: str) -> Path:
    build = root / "builds" / build_id
    build.mkdir(parents=True)
    (build / "manifest.json").write_text(json.dumps({"build_id": build_id}), encoding="utf-8")
    os.symlink(Path("builds") / build_id, root / "current")
    return root


def test_no_index_has_no_published_build(tmp_path: Path) -> None:
    assert published_build_id(tmp_path) is None
    assert backend_for(tmp_path).published_build() is None


def test_the_symlinked_build_is_named_by_its_folder(tmp_path: Path) -> None:
    index = _index(tmp_path / "index", "20261204T120000.000000-aaaa1111")
    assert published_build_id(index) == "20261204T120000.000000-aaaa1111"
    assert backend_for(index).published_build() == "20261204T120000.000000-aaaa1111"


def test_an_index_copied_without_symlinks_reports_its_manifest_build_id(tmp_path: Path) -> None:
    index = _index(tmp_path / "index", "20261204T120000.000000-aaaa1111")
    copy = tmp_path / "copy"
    shutil.copytree(index, copy, symlinks=False)  # 'current' becomes a real folder
    assert (copy / "current").is_dir() and not (copy / "current").is_symlink()
    assert published_build_id(copy) == "20261204T120000.000000-aaaa1111"
    # a new manifest in the folder (a later sync) is read again
    (copy / "current" / "manifest.json").write_text(
        json.dumps({"build_id": "20261205T090000.000000-bbbb2222", "documents": {}}),
        encoding="utf-8",
    )
    assert published_build_id(copy) == "20261205T090000.000000-bbbb2222"


def test_a_copied_folder_without_a_readable_manifest_has_no_build(tmp_path: Path) -> None:
    (tmp_path / "current").mkdir()
    assert published_build_id(tmp_path) is None
    (tmp_path / "current" / "manifest.json").write_text("{not json", encoding="utf-8")
    assert published_build_id(tmp_path) is None
