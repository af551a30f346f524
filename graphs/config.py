"""Run configuration: one dataclass, read from ``RunnableConfig["configurable"]``.

LangServe forwards only ``configurable``, so every per-request knob lives here, e.g.::

    graph.invoke({"question": "..."}, {"configurable": {"retrieval_mode": "bm25", "k": 10}})

Each field carries its description, bounds and client policy as dataclass field metadata
(:class:`Knob`). That metadata is the single source of truth from which validation, the
LangServe ``configurable`` schema, the server's allow-list, the trace's config block and the
configuration table of ``docs/reference/configuration.md`` are all derived.
"""

from __future__ import annotations

import copy
import difflib
import math
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Literal, Self

from langchain_core.runnables import RunnableConfig

from chains.answer_checks import DEFAULT_RULES
from chains.answerers import READ_PASSAGES

# MODEL_KNOBS is read here by the server's and the CLI's settings too
from chains.models import MODEL_KNOBS as MODEL_KNOBS
from chains.models import MODEL_SETTINGS, ModelSettings, check_model_spec

#: Who may set a knob over HTTP: ``yes`` (by default), ``opt-in`` (only when the server's
#: settings list it; these knobs decide when the service refuses) or ``no`` (never).
ClientPolicy = Literal["yes", "opt-in", "no"]


@dataclass(frozen=True)
class Knob:
    """Field metadata of one request knob.

    Attributes:
        description: One line for schemas, the CLI and the docs' table.
        kind: ``int``, ``float``, ``bool``, ``str`` or ``choice``.
        lo: Smallest allowed value (numbers).
        hi: Largest allowed value (numbers).
        choices: Allowed values (``choice``).
        client: Who may set it over HTTP (:data:`ClientPolicy`).
        client_choices: A narrower set of values clients may send (e.g. rerankers that need
            no model download).
        nullable: ``None`` is allowed (means "derived", e.g. the calibrated threshold).
        default_text: How the docs' table shows the default, when the value itself would mislead.
    """

    description: str
    kind: Literal["int", "float", "bool", "str", "choice"]
    lo: float | None = None
    hi: float | None = None
    choices: tuple[str, ...] = ()
    client: ClientPolicy = "no"
    client_choices: tuple[str, ...] = ()
    nullable: bool = False
    default_text: str = ""

    def check(self, name: str, value: Any) -> None:
        """Validate one value.

        Raises:
            ValueError: Naming the knob, the value and what is allowed.
        """
        if value is None:
            if self.nullable:
                return
            raise ValueError(f"{name} must be set, not None")
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be true or false, not {value!r}")
            return
        if self.kind == "choice":
            if value not in self.choices:
                raise ValueError(f"{name} must be one of {', '.join(self.choices)}, not {value!r}")
            return
        if self.kind == "str":
            if not isinstance(value, str) or not value:
                raise ValueError(f"{name} must be a non-empty string, not {value!r}")
            return
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{name} must be a number, not {value!r}")
        if self.kind == "int" and not isinstance(value, int):
            raise ValueError(f"{name} must be an integer, not {value!r}")
        if not math.isfinite(value):
            raise ValueError(f"{name} must be finite, not {value!r}")
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise ValueError(f"{name} must be {self.bounds_text()}, not {value!r}")

    def bounds_text(self) -> str:
        """Human-readable range, e.g. ``an integer from 1 to 200``."""
        what = "an integer" if self.kind == "int" else "a number"

        def num(x: float | None) -> str:
            return "" if x is None else (str(int(x)) if self.kind == "int" else f"{x:g}")

        if self.lo is not None and self.hi is not None:
            return f"{what} from {num(self.lo)} to {num(self.hi)}"
        if self.lo is not None:
            return f"{what} of at least {num(self.lo)}"
        if self.hi is not None:
            return f"{what} of at most {num(self.hi)}"
        return what


def knob(default: Any, description: str, kind: str, **meta: Any) -> Any:
    """A dataclass field with its :class:`Knob` metadata."""
    return field(default=default, metadata={"knob": Knob(description, kind, **meta)})  # type: ignore[arg-type]


