"""Chat models from a spec plus settings: built in one place, bounded in time, explained.

A model is a provider string (``openai:gpt-4.1-mini``, ``anthropic:claude-sonnet-4-5``,
``ollama:llama3.1``; any ``init_chat_model`` string) plus :class:`ModelSettings`
(``base_url``, ``api_key_env``, ``temperature``, ``max_tokens``, ``timeout_s``,
``max_retries``). :data:`MODEL_SETTINGS` describes each setting once; the CLI's
``--model-setting KEY=VALUE``, the server TOML's ``[model]`` table and the ``model_*`` knobs of
:class:`graphs.config.RAGConfig` are all read through it.

:func:`build_chat_model` turns a spec into a LangChain ``BaseChatModel``. What can be known
before a call is checked here and raised as :class:`ModelSetupError` with one line that says
what to do (``pip install "citerag[openai]"``, ``set OPENAI_API_KEY``). What goes wrong during
a call is classified by :func:`describe_model_error` into a :class:`ModelFailure`: a kind
(``timeout``, ``connection``, ``auth``, ``rate_limit``, ``not_found``, ``bad_request``,
``server``, ``bad_response``, ``setup``, ``cancelled``, ``other``), a one-line reason and
whether another attempt can help.
"""

from __future__ import annotations

import difflib
import importlib.util
import logging
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel

log = logging.getLogger(__name__)

#: Default longest wait, in seconds, for a model's first token or its next one.
DEFAULT_TIMEOUT_S = 60.0
#: Default retries of one request before its first token (connection errors, 429, 5xx).
DEFAULT_MAX_RETRIES = 2

FailureKind = Literal[
    "timeout",
    "connection",
    "auth",
    "rate_limit",
    "not_found",
    "bad_request",
    "server",
    "bad_response",
    "setup",
    "cancelled",
    "other",
]
#: Failure kinds another generation attempt cannot fix (the client already retried what is
#: retryable, and a timeout would double the wait past the deadline).
FINAL_KINDS: frozenset[str] = frozenset(
    {
        "timeout",
        "connection",
        "auth",
        "rate_limit",
        "not_found",
        "bad_request",
        "setup",
        "cancelled",
    }
)


@dataclass(frozen=True)
class Provider:
    """What citerag knows about one ``init_chat_model`` provider.

    Attributes:
        package: The LangChain partner package on PyPI.
        module: Its import name.
        extra: The citerag extra that installs it (``""`` when there is none).
        key_env: The environment variable holding its API key (``""``: none needed).
        base_url_envs: The environment variables its client reads a base URL from, in the
            client's own order (the first one set wins): :func:`resolve_endpoint` follows it.
        default_url: Where it connects when no base URL is given.
        timeout_arg: The constructor argument for the request timeout.
        retries_arg: The constructor argument for client retries (``""``: none).
        tokens_arg: The constructor argument for the longest answer.
    """

    package: str
    module: str
    extra: str = ""
    key_env: str = ""
    base_url_envs: tuple[str, ...] = ()
    default_url: str = ""
    timeout_arg: str = "timeout"
    retries_arg: str = "max_retries"
    tokens_arg: str = "max_tokens"


