"""TypeScript types generated from ``spec/`` alone (json-schema-to-typescript from the npm registry) accept every
kind of real server response under ``tsc --strict``, and reject a response with a property the spec does not have.

Skipped, with the reason, when node/npm are missing or the packages do not install (e.g. no registry access).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

PACKAGES = ["json-schema-to-typescript@16", "typescript@5"]
ROOTS = {
    "search_sessions": "search_sessions/response.schema.json",
    "list_sessions": "list_sessions/response.schema.json",
    "open": "open/response.schema.json",
    "file_attention": "file_attention/response.schema.json",
    "error": "error.schema.json",
}
TYPES = {
    "search_sessions": ("search_sessions", "SearchSessionsResponse"),
    "list_sessions": ("list_sessions", "ListSessionsResponse"),
    "file_attention sessions": ("file_attention", "FileAttentionResponse"),
    "file_attention events": ("file_attention", "FileAttentionResponse"),
    "open session": ("open", "OpenResponse"),
    "open turn": ("open", "OpenResponse"),
    "open event": ("open", "OpenResponse"),
    "error open": ("error", "ErrorEnvelope"),
    "error search_sessions": ("error", "ErrorEnvelope"),
}
GENERATE = """
const { compileFromFile } = require("json-schema-to-typescript");
const fs = require("fs");
const path = require("path");
const [schemas, out, roots] = process.argv.slice(2);
(async () => {
  for (const [name, rel] of Object.entries(JSON.parse(roots))) {
    const file = path.join(schemas, rel);
    const ts = await compileFromFile(file, { cwd: path.dirname(file), bannerComment: "" });
    fs.writeFileSync(path.join(out, `${name}.ts`), ts);
  }
})().catch((e) => { console.error(e); process.exit(1); });
"""


def _skip(reason: str) -> None:
    print(f"SKIPPED TypeScript bindings: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def node_tools(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Install the generator and the compiler from the npm registry into a fresh directory (or skip)."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        _skip("node and npm are not both on PATH")
    prefix = tmp_path_factory.mktemp("npm")
    try:
        done = subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", str(prefix), *PACKAGES],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        _skip(f"npm install {' '.join(PACKAGES)} timed out")
    if done.returncode != 0:
        _skip(f"npm install {' '.join(PACKAGES)} failed: {done.stderr.strip()[-500:]}")
    return prefix


def _compile(
    node_tools: Path, work: Path, responses: dict[str, dict[str, Any]]
) -> subprocess.CompletedProcess[str]:
    lines = []
    for module, name in sorted(set(TYPES.values())):
        lines.append(f'import type {{ {name} as {module}_{name} }} from "./{module}";')
    for index, (kind, (module, name)) in enumerate(TYPES.items()):
        lines.append(f"// {kind}\nexport const r{index}: {module}_{name} = {json.dumps(responses[kind])};")
    (work / "check.ts").write_text("\n".join(lines) + "\n", encoding="utf-8")
    tsc = node_tools / "node_modules" / ".bin" / "tsc"
    command = [
        str(tsc),
        "--noEmit",
        "--strict",
        "--target",
        "es2020",
        "--moduleResolution",
        "node",
        "check.ts",
    ]
    return subprocess.run(command, cwd=work, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_types_generated_from_spec_alone_accept_every_kind_of_response(
    node_tools: Path, spec_schemas: Path, tmp_path: Path, responses: dict[str, dict[str, Any]]
) -> None:
    work = tmp_path / "ts"
    work.mkdir()
    (work / "generate.js").write_text(GENERATE, encoding="utf-8")
    done = subprocess.run(
        ["node", "generate.js", str(spec_schemas), str(work), json.dumps(ROOTS)],
        cwd=work, env={"NODE_PATH": str(node_tools / "node_modules"), "PATH": str(Path(shutil.which("node") or "node").parent)},
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "export interface OpenEventData" in (work / "open.ts").read_text(encoding="utf-8")
    checked = _compile(node_tools, work, responses)
    assert checked.returncode == 0, checked.stdout[-3000:] + checked.stderr[-2000:]
    tampered = {**responses, "open event": {**responses["open event"], "surprise": True}}
    rejected = _compile(node_tools, work, tampered)
    assert rejected.returncode != 0 and "surprise" in rejected.stdout, rejected.stdout[-2000:]
