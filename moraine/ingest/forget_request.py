"""What ``moraine forget`` and the web page send the daemon, and what it answers: JSON in, criteria and targets out.

Request: ``{"criteria": {"ids": [...], "path": str, "harness": str, "before": RFC 3339, "projects": [...]},
"expect": n}``. Without ``expect`` the daemon only answers the sessions the criteria select (the preview the user
confirms); with it, it forgets them if there are exactly ``expect`` (the selection the user saw), else refuses.
``ids`` are Moraine session, turn or event IDs (a turn or an event names its session) or a harness's own session
IDs.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from moraine.ids import InvalidIdError, could_be_native_id, parse_id, session_id
from moraine.ingest.forgetting import forget_sessions
from moraine.store.client import Store
from moraine.store.forget import ForgetCriteria, ForgetTarget, find_sessions

__all__ = [
    "ForgetRequest",
    "SelectionChanged",
    "answer_forget",
    "criteria_json",
    "parse_forget_request",
    "target_json",
]


@dataclass(frozen=True, slots=True)
class ForgetRequest:
    criteria: ForgetCriteria
    expect: int | None  # None: a preview only


def _strings(raw: Any, name: str) -> list[str]:
    if raw is None:
        return []
    if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
        raise ValueError(f"{name} must be a list of strings")
    return list(raw)


def _optional_string(raw: Any, name: str) -> str | None:
    if raw is not None and not isinstance(raw, str):
        raise ValueError(f"{name} must be a string")
    return raw or None


def criteria_from_ids(ids: list[str]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Return (session keys, harness session ids) named by ``ids``.

    Raises:
        ValueError: an ID is neither a Moraine ID nor could be a harness's session ID.
    """
    keys: list[int] = []
    natives: list[str] = []
    for text in ids:
        try:
            keys.append(parse_id(text).key)
        except InvalidIdError:
            if not could_be_native_id(text):
                raise ValueError(f"{text!r} is not a session, turn or event ID") from None
            natives.append(text)
    return tuple(keys), tuple(natives)


def parse_forget_request(body: Any) -> ForgetRequest:
    """Return the request in ``body``.

    Raises:
        ValueError: the body is not a forget request (the message says what is wrong).
    """
    if not isinstance(body, dict) or not isinstance(body.get("criteria"), dict):
        raise ValueError("body must be an object with a 'criteria' object")
    raw = body["criteria"]
    unknown = set(raw) - {"ids", "path", "harness", "before", "projects"}
    if unknown:
        raise ValueError(f"unknown criteria: {', '.join(sorted(unknown))}")
    keys, natives = criteria_from_ids(_strings(raw.get("ids"), "ids"))
    before_text = _optional_string(raw.get("before"), "before")
    before = None
    if before_text is not None:
        before = datetime.fromisoformat(before_text.replace("Z", "+00:00"))
        before = before if before.tzinfo else before.replace(tzinfo=UTC)
    criteria = ForgetCriteria(
        session_keys=keys,
        native_ids=natives,
        path=_optional_string(raw.get("path"), "path"),
        harness=_optional_string(raw.get("harness"), "harness"),
        before=before,
        projects=tuple(_strings(raw.get("projects"), "projects")),
    )
    expect = body.get("expect")
    if expect is not None and (not isinstance(expect, int) or isinstance(expect, bool) or expect < 0):
        raise ValueError("expect must be a non-negative integer")
    return ForgetRequest(criteria, expect)


def criteria_json(
    ids: list[str], path: str | None, harness: str | None, before: datetime | None, projects: list[str]
) -> dict[str, Any]:
    """Return the ``criteria`` object of a request."""
    found: dict[str, Any] = {"ids": ids, "projects": projects}
    if path is not None:
        found["path"] = path
    if harness is not None:
        found["harness"] = harness
    if before is not None:
        found["before"] = before.isoformat()
    return found


def target_json(target: ForgetTarget) -> dict[str, Any]:
    """Return how a preview shows one session."""
    return {
        "id": session_id(target.session_key),
        "source": target.source,
        "harness": target.harness,
        "title": target.title,
        "path": target.source_path,
        "updated_at": target.updated_at.isoformat() if target.updated_at else None,
    }


class SelectionChanged(Exception):
    """The criteria no longer select the sessions the user confirmed (the message says how many now)."""


def answer_forget(store: Store, request: ForgetRequest, home: Path | None = None) -> dict[str, Any]:
    """Preview the request's selection, or forget it when it still holds ``expect`` sessions; return the answer.

    Raises:
        SelectionChanged: the selection no longer holds ``expect`` sessions.
        StoreError: the store failed.
    """
    targets = find_sessions(store, request.criteria)
    answer: dict[str, Any] = {"sessions": [target_json(t) for t in targets]}
    if request.expect is None:
        return answer
    if len(targets) != request.expect:
        raise SelectionChanged(
            f"the selection now holds {len(targets)} session(s), not the {request.expect} confirmed: run it again"
        )
    result = forget_sessions(store, targets, home=home)
    answer.update(forgotten=result.sessions, parts_left=result.parts_left)
    return answer
