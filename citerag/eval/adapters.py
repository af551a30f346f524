"""Turn the public evaluation sets into documents on disk plus a question file.

The data sets live in ``<repo>/../shared/data`` (see its README); they are never copied into
the repository. Each adapter writes, under a work folder of your choice:

* ``<work>/<name>/corpus/`` — the documents to ingest with ``citerag ingest``;
* ``<work>/<name>/questions.jsonl`` — questions in the format of
  :mod:`citerag.eval.questions`.

SQuAD 2.0 (``squad2-dev/dev-v2.0.json``)
    One ``.txt`` document per **article**: the title, a blank line, then the paragraphs
    separated by blank lines — so chunking decides whether an answer survives. Each
    answerable question's evidence is the gold answer span(s) mapped to a character range in
    the article's canonical text (the ``.txt`` loader keeps text verbatim; the mapping is
    checked with ``text[start:end] == answer``). ``is_impossible`` questions are written with
    ``unanswerable: true``. ``questions_sentence.jsonl`` uses, instead of the answer span,
    the whole sentence containing it (the stricter "needle" of the chunking article).
SciFact (``scifact-1k``)
    One ``.txt`` per abstract (title, blank line, abstract) named ``<corpus id>.txt``;
    evidence = the relevant abstracts from ``qrels/test.tsv`` with their grades
    (document-level relevance: any chunk of a relevant abstract is a hit).
FinanceBench (``financebench``, ``financebench-dev``)
    The filings' PDFs (symlinked); evidence = ``(document, page)`` with
    ``page = evidence_page_num + 1`` (the data set's pages are zero-based); each question's
    metadata keeps the filing it was asked about (``doc_name``) and the ``company``.
    ``financebench-dev`` may be cut to the companies whose filings total at most N pages.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citerag.eval.questions import Evidence, Question, write_questions

DATASETS = ("squad", "scifact", "financebench", "financebench-dev")


def default_data_dir() -> Path:
    """``<repo>/../shared/data`` for a source checkout, else ``../shared/data`` (cwd)."""
    repo = Path(__file__).resolve().parents[2]
    candidate = repo / ".." / "shared" / "data"
    return candidate if candidate.is_dir() else Path("..") / "shared" / "data"


@dataclass
class Prepared:
    """A data set materialised for ingestion and evaluation.

    Attributes:
        name: ``squad``, ``scifact`` or ``financebench``.
        root: ``<work>/<name>``.
        corpus: Folder to ingest.
        questions: The main question file.
        extra: Other question files (e.g. ``sentence`` for SQuAD answer sentences).
        counts: What was written.
    """

    name: str
    root: Path
    corpus: Path
    questions: Path
    extra: dict[str, Path] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)


def safe_name(name: str) -> str:
    """A file-name-safe version of ``name`` (letters, digits, ``-`` and ``_``)."""
    keep = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name)
    return keep.strip("_")[:100] or "untitled"


def _write_if_changed(path: Path, text: str) -> None:
    data = text.encode("utf-8")
    if path.exists() and path.read_bytes() == data:
        return
    path.write_bytes(data)


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """The records of a JSON-lines file (blank lines skipped)."""
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _fresh_corpus(root: Path) -> Path:
    corpus = root / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    return corpus


def squad_article_text(title: str, contexts: list[str]) -> tuple[str, list[int]]:
    """Build an article's document text; return it and each paragraph's offset in it."""
    head = title.replace("_", " ") + "\n\n"
    offsets = []
    parts = [head]
    pos = len(head)
    for i, ctx in enumerate(contexts):
        if i:
            parts.append("\n\n")
            pos += 2
        offsets.append(pos)
        parts.append(ctx)
        pos += len(ctx)
    parts.append("\n")
    return "".join(parts), offsets


def _sentence_range(context: str, start: int, end: int) -> tuple[int, int]:
    """The range of the sentence(s) of ``context`` that contain ``[start, end)``."""
    from loaders.sentences import sentence_spans

    spans = sentence_spans(context) or [(0, len(context))]
    inside = [(s, e) for s, e in spans if s < end and e > start]
    if not inside:
        return start, end
    return min(min(s for s, _ in inside), start), max(max(e for _, e in inside), end)


def prepare_squad(data: Path, work: Path, limit_articles: int | None = None) -> Prepared:
    """Materialise SQuAD 2.0 dev articles and questions (see the module docstring).

    Raises:
        AssertionError: If a gold span does not map back to its answer text.
    """
    raw = json.loads((data / "squad2-dev" / "dev-v2.0.json").read_text(encoding="utf-8"))
    root = work / "squad"
    corpus = _fresh_corpus(root)
    span_qs: list[Question] = []
    sent_qs: list[Question] = []
    counts = {"articles": 0, "paragraphs": 0, "answerable": 0, "unanswerable": 0}
    for article in raw["data"][:limit_articles]:
        title = article["title"]
        fname = safe_name(title) + ".txt"
        contexts = [p["context"] for p in article["paragraphs"]]
        text, offsets = squad_article_text(title, contexts)
        _write_if_changed(corpus / fname, text)
        counts["articles"] += 1
        counts["paragraphs"] += len(contexts)
        for p_idx, (para, off) in enumerate(zip(article["paragraphs"], offsets, strict=True)):
            ctx = para["context"]
            for qa in para["qas"]:
                meta: dict[str, Any] = {
                    "dataset": "squad2-dev",
                    "article": title,
                    "paragraph": p_idx,
                }
                if qa.get("is_impossible"):
                    meta["plausible_answers"] = sorted(
                        {a["text"] for a in qa.get("plausible_answers") or []}
                    )
                    q = Question(qa["id"], qa["question"], True, [], meta)
                    span_qs.append(q)
                    sent_qs.append(q)
                    counts["unanswerable"] += 1
                    continue
                spans: list[Evidence] = []
                sents: list[Evidence] = []
                for ans in qa["answers"]:
                    s = off + ans["answer_start"]
                    e = s + len(ans["text"])
                    assert text[s:e] == ans["text"], f"span mismatch for {qa['id']}"
                    ev = Evidence(doc=fname, start=s, end=e)
                    if ev not in spans:
                        spans.append(ev)
                    ss, se = _sentence_range(
                        ctx, ans["answer_start"], ans["answer_start"] + len(ans["text"])
                    )
                    sev = Evidence(doc=fname, start=off + ss, end=off + se)
                    if sev not in sents:
                        sents.append(sev)
                if not spans:
                    continue
                meta["answers"] = sorted({a["text"] for a in qa["answers"]})
                span_qs.append(Question(qa["id"], qa["question"], False, spans, meta))
                sent_qs.append(Question(qa["id"], qa["question"], False, sents, dict(meta)))
                counts["answerable"] += 1
    questions = root / "questions.jsonl"
    write_questions(span_qs, questions)
    sentence = root / "questions_sentence.jsonl"
    write_questions(sent_qs, sentence)
    return Prepared("squad", root, corpus, questions, {"sentence": sentence}, counts)


def prepare_scifact(data: Path, work: Path, limit_queries: int | None = None) -> Prepared:
    """Materialise the SciFact 1k-abstract subset and its test queries with graded qrels."""
    base = data / "scifact-1k"
    root = work / "scifact"
    corpus = _fresh_corpus(root)
    ids: set[str] = set()
    for rec in _jsonl(base / "corpus.jsonl"):
        cid = str(rec["_id"])
        ids.add(cid)
        text = f"{rec['title'].strip()}\n\n{rec['text'].strip()}\n"
        _write_if_changed(corpus / f"{safe_name(cid)}.txt", text)
    qrels: dict[str, list[tuple[str, float]]] = {}
    with (base / "qrels" / "test.tsv").open(encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            parts = line.strip().split("\t")
            if n == 0 and parts and parts[0] == "query-id":
                continue
            if len(parts) != 3:
                continue
            qid, cid, score = parts
            if float(score) > 0 and cid in ids:
                qrels.setdefault(qid, []).append((cid, float(score)))
    questions: list[Question] = []
    for rec in _jsonl(base / "queries.jsonl"):
        qid = str(rec["_id"])
        if qid not in qrels:
            continue
        ev = [Evidence(doc=f"{safe_name(cid)}.txt", grade=g) for cid, g in qrels[qid]]
        questions.append(
            Question(f"scifact-{qid}", rec["text"], False, ev, {"dataset": "scifact-1k"})
        )
    questions = questions[:limit_queries]
    path = root / "questions.jsonl"
    write_questions(questions, path)
    return Prepared(
        "scifact", root, corpus, path, {}, {"abstracts": len(ids), "queries": len(questions)}
    )


def _pdf_pages(path: Path) -> int:
    from pypdf import PdfReader

    reader = PdfReader(str(path))
    if reader.is_encrypted:
        reader.decrypt("")
    return len(reader.pages)


def prepare_financebench(
    data: Path,
    work: Path,
    *,
    folder: str = "financebench",
    max_company_pages: int | None = None,
) -> Prepared:
    """Link FinanceBench PDFs and write their questions with 1-based evidence pages.

    Args:
        data: The shared data folder.
        work: Where to materialise it.
        folder: ``financebench`` (4 filings) or ``financebench-dev`` (59 filings of 27
            companies).
        max_company_pages: Keep only the companies whose filings have at most this many
            pages in all (a size rule for quick runs: it keeps every filing of each kept
            company, so multi-year companies stay multi-year); ``None`` keeps everything.
    """
    base = data / folder
    name = folder if max_company_pages is None else f"{folder}-max{max_company_pages}p"
    root = work / name
    corpus = _fresh_corpus(root)
    pdfs = sorted((base / "pdfs").glob("*.pdf"))
    if max_company_pages is not None:
        pages: dict[str, int] = {}
        for pdf in pdfs:
            company = pdf.name.split("_", 1)[0]
            pages[company] = pages.get(company, 0) + _pdf_pages(pdf)
        pdfs = [p for p in pdfs if pages[p.name.split("_", 1)[0]] <= max_company_pages]
    kept = {p.stem for p in pdfs}
    for pdf in pdfs:
        link = corpus / pdf.name
        if link.is_symlink() or link.exists():
            if link.resolve() == pdf.resolve():
                continue
            link.unlink()
        try:
            os.symlink(pdf.resolve(), link)
        except OSError:  # no symlinks (e.g. some Windows setups): copy outside the repo
            shutil.copyfile(pdf, link)
    for stale in corpus.glob("*.pdf"):
        if stale.stem not in kept:
            stale.unlink()
    questions: list[Question] = []
    for rec in _jsonl(base / "questions.jsonl"):
        if rec.get("doc_name") not in kept:
            continue
        ev: list[Evidence] = []
        for item in rec.get("evidence") or []:
            e = Evidence(doc=f"{item['doc_name']}.pdf", page=int(item["evidence_page_num"]) + 1)
            if e not in ev:
                ev.append(e)
        if not ev:
            continue
        questions.append(
            Question(
                str(rec["financebench_id"]),
                rec["question"],
                False,
                ev,
                {
                    "dataset": folder,
                    "company": rec.get("company"),
                    "doc_name": f"{rec.get('doc_name')}.pdf",
                    "answer": rec.get("answer"),
                },
            )
        )
    path = root / "questions.jsonl"
    write_questions(questions, path)
    return Prepared(name, root, corpus, path, {}, {"pdfs": len(pdfs), "questions": len(questions)})


def prepare(dataset: str, data: Path, work: Path, **kwargs: Any) -> Prepared:
    """Materialise one data set (``squad``, ``scifact``, ``financebench``, ``financebench-dev``).

    Raises:
        ValueError: Unknown data set.
        FileNotFoundError: The shared data folder is missing.
    """
    if not data.is_dir():
        raise FileNotFoundError(f"shared data folder not found: {data} (pass --data)")
    if dataset == "squad":
        return prepare_squad(data, work, **kwargs)
    if dataset == "scifact":
        return prepare_scifact(data, work, **kwargs)
    if dataset == "financebench":
        return prepare_financebench(data, work)
    if dataset == "financebench-dev":
        return prepare_financebench(data, work, folder="financebench-dev", **kwargs)
    raise ValueError(f"unknown data set {dataset!r}: use one of {', '.join(DATASETS)}")


def out_of_domain(
    questions: list[Question], prefix: str, limit: int | None = None, seed: int = 0
) -> list[Question]:
    """The same question texts marked ``unanswerable`` (for use against another index).

    Args:
        questions: Source questions (answerable or not).
        prefix: Prefix for the new ids (``ood-scifact-``).
        limit: Keep a seeded random sample of at most this many.
        seed: Sampling seed.
    """
    import random

    pool = list(questions)
    if limit is not None and len(pool) > limit:
        pool = random.Random(seed).sample(pool, limit)
    return [
        Question(
            f"{prefix}{q.id}",
            q.question,
            True,
            [],
            {"out_of_domain": True, **{k: v for k, v in q.meta.items() if k == "dataset"}},
        )
        for q in pool
    ]


def ensure_index(
    prepared: Prepared,
    index_dir: Path,
    model: Any,
    *,
    chunking: Any = None,
    sentence_vectors: bool = True,
    progress: bool = True,
) -> Any:
    """Ingest a prepared corpus (unchanged documents are skipped); return the report."""
    from citerag.index.ingest import ingest

    return ingest(
        [prepared.corpus],
        index_dir,
        model,
        chunking=chunking,
        sentence_vectors=sentence_vectors,
        progress=progress,
    )
