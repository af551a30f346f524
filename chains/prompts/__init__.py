"""Versioned prompt files. Load them with :func:`load_prompt`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

_FRONT = re.compile(r"\A---\n(.*?)\n---\n", re.DOTALL)
_SECTION = re.compile(r"^\[(system|user)\]\n", re.MULTILINE)


@dataclass(frozen=True)
class PromptFile:
    """A versioned prompt.

    Attributes:
        name: Prompt name.
        version: Version number from the front matter.
        system: System message template.
        user: User message template (``{passages}`` and ``{question}`` placeholders).
    """

    name: str
    version: int
    system: str
    user: str

    @property
    def id(self) -> str:
        """``name@version``, recorded in every trace."""
        return f"{self.name}@v{self.version}"


@cache
def load_prompt(file: str = "answer_v2.md") -> PromptFile:
    """Load a prompt file shipped in ``chains/prompts``.

    Raises:
        ValueError: If the file lacks front matter or a ``[system]``/``[user]`` section.
    """
    text = resources.files("chains.prompts").joinpath(file).read_text(encoding="utf-8")
    front = _FRONT.match(text)
    if not front:
        raise ValueError(f"{file}: missing front matter")
    meta = dict(line.split(":", 1) for line in front.group(1).splitlines() if ":" in line)
    body = text[front.end() :]
    parts = _SECTION.split(body)
    sections = {parts[i]: parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}
    if "system" not in sections or "user" not in sections:
        raise ValueError(f"{file}: needs [system] and [user] sections")
    return PromptFile(
        name=meta.get("name", file).strip(),
        version=int(meta.get("version", "1").strip()),
        system=sections["system"],
        user=sections["user"],
    )
