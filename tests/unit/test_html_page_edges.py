"""A web page's own header and footer: indexed as typed blocks, their navigation left out."""

from __future__ import annotations

from pathlib import Path

from chains.non_answers import non_answer
from loaders.blocks import block_counts
from loaders.chunking import ChunkSettings, chunk_document
from loaders.registry import load_file

PAGE = """\
<!doctype html>
<html><head><title>Opening hours</title></head>
<body>
<header>
  <p>Brackenford Library Trust</p>
  <ul><li><a href="/">Home</a></li><li><a href="/visit">Visit</a></li></ul>
  <nav><a href="/join">Join us</a></nav>
</header>
<main>
  <h1>Opening hours</h1>
  <p>The reading room opens at nine on weekdays.</p>
  <article><h2>News</h2><p>New shelving arrives in May.</p>
    <footer><p>Posted by the trustees.</p></footer></article>
</main>
<footer>
  <h2>Contact</h2>
  <p>Registered charity number 1187342. 4 Mill Lane, Brackenford BF2 7QT.</p>
  <p><a href="/privacy">Privacy</a> | <a href="/terms">Terms</a></p>
</footer>
</body></html>
"""


def _load(tmp_path: Path):
    path = tmp_path / "hours.html"
    path.write_text(PAGE, encoding="utf-8")
    return load_file(path)


def test_page_footer_text_is_indexed_as_its_own_typed_block(tmp_path: Path) -> None:
    doc = _load(tmp_path)
    footer = "Registered charity number 1187342. 4 Mill Lane, Brackenford BF2 7QT."
    header = "Brackenford Library Trust"
    kinds = {doc.text[b.start : b.end]: b.kind for b in doc.blocks}
    assert kinds[footer] == "page_footer"
    assert kinds["Contact"] == "page_footer"  # a footer's heading opens no section
    assert kinds[header] == "page_header"
    assert kinds["Posted by the trustees."] == "paragraph"  # an article's own footer
    for navigation in ("Home", "Visit", "Join us", "Privacy", "Terms"):
        assert navigation not in doc.text, navigation
    assert [s.section for s in doc.segments if footer in doc.text[s.start : s.end]] == [""]
    chunks = chunk_document(doc, ChunkSettings(), {"doc_id": "d", "title": doc.title})
    (chunk,) = [c for c in chunks if footer in c.content]
    assert chunk.metadata["block_type"] == "page_footer"
    assert "The reading room" not in chunk.content  # a segment of its own
    at = chunk.content.index("Registered")
    assert (
        non_answer(
            chunk.content, at, at + len("Registered charity number 1187342."), chunk.metadata
        )
        is None
    )


def test_sample_page_footer_states_the_registration(sample_corpus: Path) -> None:
    doc = load_file(sample_corpus / "safety_policy.html")
    assert block_counts(doc.blocks).get("page_footer") == 1
    (block,) = [b for b in doc.blocks if b.kind == "page_footer"]
    assert "registered society RS-30418" in doc.text[block.start : block.end]
    assert any(s.start <= block.start and block.end <= s.end for s in doc.segments)


def test_text_right_before_a_header_opens_is_the_pages_own(tmp_path: Path) -> None:
    path = tmp_path / "loose.html"
    path.write_bytes(b"<body>Loose text<header>Site</header><div>Body<footer>Foot</footer></div>")
    doc = load_file(path)
    assert doc.text == "Loose text\n\nSite\n\nBody\n\nFoot"
    assert [(doc.text[a:b], kind) for a, b, kind in doc.page_edges] == [
        ("Site", "page_header"),
        ("Foot", "page_footer"),
    ]


def test_a_menu_written_out_in_a_header_is_navigation_not_text(tmp_path: Path) -> None:
    """A header's menu typed as plain text (no links) is left out as a linked one is; a
    footer's sentence with a pipe in it is kept."""
    from loaders.html import is_menu_text

    page = tmp_path / "faq.html"
    page.write_text(
        "<html><body><header><p>Millbeck Homes | Home | Pay rent | Report a repair</p>"
        "</header><main><h1>FAQ</h1><p>Rent is due on the first of the month.</p></main>"
        "<footer><p>Millbeck Homes | 22 Cloth Hall Street, Thornsby TH1 3LP. Registered "
        "provider of social housing.</p></footer></body></html>",
        encoding="utf-8",
    )
    doc = load_file(page)
    assert "Pay rent" not in doc.text
    assert "Registered provider of social housing." in doc.text
    assert is_menu_text("Home · Fees • Contact us")
    assert not is_menu_text("Home | Fees")  # two items: not enough to call it a menu
    assert not is_menu_text("Open daily | Closed on Sundays and bank holidays in winter")


def test_a_footers_facts_parted_by_pipes_are_no_menu() -> None:
    """Items with a figure, an @ or a / state something: the line is kept."""
    from loaders.html import is_menu_text

    for facts in (
        "Registered charity 1234567 | Company 0987654 | VAT GB123456",
        "Tel 01234 567890 · info@x.org · 1 High St",
        "Open Mon–Fri | 9am–5pm | Closed bank holidays",
    ):
        assert not is_menu_text(facts), facts
