"""Unit tests for the file loaders: canonical text, segments, and clear failure reasons."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from loaders.base import DocumentLoadError, ParsedDocument
from loaders.decode import decode_text
from loaders.html import load_html
from loaders.markdown import load_markdown
from loaders.registry import is_supported, load_file
from loaders.text import load_text


def _sections(doc: ParsedDocument) -> dict[str, str]:
    """Map each segment's section path to its body text."""
    return {seg.section: doc.text[seg.start : seg.end] for seg in doc.segments}


def _load_error(path: Path, data: bytes | None = None) -> DocumentLoadError:
    with pytest.raises(DocumentLoadError) as info:
        load_file(path, data)
    return info.value


# -- Markdown ---------------------------------------------------------------------------------

MARKDOWN = """\
Preamble before any heading.

# Guide

Welcome to the guide.

## Install

Run this:

```bash
# not a heading: a shell comment
pip install citerag
```

~~~
## also not a heading
~~~

### Linux

Linux body.

    # indented four spaces: code, not a heading

## Usage ##

Usage body.

# Appendix

Appendix body.

## Learn C#

Sharp notes.
"""


def test_markdown_canonical_text_is_the_raw_file() -> None:
    doc = load_markdown(Path("guide.md"), MARKDOWN.encode())
    assert doc.text == MARKDOWN
    assert doc.file_type == "markdown"
    assert doc.title == "Guide"


def test_markdown_section_paths() -> None:
    doc = load_markdown(Path("guide.md"), MARKDOWN.encode())
    assert [seg.section for seg in doc.segments] == [
        "",
        "Guide",
        "Guide > Install",
        "Guide > Install > Linux",
        "Guide > Usage",
        "Appendix",
        "Appendix > Learn C#",
    ]
    assert all(seg.page is None for seg in doc.segments)


def test_markdown_fenced_code_with_hash_stays_in_its_section() -> None:
    sections = _sections(load_markdown(Path("guide.md"), MARKDOWN.encode()))
    install = sections["Guide > Install"]
    assert "# not a heading: a shell comment" in install
    assert "## also not a heading" in install
    assert "# indented four spaces" in sections["Guide > Install > Linux"]
    assert sections[""].strip() == "Preamble before any heading."
    assert sections["Guide > Usage"].strip() == "Usage body."
    assert sections["Appendix > Learn C#"].strip() == "Sharp notes."


def test_markdown_heading_lines_are_outside_every_segment() -> None:
    doc = load_markdown(Path("guide.md"), MARKDOWN.encode())
    for heading in ("# Guide", "## Install", "### Linux", "## Usage ##", "# Appendix"):
        line_start = doc.text.index("\n" + heading + "\n") + 1
        line_end = line_start + len(heading)
        for seg in doc.segments:
            assert line_end <= seg.start or line_start >= seg.end, (heading, seg)


def test_markdown_segments_are_ordered_and_disjoint() -> None:
    doc = load_markdown(Path("guide.md"), MARKDOWN.encode())
    for a, b in itertools.pairwise(doc.segments):
        assert a.start < a.end <= b.start < b.end


def test_markdown_crlf_and_bom_are_normalised() -> None:
    raw = "\ufeff# Title\r\n\r\nBody line.\r\nSecond line.\r\n".encode()
    doc = load_markdown(Path("x.md"), raw)
    assert doc.text == "# Title\n\nBody line.\nSecond line.\n"
    assert _sections(doc)["Title"].strip() == "Body line.\nSecond line."


def test_markdown_without_h1_uses_the_file_stem_as_title() -> None:
    doc = load_markdown(Path("release_notes.md"), b"## Changes\n\nFixed things.\n")
    assert doc.title == "release notes"
    assert [s.section for s in doc.segments] == ["Changes"]


FRONT_MATTER_MD = """\
---
title: Acme Corp annual report 2022
company: Acme
period: 2022
filed: 2023-02-14
# a YAML comment, not a heading
company_aliases: [Acme Corporation, ACME]
---
# Annual report

Revenue grew.
"""


def test_markdown_front_matter_is_metadata_not_text() -> None:
    doc = load_markdown(Path("acme.md"), FRONT_MATTER_MD.encode())
    assert doc.text == FRONT_MATTER_MD  # canonical text is still the raw file
    assert doc.front_matter == {
        "title": "Acme Corp annual report 2022",
        "company": "Acme",
        "period": 2022,
        "filed": "2023-02-14",  # YAML dates become ISO strings
        "company_aliases": ["Acme Corporation", "ACME"],
    }
    assert doc.body_start == FRONT_MATTER_MD.index("# Annual report")
    assert doc.title == "Acme Corp annual report 2022" and doc.title_source == "front_matter"
    assert doc.first_heading == "Annual report"
    assert [s.section for s in doc.segments] == ["Annual report"]
    indexed = "".join(doc.text[s.start : s.end] for s in doc.segments)
    assert "company" not in indexed and "YAML comment" not in indexed
    assert all(s.start >= doc.body_start for s in doc.segments)


