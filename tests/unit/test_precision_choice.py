"""Embedding precision: how ``auto``/``fp32``/``bf16`` resolve, and where the setting enters."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from citerag import embeddings
from citerag.embeddings import PRECISIONS, resolve_precision
from citerag.server.settings import ServerSettings, load_settings


def test_explicit_precisions_are_kept():
    assert resolve_precision("fp32") == "fp32"
    assert resolve_precision("bf16") == "bf16"


@pytest.mark.parametrize("native, expected", [(True, "bf16"), (False, "fp32")])
def test_auto_follows_the_cpu(monkeypatch: pytest.MonkeyPatch, native: bool, expected: str):
    monkeypatch.setattr(embeddings, "bf16_supported", lambda: native)
    assert resolve_precision("auto") == expected
    assert resolve_precision(None) == expected  # None is the default, "auto"


def test_unknown_precision_is_named():
    with pytest.raises(ValueError, match="'fp16'"):
        resolve_precision("fp16")


def test_server_setting_defaults_to_auto_and_reads_toml_and_env(tmp_path: Path):
    assert ServerSettings().embedding_precision == PRECISIONS[0] == "auto"
    cfg = tmp_path / "s.toml"
    cfg.write_text('[models]\nembedding_precision = "fp32"\n', encoding="utf-8")
    assert load_settings(cfg, env={}).embedding_precision == "fp32"
    env = {"CITERAG_EMBEDDING_PRECISION": "bf16"}
    assert load_settings(cfg, env=env).embedding_precision == "bf16"


def test_server_setting_refuses_an_unknown_precision():
    with pytest.raises(ValueError, match=r"embedding_precision.*'half'"):
        ServerSettings(embedding_precision="half").validate()


def test_ingest_command_offers_exactly_the_library_choices():
    from citerag.cli import build_parser

    args = build_parser().parse_args(["ingest", "x.md"])
    assert args.embedding_precision == "auto"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["ingest", "--embedding-precision", "fp16", "x.md"])


def test_the_serving_engine_takes_the_precision_before_loading(tmp_path: Path):
    from citerag.server.engine import Engine

    engine = Engine(tmp_path / "index")
    assert engine.embedding_precision is None  # the library default, "auto"
    engine.configure_queries(precision="fp32")
    assert engine.embedding_precision == "fp32" and not engine.model_loaded
    with pytest.raises(ValueError, match="'fp8'"):
        engine.configure_queries(precision="fp8")


def test_traced_queries_setting_defaults_on_and_reads_toml_and_env(tmp_path: Path):
    assert ServerSettings().traced_queries is True
    cfg = tmp_path / "s.toml"
    cfg.write_text("[models]\ntraced_queries = false\n", encoding="utf-8")
    assert load_settings(cfg, env={}).traced_queries is False
    assert load_settings(cfg, env={"CITERAG_TRACED_QUERIES": "true"}).traced_queries is True
    with pytest.raises(ValueError, match="traced_queries"):
        load_settings(None, env={"CITERAG_TRACED_QUERIES": "sometimes"})


@pytest.mark.parametrize("traced", [True, False])
def test_the_servers_traced_queries_setting_reaches_the_model_it_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, traced: bool
):
    import citerag.embeddings as embeddings_module
    from citerag.server.engine import Engine
    from citerag.server.routes.rag import rag_router

    seen: dict = {}
    model = SimpleNamespace(name="a model")

    def fake_load(name, **kwargs):
        seen.update(kwargs)
        return model

    monkeypatch.setattr(embeddings_module, "load_embedding_model", fake_load)
    engine = Engine(tmp_path / "index")
    rag_router(engine, ServerSettings(traced_queries=traced))
    assert engine.load_model() is model
    assert seen["traced"] is traced