#: Providers with settings citerag maps; any other ``init_chat_model`` provider works with
#: the settings it accepts under these same names. The base-URL variables are listed in the
#: order each client reads them: ``ChatOpenAI`` takes ``OPENAI_API_BASE``, then the ``openai``
#: SDK ``OPENAI_BASE_URL``; ``ChatAnthropic`` ``ANTHROPIC_API_URL``, then
#: ``ANTHROPIC_BASE_URL``; the ``ollama`` client ``OLLAMA_HOST``.
PROVIDERS: dict[str, Provider] = {
    "openai": Provider(
        "langchain-openai",
        "langchain_openai",
        "openai",
        "OPENAI_API_KEY",
        ("OPENAI_API_BASE", "OPENAI_BASE_URL"),
        "https://api.openai.com/v1",
    ),
    "anthropic": Provider(
        "langchain-anthropic",
        "langchain_anthropic",
        "anthropic",
        "ANTHROPIC_API_KEY",
        ("ANTHROPIC_API_URL", "ANTHROPIC_BASE_URL"),
        "https://api.anthropic.com",
        timeout_arg="default_request_timeout",
    ),
    "ollama": Provider(
        "langchain-ollama",
        "langchain_ollama",
        "ollama",
        "",
        ("OLLAMA_HOST",),
        "http://127.0.0.1:11434",
        timeout_arg="",
        retries_arg="",
        tokens_arg="num_predict",
    ),
    "google_genai": Provider(
        "langchain-google-genai", "langchain_google_genai", "", "GOOGLE_API_KEY"
    ),
    "mistralai": Provider("langchain-mistralai", "langchain_mistralai", "", "MISTRAL_API_KEY"),
    "groq": Provider("langchain-groq", "langchain_groq", "", "GROQ_API_KEY"),
}


def _setting(default: Any, description: str, kind: str, **bounds: Any) -> Any:
    return field(default=default, metadata={"description": description, "kind": kind, **bounds})


@dataclass(frozen=True)
class ModelSettings:
    """How a chat model is reached and bounded (every field has a safe default).

    Attributes:
        base_url: The endpoint (an OpenAI-compatible server: ``http://127.0.0.1:8080/v1``);
            ``None`` = the provider's own, or its ``*_BASE_URL`` environment variable.
        api_key_env: The environment variable holding the key (``None`` = the provider's,
            e.g. ``OPENAI_API_KEY``). Keys are never settings themselves: a key in a config
            file or a command line ends up in logs and shell histories.
        temperature: Sampling temperature (``None`` = the run's ``temperature`` knob).
        max_tokens: Longest answer in tokens (``None`` = the provider's default).
        timeout_s: Longest wait for the first token, or for the next one while the answer
            streams; a stall past it ends the attempt ``failed`` with the reason.
        max_retries: Retries of one request that failed before its first token
            (connection errors, 429, 5xx), made by the watchdog (:mod:`chains.watchdog`;
            the client citerag builds makes none itself).
    """

    base_url: str | None = _setting(
        None, "endpoint URL (an OpenAI-compatible server); default: the provider's", "str"
    )
    api_key_env: str | None = _setting(
        None, "environment variable with the API key; default: the provider's", "str"
    )
    temperature: float | None = _setting(
        None, "sampling temperature; default: the `temperature` knob", "float", lo=0.0, hi=2.0
    )
    max_tokens: int | None = _setting(
        None, "longest answer in tokens; default: the provider's", "int", lo=1, hi=200_000
    )
    timeout_s: float = _setting(
        DEFAULT_TIMEOUT_S,
        "longest wait for the first token or the next one (a stall ends the run `failed`)",
        "float",
        lo=0.1,
        hi=3600.0,
    )
    max_retries: int = _setting(
        DEFAULT_MAX_RETRIES,
        "retries of one request before its first token (connection errors, 429, 5xx)",
        "int",
        lo=0,
        hi=10,
    )

    def __post_init__(self) -> None:
        """Check every value against :data:`MODEL_SETTINGS`.

        Raises:
            ValueError: Naming the setting, the value and what is allowed.
        """
        for name, meta in MODEL_SETTINGS.items():
            check_setting(name, getattr(self, name), meta)

    @classmethod
    def from_mapping(cls, values: dict[str, Any]) -> ModelSettings:
        """Settings from a mapping (a TOML table, parsed ``KEY=VALUE`` pairs).

        Raises:
            ValueError: An unknown setting (named, with the known ones) or a bad value.
        """
        unknown = sorted(set(values) - set(MODEL_SETTINGS))
        if unknown:
            raise ValueError(
                f"unknown model setting(s) {unknown}; known: {', '.join(MODEL_SETTINGS)}"
            )
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """Every setting and its value."""
        return {name: getattr(self, name) for name in MODEL_SETTINGS}