def test_markdown_front_matter_with_text_before_the_first_heading() -> None:
    text = "---\ncompany: Acme\n...\nIntro line.\n\n## Details\n\nMore.\n"
    doc = load_markdown(Path("notes.md"), text.encode())
    assert doc.front_matter == {"company": "Acme"}
    assert _sections(doc) == {"": "Intro line.\n\n", "Details": "\nMore.\n"}
    assert doc.segments[0].start == doc.body_start == text.index("Intro")
    assert doc.title == "notes" and doc.title_source == "file_name"


@pytest.mark.parametrize(
    "text",
    [
        "---\nJust a horizontal rule and a sentence.\n---\nBody.\n",  # not a mapping
        "---\ntitle: [unclosed\n---\nBody.\n",  # not YAML
        "---\ntitle: no closing line\n\nBody.\n",  # never closed
        "Body first.\n---\ntitle: x\n---\n",  # not at the top
    ],
)
def test_markdown_leading_rule_that_is_not_front_matter_stays_text(text: str) -> None:
    doc = load_markdown(Path("page.md"), text.encode())
    assert doc.front_matter == {} and doc.body_start == 0
    assert doc.segments[0].start == 0
    assert "Body" in doc.text[doc.segments[0].start : doc.segments[-1].end]


def test_markdown_title_sources() -> None:
    doc = load_markdown(Path("guide.md"), MARKDOWN.encode())
    assert (doc.title, doc.title_source, doc.first_heading) == ("Guide", "first_heading", "Guide")
    doc = load_markdown(Path("release_notes.md"), b"## Changes\n\nFixed things.\n")
    assert (doc.title_source, doc.first_heading) == ("file_name", None)


def test_sample_handbook_sections(sample_corpus: Path) -> None:
    doc = load_file(sample_corpus / "handbook.md")
    assert doc.segments, "handbook has no segments"
    assert all(seg.section for seg in doc.segments[1:])
    for seg in doc.segments:
        body = doc.text[seg.start : seg.end]
        assert not body.lstrip().startswith("#"), f"heading leaked into {seg.section!r}"


# -- HTML -------------------------------------------------------------------------------------

HTML = """\
<!doctype html>
<html>
<head>
  <title>Site &amp; Policy &amp;lt;v2&amp;gt;</title>
  <style>.secret-style-token { color: red; }</style>
  <script>var t = "head-script-token";</script>
</head>
<body>
  <nav><ul><li><a href="/m">Members area</a></li><li><a href="/v">Volunteer portal</a></li>
  </ul></nav>
  <header>Header banner token</header>
  <h1>Safety</h1>
  <p>Intro   paragraph
     wrapped over lines.</p>
  <h2>Working at height</h2>
  <p>Use a harness &amp; helmet.</p>
  <ul><li>First rule</li><li>Second rule</li></ul>
  <script>document.write("body-script-token")</script>
  <noscript>noscript-token</noscript>
  <h3>Ladders</h3>
  <p>Ladders must be inspected.</p>
  <h2>Fire</h2>
  <p>Know the exits.</p>
  <footer>Footer token</footer>
</body>
</html>
"""


def test_html_drops_script_style_nav() -> None:
    doc = load_html(Path("policy.html"), HTML.encode())
    for junk in (
        "secret-style-token",
        "head-script-token",
        "body-script-token",
        "noscript-token",
        "Members area",
        "Volunteer portal",
        "<",
    ):
        assert junk not in doc.text, junk
    # the page's own header and footer text is kept (tests/unit/test_html_page_edges.py)
    assert [doc.text[a:b] for a, b, _ in doc.page_edges] == ["Header banner token", "Footer token"]


def test_html_dropped_nav_list_leaves_no_bullets() -> None:
    doc = load_html(Path("policy.html"), HTML.encode())
    assert doc.text.startswith("Header banner token\n\nSafety\n\nIntro paragraph")
    assert [s.section for s in doc.segments[:2]] == ["", "Safety"]  # the page's header first


