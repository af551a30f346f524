"""A PostgreSQL URL whose namespace holds no index names the database's namespaces that do,
as a FAISS directory names the index directories beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from citerag.stores.loaded import check_index, load_index, read_manifest
from citerag.stores.location import IndexNotFoundError
from citerag.stores.postgres.db import StoreURL
from tests.support.pg import with_namespace

pytestmark = pytest.mark.integration


def test_a_missing_namespace_names_the_existing_ones(
    pg_server: str, pg_url: str, embedding_model, tmp_path: Path
) -> None:
    from citerag.index.ingest import ingest

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "note.md").write_text("# Note\n\nThe depot opens at seven.\n")
    report = ingest([tmp_path / "docs"], pg_url, embedding_model, progress=False)
    assert not report.failed
    built = StoreURL.parse(pg_url)
    mistyped = with_namespace(pg_server, built.namespace + "x")
    messages = []
    for call in (
        lambda: read_manifest(mistyped),
        lambda: check_index(mistyped),
        lambda: load_index(mistyped, embedding_model),
    ):
        with pytest.raises(IndexNotFoundError) as exc:
            call()
        messages.append(str(exc.value))
    assert len(set(messages)) == 1, messages  # one message, whichever way it is opened
    shown = StoreURL.parse(mistyped).redacted()
    assert messages[0].startswith(
        f"no index at {shown} (namespace '{built.namespace}x'): "
        f"run `citerag ingest PATH --index '{shown}'` first, or pass an existing one (found: "
        f"{built.with_namespace(built.namespace)}"
    )
