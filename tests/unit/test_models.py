"""Model specs, settings and error classification (no network, no model)."""

from __future__ import annotations

import re

import httpx
import pytest

from chains.models import (
    MODEL_SETTINGS,
    Endpoint,
    ModelSettings,
    ModelSetupError,
    ModelTimeoutError,
    build_chat_model,
    check_model_spec,
    describe_model_error,
    parse_setting,
    resolve_endpoint,
    split_spec,
)
from chains.streaming import ProseFilter
from graphs.config import MODEL_KNOBS, RAGConfig, check_configurable, knobs


def test_settings_are_validated_where_they_enter():
    with pytest.raises(ValueError, match=r"timeout_s must be in \[0.1, 3600.0\], not 0"):
        ModelSettings(timeout_s=0)
    with pytest.raises(ValueError, match="max_retries must be an integer"):
        ModelSettings(max_retries=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"unknown model setting\(s\) \['timeout'\]"):
        ModelSettings.from_mapping({"timeout": 3})
    assert parse_setting("timeout_s", "30") == 30.0
    assert parse_setting("max_tokens", "none") is None
    with pytest.raises(ValueError, match="unknown model setting 'api_key'"):
        parse_setting("api_key", "sk-...")  # keys are never settings


def test_every_setting_but_temperature_is_a_knob_with_the_same_bounds():
    assert set(MODEL_KNOBS.values()) == set(MODEL_SETTINGS) - {"temperature"}
    for name, setting in MODEL_KNOBS.items():
        knob = knobs()[name]
        assert knob.client == "no", f"{name}: a client must never point the server elsewhere"
        assert (knob.lo, knob.hi) == (
            MODEL_SETTINGS[setting].get("lo"),
            MODEL_SETTINGS[setting].get("hi"),
        )
    cfg = RAGConfig(model_timeout_s=5.0, temperature=0.3)
    assert cfg.model_settings() == ModelSettings(timeout_s=5.0, temperature=0.3)


def test_specs_need_a_provider():
    assert split_spec("openai:gpt-4.1-mini") == ("openai", "gpt-4.1-mini")
    with pytest.raises(ModelSetupError, match="'gpt-4o' is not a model spec"):
        split_spec("gpt-4o")


