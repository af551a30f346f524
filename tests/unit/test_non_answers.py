"""Questions, headings, titles and captions are never an answer (``chains.non_answers``), and
the extractive answerer quotes the answer under an FAQ question, never the question."""

from __future__ import annotations

import json

import pytest
from langchain_core.documents import Document

from chains import non_answers as na
from chains.answerers import ExtractiveAnswerer
from chains.assemble import Passage
from chains.candidates import Candidate
from chains.citations import parse_output


def kind(text: str, meta: dict | None = None) -> str | None:
    return na.non_answer(text, 0, len(text), meta)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("### Can I get a refund?", "question"),
        ("**Can I get a refund?**", "question"),
        ("Q: Can I work from home?", "question"),
        ("Why is the tank light flashing?", "question"),
        ("How to clean the filter", "question"),
        ("## Returns", "heading"),
        ("Figure 2: Pump assembly", "caption"),
        ("Table 1. Technical data", "caption"),
        ("A:", "label"),
        ("Yes.", "reply"),
        ("A: No, we don't.", "reply"),
        ("Yes, you can!", "reply"),
        ("Yes, if you send the item back unused within 30 days.", None),  # it states a fact
        ("No fees apply to returns.", None),
        ("Refunds are paid within 14 days of the return.", None),
        ("Do not immerse the unit in water", None),  # an instruction, not a question
        ("Total revenue 8,214 7,961", None),  # a table row holds figures
        ("Warranty: two years from purchase", None),  # a key and its value
        ("When the light flashes, press reset", None),
    ],
)
def test_what_is_never_an_answer(text, expected):
    assert kind(text) == expected


def test_a_heading_is_read_from_its_place_in_the_passage():
    content = "Our year in brief.\nPeople\nAt the end of 2025 we employed 9 staff."
    start = content.index("People")
    assert na.non_answer(content, start, start + len("People")) == "heading"
    # the same words continued in lower case are prose
    prose = "Our year in brief.\nPeople\nwho joined us in 2025 stayed."
    assert na.non_answer(prose, start, start + len("People")) is None


def test_the_chunks_section_and_title_are_headings():
    meta = {"section": "Handbook > Returns and exchanges", "title": "Staff Handbook"}
    assert kind("Returns and exchanges", meta) == "heading"
    assert kind("Staff Handbook", meta) == "heading"
    assert kind("Returns are free for customers in the UK.", meta) is None


@pytest.mark.parametrize("block", ["heading", "title", "caption"])
def test_a_structural_block_type_is_never_quoted(block):
    assert kind("Refunds are paid within 14 days.", {"block_type": block}) is not None
    assert kind("Refunds are paid within 14 days.", {"block_type": "paragraph"}) is None


def test_a_heading_glued_onto_a_stored_span_is_cut_off():
    content = "People\nAt the end of 2025 we employed 9 staff."
    assert content[na.leading_heading(content, 0, len(content)) :] == (
        "At the end of 2025 we employed 9 staff."
    )
    for wrapped in (
        "The board met twice in May and approved the\nBattery store at Hollin Ridge.",
        "After two years of planning,\nMembers voted for the battery store.",
    ):
        assert na.leading_heading(wrapped, 0, len(wrapped)) == 0  # wrapped prose


def test_faq_answer_follows_its_question_up_to_the_next_question():
    kinds = ["question", None, None, "question", None, "heading", None]
    assert na.faq_answer_follows(kinds, 0) == [1, 2]
    assert na.faq_answer_follows(kinds, 3) == [4]
    assert na.faq_answer_follows(["question", "label", None], 0) == [2]
    assert na.faq_answer_follows(["question", "reply", None, None], 0) == [2, 3]
    assert na.faq_answer_follows(["question", "heading", None], 0) == []


class Overlap:
    """Embeds a text by the words it shares with a fixed vocabulary (deterministic, no model):
    the FAQ's question line is nearest to a question in its own words."""

    VOCAB = ("refund", "get", "can", "money", "back", "days", "return", "paid", "work", "home")

    def _vec(self, text):
        words = text.lower().replace("?", " ").replace(".", " ").split()
        v = [float(sum(w.startswith(t) for w in words)) for t in self.VOCAB]
        norm = sum(x * x for x in v) ** 0.5 or 1.0
        return [x / norm for x in v]

    def embed_query(self, text):
        return self._vec(text)

    def embed_documents(self, texts):
        return [self._vec(t) for t in texts]


