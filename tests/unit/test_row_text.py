"""A table row's sentence is scored with its headers and quoted verbatim (loaders.row_text)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from chains.candidates import Candidate
from chains.rerank import SentenceReranker
from citerag.stores.chunk_vectors import SEPARATE, embed_chunks
from citerag.stores.faiss.bm25 import tokenize
from loaders.chunking import ChunkSettings, chunk_document
from loaders.registry import load_file
from loaders.row_text import (
    ROW_TEXT_KEY,
    heading_context,
    recorded_rows,
    row_span,
    row_statement,
    row_texts,
    scored_texts,
    with_heading,
)
from loaders.sentences import sentence_spans

CSV = (
    "Supplier,Tea,Payment terms,Lead time\n"
    "Oolong Leaf Co,Oolong,Net 45,3 weeks\n"
    "Assam Gardens,Assam,Net 30,5 weeks\n"
)


class _Recording(Embeddings):
    """Records every text embedded; a vector derived from the text's length."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.texts.extend(texts)
        return [[float(len(t)), 1.0, float(sum(map(ord, t)) % 97)] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def _docs(path: Path) -> tuple[str, list[Document]]:
    doc = load_file(path)
    chunks = chunk_document(doc, ChunkSettings(), {"doc_id": "d", "title": path.stem})
    return doc.text, [Document(page_content=c.text, metadata=c.to_metadata()) for c in chunks]


def test_row_sentence_is_scored_with_headers_and_quoted_verbatim(tmp_path: Path) -> None:
    path = tmp_path / "suppliers.csv"
    path.write_text(CSV, encoding="utf-8")
    text, docs = _docs(path)
    rows = [d for d in docs if d.metadata.get(ROW_TEXT_KEY)]
    assert rows, "the CSV's rows are recorded on their chunk"
    meta = rows[0].metadata
    content = meta["content"]
    spans = sentence_spans(content)
    scored = scored_texts(content, spans, meta)
    oolong = [i for i, (s, e) in enumerate(spans) if "Oolong Leaf Co" in content[s:e]]
    assert len(oolong) == 1
    i = oolong[0]
    s, e = spans[i]
    # the span is the verbatim row, without headers; its scored text has them
    assert "Payment terms" not in content[s:e]
    assert "Payment terms: Net 45" in scored[i] and "Supplier: Oolong Leaf Co" in scored[i]
    assert text[meta["start"] + s : meta["start"] + e] == content[s:e]
    # the ingest embeds the described row for that sentence; the stored span stays verbatim
    emb = _Recording()
    out = embed_chunks(emb, rows, sentence_vectors=True, method=SEPARATE)
    assert out.sentences is not None
    assert scored[i] in emb.texts
    assert content[s:e] not in emb.texts
    assert out.sentences[0][0] == spans
    # the reranker's lexical coverage counts the header words
    cand = Candidate(key="k", document=rows[0])
    terms = SentenceReranker(emb)._sentence_terms(cand, spans)
    assert {"payment", "terms"} <= terms[i]


def test_document_without_tables_is_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "note.txt"
    path.write_text(
        "The Kestrel site is inspected each Tuesday. Ladders are checked by the lead.\n\n"
        "Payment is due within thirty days.\n",
        encoding="utf-8",
    )
    _, docs = _docs(path)
    assert docs and all(ROW_TEXT_KEY not in d.metadata for d in docs)
    emb = _Recording()
    out = embed_chunks(emb, docs, sentence_vectors=True, method=SEPARATE)
    assert out.sentences is not None
    # the verbatim sentences are what is embedded and counted, as before the row texts existed
    for d, (spans, vecs) in zip(docs, out.sentences, strict=True):
        content = d.metadata["content"]
        assert scored_texts(content, spans, d.metadata) == [content[s:e] for s, e in spans]
        if len(spans) > 1:
            want = np.asarray(emb.embed_documents([content[s:e] for s, e in spans]))
            np.testing.assert_allclose(vecs.astype(np.float32), want.astype(np.float16))
        cand = Candidate(key="k", document=d)
        terms = SentenceReranker(_Recording())._sentence_terms(cand, spans)
        assert terms == [frozenset(tokenize(content[s:e])) for s, e in spans]


def test_row_texts_rejects_bad_span_and_skips_overlaps() -> None:
    with pytest.raises(ValueError, match="5-2"):
        row_texts(5, 2, [])
    assert scored_texts("abc", [(0, 3)], None) == ["abc"]
    meta = {ROW_TEXT_KEY: [[0, 3, "T — col: abc"]]}
    assert scored_texts("abc def", [(0, 3), (4, 7)], meta) == ["T — col: abc", "def"]


def test_a_sentence_inside_a_row_is_quoted_as_the_whole_row() -> None:
    from loaders.row_text import ROW_TEXT_KEY, row_span

    content = "Intro.\nTotal revenue\n412,860\n371,540\nAfter."
    start = content.index("Total")
    end = content.index("\nAfter")
    meta = {ROW_TEXT_KEY: [[start, end, "Total revenue — 2025: 412,860; 2024: 371,540"]]}
    cells = content.index("412,860")
    assert row_span(meta, cells, end) == (start, end)
    assert content[start:end] == "Total revenue\n412,860\n371,540"
    assert row_span(meta, 0, 6) is None  # "Intro." lies in no row
    assert row_span(None, cells, end) is None


def test_a_quoted_row_is_stated_with_its_column_names() -> None:
    from loaders.base import Table, TableRow
    from loaders.row_text import ROW_TEXT_KEY, row_statement

    content = "Price list\nEarl Grey Supreme 1 kg £28.50\nAssam 1 kg £24.00"
    start = content.index("Earl")
    end = content.index("\nAssam")
    row = TableRow(start, end, "Earl Grey Supreme", ("1 kg", "£28.50"), ("Pack", "Price per kg"))
    table = Table(start, end, "Price list", ["Pack", "Price per kg"], [row])
    (record,) = row_texts(0, len(content), [table])
    assert record[2] == "Price list — Earl Grey Supreme — Pack: 1 kg; Price per kg: £28.50"
    assert record[3] == "Earl Grey Supreme — Pack: 1 kg; Price per kg: £28.50"  # no title
    meta = {ROW_TEXT_KEY: [record]}
    assert row_statement(meta, start, end) == record[3]
    assert row_statement(meta, start + 1, end) is None  # not the whole row
    # an index built before rows recorded their statement: the quote is said as it is
    assert row_statement({ROW_TEXT_KEY: [record[:3]]}, start, end) is None
    assert row_statement(None, start, end) is None


def test_sentence_spans_are_cut_at_table_rows() -> None:
    from loaders.row_text import ROW_TEXT_KEY, row_sentence_spans
    from loaders.sentences import sentence_spans

    content = (
        "Delivery schedule.\n"
        "Bristol and Bath Tuesday Monday 12:00 Own van\n"
        "London Wednesday Monday 16:00 DPD\n"
        "Orders after the cut-off go a week later."
    )
    bristol = content.index("Bristol")
    london = content.index("London")
    rows = [
        [bristol, content.index("\nLondon"), "Bristol and Bath — Delivery day: Tuesday", ""],
        [london, content.index("\nOrders"), "London — Delivery day: Wednesday", ""],
    ]
    # the sentence rule alone reads the two rows (no punctuation) as one sentence
    assert any("Own van\nLondon" in content[s:e] for s, e in sentence_spans(content))
    spans = row_sentence_spans(content, {ROW_TEXT_KEY: rows})
    texts = [content[s:e] for s, e in spans]
    assert "London Wednesday Monday 16:00 DPD" in texts
    assert "Bristol and Bath Tuesday Monday 12:00 Own van" in texts
    assert all(t == t.strip() and t for t in texts)
    assert texts[-1] == "Orders after the cut-off go a week later."
    # no rows: the sentence rule's spans, unchanged
    assert row_sentence_spans(content, None) == sentence_spans(content)


def test_malformed_row_records_are_left_out():
    """A damaged or hand-edited index degrades to plain sentences, it does not fail a question."""
    meta = {ROW_TEXT_KEY: [["0", "30", "x"], [0], None, [0, 5, 7], [True, 5, "t"], [0, 5, "ok"]]}
    assert recorded_rows(meta) == [(0, 5, "ok", "")]
    assert scored_texts("Hello there.", [(0, 5), (6, 12)], meta) == ["ok", "there."]
    assert row_span(meta, 0, 5) == (0, 5) and row_statement(meta, 0, 5) is None
    assert recorded_rows({ROW_TEXT_KEY: [[0, 30, "a"], [0]]}) == [(0, 30, "a", "")]


@pytest.mark.parametrize(("file_type", "sentences"), [("pptx", 3), ("html", 3), ("pdf", 1)])
def test_a_file_type_whose_lines_are_paragraphs_ends_a_sentence_at_each(
    file_type: str, sentences: int
) -> None:
    from loaders.row_text import row_sentence_spans

    content = (
        "Two-day ride to Bath in June with the hostel booked for everyone\n"
        "A second Grade C group on Sundays from the spring onwards\n"
        "Notes: vote in February."
    )
    spans = row_sentence_spans(content, {"file_type": file_type})
    assert len(spans) == sentences


def test_a_short_line_is_scored_with_its_heading_a_sentence_as_written() -> None:
    meta = {"section": "IT setup guide > Wi-Fi"}
    assert heading_context(meta) == "Wi-Fi"
    assert heading_context({"section": ""}) == heading_context(None) == ""
    content = (
        "- Visitors: HF-Guest.\n"
        "The password changes every Monday and is written on the reception whiteboard for "
        "anyone who needs it.\nWi-Fi"
    )
    spans = sentence_spans(content)
    texts = scored_texts(content, spans, meta)
    assert texts[0] == "Wi-Fi: - Visitors: HF-Guest."
    # a longer sentence carries its own context; the heading itself is not prefixed again
    assert texts[1:] == [content[s:e] for s, e in spans[1:]]
    assert with_heading("Visitors: HF-Guest.", "") == "Visitors: HF-Guest."
    # an FAQ pair's heading is its question (read on its own); an e-mail's labels are none
    assert heading_context({"section": "FAQ > Can I park?", "block_type": "qa_pair"}) == ""
    assert heading_context({"section": "Headers"}) == heading_context({"section": "Attachments"})
    assert heading_context({"section": "Attachments"}) == ""
    # the document's title names the document, not what its opening lines are about
    titled = {"section": "Member Handbook", "title": "Member Handbook"}
    assert heading_context(titled) == ""
    assert heading_context({**titled, "section": "Member Handbook > Shares"}) == "Shares"
    assert with_heading("  ", "Wi-Fi") == "  "


def test_a_short_lines_heading_counts_in_the_second_stage_coverage() -> None:
    content = "- Visitors: HF-Guest."
    cand = Candidate(
        key="k",
        document=Document(
            page_content=content, metadata={"content": content, "section": "Guide > Wi-Fi"}
        ),
    )
    (terms,) = SentenceReranker(_Recording())._sentence_terms(cand, [(0, len(content))])
    assert {"wi", "fi", "visitors"} <= terms
