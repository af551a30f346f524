"""Turn one file into chunks or a failure record; runs in a worker process during ingest.

Every chunk carries its document's metadata: identity and access, plus what the document is
about — ``title``, ``company``, ``period``, ``doc_type``, ``period_end``, ``years``,
``company_aliases`` — inferred by :func:`loaders.metadata.infer_metadata` from the file
name, the parser's title, the first heading and the opening text, unless the user supplied
them. User-supplied values, weakest first (a later source overrides an earlier one key by
key, and every user value overrides inference):

1. the ingest root's ``.citerag-metadata.json``: glob pattern -> object, the same glob
   semantics as ``.citerag-access.json`` (the last matching pattern wins, key by key);
2. Markdown YAML front matter;
3. a sidecar ``<file name>.meta.json`` next to the file.

Each is a JSON object (or mapping) with any of ``title``, ``company``, ``period``,
``doc_type`` and ``company_aliases``; ``null`` clears an inferred value. A sidecar that is not
such an object fails its document with a reason naming the sidecar.

The title in the embedded ``title > section`` header is the document's usable title: a user
title, else the loader's title when :func:`~loaders.metadata.is_meaningful_title` (kept
verbatim, so embedded text does not change), else the inferred one (the readable file name,
or company, type and period) instead of an EDGAR accession number or a hash.

**E-mail attachments.** A :class:`SourceFile` with ``attached`` set is one attachment of a
``.eml`` file (see :mod:`loaders.attachments`; ingest collects them, see
:mod:`citerag.index.attached`): its ``path`` is the message file and its bytes are read from
it by position, so its recorded ``sha256`` is the message file's. It is loaded by the loader
for the attachment's name, has no sidecar or folder metadata of its own, takes its title
from its name and content, and its chunks carry ``parent_doc_id``, ``parent_source`` and
``attachment_name``. A message's chunks (the file's or an attached message's) carry the
``attachments`` that are documents and their ``attachment_doc_ids``.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from loaders.access import matching_values, read_rules_file
from loaders.attachments import attachment_tree, read_attachment
from loaders.base import DocumentLoadError, ParsedDocument
from loaders.blocks import block_counts
from loaders.chunking import (
    Chunk,
    ChunkSettings,
    chunk_document,
    chunk_segment,
    doc_id_for,
    make_header,
    make_splitter,
)
from loaders.instructions import instruction_spans
from loaders.markdown import front_matter_text
from loaders.metadata import DocumentMetadata, infer_metadata, is_meaningful_title
from loaders.ocr import ocr_summary
from loaders.registry import load_attachment, load_file, read_document_bytes
from loaders.text import STREAMABLE_SUFFIXES, iter_text, scan_text, text_document

#: Folder-level metadata rules at an ingest root (glob pattern -> metadata object).
METADATA_FILE = ".citerag-metadata.json"
#: A sidecar is named after its document plus this suffix (``report.pdf.meta.json``).
SIDECAR_SUFFIX = ".meta.json"
#: Keys a user may supply.
USER_FIELDS = ("title", "company", "period", "doc_type", "company_aliases")
#: Identifies how documents are read — the loaders' text and structure, the document
#: metadata and the header title; part of the ingest settings fingerprint, so changing it
#: re-processes every document once, and an index built by an older release reads its
#: unchanged files again with the new loaders on its next ingest (``/2``: e-mail attachments
#: became documents of their own, linked to their message; ``/3``: the loaders of 2026-12-07
#: — slide charts, encodings, non-UTF-8 file names, Word content controls, running lines,
#: photo orientation, sheet title rows, Markdown tables' titles and fenced code, short signs
#: read by OCR, e-mails without a boundary; ``/4``: HTML page headers and footers, PDF
#: tables as word processors set them, PDF headings in a larger type; ``/5``: a workbook
#: without a title of its own is named by its first sheet's title row, an e-mail's plain-text
#: body has sections, PDF tables' header rows set in bold, header cells wrapped onto lines
#: and a grid's rules as cell boundaries; ``/6``: PDF tables' currency signs set apart from
#: their figures, bold first rows and rows of words under a header, rows of words in a
#: statement, a grid drawn as one path; OCR binarises each page with a local (Sauvola)
#: threshold and keeps a paragraph Tesseract split where its lines wrap in one paragraph; a
#: line of capitalised words, a letterhead's address, is not prose; PDF pages in two text
#: columns read column by column, a numbered heading at a page's foot; leader lines, Word
#: clause headings in plain paragraphs, HTML ``<details>`` and ``<dt>``/``<dd>`` units, sheet
#: notes, titles and dates as cells show them; e-mail quoted replies and signatures as blocks,
#: list items and abbreviations before numbers in the sentence rule, Markdown section paths
#: without markup or a repeated title). Bump it with any change to what a loader reads.
METADATA_VERSION = "citerag.document-metadata/6"
#: Characters of a non-paginated document's opening that inference reads.
OPENING_CHARS = 3000
#: Characters of a PDF's first two pages that inference reads (an SEC cover page).
OPENING_PDF_CHARS = 6000
#: Default per-document limit on extracted text (MiB of characters, ``2**20`` each).
DEFAULT_MAX_DOCUMENT_MB = 50.0
#: Plain-text files at least this large are streamed (:func:`stream_text_file`).
STREAM_MIN_BYTES = 4 * 1024 * 1024
#: Characters of a streamed text file chunked at a time (one segment, cut at a paragraph).
STREAM_SEGMENT_CHARS = 64 * 1024
MIB = 1024 * 1024
#: The link fields of an attachment that its chunks (and so its citations) carry.
CHUNK_LINK_FIELDS = ("parent_doc_id", "parent_source", "attachment_name")


@dataclass(frozen=True)
class AttachedTo:
    """Where an attachment document's bytes are: inside a message file.

    Attributes:
        root_source: The source key of the ``.eml`` file that holds it.
        parent_source: The source key of the message it is attached to (the file's, or an
            attached message's).
        positions: Its positions in the file (see :mod:`loaders.attachments`).
        name: Its sanitised file name (picks its loader).
    """

    root_source: str
    parent_source: str
    positions: tuple[int, ...]
    name: str

    def __post_init__(self) -> None:
        if not self.positions or any(n < 1 for n in self.positions):
            raise ValueError(f"positions must be 1-based numbers, got {self.positions!r}")
        if not self.name:
            raise ValueError("an attachment needs a name")

    def record(self) -> dict[str, Any]:
        """The ledger fields that link it to its message (and find its bytes again)."""
        return {
            "parent_doc_id": doc_id_for(self.parent_source),
            "parent_source": self.parent_source,
            "attachment_name": self.name,
            "root_source": self.root_source,
            "attachment_positions": list(self.positions),
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> AttachedTo | None:
        """Read :meth:`record`'s fields back (``None`` for a document that is a file)."""
        positions = record.get("attachment_positions")
        if not positions:
            return None
        return cls(
            str(record["root_source"]),
            str(record["parent_source"]),
            tuple(int(n) for n in positions),
            str(record["attachment_name"]),
        )


def printable_key(key: str) -> str:
    """A source key that is valid UTF-8, whatever bytes the file's name is made of.

    A name that is not valid UTF-8 (Latin-1 names unpacked from an old Windows zip) reaches
    Python with its undecodable bytes as lone surrogates, which no UTF-8 writer accepts (the
    document id, the manifest, PostgreSQL). Such bytes are written as ``\\xNN`` escapes
    (``caf\\xe9 menu.txt``): the key stays unique and readable, and the file is still read
    from its real path. A valid name is returned unchanged.

    Args:
        key: The source key as built from the path.
    """
    try:
        key.encode("utf-8")
    except UnicodeEncodeError:
        return key.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return key


@dataclass
class SourceFile:
    """A file to ingest and how it is known in the index.

    Attributes:
        path: Where the file is on disk.
        source: Stable source key (POSIX path relative to its ingest root, prefixed by the
            root's name); the document id is derived from it.
        access: Access label.
        doc_name: Display name (defaults to the file name).
        metadata: User-supplied document metadata from the ingest root's
            ``.citerag-metadata.json`` (or given by the caller); see :data:`USER_FIELDS`.
        attached: Set for an attachment of the message file ``path`` (its source key is
            then the message's plus the attachment's address).
    """

    path: Path
    source: str
    access: str = "public"
    doc_name: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)
    attached: AttachedTo | None = None

    @property
    def doc_id(self) -> str:
        """Stable document id."""
        return doc_id_for(self.source)

    @property
    def shown_path(self) -> Path:
        """``path`` with a file name that is valid UTF-8 (:func:`printable_key`), for what
        names the file without reading it (a streamed file's stand-in document)."""
        name = printable_key(self.path.name)
        return self.path if name == self.path.name else self.path.with_name(name)

    @property
    def file_name(self) -> str:
        """The document's file name: the attachment's, else the file's."""
        return self.attached.name if self.attached is not None else printable_key(self.path.name)

    def link_record(self) -> dict[str, Any]:
        """Ledger fields linking an attachment to its message (``{}`` for a file)."""
        return self.attached.record() if self.attached is not None else {}


