"""Server settings: TOML file, environment overrides, command-line overrides, validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from citerag.server.settings import DEFAULT_CLIENT_KEYS, ServerSettings, load_settings

REPO = Path(__file__).resolve().parents[2]


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_are_loopback_and_need_no_file():
    s = load_settings(env={})
    assert s.host == "127.0.0.1" and s.port == 8000
    assert s.tokens_file is None
    assert s.public_docs is False and s.playground is False
    assert s.client_config_keys == DEFAULT_CLIENT_KEYS
    assert "gate_threshold" not in s.client_config_keys
    assert "number_check" not in s.client_config_keys
    assert ".pdf" in s.allowed_types


def test_example_config_loads():
    s = load_settings(REPO / "examples" / "server.toml", env={})
    assert s.tokens_file == REPO / "examples" / "tokens.json"
    assert s.index_dir == REPO / ".citerag" / "demo-index"
    assert s.rag_defaults["retrieval_mode"] == "hybrid"
    # `make serve` takes every file type the guides list (docs/guides/serving.md: the default)
    assert s.allowed_types == ServerSettings().allowed_types


def test_toml_then_env_then_overrides(tmp_path: Path):
    cfg = write(
        tmp_path / "server.toml",
        """
[server]
port = 9000
host = "127.0.0.1"
[paths]
index = "idx"
tokens = "tok.json"
[limits]
max_upload_mb = 2
max_question_chars = 100
allowed_types = ["pdf", ".MD"]
[models]
answer = "extractive"
[rag]
k = 12
""",
    )
    s = load_settings(cfg, env={})
    assert s.port == 9000
    assert s.index_dir == tmp_path / "idx"  # relative to the file
    assert s.tokens_file == tmp_path / "tok.json"
    assert s.max_upload_bytes == 2 * 1024 * 1024
    assert s.allowed_types == (".pdf", ".md")
    assert s.graph_defaults() == {"model": "extractive", "k": 12}

    env = {
        "CITERAG_PORT": "9100",
        "CITERAG_INDEX": "other",
        "CITERAG_MAX_QUESTION_CHARS": "50",
        "CITERAG_PLAYGROUND": "yes",
        "CITERAG_MAX_UPLOAD_MB": "0.5",
        "CITERAG_HOST": "",  # empty: ignored
    }
    s = load_settings(cfg, env=env)
    assert s.port == 9100
    assert s.index_dir == Path("other")  # relative to the working directory
    assert s.max_question_chars == 50 and s.playground is True
    assert s.max_upload_bytes == 512 * 1024
    assert s.host == "127.0.0.1"

    s = load_settings(cfg, env=env, overrides={"port": 9200, "host": None})
    assert s.port == 9200


def test_config_file_from_environment(tmp_path: Path):
    cfg = write(tmp_path / "c.toml", "[server]\nport = 9300\n")
    assert load_settings(env={"CITERAG_CONFIG": str(cfg)}).port == 9300


@pytest.mark.parametrize(
    "toml",
    [
        "[server]\nprot = 1\n",  # typo
        "[limits]\nmax_upload_mb = -1\n",
        "[limits]\nmax_upload_mb = true\n",
        "[limits]\nmax_question_chars = 0\n",
        '[limits]\nallowed_types = [".exe"]\n',
        "[server]\nport = 70000\n",
        '[server]\nplayground = "maybe"\n',
        '[client]\nconfigurable = ["model"]\n',
        '[rag]\nretrieval_mode = "telepathy"\n',
        "[rag]\nnot_a_knob = 1\n",
        "port = 1\n",
        "[server\n",
    ],
)
def test_bad_config_is_refused(tmp_path: Path, toml: str):
    with pytest.raises(ValueError):
        load_settings(write(tmp_path / "bad.toml", toml), env={})


def test_bad_env_is_refused():
    with pytest.raises(ValueError, match="CITERAG_PORT"):
        load_settings(env={"CITERAG_PORT": "eighty"})


def test_missing_config_file():
    with pytest.raises(FileNotFoundError):
        load_settings("/nonexistent/server.toml", env={})


def test_validate_returns_self():
    s = ServerSettings()
    assert s.validate() is s


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        ("[server]\nprot = 9000\n", "unknown setting [server] prot (did you mean [server] port?)"),
        (
            "[limits]\nmax_upload_mbs = 9\n",
            "unknown setting [limits] max_upload_mbs (did you mean [limits] max_upload_mb?)",
        ),
        ("[rag]\nkk = 3\n", "[rag] unknown configuration key 'kk' (did you mean 'k'?)"),
    ],
)
def test_a_misspelled_toml_setting_names_the_file_and_the_closest_one(
    tmp_path: Path, toml: str, expected: str
) -> None:
    cfg = write(tmp_path / "server.toml", toml)
    with pytest.raises(ValueError) as exc:
        load_settings(cfg, env={})
    assert str(exc.value).startswith(f"{cfg}: {expected}")


def test_the_known_settings_include_the_model_table(tmp_path: Path) -> None:
    with pytest.raises(ValueError) as exc:
        load_settings(write(tmp_path / "server.toml", "[server]\nnope = 1\n"), env={})
    assert "[model] base_url" in str(exc.value) and "[model] name" in str(exc.value)
