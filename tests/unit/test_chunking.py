"""Unit tests for chunking: offsets into the canonical text, segment boundaries, headers.

The offset invariant ``canonical[start:end] == content`` is checked over many randomly
generated Markdown and plain-text documents (a property-style loop with fixed seeds).
"""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

from loaders.base import ParsedDocument, Segment
from loaders.blocks import ANSWER_OFFSET_KEY
from loaders.chunking import Chunk, ChunkSettings, chunk_document, doc_id_for, make_header
from loaders.markdown import load_markdown
from loaders.text import load_text

WORDS = (
    "solar",
    "inverter",
    "panel",
    "the",
    "of",
    "and",
    "roof",
    "SG-4410X",
    "E-217",
    "£412,860",
    "kWh",
    "co-operative",
    "meeting",
    "board",
    "café",
    "naïve",
    "14",
    "March",
    "2017",
    "e.g.",
    "Dr.",
    "ladder",
    "harness",
    "3.2%",
    "cable",
    "DC",
    "AC",
    "fault",
    "code",
    "member",
    "share",
    "notice",
    "review",
)


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(1, 18))]
    if rng.random() < 0.1:  # a long token without spaces forces character-level splits
        words.append("x" * rng.randint(50, 900))
    return " ".join(words) + rng.choice([".", "!", "?", ";", ",", ""])


def _paragraph(rng: random.Random, pool: list[str]) -> str:
    if pool and rng.random() < 0.25:  # repeated text makes naive offset search ambiguous
        return rng.choice(pool)
    kind = rng.random()
    if kind < 0.15:
        body = "\n".join(f"- {_sentence(rng)}" for _ in range(rng.randint(1, 6)))
    elif kind < 0.25:
        body = "| a | b |\n|---|---|\n" + "\n".join(
            f"| {rng.choice(WORDS)} | {rng.randint(0, 999)} |" for _ in range(rng.randint(1, 5))
        )
    elif kind < 0.32:
        body = "```\n# comment in code\n" + _sentence(rng) + "\n```"
    else:
        sep = rng.choice([" ", " ", "  ", "\n", "\t"])
        body = sep.join(_sentence(rng) for _ in range(rng.randint(1, 12)))
    pool.append(body)
    return body


def random_markdown(rng: random.Random) -> str:
    """A random Markdown document with headings, code, lists, tables and repeats."""
    pool: list[str] = []
    parts: list[str] = []
    for _ in range(rng.randint(1, 25)):
        if rng.random() < 0.3:
            parts.append("#" * rng.randint(1, 4) + " " + " ".join(rng.sample(WORDS, 3)))
        parts.append(_paragraph(rng, pool))
    gap = rng.choice(["\n\n", "\n\n\n", "\n \n", "\n"])
    return gap.join(parts) + rng.choice(["", "\n", "\n\n  "])


def random_text(rng: random.Random) -> str:
    """A random plain-text document, optionally hard-wrapped."""
    pool: list[str] = []
    paras = [_paragraph(rng, pool) for _ in range(rng.randint(1, 30))]
    if rng.random() < 0.5:
        wrapped = []
        for p in paras:
            words = p.split(" ")
            lines, line = [], ""
            for w in words:
                if line and len(line) + len(w) + 1 > 78:
                    lines.append(line)
                    line = w
                else:
                    line = f"{line} {w}" if line else w
            lines.append(line)
            wrapped.append("\n".join(lines))
        paras = wrapped
    return "\n\n".join(paras)


