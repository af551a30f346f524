"""An FAQ's question line is never the answer and a heading is never glued into a quote, end
to end: a small FAQ, handbook and report (a real PDF) ingested into a temporary index with
the real embedding model, asked through the offline graph."""

from __future__ import annotations

import numpy as np
import pytest

from citerag.index.ingest import ingest
from citerag.stores.loaded import load_index
from graphs.rag import build_graph
from tests.support.pdfs import Line, write_pdf

pytestmark = pytest.mark.integration

HANDBOOK = """HARBOURSIDE STAFF HANDBOOK

Common questions

Q: Can I work from home?
A: Office staff may work from home up to two days a week with their manager's agreement.

Q: Is there a pension scheme?
A: Everyone joins the group pension after three months of service.
"""
FAQ = """# Help centre

**Can I get a refund?**
Refunds are paid to the original card within five working days of receiving the parcel.

**Do you ship abroad?**
Orders go to the EU, Norway and Switzerland and take seven to ten working days.
"""
REPORT = [
    "Northfield Community Energy",
    "Annual Report 2025",
    "Generation",
    "The co-operative generated 14.2 GWh of electricity in 2025, up from 12.9 GWh in 2024.",
    "People",
    "At the end of 2025 the co-operative employed 9 staff, of whom 4 work part time.",
]
#: (question in the FAQ's own words, the FAQ's question line, words of the answer under it)
FAQ_PAIRS = [
    ("Can I work from home?", "Can I work from home?", "two days a week"),
    ("Is there a pension scheme?", "Is there a pension scheme?", "three months of service"),
    ("Can I get a refund?", "Can I get a refund?", "five working days"),
    ("Do you ship abroad?", "Do you ship abroad?", "the EU, Norway and Switzerland"),
]
NO_GATE = {"gate_threshold": 0.0}


@pytest.fixture(scope="module")
def index(tmp_path_factory, embedding_model):
    root = tmp_path_factory.mktemp("faq")
    docs = root / "docs"
    docs.mkdir()
    (docs / "handbook.txt").write_text(HANDBOOK, encoding="utf-8")
    (docs / "help.md").write_text(FAQ, encoding="utf-8")
    write_pdf(docs / "report.pdf", [[Line(x) for x in REPORT]])
    report = ingest([docs], root / "index", embedding_model, progress=False)
    assert not report.failed
    return load_index(root / "index", embedding_model)


@pytest.fixture(scope="module")
def graph(index, embedding_model):
    return build_graph(
        index.store, embeddings=embedding_model.embeddings, manifest_id=index.manifest_id
    )


def quoted(result: dict) -> list[str]:
    return [" ".join(c["quote"].split()) for c in result["citations"]]


@pytest.mark.parametrize(("question", "line", "answer"), FAQ_PAIRS)
def test_an_faq_question_line_is_never_the_answer(graph, embedding_model, question, line, answer):
    # the question line is the sentence nearest to the question: quoting by similarity alone
    # would quote it
    emb = embedding_model.embeddings
    q, near, under = (np.asarray(v) for v in emb.embed_documents([question, line, answer]))
    assert float(q @ near) > float(q @ under)

    result = graph.invoke({"question": question}, {"configurable": NO_GATE})
    assert result["status"] == "answered", result.get("reason")
    quotes = quoted(result)
    assert quotes and not any(x.rstrip("*").endswith("?") for x in quotes), quotes
    assert any(answer in x for x in quotes), quotes
    assert line not in result["answer"]


def test_a_heading_is_never_glued_into_a_quote(graph, index):
    result = graph.invoke(
        {"question": "How many staff did the co-operative employ at the end of 2025?"},
        {"configurable": NO_GATE},
    )
    assert result["status"] == "answered", result.get("reason")
    quotes = quoted(result)
    assert any(x.startswith("At the end of 2025 the co-operative employed 9 staff") for x in quotes)
    assert not any("People" in x or "Generation" in x for x in quotes), quotes
    # the PDF's headings are its sections (loaders.headings): in the embedded header of the
    # chunks under them, in none of their sentence spans
    store = index.store
    report = [
        (key, meta) for key, meta in store.iter_metadata() if meta["doc_name"] == "report.pdf"
    ]
    sections = {meta["section"].split(" > ")[-1] for _, meta in report}
    assert {"People", "Generation"} <= sections, sections
    texts = [meta["content"][s:e] for key, meta in report for s, e in store.sentences[key][0]]
    assert not any("People" in t or "Generation" in t for t in texts), texts


