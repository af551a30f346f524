"""An HTML FAQ's ``<details>`` pairs and a glossary's ``<dt>``/``<dd>`` pairs as units."""

from __future__ import annotations

from pathlib import Path

from chains.non_answers import non_answer
from loaders.chunking import ChunkSettings, chunk_document
from loaders.registry import load_file

PAGE = """<!doctype html><html><head><title>Members' help</title></head><body>
<main>
  <h1>Members' help</h1>
  <p>Answers to what members ask us most often about the allotment site.</p>
  <details><summary>When are the gates open?</summary>
    <p>The gates open at 7am and close at dusk every day of the year.</p></details>
  <details><summary>My water trough is empty. Who fills it?</summary>
    <p>The site warden fills every trough on Monday and Thursday mornings.</p></details>
  <details><summary>Can I keep bees?</summary>
    Only with the committee's written approval and a hive at least 5 metres from a path.
  </details>
  <div class="section-title">Words we use</div>
  <dl>
    <dt>Plot</dt><dd>A rented area of ten rods, the usual size of an allotment.</dd>
    <dt>Half plot</dt><dd>Five rods, let to new members for their first year.</dd>
  </dl>
  <p>Rents are reviewed every October by the committee at its annual meeting.</p>
</main></body></html>
"""


def _chunks(tmp_path: Path):  # type: ignore[no-untyped-def]
    path = tmp_path / "help.html"
    path.write_text(PAGE, encoding="utf-8")
    doc = load_file(path)
    return doc, chunk_document(doc, ChunkSettings(), {"doc_id": "h", "title": doc.title})


def test_each_details_pair_and_each_definition_is_a_chunk_of_its_own(tmp_path: Path) -> None:
    doc, chunks = _chunks(tmp_path)
    kinds = [(c.metadata["block_type"], c.content.split("\n")[0]) for c in chunks]
    assert ("qa_pair", "My water trough is empty. Who fills it?") in kinds
    assert ("qa_pair", "Can I keep bees?") in kinds
    assert ("definition", "Plot") in kinds
    assert ("definition", "Half plot") in kinds
    trough = next(c for c in chunks if "trough" in c.content)
    assert "gates" not in trough.content and "bees" not in trough.content
    half = next(c for c in chunks if c.content.startswith("Half plot"))
    assert half.content == "Half plot\n\nFive rods, let to new members for their first year."
    bees = next(c for c in chunks if "bees" in c.content)
    assert "Words we use" not in bees.content
    assert "Rents are reviewed" not in half.content
    blocks = {b.kind for b in doc.blocks}
    assert {"qa_pair", "definition"} <= blocks


def test_the_question_of_a_details_pair_is_never_quoted(tmp_path: Path) -> None:
    _, chunks = _chunks(tmp_path)
    trough = next(c for c in chunks if "trough" in c.content)
    content, meta = trough.content, trough.metadata
    statement = "My water trough is empty."
    assert non_answer(content, 0, len(statement), meta) == "question"
    answer = content.index("The site warden")
    assert non_answer(content, answer, len(content), meta) is None
    plot = next(c for c in chunks if c.content.startswith("Plot"))
    assert non_answer(plot.content, 0, 4, plot.metadata) == "heading"
