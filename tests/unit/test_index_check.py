"""The index check made before any model loads (``citerag.stores.loaded.check_index``), and
what ``citerag ask`` does with an index it cannot use: one line on stderr, exit status 2, and
neither torch nor sentence-transformers imported."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from langchain_core.documents import Document

from citerag import cli
from citerag.embeddings import DEFAULT_MODEL, INT8_MODEL, model_identity, resolve_model
from citerag.stores.loaded import check_index
from citerag.stores.location import BUILD_FILES, IndexNotFoundError, IndexUnavailableError
from citerag.stores.manifest import IndexMismatchError

REPO = Path(__file__).resolve().parents[2]
HEAVY = ("torch", "sentence_transformers", "transformers")


def _index(root: Path, manifest: object, files: tuple[str, ...] = BUILD_FILES) -> Path:
    """An index directory laid out as ``citerag ingest`` leaves it, with given contents."""
    build = root / "builds" / "b1"
    build.mkdir(parents=True)
    text = manifest if isinstance(manifest, str) else json.dumps(manifest)
    (build / "manifest.json").write_text(text, encoding="utf-8")
    for name in files:
        (build / name).write_bytes(b"")
    (root / "current").symlink_to(Path("builds") / "b1")
    return root


def _manifest(model: str = DEFAULT_MODEL) -> dict[str, object]:
    return {
        "build_id": "b1",
        "created_at": "2026-01-01T00:00:00Z",
        "embedding": {"model": model, "dimension": 384},
        "index": {},
        "chunking": {},
    }


def test_a_readable_index_passes_and_gives_its_manifest(tmp_path: Path) -> None:
    manifest = check_index(_index(tmp_path / "i", _manifest()), DEFAULT_MODEL)
    assert manifest.build_id == "b1"
    assert check_index(tmp_path / "i").build_id == "b1"  # no model given: not compared


def test_a_missing_index_names_the_path_and_the_command(tmp_path: Path) -> None:
    where = tmp_path / "nowhere"
    with pytest.raises(IndexNotFoundError) as exc:
        check_index(where)
    assert str(exc.value) == f"no index in {where}: run `citerag ingest PATH --index {where}` first"
    assert isinstance(exc.value, FileNotFoundError)  # callers catching that still do


def test_a_missing_index_names_the_indexes_beside_it(tmp_path: Path) -> None:
    # `make demo` builds .citerag/demo-index; a snippet loading .citerag/index is pointed at it
    demo = _index(tmp_path / "demo-index", _manifest())
    (tmp_path / "notes").mkdir()  # a directory without a build is not an index
    where = tmp_path / "index"
    with pytest.raises(IndexNotFoundError) as exc:
        check_index(where)
    assert str(exc.value) == (
        f"no index in {where}: run `citerag ingest PATH --index {where}` first, "
        f"or pass an existing one (found: {demo})"
    )


def test_a_directory_without_a_current_build_is_no_index(tmp_path: Path) -> None:
    (tmp_path / "i" / "builds").mkdir(parents=True)
    with pytest.raises(IndexNotFoundError):
        check_index(tmp_path / "i")


@pytest.mark.parametrize(
    ("manifest", "reason"),
    [
        ("{", "Expecting property name"),
        ("[]", "not a JSON object"),
        ({"build_id": "b1"}, "no 'created_at' field"),
    ],
)
def test_an_unreadable_manifest_is_one_line_saying_why(
    tmp_path: Path, manifest: object, reason: str
) -> None:
    with pytest.raises(IndexUnavailableError) as exc:
        check_index(_index(tmp_path / "i", manifest))
    message = str(exc.value)
    assert "\n" not in message and reason in message
    assert str(tmp_path / "i") in message and "manifest.json" in message


def test_a_build_without_its_files_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(IndexUnavailableError, match=r"has no dense\.faiss, bm25\.jsonl"):
        check_index(_index(tmp_path / "i", _manifest(), files=("dense.pkl",)))


def test_an_index_of_another_model_is_refused_before_it_loads(tmp_path: Path) -> None:
    index = _index(tmp_path / "i", _manifest())
    with pytest.raises(IndexMismatchError, match=f"built with embedding model '{DEFAULT_MODEL}'"):
        check_index(index, model_identity("minilm-int8"))


def test_model_identity_is_resolve_model_without_loading() -> None:
    for name in (None, "", "default", "all-MiniLM-L6-v2", DEFAULT_MODEL):
        assert model_identity(name) == DEFAULT_MODEL == resolve_model(name)[0]
    assert model_identity("minilm-int8") == INT8_MODEL == resolve_model("minilm-int8")[0]
    assert model_identity("/models/mine") == "/models/mine" == resolve_model("/models/mine")[0]


def test_ask_on_an_unreadable_index_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index = _index(tmp_path / "i", "{")
    assert cli.main(["ask", "What does fault code E-217 mean?", "--index", str(index)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("citerag: error: the index in ") and err.count("\n") == 1


def test_loading_turns_the_collector_off_then_freezes_what_was_loaded() -> None:
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    try:
        with cli.loading():
            assert not gc.isenabled()
            loaded = [[i] for i in range(1000)]
        assert gc.isenabled()
        assert gc.get_freeze_count() >= frozen + len(loaded)
    finally:
        gc.unfreeze()


def _ask_in_a_fresh_process(*argv: str) -> tuple[int, str, list[str]]:
    """Run ``citerag ask`` in a new interpreter: exit status, stderr, heavy modules imported."""
    probe = (
        "import json, sys\n"
        "from citerag.cli import main\n"
        "code = main(sys.argv[1:])\n"
        f"heavy = sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})\n"
        "print(json.dumps(heavy))\n"
        "sys.exit(code)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1"}
    proc = subprocess.run(
        [sys.executable, "-c", probe, "ask", "What does fault code E-217 mean?", *argv],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return proc.returncode, proc.stderr, json.loads(proc.stdout.strip().splitlines()[-1])


def test_a_missing_index_fails_before_any_model_is_imported(tmp_path: Path) -> None:
    where = tmp_path / "nowhere"
    code, err, heavy = _ask_in_a_fresh_process("--index", str(where))
    assert code == 2
    assert (
        err
        == f"citerag: error: no index in {where}: run `citerag ingest PATH --index {where}` first\n"
    )
    assert heavy == []


def test_an_unreachable_store_fails_before_any_model_is_imported() -> None:
    # port 1 on the loopback interface: nothing listens, the connection is refused at once
    code, err, heavy = _ask_in_a_fresh_process(
        "--store", "postgresql+psycopg://citerag:s3cret@127.0.0.1:1/citerag"
    )
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "cannot connect to the PostgreSQL store" in err and "127.0.0.1:1" in err
    assert "s3cret" not in err  # the password is masked
    assert heavy == []


def test_an_index_that_is_a_file_or_cannot_be_written_is_one_line_before_any_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--index`` naming a file, for any command, and an index directory ``citerag ingest``
    cannot write: one line naming the path and the reason, exit status 2 (a traceback and
    exit 1 before; `ask` even told the user to ingest into the file)."""
    afile = tmp_path / "afile"
    afile.write_text("hello", encoding="utf-8")
    doc = tmp_path / "doc.md"
    doc.write_text("# Fees\n\nThe joining fee is £25.\n", encoding="utf-8")
    for argv in (
        ["ask", "fee?", "--index", str(afile)],
        ["ingest", str(doc), "--index", str(afile)],
    ):
        assert cli.main(argv) == 2
        assert capsys.readouterr().err == (
            f"citerag: error: --index {afile} is a file, not an index directory\n"
        )

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    import citerag.embeddings

    monkeypatch.setattr(citerag.embeddings, "load_embedding_model", refuse)  # never reached
    monkeypatch.setattr(cli.tempfile, "TemporaryFile", refuse)
    locked = tmp_path / "locked" / "idx"
    assert cli.main(["ingest", str(doc), "--index", str(locked), "-q"]) == 2
    assert capsys.readouterr().err == (
        f"citerag: error: cannot write the index at {locked}: Permission denied\n"
    )