def test_html_sections_and_visible_text() -> None:
    doc = load_html(Path("policy.html"), HTML.encode())
    assert doc.file_type == "html"
    assert doc.title == "Site & Policy &lt;v2&gt;"
    sections = _sections(doc)
    assert sections.pop("") == "Footer token"  # the page's header and footer: no section
    assert "Footer token" not in sections["Safety > Fire"]
    assert list(sections) == [
        "Safety",
        "Safety > Working at height",
        "Safety > Working at height > Ladders",
        "Safety > Fire",
    ]
    assert sections["Safety"].strip() == "Intro paragraph wrapped over lines."
    height = sections["Safety > Working at height"]
    assert "Use a harness & helmet." in height
    assert "- First rule" in height and "- Second rule" in height
    assert sections["Safety > Working at height > Ladders"].strip() == "Ladders must be inspected."
    # Headings are in the canonical text but not inside the section bodies.
    assert "Working at height" in doc.text
    assert "Working at height" not in height


def test_html_title_falls_back_to_first_h1() -> None:
    doc = load_html(Path("page.html"), b"<body><h1>Main heading</h1><p>Body text.</p></body>")
    assert doc.title == "Main heading"
    assert (doc.title_source, doc.first_heading) == ("first_heading", "Main heading")


def test_html_title_sources() -> None:
    html = b"<title>Page title</title><body><h2>Sub</h2><h1>Main</h1><p>Body.</p></body>"
    doc = load_html(Path("page.html"), html)
    assert (doc.title, doc.title_source, doc.first_heading) == ("Page title", "html_title", "Main")
    doc = load_html(Path("bare_page.html"), b"<p>Only a paragraph.</p>")
    assert (doc.title, doc.title_source, doc.first_heading) == ("bare page", "file_name", None)


def test_sample_html_canaries_absent(sample_corpus: Path) -> None:
    doc = load_file(sample_corpus / "safety_policy.html")
    for canary in ("navigation-script-token-7731", "Members area", "Volunteer portal"):
        assert canary not in doc.text
    assert len(doc.segments) > 3
    edges = {(a, b) for a, b, _ in doc.page_edges}
    assert all(seg.section for seg in doc.segments if (seg.start, seg.end) not in edges)


# -- plain text and decoding ------------------------------------------------------------------


def test_text_loader_single_segment() -> None:
    doc = load_text(Path("maintenance_notes.txt"), b"Line one.\r\n\r\nLine two.\r\n")
    assert doc.text == "Line one.\n\nLine two.\n"
    assert len(doc.segments) == 1
    assert (doc.segments[0].start, doc.segments[0].end) == (0, len(doc.text))
    assert doc.title == "maintenance notes"
    assert doc.title_source == "file_name"
    assert doc.file_type == "text"


def test_decode_rejects_nul_bytes() -> None:
    with pytest.raises(DocumentLoadError) as info:
        decode_text(b"looks like text\x00but is not", Path("x.txt"))
    assert info.value.kind == "binary"
    assert "NUL" in info.value.reason


@pytest.mark.parametrize("data", [b"", b"   \n\t\r\n  "])
def test_decode_rejects_empty(data: bytes) -> None:
    with pytest.raises(DocumentLoadError) as info:
        decode_text(data, Path("empty.txt"))
    assert info.value.kind == "empty"
    assert "empty" in info.value.reason


@pytest.mark.parametrize("seed", range(5))
def test_decode_rejects_random_binary_junk(seed: int) -> None:
    rng = random.Random(seed)
    # No NUL byte, so the control-character check (not the NUL check) must catch it.
    data = bytes(rng.randrange(1, 256) for _ in range(4096))
    with pytest.raises(DocumentLoadError) as info:
        decode_text(data, Path("junk.txt"))
    assert info.value.kind == "binary"
    assert "not valid UTF-8 and looks like binary data" in info.value.reason


def test_decode_accepts_latin1_and_strips_bom() -> None:
    assert decode_text("café au lait\n".encode("latin-1"), Path("x.txt")) == "café au lait\n"
    assert decode_text("\ufeffhello".encode(), Path("x.txt")) == "hello"


def test_text_file_of_junk_fails_through_registry(tmp_path: Path) -> None:
    path = tmp_path / "junk.txt"
    path.write_bytes(random.Random(7).randbytes(2048))
    err = _load_error(path)
    assert err.kind == "binary"
    assert "junk.txt" in err.reason


# -- registry and PDF -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["data.xls", "report.doc", "README"])
def test_unsupported_suffix(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"PK\x03\x04 not really")
    assert not is_supported(path)
    err = _load_error(path)
    assert err.kind == "unsupported"
    assert "unsupported" in err.reason


