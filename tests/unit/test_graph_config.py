"""RAGConfig: one source of truth for every request knob (bounds, types, client policy)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from chains.answer_checks import DEFAULT_RULES, REFUSAL_RULES
from graphs.config import (
    RAGConfig,
    check_configurable,
    client_knobs,
    config_table_markdown,
    knob_default,
    knobs,
    parse_knob,
)

#: The configuration reference page, where the generated table lives (the README links it).
CONFIG_PAGE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "configuration.md"


def test_every_field_has_knob_metadata_and_a_valid_default():
    cfg = RAGConfig()
    assert set(knobs()) == set(cfg.to_dict())
    for name, k in knobs().items():
        assert k.description, name
        k.check(name, knob_default(name))


@pytest.mark.parametrize(
    ("conf", "message"),
    [
        ({"k": 0}, "k must be an integer from 1 to 200"),
        ({"k": 201}, "k must be an integer from 1 to 200"),
        ({"k": 2.5}, "k must be an integer"),
        ({"k": True}, "k must be a number"),
        ({"number_check": "no"}, "number_check must be true or false"),
        ({"number_check": 1}, "number_check must be true or false"),
        ({"retrieval_mode": "sparse"}, "retrieval_mode must be one of dense, bm25, hybrid"),
        ({"gate_threshold": float("nan")}, "gate_threshold must be finite"),
        ({"gate_threshold": float("inf")}, "gate_threshold must be finite"),
        ({"dedupe_threshold": 1.5}, "dedupe_threshold must be a number from 0 to 1"),
        ({"model": ""}, "model must be a non-empty string"),
    ],
)
def test_bad_values_are_refused_with_a_message_naming_them(conf, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        RAGConfig.from_runnable_config({"configurable": conf})


def test_a_misspelled_knob_in_context_is_the_configurable_error():
    """LangGraph builds a run's context as ``RAGConfig(**context)``: a typo there is the
    ``ValueError`` with a suggestion that ``configurable`` gives, not a bare ``TypeError``."""
    import copy
    import dataclasses

    from langgraph.graph import END, START, StateGraph
    from typing_extensions import TypedDict

    with pytest.raises(ValueError) as from_configurable:
        check_configurable({"kk": 3})
    expected = str(from_configurable.value)
    assert "(did you mean 'k'?)" in expected
    with pytest.raises(ValueError) as direct:
        RAGConfig(kk=3)  # type: ignore[call-arg]
    assert str(direct.value) == expected

    class State(TypedDict):
        k: int

    g = StateGraph(State, context_schema=RAGConfig)
    g.add_node("read", lambda state, runtime: {"k": runtime.context.k})
    g.add_edge(START, "read")
    g.add_edge("read", END)
    graph = g.compile()
    as_given: Any = {"k": 3}  # what LangGraph is handed; RAGConfig is what it builds
    assert graph.invoke({"k": 0}, context=as_given) == {"k": 3}
    misspelled: Any = {"kk": 3}
    with pytest.raises(ValueError) as through_context:
        graph.invoke({"k": 0}, context=misspelled)
    assert str(through_context.value) == expected
    # copies and replacements (keyword-free __new__, fields only) still work
    cfg = RAGConfig(k=7)
    assert copy.copy(cfg).k == 7 and dataclasses.replace(cfg, k=8).k == 8


def test_unknown_keys_are_ignored_and_none_threshold_is_allowed():
    cfg = RAGConfig.from_runnable_config(
        {"configurable": {"thread_id": "x", "gate_threshold": None}}
    )
    assert cfg.gate_threshold is None and cfg == RAGConfig()


def test_number_check_is_a_boolean_knob():
    assert RAGConfig().number_check is True
    off = RAGConfig.from_runnable_config({"configurable": {"number_check": False}})
    assert off.number_check is False


def test_client_policy_is_derived_from_the_metadata():
    yes = client_knobs(("yes",))
    assert {"constraints", "retrieval_mode", "k", "k_dense", "k_bm25", "reranker"} <= set(yes)
    assert {"max_passages", "token_budget", "trace_candidates"} <= set(yes)
    assert list(yes) == [n for n in knobs() if n in yes]  # declaration order
    opt_in = set(client_knobs(("opt-in",)))
    assert {"gate_threshold", "number_check"} <= opt_in and not opt_in & set(yes)
    never = set(knobs()) - set(client_knobs(("yes", "opt-in")))
    assert {"model", "prompt_file", "temperature"} <= never
    assert knobs()["reranker"].client_choices == ("sentence", "none")


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [
        ("k", "30", 30),
        ("number_check", "false", False),
        ("number_check", "on", True),
        ("gate_threshold", "0.5", 0.5),
        ("gate_threshold", "none", None),
        ("retrieval_mode", "bm25", "bm25"),
    ],
)
def test_command_line_values_parse_by_the_knob_type(name, text, value):
    assert parse_knob(name, text) == value


def test_command_line_values_out_of_range_or_unknown_are_refused():
    with pytest.raises(ValueError, match="k must be an integer from 1 to 200"):
        parse_knob("k", "500")
    with pytest.raises(ValueError, match="unknown setting 'kk'"):
        parse_knob("kk", "5")
    with pytest.raises(ValueError, match="number_check must be true or false"):
        parse_knob("number_check", "maybe")


def test_docs_configuration_table_is_the_generated_one():
    text = CONFIG_PAGE.read_text(encoding="utf-8")
    begin, end = "<!-- config-table:begin -->", "<!-- config-table:end -->"
    assert begin in text and end in text, (
        "docs/reference/configuration.md lacks the generated configuration table"
    )
    table = text.split(begin, 1)[1].split(end, 1)[0].strip()
    assert table == config_table_markdown(), (
        "docs/reference/configuration.md: the configuration table is stale; paste "
        "graphs.config.config_table_markdown() between the config-table markers"
    )


def test_validated_values_are_reused_as_copies_and_bad_ones_always_refused() -> None:
    conf = {"configurable": {"k": 7, "trace": "summary"}}
    first = RAGConfig.from_runnable_config(conf)
    second = RAGConfig.from_runnable_config(conf)
    assert first == second and first is not second  # a copy: changing one leaves the other
    second.k = 9
    assert RAGConfig.from_runnable_config(conf).k == 7
    # a value equal to a cached one but of another type is still checked: True == 1, yet a
    # number knob refuses a boolean, before and after 1 was cached
    RAGConfig.from_runnable_config({"configurable": {"k": 1}})
    for _ in range(2):
        with pytest.raises(ValueError, match="k must be a number"):
            RAGConfig.from_runnable_config({"configurable": {"k": True}})
    # an unhashable (bad) value is validated, not cached
    with pytest.raises(ValueError, match="k must be a number"):
        RAGConfig.from_runnable_config({"configurable": {"k": [4]}})


def _answerer_attribute(rule: str) -> str:
    """The ``ExtractiveAnswerer`` attribute a refusal rule's knob sets."""
    return "require_question_numbers" if rule == "number_check" else rule