@pytest.mark.parametrize("spec", ["extractive", "smollm2", "local:/models/x.gguf", "openai:m"])
def test_model_specs_that_are_accepted(spec):
    check_model_spec(spec)
    assert RAGConfig(model=spec).model == spec


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("gpt-4o-mini", "did you mean 'openai:gpt-4o-mini'?"),
        ("openai:", "'openai:' is not a model spec"),
        ("local:", "names no local model"),
        ("no-such-thing", "'no-such-thing' is not a model spec"),
    ],
)
def test_a_bad_model_spec_is_refused_where_it_enters(spec, says, tmp_path):
    from chains.answerers import make_answerer
    from citerag.server.settings import load_settings
    from graphs.config import model_knobs_from_env

    with pytest.raises(ModelSetupError, match=re.escape(says)) as info:
        check_model_spec(spec)
    assert "'openai:gpt-4.1-mini'" in str(info.value)  # the accepted forms are listed
    with pytest.raises(ValueError, match=re.escape(says)):
        RAGConfig(model=spec)  # --model, the model knob (configurable)
    with pytest.raises(ValueError, match=r"^\$CITERAG_MODEL: .*" + re.escape(says)):
        model_knobs_from_env({"CITERAG_MODEL": spec})
    toml = tmp_path / "server.toml"
    toml.write_text(f'[model]\nname = "{spec}"\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"\[model\] name: .*" + re.escape(says)):
        load_settings(toml, env={})
    with pytest.raises(ModelSetupError, match=re.escape(says)):
        make_answerer(spec, None)  # type: ignore[arg-type]


def test_a_bad_model_spec_stops_the_cli_and_the_server_with_status_2(tmp_path, capsys, monkeypatch):
    import uvicorn

    from citerag.cli import main

    def started(*args: object, **kwargs: object) -> None:
        raise AssertionError("citerag serve started with a bad model spec")

    monkeypatch.setattr(uvicorn, "run", started)
    toml = tmp_path / "server.toml"
    toml.write_text('[model]\nname = "gpt-4o-mini"\n', encoding="utf-8")
    assert main(["serve", "--config", str(toml)]) == 2
    assert main(["ask", "q", "--index", str(tmp_path / "none"), "--model", "gpt-4o-mini"]) == 2
    err = capsys.readouterr().err
    assert err.count("did you mean 'openai:gpt-4o-mini'?") == 2


@pytest.mark.parametrize(
    ("spec", "suggestion"),
    [
        ("gpt-oss:20b", "ollama:gpt-oss:20b"),  # a model name with an Ollama tag
        ("opena:gpt-4o", "openai:gpt-4o"),  # a misspelt provider
        ("google-genai:gemini-2.5-pro", "google_genai:gemini-2.5-pro"),
    ],
)
def test_an_unknown_provider_is_refused_with_the_known_ones(spec, suggestion):
    from langchain.chat_models.base import _BUILTIN_PROVIDERS

    provider = spec.split(":")[0]
    with pytest.raises(ModelSetupError) as info:
        check_model_spec(spec)
    said = str(info.value)
    assert said.startswith(f"unknown provider {provider!r} in {spec!r}; known: openai, anthropic")
    assert all(name in said for name in _BUILTIN_PROVIDERS)  # langchain's own table
    assert said.endswith(f"did you mean {suggestion!r}?")
    with pytest.raises(ValueError, match=re.escape(f"unknown provider {provider!r}")):
        RAGConfig(model=spec)


@pytest.mark.parametrize(
    "spec", ["ollama:llama3:8b", "ollama:gpt-oss:20b", "OpenAI:gpt-4o", "bedrock:a:b:c"]
)
def test_a_model_name_may_hold_colons_of_its_own(spec):
    check_model_spec(spec)


def test_an_unknown_provider_stops_the_cli_with_status_2_before_anything_loads(tmp_path, capsys):
    from citerag.cli import main

    assert main(["ask", "q", "--index", str(tmp_path / "none"), "--model", "gpt-oss:20b"]) == 2
    assert "did you mean 'ollama:gpt-oss:20b'?" in capsys.readouterr().err


_ENDPOINT_VARS = ("OPENAI_API_BASE", "OPENAI_BASE_URL", "OPENAI_API_KEY", "LANGSMITH_GATEWAY")


@pytest.mark.parametrize(
    ("env", "url"),
    [
        ({}, "https://api.openai.com/v1"),
        ({"OPENAI_BASE_URL": "http://127.0.0.1:8/v1"}, "http://127.0.0.1:8/v1"),
        ({"OPENAI_API_BASE": "http://127.0.0.1:9/v1"}, "http://127.0.0.1:9/v1"),
        (
            {
                "OPENAI_API_BASE": "http://127.0.0.1:9/v1",
                "OPENAI_BASE_URL": "http://127.0.0.1:8/v1",
            },
            "http://127.0.0.1:9/v1",
        ),
        (
            {"OPENAI_API_BASE": "", "OPENAI_BASE_URL": "http://127.0.0.1:8/v1"},
            "http://127.0.0.1:8/v1",
        ),
    ],
)
def test_the_endpoint_is_the_one_the_client_itself_picks(monkeypatch, env, url):
    pytest.importorskip("langchain_openai")
    from langchain_openai import ChatOpenAI

    for var in _ENDPOINT_VARS:
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    own = ChatOpenAI(model="m", api_key="sk-test")  # the client left to its own resolution
    assert str(own.root_client.base_url).rstrip("/") == url
    assert resolve_endpoint("openai:m", ModelSettings()).url == url
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    built = build_chat_model("openai:m")
    assert str(built.root_client.base_url).rstrip("/") == url  # type: ignore[attr-defined]
    setting = ModelSettings(base_url="http://127.0.0.1:7/v1")  # the setting beats them all
    assert resolve_endpoint("openai:m", setting) == Endpoint("http://127.0.0.1:7/v1", "base_url")


def test_an_endpoint_from_openai_api_base_needs_no_key_and_is_named_in_errors(monkeypatch):
    pytest.importorskip("langchain_openai")
    for var in _ENDPOINT_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("OPENAI_API_BASE", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:8/v1")  # the client ignores it
    model = build_chat_model("openai:m")  # a local server: no key needed
    assert str(model.root_client.base_url).rstrip("/") == "http://127.0.0.1:9/v1"  # type: ignore[attr-defined]
    failure = describe_model_error(_http_error(404), "openai:m", ModelSettings())
    assert failure.reason.startswith("http://127.0.0.1:9/v1 has no model 'm'")
    monkeypatch.delenv("OPENAI_BASE_URL")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    failure = describe_model_error(_http_error(401), "openai:m", ModelSettings())
    assert failure.reason.startswith("http://127.0.0.1:9/v1 refused the API key")


def test_a_missing_package_or_key_says_what_to_do(monkeypatch):
    import importlib.util

    with pytest.raises(ModelSetupError, match="needs the langchain-nosuch package: pip install"):
        build_chat_model("nosuch:model")
    if importlib.util.find_spec("langchain_anthropic") is None:
        with pytest.raises(ModelSetupError, match=r'pip install "citerag\[anthropic\]"'):
            build_chat_model("anthropic:claude-x")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    pytest.importorskip("langchain_openai")
    with pytest.raises(ModelSetupError, match="set OPENAI_API_KEY"):
        build_chat_model("openai:gpt-4.1-mini")
    monkeypatch.setenv("MY_KEY", "sk-test")
    model = build_chat_model(
        "openai:gpt-4.1-mini",
        ModelSettings(api_key_env="MY_KEY", timeout_s=7, max_retries=1, max_tokens=99),
    )
    assert (model.request_timeout, model.max_retries, model.max_tokens) == (7, 1, 99)
    local = build_chat_model("openai:llama", ModelSettings(base_url="http://127.0.0.1:9/v1"))
    assert local.openai_api_base == "http://127.0.0.1:9/v1"  # no key needed for a local server


def _http_error(status: int) -> Exception:
    import openai

    request = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
    response = httpx.Response(status, request=request, json={"error": {"message": "x"}})
    cls = {
        401: openai.AuthenticationError,
        404: openai.NotFoundError,
        429: openai.RateLimitError,
        500: openai.InternalServerError,
        400: openai.BadRequestError,
    }[status]
    return cls("x", response=response, body=None)


@pytest.mark.parametrize(
    ("status", "kind", "final", "says"),
    [
        (401, "auth", True, "set OPENAI_API_KEY to a valid key"),
        (404, "not_found", True, "has no model 'm' (404)"),
        (429, "rate_limit", True, "rate-limiting requests (429) after 2 retries"),
        (500, "server", False, "answered 500"),
        (400, "bad_request", True, "refused the request (400)"),
    ],
)
def test_http_errors_are_classified_with_a_fix(status, kind, final, says):
    pytest.importorskip("openai")
    failure = describe_model_error(_http_error(status), "openai:m", ModelSettings())
    assert (failure.kind, failure.final) == (kind, final)
    assert says in failure.reason and "\n" not in failure.reason


def test_timeouts_and_connection_errors_name_the_endpoint():
    settings = ModelSettings(base_url="http://127.0.0.1:9/v1", timeout_s=12)
    t = describe_model_error(ModelTimeoutError("stall"), "openai:m", settings)
    assert t.kind == "timeout" and t.final
    assert t.reason.startswith("no answer from http://127.0.0.1:9/v1 within 12 s")
    c = describe_model_error(httpx.ConnectError("refused"), "openai:m", settings)
    assert c.kind == "connection" and "cannot connect to http://127.0.0.1:9/v1" in c.reason
    other = describe_model_error(RuntimeError("boom"), "openai:m", settings)
    assert (other.kind, other.final, other.reason) == ("other", False, "RuntimeError: boom")


def test_prose_filter_hides_the_summary_block_split_anywhere():
    text = 'It is low insulation [1: "E-217"].\n<summary>{"sources": [1]}</summary>'
    for size in (1, 2, 3, 5, 9, len(text)):
        f = ProseFilter()
        shown = "".join(f.feed(text[i : i + size]) for i in range(0, len(text), size))
        shown += f.flush()
        assert shown == 'It is low insulation [1: "E-217"].\n', size
    f = ProseFilter()
    assert f.feed("a <sum") == "a "  # held back: could be the block
    assert f.feed("s up") == "<sums up"
    assert f.flush() == ""


def test_unknown_configurable_keys_are_refused_and_framework_keys_pass():
    check_configurable({"k": 3, "thread_id": "t", "__pregel_x": 1, "checkpoint_ns": ""})
    with pytest.raises(ValueError, match=r"'kk' \(did you mean 'k'\?\)"):
        check_configurable({"kk": 5})
    with pytest.raises(ValueError, match="'bogus_knob'"):
        check_configurable({"bogus_knob": 1})


def test_docs_model_settings_table_is_the_generated_one():
    from pathlib import Path

    from chains.models import settings_table_markdown

    page = Path(__file__).resolve().parents[2] / "docs" / "guides" / "your-own-model.md"
    text = page.read_text(encoding="utf-8")
    begin, end = "<!-- model-settings:begin -->", "<!-- model-settings:end -->"
    assert begin in text and end in text, f"{page.name} lacks the generated settings table"
    table = text.split(begin, 1)[1].split(end, 1)[0].strip()
    assert table == settings_table_markdown(), (
        "docs/guides/your-own-model.md: paste chains.models.settings_table_markdown() "
        "between the model-settings markers"
    )


def test_model_and_settings_from_the_environment():
    from graphs.config import model_knobs_from_env

    env = {
        "CITERAG_MODEL": "openai:qwen",
        "CITERAG_MODEL_BASE_URL": "http://127.0.0.1:8080/v1",
        "CITERAG_MODEL_TIMEOUT_S": "12",
        "CITERAG_MODEL_TEMPERATURE": "0.2",
        "CITERAG_MODEL_MAX_TOKENS": "",
    }
    assert model_knobs_from_env(env) == {
        "model": "openai:qwen",
        "model_base_url": "http://127.0.0.1:8080/v1",
        "model_timeout_s": 12.0,
        "temperature": 0.2,
    }
    with pytest.raises(ValueError, match=r"\$CITERAG_MODEL_MAX_RETRIES: .*integer"):
        model_knobs_from_env({"CITERAG_MODEL_MAX_RETRIES": "two"})


def test_server_model_table_and_environment(tmp_path):
    from citerag.server.settings import load_settings

    toml = tmp_path / "server.toml"
    toml.write_text(
        '[model]\nname = "openai:qwen"\nbase_url = "http://127.0.0.1:8080/v1"\ntimeout_s = 90\n'
        "[rag]\nk = 10\n",
        encoding="utf-8",
    )
    s = load_settings(toml, env={"CITERAG_MODEL_MAX_RETRIES": "0"})
    assert s.model == "openai:qwen"
    assert s.graph_defaults() == {
        "model": "openai:qwen",
        "model_base_url": "http://127.0.0.1:8080/v1",
        "model_timeout_s": 90.0,
        "model_max_retries": 0,
        "k": 10,
    }
    toml.write_text("[model]\ntimeout = 3\n", encoding="utf-8")
    with pytest.raises(
        ValueError, match=r"unknown setting \[model\] timeout; known: name, base_url"
    ):
        load_settings(toml, env={})
    toml.write_text("[model]\ntimeout_s = -1\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"\[model\] model setting timeout_s must be in"):
        load_settings(toml, env={})


def test_a_bare_timeout_error_is_an_ordinary_retryable_error():
    failure = describe_model_error(TimeoutError("t1"), "openai:m")
    assert (failure.kind, failure.final, failure.reason) == ("other", False, "TimeoutError: t1")
    read = describe_model_error(httpx.ReadTimeout("slow"), "openai:m")
    assert (read.kind, read.final) == ("timeout", True)


def test_cancel_generations_wakes_a_generation_waiting_on_a_stalled_model():
    import threading
    from typing import Any

    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import HumanMessage

    from chains.answerers import ChatModelAnswerer, ModelCancelledError, cancel_generations

    started, release = threading.Event(), threading.Event()

    class Stalled(BaseChatModel):
        @property
        def _llm_type(self) -> str:
            return "stalled"

        def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any):
            started.set()
            release.wait(30)
            raise RuntimeError("released")

    answerer = ChatModelAnswerer(Stalled(), settings=ModelSettings(timeout_s=600), structured="off")
    raised: list[BaseException] = []

    def run() -> None:
        try:
            answerer.generate("q", [], [HumanMessage(content="q")])
        except BaseException as exc:
            raised.append(exc)

    t = threading.Thread(target=run)
    t.start()
    assert started.wait(30)
    assert cancel_generations("the server is shutting down") == 1
    t.join(30)
    release.set()
    assert not t.is_alive()
    assert isinstance(raised[0], ModelCancelledError)
    failure = describe_model_error(raised[0], "openai:m")
    assert (failure.kind, failure.final) == ("cancelled", True)
    assert failure.reason == "the answer was abandoned: the server is shutting down"
    assert cancel_generations("nothing waits") == 0