HEADED = """# Help centre

## Delivery

### How much is shipping?

Standard UK delivery is £4.95, and free on orders over £60.

### How long does delivery take?

Standard delivery within the UK takes three to five working days.

### Do you ship abroad?

We ship to the EU, Norway and Switzerland.
"""


def test_an_faq_pair_is_one_unit_whatever_its_question_is_written_as(
    tmp_path_factory, embedding_model
):
    """A bold question line and a heading question each start a chunk of their own, and a
    heading question passes its score to the answer under it: 'We ship to the EU' is quoted
    for 'outside the UK', not the UK sentences that share its words."""
    root = tmp_path_factory.mktemp("faq-units")
    docs = root / "docs"
    docs.mkdir()
    (docs / "help.md").write_text(HEADED, encoding="utf-8")
    (docs / "library.md").write_text(FAQ, encoding="utf-8")
    assert not ingest([docs], root / "index", embedding_model, progress=False).failed
    index = load_index(root / "index", embedding_model)
    chunks = [meta["content"] for _, meta in index.store.iter_metadata()]
    assert sum(c.count("?**") for c in chunks) == 2 and all(c.count("?**") <= 1 for c in chunks)
    graph = build_graph(
        index.store, embeddings=embedding_model.embeddings, manifest_id=index.manifest_id
    )
    result = graph.invoke({"question": "do you deliver outside the UK?"}, {"configurable": NO_GATE})
    assert result["status"] == "answered", result.get("reason")
    assert any("We ship to the EU" in x for x in quoted(result)), quoted(result)
    top = result["trace"]["candidates"][0]
    assert top["scores"]["heading_question"] > 0.5, top


OPENING = """# Help centre

### What delivery options are there?

Standard delivery within the UK takes three to five working days. Express delivery arrives
the next working day if you order before 1 pm.

### Can I pay by cheque?

We take Visa, Mastercard and PayPal. We do not accept cheques or cash on delivery.
"""


def test_an_faq_answer_is_quoted_from_its_opening(tmp_path_factory, embedding_model, monkeypatch):
    """The express sentence matches 'if I order today' best, yet the answer opens with the
    standard delivery time: the pair's first statement is quoted before it."""
    root = tmp_path_factory.mktemp("faq-opening")
    docs = root / "docs"
    docs.mkdir()
    (docs / "help.md").write_text(OPENING, encoding="utf-8")
    assert not ingest([docs], root / "index", embedding_model, progress=False).failed
    index = load_index(root / "index", embedding_model)
    graph = build_graph(
        index.store, embeddings=embedding_model.embeddings, manifest_id=index.manifest_id
    )
    question = "if I order today when will my parcel get here?"
    emb = embedding_model.embeddings
    q, opening, later = (
        np.asarray(v)
        for v in emb.embed_documents(
            [
                question,
                "Standard delivery within the UK takes three to five working days.",
                "Express delivery arrives the next working day if you order before 1 pm.",
            ]
        )
    )
    assert float(q @ later) > float(q @ opening)  # by similarity alone, express comes first
    result = graph.invoke({"question": question}, {"configurable": NO_GATE})
    assert result["status"] == "answered", result.get("reason")
    answer = " ".join(result["answer"].split())
    assert "Standard delivery within the UK" in answer and "Express delivery arrives" in answer
    assert answer.index("Standard delivery") < answer.index("Express delivery"), answer
    # one citation per passage: it quotes the answer's opening, verbatim
    assert quoted(result)[0].startswith("Standard delivery within the UK"), quoted(result)
    # the opening rule is what put it there: without it the express sentence is quoted alone
    from chains import answerers

    monkeypatch.setattr(answerers, "_with_opening", lambda chosen, *_args: chosen)
    without = graph.invoke({"question": question}, {"configurable": NO_GATE})
    assert " ".join(without["answer"].split()).startswith("Express delivery arrives")