#: Each model setting's metadata (``description``, ``kind``, bounds), in declaration order.
MODEL_SETTINGS: dict[str, dict[str, Any]] = {
    f.name: dict(f.metadata) for f in fields(ModelSettings)
}
#: Knob name (:class:`graphs.config.RAGConfig` field) of each chat-model setting but the
#: temperature, which is the ``temperature`` knob.
MODEL_KNOBS: dict[str, str] = {
    f"model_{name}": name for name in MODEL_SETTINGS if name != "temperature"
}


def check_setting(name: str, value: Any, meta: dict[str, Any] | None = None) -> None:
    """Validate one setting's value.

    Raises:
        ValueError: Naming the setting, the value and what is allowed.
    """
    meta = meta or MODEL_SETTINGS.get(name)
    if meta is None:
        raise ValueError(f"unknown model setting {name!r}; known: {', '.join(MODEL_SETTINGS)}")
    if value is None:
        if name in ("timeout_s", "max_retries"):
            raise ValueError(f"model setting {name} must be set (got None)")
        return
    kind = meta["kind"]
    if kind == "str":
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"model setting {name} must be a non-empty string, not {value!r}")
        return
    ok_type = (
        isinstance(value, int) and not isinstance(value, bool)
        if kind == "int"
        else isinstance(value, int | float) and not isinstance(value, bool)
    )
    if not ok_type or (kind == "float" and not math.isfinite(float(value))):
        what = "an integer" if kind == "int" else "a number"
        raise ValueError(f"model setting {name} must be {what}, not {value!r}")
    lo, hi = meta.get("lo"), meta.get("hi")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise ValueError(f"model setting {name} must be in [{lo}, {hi}], not {value!r}")


def parse_setting(name: str, text: str) -> Any:
    """Parse ``--model-setting NAME=TEXT`` into a checked value.

    Raises:
        ValueError: An unknown setting or a value that does not parse or is out of range.
    """
    meta = MODEL_SETTINGS.get(name)
    if meta is None:
        raise ValueError(f"unknown model setting {name!r}; known: {', '.join(MODEL_SETTINGS)}")
    value: Any = text
    if text.strip().lower() in ("", "none", "null", "default"):
        value = None
    elif meta["kind"] == "int":
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"model setting {name} must be an integer, not {text!r}") from None
    elif meta["kind"] == "float":
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"model setting {name} must be a number, not {text!r}") from None
    check_setting(name, value, meta)
    return value


class ModelSetupError(ValueError):
    """A chat model cannot be built; the message is one line that says what to do."""


#: Model specs that name no chat-model provider: the offline extractive answerer and the
#: bundled local model (:mod:`chains.local_llm`); ``local:<path>`` is a local model too.
OFFLINE_SPECS: tuple[str, ...] = ("extractive", "default", "smollm2")
#: Prefix of a local model's spec (``local:<directory or .gguf file>``).
LOCAL_PREFIX = "local:"
#: The accepted forms of a model spec, for messages.
SPEC_FORMS = (
    "'extractive', 'smollm2', 'local:<path>' or a provider:model string such as "
    "'openai:gpt-4.1-mini', 'anthropic:claude-sonnet-4-5' or 'ollama:llama3.1'"
)


def _provider_guess(name: str) -> str | None:
    """The provider LangChain's ``init_chat_model`` would infer for a bare model name (only
    to suggest a spec: the inference is a private name-prefix heuristic), if any."""
    try:
        from langchain.chat_models.base import _attempt_infer_model_provider

        guess = _attempt_infer_model_provider(name)
    except Exception:  # the private helper moved or changed: no suggestion
        return None
    return guess if isinstance(guess, str) and guess else None


