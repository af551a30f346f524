"""Token files, bearer parsing, reloads, and the served runnable's input/filter validation."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from pydantic import ValidationError

from citerag.core.identity import Identity, TokenStore, hash_token, read_token_file
from citerag.server.auth import bearer_token, cookie_value
from citerag.server.runnable import check_filter, question_model

REPO = Path(__file__).resolve().parents[2]
TOKEN = "a-token-of-sufficient-length"


def write_tokens(path: Path, users: list[dict]) -> Path:
    path.write_text(json.dumps({"users": users}), encoding="utf-8")
    return path


def test_example_token_file_is_valid():
    tokens = read_token_file(REPO / "examples" / "tokens.json")
    users = {i.user: i for i in tokens.values()}
    assert users["demo-board"].groups == ("board",)
    assert users["demo-member"].groups == ()


def test_plain_and_hashed_tokens(tmp_path: Path):
    path = write_tokens(
        tmp_path / "t.json",
        [
            {"user": "a", "token": TOKEN, "groups": ["board"]},
            {"user": "b", "token_sha256": hash_token("another-long-token-123"), "admin": True},
        ],
    )
    store = TokenStore(path)
    assert store.lookup(TOKEN) == Identity("a", ("board",), False)
    assert store.lookup("another-long-token-123") == Identity("b", (), True)
    assert store.lookup("nope") is None and store.lookup(None) is None and store.lookup("") is None


def test_toml_token_file(tmp_path: Path):
    path = tmp_path / "t.toml"
    path.write_text(f'[[users]]\nuser = "a"\ntoken = "{TOKEN}"\ngroups = ["hr"]\n')
    assert TokenStore(path).lookup(TOKEN) == Identity("a", ("hr",))


@pytest.mark.parametrize(
    "users",
    [
        [{"user": "a", "token": "short"}],
        [{"user": "", "token": TOKEN}],
        [{"user": "a"}],
        [{"user": "a", "token": TOKEN, "token_sha256": hash_token(TOKEN)}],
        [{"user": "a", "token": TOKEN}, {"user": "b", "token": TOKEN}],
        [{"user": "a", "token": TOKEN, "groups": "board"}],
        [{"user": "a", "token": TOKEN, "groups": ["../x"]}],
        [{"user": "a", "token": TOKEN, "groups": ["hr\n"]}],  # the label rule: fullmatch
        [{"user": "a", "token": TOKEN, "admin": "yes"}],
        [{"user": "a", "token": TOKEN, "role": "x"}],
        [{"user": "a", "token_sha256": "abc"}],
    ],
)
def test_bad_token_files(tmp_path: Path, users):
    with pytest.raises(ValueError):
        read_token_file(write_tokens(tmp_path / "t.json", users))


def test_token_file_is_reloaded_and_broken_edits_are_ignored(tmp_path: Path):
    path = write_tokens(tmp_path / "t.json", [{"user": "a", "token": TOKEN}])
    store = TokenStore(path)
    store.CHECK_INTERVAL = 0.0
    assert store.lookup(TOKEN) is not None
    write_tokens(path, [{"user": "b", "token": "a-brand-new-token-0001"}])
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 10**9))
    assert store.lookup(TOKEN) is None  # revoked without a restart
    assert store.lookup("a-brand-new-token-0001") is not None
    path.write_text("{not json")
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 2 * 10**9))
    assert store.lookup("a-brand-new-token-0001") is not None  # previous tokens stay


def test_bearer_and_cookie_parsing():
    assert bearer_token([(b"authorization", b"Bearer abc")]) == "abc"
    assert bearer_token([(b"Authorization", b"bearer   abc  ")]) == "abc"
    assert bearer_token([(b"authorization", b"Basic abc")]) is None
    assert bearer_token([(b"authorization", b"Bearer")]) is None
    assert bearer_token([]) is None
    assert (
        cookie_value([(b"cookie", b"a=1; citerag_playground=tok")], "citerag_playground") == "tok"
    )
    assert cookie_value([(b"cookie", b"a=1")], "citerag_playground") is None


def test_question_model_drops_groups_and_bounds_length():
    model = question_model(20)
    q = model.model_validate({"question": "hi", "user_groups": ["board"]})
    assert q.model_dump() == {"question": "hi", "filters": None, "chat_history": []}
    for bad in ({"question": "x" * 21}, {"question": "  "}, {}):
        with pytest.raises(ValidationError):
            model.model_validate(bad)


@pytest.mark.parametrize(
    "flt",
    [
        {"doc_name": "a.pdf"},
        {"page": {"$in": [1, 2]}},
        {"$and": [{"a": 1}, {"$or": [{"b": 2}, {"c": {"$ne": 3}}]}]},
    ],
)
def test_good_filters(flt):
    check_filter(flt)


@pytest.mark.parametrize(
    "flt",
    [
        {"a": {"$regex": "x"}},
        {"$where": "1"},
        {"a": {"$in": "notalist"}},
        {"$and": []},
        {"$or": {"a": 1}},
        {"a": [1, 2]},
        "not a dict",
        {"$and": [{"$and": [{"$and": [{"$and": [{"$and": [{"$and": [{"a": 1}]}]}]}]}]}]},
        {f"k{i}": i for i in range(101)},
    ],
)
def test_bad_filters(flt):
    with pytest.raises(ValueError):
        check_filter(flt)