def model_knob(setting: str) -> Any:
    """A knob for one chat-model setting, its default, description and bounds taken from
    :data:`chains.models.MODEL_SETTINGS` (never settable by clients: an endpoint or a key
    variable chosen by a caller would let them point the server anywhere)."""
    meta = MODEL_SETTINGS[setting]
    default = next(f.default for f in fields(ModelSettings) if f.name == setting)
    return knob(
        default,
        f"chat model: {meta['description']}",
        meta["kind"],
        lo=meta.get("lo"),
        hi=meta.get("hi"),
        nullable=default is None,
    )


@dataclass
class RAGConfig:
    """Every knob of the answering graph, with its default.

    Each field is declared with :func:`knob`: its default, and in the field's metadata
    (:class:`Knob`) its description, kind, bounds and whether a client may set it. That
    metadata is the one description of each knob: the table of
    ``docs/reference/configuration.md`` (:func:`config_table_markdown`), the checks of
    :meth:`from_runnable_config` and the clients' policy are all read from it.
    """

    condense: str = knob(
        "auto",
        "follow-up questions (the `condense` node): `auto` rewrites one with the rewrite chat "
        "model when one is configured (the injected `rewriter`, else the answering chat model), "
        "else with the offline rule; `rule` always uses the offline rule; `off` answers every "
        "question as written",
        "choice",
        choices=("auto", "rule", "off"),
        client="yes",
    )
    directions: bool = knob(
        True,
        "set a question's directions to the answerer apart from what it asks (a role, "
        '"answer in USD millions", "round to two decimals", "here\'s the question:"; '
        "`chains/directions.py`): retrieval, reranking and the extractive answerer's checks "
        "read the ask, a chat model the whole question; off: everything reads the whole question",
        "bool",
        client="yes",
    )
    constraints: bool = knob(
        True,
        "read the company, period and document type a question names and search only the "
        "documents that match (hard filter when the match is exact, a boost otherwise); "
        "`no_evidence` naming the constraint when no document you may read matches",
        "bool",
        client="yes",
    )
    retrieval_mode: str = knob(
        "hybrid",
        "first-stage retrieval: `dense`, `bm25` or `hybrid` (reciprocal rank fusion)",
        "choice",
        choices=("dense", "bm25", "hybrid"),
        client="yes",
    )
    k_dense: int = knob(20, "depth of the dense list", "int", lo=1, hi=200, client="yes")
    k_bm25: int = knob(20, "depth of the BM25 list", "int", lo=1, hi=200, client="yes")
    k: int = knob(
        20,
        "candidates kept after fusion, passed to the second stage",
        "int",
        lo=1,
        hi=200,
        client="yes",
    )
    rrf_k: int = knob(60, "reciprocal rank fusion constant", "int", lo=1, hi=1000)
    reranker: str = knob(
        "sentence",
        "second stage: `sentence` (= `sentence-hybrid`), `sentence-maxsim`, `none`, or "
        "`cross-encoder:NAME_OR_DIR` (clients: `sentence` or `none`)",
        "str",
        client="yes",
        client_choices=("sentence", "none"),
    )
    gate_score: str = knob(
        "rerank",
        "score the gate compares: `rerank` (second stage), `dense` (chunk cosine) or "
        "`answerability` (a calibrated logistic model over the retrieval and second-stage "
        "signals; see the gate section)",
        "choice",
        choices=("rerank", "dense", "answerability"),
    )
    gate_threshold: float | None = knob(
        None,
        "minimum best score to answer; unset = `INDEX/calibration.json`, else "
        "`chains/gate_defaults.json`; a reranker with neither gates on the dense cosine, "
        "with a warning and a trace note",
        "float",
        client="opt-in",
        nullable=True,
        default_text="calibrated",
    )
    max_passages: int = knob(5, "passages in the model's context", "int", lo=1, hi=20, client="yes")
    token_budget: int = knob(
        1800,
        "estimated tokens for passages; lowest-ranked dropped first",
        "int",
        lo=100,
        hi=16000,
        client="yes",
    )
    dedupe_threshold: float = knob(
        0.8, "5-word-shingle containment counted as a near-duplicate", "float", lo=0.0, hi=1.0
    )
    per_page: int = knob(
        0,
        "chunks of one page (a PDF page, a slide) kept in the second stage's order; its "
        "further chunks move after every other chunk, so one statement page cut into several "
        "chunks does not fill the passages (`1`: each page's best chunk first; `0` = off; "
        "chunks without a page never move)",
        "int",
        lo=0,
        hi=20,
        client="yes",
    )
    mmr_lambda: float = knob(
        1.0,
        "maximal marginal relevance when assembling: relevance weight against overlap with "
        "passages already taken (`1` = rank order; e.g. `0.7` keeps copies of one row or "
        "boilerplate from crowding the context)",
        "float",
        lo=0.0,
        hi=1.0,
        client="yes",
    )
    expand: str = knob(
        "none",
        "parent expansion when assembling: `table` shows the model the rest of a matched table "
        "row's table, `section` the rest of every matched chunk's section, with the budget the "
        "passages leave (`token_budget`); `[n]` still cites only the matched chunk; `none` "
        "shows the chunks alone",
        "choice",
        choices=("none", "table", "section"),
        client="yes",
    )
    model: str = knob(
        "extractive",
        "`extractive` (offline) or an `init_chat_model` string such as `openai:gpt-4o-mini`; "
        "ignored when a model is injected",
        "str",
    )
    temperature: float = knob(0.0, "sampling temperature for chat models", "float", lo=0, hi=2)
    structured_output: str = knob(
        "auto",
        "chat models: `auto` asks for a JSON-schema answer first where the model supports "
        "structured output (the text prompt and its regex recovery are the fallbacks), `off` "
        "the text prompt only",
        "choice",
        choices=("auto", "off"),
    )
    model_base_url: str | None = model_knob("base_url")
    model_api_key_env: str | None = model_knob("api_key_env")
    model_max_tokens: int | None = model_knob("max_tokens")
    model_timeout_s: float = model_knob("timeout_s")
    model_max_retries: int = model_knob("max_retries")
    number_check: bool = knob(
        "number_check" in DEFAULT_RULES,
        "extractive answerer: refuse when a number of 2+ digits the question asks about is in "
        "no supplied passage, nor within a range one states (`I'm 70` / `over 65`), and when "
        "the question writes a formula (`365 * …`: a computation, which an extractive answer "
        "cannot give); a date in figures or a split year of the question is one thing, "
        "mentioned in any spelling (`03/11/2025` / `3 November 2025`, `2023/24` / `FY2023-24`), "
        "and a passage's split year states both its years (`2025/26`: 2026)",
        "bool",
        client="opt-in",
    )
    answer_type_check: bool = knob(
        "answer_type_check" in DEFAULT_RULES,
        "extractive answerer: a who / when / how-many question is refused unless the quoted "
        "sentence has a name / date / quantity the question does not already state",
        "bool",
        client="opt-in",
    )
    quantity_check: bool = knob(
        "quantity_check" in DEFAULT_RULES,
        "extractive answerer: the how-many half of `answer_type_check`: a how many / how much "
        "/ how long question is refused unless the quoted sentence has a quantity (a duration "
        "for how long) the question does not already state",
        "bool",
        client="opt-in",
    )
    measure_check: bool = knob(
        "measure_check" in DEFAULT_RULES,
        "extractive answerer: a question asking for one kind of quantity (a height, speed, "
        "weight, price, temperature, area or percentage) is refused unless the quoted sentence "
        "has a unit of that kind; a rate (`price per share`) unless it names the unit; one "
        "asking for a time of day, an e-mail address, a phone number or a place (*where*) "
        "unless the sentence has one",
        "bool",
        client="opt-in",
    )
    counted_check: bool = knob(
        "counted_check" in DEFAULT_RULES,
        "extractive answerer: a question counting something (`how many ships`) is refused "
        "when the quoted sentence names neither it nor a word with cosine ≥ 0.7 to it and its "
        "numbers all count other things (`five people`)",
        "bool",
        client="opt-in",
    )
    focus_check: bool = knob(
        "focus_check" in DEFAULT_RULES,
        "extractive answerer: refused when a name or acronym of the question, or a term with "
        "≥ 40 % of its idf weight, is neither in the quoted sentence's passage or header (or a "
        "misspelling, an inflection, the initials) nor has a word there with cosine ≥ 0.7",
        "bool",
        client="opt-in",
    )
    focus_names_check: bool = knob(
        "focus_names_check" in DEFAULT_RULES,
        "extractive answerer: the names half of `focus_check`, for questions: refused when a "
        "name or acronym the question asks about (typed in lower case too, when the supplied "
        "passages write it only with a capital) is not in the quoted sentence's passage or "
        "header (a table row: the row with its column names), allowing a misspelling, an "
        "inflection, the initials, a derived form (`Chinese` / `China`) and the forms listed "
        "in `chains/name_forms.json` (`Dutch` / `Netherlands`, `Station Rd` / `Station Road`), "
        "and a place containing it or "
        "within it (`chains/places.json`: `Europe` / `Germany`, `Lyon` / `French`); never an "
        "embedding neighbour (`Kenya` / `Africa`) nor a neighbouring place (`South Africa`)",
        "bool",
        client="opt-in",
    )
    focus_coverage: float = knob(
        0.0,
        "extractive answerer, graded focus rule: refused unless the quoted sentence (with its "
        "header) and its document cover this share of the question's focus weight (idf; a "
        "paraphrase counts by its cosine, 0.35 → 0, 0.7 → full); 0 = off",
        "float",
        lo=0.0,
        hi=1.0,
        client="opt-in",
    )
    extractive_passages: int = knob(
        READ_PASSAGES,
        "extractive answerer: how many of the passages (best first) it reads sentences from; "
        "a rule reading every passage (a number the question asks about, a term's document) "
        "still reads them all",
        "int",
        lo=1,
        hi=20,
        client="yes",
    )
    negation_check: bool = knob(
        "negation_check" in DEFAULT_RULES,
        "extractive answerer: a negated question (`not`, `never`, `n't`) is refused unless the "
        "quoted sentence states a negation or exception",
        "bool",
        client="opt-in",
    )
    contrast_check: bool = knob(
        "contrast_check" in DEFAULT_RULES,
        "extractive answerer: a question naming one of two words that exclude each other "
        "(`less` / `more`, `Tuesday` / `Wednesday`, `18th` / `19th`, `Q1` / `Q2`; "
        "`chains/contrast_terms.json`) is refused when the quoted sentence states the other "
        "instead; a wh-question naming a year or a number with its unit (`in 2023`, "
        "`at 20 °C`) when the sentence states another year or another number of that unit "
        "instead (a year in the document's title, section or column names counts; a bound or "
        "a range, `after 6pm`, `up to 5 kg`, `since 2020`, is not compared); a code (`E2`, "
        "`LB-3`) when the sentence names another of its series (`E1`) and not it; a table "
        "row whose column names are of other years than the one asked (`2025 budget (£)` for "
        "`in 2024`)",
        "bool",
        client="opt-in",
    )
    support_check: bool = knob(
        False,
        "with a chat model: an LLM judge reads each claim with its quoted span before the "
        "answer is returned (`chains/prompts/support_v1.md`; one more model call); skipped "
        "for the extractive answerer",
        "bool",
        client="opt-in",
    )
    support_action: str = knob(
        "no_evidence",
        "what an unsupported claim does: `no_evidence` (refuse) or `flag` (answer, its "
        "citations marked `support: unsupported`)",
        "choice",
        choices=("no_evidence", "flag"),
        client="opt-in",
    )
    prompt_file: str = knob(
        "answer_v2.md",
        "versioned prompt file in `chains/prompts` (`answer_v1.md`: without the flag markers)",
        "str",
    )
    trace_candidates: int = knob(
        20, "candidates listed in the trace", "int", lo=0, hi=100, client="yes"
    )
    trace: str = knob(
        "full",
        "detail of the result's `trace`: `full` (everything, including candidates' text and "
        "the model request), `summary` (decisions, ids, scores and timings; no passage text) "
        "or `none` (`{}`); `citerag serve` defaults to `summary`. The result's `citations` "
        "and `looked_at` carry their quotes whatever it is",
        "choice",
        choices=("full", "summary", "none"),
        client="yes",
    )

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        """Refuse a keyword that is no knob as a ``configurable`` key is refused
        (:func:`unknown_keys_error`: ``unknown configuration key 'kk' (did you mean 'k'?)``),
        not with the generated ``__init__``'s bare ``TypeError``. LangGraph builds a run's
        context as ``context_schema(**context)`` before any node runs, so this is where
        ``graph.invoke(inputs, context={"kk": 3})`` is checked.

        Raises:
            ValueError: Naming each unknown keyword and the closest knob.
        """
        unknown = [str(k) for k in kwargs if k not in _KNOBS]
        if unknown:
            raise unknown_keys_error(unknown)
        return super().__new__(cls)

    def __post_init__(self) -> None:
        """Validate every field against its metadata.

        Raises:
            ValueError: Naming the first bad value.
        """
        for name, meta in knobs().items():
            meta.check(name, getattr(self, name))
        check_model_spec(self.model)

    @classmethod
    def from_runnable_config(cls, config: RunnableConfig | None = None) -> RAGConfig:
        """Read known keys from ``config["configurable"]``; other keys are not read (the
        graph's first node refuses unknown ones: :func:`check_configurable`).

        Every node of a run reads its config, so a set of values already validated is not
        validated again: the result is a copy of the first instance built from it.

        Raises:
            ValueError: If a value has the wrong type or is out of range.
        """
        conf = (config or {}).get("configurable") or {}
        values = {k: v for k, v in conf.items() if k in knobs()}
        try:
            # the type too: True == 1 and 4 == 4.0, but a knob may accept one and not the other
            key = tuple(sorted((k, type(v).__name__, v) for k, v in values.items()))
            hash(key)
        except TypeError:  # an unhashable value (a bad one: knobs are scalars) is checked below
            return cls(**values)
        checked = _CHECKED.get(key)
        if checked is None:
            checked = cls(**values)
            if len(_CHECKED) >= _CHECKED_MAX:
                _CHECKED.clear()
            _CHECKED[key] = checked
        # a copy (no re-validation): a caller may change its instance and validate() it
        return copy.copy(checked)

    def validate(self) -> None:
        """Re-check every field (after mutation).

        Raises:
            ValueError: Describing the first bad value.
        """
        self.__post_init__()

    def model_settings(self) -> ModelSettings:
        """The chat model's settings these knobs give (``temperature`` is the knob's)."""
        values = {setting: getattr(self, name) for name, setting in MODEL_KNOBS.items()}
        return ModelSettings(temperature=self.temperature, **values)

    def to_dict(self) -> dict[str, Any]:
        """Every knob and its value (the trace's ``config`` block)."""
        return {name: getattr(self, name) for name in knobs()}