def known_providers() -> tuple[str, ...] | None:
    """The providers LangChain's ``init_chat_model`` reads from a ``provider:model`` string
    in the installed ``langchain`` (its ``_BUILTIN_PROVIDERS``; a string whose prefix is not
    one of them is read as a bare model name, its provider guessed), citerag's documented
    ones (:data:`PROVIDERS`) first; ``None`` when that table cannot be read (it moved in
    another ``langchain`` version: no check then)."""
    try:
        from langchain.chat_models.base import _BUILTIN_PROVIDERS
    except Exception:  # the private table moved or changed: no check
        return None
    if not isinstance(_BUILTIN_PROVIDERS, Mapping) or not _BUILTIN_PROVIDERS:
        return None
    builtin = {str(name) for name in _BUILTIN_PROVIDERS}
    first = [name for name in PROVIDERS if name in builtin]
    return (*first, *sorted(builtin.difference(first)))


def _check_provider(spec: str, provider: str, name: str) -> None:
    """Refuse a provider ``init_chat_model`` does not know (:func:`known_providers`), with a
    suggestion: the known provider it is a misspelling of, else the spec as an Ollama model
    (``gpt-oss:20b`` is a model name with an Ollama tag).

    Raises:
        ModelSetupError: Naming the provider, the spec and the known providers.
    """
    known = known_providers()
    if known is None or provider in known:
        return
    close = difflib.get_close_matches(provider, known, n=1, cutoff=0.75)
    guess = f"{close[0]}:{name}" if close else f"ollama:{spec.strip()}"
    raise ModelSetupError(
        f"unknown provider {provider!r} in {spec!r}; known: {', '.join(known)}; "
        f"did you mean {guess!r}?"
    )


def split_spec(spec: str) -> tuple[str, str]:
    """``"openai:gpt-4.1-mini"`` -> ``("openai", "gpt-4.1-mini")``.

    A bare model name (``gpt-4o-mini``) is refused rather than guessed: the provider decides
    the key variable, the endpoint variables and the package, so it is written out (the
    message suggests the spec LangChain's name heuristic would pick).

    Raises:
        ModelSetupError: No ``provider:`` prefix or no model name; the message names the
            value and lists the accepted forms.
    """
    provider, sep, name = spec.partition(":")
    if not sep or not provider.strip() or not name.strip():
        guess = _provider_guess(spec.strip()) if not sep and spec.strip() else None
        hint = f" (did you mean '{guess}:{spec.strip()}'?)" if guess else ""
        raise ModelSetupError(f"model {spec!r} is not a model spec{hint}: use {SPEC_FORMS}")
    return provider.strip().lower(), name.strip()


def check_model_spec(spec: str) -> None:
    """Validate a model spec where it enters (``--model``, ``$CITERAG_MODEL``, the server's
    ``[model] name``, the ``model`` knob), before any model loads.

    A ``provider:model`` spec must name a provider ``init_chat_model`` knows
    (:func:`known_providers`); the model name after it may hold colons of its own
    (``ollama:llama3:8b``).

    Raises:
        ModelSetupError: Naming the value and the accepted forms (:data:`SPEC_FORMS`), or
            the unknown provider and the known ones.
    """
    if spec in OFFLINE_SPECS:
        return
    if spec.startswith(LOCAL_PREFIX):
        if not spec[len(LOCAL_PREFIX) :].strip():
            raise ModelSetupError(
                f"model {spec!r} names no local model (local:<directory or .gguf file>): "
                f"use {SPEC_FORMS}"
            )
        return
    _check_provider(spec, *split_spec(spec))


def provider_of(spec: str) -> Provider:
    """The :class:`Provider` of a spec (a generic ``langchain-<provider>`` when unknown)."""
    name = split_spec(spec)[0]
    known = PROVIDERS.get(name)
    if known is not None:
        return known
    package = f"langchain-{name.replace('_', '-')}"
    return Provider(package, package.replace("-", "_"))


