"""Relevance on planted needles: does the needle's event rank first (and within the top 10)?"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tools.bench.cases import moraine_session, search_args
from tools.bench.client import ToolClient, ToolFailed

__all__ = ["Relevance", "check_relevance"]

Json = dict[str, Any]


@dataclass(slots=True)
class Relevance:
    checked: int = 0
    top1: int = 0
    top10: int = 0
    file_attention_checked: int = 0
    file_attention_exact: int = 0
    misses: list[str] = field(default_factory=list)

    def to_json(self) -> Json:
        return {
            "needles": self.checked,
            "hit_at_1": self.top1,
            "hit_at_10": self.top10,
            "file_attention_needles": self.file_attention_checked,
            "file_attention_exact": self.file_attention_exact,
            "misses": self.misses,
        }


def _expected(needle: Json) -> set[tuple[str, str]]:
    return {(moraine_session(loc), loc["event_type"]) for loc in needle["locations"]}


def check_relevance(client: ToolClient, manifest: Json) -> Relevance:
    """Search every needle (and file_attention every file needle) and compare with the manifest's answers."""
    out = Relevance()
    for needle in manifest["needles"]:
        if needle["kind"] == "file_path":
            _check_file(client, needle, out)
            continue
        out.checked += 1
        try:
            hits = client.call("search_sessions", search_args(needle["query"], None, needle["event_types"]))[
                "results"
            ]
        except ToolFailed as exc:
            out.misses.append(f"{needle['id']}: {exc}")
            continue
        expected = _expected(needle)
        found = [(h["session"]["id"], h["event"]["type"]) in expected for h in hits]
        if found[:1] == [True]:
            out.top1 += 1
        if any(found):
            out.top10 += 1
        if found[:1] != [True]:
            out.misses.append(f"{needle['id']} ({needle['query']!r}): not first (in top 10: {any(found)})")
    return out


def _check_file(client: ToolClient, needle: Json, out: Relevance) -> None:
    out.file_attention_checked += 1
    calls = [loc for loc in needle["locations"] if loc["event_type"] == "tool_call"]
    want = {moraine_session(loc) for loc in calls}
    args = {
        "path": needle["query"], "scope": "all", "granularity": "sessions", "start_datetime": None,
        "end_datetime": None, "tool": None, "harness": None, "source": None, "mutations_only": False, "limit": 50,
    }  # fmt: skip
    try:
        data = client.call("file_attention", args)
    except ToolFailed as exc:
        out.misses.append(f"{needle['id']}: {exc}")
        return
    got = {row["session"]["id"] for row in data.get("sessions", [])}
    touches = data.get("summary", {}).get("total_touches")
    if got == want and touches == len(calls):
        out.file_attention_exact += 1
    else:
        out.misses.append(
            f"{needle['id']} ({needle['query']}): file_attention sessions {len(got & want)}/{len(want)} "
            f"(+{len(got - want)} extra), touches {touches} vs {len(calls)} planted"
        )