def knobs() -> dict[str, Knob]:
    """Every request knob's metadata, in declaration order."""
    return _KNOBS


_KNOBS: dict[str, Knob] = {f.name: f.metadata["knob"] for f in fields(RAGConfig)}
#: Validated configs by their ``configurable`` values (see ``RAGConfig.from_runnable_config``).
_CHECKED: dict[tuple[tuple[str, str, Any], ...], RAGConfig] = {}
#: Most value sets kept in ``_CHECKED`` before it is emptied.
_CHECKED_MAX = 256


#: ``configurable`` keys that LangGraph, LangChain, LangServe or a checkpointer set
#: themselves (besides those with a :data:`RESERVED_PREFIXES` prefix): never knobs, never
#: an error.
RESERVED_KEYS = frozenset(
    {
        "thread_id",
        "checkpoint_id",
        "checkpoint_ns",
        "checkpoint_map",
        "run_id",
        "run_name",
        "user_id",
        "assistant_id",
        "graph_id",
    }
)
#: Prefixes of keys set by the frameworks (``__pregel_*``, the server's ``__citerag_*``).
RESERVED_PREFIXES = ("__", "langgraph_", "checkpoint_")


#: Environment variable naming the answer model (``citerag ask``/``chat``, ``citerag
#: serve``, the Agent Server); each model setting has ``CITERAG_MODEL_<SETTING>``.
MODEL_ENV = "CITERAG_MODEL"


