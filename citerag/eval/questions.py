"""The evaluation question format (JSON Lines), its loader and its validator.

One question per line::

    {"id": "q15",
     "question": "What was Northwind's total revenue in 2025?",
     "evidence": [{"doc": "annual_report_2025.pdf", "page": 2,
                   "needle": "Total revenue for 2025 was £412,860"}]}
    {"id": "u02", "question": "How do I renew a UK passport?", "unanswerable": true}

Fields:

``id`` (string, unique; defaults to ``line-N``)
    Identifies the question in reports and in paired comparisons.
``question`` (string, required)
    What is asked.
``unanswerable`` (bool, default ``false``)
    ``true``: the indexed documents do not answer it; the right outcome is "no evidence".
    Such a question has no evidence. Used for refusal rates and gate calibration.
``evidence`` (list, required unless unanswerable)
    Alternatives: the question counts as retrieved as soon as **any** item is hit. Each item:

    ``doc`` (required)
        The document: its source key as shown by ``citerag inspect`` (``corpus/handbook.md``),
        its file name (``handbook.md``) or its file name without extension
        (``ADOBE_2022_10K`` for ``ADOBE_2022_10K.pdf``).
    ``page`` (int >= 1, optional)
        1-based page (PDFs).
    ``needle`` (string, optional)
        Verbatim text that answers the question.
    ``start``, ``end`` (ints, optional, both or neither)
        Character range ``[start, end)`` of the answer in the document's canonical text (the
        text ``citerag`` extracted; for ``.txt`` files, the file's text).
    ``grade`` (number > 0, default 1)
        Graded relevance for nDCG (SciFact qrels).

    Items with only ``doc`` (and ``grade``) are read as document relevance judgments, like
    BEIR qrels: for nDCG@10 each relevant document counts. Items with a page, needle or range
    are alternative locations of one answer: nDCG@10 then credits the first hit only
    (``1 / log2(1 + rank)``).

A chunk **hits** an item when it comes from that document, AND is on that page (if given),
AND contains the needle whole (whitespace collapsed, typographic quotes unified; if given),
AND its ``[start, end)`` range covers the item's range (if given). An item with only ``doc``
is document-level relevance: any chunk of the document hits it.

The simpler form of ``examples/questions.jsonl`` is accepted too: ``doc``, ``page``,
``needle`` (and ``start``/``end``) at the top level stand for one evidence item.

Any other keys (``answer``, ``dataset``, ...) are kept in :attr:`Question.meta` and copied to
per-question results.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_EVIDENCE_KEYS = ("doc", "page", "needle", "start", "end", "grade")
_KNOWN = {"id", "question", "unanswerable", "evidence", *_EVIDENCE_KEYS}


class QuestionFormatError(ValueError):
    """A question file is not in the documented format (message names file and line)."""


@dataclass(frozen=True)
class Evidence:
    """Where the answer to a question is.

    Attributes:
        doc: Source key, file name or file stem of the document.
        page: 1-based page, or ``None``.
        needle: Verbatim answer text, or ``None``.
        start: Start of the answer range in the canonical text, or ``None``.
        end: End (exclusive) of the answer range, or ``None``.
        grade: Relevance grade (for nDCG).
    """

    doc: str
    page: int | None = None
    needle: str | None = None
    start: int | None = None
    end: int | None = None
    grade: float = 1.0

    def to_json(self) -> dict[str, Any]:
        """The item as written in a question file (``None`` fields omitted)."""
        out: dict[str, Any] = {"doc": self.doc}
        for key in ("page", "needle", "start", "end"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.grade != 1.0:
            out["grade"] = self.grade
        return out

    def describe(self) -> str:
        """Short human description, e.g. ``report.pdf p.2 "Total revenue..."``."""
        parts = [self.doc]
        if self.page is not None:
            parts.append(f"p.{self.page}")
        if self.start is not None:
            parts.append(f"[{self.start},{self.end})")
        if self.needle:
            needle = " ".join(self.needle.split())
            parts.append('"' + (needle if len(needle) <= 60 else needle[:57] + "...") + '"')
        return " ".join(parts)


@dataclass
class Question:
    """One evaluation question.

    Attributes:
        id: Unique id.
        question: The question text.
        unanswerable: Whether the corpus does not answer it.
        evidence: Alternative evidence items (empty when unanswerable).
        meta: Other keys from the file.
    """

    id: str
    question: str
    unanswerable: bool = False
    evidence: list[Evidence] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The question in the full documented form."""
        out: dict[str, Any] = {"id": self.id, "question": self.question}
        if self.unanswerable:
            out["unanswerable"] = True
        else:
            out["evidence"] = [e.to_json() for e in self.evidence]
        out.update(self.meta)
        return out


