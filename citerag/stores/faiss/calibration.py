"""An index directory's gate calibration file: ``INDEX/calibration.json``.

Beside ``current``, so it survives rebuilds. Its shape is that of
``chains/gate_defaults.json`` (see :mod:`citerag.stores.calibration`).
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: File name inside the index directory.
CALIBRATION_FILE = "calibration.json"


def calibration_path(index_dir: Path | str) -> Path:
    """Where an index directory keeps its calibration."""
    return Path(index_dir) / CALIBRATION_FILE


def read_file(index_dir: Path) -> dict[str, Any]:
    """The file's entries as written (``{}`` when missing, unreadable (logged) or not an
    object)."""
    path = calibration_path(index_dir)
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        log.warning("ignoring unreadable %s: %s", path, exc)
        return {}
    return data if isinstance(data, dict) else {}


def merge_into_file(index_dir: Path, entries: dict[str, dict[str, Any]]) -> Path:
    """Merge entries into the file atomically (a temporary file, then a rename)."""
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


def remove_file(index_dir: Path) -> Path | None:
    """Delete the file; where it was (``None``: there was none)."""
    path = calibration_path(index_dir)
    if not path.exists():
        return None
    path.unlink()
    return path