def faq_passage(content: str, meta: dict | None = None) -> Passage:
    md = {"content": content, "doc_name": "faq.txt", **(meta or {})}
    return Passage(1, Candidate("k1", Document(page_content=content, metadata=md)))


def quotes(raw: str) -> list[str]:
    prose = parse_output(raw).prose
    return [m.split('"', 1)[1].rsplit('"', 1)[0] for m in prose.split("[1: ")[1:]]


def test_the_answerer_quotes_the_answer_under_the_question_line():
    content = (
        "Q: Can I get a refund?\nA: Refunds are paid back within 14 days of the return.\n\n"
        "Q: Can I work from home?\nA: Office staff may work from home two days a week."
    )
    raw = ExtractiveAnswerer(Overlap(), max_sentences=1).generate(
        "can I get a refund?", [faq_passage(content)], []
    )
    assert quotes(raw) == ["Refunds are paid back within 14 days of the return."]


def test_only_questions_and_headings_match_then_the_answerer_refuses():
    content = "Returns\nCan I get a refund?"
    raw = ExtractiveAnswerer(Overlap()).generate("can I get a refund?", [faq_passage(content)], [])
    block = json.loads(raw.split("<summary>")[1].split("</summary>")[0])
    assert block["insufficient_evidence"] is True
    assert "questions, headings" in block["reason"]


def test_a_recorded_table_row_of_words_is_not_a_heading():
    from loaders.row_text import ROW_TEXT_KEY

    content = "Supplier,Country,Terms\nFujian Cloud Tea,China,Prepaid\nKagoshima Green,Japan,Net"
    start = content.index("Fujian")
    end = content.index("\nKagoshima")
    assert na.non_answer(content, start, end) == "heading"  # read as text: a short line
    row = [start, end, "Suppliers — Supplier: Fujian Cloud Tea", "Supplier: Fujian Cloud Tea"]
    assert na.non_answer(content, start, end, {ROW_TEXT_KEY: [row]}) is None


def test_a_labelled_line_repeating_the_title_is_a_heading():
    content = "Subject: Wholesale price changes\nFrom: Anna Reid\nPrices rise by 6% in January."
    meta = {"title": "Wholesale price changes"}
    end = content.index("\n")
    assert na.non_answer(content, 0, end, meta) == "heading"
    start = content.index("From")
    assert na.non_answer(content, start, content.index("\nPrices"), meta) is None


def test_heading_question_is_the_question_an_faq_pairs_chunk_answers():
    from chains.non_answers import heading_question

    meta = {"block_type": "qa_pair", "section": "Help Centre > Delivery > Do you ship abroad?"}
    assert heading_question(meta, "We ship to the EU.") == "Do you ship abroad?"
    # a heading without '?' is a topic, even under a pair of the content ('How it works')
    wh = {"block_type": "qa_pair", "section": "Manual > How it works"}
    assert heading_question(wh, "Is it safe?\nYes, it is certified.") is None
    # not a pair, not a question, or the question is already a line of the content
    assert heading_question({**meta, "block_type": "paragraph"}, "We ship to the EU.") is None
    assert heading_question({**meta, "section": "Help > Delivery"}, "We ship.") is None
    assert heading_question({"block_type": "qa_pair"}, "We ship.") is None
    assert heading_question(meta, "**Do you ship abroad?**\nWe ship to the EU.") is None
    # a section path's separator is ' > ', so 'A>B?' inside a heading stays whole
    odd = {"block_type": "qa_pair", "section": "FAQ > Is 5>3?"}
    assert heading_question(odd, "Yes.") == "Is 5>3?"