@pytest.mark.parametrize(
    ("knob", "attribute"), [(r, _answerer_attribute(r)) for r in REFUSAL_RULES]
)
def test_each_refusal_rule_knob_reaches_its_own_extractive_answerer(knob, attribute):
    """Flipping a rule's knob builds (and caches) an answerer with that rule flipped, and
    leaves the default's answerer as it was."""
    from chains.answerers import ExtractiveAnswerer
    from graphs.deps import GraphDeps

    deps = GraphDeps(retriever=None, embeddings=None)  # type: ignore[arg-type]
    base = deps.answerer_for(RAGConfig())
    flipped = deps.answerer_for(RAGConfig(**{knob: not knob_default(knob)}))
    assert isinstance(base, ExtractiveAnswerer) and isinstance(flipped, ExtractiveAnswerer)
    assert flipped is not base
    assert getattr(flipped, attribute) is (not knob_default(knob))
    assert getattr(base, attribute) is knob_default(knob)
    assert deps.answerer_for(RAGConfig()) is base


def test_extractive_passages_reaches_the_extractive_answerer():
    """The knob's default is the answerer's (one source), and another value builds (and
    caches) its own answerer reading that many passages."""
    from chains.answerers import READ_PASSAGES, ExtractiveAnswerer
    from graphs.deps import GraphDeps

    deps = GraphDeps(retriever=None, embeddings=None)  # type: ignore[arg-type]
    base = deps.answerer_for(RAGConfig())
    five = deps.answerer_for(RAGConfig(extractive_passages=5))
    assert isinstance(base, ExtractiveAnswerer) and isinstance(five, ExtractiveAnswerer)
    assert base.read_passages == READ_PASSAGES == RAGConfig().extractive_passages
    assert five.read_passages == 5 and five is not base
    assert deps.answerer_for(RAGConfig(extractive_passages=5)) is five
    with pytest.raises(ValueError, match="extractive_passages"):
        RAGConfig(extractive_passages=0)