@dataclass(frozen=True)
class Endpoint:
    """Where a chat model's requests go, and what chose it.

    Attributes:
        url: The URL (or ``the <provider> API`` when citerag does not know the default).
        source: ``base_url`` (the setting), ``$<VARIABLE>`` (an environment variable its
            client reads) or ``default`` (the provider's own endpoint).
    """

    url: str
    source: str

    @property
    def custom(self) -> bool:
        """Whether the endpoint is not the provider's own (a local server, a proxy)."""
        return self.source != "default"


def resolve_endpoint(spec: str, settings: ModelSettings) -> Endpoint:
    """Where a spec's requests go, resolved in its client's own order: the ``base_url``
    setting, then the provider's base-URL variables (:attr:`Provider.base_url_envs`, the
    first non-empty one), then the provider's default.

    :func:`build_chat_model` passes a URL found here to the client, decides with it whether
    a key is required, and the failure messages name it: one answer everywhere.

    Raises:
        ModelSetupError: ``spec`` is not a ``provider:model`` string.
    """
    p = provider_of(spec)
    if settings.base_url:
        return Endpoint(settings.base_url, "base_url")
    for var in p.base_url_envs:
        value = os.environ.get(var, "").strip()
        if value:
            return Endpoint(value, f"${var}")
    return Endpoint(p.default_url or f"the {split_spec(spec)[0]} API", "default")


def endpoint_of(spec: str, settings: ModelSettings) -> str:
    """Where a spec's requests go, for messages (:func:`resolve_endpoint`'s URL)."""
    try:
        return resolve_endpoint(spec, settings).url
    except ModelSetupError:
        return "the model"


def install_hint(p: Provider) -> str:
    """How to install a provider's package."""
    if p.extra:
        return f'pip install "citerag[{p.extra}]" (or pip install {p.package})'
    return f"pip install {p.package}"


def build_chat_model(
    spec: str | BaseChatModel,
    settings: ModelSettings | None = None,
    *,
    temperature: float = 0.0,
) -> BaseChatModel:
    """Build the chat model a spec names, with its timeout, retries and endpoint.

    Args:
        spec: An ``init_chat_model`` string (``provider:model``), or a chat model instance
            (returned unchanged: it carries its own settings).
        settings: Endpoint, key variable, limits (default: :class:`ModelSettings`).
        temperature: Used when ``settings.temperature`` is ``None``.

    Returns:
        The chat model.

    Raises:
        ModelSetupError: The provider's package is missing, its API key is not set, or the
            provider refused the arguments; the message says what to do.
    """
    if isinstance(spec, BaseChatModel):
        return spec
    settings = settings or ModelSettings()
    provider_name, model_name = split_spec(spec)
    p = provider_of(spec)
    if importlib.util.find_spec(p.module) is None:
        raise ModelSetupError(f"model {spec!r} needs the {p.package} package: {install_hint(p)}")
    kwargs: dict[str, Any] = {
        "temperature": settings.temperature if settings.temperature is not None else temperature
    }
    if settings.max_tokens is not None:
        kwargs[p.tokens_arg] = settings.max_tokens
    if p.timeout_arg:
        kwargs[p.timeout_arg] = settings.timeout_s
    elif provider_name == "ollama":
        kwargs["client_kwargs"] = {"timeout": settings.timeout_s}
    if p.retries_arg:
        kwargs[p.retries_arg] = settings.max_retries
    endpoint = resolve_endpoint(spec, settings)
    if endpoint.custom:  # passed on, so the client cannot resolve it differently
        kwargs["base_url"] = endpoint.url
    key_env = settings.api_key_env or p.key_env
    if key_env:
        key = os.environ.get(key_env, "").strip()
        if key:
            kwargs["api_key"] = key
        elif endpoint.custom:
            # a local OpenAI-compatible server usually wants no key, but the client insists
            kwargs["api_key"] = "not-needed"
        else:
            raise ModelSetupError(
                f"model {spec!r} needs an API key: set {key_env} (or point "
                f"--model-setting api_key_env=NAME at the variable that holds it)"
            )
    from langchain.chat_models import init_chat_model

    try:
        model = init_chat_model(f"{provider_name}:{model_name}", **kwargs)
    except ImportError as exc:
        raise ModelSetupError(
            f"model {spec!r} needs the {p.package} package: {install_hint(p)} ({exc})"
        ) from exc
    except Exception as exc:  # a provider refusing an argument: one line, not a traceback
        raise ModelSetupError(f"model {spec!r} could not be built: {_one_line(exc)}") from exc
    log.info("chat model %s (%s, from %s)", spec, endpoint.url, endpoint.source)
    return model


