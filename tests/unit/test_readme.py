"""The README stays a landing page, no relative link in it or in docs/ is broken, and the
documentation site builds with ``mkdocs build --strict``.

The README is read on GitHub and the docs/ pages both on GitHub and as the MkDocs site, so a
relative link must name an existing file, and its ``#anchor`` a heading of that file (GitHub's
anchors; mkdocs.yml slugifies headings the same way).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
MAX_README_LINES = 250

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.DOTALL | re.MULTILINE)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)


def _prose(text: str) -> str:
    """The text without fenced code blocks (links and headings inside them are not real)."""
    return _FENCE.sub("", text)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading (markup and punctuation dropped, spaces to hyphens)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out: set[str] = set()
    for heading in _HEADING.findall(_prose(path.read_text(encoding="utf-8"))):
        slug = _slug(heading)
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def _relative_links(path: Path) -> list[str]:
    text = _INLINE_CODE.sub("", _prose(path.read_text(encoding="utf-8")))
    return [
        target
        for target in _LINK.findall(text)
        if not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE)  # http:, mailto:, ...
    ]


def _pages() -> list[Path]:
    return [README, *sorted(DOCS.rglob("*.md"))]


def test_the_readme_is_a_landing_page():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, (
        f"README.md has {len(lines)} lines (at most {MAX_README_LINES}): move the detail into "
        "a docs/ page and link it"
    )
    text = "\n".join(lines)
    assert "make test" in text and "make demo" in text  # .ci/run calls `make test`


def test_the_readme_links_into_the_docs():
    targets = {t.split("#", 1)[0] for t in _relative_links(README)}
    for page in ("docs/index.md", "docs/quickstart.md", "docs/reference/configuration.md"):
        assert page in targets, page


def test_the_link_checker_sees_links_and_anchors(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "# Serve it — `python x.py`\n\n## Serve it — `python x.py`\n\n"
        "[a](other.md#part) ![b](fig.png) `[c](no.md)`\n\n```\n[d](no.md)\n```\n",
        encoding="utf-8",
    )
    assert _relative_links(page) == ["other.md#part", "fig.png"]
    assert _anchors(page) == {"serve-it--python-xpy", "serve-it--python-xpy-1"}


@pytest.mark.parametrize("page", _pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_names_an_existing_file_and_heading(page):
    broken = []
    for target in _relative_links(page):
        file_part, _, anchor = target.partition("#")
        dest = (page.parent / unquote(file_part)).resolve() if file_part else page
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{target}: no heading with that anchor in {dest.name}")
    assert broken == [], f"{page.relative_to(ROOT)}: {broken}"


def _mkdocs_build(root: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )


def test_the_site_builds_strict_and_a_broken_anchor_fails_it(tmp_path):
    built = _mkdocs_build(ROOT, tmp_path / "site")
    assert built.returncode == 0, built.stderr[-3000:]
    assert (tmp_path / "site" / "reference" / "configuration" / "index.html").is_file()
    # the same site with one anchor that names no heading: --strict must refuse it
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    shutil.copytree(DOCS, copy / "docs")
    # the API pages' sources and griffe extensions, read relative to mkdocs.yml
    for name in ("tools", "citerag", "graphs", "chains", "loaders"):
        (copy / name).symlink_to(ROOT / name, target_is_directory=True)
    with (copy / "docs" / "quickstart.md").open("a", encoding="utf-8") as f:
        f.write("\nSee [the gate](concepts/answering-graph.md#no-such-heading).\n")
    broken = _mkdocs_build(copy, tmp_path / "broken-site")
    assert broken.returncode != 0 and "no-such-heading" in broken.stderr