@pytest.mark.parametrize("name", ["a.PDF", "b.md", "c.Markdown", "d.htm", "e.HTML", "f.txt"])
def test_supported_suffixes(name: str) -> None:
    assert is_supported(Path(name))


def test_pdf_of_random_bytes_is_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.7\n" + random.Random(3).randbytes(4096))
    err = _load_error(path)
    assert err.kind == "corrupt"
    assert "broken.pdf" in err.reason


def test_pdf_without_header_is_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "fake.pdf"
    path.write_bytes(b"just some text pretending to be a PDF\n")
    err = _load_error(path)
    assert err.kind == "corrupt"
    assert "%PDF" in err.reason


def test_empty_pdf_is_empty(tmp_path: Path) -> None:
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    assert _load_error(path).kind == "empty"


def test_sample_pdf_pages_are_one_based_segments(sample_corpus: Path) -> None:
    doc = load_file(sample_corpus / "annual_report_2025.pdf")
    assert doc.file_type == "pdf"
    assert doc.title == "Northwind Community Solar Cooperative - Annual Report 2025"
    assert doc.title_source == "pdf_title"
    assert doc.pages == 5
    # one or more segments per page (pages are cut at their section headings), in order
    assert sorted({seg.page for seg in doc.segments}) == [1, 2, 3, 4, 5]
    assert [seg.page for seg in doc.segments] == sorted(seg.page for seg in doc.segments)
    assert doc.empty_pages == []
    reader = PdfReader(sample_corpus / "annual_report_2025.pdf")
    for seg in doc.segments:
        body = " ".join(doc.text[seg.start : seg.end].split())
        assert body in " ".join(reader.pages[seg.page - 1].extract_text().split())
    for a, b in itertools.pairwise(doc.segments):
        assert a.end < b.start
        if a.page != b.page:
            assert "\n\n" in doc.text[a.end : b.start]  # pages are joined by a blank line
        else:  # a heading line between two sections of one page
            assert (a.end, b.start) in [(s, e) for s, e in doc.headings] or any(
                a.end <= s and e <= b.start for s, e in doc.headings
            )


def _one_page_pdf(sample_corpus: Path, path: Path, password: str | None) -> Path:
    writer = PdfWriter()
    writer.add_page(PdfReader(sample_corpus / "annual_report_2025.pdf").pages[1])
    if password is not None:
        writer.encrypt(password, algorithm="AES-256")
    writer.write(path)
    return path


def test_pdf_without_a_title_is_titled_by_its_file_name(tmp_path: Path, sample_corpus: Path):
    doc = load_file(_one_page_pdf(sample_corpus, tmp_path / "ACME_2022_10K.pdf", None))
    assert (doc.title, doc.title_source) == ("ACME 2022 10K", "file_name")


def test_pdf_with_a_real_password_fails_encrypted(tmp_path: Path, sample_corpus: Path) -> None:
    err = _load_error(_one_page_pdf(sample_corpus, tmp_path / "locked.pdf", "secret"))
    assert err.kind == "encrypted"
    assert "password" in err.reason


def test_pdf_with_empty_password_loads(tmp_path: Path, sample_corpus: Path) -> None:
    doc = load_file(_one_page_pdf(sample_corpus, tmp_path / "copy_protected.pdf", ""))
    assert doc.pages == 1
    assert "Total revenue for 2025" in doc.text


def test_pdf_without_text_layer_needs_ocr(tmp_path: Path) -> None:
    writer = PdfWriter()
    for _ in range(3):
        writer.add_blank_page(width=595, height=842)
    path = tmp_path / "scan.pdf"
    writer.write(path)
    err = _load_error(path)
    assert err.kind == "needs_ocr"
    assert "OCR" in err.reason and "3 page" in err.reason


def test_running_lines_count_pages_or_stay_the_same_but_page_content_is_kept() -> None:
    """A footer whose number counts the pages, and a header whose numbers never change, are
    running lines; a line in a repeated layout whose amount changes from page to page (one
    payslip per page) is content, not a footer."""
    from loaders.pdf import running_lines

    pages = [
        f"Northwind Ltd (c) 2025\nPayslip\nBasic salary for month {m}.\n"
        f"Net pay: {net} GBP\nPage {m + 2} of 9"
        for m, net in enumerate(["2,310.40", "2,298.15", "2,845.90", "2,301.00"])
    ]
    running = running_lines(pages)
    assert "page # of #" in running  # counts the pages (shifted by 2)
    assert "northwind ltd (c) #" in running  # the same year on every page
    assert "payslip" in running
    assert "net pay: #,#.# gbp" not in running  # another amount on each page