@dataclass(frozen=True)
class ModelFailure:
    """One failed model call, classified.

    Attributes:
        kind: What went wrong (:data:`FailureKind`).
        reason: One line that says what happened and what to do.
        final: Whether another generation attempt cannot help.
    """

    kind: FailureKind
    reason: str
    final: bool


class ModelTimeoutError(TimeoutError):
    """No token arrived within ``timeout_s`` (raised by the answerer's watchdog)."""


def _one_line(exc: BaseException, limit: int = 200) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _status(exc: BaseException) -> int | None:
    for holder in (exc, getattr(exc, "response", None)):
        code = getattr(holder, "status_code", None)
        if isinstance(code, int):
            return code
    return None


def _names(exc: BaseException) -> set[str]:
    return {c.__name__ for c in type(exc).__mro__}


#: Functions of the HTTP stack (httpcore's and httpx's, sync and async) that read a
#: response's body: a connection error raised inside one came after the server had answered
#: the request and started sending its reply.
_BODY_READERS = frozenset({"_receive_response_body", "iter_raw", "aiter_raw"})
#: Exception classes of a connection that failed or was closed (the clients' and httpx's).
_CONNECTION_ERRORS = frozenset(
    {"APIConnectionError", "ConnectError", "ConnectionError", "RemoteProtocolError", "ReadError"}
)
#: What ``langchain_core`` raises (a plain ``ValueError``) when a streamed call yields nothing.
_NO_CHUNKS = "No generation chunks were returned"


def _while_reading_body(chain: list[BaseException]) -> bool:
    """Whether one of the exceptions was raised while a response body was being read."""
    for exc in chain:
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_name in _BODY_READERS:
                return True
            tb = tb.tb_next
    return False


