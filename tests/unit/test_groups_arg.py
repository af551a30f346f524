"""``--groups`` as a user types it (``loaders.access.parse_groups``; no model)."""

from __future__ import annotations

import argparse

import pytest

from citerag.cli_eval import _groups
from loaders.access import parse_groups


@pytest.mark.parametrize(
    ("typed", "groups"),
    [
        ("staff,board", ["staff", "board"]),
        ("staff, board", ["staff", "board"]),  # the space dropped `board` before
        (" staff ,board ,", ["staff", "board"]),
        ("staff,,staff", ["staff"]),
        ("", []),
        (None, []),
    ],
)
def test_group_names_are_stripped_and_empty_ones_dropped(typed, groups):
    assert parse_groups(typed) == groups
    assert _groups(argparse.Namespace(groups=typed)) == groups
