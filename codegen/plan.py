"""Plan stage: make every decision (names, bundled schemas, descriptor text, OpenAPI layout) before rendering."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from codegen.diagnostics import Diagnostic, Severity, SpecError
from codegen.links import links_for
from codegen.load import DIALECT, Spec, ToolSpec
from codegen.names import ClassName, PythonIdentifier
from codegen.portable import portable

__all__ = ["MODEL_ROOT", "OPENAPI_PREFIX", "Plan", "ToolPlan", "ValidatorPlan", "plan"]

Json = dict[str, Any]
MODEL_ROOT = ClassName("MoraineContract")
OPENAPI_PREFIX = "/v1/tools/"
_SCHEMA_VERSION_ERROR = "moraine.mcp.error.v1"


@dataclass(frozen=True, slots=True)
class ValidatorPlan:
    """One fast validator module: its name and the self-contained schema it checks."""

    module: PythonIdentifier
    schema_name: str
    schema: Json


@dataclass(frozen=True, slots=True)
class ToolPlan:
    name: PythonIdentifier
    title: str
    description: str
    annotations: Json
    schema_version: str
    arguments_class: ClassName
    request_class: ClassName
    response_class: ClassName
    data_class: ClassName
    arguments_validator: PythonIdentifier
    request_validator: PythonIdentifier
    response_validator: PythonIdentifier
    output_validator: PythonIdentifier
    descriptor: Json


@dataclass(frozen=True, slots=True)
class Plan:
    digest: str
    server: Json
    tools: tuple[ToolPlan, ...]
    error_class: ClassName
    error_schema_version: str
    error_validator: PythonIdentifier
    validators: tuple[ValidatorPlan, ...]
    model_document: Json
    openapi: Json


def _module_name(title: str) -> PythonIdentifier:
    return PythonIdentifier(re.sub(r"(?<!^)(?=[A-Z])", "_", title).lower())


def plan(spec: Spec) -> Plan:
    """Return the complete, template-ready plan for ``spec``.

    Raises:
        SpecError: when the manifest and the schemas disagree (tool name, schema_version, data shape).
    """
    diagnostics: list[Diagnostic] = []
    tools = []
    validators = []
    error_version = _const(spec, spec.error, "schema_version", diagnostics)
    for tool in spec.tools:
        tool_plan, tool_validators = _tool(spec, tool, diagnostics)
        if tool_plan is not None:
            tools.append(tool_plan)
            validators.extend(tool_validators)
    if error_version != _SCHEMA_VERSION_ERROR:
        diagnostics.append(
            Diagnostic(
                Severity.ERROR,
                spec.sources.get(spec.error, ""),
                "/properties/schema_version",
                f"error envelope schema_version must be {_SCHEMA_VERSION_ERROR}",
            )
        )
    if any(d.severity is Severity.ERROR for d in diagnostics):
        raise SpecError(diagnostics)
    error_validator = _module_name(spec.error)
    validators.append(ValidatorPlan(error_validator, spec.error, spec.bundle(spec.error)))
    roots = [spec.error] + [name for t in spec.tools for name in (t.arguments, t.request, t.response)]
    return Plan(
        digest=spec.digest,
        server={
            "name": spec.server.name,
            "title": spec.server.title,
            "instructions": spec.server.instructions,
        },
        tools=tuple(tools),
        error_class=ClassName(spec.error),
        error_schema_version=_SCHEMA_VERSION_ERROR,
        error_validator=error_validator,
        validators=tuple(sorted(validators, key=lambda v: v.module)),
        model_document=_model_document(spec, roots),
        openapi=_openapi(spec, tools, roots),
    )


def _const(spec: Spec, name: str, key: str, diagnostics: list[Diagnostic]) -> str:
    value = spec.definitions[name].get("properties", {}).get(key, {}).get("const")
    if not isinstance(value, str):
        diagnostics.append(
            Diagnostic(
                Severity.ERROR, spec.sources.get(name, ""), f"/properties/{key}", "needs a string const"
            )
        )
        return ""
    return value


def _tool(
    spec: Spec, tool: ToolSpec, diagnostics: list[Diagnostic]
) -> tuple[ToolPlan | None, list[ValidatorPlan]]:
    version = _const(spec, tool.response, "schema_version", diagnostics)
    name_const = _const(spec, tool.response, "tool", diagnostics)
    file = spec.sources.get(tool.response, "")
    if name_const and name_const != tool.name:
        diagnostics.append(
            Diagnostic(Severity.ERROR, file, "/properties/tool", f"const must be {tool.name!r}")
        )
    if version and version != f"moraine.mcp.{tool.name}.v1":
        diagnostics.append(
            Diagnostic(
                Severity.ERROR, file, "/properties/schema_version", f"must be moraine.mcp.{tool.name}.v1"
            )
        )
    data_ref = spec.definitions[tool.response].get("properties", {}).get("data", {}).get("$ref", "")
    request_ref = spec.definitions[tool.response].get("properties", {}).get("request", {}).get("$ref", "")
    if not data_ref.startswith("#/$defs/"):
        diagnostics.append(
            Diagnostic(Severity.ERROR, file, "/properties/data", "must be a $ref to a named data shape")
        )
        return None, []
    if request_ref != f"#/$defs/{tool.request}":
        diagnostics.append(
            Diagnostic(Severity.ERROR, file, "/properties/request", f"must be a $ref to {tool.request}")
        )
    output_schema = {
        "$schema": DIALECT,
        "type": "object",
        "oneOf": [{"$ref": f"#/$defs/{tool.response}"}, {"$ref": f"#/$defs/{spec.error}"}],
        "$defs": {
            name: spec.definitions[name]
            for name in sorted({tool.response, spec.error, *spec.closure(tool.response, spec.error)})
        },
    }
    input_schema = spec.bundle(tool.arguments)
    name = PythonIdentifier(tool.name)
    validators = [
        ValidatorPlan(_module_name(tool.arguments), tool.arguments, input_schema),
        ValidatorPlan(_module_name(tool.request), tool.request, spec.bundle(tool.request)),
        ValidatorPlan(_module_name(tool.response), tool.response, spec.bundle(tool.response)),
        ValidatorPlan(PythonIdentifier(f"{name}_output"), f"{tool.response} | {spec.error}", output_schema),
    ]
    descriptor = {
        "name": tool.name,
        "title": tool.title,
        "description": tool.description,
        "inputSchema": portable(input_schema),
        "outputSchema": portable(output_schema),
        "annotations": {"title": tool.title, **dict(tool.annotations)},
    }
    return (
        ToolPlan(
            name=name,
            title=tool.title,
            description=tool.description,
            annotations=dict(tool.annotations),
            schema_version=version,
            arguments_class=ClassName(tool.arguments),
            request_class=ClassName(tool.request),
            response_class=ClassName(tool.response),
            data_class=ClassName(data_ref.removeprefix("#/$defs/")),
            arguments_validator=validators[0].module,
            request_validator=validators[1].module,
            response_validator=validators[2].module,
            output_validator=validators[3].module,
            descriptor=descriptor,
        ),
        validators,
    )


def _model_document(spec: Spec, roots: list[str]) -> Json:
    """Return one document holding every definition the tools use, shaped for datamodel-code-generator.

    Pydantic cannot put a pattern on a datetime, so ``pattern`` is dropped where ``format`` is ``date-time`` (the
    validators, not the models, enforce the pattern).
    """
    names = sorted({*roots, *spec.closure(*roots)})
    inline = {
        name: spec.definitions[name] for name in names if _is_plain_scalar(name, spec.definitions[name])
    }
    return {
        "$schema": DIALECT,
        "title": MODEL_ROOT,
        "$defs": {
            name: _drop_datetime_patterns(_inline(spec.definitions[name], inline))
            for name in names
            if name not in inline
        },
    }


def _is_plain_scalar(name: str, body: Json) -> bool:
    """Tell whether a definition becomes a plain annotated field in the models rather than a class of its own.

    Typed IDs keep their own classes (STYLE.md: ids get their own types); other scalars (counts, timestamps,
    non-enum strings, warnings lists) are inlined so handlers read and write plain values.
    """
    if name.endswith("Id") or "enum" in body or "oneOf" in body or "anyOf" in body:
        return False
    kinds = body.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    return "object" not in kinds and None not in kinds


def _inline(node: Any, inline: dict[str, Json]) -> Any:
    if isinstance(node, dict):
        ref = node.get("$ref", "")
        name = ref.removeprefix("#/$defs/") if isinstance(ref, str) else ""
        if name in inline:
            body = {k: v for k, v in inline[name].items() if k != "title"}
            siblings = {k: _inline(v, inline) for k, v in node.items() if k != "$ref"}
            return _inline({**body, **siblings}, inline)
        return {k: _inline(v, inline) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(item, inline) for item in node]
    return node


def _drop_datetime_patterns(node: Any) -> Any:
    if isinstance(node, dict):
        out = {k: _drop_datetime_patterns(v) for k, v in node.items()}
        if out.get("format") == "date-time":
            out.pop("pattern", None)
        return out
    if isinstance(node, list):
        return [_drop_datetime_patterns(item) for item in node]
    return node


def _to_components(node: Any) -> Any:
    if isinstance(node, dict):
        return {
            k: (v.replace("#/$defs/", "#/components/schemas/") if k == "$ref" else _to_components(v))
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_to_components(item) for item in node]
    return node


# The server's gate answers these before any tool runs (transport-level refusals, not tool results).
_REFUSAL_BODY: Json = {
    "type": "object",
    "required": ["detail"],
    "properties": {"detail": {"type": "string", "description": "Why the request was refused."}},
}
_REFUSALS: Json = {
    status: {"description": description, "content": {"application/json": {"schema": _REFUSAL_BODY}}}
    for status, description in (
        ("401", "The install's secret is missing or wrong (send it as a bearer token)."),
        ("403", "The Origin header names another origin than the server's own."),
        ("413", "The body is larger than 4 MiB."),
        ("415", "The body is not application/json."),
        ("421", "The Host header does not name the server's loopback address."),
    )
}
_INSTALL_SECRET: Json = {
    "type": "http",
    "scheme": "bearer",
    "description": "The per-install secret in $MORAINE_HOME/run/http-secret (the web page uses a session cookie "
    "set by a one-time login link instead).",
}


def _nullable(prop: Json) -> Json:
    """Return ``prop`` accepting null too: ``type`` gains ``"null"`` when it alone says what the value is, otherwise
    (a ``$ref``, an ``enum``) the schema becomes one branch of an ``anyOf`` with null; annotations stay outside."""
    kinds = prop.get("type")
    if (isinstance(kinds, list) and "null" in kinds) or {"type": "null"} in prop.get("anyOf", []):
        return prop
    if isinstance(kinds, str) and "$ref" not in prop and "enum" not in prop and "const" not in prop:
        return {**prop, "type": [kinds, "null"]}
    annotations = {k: v for k, v in prop.items() if k in ("description", "default", "title", "examples")}
    body = {k: v for k, v in prop.items() if k not in annotations}
    return {**annotations, "anyOf": [body, {"type": "null"}]}


def _null_as_omitted(arguments: Json) -> Json:
    """Return a tool's arguments schema as the facade accepts it: an optional argument may be sent as null (the
    server takes it as left out, ``moraine.server.requests.drop_null_options``), so the document says so. The MCP
    ``inputSchema`` keeps one plain type per argument for clients that convert arguments by type."""
    required = set(arguments.get("required", ()))
    properties = arguments.get("properties", {})
    return {
        **arguments,
        "properties": {
            name: prop if name in required else _nullable(prop) for name, prop in properties.items()
        },
    }


def _openapi(spec: Spec, tools: list[ToolPlan], roots: list[str]) -> Json:
    names = sorted({*roots, *spec.closure(*roots)})
    arguments = {str(tool.arguments_class) for tool in tools}
    paths: Json = {}
    for tool in tools:
        paths[f"{OPENAPI_PREFIX}{tool.name}"] = {
            "post": {
                "operationId": tool.name,
                "summary": tool.title,
                "description": tool.description,
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {"$ref": f"#/components/schemas/{tool.arguments_class}"}
                        }
                    },
                },
                "responses": {
                    "200": {
                        "description": "The tool result: a success envelope or an error envelope.",
                        **links_for(tool.name, {t.name for t in tools}),
                        "content": {
                            "application/json": {
                                "schema": {
                                    "oneOf": [
                                        {"$ref": f"#/components/schemas/{tool.response_class}"},
                                        {"$ref": f"#/components/schemas/{spec.error}"},
                                    ]
                                }
                            }
                        },
                    },
                    "400": {
                        "description": "The body is not JSON or does not match the tool's arguments schema: the "
                        "tool's error envelope, as the same call over MCP returns it.",
                        "content": {
                            "application/json": {"schema": {"$ref": f"#/components/schemas/{spec.error}"}}
                        },
                    },
                    "422": {
                        "description": "The body matches the tool's arguments schema but breaks a rule the schema "
                        "cannot state (an end before its start, a date that does not exist, an ID of the wrong "
                        "kind): the tool's error envelope, as the same call over MCP returns it.",
                        "content": {
                            "application/json": {"schema": {"$ref": f"#/components/schemas/{spec.error}"}}
                        },
                    },
                    **_REFUSALS,
                },
            }
        }
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": DIALECT,
        "info": {
            "title": spec.server.title,
            "version": "1",
            "description": f"HTTP facade of the {spec.server.name} MCP tools. {spec.server.instructions}",
            "x-spec-sha256": spec.digest,
        },
        "paths": paths,
        "components": {
            "schemas": {
                name: _to_components(
                    _null_as_omitted(spec.definitions[name]) if name in arguments else spec.definitions[name]
                )
                for name in names
            },
            "securitySchemes": {"installSecret": _INSTALL_SECRET},
        },
        "security": [{"installSecret": []}],
    }
