"""Load stage: read ``spec/``, validate it, and resolve every ``$ref`` to one flat table of named definitions.

Every schema document and every ``$defs`` entry has a ``title`` that is its unique name across ``spec/``; a reference
(``file.json``, ``file.json#/$defs/Name`` or ``#/$defs/Name``) becomes ``#/$defs/Name``, so any definition can be
bundled into a self-contained schema with the definitions it uses.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from codegen.diagnostics import Diagnostic, Severity, SpecError

__all__ = ["DIALECT", "ServerInfo", "Spec", "ToolSpec", "load"]

DIALECT = "https://json-schema.org/draft/2020-12/schema"
# Keywords whose meaning differs from draft-07 (fastjsonschema would silently misread them): DESIGN.md.
_FORBIDDEN = frozenset(
    {
        "prefixItems",
        "unevaluatedProperties",
        "unevaluatedItems",
        "$dynamicRef",
        "$dynamicAnchor",
        "$recursiveRef",
        "$recursiveAnchor",
        "$anchor",
        "$id",
        "dependentSchemas",
        "dependentRequired",
        "minContains",
        "maxContains",
    }
)
_MANIFEST = "manifest.json"
_ANNOTATIONS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class ServerInfo:
    name: str
    title: str
    instructions: str


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool of the manifest; schemas are named by their titles."""

    name: str
    title: str
    description: str
    annotations: tuple[tuple[str, bool], ...]
    arguments: str
    request: str
    response: str


@dataclass(frozen=True, slots=True)
class Spec:
    """The whole contract: named definitions (refs already rewritten), tools, error envelope, digest."""

    definitions: dict[str, Json]
    sources: dict[str, str]
    tools: tuple[ToolSpec, ...]
    error: str
    server: ServerInfo
    digest: str

    def closure(self, *names: str) -> list[str]:
        """Return the sorted names of the definitions reachable from ``names`` (excluding ``names``)."""
        seen: set[str] = set()
        stack = list(names)
        while stack:
            for ref in _refs(self.definitions[stack.pop()]):
                if ref not in seen and ref not in names:
                    seen.add(ref)
                    stack.append(ref)
        return sorted(seen)

    def bundle(self, name: str) -> Json:
        """Return definition ``name`` as a self-contained JSON Schema (its dependencies under ``$defs``)."""
        body = {"$schema": DIALECT, **self.definitions[name]}
        deps = self.closure(name)
        if deps:
            body["$defs"] = {dep: self.definitions[dep] for dep in deps}
        return body


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value.removeprefix("#/$defs/")
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def load(spec_dir: Path) -> Spec:
    """Read and check ``spec_dir``; return the resolved contract.

    Raises:
        SpecError: with every diagnostic found, when any is an error.
    """
    loader = _Loader(spec_dir)
    spec = loader.run()
    errors = [d for d in loader.diagnostics if d.severity is Severity.ERROR]
    if errors or spec is None:
        raise SpecError(loader.diagnostics)
    return spec


