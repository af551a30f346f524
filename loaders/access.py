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
from dataclasses import dataclass, field
from pathlib import Path

ACCESS_FILE = ".citerag-access.json"
PUBLIC = "public"


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
            ValueError: If the file is not a JSON object of string -> string.
        """
        path = root / ACCESS_FILE
        if not root.is_dir() or not path.exists():
            return cls(default=default)
        raw = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(raw, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and v for k, v in raw.items()
        ):
            raise ValueError(f"{path}: expected a JSON object mapping glob patterns to labels")
        return cls(rules=list(raw.items()), default=default)

    def label_for(self, relative: str) -> str:
        """Return the label for a POSIX path relative to the root."""
        label = self.default
        for pattern, value in self.rules:
            if fnmatch.fnmatchcase(relative, pattern):
                label = value
        return label


def allowed_labels(user_groups: list[str] | None) -> list[str]:
    """Return the labels a user with these groups may read (always includes ``public``)."""
    labels = [PUBLIC]
    for group in user_groups or []:
        if group and group not in labels:
            labels.append(group)
    return labels