def test_a_later_sentence_of_an_faq_answer_is_quoted_after_the_answers_opening():
    # "days" and "back" match the second sentence best; the answer's first statement, which
    # says how refunds are paid, comes before it
    content = (
        "Q: Can I get a refund?\nA: Refunds go to the card you paid with.\n"
        "Money is back within 14 days.\n\n"
        "Q: Can I work from home?\nA: Office staff may work from home two days a week."
    )
    pair = {"block_type": "qa_pair"}
    raw = ExtractiveAnswerer(Overlap(), max_sentences=2).generate(
        "when is my money back?", [faq_passage(content, pair)], []
    )
    assert quotes(raw) == [
        "Refunds go to the card you paid with.",
        "Money is back within 14 days.",
    ]
    # one sentence allowed: the best sentence alone, never the opening in its place
    raw = ExtractiveAnswerer(Overlap(), max_sentences=1).generate(
        "when is my money back?", [faq_passage(content, pair)], []
    )
    assert quotes(raw) == ["Money is back within 14 days."]
    # a question asked in prose (the chunk is no question-and-answer pair): as before
    raw = ExtractiveAnswerer(Overlap(), max_sentences=2, margin=0.0).generate(
        "when is my money back?", [faq_passage(content)], []
    )
    assert quotes(raw)[0] == "Money is back within 14 days."


def test_the_opening_rule_reads_faq_answers_only_and_heading_questions_too():
    content = "Refunds go to the card you paid with. Money is back within 14 days."
    question = "when is my money back?"
    # plain prose (no question line, no heading question): the best sentence first, as before
    raw = ExtractiveAnswerer(Overlap(), max_sentences=2, margin=0.0).generate(
        question, [faq_passage(content)], []
    )
    assert quotes(raw) == ["Money is back within 14 days."]
    # the same text as the answer of a heading question ('### Can I get a refund?')
    meta = {"block_type": "qa_pair", "section": "Help > Can I get a refund?"}
    raw = ExtractiveAnswerer(Overlap(), max_sentences=2, margin=0.0).generate(
        question, [faq_passage(content, meta)], []
    )
    assert quotes(raw) == ["Refunds go to the card you paid with.", "Money is back within 14 days."]


def test_an_opening_that_fails_a_check_is_left_out_and_a_chosen_one_moves_first():
    pair = {"block_type": "qa_pair"}
    content = (
        "Q: Can I get a refund?\nA: Refunds go back to the card.\n"
        "Money is back within 14 days.\n"
        "Refunds reach the card in 3 days."
    )
    # a how-many question: the opening states no quantity, so the quantity check (on by
    # default) keeps it out, and the best sentence is quoted as before
    raw = ExtractiveAnswerer(Overlap(), max_sentences=2, margin=0.0).generate(
        "how many days until my money is back?", [faq_passage(content, pair)], []
    )
    assert quotes(raw) == ["Money is back within 14 days."]
    # the opening chosen already as the second sentence: it is quoted first
    content = (
        "Q: Can I get a refund?\nA: Refunds reach the card in 3 days.\n"
        "Money is back within 14 days."
    )
    raw = ExtractiveAnswerer(Overlap(), max_sentences=2, margin=1.0).generate(
        "how many days until my money is back?", [faq_passage(content, pair)], []
    )
    assert quotes(raw) == ["Refunds reach the card in 3 days.", "Money is back within 14 days."]


def test_a_question_asked_inside_an_faq_answer_starts_no_answer_of_its_own():
    # "What if it does not fit?" is asked inside a paragraph, not on a line of its own: the
    # sentences after it are no FAQ answer with an opening of their own
    content = (
        "Sizes run small. What if it does not fit? You can send it back. "
        "Returns of the other one are free."
    )
    raw = ExtractiveAnswerer(Overlap(), max_sentences=2, margin=0.0).generate(
        "can I return it?", [faq_passage(content, {"block_type": "qa_pair"})], []
    )
    assert quotes(raw) == ["Returns of the other one are free."]
    # the same question on a line of its own is a question line: its answer's opening leads
    content = "What if it does not fit?\nYou can send it back. Returns of the other one are free."
    raw = ExtractiveAnswerer(Overlap(), max_sentences=2, margin=0.0).generate(
        "can I return it?", [faq_passage(content, {"block_type": "qa_pair"})], []
    )
    assert quotes(raw) == ["You can send it back.", "Returns of the other one are free."]