def test_the_header_of_a_two_page_document_is_running() -> None:
    """A two-page manual's header and page footer are on both pages' edges: running
    (before, a document needed three pages); a line on one page's edge only, or whose
    figure changes otherwise, is content."""
    from loaders.pdf import running_lines

    pages = [
        "Safety Manual v4.2 (Sept 2026)\nPage 1\n1. Scope\nThis manual applies to everyone.\n"
        "Net pay: 2,310.40 GBP",
        "Safety Manual v4.2 (Sept 2026)\nPage 2\nWork alone only with approval.\n"
        "Net pay: 2,298.15 GBP",
    ]
    running = running_lines(pages)
    assert running == {"safety manual v#.# (sept #)", "page #"}


def test_a_page_number_that_restarts_is_still_a_running_line() -> None:
    """Bare page numbers 10, 11, 12, then an exhibit's 1, 2, 3: still page numbers."""
    from loaders.pdf import running_lines

    numbers = [10, 11, 12, 1, 2, 3]
    pages = [f"Body text of page {i} in words.\n{n}" for i, n in enumerate(numbers)]
    pages = [p.replace(f"page {i} ", f"page {'abcdef'[i]} ") for i, p in enumerate(pages)]
    assert "#" in running_lines(pages)


def test_markdown_setext_headings_open_sections_but_a_rule_after_prose_does_not(
    tmp_path: Path,
) -> None:
    """``Usage`` underlined by ``=====`` is a level-1 heading, ``Advanced`` by ``-----`` a
    level-2 one; ``---`` under a paragraph of two lines stays a rule, and ``# comment`` in a
    fence stays code."""
    p = tmp_path / "readme.md"
    p.write_text(
        "# Setup\n\nInstall it.\n\n```bash\n# install deps\n```\n\nUsage\n=====\n\n"
        "Run it daily.\n\nAdvanced\n--------\n\nSet FOO_MODE=fast.\n\n"
        "A paragraph\nof two lines\n---\n\nA sentence.\n---\n\nAfter a rule.\n",
        encoding="utf-8",
    )
    doc = load_file(p)
    sections = {doc.text[s.start : s.end].strip().split("\n")[0]: s.section for s in doc.segments}
    assert sections["Install it."] == "Setup"
    assert sections["Run it daily."] == "Usage"
    assert sections["Set FOO_MODE=fast."] == "Usage > Advanced"
    assert all("=====" not in doc.text[s.start : s.end] for s in doc.segments)
    last = doc.text[doc.segments[-1].start : doc.segments[-1].end]
    assert "of two lines" in last and "A sentence." in last and "After a rule." in last


def test_html_line_breaks_inside_a_header_cell_keep_one_name(tmp_path: Path) -> None:
    """``<th>Phone<br>(work)</th>`` is one column name; a data cell's ``<br>`` still breaks
    its text (a letter laid out in a table cell keeps its lines)."""
    p = tmp_path / "staff.html"
    p.write_text(
        "<html><body><h1>Staff</h1><table><tr><th>Name</th><th>Phone<br>(work)</th></tr>"
        "<tr><td>Ann</td><td>555-0101</td></tr></table>"
        "<table><tr><td>Dear John,<br><br>Your order has shipped.<br>Regards</td></tr></table>"
        "</body></html>",
        encoding="utf-8",
    )
    doc = load_file(p)
    table = doc.tables[0]
    assert table.columns == ["Phone (work)"]
    (row,) = table.rows
    assert row.label == "Ann" and row.cells == ("555-0101",)
    assert row.columns == ("Phone (work)",)
    assert "Dear John,\n\nYour order has shipped.\n\nRegards" in doc.text


def test_a_running_header_naming_the_pages_section_is_still_running() -> None:
    """``Item 7`` over three pages, then ``Item 8`` over three (a 10-K's page headers): its
    number names the section, never decreasing, so the line is a running header."""
    from loaders.pdf import running_lines

    items = [7, 7, 7, 8, 8, 8]
    pages = [f"PART II Item {n}\nBody words of page {'abcdef'[i]}." for i, n in enumerate(items)]
    assert "part ii item #" in running_lines(pages)
    amounts = [2310, 2298, 2845, 2301, 2290, 2400]  # content: another amount on each page
    pages = [f"Net pay: {n} GBP\nBody words of page {'abcdef'[i]}." for i, n in enumerate(amounts)]
    assert "net pay: # gbp" not in running_lines(pages)
