"""Document metadata at ingest, without a model: user-supplied values (sidecar, folder rules,
front matter), their precedence over inference, the embedded header's title and the chunk
metadata that dict filters test."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from citerag.cli import access_label
from citerag.core.filters import matches
from loaders.access import ACCESS_FILE, AccessMap, matching_values
from loaders.base import DocumentLoadError
from loaders.chunking import ChunkSettings
from loaders.pipeline import (
    METADATA_FILE,
    MetadataMap,
    ProcessedFile,
    SourceFile,
    clean_user_metadata,
    is_sidecar,
    metadata_digest,
    parse_sidecar,
    process_file,
    sidecar_path,
    user_metadata_digest,
)
from loaders.registry import load_file
from tests.support.filings import cover_page, results_page

#: A 10-K cover page of Globex Corporation for FY2021, then a results page.
COVER = "\n".join([*cover_page("Globex", 2021), "", *results_page("Globex", 2021, 12)])


def _process(path: Path, **kwargs) -> ProcessedFile:
    return process_file(SourceFile(path, path.name, **kwargs), ChunkSettings())


def _chunk_meta(pf: ProcessedFile) -> list[dict]:
    assert pf.status == "ok", pf.reason
    return [c.to_metadata() for c in pf.chunks]


# -- cleaning user-supplied values -------------------------------------------------------------


def test_clean_user_metadata_strict() -> None:
    values, warnings = clean_user_metadata(
        {"company": " Acme ", "period": 2022, "doc_type": "10k", "company_aliases": "ACME"},
        "x.meta.json",
    )
    assert values == {"company": "Acme", "period": "2022", "doc_type": "10k",
                      "company_aliases": ["ACME"]}  # fmt: skip
    assert warnings == []
    assert clean_user_metadata({"company": None}, "x")[0] == {"company": None}  # clears


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (["company", "Acme"], "expected a JSON object"),
        ({"compnay": "Acme"}, "unknown key 'compnay'"),
        ({"company": ""}, "'company' must be a non-empty string"),
        ({"company": {"name": "Acme"}}, "'company' must be a non-empty string"),
        ({"period": True}, "'period' must be a non-empty string"),
        ({"company_aliases": ["ACME", {"x": 1}]}, "'company_aliases' must be a list of names"),
    ],
)
def test_clean_user_metadata_rejects(raw: object, message: str) -> None:
    with pytest.raises(ValueError, match=r"x\.meta\.json") as info:
        clean_user_metadata(raw, "x.meta.json")
    assert message in str(info.value)


def test_clean_front_matter_is_lenient() -> None:
    values, warnings = clean_user_metadata(
        {"company": "Acme", "author": "Ann", "tags": ["a"], "period": None, "doc_type": ["x"]},
        "a.md front matter",
        strict=False,
    )
    assert values == {"company": "Acme"}  # other keys ignored, an empty value skipped
    assert warnings == ["a.md front matter: 'doc_type' must be a non-empty string"]


# -- sidecars and folder rules -----------------------------------------------------------------


def test_sidecar_names() -> None:
    assert sidecar_path(Path("/d/report.pdf")) == Path("/d/report.pdf.meta.json")
    assert is_sidecar(Path("report.pdf.meta.json")) and not is_sidecar(Path("report.pdf"))


def test_parse_sidecar_names_the_sidecar_on_bad_json() -> None:
    assert parse_sidecar(b'{"company": "Acme"}', "r.pdf.meta.json") == {"company": "Acme"}
    for data in (b'{"company": "Acme",}', b"\xff\xfe{", b'{"owner": "x"}'):
        with pytest.raises(DocumentLoadError) as info:
            parse_sidecar(data, "r.pdf.meta.json")
        assert info.value.kind == "bad_metadata"
        assert "metadata sidecar r.pdf.meta.json" in info.value.reason


def test_folder_rules_glob_and_last_match_wins_key_by_key(tmp_path: Path) -> None:
    rules = {
        "**": {"company": "Acme"},
        "*.pdf": {"doc_type": "10-K"},
        "2019/*": {"period": "FY2019", "company": "Acme Old"},
    }
    (tmp_path / METADATA_FILE).write_text(json.dumps(rules))
    about = MetadataMap.load(tmp_path)
    assert about.values_for("2019/a.pdf") == {
        "company": "Acme Old",
        "doc_type": "10-K",
        "period": "FY2019",
    }
    assert about.values_for("2020/sub/b.pdf") == {"company": "Acme", "doc_type": "10-K"}
    assert about.values_for("notes.md") == {"company": "Acme"}
    assert MetadataMap.load(tmp_path).values_for("2019/deep/c.md")["company"] == "Acme Old"
    (tmp_path / METADATA_FILE).write_text(json.dumps({"reports/*.pdf": {"company": "Acme"}}))
    assert MetadataMap.load(tmp_path).values_for("notes.md") == {}
    assert MetadataMap.load(tmp_path / "missing").values_for("a.pdf") == {}


def test_folder_rules_share_the_access_map_glob_semantics(tmp_path: Path) -> None:
    rules = [("*.pdf", "a"), ("restricted/*", "b"), ("restricted/**/x.pdf", "c")]
    assert matching_values(rules, "restricted/deep/x.pdf") == ["a", "b", "c"]
    assert matching_values(rules, "top.md") == []
    (tmp_path / ACCESS_FILE).write_text(json.dumps(dict(rules)))
    (tmp_path / METADATA_FILE).write_text(json.dumps({p: {"company": v} for p, v in rules}))
    for rel in ("restricted/deep/x.pdf", "restricted/y.md", "z.pdf", "z.md"):
        label = AccessMap.load(tmp_path).label_for(rel)
        company = MetadataMap.load(tmp_path).values_for(rel).get("company", "public")
        assert label == company, rel


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ('["a"]', "expected a JSON object"),
        ('{"*.pdf": "Acme"}', "(pattern '*.pdf'): expected a JSON object"),
        ('{"*.pdf": {"compnay": "Acme"}}', "unknown key 'compnay'"),
    ],
)
def test_bad_folder_rules_raise_naming_the_file(tmp_path: Path, content: str, message: str):
    (tmp_path / METADATA_FILE).write_text(content)
    with pytest.raises(ValueError, match=METADATA_FILE) as info:
        MetadataMap.load(tmp_path)
    assert message in str(info.value)


def test_metadata_digest(tmp_path: Path) -> None:
    assert metadata_digest(None, {}) == ""
    digests = {
        metadata_digest(None, {"company": "A"}),
        metadata_digest(b"", {}),
        metadata_digest(b'{"company": "A"}', {}),
        metadata_digest(b'{"company": "B"}', {}),
        metadata_digest(b'{"company": "A"}', {"company": "A"}),
    }
    assert len(digests) == 5 and "" not in digests
    doc = tmp_path / "a.txt"
    doc.write_text("x")
    src = SourceFile(doc, "a.txt")
    assert user_metadata_digest(src) == ""
    sidecar_path(doc).write_text('{"company": "A"}')
    assert user_metadata_digest(src) == metadata_digest(b'{"company": "A"}', {})


# -- process_file: inference, precedence, header, chunk metadata -------------------------------


def test_cover_page_text_gives_company_period_and_type(tmp_path: Path) -> None:
    path = tmp_path / "globex_filing.txt"
    path.write_text(COVER)
    pf = _process(path)
    for meta in _chunk_meta(pf):
        assert (meta["company"], meta["period"], meta["doc_type"]) == ("Globex", "FY2021", "10-K")
        assert meta["years"] == [2021] and "Globex Corporation" in meta["company_aliases"]
        assert meta["title"] == "globex filing"  # the loader's meaningful title is kept
        assert all(v is not None for v in meta.values())
        assert all(
            isinstance(v, str | int | float) or (isinstance(v, list) and all(
                isinstance(x, str | int | float) for x in v))
            for v in meta.values()
        )  # fmt: skip
        assert matches(meta, {"company": {"$in": ["Globex"]}, "years": {"$in": [2021]}})
    assert pf.info["attributes_source"]["company"] == "cover_page"
    assert pf.info["title_source"] == "file_name"


def test_sidecar_overrides_inference_and_names_its_source(tmp_path: Path) -> None:
    path = tmp_path / "globex_filing.txt"
    path.write_text(COVER)
    sidecar_path(path).write_text(
        json.dumps({"company": "Initech", "title": "Initech annual filing", "period": None})
    )
    pf = _process(path)
    meta = _chunk_meta(pf)[0]
    assert meta["company"] == "Initech" and meta["doc_type"] == "10-K"
    assert "period" not in meta  # null cleared the cover page's FY2021
    assert meta["title"] == "Initech annual filing"
    assert pf.chunks[0].text.startswith(("Initech annual filing\n", "Initech annual filing > "))
    assert pf.info["title_source"] == "sidecar"
    assert pf.info["attributes_source"]["company"] == "sidecar"
    assert pf.info["attributes_source"]["doc_type"] == "cover_page"
    assert pf.info["metadata_sha256"] == user_metadata_digest(SourceFile(path, path.name))


def test_precedence_folder_then_front_matter_then_sidecar(tmp_path: Path) -> None:
    path = tmp_path / "memo.md"
    path.write_text("---\ncompany: FrontCo\nperiod: 2021\n---\n# Memo\n\nText of the memo.\n")
    folder = {"company": "FolderCo", "period": "FY2020", "doc_type": "annual report"}
    pf = _process(path, metadata=folder)
    meta = _chunk_meta(pf)[0]
    assert (meta["company"], meta["period"], meta["doc_type"]) == (
        "FrontCo",
        "2021",
        "annual report",
    )
    assert pf.info["attributes_source"] == {
        "company": "front_matter",
        "period": "front_matter",
        "doc_type": "folder_metadata",
    }
    sidecar_path(path).write_text('{"company": "SideCo"}')
    pf = _process(path, metadata=folder)
    assert _chunk_meta(pf)[0]["company"] == "SideCo"
    assert pf.info["attributes_source"]["company"] == "sidecar"
    assert pf.info["attributes_source"]["period"] == "front_matter"


def test_front_matter_is_not_indexed_and_offsets_hold(tmp_path: Path) -> None:
    text = (
        "---\ntitle: Q3 update\ncompany: Acme\nsecret_key: do-not-index\n---\n"
        "Intro.\n\n# Q3\n\nSales up.\n"
    )
    path = tmp_path / "update.md"
    path.write_text(text)
    pf = _process(path)
    canonical = load_file(path).text
    assert canonical == text
    for chunk in pf.chunks:
        assert canonical[chunk.start : chunk.end] == chunk.content
        assert "do-not-index" not in chunk.text
        assert chunk.metadata["company"] == "Acme" and chunk.metadata["title"] == "Q3 update"
    assert [c.text for c in pf.chunks] == ["Q3 update\nIntro.", "Q3 update > Q3\nSales up."]
    assert pf.info["title_source"] == "front_matter"


def test_bad_front_matter_value_is_a_warning_not_a_failure(tmp_path: Path) -> None:
    path = tmp_path / "n.md"
    path.write_text("---\ncompany: {name: Acme}\n---\nBody text.\n")
    pf = _process(path)
    assert pf.status == "ok" and "company" not in pf.chunks[0].metadata
    assert any("'company' must be a non-empty string" in w for w in pf.info["warnings"])


def test_bad_sidecar_fails_the_document_naming_the_sidecar(tmp_path: Path) -> None:
    path = tmp_path / "report.txt"
    path.write_text("Some text worth indexing.")
    sidecar_path(path).write_text('{"company": "Acme"')
    pf = _process(path)
    assert pf.status == "failed" and pf.kind == "bad_metadata" and not pf.chunks
    assert "report.txt.meta.json" in pf.reason and "not valid JSON" in pf.reason
    assert str(tmp_path) not in pf.reason  # no server path in a client-visible reason


def _accession_pdf(sample_corpus: Path, path: Path) -> Path:
    writer = PdfWriter()
    writer.add_page(PdfReader(sample_corpus / "annual_report_2025.pdf").pages[1])
    writer.add_metadata({"/Title": "0001018724-18-000005"})
    writer.write(path)
    return path


def test_accession_number_title_is_replaced_in_the_header(
    tmp_path: Path, sample_corpus: Path
) -> None:
    path = _accession_pdf(sample_corpus, tmp_path / "3M_2018_10K.pdf")
    assert load_file(path).title == "0001018724-18-000005"
    pf = _process(path)
    meta = _chunk_meta(pf)[0]
    assert (meta["company"], meta["period"], meta["doc_type"]) == ("3M", "FY2018", "10-K")
    assert meta["title"] == "3M 10-K FY2018"
    assert all(c.text.startswith(("3M 10-K FY2018\n", "3M 10-K FY2018 > ")) for c in pf.chunks)
    assert not any("0001018724" in c.text for c in pf.chunks)
    assert pf.info["title_source"] == "inferred"
    assert pf.info["parser_title"] == "0001018724-18-000005"
    # a readable file name is the title when it is meaningful
    pf = _process(_accession_pdf(sample_corpus, tmp_path / "ACME_CORP_2019_10K.pdf"))
    assert pf.info["title"] == "ACME CORP 2019 10K" and pf.info["title_source"] == "file_name"


def test_built_title_without_a_company_keeps_the_loader_title(tmp_path: Path) -> None:
    path = tmp_path / "24942840.txt"  # a SciFact abstract whose wording looks like a release
    path.write_text("Cases reported since 1928 show results that support the criteria.\n")
    pf = _process(path)
    assert pf.info["title"] == "24942840" and pf.info["title_source"] == "file_name"
    assert pf.chunks[0].text.startswith("24942840\n")


@pytest.mark.parametrize("label", ["Board Members", " board", ".hidden", "board\n", "", 7])
def test_an_access_file_label_is_checked_as_access_is(tmp_path: Path, label: object) -> None:
    """A label ``--access`` refuses was taken silently from ``.citerag-access.json`` (a
    document labelled ``Board Members`` is readable by no group)."""
    (tmp_path / ACCESS_FILE).write_text(json.dumps({"*.pdf": "public", "board/*": label}))
    with pytest.raises(ValueError) as info:
        AccessMap.load(tmp_path)
    message = str(info.value)
    assert str(tmp_path / ACCESS_FILE) in message and repr(label) in message
    assert "'board/*'" in message
    if isinstance(label, str):  # the rule and the words of --access
        with pytest.raises(argparse.ArgumentTypeError) as refused:
            access_label(label)
        assert message.endswith(str(refused.value))
    (tmp_path / ACCESS_FILE).write_text(json.dumps({"board/*": "hr-staff.2"}))
    assert AccessMap.load(tmp_path).label_for("board/a.pdf") == "hr-staff.2"