def test_inspect_on_an_unreadable_manifest_exits_2_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A manifest cut in half: ``inspect`` says which file and what to do (a JSON traceback
    before, naming no file)."""
    index = _index(tmp_path / "i", json.dumps(_manifest())[:40])
    assert cli.main(["inspect", "--index", str(index)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert str(index / "builds" / "b1" / "manifest.json") in err
    assert "ingest again into a new --index directory" in err


@pytest.mark.parametrize(
    ("damaged", "cut"),
    [("dense.faiss", True), ("dense.pkl", True), ("bm25.jsonl", False), ("sentences.json", True)],
)
def test_a_damaged_build_file_is_one_line_naming_it(
    tmp_path: Path, damaged: str, cut: bool
) -> None:
    """A build file cut in half or overwritten (the FAISS file, its pickle, the BM25 lines, the
    sentence table) is one line naming the file and what to do, not the reader's traceback
    (a FAISS RuntimeError, an UnpicklingError, a JSONDecodeError)."""
    from citerag.stores.faiss.store import CiteragStore
    from tests.support.factories import FixedEmbeddings

    text = "The joining fee is 25 pounds."
    emb = FixedEmbeddings({text: [1.0, 0.0, 0.0, 0.0], f"T\n{text}": [1.0, 0.0, 0.0, 0.0]})
    store = CiteragStore(emb, 4)
    store.add_documents(
        [Document(page_content=f"T\n{text}", metadata={"content": text})], ids=["one"]
    )
    build = tmp_path / "build"
    build.mkdir()
    store.save(build)
    CiteragStore.load(build, emb, 4)  # readable as saved
    path = build / damaged
    if cut:
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    else:
        path.write_text("garbage\n", encoding="utf-8")
    with pytest.raises(IndexUnavailableError) as exc:
        CiteragStore.load(build, emb, 4)
    message = str(exc.value)
    assert "\n" not in message and damaged in message and str(build) in message
    assert message.endswith("ingest again into a new --index directory")


def test_read_manifest_names_the_indexes_beside_a_missing_one(tmp_path: Path) -> None:
    """``read_manifest`` said only "no index in X"; it now says what ``check_index`` says."""
    from citerag.stores.loaded import read_manifest

    demo = _index(tmp_path / "demo-index", _manifest())
    where = tmp_path / "index"
    with pytest.raises(IndexNotFoundError) as exc:
        read_manifest(where)
    with pytest.raises(IndexNotFoundError) as checked:
        check_index(where)
    assert str(exc.value) == str(checked.value)
    assert str(exc.value).endswith(f"or pass an existing one (found: {demo})")


def test_the_not_found_message_names_the_closest_indexes_first() -> None:
    from citerag.stores.location import MAX_NAMED_INDEXES, not_found_message

    existing = {f"team_{c}": f"URL?namespace=team_{c}" for c in "bcdefg"} | {"sales": "S"}
    message = not_found_message("at URL (namespace 'sale')", "'URL'", "sale", existing)
    assert message.startswith("no index at URL (namespace 'sale'): run `citerag ingest PATH")
    found = message.split("(found: ")[1].rstrip(")")
    assert found.startswith("S, URL?namespace=team_")  # the closest name first
    assert found.endswith(f" and {len(existing) - MAX_NAMED_INDEXES} more")
    assert not_found_message("in d", "d", "d", {}) == (
        "no index in d: run `citerag ingest PATH --index d` first"
    )


def test_a_store_url_for_another_namespace_keeps_its_parameters_and_masks_the_password() -> None:
    from citerag.stores.postgres.db import StoreURL

    url = StoreURL.parse("postgresql+psycopg://u:secret@h/db?namespace=team_a&ef_search=50")
    other = url.with_namespace("team_b")
    assert other == "postgresql+psycopg://u:***@h/db?ef_search=50&namespace=team_b"
    assert StoreURL.parse(other.replace("***", "x")).namespace == "team_b"
