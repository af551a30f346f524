"""Evidence matching and the destroyed-evidence count on a crafted tiny index."""

from __future__ import annotations

from citerag.eval.evidence import IndexedCorpus, SourceText
from citerag.eval.questions import Evidence, parse_questions
from citerag.eval.runner import evidence_summary

TEXT = "Alpha beta gamma.\n\nThe answer is forty-two. It was found in 1979.\n\nDelta epsilon."
#        0                  19                                               66


def chunk(doc_id, name, start, end, page=None):
    meta = {
        "doc_id": doc_id,
        "doc_name": name,
        "source": f"corpus/{name}",
        "chunk_id": f"{doc_id}:{start}-{end}",
        "content": TEXT[start:end],
        "start": start,
        "end": end,
        "access": "public",
    }
    if page is not None:
        meta["page"] = page
    return meta["chunk_id"], meta


def corpus():
    # two chunks cut at 30: "The answer is forty-two." (19..43) straddles the cut
    chunks = [
        chunk("d1", "notes.txt", 0, 30),
        chunk("d1", "notes.txt", 30, len(TEXT)),
        chunk("d2", "report.pdf", 0, 17, page=1),
        chunk("d2", "report.pdf", 19, 43, page=2),
    ]
    texts = {"d1": SourceText(TEXT), "d2": SourceText(TEXT, ((1, 0, 17), (2, 19, 66)))}
    return IndexedCorpus(chunks, texts.get)


def test_hits_respect_doc_page_needle_and_range():
    c = corpus()
    assert c.hits(Evidence("notes.txt", needle="Alpha beta")) == {"d1:0-30"}
    assert c.hits(Evidence("corpus/notes.txt", needle="It  was\nfound")) == {
        f"d1:30-{len(TEXT)}"
    }  # whitespace collapsed; source key works
    assert c.hits(Evidence("notes", needle="Delta")) == {f"d1:30-{len(TEXT)}"}  # stem works
    assert c.hits(Evidence("report.pdf", page=2)) == {"d2:19-43"}
    assert c.hits(Evidence("report.pdf", page=1, needle="forty-two")) == set()
    assert c.hits(Evidence("notes.txt", start=2, end=10)) == {"d1:0-30"}
    assert c.hits(Evidence("notes.txt", start=25, end=35)) == set()  # straddles 30
    assert c.hits(Evidence("notes.txt")) == {"d1:0-30", f"d1:30-{len(TEXT)}"}


def test_status_destroyed_vs_missing():
    c = corpus()
    assert c.status(Evidence("notes.txt", needle="Alpha beta gamma.")) == "indexed"
    assert c.status(Evidence("notes.txt", needle="The answer is forty-two.")) == "destroyed"
    assert c.status(Evidence("notes.txt", start=19, end=43)) == "destroyed"
    assert c.status(Evidence("notes.txt", needle="forty-three")) == "not_in_source"
    assert c.status(Evidence("notes.txt", start=100, end=120)) == "not_in_source"
    assert c.status(Evidence("other.txt", needle="Alpha")) == "doc_not_indexed"
    # on page 2 the needle is inside one chunk; on page 1 it does not occur
    assert c.status(Evidence("report.pdf", page=2, needle="forty-two")) == "indexed"
    assert c.status(Evidence("report.pdf", page=1, needle="forty-two")) == "not_in_source"
    assert c.status(Evidence("report.pdf", page=7)) == "not_in_source"


def test_source_unavailable_without_texts():
    c = IndexedCorpus([chunk("d1", "notes.txt", 0, 30)])
    assert c.status(Evidence("notes.txt", needle="forty-two")) == "source_unavailable"
    assert c.status(Evidence("notes.txt", start=19, end=43)) == "destroyed"


def test_destroyed_count_over_questions():
    qs = parse_questions(
        [
            '{"id": "ok", "question": "?", "doc": "notes.txt", "needle": "Delta epsilon."}',
            '{"id": "cut", "question": "?", "doc": "notes.txt", '
            '"needle": "The answer is forty-two."}',
            # one alternative destroyed, the other indexed: the question is not destroyed
            '{"id": "alt", "question": "?", "evidence": [{"doc": "notes.txt", "start": 19, '
            '"end": 43}, {"doc": "report.pdf", "page": 2}]}',
            '{"id": "gone", "question": "?", "doc": "missing.txt", "needle": "x"}',
            '{"id": "u", "question": "?", "unanswerable": true}',
        ]
    )
    s = evidence_summary(corpus(), qs)
    assert s["answerable"] == 4
    assert s["questions"] == {"indexed": 2, "destroyed": 1, "doc_not_indexed": 1}
    assert s["items"] == {"indexed": 2, "destroyed": 2, "doc_not_indexed": 1}
    assert s["destroyed_questions"]["k"] == 1 and s["destroyed_questions"]["n"] == 4
