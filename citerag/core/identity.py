"""Who a bearer token belongs to: the token file, its users and groups, re-read when it changes.

Token file (JSON, or TOML with ``[[users]]`` tables)::

    {"users": [
        {"user": "alice", "token": "<at least 16 characters>", "groups": []},
        {"user": "bob", "token_sha256": "<hex sha256 of the token>", "groups": ["board"]},
        {"user": "ops", "token": "...", "groups": [], "admin": true}
    ]}

``token_sha256`` lets the file hold only hashes. Keys starting with ``_`` are comments. A
bottom-layer module: both ``citerag serve`` (:mod:`citerag.server.auth`) and the Agent Server
(:mod:`graphs.agent_auth`) read tokens with it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import threading
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: Shortest plain-text token accepted in a token file.
MIN_TOKEN_CHARS = 16
#: Group/label names: what an access label may look like.
LABEL_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
#: :data:`LABEL_RE` in words, for the messages that refuse a label.
LABEL_RULE = (
    "1-64 letters, digits, '_', '.' or '-', starting with a letter or digit "
    "(e.g. public, board, hr-staff)"
)


def label_problem(label: object) -> str | None:
    """Why a value is not an access label (``--access``, ``.citerag-access.json``), or ``None``.

    Args:
        label: The value as given.

    Returns:
        ``"invalid access label 'x y': 1-64 letters, ..."``, or ``None`` for a valid label.
    """
    if isinstance(label, str) and LABEL_RE.fullmatch(label):
        return None
    return f"invalid access label {label!r}: {LABEL_RULE}"


@dataclass(frozen=True)
class Identity:
    """Who is calling, as the token file says.

    Attributes:
        user: User name (recorded as the uploader of documents).
        groups: Access labels this user may read besides ``public``.
        admin: May see and delete every uploaded document.
    """

    user: str
    groups: tuple[str, ...] = ()
    admin: bool = False

    def can_read(self, label: str) -> bool:
        """Whether a document with this access label is visible to the user."""
        return label == "public" or label in self.groups


def hash_token(token: str) -> str:
    """Return the hex sha256 of a token (what ``token_sha256`` holds)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _parse_tokens(raw: Any, path: Path) -> dict[str, Identity]:
    if not isinstance(raw, dict) or not isinstance(raw.get("users"), list):
        raise ValueError(f"{path}: expected an object with a 'users' list")
    extra = [k for k in raw if k != "users" and not k.startswith("_")]
    if extra:
        raise ValueError(f"{path}: unknown top-level keys {extra}")
    out: dict[str, Identity] = {}
    for i, entry in enumerate(raw["users"]):
        where = f"{path}: users[{i}]"
        if not isinstance(entry, dict):
            raise ValueError(f"{where} must be an object")
        unknown = [
            k
            for k in entry
            if k not in ("user", "token", "token_sha256", "groups", "admin")
            and not k.startswith("_")
        ]
        if unknown:
            raise ValueError(f"{where}: unknown keys {unknown}")
        user = entry.get("user")
        if not isinstance(user, str) or not user.strip():
            raise ValueError(f"{where}: 'user' must be a non-empty string")
        groups = entry.get("groups", [])
        if not isinstance(groups, list):
            raise ValueError(f"{where}: 'groups' must be a list of label names ({LABEL_RULE})")
        for g in groups:
            problem = label_problem(g)
            if problem:
                raise ValueError(f"{where}: 'groups': {problem}")
        admin = entry.get("admin", False)
        if not isinstance(admin, bool):
            raise ValueError(f"{where}: 'admin' must be true or false")
        token, digest = entry.get("token"), entry.get("token_sha256")
        if (token is None) == (digest is None):
            raise ValueError(f"{where}: give exactly one of 'token' and 'token_sha256'")
        if token is not None:
            if not isinstance(token, str) or len(token) < MIN_TOKEN_CHARS or token != token.strip():
                raise ValueError(
                    f"{where}: 'token' must be a string of at least {MIN_TOKEN_CHARS} characters "
                    "without surrounding spaces"
                )
            digest = hash_token(token)
        if not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{64}", digest.lower()):
            raise ValueError(f"{where}: 'token_sha256' must be 64 hex digits")
        digest = digest.lower()
        if digest in out:
            raise ValueError(f"{where}: the same token is listed twice")
        out[digest] = Identity(user.strip(), tuple(dict.fromkeys(groups)), admin)
    return out


def read_token_file(path: Path) -> dict[str, Identity]:
    """Read a token file.

    Args:
        path: JSON (``.json``) or TOML (``.toml``) token file.

    Returns:
        Token sha256 -> identity.

    Raises:
        FileNotFoundError: The file does not exist.
        ValueError: The file is malformed.
    """
    text = path.read_text(encoding="utf-8")
    try:
        raw = tomllib.loads(text) if path.suffix.lower() == ".toml" else json.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path}: cannot parse token file: {exc}") from None
    return _parse_tokens(raw, path)


class TokenStore:
    """Token -> identity lookups from a token file, re-read when the file changes."""

    #: Seconds between checks of the file's modification time.
    CHECK_INTERVAL = 1.0

    def __init__(self, path: Path) -> None:
        """Load the file.

        Args:
            path: The token file.

        Raises:
            FileNotFoundError: The file does not exist.
            ValueError: The file is malformed.
        """
        self.path = path
        self._lock = threading.Lock()
        self._stamp = self._file_stamp()
        self._tokens = read_token_file(path)
        self._checked = time.monotonic()
        if not self._tokens:
            log.warning("token file %s lists no users: every request will get 401", path)

    def _file_stamp(self) -> tuple[int, int, int]:
        st = os.stat(self.path)
        return st.st_mtime_ns, st.st_size, st.st_ino

    def _maybe_reload(self) -> None:
        now = time.monotonic()
        if now - self._checked < self.CHECK_INTERVAL:
            return
        with self._lock:
            if now - self._checked < self.CHECK_INTERVAL:
                return
            self._checked = now
            try:
                stamp = self._file_stamp()
                if stamp == self._stamp:
                    return
                tokens = read_token_file(self.path)
            except (OSError, ValueError) as exc:
                log.error(
                    "token file %s not reloaded, keeping the previous tokens: %s", self.path, exc
                )
                return
            self._tokens, self._stamp = tokens, stamp
            log.info("token file %s reloaded: %d users", self.path, len(tokens))

    def lookup(self, token: str | None) -> Identity | None:
        """Return the identity for a token, or ``None`` if the token is unknown."""
        if not token:
            return None
        self._maybe_reload()
        return self._tokens.get(hash_token(token))

    def __len__(self) -> int:
        return len(self._tokens)