def test_refusal_rule_defaults_come_from_default_rules():
    """RAGConfig's knob defaults and make_answerer's are ``DEFAULT_RULES``, for every rule."""
    from chains.answerers import make_answerer

    assert set(REFUSAL_RULES) >= DEFAULT_RULES
    built = make_answerer("extractive", None)  # type: ignore[arg-type]
    for rule in REFUSAL_RULES:
        assert knobs()[rule].kind == "bool", rule
        assert knob_default(rule) is (rule in DEFAULT_RULES), rule
        assert getattr(built, _answerer_attribute(rule)) is (rule in DEFAULT_RULES), rule


def test_make_answerer_names_an_unknown_rule():
    from chains.answerers import make_answerer

    with pytest.raises(ValueError, match=r"unknown refusal rule\(s\) \['numbers_check'\]"):
        make_answerer("extractive", None, numbers_check=True)  # type: ignore[arg-type]


def test_extractive_rules_is_the_one_source_of_the_rule_defaults():
    """ExtractiveRules' defaults are REFUSAL_RULES/DEFAULT_RULES, RAGConfig's knob defaults and
    the ExtractiveAnswerer constructor's keyword defaults."""
    import inspect
    from dataclasses import fields

    from chains.answer_checks import ExtractiveRules
    from chains.answerers import ExtractiveAnswerer

    defaults = ExtractiveRules()
    assert tuple(f.name for f in fields(ExtractiveRules)) == REFUSAL_RULES
    assert defaults.switched_on() == DEFAULT_RULES
    params = inspect.signature(ExtractiveAnswerer.__init__).parameters
    for rule in REFUSAL_RULES:
        arg = "require_question_numbers" if rule == "number_check" else rule
        assert params[arg].default is getattr(defaults, rule), rule
        assert knob_default(rule) is getattr(defaults, rule), rule
    # what the graph ran before the record existed: these six rules on, the others off
    assert {
        "number_check",
        "quantity_check",
        "measure_check",
        "negation_check",
        "contrast_check",
        "focus_names_check",
    } == DEFAULT_RULES


def test_extractive_rules_names_a_bad_value():
    from chains.answer_checks import ExtractiveRules

    with pytest.raises(ValueError, match="focus_check must be True or False, not 'yes'"):
        ExtractiveRules(focus_check="yes")  # type: ignore[arg-type]


def test_a_misspelt_setting_is_named_with_the_closest_one() -> None:
    from graphs.config import parse_knob

    with pytest.raises(ValueError, match=r"unknown setting 'expnad' \(did you mean 'expand'\?\)"):
        parse_knob("expnad", "table")