def test_a_bare_yes_is_never_quoted_and_its_statements_answer():
    """A bare "Yes." answers the FAQ's own question, not necessarily the one asked: the
    statements after it are quoted, the opening of the answer being the first of them."""
    content = (
        "Q: Can I get a refund?\nA: Yes.\nRefunds are paid back within 14 days of the return."
        "\n\nQ: Can I work from home?\nA: Office staff may work from home two days a week."
    )
    pair = {"block_type": "qa_pair"}
    for max_sentences in (1, 2):
        raw = ExtractiveAnswerer(Overlap(), max_sentences=max_sentences).generate(
            "can I get my money back?", [faq_passage(content, pair)], []
        )
        assert quotes(raw)[0] == "Refunds are paid back within 14 days of the return."
        assert "Yes." not in quotes(raw)
    # a longer reply the sentence rule keeps apart is no quote either
    content = "Q: Can I collect my order?\nA: No, we don't. Orders are delivered by courier."
    raw = ExtractiveAnswerer(Overlap(), max_sentences=2).generate(
        "can I get my order back?", [faq_passage(content, pair)], []
    )
    assert quotes(raw) == ["Orders are delivered by courier."]
    assert na.leading_reply("Yes, if you send it back.", 0, 25) == 0  # it states a condition
    assert na.leading_reply("No. 10 Downing Street is the address.", 0, 38) == 0  # a number


def test_an_emails_sender_recipients_and_date_describe_the_message_only():
    headers = {"section": "Headers"}  # loaders.base.HEADER_SECTION
    assert na.message_field("Date: Mon, 02 Nov 2026 10:30:00 +0000", headers)
    assert na.message_field("From: Priya Nandakumar <priya@example.org>", headers)
    assert na.message_field("cc: studio@example.org", headers)
    # the subject says what the message is about; a body line is not a header
    assert not na.message_field("Subject: Christmas party: Thursday 17 December", headers)
    assert not na.message_field("Date: Thursday 17 December", {"section": "Party"})
    assert not na.message_field("Date: Thursday 17 December", None)
    assert na.asks_about_message("who sent the e-mail about the move?")
    assert na.asks_about_message("When was the newsletter sent")
    assert not na.asks_about_message("what time does the xmas party finish?")
    # writing something is not asking about a message
    assert not na.asks_about_message("do we have to write a postmortem for a sev3?")


def test_the_answerer_quotes_a_date_header_only_for_a_question_about_the_message():
    content = "Subject: Refund policy\nDate: Mon, 02 Nov 2026 10:30:00 +0000"
    passage = faq_passage(content, {"section": "Headers", "doc_name": "refunds.eml"})
    answerer = ExtractiveAnswerer(Overlap())

    def candidates(question: str) -> list[str]:
        scored, _ = answerer._scored(question, [passage])
        return [s.text for s in scored]

    assert candidates("when is the refund paid?") == ["Subject: Refund policy"]
    assert "Date: Mon, 02 Nov 2026 10:30:00 +0000" in candidates("when was the refund email sent?")
    raw = answerer.generate(
        "when is the refund paid back?",
        [faq_passage(content.split("\n")[1], {"section": "Headers"})],
        [],
    )
    assert "sender, recipients and date" in raw  # the only sentence is the message's date


@pytest.mark.parametrize(
    ("question", "field"),
    [
        ("Who sent the winter newsletter?", "from"),
        ("who wrote the email about parking", "from"),
        ("who is the sender of the price e-mail", "from"),
        ("When was the winter newsletter sent?", "date"),
        ("what date was the letter sent", "date"),
        ("when did the email about the office move arrive", "date"),
        ("Who was the e-mail about the move sent to?", "to"),
        ("Who was the email from?", "from"),
        ("who received the newsletter", None),  # the recipients are asked as "sent to"
        ("Who gets a discount according to the winter newsletter?", None),  # what it says
        ("Who should I send the letter to?", None),  # advice, not a message's recipients
        ("When should I send my application letter?", None),
        ("What time do I send the message by?", None),
        ("who sent the parcel?", None),  # names no message
        ("When does the newsletter say the surgery closes?", None),  # asks what it says
        ("Who is mentioned in the newsletter?", None),
    ],
)
def test_a_question_for_a_messages_sender_recipients_or_date(question, field):
    assert na.asked_message_field(question) == field