def model_env_var(setting: str) -> str:
    """``timeout_s`` -> ``CITERAG_MODEL_TIMEOUT_S`` (one per :data:`MODEL_SETTINGS` entry)."""
    return f"{MODEL_ENV}_{setting.upper()}"


def model_knobs_from_env(env: Any) -> dict[str, Any]:
    """The answer model and its settings from ``CITERAG_MODEL`` and ``CITERAG_MODEL_*``, as
    knobs (``model``, ``model_timeout_s``, ``temperature``, ...); unset or empty variables
    are left out.

    Raises:
        ValueError: A value that does not parse or is out of range (naming the variable).
    """
    from chains.models import parse_setting

    knob_of = {setting: name for name, setting in MODEL_KNOBS.items()}
    knob_of["temperature"] = "temperature"
    out: dict[str, Any] = {}
    model = str(env.get(MODEL_ENV) or "").strip()
    if model:
        try:
            check_model_spec(model)
        except ValueError as exc:
            raise ValueError(f"${MODEL_ENV}: {exc}") from None
        out["model"] = model
    for setting, knob_name in knob_of.items():
        var = model_env_var(setting)
        raw = str(env.get(var) or "").strip()
        if not raw:
            continue
        try:
            value = parse_setting(setting, raw)
        except ValueError as exc:
            raise ValueError(f"${var}: {exc}") from None
        if value is not None:
            out[knob_name] = value
    return out


