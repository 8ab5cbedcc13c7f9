"""One MCP connection seen as the interface document sees it: envelopes, validated against each tool's outputSchema."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator
from mcp import Client

__all__ = ["Answer", "Probe"]


@dataclass(frozen=True)
class Answer:
    """A tool call's envelope as the client received it (``problems`` lists contract breaches of the envelope)."""

    tool: str
    arguments: dict[str, Any]
    envelope: dict[str, Any]
    is_error: bool
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.is_error and not self.problems

    @property
    def data(self) -> dict[str, Any]:
        return dict(self.envelope.get("data") or {})

    @property
    def code(self) -> str | None:
        return str(self.envelope["error"]["code"]) if "error" in self.envelope else None

    @property
    def field(self) -> str | None:
        if "error" not in self.envelope:
            return None
        value = (self.envelope["error"].get("details") or {}).get("field")
        return str(value) if value is not None else None

    def describe(self) -> str:
        """Return a one-line account of the answer for the table."""
        if self.problems:
            return "; ".join(self.problems)[:300]
        if "error" in self.envelope:
            error = self.envelope["error"]
            return f"{error['code']} (field={self.field}): {str(error.get('message'))[:160]}"
        return f"ok {_shape(self.data)}"


def _shape(data: dict[str, Any]) -> str:
    if "kind" in data:
        return f"kind={data['kind']}"
    if "result_count" in data:
        return f"result_count={data['result_count']}"
    return ""


@dataclass
class Probe:
    """Calls tools through an open ``mcp.Client`` and checks every envelope against the tool's outputSchema."""

    client: Client
    validators: dict[str, Draft202012Validator] = field(default_factory=dict)
    calls: int = 0

    async def load_tools(self) -> list[str]:
        """List the server's tools and compile their output schemas; return the tool names."""
        listed = await self.client.list_tools()
        for tool in listed.tools:
            if tool.output_schema:
                self.validators[tool.name] = Draft202012Validator(tool.output_schema)
        return [tool.name for tool in listed.tools]

    async def call(self, tool: str, arguments: dict[str, Any]) -> Answer:
        """Call ``tool`` and return its envelope with any envelope-level contract problems."""
        self.calls += 1
        result = await self.client.call_tool(tool, arguments)
        envelope = result.structured_content
        problems: list[str] = []
        if not isinstance(envelope, dict):
            return Answer(tool, arguments, {}, True, ("no structuredContent envelope",))
        validator = self.validators.get(tool)
        if validator is None:
            problems.append(f"{tool} has no outputSchema")
        else:
            errors = sorted(validator.iter_errors(envelope), key=lambda e: list(e.path))
            problems.extend(
                f"outputSchema: {'/'.join(map(str, e.path))}: {e.message[:160]}" for e in errors[:3]
            )
        is_error = "error" in envelope
        if bool(result.is_error) != is_error:
            problems.append(
                f"isError={result.is_error} but the envelope is {'an error' if is_error else 'a success'}"
            )
        expected = "moraine.mcp.error.v1" if is_error else f"moraine.mcp.{tool}.v1"
        if envelope.get("schema_version") != expected:
            problems.append(f"schema_version {envelope.get('schema_version')!r}, expected {expected!r}")
        if envelope.get("tool") != tool:
            problems.append(f"tool {envelope.get('tool')!r}, expected {tool!r}")
        if not isinstance(envelope.get("warnings"), list):
            problems.append("warnings is not an array")
        return Answer(tool, arguments, envelope, is_error, tuple(problems))