def _int_field(value: Any, name: str, where: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise QuestionFormatError(f"{where}: {name} must be an integer >= {minimum}, not {value!r}")
    return value


def _parse_evidence(item: Any, where: str) -> Evidence:
    if not isinstance(item, dict):
        raise QuestionFormatError(
            f"{where}: each evidence item must be an object, not {type(item).__name__}"
        )
    unknown = set(item) - set(_EVIDENCE_KEYS)
    if unknown:
        raise QuestionFormatError(
            f"{where}: unknown evidence keys {sorted(unknown)} "
            f"(allowed: {', '.join(_EVIDENCE_KEYS)})"
        )
    doc = item.get("doc")
    if not isinstance(doc, str) or not doc.strip():
        raise QuestionFormatError(f"{where}: evidence needs a non-empty 'doc'")
    page = item.get("page")
    if page is not None:
        page = _int_field(page, "page", where, 1)
    needle = item.get("needle")
    if needle is not None and (not isinstance(needle, str) or not needle.strip()):
        raise QuestionFormatError(f"{where}: 'needle' must be non-empty text")
    start, end = item.get("start"), item.get("end")
    if (start is None) != (end is None):
        raise QuestionFormatError(f"{where}: give both 'start' and 'end', or neither")
    if start is not None:
        start = _int_field(start, "start", where, 0)
        end = _int_field(end, "end", where, 0)
        if end <= start:
            raise QuestionFormatError(
                f"{where}: 'end' ({end}) must be greater than 'start' ({start})"
            )
    grade = item.get("grade", 1.0)
    if isinstance(grade, bool) or not isinstance(grade, int | float) or grade <= 0:
        raise QuestionFormatError(f"{where}: 'grade' must be a positive number")
    return Evidence(
        doc=doc.strip(), page=page, needle=needle, start=start, end=end, grade=float(grade)
    )


def parse_question(record: Any, where: str = "question") -> Question:
    """Validate one decoded JSON record and build a :class:`Question`.

    Args:
        record: The decoded JSON object.
        where: Location for error messages (``file:line``).

    Raises:
        QuestionFormatError: Describing the first problem.
    """
    if not isinstance(record, dict):
        raise QuestionFormatError(f"{where}: each line must be a JSON object")
    text = record.get("question")
    if not isinstance(text, str) or not text.strip():
        raise QuestionFormatError(f"{where}: 'question' must be non-empty text")
    qid = record.get("id", where)
    if not isinstance(qid, str | int) or isinstance(qid, bool) or str(qid) == "":
        raise QuestionFormatError(f"{where}: 'id' must be a string")
    unanswerable = record.get("unanswerable", False)
    if not isinstance(unanswerable, bool):
        raise QuestionFormatError(f"{where}: 'unanswerable' must be true or false")
    items: list[Evidence] = []
    raw = record.get("evidence")
    if raw is not None:
        if not isinstance(raw, list):
            raise QuestionFormatError(f"{where}: 'evidence' must be a list")
        items = [_parse_evidence(it, f"{where} evidence[{i}]") for i, it in enumerate(raw)]
    top = {k: record[k] for k in _EVIDENCE_KEYS if k in record}
    if top:  # the simple form: one evidence item at the top level
        if raw is not None:
            raise QuestionFormatError(
                f"{where}: use either 'evidence' or top-level {sorted(top)}, not both"
            )
        items = [_parse_evidence(top, where)]
    if unanswerable and items:
        raise QuestionFormatError(f"{where}: an unanswerable question has no evidence")
    if not unanswerable and not items:
        raise QuestionFormatError(
            f"{where}: give evidence (doc + page / needle / start-end) "
            'or mark the question "unanswerable": true'
        )
    meta = {k: v for k, v in record.items() if k not in _KNOWN}
    return Question(
        id=str(qid), question=text.strip(), unanswerable=unanswerable, evidence=items, meta=meta
    )


def parse_questions(lines: Iterable[str], source: str = "<questions>") -> list[Question]:
    """Parse JSONL text (blank lines and ``#`` comment lines are skipped).

    Raises:
        QuestionFormatError: Bad JSON, a bad record, or a duplicate id.
    """
    out: list[Question] = []
    seen: dict[str, int] = {}
    for n, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"{source}:{n}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise QuestionFormatError(f"{where}: not valid JSON ({exc.msg})") from None
        if isinstance(record, dict) and "id" not in record:
            record = {**record, "id": f"line-{n}"}
        q = parse_question(record, where)
        if q.id in seen:
            raise QuestionFormatError(
                f"{where}: duplicate id {q.id!r} (first on line {seen[q.id]})"
            )
        seen[q.id] = n
        out.append(q)
    return out


def load_questions(path: Path | str) -> list[Question]:
    """Load and validate a question file.

    Raises:
        FileNotFoundError: No such file.
        QuestionFormatError: The file is not in the documented format.
    """
    path = Path(path)
    with path.open(encoding="utf-8") as fh:
        questions = parse_questions(fh, str(path))
    if not questions:
        raise QuestionFormatError(f"{path}: no questions")
    return questions


def write_questions(questions: Iterable[Question], path: Path | str) -> int:
    """Write questions as JSONL in the full documented form; return how many."""
    n = 0
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for q in questions:
            fh.write(json.dumps(q.to_json(), ensure_ascii=False) + "\n")
            n += 1
    return n