def random_settings(rng: random.Random) -> ChunkSettings:
    size = rng.choice([40, 80, 150, 300, 600, 1000])
    overlap = rng.choice([0, 5, size // 10, size // 4])
    return ChunkSettings(size, overlap, rng.random() < 0.8)


def check_chunks(doc: ParsedDocument, chunks: list[Chunk], settings: ChunkSettings) -> None:
    """Assert every provenance invariant of a chunked document."""
    doc_id = chunks[0].metadata["doc_id"] if chunks else ""
    prev = (-1, 0)
    covered = bytearray(len(doc.text))
    for i, c in enumerate(chunks):
        assert doc.text[c.start : c.end] == c.content
        assert c.content and c.content == c.content.strip()
        assert len(c.content) <= settings.chunk_size
        assert c.index == i
        assert c.chunk_id == f"{doc_id}:{c.start}-{c.end}"
        assert (c.start, c.end) > prev, "chunks out of document order"
        assert c.end > prev[1], "a chunk lies wholly inside the previous one"
        prev = (c.start, c.end)
        # Inside exactly one segment, carrying that segment's page/section.
        inside = [s for s in doc.segments if s.start <= c.start and c.end <= s.end]
        assert len(inside) == 1, f"chunk {c.chunk_id} crosses a segment boundary"
        assert (c.page, c.section) == (inside[0].page, inside[0].section)
        # The header is in the embedded text only, never in the quoted content.
        header = make_header(doc.title, c.section)
        if settings.contextual_header:
            assert c.text == f"{header}\n{c.content}"
        else:
            assert c.text == c.content
        meta = c.to_metadata()
        assert meta["content"] == c.content
        assert (meta["start"], meta["end"]) == (c.start, c.end)
        covered[c.start : c.end] = b"\x01" * (c.end - c.start)
    # Nothing but whitespace inside a segment is left out of every chunk.
    for seg in doc.segments:
        for pos in range(seg.start, seg.end):
            if not doc.text[pos].isspace():
                assert covered[pos], f"character {pos} ({doc.text[pos]!r}) is in no chunk"


def _chunk(doc: ParsedDocument, settings: ChunkSettings) -> list[Chunk]:
    return chunk_document(doc, settings, {"doc_id": "d0c1d", "doc_name": "x"})


@pytest.mark.parametrize("seed", range(400))
def test_offsets_hold_for_random_markdown(seed: int) -> None:
    rng = random.Random(seed)
    raw = random_markdown(rng)
    if rng.random() < 0.3:
        raw = raw.replace("\n", "\r\n")
    settings = random_settings(rng)
    doc = load_markdown(Path(f"doc{seed}.md"), raw.encode())
    chunks = _chunk(doc, settings)
    assert chunks, "a non-empty document produced no chunks"
    check_chunks(doc, chunks, settings)


@pytest.mark.parametrize("seed", range(400))
def test_offsets_hold_for_random_text(seed: int) -> None:
    rng = random.Random(10_000 + seed)
    settings = random_settings(rng)
    doc = load_text(Path(f"doc{seed}.txt"), random_text(rng).encode())
    chunks = _chunk(doc, settings)
    assert chunks
    check_chunks(doc, chunks, settings)


def test_chunks_never_cross_pages() -> None:
    # Three "pages" whose text would fit in one chunk if pages were ignored.
    pages = ["alpha beta gamma.", "delta epsilon.", "zeta eta theta."]
    text = "\n\n".join(pages)
    segments, pos = [], 0
    for n, page in enumerate(pages, start=1):
        segments.append(Segment(pos, pos + len(page), page=n))
        pos += len(page) + 2
    doc = ParsedDocument(text=text, segments=segments, title="Report", file_type="pdf", pages=3)
    settings = ChunkSettings(chunk_size=600, chunk_overlap=80)
    chunks = _chunk(doc, settings)
    assert [(c.page, c.content) for c in chunks] == [(n, p) for n, p in enumerate(pages, 1)]
    check_chunks(doc, chunks, settings)


def test_heading_is_in_text_but_not_in_content() -> None:
    raw = "# Handbook\n\nIntro.\n\n## Billing\n\n### Late fees\n\nA fee of £5 applies.\n"
    doc = load_markdown(Path("handbook.md"), raw.encode())
    chunks = _chunk(doc, ChunkSettings())
    by_section = {c.section: c for c in chunks}
    assert set(by_section) == {"Handbook", "Handbook > Billing > Late fees"}
    late = by_section["Handbook > Billing > Late fees"]
    assert late.content == "A fee of £5 applies."
    # the section path's first heading is the title: not repeated
    assert late.text == "Handbook > Billing > Late fees\nA fee of £5 applies."
    for c in chunks:
        assert "#" not in c.content
        assert "Billing" not in c.content


def test_header_uses_the_metadata_title_over_the_parser_title() -> None:
    text = "Net sales rose 4%.\n\nOperating income fell."
    doc = ParsedDocument(
        text,
        [Segment(0, 18, page=1), Segment(20, len(text), page=2)],
        title="0000764478-23-000041",
        file_type="pdf",
        pages=2,
    )
    meta = {"doc_id": "d", "title": "Best Buy 10-Q 2024Q2", "company": "Best Buy"}
    chunks = chunk_document(doc, ChunkSettings(), meta)
    assert [c.text for c in chunks] == [
        "Best Buy 10-Q 2024Q2\nNet sales rose 4%.",
        "Best Buy 10-Q 2024Q2\nOperating income fell.",
    ]
    assert all(c.to_metadata()["company"] == "Best Buy" for c in chunks)
    # without a title in the metadata, the parser's title heads the text (as before)
    (first, _) = chunk_document(doc, ChunkSettings(), {"doc_id": "d"})
    assert first.text == "0000764478-23-000041\nNet sales rose 4%."


def test_no_header_setting_embeds_content_only() -> None:
    doc = load_markdown(Path("h.md"), b"# T\n\nBody words here.\n")
    (chunk,) = _chunk(doc, ChunkSettings(contextual_header=False))
    assert chunk.text == chunk.content == "Body words here."


def test_overlap_is_bounded_and_consecutive_chunks_advance() -> None:
    text = " ".join(f"word{i}" for i in range(2000))
    doc = load_text(Path("long.txt"), text.encode())
    settings = ChunkSettings(chunk_size=200, chunk_overlap=50)
    chunks = _chunk(doc, settings)
    assert len(chunks) > 10
    check_chunks(doc, chunks, settings)
    for a, b in itertools.pairwise(chunks):
        assert b.start > a.start
        assert a.end - b.start <= settings.chunk_overlap


def test_repeated_paragraphs_get_their_own_offsets() -> None:
    para = "The same sentence appears again and again in this file."
    text = "\n\n".join([para] * 12)
    doc = load_text(Path("repeat.txt"), text.encode())
    settings = ChunkSettings(chunk_size=60, chunk_overlap=0)
    chunks = _chunk(doc, settings)
    assert len(chunks) == 12
    assert [c.start for c in chunks] == [m.start() for m in re.finditer(re.escape(para), text)]
    check_chunks(doc, chunks, settings)


def test_doc_id_is_stable_and_distinct() -> None:
    assert doc_id_for("corpus/a.md") == doc_id_for("corpus/a.md")
    assert doc_id_for("corpus/a.md") != doc_id_for("corpus/b.md")
    assert re.fullmatch(r"[0-9a-f]{16}", doc_id_for("corpus/a.md"))


def test_page_only_in_metadata_for_paginated_documents() -> None:
    doc = load_text(Path("t.txt"), b"Some text to chunk.")
    (chunk,) = _chunk(doc, ChunkSettings())
    assert "page" not in chunk.to_metadata()
    assert chunk.to_metadata()["doc_name"] == "x"


def test_settings_describe_records_splitter() -> None:
    info = ChunkSettings(300, 30, False).describe()
    assert info["chunk_size"] == 300 and info["chunk_overlap"] == 30
    assert info["contextual_header"] is False
    assert "RecursiveCharacterTextSplitter" in info["splitter"]


@pytest.mark.parametrize(
    ("text", "size", "overlap"),
    [
        ("c a Dr. Dr.", 10, 5),  # the second "Dr." was placed inside the first chunk
        ("a b \n\n b \n\n b", 10, 5),  # the last "b" was placed earlier and lost
        ("b \n\n member Dr.", 10, 8),  # raised "chunk not found", failing the document
    ],
)
def test_repeated_words_are_located_where_the_splitter_cut_them(
    text: str, size: int, overlap: int
) -> None:
    doc = ParsedDocument(text=text, segments=[Segment(0, len(text))], title="t", file_type="text")
    settings = ChunkSettings(size, overlap)
    chunks = _chunk(doc, settings)
    check_chunks(doc, chunks, settings)
    assert chunks[-1].end == len(text.rstrip())


FAQ = (
    "# Library FAQ\n\n**How do I join?**\nBring a photo ID to any branch.\n\n"
    "**Is there Wi-Fi?**\nFree Wi-Fi is available without a password.\n\n"
    "**Can I print?**\nPrinting costs 15p a page.\n"
)


def test_each_faq_pair_starts_a_chunk_of_its_own() -> None:
    from loaders.registry import add_structure

    doc = load_markdown(Path("faq.md"), FAQ.encode())
    add_structure(doc)  # the blocks, as every loader's document gets them
    pairs = [c.content for c in _chunk(doc, ChunkSettings())]
    assert pairs == [
        "**How do I join?**\nBring a photo ID to any branch.",
        "**Is there Wi-Fi?**\nFree Wi-Fi is available without a password.",
        "**Can I print?**\nPrinting costs 15p a page.",
    ]
    check_chunks(doc, _chunk(doc, ChunkSettings()), ChunkSettings())
    packed = _chunk(doc, ChunkSettings(qa_pairs=False))  # the pairs fit one chunk
    assert len(packed) == 1 and "Wi-Fi" in packed[0].content and "print" in packed[0].content
    assert ChunkSettings().describe()["qa_pairs"] is True  # in the ingest fingerprint


def test_a_question_whose_answer_is_on_the_next_page_is_not_cut_off_alone() -> None:
    """A pair across a page break: the question stays with the text before it on its page
    (a chunk holding only a question would rank high and quote nothing)."""
    from loaders.registry import add_structure

    page1 = "Results were strong this year.\n\nWhat does this mean for shareholders?"
    page2 = "The dividend rises by five per cent."
    text = f"{page1}\n\n{page2}"
    doc = ParsedDocument(
        text=text,
        segments=[Segment(0, len(page1), page=1), Segment(len(page1) + 2, len(text), page=2)],
        title="Report",
        file_type="pdf",
        pages=2,
    )
    add_structure(doc)
    chunks = _chunk(doc, ChunkSettings())
    assert [(c.page, c.content) for c in chunks] == [(1, page1), (2, page2)]


def test_qa_pairs_off_describes_the_settings_of_a_build_made_before_it() -> None:
    """An index built before the setting existed (no ``qa_pairs`` in its fingerprint) read
    back with it off compares equal, so its documents are not processed again."""
    before = ChunkSettings(qa_pairs=False).describe()
    assert "qa_pairs" not in before
    assert ChunkSettings().describe() == {**before, "qa_pairs": True}


def test_a_long_faq_answer_marks_its_later_chunks_as_continuing_it() -> None:
    """A pair longer than ``chunk_size`` is split inside; its later chunks are marked, so a
    heading question and an answer's opening are read only where the answer starts."""
    from chains.non_answers import heading_question
    from loaders.blocks import PAIR_CONTINUES_KEY
    from loaders.registry import add_structure

    long_answer = " ".join(f"Zone {i} parcels go by air in {i + 2} days." for i in range(30))
    raw = f"# Help\n\n## Do you ship abroad?\n\n{long_answer}\n\n## Can I pay by cheque?\n\nNo.\n"
    doc = load_markdown(Path("faq.md"), raw.encode())
    add_structure(doc)
    chunks = _chunk(doc, ChunkSettings())
    check_chunks(doc, chunks, ChunkSettings())
    abroad = [c for c in chunks if c.section.endswith("Do you ship abroad?")]
    assert len(abroad) >= 2 and all(c.metadata["block_type"] == "qa_pair" for c in abroad)
    assert PAIR_CONTINUES_KEY not in abroad[0].metadata
    assert all(c.metadata[PAIR_CONTINUES_KEY] is True for c in abroad[1:])
    meta = {**abroad[0].metadata, "section": abroad[0].section}
    assert heading_question(meta, abroad[0].content) == "Do you ship abroad?"
    later = {**abroad[1].metadata, "section": abroad[1].section}
    assert heading_question(later, abroad[1].content) is None
    cheque = next(c for c in chunks if c.section.endswith("Can I pay by cheque?"))
    assert PAIR_CONTINUES_KEY not in cheque.metadata  # a pair's own first chunk


def test_continues_answer_reads_where_each_pair_starts_its_answer_and_ends() -> None:
    from loaders.chunking import continues_answer

    spans = [(0, 20, 100), (150, 150, 300)]  # a question line; a heading question's answer
    assert not continues_answer(spans, 0)  # the pair's question
    assert continues_answer(spans, 60)  # inside the first answer
    assert not continues_answer(spans, 120)  # after the first pair, before the next
    assert not continues_answer(spans, 150)  # the second answer's start
    assert continues_answer(spans, 200)
    assert not continues_answer([], 10)


def test_the_continuation_marker_does_not_depend_on_cutting_pairs() -> None:
    from loaders.blocks import PAIR_CONTINUES_KEY
    from loaders.registry import add_structure

    long_answer = " ".join(f"Zone {i} parcels go by air in {i + 2} days." for i in range(30))
    raw = f"# Help\n\n## Do you ship abroad?\n\n{long_answer}\n"
    doc = load_markdown(Path("faq.md"), raw.encode())
    add_structure(doc)
    chunks = _chunk(doc, ChunkSettings(qa_pairs=False))
    assert len(chunks) >= 2
    assert PAIR_CONTINUES_KEY not in chunks[0].metadata
    assert all(c.metadata.get(PAIR_CONTINUES_KEY) for c in chunks[1:])


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"chunk_size": 10}, "smaller than chunk_size (10), not 80"),  # the default overlap
        ({"chunk_size": 0}, "chunk_size must be at least 1 character"),
        ({"chunk_overlap": -1}, "chunk_overlap must be 0 or more"),
        ({"chunk_size": 100, "chunk_overlap": 100}, "smaller than chunk_size (100), not 100"),
        ({"chunk_size": 600.0}, "chunk_size must be an integer"),
        ({"chunk_overlap": True}, "chunk_overlap must be an integer"),
    ],
)
def test_settings_the_splitter_cannot_use_are_refused_before_any_document(kwargs, words):
    """Each would fail every document, and a re-ingest then dropped their chunks: an empty
    index published with exit status 0 (``--chunk-size 10`` under the default overlap)."""
    with pytest.raises(ValueError, match=re.escape(words)):
        ChunkSettings(**kwargs)


