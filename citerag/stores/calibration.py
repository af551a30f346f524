"""An index's own gate calibration: ``INDEX/calibration.json``.

Written by ``citerag calibrate --write`` (:func:`write_calibration`), removed by ``citerag
calibrate --reset`` (:func:`reset_calibration`), read when a graph is built over the index
(:func:`read_calibration`). Its shape is that of ``chains/gate_defaults.json``:
score name (a reranker name such as ``sentence-hybrid``, or ``dense``) ->
``{"threshold": float, ...provenance}``; its entries override the packaged defaults.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from citerag.stores.location import is_store_url

log = logging.getLogger(__name__)

#: File name inside the index directory (beside ``current``, so it survives rebuilds).
CALIBRATION_FILE = "calibration.json"


def calibration_path(index_dir: Path | str) -> Path:
    """Where an index keeps its calibration."""
    return Path(index_dir) / CALIBRATION_FILE


def read_calibration(index_dir: Path | str) -> dict[str, Any]:
    """The index's calibrated thresholds (``{}`` when it has none).

    Entries without a ``threshold`` are ignored; an unreadable file is logged and ignored,
    so a damaged calibration falls back to the packaged defaults instead of failing. A
    PostgreSQL index keeps its calibration in its meta table.
    """
    if is_store_url(index_dir):
        from citerag.stores.postgres.index import read_pg_calibration

        raw = read_pg_calibration(str(index_dir))
        return {k: v for k, v in raw.items() if isinstance(v, dict) and "threshold" in v}
    path = calibration_path(index_dir)
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        log.warning("ignoring unreadable %s: %s", path, exc)
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, dict) and "threshold" in v}


def write_calibration(index_dir: Path | str, entries: dict[str, dict[str, Any]]) -> Path | str:
    """Merge entries into ``INDEX/calibration.json`` atomically; return where they went.

    A PostgreSQL index gets them in its meta table (the URL is returned).
    """
    if is_store_url(index_dir):
        from citerag.stores.postgres.index import write_pg_calibration

        write_pg_calibration(str(index_dir), entries)
        return str(index_dir)
    path = calibration_path(index_dir)
    data: dict[str, Any] = {}
    if path.exists():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError:
            data = {}
    data.update(entries)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path


def reset_calibration(index_dir: Path | str) -> Path | str | None:
    """Remove the index's calibration, so the packaged defaults apply again.

    Returns:
        Where the calibration was (the file, or the store URL), or ``None`` when the index
        had none.
    """
    if is_store_url(index_dir):
        from citerag.stores.postgres.index import reset_pg_calibration

        return str(index_dir) if reset_pg_calibration(str(index_dir)) else None
    path = calibration_path(index_dir)
    if not path.exists():
        return None
    path.unlink()
    return path