def unknown_keys(configurable: Any) -> list[str]:
    """Keys of a ``configurable`` that are neither knobs nor the frameworks' own."""
    if not isinstance(configurable, dict):
        return []
    return [
        str(k)
        for k in configurable
        if k not in _KNOBS
        and k not in RESERVED_KEYS
        and not (isinstance(k, str) and k.startswith(RESERVED_PREFIXES))
    ]


def unknown_keys_message(keys: list[str], allowed: Any = None) -> str:
    """``unknown knob 'kk' (did you mean 'k'?)``, naming each key and the closest knob."""
    import difflib

    names = list(allowed if allowed is not None else _KNOBS)
    parts = []
    for key in keys:
        close = difflib.get_close_matches(key, names, n=1, cutoff=0.6)
        parts.append(f"{key!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
    return f"unknown configuration key{'s' if len(keys) > 1 else ''} {', '.join(parts)}"


def check_configurable(configurable: Any) -> None:
    """Refuse a ``configurable`` with a key that is not a knob (a typo would otherwise run
    silently with the default).

    Raises:
        ValueError: Naming each unknown key and the closest knob.
    """
    keys = unknown_keys(configurable)
    if keys:
        raise unknown_keys_error(keys)


def unknown_keys_error(keys: list[str]) -> ValueError:
    """The error for knobs that do not exist, wherever they are given (``configurable``,
    ``context=``, ``RAGConfig(...)``): each key with the closest knob, and where the knobs
    are listed."""
    return ValueError(
        unknown_keys_message(keys) + "; the knobs are listed by "
        "graphs.config.knobs() and in docs/reference/configuration.md"
    )


def knob_default(name: str) -> Any:
    """The default value of one knob."""
    f = next(f for f in fields(RAGConfig) if f.name == name)
    return None if f.default is MISSING else f.default


def client_knobs(policy: tuple[ClientPolicy, ...] = ("yes",)) -> tuple[str, ...]:
    """Names of the knobs whose client policy is in ``policy``."""
    return tuple(name for name, k in knobs().items() if k.client in policy)


def parse_knob(name: str, text: str) -> Any:
    """Parse a knob from command-line text (``k=10``, ``number_check=false``).

    Raises:
        ValueError: Unknown knob or a value that does not fit it.
    """
    if name not in knobs():
        close = difflib.get_close_matches(name, list(knobs()), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(f"unknown setting {name!r}{hint}; known: {', '.join(knobs())}")
    kind = knobs()[name].kind
    value: Any = text
    if text.lower() in ("none", "null") and knobs()[name].nullable:
        value = None
    elif kind == "bool":
        low = text.lower()
        if low not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
            raise ValueError(f"{name} must be true or false, not {text!r}")
        value = low in ("true", "1", "yes", "on")
    elif kind == "int":
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"{name} must be an integer, not {text!r}") from None
    elif kind == "float":
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"{name} must be a number, not {text!r}") from None
    knobs()[name].check(name, value)
    return value


def config_table_markdown() -> str:
    """The table of ``docs/reference/configuration.md``, generated from the field metadata."""
    policy = {"yes": "yes", "opt-in": "if listed", "no": "no"}
    rows = [
        "| key | default | range | clients | meaning |",
        "|---|---|---|---|---|",
    ]
    for name, k in knobs().items():
        default = k.default_text or _show(knob_default(name))
        if k.kind in ("int", "float") and k.lo is None and k.hi is None:
            rng = "any finite number"
        elif k.kind in ("int", "float"):
            rng = f"{_num(k.lo)} – {_num(k.hi)}"
        elif k.kind == "choice":
            rng = ", ".join(f"`{c}`" for c in k.choices)
        elif k.kind == "bool":
            rng = "`true`, `false`"
        else:
            rng = "text"
        rows.append(f"| `{name}` | {default} | {rng} | {policy[k.client]} | {k.description} |")
    return "\n".join(rows)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, str):
        return f"`{value}`"
    return str(value)


def _num(x: float | None) -> str:
    if x is None:
        return "…"
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e5 else f"{x:g}"