def test_the_answerer_quotes_the_header_line_a_question_about_the_message_asks_for():
    header = (
        "Subject: Winter newsletter\nFrom: Helen Carter <helen@example.org>\n"
        "To: patients@example.org\nDate: Tue, 01 Dec 2026 10:30:00 +0000"
    )
    body = "Welcome to our winter newsletter! Grace Owusu joined us as our hygienist."
    head = Passage(
        2,
        Candidate(
            "k2",
            Document(
                page_content=header,
                metadata={
                    "content": header,
                    "section": "Headers",
                    "doc_id": "d",
                    "doc_name": "news.eml",
                },
            ),
        ),
    )
    text = Passage(
        1,
        Candidate(
            "k1",
            Document(
                page_content=body, metadata={"content": body, "doc_id": "d", "doc_name": "news.eml"}
            ),
        ),
    )
    answerer = ExtractiveAnswerer(Overlap(), max_sentences=1)

    def answer(question: str, passages: list[Passage]) -> list[str]:
        raw = answerer.generate(question, passages, [])
        return [line.split(" [", 1)[0] for line in parse_output(raw).prose.splitlines()]

    assert answer("When was the winter newsletter sent?", [text, head]) == [
        "Date: Tue, 01 Dec 2026 10:30:00 +0000"
    ]
    assert answer("Who sent the winter newsletter?", [text, head]) == [
        "From: Helen Carter <helen@example.org>"
    ]
    assert answer("Who was the winter newsletter sent to?", [text, head]) == [
        "To: patients@example.org"
    ]
    # without the header block, a sentence with neither a name nor a date is no answer
    raw = answerer.generate(
        "When was the winter newsletter sent?",
        [
            Passage(
                1,
                Candidate(
                    "k3",
                    Document(
                        page_content="Welcome to our winter newsletter!",
                        metadata={"content": "Welcome to our winter newsletter!"},
                    ),
                ),
            )
        ],
        [],
    )
    assert "has no date" in raw


def test_an_faq_answer_label_is_cut_off_the_quote():
    text = "A: Reception and clinical staff cannot, because their work is done on site."
    assert text[na.leading_reply(text, 0, len(text)) :].startswith("Reception and clinical")
    bold = "**Answer:** We ship to the EU."
    assert bold[na.leading_reply(bold, 0, len(bold)) :] == "We ship to the EU."
    for kept in ("A strong wind blew.", "A. First option", "A:"):  # no label, or nothing after
        assert na.leading_reply(kept, 0, len(kept)) == 0
    # through the answerer: the quote and the statement start after the label
    content = f"Q: Can I work from home?\n{text}"
    raw = ExtractiveAnswerer(Overlap(), max_sentences=1).generate(
        "Can receptionists work remotely?", [faq_passage(content)], []
    )
    assert "A: " not in raw and "Reception and clinical staff cannot" in raw


def test_a_tables_header_line_is_a_heading_not_an_answer():
    """The column names over a recorded row ("Organisation | Amount awarded") state no cell:
    never quoted; the row under it stays a statement, as does a line not over a row."""
    from loaders.row_text import ROW_TEXT_KEY

    content = (
        "Eleven were funded.\n\nOrganisation | Amount requested | Amount awarded\n"
        "Age Concern | £1,750 | £1,500\nScouts | £2,500 | £1,800"
    )
    head_s = content.index("Organisation")
    head_e = content.index("\nAge")
    rows = []
    for label, stated in (
        ("Age Concern", "Age Concern — Amount requested: £1,750; Amount awarded: £1,500"),
        ("Scouts", "Scouts — Amount requested: £2,500; Amount awarded: £1,800"),
    ):
        s = content.index(label)
        e = content.find("\n", s) if content.find("\n", s) > 0 else len(content)
        rows.append([s, e, f"Grants — {stated}", stated])
    meta = {ROW_TEXT_KEY: rows}
    assert na.table_header_line(content, head_s, head_e, meta)
    assert na.non_answer(content, head_s, head_e, meta) == "heading"
    assert na.non_answer(content, rows[0][0], rows[0][1], meta) is None
    assert not na.table_header_line(content, 0, content.index("\n"), meta)  # not over a row
    other = {ROW_TEXT_KEY: [[*rows[0][:2], "x", "Age Concern — Cost: £1,750; Paid: £1,500"]]}
    assert not na.table_header_line(content, head_s, head_e, other)  # names other columns


