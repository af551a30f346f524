"""Document metadata end to end: synthetic filings of two companies and two years (plus one
file whose sidecar overrides the company) ingested for real; chunk metadata, the embedded
header, the manifest ledger, ``citerag inspect`` and hard company/period filters inside
FAISS and BM25 through :class:`chains.retrieval.HybridRetriever`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from pypdf import PdfWriter

from chains.retrieval import HybridRetriever
from citerag import cli
from citerag.index.ingest import ingest
from citerag.stores.loaded import load_index, read_manifest
from loaders.pipeline import METADATA_FILE, sidecar_path
from tests.integration.test_server import make_pdf
from tests.support.filings import cover_page, results_page
from tests.support.ingest_checks import assert_offsets, assert_parts_in_step, chunks_by_source

pytestmark = pytest.mark.integration

PREFIX = "filings/"
ACCESSION = "0000950170-22-000123"
QUERY = "What was the total revenue for the fiscal year?"


def _set_title(path: Path, title: str) -> Path:
    writer = PdfWriter(clone_from=path)
    writer.add_metadata({"/Title": title})
    writer.write(path)
    return path


@pytest.fixture(scope="module")
def filings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``filings/``: Globex FY2021 (an accession number as PDF title), Initech FY2022, and a
    letter whose cover reads Initech but whose sidecar says Umbrella; folder rules."""
    folder = tmp_path_factory.mktemp("src") / "filings"
    folder.mkdir()
    globex = make_pdf(
        folder / "GLOBEX_2021_10K.pdf",
        [cover_page("Globex", 2021), results_page("Globex", 2021, 120)],
    )
    _set_title(globex, ACCESSION)
    make_pdf(
        folder / "initech_2022_10K.pdf",
        [cover_page("Initech", 2022), results_page("Initech", 2022, 75)],
    )
    letter = folder / "shareholder_letter.txt"
    letter.write_text("\n".join(cover_page("Initech", 2022) + results_page("Umbrella", 2022, 40)))
    sidecar_path(letter).write_text(json.dumps({"company": "Umbrella", "doc_type": "letter"}))
    (folder / METADATA_FILE).write_text(
        json.dumps({"*.txt": {"company": "Overridden By Sidecar", "company_aliases": ["UMB"]}})
    )
    return folder


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, filings: Path, embedding_model):
    index_dir = tmp_path_factory.mktemp("metadata") / "index"
    report = ingest([filings], index_dir, embedding_model, progress=False)
    return index_dir, report, load_index(index_dir, embedding_model)


EXPECTED = {
    "GLOBEX_2021_10K.pdf": {
        "title": "GLOBEX 2021 10K",
        "title_source": "file_name",
        "company": "Globex",
        "period": "FY2021",
        "doc_type": "10-K",
        "years": [2021],
    },
    "initech_2022_10K.pdf": {
        "title": "initech 2022 10K",
        "title_source": "file_name",
        "company": "Initech",
        "period": "FY2022",
        "doc_type": "10-K",
        "years": [2022],
    },
    "shareholder_letter.txt": {
        "title": "shareholder letter",
        "title_source": "file_name",
        "company": "Umbrella",
        "period": "FY2022",
        "doc_type": "letter",
        "years": [2022],
    },
}


def test_only_documents_are_ingested(built) -> None:
    _, report, loaded = built
    assert not report.failed, report.failed
    assert sorted(report.indexed) == sorted(PREFIX + n for n in EXPECTED)
    assert sorted(chunks_by_source(loaded.store)) == sorted(PREFIX + n for n in EXPECTED)
    assert_parts_in_step(loaded.store)


def test_every_chunk_carries_its_document_metadata(built, filings: Path) -> None:
    _, _, loaded = built
    for source, items in chunks_by_source(loaded.store).items():
        want = EXPECTED[source.removeprefix(PREFIX)]
        for key, meta in items:
            for field in ("title", "company", "period", "doc_type", "years"):
                assert meta[field] == want[field], (source, field)
            assert None not in meta.values()
            text = loaded.store.get_by_ids([key])[0].page_content
            assert text.startswith(want["title"] + "\n") or text.startswith(want["title"] + " > ")
            assert ACCESSION not in text
    letter = chunks_by_source(loaded.store)[PREFIX + "shareholder_letter.txt"]
    # the user's alias first; what the cover printed follows (infer_metadata keeps every
    # other company name found as an alias)
    assert all(m["company_aliases"][0] == "UMB" for _, m in letter), letter[0][1]
    paths = {PREFIX + n: filings / n for n in EXPECTED}
    assert assert_offsets(loaded.store, paths) == len(loaded.store)


def test_manifest_ledger_records_metadata_and_sources(built) -> None:
    index_dir, _, _ = built
    docs = {d["source"]: d for d in read_manifest(index_dir).documents.values()}
    for name, want in EXPECTED.items():
        rec = docs[PREFIX + name]
        assert {k: rec[k] for k in want} == want, name
    globex = docs[PREFIX + "GLOBEX_2021_10K.pdf"]
    assert globex["parser_title"] == ACCESSION
    assert globex["attributes_source"]["company"] == "file_name"
    assert globex["period_end"] == "2021-12-31"
    letter = docs[PREFIX + "shareholder_letter.txt"]
    assert letter["attributes_source"] == {
        "company": "sidecar",
        "doc_type": "sidecar",
        "company_aliases": "folder_metadata",
        "period": "cover_page",
        "period_end": "cover_page",
    }
    assert letter["folder_metadata"] == {
        "company": "Overridden By Sidecar",
        "company_aliases": ["UMB"],
    }
    assert (
        letter["metadata_sha256"] and not docs[PREFIX + "initech_2022_10K.pdf"]["metadata_sha256"]
    )
    public = {r["source"]: r for r in read_manifest(index_dir).public_records()}
    assert {k: public[PREFIX + "GLOBEX_2021_10K.pdf"][k] for k in ("company", "period")} == {
        "company": "Globex",
        "period": "FY2021",
    }
    assert public[PREFIX + "shareholder_letter.txt"]["doc_type"] == "letter"


