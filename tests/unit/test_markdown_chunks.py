"""Markdown structure in chunks: pipe tables in row groups when asked for (``table_rows``: the
header quoted with the first group, a last row never alone), section paths without the title
twice or inline markup."""

from __future__ import annotations

from pathlib import Path

from loaders.chunking import ChunkSettings, chunk_document, make_header
from loaders.markdown import heading_text, load_markdown
from loaders.registry import add_structure


def _chunks(raw: str, settings: ChunkSettings | None = None):
    doc = load_markdown(Path("page.md"), raw.encode())
    add_structure(doc)
    chunks = chunk_document(doc, settings or ChunkSettings(), {"doc_id": "d", "title": doc.title})
    for c in chunks:
        assert doc.text[c.start : c.end] == c.content
    return doc, chunks


TABLE = (
    "# Rooms\n\n## Meeting rooms\n\nBook rooms a day ahead.\n\n"
    "| Room | Floor | Seats | Equipment and notes | Keyholder |\n|---|---|---|---|---|\n"
    + "".join(
        f"| Room {n} | {n} | {10 + n} | Projector, whiteboard, video conferencing kit, "
        f"spare cables in drawer {n} | Keyholder number {n} |\n"
        for n in range(1, 6)
    )
    + "\nReturn keys to reception.\n"
)


def test_pipe_table_in_row_groups_has_its_header_and_never_a_last_row_alone() -> None:
    _, chunks = _chunks(TABLE, ChunkSettings(chunk_size=400, chunk_overlap=0, table_rows=True))
    rows = [c for c in chunks if c.metadata["block_type"] == "table_row"]
    assert len(rows) >= 2
    assert all(c.content.count("| Room ") >= 2 for c in rows)  # no group of one row
    assert rows[-1].content.rstrip().endswith("Keyholder number 5 |")
    # the header line and rule are quoted with the first group, and every group's embedded
    # text names the columns
    assert rows[0].content.startswith("| Room | Floor |")
    assert all("Seats: " in c.text for c in rows)
    text_chunks = [c for c in chunks if c.metadata["block_type"] != "table_row"]
    assert not any("|---|" in c.content for c in text_chunks)


def test_section_path_does_not_repeat_the_title_or_keep_bold() -> None:
    raw = "---\ntitle: Stock recipes\n---\n\n# Stock recipes\n\nIntro line here.\n\n"
    raw += "## LB broth (**not** Lennox, `Miller`)\n\nTryptone 10 g per litre.\n"
    _, chunks = _chunks(raw)
    lb = next(c for c in chunks if "Tryptone" in c.content)
    assert lb.section == "Stock recipes > LB broth (not Lennox, Miller)"
    assert lb.text.startswith("Stock recipes > LB broth (not Lennox, Miller)\n")
    intro = next(c for c in chunks if "Intro" in c.content)
    assert intro.text.startswith("Stock recipes\nIntro")


def test_make_header_keeps_a_different_first_heading() -> None:
    assert make_header("Handbook", "Billing > Fees") == "Handbook > Billing > Fees"
    assert make_header("Handbook", "handbook > Fees") == "Handbook > Fees"
    assert make_header("Handbook", "Handbook") == "Handbook"


def test_heading_text_keeps_plain_symbols() -> None:
    assert heading_text("C# and F# notes") == "C# and F# notes"
    assert heading_text("snake_case names") == "snake_case names"
    assert heading_text("[Fees](fees.md) for 2 * 3 rooms") == "Fees for 2 * 3 rooms"