def describe_model_error(
    exc: BaseException,
    spec: str = "",
    settings: ModelSettings | None = None,
) -> ModelFailure:
    """Classify a model call's exception and say what to do about it.

    Args:
        exc: What the call raised (its cause chain is read too).
        spec: The model spec, for the endpoint and key names in the message.
        settings: The model's settings (timeout, retries, endpoint).

    Returns:
        The failure's kind, a one-line reason and whether retrying cannot help.
    """
    settings = settings or ModelSettings()
    where = endpoint_of(spec, settings) if spec else "the model"
    try:
        key_env = settings.api_key_env or (provider_of(spec).key_env if spec else "")
    except ModelSetupError:
        key_env = settings.api_key_env or ""
    chain: list[BaseException] = []
    cur: BaseException | None = exc
    while cur is not None and len(chain) < 8:
        chain.append(cur)
        cur = cur.__cause__ or cur.__context__
    names = set().union(*(_names(e) for e in chain))
    status = next((s for s in map(_status, chain) if s is not None), None)
    detail = _one_line(exc)
    if isinstance(exc, ModelSetupError):
        return ModelFailure("setup", str(exc), True)
    if "ModelCancelledError" in names:
        return ModelFailure("cancelled", f"the answer was abandoned: {detail}", True)
    # the watchdog's deadline or an HTTP client's timeout (a bare TimeoutError a model raises
    # at once is an ordinary error, retried by the ladder)
    if isinstance(exc, ModelTimeoutError) or names & {
        "APITimeoutError",
        "TimeoutException",
        "ReadTimeout",
        "ConnectTimeout",
        "WriteTimeout",
        "PoolTimeout",
    }:
        return ModelFailure(
            "timeout",
            f"no answer from {where} within {settings.timeout_s:g} s "
            "(is the server up and the model loaded? raise timeout_s for a slow model)",
            True,
        )
    if status == 401 or names & {"AuthenticationError", "PermissionDeniedError"} or status == 403:
        fix = f"set {key_env} to a valid key" if key_env else "check the API key"
        return ModelFailure("auth", f"{where} refused the API key ({status or 401}): {fix}", True)
    if status == 429 or "RateLimitError" in names:
        return ModelFailure(
            "rate_limit",
            f"{where} is rate-limiting requests (429) after {settings.max_retries} retries: "
            "wait and ask again, or raise max_retries",
            True,
        )
    if status == 404 or "NotFoundError" in names:
        return ModelFailure(
            "not_found",
            f"{where} has no model {split_spec(spec)[1] if spec else ''!r} (404): check the "
            "model name (for a local server, the name it serves)",
            True,
        )
    if names & _CONNECTION_ERRORS and _while_reading_body(chain):
        # the server was reached and had started its reply: a crash, a restart or a proxy
        # cutting a long response, which another attempt may get past (like a 5xx)
        return ModelFailure(
            "server",
            f"the model server at {where} closed the connection in the middle of its answer "
            "(did it crash or restart, or did a proxy cut the response?)",
            False,
        )
    if names & _CONNECTION_ERRORS:
        return ModelFailure(
            "connection",
            f"cannot connect to {where}: {detail} (is the server running? check base_url)",
            True,
        )
    if status is not None and status >= 500:
        return ModelFailure("server", f"{where} answered {status}: {detail}", False)
    if status is not None and 400 <= status < 500:
        return ModelFailure(
            "bad_request", f"{where} refused the request ({status}): {detail}", True
        )
    if isinstance(exc, ImportError):
        return ModelFailure("setup", f"a package is missing: {detail}", True)
    if "JSONDecodeError" in names and "OutputParserException" not in names:
        # the reply itself (not the model's text in it) does not parse: a proxy's error page,
        # a truncated body, a base_url that is no chat-completions API
        return ModelFailure(
            "bad_response",
            f"the model server at {where} answered with malformed JSON: is "
            "base_url the API's address (an OpenAI-compatible one usually ends in /v1)?",
            False,
        )
    if any(isinstance(e, ValueError) and str(e) == _NO_CHUNKS for e in chain):
        return ModelFailure(
            "bad_response",
            f"the model server at {where} sent no streamed tokens (does it support stream=true?)",
            False,
        )
    return ModelFailure("other", f"{type(exc).__name__}: {detail}", False)


def settings_table_markdown() -> str:
    """The settings table of docs/guides/your-own-model.md, from :data:`MODEL_SETTINGS`."""
    knob_of = {setting: name for name, setting in MODEL_KNOBS.items()}
    knob_of["temperature"] = "temperature"
    defaults = {f.name: f.default for f in fields(ModelSettings)}
    rows = [
        "| setting | knob | default | range | meaning |",
        "|---|---|---|---|---|",
    ]
    for name, meta in MODEL_SETTINGS.items():
        default = defaults[name]
        shown = (
            "–"
            if default is None
            else f"`{default:g}`"
            if isinstance(default, float)
            else f"`{default}`"
        )
        lo, hi = meta.get("lo"), meta.get("hi")
        rng = "text" if meta["kind"] == "str" else f"{lo:g} – {hi:g}"
        rows.append(f"| `{name}` | `{knob_of[name]}` | {shown} | {rng} | {meta['description']} |")
    return "\n".join(rows)
