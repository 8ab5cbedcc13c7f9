"""Drive schemathesis over the HTTP facade's OpenAPI document: per-operation fuzzing and link-following runs.

Used in-process by the pytest modules (``schemathesis.openapi.from_asgi``) and against a live server by
``live.py`` (``schemathesis.openapi.from_url``). Every response must be a schema-valid success or error envelope
of the called tool, never a 5xx, and every error code one of the interface's ten; on a healthy corpus only the
request-level codes may appear (``internal_error`` or ``backend_failure`` means a handler crashed, built an invalid
response, or sent the database something it rejected).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

import schemathesis
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from schemathesis import Case, GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.specs.openapi import stateful as stateful_build
from schemathesis.specs.openapi.schemas import OpenApiSchema

__all__ = [
    "ACCEPTANCE",
    "ERROR_CODES",
    "REQUEST_CODES",
    "FuzzTally",
    "envelope_conforms",
    "fuzz_operation",
    "operation_ids",
    "follow_links",
    "run_stateful",
    "steer",
]

ERROR_CODES = frozenset(
    {
        "invalid_request",
        "invalid_id",
        "not_found",
        "unsupported_event_type",
        "cancelled",
        "deadline_exceeded",
        "busy",
        "resource_exhausted",
        "backend_failure",
        "internal_error",
    }
)
REQUEST_CODES = frozenset({"invalid_request", "invalid_id", "not_found", "unsupported_event_type"})
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
# And whether the document says exactly what the facade accepts (``st run --checks all`` runs these too): a body the
# document allows is not refused as malformed, one it does not allow is not answered 2xx.
ACCEPTANCE = [*CHECKS, positive_data_acceptance, negative_data_rejection]


@dataclass
class FuzzTally:
    """What a run sent and got back: outcomes per operation ("ok" or the error code)."""

    outcomes: dict[str, Counter[str]] = field(default_factory=dict)

    def add(self, operation: str, outcome: str) -> None:
        """Count one response of ``operation``."""
        self.outcomes.setdefault(operation, Counter())[outcome] += 1

    def cases(self, operation: str) -> int:
        """Return how many calls ``operation`` received."""
        return sum(self.outcomes.get(operation, Counter()).values())


def _tool(case: Case) -> str:
    return str(case.operation.definition.raw["operationId"])


def envelope_conforms(response: schemathesis.Response, case: Case, allowed: frozenset[str]) -> str:
    """Assert ``response`` is an envelope of the called tool with an allowed error code; return its outcome."""
    tool = _tool(case)
    body = response.json()
    assert isinstance(body, dict), f"{tool}: response is not a JSON object: {body!r:.200}"
    assert body.get("tool") == tool, f"{tool}: envelope names tool {body.get('tool')!r}"
    if "error" not in body:
        assert body.get("schema_version") == f"moraine.mcp.{tool}.v1", body.get("schema_version")
        return "ok"
    assert body.get("schema_version") == "moraine.mcp.error.v1", body.get("schema_version")
    code = body["error"]["code"]
    assert code in ERROR_CODES, f"{tool}: {code!r} is not one of the ten error codes"
    assert code in allowed, (
        f"{tool}({case.body!r:.300}) answered {code}: {body['error'].get('message')!r:.400} "
        f"details={body['error'].get('details')!r:.200}"
    )
    return str(code)


def _validate(
    case: Case, response: schemathesis.Response, allowed: frozenset[str], checks: list[Any] | None = None
) -> str:
    outcome = envelope_conforms(response, case, allowed)
    case.validate_response(response, checks=checks or CHECKS)
    return outcome


def operation_ids(schema: OpenApiSchema) -> list[str]:
    """Return the schema's operation IDs (the tool names)."""
    return sorted(str(result.ok().definition.raw["operationId"]) for result in schema.get_all_operations())


def fuzz_operation(
    schema: OpenApiSchema,
    operation_id: str,
    cases: int,
    seed_value: int,
    mode: GenerationMode = GenerationMode.POSITIVE,
    allowed: frozenset[str] = REQUEST_CODES,
    tally: FuzzTally | None = None,
    shrink: bool = True,
    checks: list[Any] | None = None,
) -> FuzzTally:
    """Send ``cases`` generated bodies to one operation (deterministic for a seed); raise on the first failure.

    ``checks``: schemathesis checks run on every response besides the envelope's own (default ``CHECKS``)."""
    tally = tally if tally is not None else FuzzTally()
    operation = schema.find_operation_by_id(operation_id)
    label = f"{operation_id}:{mode.value}"

    @seed(seed_value)
    @settings(
        max_examples=cases,
        database=None,
        phases=[Phase.explicit, Phase.reuse, Phase.generate, *([Phase.shrink] if shrink else [])],
        deadline=None,
        print_blob=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case: Case) -> None:
        response = case.call()
        tally.add(label, _validate(case, response, allowed, checks))

    run()
    return tally


