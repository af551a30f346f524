"""The supported suffixes are one list (:mod:`loaders.file_types`), and the registry has a
loader for each of them and for nothing else."""

from __future__ import annotations

from pathlib import Path

from loaders.file_types import SUFFIXES, is_supported
from loaders.registry import LOADERS


def test_the_registry_loads_exactly_the_supported_suffixes() -> None:
    assert set(LOADERS) == SUFFIXES


def test_is_supported_ignores_case_and_refuses_unknown_suffixes() -> None:
    assert is_supported(Path("Report.PDF"))
    assert is_supported(Path("notes.eml"))
    assert not is_supported(Path("archive.zip"))
    assert not is_supported(Path("README"))