@dataclass
class ProcessedFile:
    """Outcome of loading and chunking one file.

    Attributes:
        source: The input description.
        sha256: Hash of the file's bytes ('' when unreadable).
        status: ``ok`` or ``failed``.
        reason: Why it failed.
        kind: Failure category (see :class:`~loaders.base.DocumentLoadError`).
        chunks: The chunks (empty on failure).
        info: Parsing review figures for the manifest (pages, empty pages, parser, title).
        parse_seconds: Wall time spent parsing and chunking (for a streamed file: the check
            pass only; chunking happens while ``batches`` is consumed).
        chunk_seconds: The part of ``parse_seconds`` spent chunking.
        batches: For a streamed file (:func:`stream_text_file`), its chunks one segment at a
            time, produced as they are consumed (``chunks`` is then empty). Iterating may raise
            ``OSError`` or :class:`~loaders.base.DocumentLoadError` if the file changes or
            becomes unreadable meanwhile. Never set on an outcome from a worker process.
    """

    source: SourceFile
    sha256: str
    status: str
    reason: str = ""
    kind: str = ""
    chunks: list[Chunk] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)
    parse_seconds: float = 0.0
    chunk_seconds: float = 0.0
    batches: Iterator[list[Chunk]] | None = field(default=None, repr=False, compare=False)