class _Loader:
    def __init__(self, spec_dir: Path) -> None:
        self.root = spec_dir
        self.diagnostics: list[Diagnostic] = []
        self.raw: dict[str, Json] = {}
        self.names: dict[tuple[str, str], str] = {}  # (file, pointer) -> definition name
        self.sources: dict[str, str] = {}  # definition name -> file

    def error(self, file: str, pointer: str, message: str) -> None:
        self.diagnostics.append(Diagnostic(Severity.ERROR, file, pointer, message))

    def run(self) -> Spec | None:
        manifest = self._read(_MANIFEST)
        if manifest is None:
            return None
        files = sorted(
            p.relative_to(self.root).as_posix()
            for p in self.root.rglob("*.schema.json")
            if "examples" not in p.relative_to(self.root).parts
        )
        for file in files:
            document = self._read(file)
            if document is not None:
                self._check_document(file, document)
                self.raw[file] = document
        for file, document in self.raw.items():
            self._register(file, document)
        definitions = {name: self._resolve(file, pointer) for (file, pointer), name in self.names.items()}
        definitions = dict(sorted(definitions.items()))
        tools, error, server = self._manifest(manifest)
        digest = hashlib.sha256()
        for file in [_MANIFEST, *files]:
            digest.update(file.encode() + b"\0" + (self.root / file).read_bytes() + b"\0")
        if any(d.severity is Severity.ERROR for d in self.diagnostics) or server is None:
            return None
        return Spec(definitions, dict(sorted(self.sources.items())), tools, error, server, digest.hexdigest())

    def _read(self, file: str) -> Json | None:
        try:
            value = json.loads((self.root / file).read_text(encoding="utf-8"))
        except FileNotFoundError:
            self.error(file, "", "file is missing")
            return None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            self.error(file, "", f"not valid JSON: {exc}")
            return None
        if not isinstance(value, dict):
            self.error(file, "", "top level must be a JSON object")
            return None
        return value

    def _check_document(self, file: str, document: Json) -> None:
        if document.get("$schema") != DIALECT:
            self.error(file, "/$schema", f"must be {DIALECT}")
        try:
            Draft202012Validator.check_schema(document)
        except SchemaError as exc:
            self.error(
                file, "/" + "/".join(str(p) for p in exc.path), f"not a valid JSON Schema: {exc.message}"
            )
        for pointer, key in _walk_keys(document, ""):
            if key in _FORBIDDEN:
                self.error(file, pointer, f"keyword {key} is not allowed (draft-07-compatible keywords only)")

    def _register(self, file: str, document: Json) -> None:
        entries = [("", document)]
        defs = document.get("$defs", {})
        if isinstance(defs, dict):
            entries += [(f"/$defs/{key}", value) for key, value in defs.items()]
        for pointer, node in entries:
            title = node.get("title") if isinstance(node, dict) else None
            if not isinstance(title, str) or not title.isidentifier() or not title[:1].isupper():
                self.error(file, pointer or "/", "needs a CapWords title (its name across spec/)")
                continue
            if pointer and pointer != f"/$defs/{title}":
                self.error(file, pointer, f"title {title!r} must equal its $defs key")
            if title in self.sources:
                self.error(
                    file, pointer or "/", f"name {title!r} is already defined in {self.sources[title]}"
                )
                continue
            self.names[(file, pointer)] = title
            self.sources[title] = file

    def _resolve(self, file: str, pointer: str) -> Json:
        node = self.raw[file]
        if pointer:
            node = node["$defs"][pointer.removeprefix("/$defs/")]
        body = {k: v for k, v in node.items() if k not in ("$schema", "$defs")}
        return dict(self._rewrite(file, pointer, body))

    def _rewrite(self, file: str, pointer: str, node: Any) -> Any:
        if isinstance(node, dict):
            out = {}
            for key, value in node.items():
                if key == "$ref":
                    out[key] = self._target(file, pointer, value)
                else:
                    out[key] = self._rewrite(file, f"{pointer}/{key}", value)
            return out
        if isinstance(node, list):
            return [self._rewrite(file, f"{pointer}/{i}", item) for i, item in enumerate(node)]
        return node

    def _target(self, file: str, pointer: str, ref: Any) -> str:
        if not isinstance(ref, str):
            self.error(file, pointer, "$ref must be a string")
            return ""
        path, _, fragment = ref.partition("#")
        target_file = file
        if path:
            target_file = (PurePosixPath(file).parent / path).as_posix()
            parts: list[str] = []
            for part in target_file.split("/"):
                if part == "..":
                    if parts:
                        parts.pop()
                elif part not in ("", "."):
                    parts.append(part)
            target_file = "/".join(parts)
        name = self.names.get((target_file, fragment))
        if name is None:
            self.error(file, pointer, f"$ref {ref!r} does not name a titled document or $defs entry in spec/")
            return ref
        return f"#/$defs/{name}"

    def _manifest(self, manifest: Json) -> tuple[tuple[ToolSpec, ...], str, ServerInfo | None]:
        tools: list[ToolSpec] = []
        server_raw = manifest.get("server")
        server = None
        if isinstance(server_raw, dict) and all(
            isinstance(server_raw.get(k), str) for k in ("name", "title", "instructions")
        ):
            server = ServerInfo(server_raw["name"], server_raw["title"], server_raw["instructions"])
        else:
            self.error(_MANIFEST, "/server", "needs string name, title and instructions")
        error = self._schema_name(manifest.get("error"), "/error")
        raw_tools = manifest.get("tools")
        if not isinstance(raw_tools, list) or not raw_tools:
            self.error(_MANIFEST, "/tools", "needs a non-empty list of tools")
            return (), error, server
        for index, raw in enumerate(raw_tools):
            where = f"/tools/{index}"
            if not isinstance(raw, dict):
                self.error(_MANIFEST, where, "must be an object")
                continue
            texts = [raw.get(k) for k in ("name", "title", "description")]
            annotations = raw.get("annotations")
            if not all(isinstance(t, str) and t.strip() for t in texts):
                self.error(_MANIFEST, where, "needs non-empty name, title and description")
                continue
            if (
                not isinstance(annotations, dict)
                or set(annotations) != set(_ANNOTATIONS)
                or not all(isinstance(v, bool) for v in annotations.values())
            ):
                self.error(
                    _MANIFEST, f"{where}/annotations", f"needs exactly the booleans {', '.join(_ANNOTATIONS)}"
                )
                continue
            tools.append(
                ToolSpec(
                    name=str(texts[0]),
                    title=str(texts[1]),
                    description=str(texts[2]),
                    annotations=tuple((k, bool(annotations[k])) for k in _ANNOTATIONS),
                    arguments=self._schema_name(raw.get("arguments"), f"{where}/arguments"),
                    request=self._schema_name(raw.get("request"), f"{where}/request"),
                    response=self._schema_name(raw.get("response"), f"{where}/response"),
                )
            )
        names = [t.name for t in tools]
        if len(set(names)) != len(names):
            self.error(_MANIFEST, "/tools", "tool names must be unique")
        return tuple(sorted(tools, key=lambda t: t.name)), error, server

    def _schema_name(self, file: Any, where: str) -> str:
        name = self.names.get((file, "")) if isinstance(file, str) else None
        if name is None:
            self.error(_MANIFEST, where, f"{file!r} is not a schema document in spec/")
            return ""
        return name


_NAME_MAPS = frozenset({"properties", "$defs", "patternProperties"})  # their keys are names, not keywords


def _walk_keys(node: Any, pointer: str) -> Iterator[tuple[str, str]]:
    """Yield (pointer, keyword) for every schema keyword in ``node``, skipping the names in name maps."""
    if isinstance(node, dict):
        for key, value in node.items():
            here = f"{pointer}/{key}"
            yield here, key
            if key in _NAME_MAPS and isinstance(value, dict):
                for name, subschema in value.items():
                    yield from _walk_keys(subschema, f"{here}/{name}")
            elif key not in ("const", "enum", "default", "examples"):
                yield from _walk_keys(value, here)
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _walk_keys(item, f"{pointer}/{i}")