def test_a_chunk_opening_after_a_heading_question_has_no_question_of_its_own(tmp_path):
    # "## Problems signing in?" heads the pair and is in the section path; the chunk opens
    # with statements, and an item asking its own question ("2. Forgotten your PIN?") does
    # not turn the statements before its answer into the question (answer_offset)
    raw = (
        "# Online services\n\nIntro text about the catalogue and the apps we offer.\n\n"
        "## Problems signing in?\n\n"
        "1. Check you are using the full 14-digit card number, with no spaces.\n"
        '2. Forgotten your PIN? Use "Reset PIN" on the library catalogue and we will send a '
        "new one to\n   the e-mail address on your account. For security we cannot give out "
        "PINs over the phone.\n3. Card expired? Cards need renewing every three years.\n"
    )
    from loaders.registry import load_file  # with the structural model (its blocks)

    page = tmp_path / "help.md"
    page.write_text(raw, encoding="utf-8")
    doc = load_file(page)
    chunks = chunk_document(doc, ChunkSettings(), {"doc_id": "d", "title": "Online services"})
    (chunk,) = [c for c in chunks if "Reset PIN" in c.content]
    assert chunk.metadata["block_type"] == "qa_pair"
    assert chunk.content.startswith("1. Check")
    assert ANSWER_OFFSET_KEY not in chunk.metadata