def sha256_file(path: Path) -> str:
    """Return the hex sha256 of a file's bytes."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def clean_user_metadata(
    raw: Any, where: str, *, strict: bool = True
) -> tuple[dict[str, Any], list[str]]:
    """Check user-supplied document metadata and bring it to the form inference takes.

    Args:
        raw: A sidecar's or folder rule's JSON value, or a front matter mapping.
        where: What it is, for messages (``report.pdf.meta.json``).
        strict: Sidecars and ``.citerag-metadata.json``: unknown keys and bad values raise.
            Front matter (``strict=False``): other keys are ignored, blank values skipped
            and bad values reported as warnings.

    Returns:
        ``(values, warnings)``: ``title``/``company``/``period``/``doc_type`` as strings
        (numbers accepted: ``2022`` -> ``"2022"``), ``company_aliases`` as a list of strings,
        ``None`` for an explicit ``null`` (strict only: it clears the inferred value).

    Raises:
        ValueError: In strict mode, for a value that is not an object, an unknown key or a
            value of the wrong type.
    """
    if not isinstance(raw, Mapping):
        raise ValueError(f"{where}: expected a JSON object with any of {', '.join(USER_FIELDS)}")
    values: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in raw.items():
        if key not in USER_FIELDS:
            if strict:
                problems.append(f"unknown key {key!r} (allowed: {', '.join(USER_FIELDS)})")
            continue
        if value is None:
            if strict:
                values[key] = None
            continue
        if key == "company_aliases":
            items = [value] if not isinstance(value, list) else value
            texts = [front_matter_text(v) for v in items]
            if all(texts):
                values[key] = texts
                continue
            problems.append(f"{key!r} must be a list of names")
        else:
            text = front_matter_text(value)
            if text:
                values[key] = text
                continue
            if strict or str(value).strip():
                problems.append(f"{key!r} must be a non-empty string")
    if problems and strict:
        raise ValueError(f"{where}: " + "; ".join(problems))
    return values, [f"{where}: {p}" for p in problems]


@dataclass(frozen=True)
class MetadataMap:
    """An ingest root's ``.citerag-metadata.json``: glob pattern -> document metadata.

    Patterns match like those of ``.citerag-access.json`` (POSIX paths relative to the root,
    ``*`` also matches ``/``); every matching rule applies in file order, so for each key the
    last matching rule wins.

    Attributes:
        rules: ``(pattern, values)`` pairs in file order (values cleaned).
    """

    rules: tuple[tuple[str, dict[str, Any]], ...] = ()

    @classmethod
    def load(cls, root: Path) -> MetadataMap:
        """Read ``root/.citerag-metadata.json`` if present.

        Args:
            root: An ingest root.

        Returns:
            The rules (none when the file is absent or ``root`` is a file).

        Raises:
            ValueError: If the file is not valid JSON, not an object of objects, or a rule
                has an unknown key or a bad value (the message names the file and pattern).
        """
        raw = read_rules_file(root, METADATA_FILE)
        if raw is None:
            return cls()
        rules = []
        for pattern, values in raw.items():
            where = f"{root / METADATA_FILE} (pattern {pattern!r})"
            rules.append((pattern, clean_user_metadata(values, where)[0]))
        return cls(tuple(rules))

    def values_for(self, relative: str) -> dict[str, Any]:
        """The metadata for a POSIX path relative to the root (``{}`` when no rule matches)."""
        out: dict[str, Any] = {}
        for values in matching_values(self.rules, relative):
            out.update(values)
        return out


def sidecar_path(path: Path) -> Path:
    """Where the metadata sidecar of a document would be (``report.pdf.meta.json``)."""
    return path.with_name(path.name + SIDECAR_SUFFIX)


def is_sidecar(path: Path) -> bool:
    """Whether a file is a metadata sidecar (never ingested as a document)."""
    return path.name.endswith(SIDECAR_SUFFIX)


def _read_sidecar_bytes(path: Path) -> bytes | None:
    """The bytes of a document's sidecar, ``None`` when it has none.

    Raises:
        OSError: If the sidecar exists but cannot be read.
    """
    sidecar = sidecar_path(path)
    return sidecar.read_bytes() if sidecar.is_file() else None


def metadata_digest(sidecar: bytes | None, folder: Mapping[str, Any]) -> str:
    """Fingerprint of a document's user-supplied metadata outside its own bytes.

    Args:
        sidecar: The sidecar's bytes (``None``: no sidecar).
        folder: The values ``.citerag-metadata.json`` gives the document.

    Returns:
        ``''`` when there is neither, else a hex sha256 over both.
    """
    if sidecar is None and not folder:
        return ""
    h = hashlib.sha256(json.dumps(folder, sort_keys=True).encode("utf-8"))
    h.update(b"\0no sidecar" if sidecar is None else b"\0sidecar\0" + sidecar)
    return h.hexdigest()


def user_metadata_digest(src: SourceFile) -> str:
    """:func:`metadata_digest` of a source as it is on disk now (for the ingest plan).

    Raises:
        OSError: If its sidecar exists but cannot be read.
    """
    if src.attached is not None:  # the message's sidecar is the message's
        return metadata_digest(None, src.metadata)
    return metadata_digest(_read_sidecar_bytes(src.path), src.metadata)


def parse_sidecar(data: bytes, name: str) -> dict[str, Any]:
    """Parse and check a sidecar's bytes.

    Args:
        data: The sidecar's bytes.
        name: Its file name, for the reason.

    Returns:
        The cleaned values (see :func:`clean_user_metadata`).

    Raises:
        DocumentLoadError: ``bad_metadata``, naming the sidecar, if it is not UTF-8 JSON
            or not an object of the allowed keys and value types.
    """
    where = f"metadata sidecar {name}"
    try:
        raw = json.loads(data.decode("utf-8-sig"))
        return clean_user_metadata(raw, where)[0]
    except UnicodeDecodeError as exc:
        raise DocumentLoadError(f"{where}: not UTF-8 text ({exc})", "bad_metadata") from exc
    except json.JSONDecodeError as exc:
        raise DocumentLoadError(f"{where}: not valid JSON ({exc})", "bad_metadata") from exc
    except ValueError as exc:
        raise DocumentLoadError(str(exc), "bad_metadata") from exc


def opening_text(doc: ParsedDocument) -> str:
    """The text metadata inference reads: where covers and headlines are.

    Args:
        doc: A parsed document.

    Returns:
        A PDF's first two pages (up to :data:`OPENING_PDF_CHARS` characters, running
        headers included), else the first :data:`OPENING_CHARS` characters after any front
        matter.
    """
    if doc.pages:
        paged = [seg for seg in doc.segments if seg.page is not None]
        first_two = [seg for seg in paged if seg.page is not None and seg.page <= 2] or paged[:1]
        end = first_two[-1].end if first_two else len(doc.text)
        return doc.text[:end][:OPENING_PDF_CHARS]
    return doc.text[doc.body_start : doc.body_start + OPENING_CHARS]


def _header_title(meta: DocumentMetadata, doc: ParsedDocument) -> DocumentMetadata:
    """Keep the loader's title where it is good enough, so embedded text does not change.

    A user's title wins. Otherwise the loader's title stays, verbatim, when it is meaningful
    (the inferred title would only differ in case or spacing), and also when the inferred
    title is merely built from a type and period without a company (an abstract whose
    wording looks like an earnings release would otherwise be titled "earnings").

    Args:
        meta: The inferred metadata.
        doc: The parsed document.

    Returns:
        ``meta``, or ``meta`` with the loader's title and its source.
    """
    if meta.title_source == "user":
        return meta
    built_without_company = meta.title_source == "inferred" and not meta.company
    if is_meaningful_title(doc.title) or built_without_company:
        return replace(meta, title=doc.title, title_source=doc.title_source)
    return meta


def infer_document(
    src: SourceFile, doc: ParsedDocument, sidecar: Mapping[str, Any]
) -> tuple[DocumentMetadata, list[str]]:
    """Work out a document's metadata: user-supplied values first, then inference.

    Args:
        src: The source file (``metadata``: values from ``.citerag-metadata.json``).
        doc: Its parsed document (title and its source, first heading, front matter).
        sidecar: The cleaned values of its sidecar (``{}`` without one).

    Returns:
        The metadata, with ``title_source`` and ``attributes_source`` naming where each
        user value came from (``folder_metadata``, ``front_matter`` or ``sidecar``) instead
        of ``user``; and warnings about front matter values that were ignored.
    """
    front, warnings = clean_user_metadata(
        doc.front_matter, f"{src.file_name} front matter", strict=False
    )
    user: dict[str, Any] = {}
    origin: dict[str, str] = {}
    for name, layer in (
        ("folder_metadata", src.metadata),
        ("front_matter", front),
        ("sidecar", sidecar),
    ):
        user.update(layer)
        origin.update(dict.fromkeys(layer, name))
    from_parser = doc.title_source in ("pdf_title", "html_title", "office_title", "email_subject")
    meta = infer_metadata(
        src.file_name,
        doc.title if from_parser else None,
        opening_text(doc),
        user=user,
        title_source=doc.title_source,
        first_heading=doc.first_heading,
    )
    meta = _header_title(meta, doc)
    sources = {k: origin.get(k, v) if v == "user" else v for k, v in meta.attributes_source.items()}
    title_source = origin.get("title", "user") if meta.title_source == "user" else meta.title_source
    return replace(meta, title_source=title_source, attributes_source=sources), warnings


def document_metadata(
    src: SourceFile, parsed: ParsedDocument, sha256: str, meta: DocumentMetadata
) -> dict[str, Any]:
    """The document-level metadata every chunk of ``src`` carries.

    Args:
        src: The source file.
        parsed: Its loaded document (``file_type``).
        sha256: Hex digest of the file's bytes.
        meta: Its document metadata; its ``title`` is also the embedded header's title.

    Returns:
        Identity and access (``doc_id``, ``doc_name``, ``source``, ``file_type``,
        ``sha256``, ``access``) plus :meth:`DocumentMetadata.to_metadata` without ``None``
        values (scalars and lists of scalars only, so dict filters can test them).
    """
    about = {k: v for k, v in meta.to_metadata().items() if v is not None}
    return {
        "doc_id": src.doc_id,
        "doc_name": src.doc_name or src.file_name,
        "source": src.source,
        **about,
        **parsed.properties,
        "file_type": parsed.file_type,
        "sha256": sha256,
        "access": src.access,
        **{k: v for k, v in src.link_record().items() if k in CHUNK_LINK_FIELDS},
    }


def _ledger_info(
    parsed: ParsedDocument, meta: DocumentMetadata, digest: str, warnings: list[str]
) -> dict[str, Any]:
    """The manifest's per-document figures and metadata (with each attribute's source)."""
    return {
        "title": meta.title,
        "title_source": meta.title_source,
        "parser_title": parsed.title,
        "company": meta.company,
        "period": meta.period,
        "doc_type": meta.doc_type,
        "period_end": meta.period_end,
        "years": list(meta.years),
        "company_aliases": list(meta.company_aliases),
        "attributes_source": dict(meta.attributes_source),
        "metadata_sha256": digest,
        "file_type": parsed.file_type,
        "parser": parsed.parser,
        "pages": parsed.pages,
        "empty_pages": parsed.empty_pages,
        "characters": len(parsed.text),
        "hidden_chars": parsed.hidden_chars,
        "instruction_sentences": instruction_count(parsed),
        "blocks": block_counts(parsed.blocks),
        "tables": len(parsed.tables),
        **(ocr_summary(parsed.ocr_pages) if parsed.ocr_pages else {}),
        "warnings": parsed.warnings + warnings,
    }


def instruction_count(parsed: ParsedDocument) -> int:
    """How many sentences of a document's indexed text are shaped as instructions.

    They stay indexed (a reader sees them), but the parsing review lists them: a page that
    tells "the assistant" what to answer is planted text to look at.
    """
    return sum(len(instruction_spans(parsed.text[seg.start : seg.end])) for seg in parsed.segments)


def too_large_reason(name: str, characters: int, max_chars: int) -> str:
    """The failure reason of a document whose text is over the per-document limit."""
    return (
        f"{name}: {characters / MIB:.1f} MiB of text ({characters} characters), over the "
        f"per-document limit of {max_chars / MIB:g} MiB of text (ingest max_document_mb)"
    )


def is_streamed(path: Path, min_bytes: int = STREAM_MIN_BYTES) -> bool:
    """Whether ingest streams this file (:func:`stream_text_file`) instead of loading it whole.

    Args:
        path: The file.
        min_bytes: Plain-text files at least this large are streamed.

    Returns:
        ``True`` for an existing plain-text file (``.txt``, ``.text``, ``.rst``) of at least
        ``min_bytes`` bytes.
    """
    if path.suffix.lower() not in STREAMABLE_SUFFIXES:
        return False
    try:
        return path.stat().st_size >= min_bytes
    except OSError:
        return False


def _read_sidecar(src: SourceFile) -> tuple[bytes | None, dict[str, Any]]:
    """A source's sidecar bytes and cleaned values.

    Raises:
        DocumentLoadError: ``bad_metadata`` for an unreadable or invalid sidecar.
    """
    if src.attached is not None:  # an attachment has no sidecar of its own
        return None, {}
    try:
        sidecar_bytes = _read_sidecar_bytes(src.path)
    except OSError as exc:
        name = sidecar_path(src.path).name
        raise DocumentLoadError(
            f"metadata sidecar {name}: cannot read it ({exc})", "bad_metadata"
        ) from exc
    if sidecar_bytes is None:
        return None, {}
    return sidecar_bytes, parse_sidecar(sidecar_bytes, sidecar_path(src.path).name)


def _segments(texts: Iterator[str], size: int) -> Iterator[tuple[int, str]]:
    """Cut a stream of text into pieces of about ``size`` characters at paragraph breaks.

    Yields:
        ``(offset, text)`` pairs that together are the whole text, in order.
    """
    buf, base = "", 0
    for text in texts:
        buf += text
        while len(buf) >= 2 * size:
            cut = -1
            for sep in ("\n\n", "\n", " "):
                cut = buf.rfind(sep, size // 2, size)
                if cut >= 0:
                    cut += len(sep)
                    break
            if cut < 0:
                cut = size
            yield base, buf[:cut]
            base += cut
            buf = buf[cut:]
    if buf:
        yield base, buf


def _stream_chunks(
    path: Path,
    encoding: str,
    settings: ChunkSettings,
    doc_meta: dict[str, Any],
    header: str,
    segment_chars: int,
) -> Iterator[list[Chunk]]:
    """Chunk a text file segment by segment (see :func:`stream_text_file`)."""
    splitter = make_splitter(settings)
    count = 0
    for offset, body in _segments(iter_text(path, encoding), segment_chars):
        chunks = chunk_segment(
            body,
            offset,
            header=header,
            page=None,
            section="",
            settings=settings,
            doc_meta=doc_meta,
            first_index=count,
            splitter=splitter,
        )
        count += len(chunks)
        if chunks:
            yield chunks


def stream_text_file(
    src: SourceFile,
    settings: ChunkSettings,
    *,
    max_chars: int | None = None,
    segment_chars: int = STREAM_SEGMENT_CHARS,
) -> ProcessedFile:
    """Check a plain-text file and prepare to chunk it as a stream, in bounded memory.

    One pass hashes the bytes and checks them as :func:`~loaders.decode.decode_text` would
    (:func:`~loaders.text.scan_text`); metadata is inferred from the opening text. The chunks
    then come from ``batches``: the decoded text is cut into segments of about
    ``segment_chars`` characters at paragraph (else line, else word) breaks and each segment
    is chunked like a section, so no chunk crosses a segment boundary. Offsets are into the
    whole decoded text, so ``canonical[start:end] == content`` holds as for a loaded file.

    Args:
        src: A plain-text file (see :func:`is_streamed`).
        settings: Chunking settings.
        max_chars: Largest accepted text (characters); larger files fail ``too_large``.
        segment_chars: Characters chunked at a time.

    Returns:
        ``failed`` with a reason, or ``ok`` with ``batches`` set and ``info`` (its
        ``characters`` is the whole text's; ``streamed`` is ``True``).
    """
    t0 = time.perf_counter()
    name = src.file_name
    try:
        sidecar_bytes, sidecar = _read_sidecar(src)
        scan = scan_text(src.path)
    except DocumentLoadError as exc:
        return ProcessedFile(src, "", "failed", printable_key(exc.reason), exc.kind)
    except OSError as exc:
        return ProcessedFile(src, "", "failed", f"cannot read file: {exc}", "unreadable")
    took = time.perf_counter() - t0
    if max_chars is not None and scan.characters > max_chars:
        reason = too_large_reason(name, scan.characters, max_chars)
        return ProcessedFile(src, scan.sha256, "failed", reason, "too_large", parse_seconds=took)
    opening = ""
    for text in iter_text(src.path, scan.encoding):
        opening += text
        if len(opening) >= OPENING_CHARS:
            break
    opening = opening[:OPENING_CHARS]
    stand_in = text_document(opening, src.shown_path, "citerag.text/1 streamed")
    meta, warnings = infer_document(src, stand_in, sidecar)
    doc_meta = document_metadata(src, stand_in, scan.sha256, meta)
    info = _ledger_info(stand_in, meta, metadata_digest(sidecar_bytes, src.metadata), warnings)
    info.update(characters=scan.characters, streamed=True)
    del info["instruction_sentences"]  # counted on whole documents only, not while streaming
    header = make_header(str(doc_meta.get("title") or stand_in.title), "")
    batches = _stream_chunks(src.path, scan.encoding, settings, doc_meta, header, segment_chars)
    return ProcessedFile(
        src, scan.sha256, "ok", info=info, parse_seconds=time.perf_counter() - t0, batches=batches
    )


def _printable(doc: ParsedDocument) -> ParsedDocument:
    """A parsed document whose title and warnings are valid UTF-8: a loader names the file
    by its path (:func:`printable_key`), which is read from its real, possibly undecodable,
    name."""
    doc.title = printable_key(doc.title)
    doc.warnings = [printable_key(w) for w in doc.warnings]
    return doc


def load_source(src: SourceFile, data: bytes) -> ParsedDocument:
    """Load a source from its file's bytes: the file itself, or its attachment.

    Args:
        src: The source.
        data: The bytes of ``src.path`` (for an attachment: the message file's).

    Returns:
        The parsed document.

    Raises:
        DocumentLoadError: As :func:`~loaders.registry.load_file`; ``corrupt`` when the
            message no longer holds the attachment.
    """
    if src.attached is None:
        return _printable(load_file(src.path, data))
    name, member = read_attachment(data, src.attached.positions)
    return load_attachment(name, member)


def message_links(
    src: SourceFile, parsed: ParsedDocument, data: bytes
) -> tuple[dict[str, Any], list[str]]:
    """The attachment documents of a message document, for its metadata.

    Args:
        src: The source (a ``.eml`` file, or an attached message).
        parsed: Its parsed document.
        data: The bytes of ``src.path``.

    Returns:
        ``attachments`` (names) and ``attachment_doc_ids`` of its direct attachments that
        are documents (nothing when it has none or is not a message), and, for a file, the
        warnings of its whole attachment tree (caps, types not indexed).
    """
    if parsed.file_type != "eml":
        return {}, []
    try:
        tree = attachment_tree(data)
    except Exception as exc:  # the email package's errors on malformed structure
        return {}, [f"{src.file_name}: attachments not listed ({type(exc).__name__}: {exc})"]
    root = src.attached.root_source if src.attached is not None else src.source
    kids = tree.children(src.attached.positions if src.attached is not None else ())
    links: dict[str, Any] = {}
    if kids:
        links = {
            "attachments": [a.name for a in kids],
            "attachment_doc_ids": [doc_id_for(root + a.address) for a in kids],
        }
    return links, (tree.warnings if src.attached is None else [])


def process_file(
    src: SourceFile, settings: ChunkSettings, max_chars: int | None = None
) -> ProcessedFile:
    """Load and chunk one file, never raising for bad input.

    Args:
        src: The file and its identity.
        settings: Chunking settings.
        max_chars: Largest accepted extracted text (characters); a document with more
            fails ``too_large`` with a reason naming the limit (``None``: no limit).

    Returns:
        A :class:`ProcessedFile` with status ``ok`` and chunks, or ``failed`` and a reason
        (also for a bad metadata sidecar). An attachment's ``sha256`` is its message
        file's.
    """
    t0 = time.perf_counter()
    try:
        data = read_document_bytes(src.path)
    except OSError as exc:
        return ProcessedFile(src, "", "failed", f"cannot read file: {exc}", "unreadable")
    except DocumentLoadError as exc:  # refused by its size, unread (hashed in blocks)
        try:
            digest = sha256_file(src.path)
        except OSError:
            digest = ""
        return ProcessedFile(src, digest, "failed", printable_key(exc.reason), exc.kind)
    digest = hashlib.sha256(data).hexdigest()
    try:
        sidecar_bytes, sidecar = _read_sidecar(src)
        parsed = load_source(src, data)
        links, link_warnings = message_links(src, parsed, data)
        del data
        if max_chars is not None and len(parsed.text) > max_chars:
            raise DocumentLoadError(
                too_large_reason(src.file_name, len(parsed.text), max_chars), "too_large"
            )
        meta, warnings = infer_document(src, parsed, sidecar)
        t_chunk = time.perf_counter()
        doc_meta = {**document_metadata(src, parsed, digest, meta), **links}
        chunks = chunk_document(parsed, settings, doc_meta)
        t_chunk = time.perf_counter() - t_chunk
        if not chunks:
            raise DocumentLoadError(f"{src.file_name}: no text to index", kind="empty")
    except DocumentLoadError as exc:
        return ProcessedFile(
            src,
            digest,
            "failed",
            printable_key(exc.reason),
            exc.kind,
            parse_seconds=time.perf_counter() - t0,
        )
    except Exception as exc:  # a loader bug must fail one document, not the run
        return ProcessedFile(
            src,
            digest,
            "failed",
            f"{type(exc).__name__}: {exc}",
            "error",
            parse_seconds=time.perf_counter() - t0,
        )
    info = _ledger_info(
        parsed, meta, metadata_digest(sidecar_bytes, src.metadata), warnings + link_warnings
    )
    info.update(links)
    return ProcessedFile(
        src,
        digest,
        "ok",
        chunks=chunks,
        info=info,
        parse_seconds=time.perf_counter() - t0,
        chunk_seconds=t_chunk,
    )