def test_inspect_shows_metadata(built, capsys: pytest.CaptureFixture[str]) -> None:
    index_dir, _, _ = built
    assert cli.main(["inspect", "--index", str(index_dir), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    docs = {d["source"]: d for d in data["documents"].values()}
    for name, want in EXPECTED.items():
        assert {k: docs[PREFIX + name][k] for k in want} == want
    assert cli.main(["inspect", "--index", str(index_dir)]) == 0
    out = capsys.readouterr().out
    section = out.split("document metadata", 1)[1]
    rows = {line.split()[0]: line.split() for line in section.splitlines()[2:] if line.strip()}
    assert rows[PREFIX + "GLOBEX_2021_10K.pdf"][1:4] == ["Globex", "FY2021", "10-K"]
    assert "GLOBEX 2021 10K (file_name)" in section
    assert rows[PREFIX + "shareholder_letter.txt"][1:4] == ["Umbrella", "FY2022", "letter"]


@pytest.mark.parametrize("mode", ["dense", "bm25", "hybrid"])
def test_company_and_period_filters_hold_in_every_index(built, mode: str) -> None:
    _, _, loaded = built
    retriever = HybridRetriever(loaded.store)
    everything = retriever.retrieve(QUERY, mode=mode, k=20)
    assert {c.meta["company"] for c in everything.candidates} == {"Globex", "Initech", "Umbrella"}
    for company in ("Globex", "Initech", "Umbrella"):
        flt = {"company": {"$in": [company]}}
        hits = retriever.retrieve(QUERY, mode=mode, k=20, metadata_filter=flt).candidates
        assert hits, (mode, company)
        assert {c.meta["company"] for c in hits} == {company}
    flt = {"period": {"$in": ["FY2022"]}}
    hits = retriever.retrieve(QUERY, mode=mode, k=20, metadata_filter=flt).candidates
    assert {c.meta["company"] for c in hits} == {"Initech", "Umbrella"}
    flt = {"years": {"$in": [2021]}, "company": {"$in": ["Globex", "Initech"]}}
    hits = retriever.retrieve(QUERY, mode=mode, k=20, metadata_filter=flt).candidates
    assert hits and {c.meta["company"] for c in hits} == {"Globex"}
    nobody = {"company": {"$in": ["Hooli"]}}
    assert retriever.retrieve(QUERY, mode=mode, metadata_filter=nobody).candidates == []


def test_sidecar_changes_reprocess_the_document(
    tmp_path: Path, filings: Path, built, embedding_model
) -> None:
    index_dir, _, _ = built
    index = Path(shutil.copytree(index_dir, tmp_path / "index", symlinks=True))
    folder = Path(shutil.copytree(filings, tmp_path / "src" / "filings"))
    letter = PREFIX + "shareholder_letter.txt"

    def run() -> tuple:
        report = ingest([folder], index, embedding_model, progress=False)
        docs = {d["source"]: d for d in read_manifest(index).documents.values()}
        return report, docs

    # unchanged: a different checkout of the same files, sidecars and rules
    report, _ = run()
    assert sorted(report.unchanged) == sorted(PREFIX + n for n in EXPECTED)

    sidecar = sidecar_path(folder / "shareholder_letter.txt")
    sidecar.write_text(json.dumps({"company": "Umbrella Health"}))
    report, docs = run()
    assert report.updated == [letter] and len(report.unchanged) == 2
    assert docs[letter]["company"] == "Umbrella Health"
    assert docs[letter]["doc_type"] == "10-K"  # back to the cover page

    (folder / METADATA_FILE).write_text(json.dumps({"*.txt": {"period": "FY2023"}}))
    report, docs = run()
    assert report.updated == [letter]
    assert docs[letter]["period"] == "FY2023"
    assert docs[letter]["attributes_source"]["period"] == "folder_metadata"

    sidecar.write_text('{"company": "Umbrella", }')
    report, docs = run()
    assert list(report.failed) == [letter]
    assert "shareholder_letter.txt.meta.json" in report.failed[letter]
    assert docs[letter]["status"] == "failed" and docs[letter]["kind"] == "bad_metadata"
    loaded = load_index(index, embedding_model)
    assert letter not in chunks_by_source(loaded.store)

    sidecar.unlink()
    report, docs = run()
    assert report.updated == [letter] and not report.failed
    assert docs[letter]["company"] == "Initech"  # inferred from the cover page again
    assert docs[letter]["attributes_source"]["company"] == "cover_page"


def test_bad_folder_rules_fail_the_run_before_anything_is_written(
    tmp_path: Path, filings: Path, built, embedding_model
) -> None:
    index_dir, _, _ = built
    folder = Path(shutil.copytree(filings, tmp_path / "src" / "filings"))
    (folder / METADATA_FILE).write_text('{"*.txt": {"compnay": "x"}}')
    before = read_manifest(index_dir).build_id
    with pytest.raises(ValueError, match="compnay"):
        ingest([folder], index_dir, embedding_model, progress=False)
    assert read_manifest(index_dir).build_id == before
