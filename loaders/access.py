"""Access labels: which user groups may read a document.

Every document carries exactly one access label (default ``public``). Labels are attached by a
mapping file ``.citerag-access.json`` at the root of an ingested folder: a JSON object from
glob patterns (POSIX paths relative to that folder, ``*`` also matches ``/``) to a label.
The last matching pattern wins. A user may read a chunk when its label is ``public`` or one
of the user's groups; the retriever enforces this before results leave it.
"""

from __future__ import annotations

import fnmatch
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from citerag.core.identity import label_problem

ACCESS_FILE = ".citerag-access.json"
PUBLIC = "public"

V = TypeVar("V")


def read_rules_file(root: Path, name: str) -> dict[str, Any] | None:
    """Read a folder's rules file ``root/name``: a JSON object keyed by glob patterns.

    Args:
        root: An ingest root.
        name: The rules file's name (``.citerag-access.json``, ``.citerag-metadata.json``).

    Returns:
        The object, or ``None`` when ``root`` is not a folder or has no such file.

    Raises:
        ValueError: If the file is not valid JSON or not a JSON object (naming the file).
    """
    path = root / name
    if not root.is_dir() or not path.exists():
        return None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ValueError(f"{path}: not valid JSON ({exc})") from exc
    if not isinstance(raw, dict):
        raise ValueError(f"{path}: expected a JSON object mapping glob patterns to values")
    return raw


def matching_values(rules: Iterable[tuple[str, V]], relative: str) -> list[V]:
    """The values of the rules whose glob pattern matches a path, in rule order.

    Patterns are matched with :func:`fnmatch.fnmatchcase` against the POSIX path relative to
    the ingest root, so ``*`` also matches ``/``. Callers let the last match win.

    Args:
        rules: ``(pattern, value)`` pairs in file order.
        relative: A POSIX path relative to the root.

    Returns:
        The matching rules' values, first to last.
    """
    return [value for pattern, value in rules if fnmatch.fnmatchcase(relative, pattern)]


@dataclass
class AccessMap:
    """Glob pattern -> access label rules for one ingest root.

    Attributes:
        rules: ``(pattern, label)`` pairs in file order.
        default: Label for documents no rule matches.
    """

    rules: list[tuple[str, str]] = field(default_factory=list)
    default: str = PUBLIC

    @classmethod
    def load(cls, root: Path, default: str = PUBLIC) -> AccessMap:
        """Read ``root/.citerag-access.json`` if present.

        Raises:
            ValueError: If the file is not a JSON object of string -> string, or a value is
                not an access label (the rule ``--access`` checks,
                :func:`citerag.core.identity.label_problem`): naming the file, the pattern
                and the label.
        """
        raw = read_rules_file(root, ACCESS_FILE)
        if raw is None:
            return cls(default=default)
        for pattern, label in raw.items():
            if not isinstance(label, str):
                raise ValueError(
                    f"{root / ACCESS_FILE} (pattern {pattern!r}): expected a JSON object "
                    f"mapping glob patterns to labels, not {label!r}"
                )
            problem = label_problem(label)
            if problem:
                raise ValueError(f"{root / ACCESS_FILE} (pattern {pattern!r}): {problem}")
        return cls(rules=list(raw.items()), default=default)

    def label_for(self, relative: str) -> str:
        """Return the label for a POSIX path relative to the root (the last match wins)."""
        labels = matching_values(self.rules, relative)
        return labels[-1] if labels else self.default


def allowed_labels(user_groups: list[str] | None) -> list[str]:
    """Return the labels a user with these groups may read (always includes ``public``)."""
    labels = [PUBLIC]
    for group in user_groups or []:
        if group and group not in labels:
            labels.append(group)
    return labels


def parse_groups(text: str | None) -> list[str]:
    """The groups of a comma-separated list as a user types it (``--groups "staff, board"``):
    each name stripped of the spaces around it, empty names dropped, duplicates once.

    Group names are access labels, which never start or end with a space; a space after a
    comma silently dropped ``board`` before (no document labelled `` board``)."""
    out: list[str] = []
    for name in (text or "").split(","):
        name = name.strip()
        if name and name not in out:
            out.append(name)
    return out