def test_a_markdown_tables_header_line_is_a_heading_through_the_loader(tmp_path):
    """A Markdown pipe table's header, with its |---| rule line between it and the first
    row, is the table's header line (read and chunked by the real loader)."""
    from loaders.chunking import ChunkSettings, chunk_document
    from loaders.registry import load_file

    path = tmp_path / "grants.md"
    path.write_text(
        "# Grants\n\nEleven applications were funded.\n\n"
        "| Organisation | Amount requested | Amount awarded |\n|---|---:|---:|\n"
        "| Age Concern | £1,750 | £1,500 |\n| Scouts | £2,500 | £1,800 |\n",
        encoding="utf-8",
    )
    doc = load_file(path)
    chunks = chunk_document(doc, ChunkSettings(), {"doc_id": "g", "title": doc.title})
    (chunk,) = [c for c in chunks if "Organisation" in c.content]
    content = chunk.content
    start = content.index("| Organisation")
    end = content.index("\n", start)
    assert na.table_header_line(content, start, end, chunk.metadata)
    row = content.index("| Age Concern")
    assert na.non_answer(content, row, content.index("\n", row), chunk.metadata) is None


def _header_table_file(tmp_path, fmt: str):
    """A table of antibiotics (header: Antibiotic, Stock, Solvent, Working conc., Stored in)
    written as ``fmt``; returns its path."""
    header = ["Antibiotic", "Stock", "Solvent", "Working conc.", "Stored in"]
    rows = [
        ["Ampicillin", "100 mg/mL", "water", "100 ug/mL", "F2, box A"],
        ["Kanamycin", "50 mg/mL", "water", "50 ug/mL", "F2, box B"],
    ]
    path = tmp_path / f"stocks.{fmt}"
    if fmt == "md":
        lines = ["| " + " | ".join(r) + " |" for r in (header, rows[0], rows[1])]
        lines.insert(1, "|---|---|---|---|---|")
        path.write_text("# Stocks\n\n" + "\n".join(lines) + "\n", encoding="utf-8")
    elif fmt == "csv":
        path.write_text("\n".join(";".join(r) for r in (header, *rows)) + "\n", encoding="utf-8")
    elif fmt == "html":
        cells = "".join(f"<th>{c}</th>" for c in header)
        body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
        path.write_text(
            f"<html><body><h1>Stocks</h1><p>Our stocks.</p><table><tr>{cells}</tr>{body}"
            "</table></body></html>",
            encoding="utf-8",
        )
    elif fmt == "docx":
        import docx

        d = docx.Document()
        d.add_heading("Stocks", 1)
        d.add_paragraph("Our stocks.")
        table = d.add_table(rows=3, cols=len(header))
        for i, r in enumerate((header, *rows)):
            for j, c in enumerate(r):
                table.cell(i, j).text = c
        d.save(path)
    elif fmt == "xlsx":
        import openpyxl

        wb = openpyxl.Workbook()
        ws = wb.active
        ws.title = "Stocks"
        for r in (header, *rows):
            ws.append(r)
        wb.save(path)
    return path


@pytest.mark.parametrize("fmt", ["md", "csv", "html", "docx", "xlsx"])
def test_a_tables_header_line_is_never_quoted_in_any_format(tmp_path, fmt):
    """Every sentence span of a table's header — also the pieces the sentence rule cuts a
    header line into at an abbreviation's full stop ("… | Working conc." / "| Stored in |"),
    and an HTML header's cells, one per line — is a heading, whatever the format wrote the
    table from; the rows under it, and the prose above it, stay statements. (A CSV's and a
    sheet's chunks of rows do not hold the header line: it is never a sentence there.)"""
    from loaders.chunking import ChunkSettings, chunk_document
    from loaders.registry import load_file
    from loaders.row_text import recorded_rows, row_sentence_spans

    doc = load_file(_header_table_file(tmp_path, fmt))
    chunks = chunk_document(doc, ChunkSettings(), {"doc_id": "s", "title": doc.title})
    held = [c for c in chunks if "Working conc." in c.content and "Kanamycin" in c.content]
    assert bool(held) == (fmt in ("md", "html", "docx")), [c.content for c in chunks]
    for chunk in held:
        content, meta = chunk.content, chunk.metadata
        first_row = min(r[0] for r in recorded_rows(meta))
        head = content.rfind("\n", 0, content.index("Antibiotic")) + 1  # its line's start
        spans = [(s, e) for s, e in row_sentence_spans(content, meta) if e <= first_row]
        assert any(s >= head for s, _ in spans), content
        for s, e in spans:
            expected = "heading" if s >= head else None  # "Our stocks." is a statement
            assert na.non_answer(content, s, e, meta) == expected, (fmt, content[s:e])
        for s, e, _, _ in recorded_rows(meta):
            assert na.non_answer(content, s, e, meta) is None, (fmt, content[s:e])