def steer(schema: OpenApiSchema, anchors: dict[str, list[dict[str, Any]]]) -> None:
    """Make half of the generated bodies of each tool in ``anchors`` one of its anchor bodies.

    Random queries and datetime ranges rarely match a corpus, so link-following runs start from calls that
    return real hits (a search for a word the corpus has, a listing of the day it covers) often enough.
    """

    @schema.hook("flatmap_body")  # type: ignore[untyped-decorator]
    def anchored(context: Any, body: Any) -> Any:
        choices = anchors.get(str(context.operation.definition.raw["operationId"]), [])
        if not choices:
            return st.just(body)
        return st.one_of(st.just(body), st.sampled_from(choices))


def run_stateful(
    schema: OpenApiSchema,
    scenarios: int,
    steps: int,
    allowed: frozenset[str] = REQUEST_CODES,
    tally: FuzzTally | None = None,
    not_roots: frozenset[str] = frozenset({"open"}),
) -> FuzzTally:
    """Run link-following scenarios (search -> open -> open cursor, list -> open, ...); raise on any failure."""
    tally = tally if tally is not None else FuzzTally()

    # Every operation is a read-only POST that is safe to start from; schemathesis would otherwise drop
    # search_sessions as an entry point because it guesses that within_id names a resource nothing produces.
    # open is not an entry point: random IDs never exist, and the links feed it real ones.
    def is_root(operation: Any, *args: Any) -> bool:
        return str(operation.definition.raw["operationId"]) not in not_roots

    with mock.patch.object(stateful_build, "is_likely_root_transition", is_root):
        base: Any = schema.as_state_machine()

    class Machine(base):  # type: ignore[misc, valid-type]
        via = "root"

        def step(self, input: Any) -> Any:
            applied = input.transition is not None and input.is_applied
            self.via = input.transition.id.rsplit(" -> ", 2)[-2].removeprefix("[200] ") if applied else "root"
            return super().step(input)

        def validate_response(
            self, response: schemathesis.Response, case: Case, additional_checks: Any = None, **kwargs: Any
        ) -> None:
            tally.add(f"{_tool(case)} via {self.via}", _validate(case, response, allowed))

    Machine.run(
        settings=settings(
            max_examples=scenarios,
            stateful_step_count=steps,
            derandomize=True,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
    )
    return tally


def _pointer(envelope: Any, expression: Any) -> tuple[bool, Any]:
    """Resolve a ``$response.body#/a/0/b`` expression against ``envelope`` (literals resolve to themselves)."""
    if not isinstance(expression, str) or not expression.startswith("$response.body#"):
        return True, expression
    node = envelope
    for part in expression.removeprefix("$response.body#").strip("/").split("/"):
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return False, None
    return True, node


def _link_body(link: dict[str, Any], envelope: Any) -> dict[str, Any] | None:
    body: dict[str, Any] = {}
    for key, expression in link["requestBody"].items():
        found, value = _pointer(envelope, expression)
        if not found or (value is None and key in ("id", "cursor", "within_id")):
            return None  # the response has nothing to follow here (no hits, no next page, a boundary)
        body[key] = value
    return body


def follow_links(
    schema: OpenApiSchema,
    seeds: list[tuple[str, dict[str, Any]]],
    max_calls: int = 300,
    allowed: frozenset[str] = REQUEST_CODES,
) -> Counter[str]:
    """Walk the document's links breadth-first from ``seeds``; return how often each link led to a success.

    Deterministic counterpart of ``run_stateful``: every link is evaluated on real responses (its runtime
    expressions resolved against the previous envelope), and every response is checked like the fuzzed ones.
    """
    document = schema.raw_schema
    links = {
        str(item["post"]["operationId"]): item["post"]["responses"]["200"].get("links", {})
        for item in document["paths"].values()
    }
    followed: Counter[str] = Counter()
    frontier: list[tuple[str, dict[str, Any], str | None]] = [(tool, body, None) for tool, body in seeds]
    calls = 0
    while frontier and calls < max_calls:
        tool, body, via = frontier.pop(0)
        case = schema.find_operation_by_id(tool).Case(body=body, media_type="application/json")
        response = case.call()
        calls += 1
        if _validate(case, response, allowed) != "ok":
            continue
        if via is not None:
            if followed[via] >= 3:
                continue  # enough of this link: keep the walk broad rather than deep
            followed[via] += 1
        envelope = response.json()
        for name, link in sorted(links.get(tool, {}).items()):
            next_body = _link_body(link, envelope)
            if next_body is not None:
                frontier.append((str(link["operationId"]), next_body, name))
    return followed
