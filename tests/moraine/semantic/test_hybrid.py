"""Hybrid settings and the decision to fuse: identifiers stay lexical, natural language is fused."""

from __future__ import annotations

import pytest

from moraine.errors import ConfigError
from moraine.terms.query import parse_query
from moraine.semantic.hybrid import Hybrid, SemanticSettings, settings_from


class _NoModel:
    name = "none"

    def query(self, text: str) -> list[float]:
        raise AssertionError("the fuser must not embed when it declines")

    def passages(self, texts: object) -> list[list[float]]:
        raise AssertionError("not used")


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("why does it pass locally but fail in CI", 9),
        ("render_thumbnail lru_cache", 0),
        ("fetchWithBackoff retry", 1),
        ("X-RateLimit-Reset", 0),
        ("Warum läuft das Backup nicht mehr?", 6),
        ("本番ビルドが遅い", 4),
        # A sentence without spaces that holds a Latin name, a digit or an ideographic comma is still one.
        ("OpenAIに切り替えてGPT5を使うのはどれくらい大変？", 9),
        ("テストは要らない、スクリーンショットを見る", 10),
    ],
)
def test_plain_words_are_counted_and_identifiers_are_not(query: str, words: int) -> None:
    assert parse_query(query).natural_words == words


def test_identifier_queries_and_tool_only_searches_stay_lexical() -> None:
    hybrid = Hybrid(_NoModel(), SemanticSettings(min_words=2))
    assert (
        hybrid.fuser(parse_query("render_thumbnail lru_cache"), ["user_input", "assistant_response"]) is None
    )
    assert hybrid.fuser(parse_query("duplicate key value violates"), ["tool_response"]) is None
    assert hybrid.fuser(parse_query("memory keeps growing until killed"), ["user_input"]) is not None


def test_settings_default_to_on_with_one_thread() -> None:
    settings = settings_from({})
    assert settings.enabled and settings.threads == 1 and settings.vector_weight == 0.5
    assert settings_from({"semantic": {"vector_weight": 0.8}}).vector_weight == 0.8


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"semantic": {"threads": 0}}, "threads"),
        ({"semantic": {"enabled": "yes"}}, "enabled"),
        ({"semantic": {"rrf_k": 10}}, "rrf_k is no longer read"),
        ({"semantic": {"vector_weight": -0.5}}, "vector_weight"),
        ({"semantic": {"vector_weight": True}}, "vector_weight"),
        ({"semantic": {"depht": 10}}, "unknown keys: depht"),
        ({"semantic": 3}, "must be a table"),
    ],
)
def test_bad_semantic_settings_are_refused_with_the_key_named(raw: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        settings_from(raw)
