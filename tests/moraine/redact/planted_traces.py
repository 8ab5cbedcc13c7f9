"""Trace files of three harnesses (Claude Code, Codex, Qwen Code) with every corpus secret planted in them.

Each secret appears where an agent's history really carries one: typed by the user, inside a shell command and its
output, in a file written by a tool (its path is a tool argument, so it becomes a file touch), in a compaction
summary whose conversation has not been seen yet (Claude Code keeps it in its checkpoint state), in a session title,
and on an unparseable line (an ingest error). Formats follow the fixtures under ``tests/fixtures``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.moraine.redact.secrets_corpus import Secret

__all__ = ["ENV_FILE", "write_claude_code", "write_codex", "write_qwen"]

ENV_FILE = "/home/dev/vault/.env"  # the file every harness writes the secrets into
_CWD = "/home/dev/vault"


def _lines(records: Sequence[dict[str, Any]]) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


def _clock(index: int) -> str:
    return f"2026-04-01T10:{index // 60:02d}:{index % 60:02d}.000Z"


def write_claude_code(root: Path, secrets: Sequence[Secret]) -> Path:
    """Write one Claude Code transcript; return its directory."""
    session = "9a1e6c5d-2b4f-4c8e-8d7a-3f2e1d0c9b8a"
    base = {
        "cwd": _CWD,
        "sessionId": session,
        "version": "2.1.30",
        "userType": "external",
        "isSidechain": False,
    }
    records: list[dict[str, Any]] = [
        {"type": "summary", "summary": f"Rotate {secrets[0].line}", "leafUuid": "not-seen-yet"},
        {"type": "custom-title", "customTitle": f"creds {secrets[1].line}", "sessionId": session},
    ]
    parent = None
    for index, secret in enumerate(secrets):
        ids = [f"u{index}", f"a{index}", f"r{index}", f"f{index}"]
        records += [
            {**base, "type": "user", "uuid": ids[0], "parentUuid": parent, "timestamp": _clock(4 * index),
             "message": {"role": "user", "content": f"Why does this fail? {secret.line}"}},
            {**base, "type": "assistant", "uuid": ids[1], "parentUuid": ids[0], "timestamp": _clock(4 * index + 1),
             "message": {"role": "assistant", "model": "claude-sonnet-4-5", "stop_reason": "tool_use", "content": [
                 {"type": "tool_use", "id": f"toolu_{index}", "name": "Bash",
                  "input": {"command": f"echo '{secret.line}' >> {ENV_FILE}", "description": secret.line}},
                 {"type": "tool_use", "id": f"toolu_w{index}", "name": "Write",
                  "input": {"file_path": ENV_FILE, "content": secret.line}}]}},
            {**base, "type": "user", "uuid": ids[2], "parentUuid": ids[1], "timestamp": _clock(4 * index + 2),
             "message": {"role": "user", "content": [
                 {"type": "tool_result", "tool_use_id": f"toolu_{index}", "content": f"wrote {secret.line}"},
                 {"type": "tool_result", "tool_use_id": f"toolu_w{index}", "content": "ok"}]}},
            {**base, "type": "assistant", "uuid": ids[3], "parentUuid": ids[2], "timestamp": _clock(4 * index + 3),
             "message": {"role": "assistant", "model": "claude-sonnet-4-5", "stop_reason": "end_turn",
                         "content": [{"type": "text", "text": f"Stored it: {secret.line}"}]}},
        ]  # fmt: skip
        parent = ids[3]
    folder = root / "claude" / "-home-dev-vault"
    folder.mkdir(parents=True)
    text = _lines(records) + "{not json " + secrets[2].line.replace("\n", " ") + "\n"
    (folder / f"{session}.jsonl").write_text(text, encoding="utf-8")
    return root / "claude"


def write_codex(root: Path, secrets: Sequence[Secret]) -> Path:
    """Write one Codex rollout; return its directory."""
    session = "0196b2c3-d4e5-7f60-8a9b-0c1d2e3f4a5b"
    records: list[dict[str, Any]] = [
        {"timestamp": _clock(0), "type": "session_meta", "payload": {
            "id": session, "timestamp": _clock(0), "cwd": _CWD, "originator": "codex_cli_rs", "cli_version": "0.104.0",
            "source": "cli", "model_provider": "openai", "base_instructions": {"text": "You are Codex."}}},
        {"timestamp": _clock(0), "type": "turn_context", "payload": {"turn_id": "t1", "cwd": _CWD, "model": "gpt-5"}},
    ]  # fmt: skip
    for index, secret in enumerate(secrets):
        call = f"call_{index}"
        records += [
            {"timestamp": _clock(index), "type": "event_msg",
             "payload": {"type": "user_message", "message": f"use {secret.line}", "kind": "plain"}},
            {"timestamp": _clock(index), "type": "response_item", "payload": {
                "type": "function_call", "name": "exec_command", "call_id": call,
                "arguments": json.dumps({"cmd": f"printf '%s' '{secret.line}' > {ENV_FILE}", "workdir": _CWD})}},
            {"timestamp": _clock(index), "type": "response_item", "payload": {
                "type": "function_call_output", "call_id": call,
                "output": f"Process exited with code 0\nOutput:\n{secret.line}\n"}},
            {"timestamp": _clock(index), "type": "response_item", "payload": {
                "type": "custom_tool_call", "status": "completed", "call_id": f"patch_{index}", "name": "apply_patch",
                "input": f"*** Begin Patch\n*** Update File: {ENV_FILE}\n@@\n+{secret.line}\n*** End Patch\n"}},
            {"timestamp": _clock(index), "type": "event_msg",
             "payload": {"type": "agent_message", "message": f"Done: {secret.line}"}},
        ]  # fmt: skip
    folder = root / "codex" / "2026" / "04" / "01"
    folder.mkdir(parents=True)
    (folder / f"rollout-2026-04-01T10-00-00-{session}.jsonl").write_text(_lines(records), encoding="utf-8")
    return root / "codex"


def write_qwen(root: Path, secrets: Sequence[Secret]) -> Path:
    """Write one Qwen Code chat; return its directory."""
    session = "5c4b3a29-1807-4f6e-9d5c-4b3a29180706"
    base = {"sessionId": session, "cwd": _CWD, "version": "0.20.0"}
    records: list[dict[str, Any]] = []
    parent = None
    for index, secret in enumerate(secrets):
        ids = [f"qu{index}", f"qa{index}", f"qr{index}"]
        records += [
            {**base, "uuid": ids[0], "parentUuid": parent, "timestamp": _clock(3 * index), "type": "user",
             "message": {"role": "user", "parts": [{"text": f"Save this: {secret.line}"}]}},
            {**base, "uuid": ids[1], "parentUuid": ids[0], "timestamp": _clock(3 * index + 1), "type": "assistant",
             "model": "qwen3-coder-plus", "message": {"role": "model", "parts": [
                 {"text": f"Saving {secret.line}", "thought": True},
                 {"functionCall": {"id": f"call-{index}", "name": "write_file",
                                   "args": {"file_path": ENV_FILE, "content": secret.line}}}]}},
            {**base, "uuid": ids[2], "parentUuid": ids[1], "timestamp": _clock(3 * index + 2), "type": "tool_result",
             "message": {"role": "user", "parts": [{"functionResponse": {
                 "id": f"resp-{index}", "name": "write_file", "response": {"output": f"wrote {secret.line}"}}}]},
             "toolCallResult": {"callId": f"call-{index}", "status": "success", "resultDisplay": secret.line}},
        ]  # fmt: skip
        parent = ids[2]
    folder = root / "qwen" / "-home-dev-vault" / "chats"
    folder.mkdir(parents=True)
    (folder / f"{session}.jsonl").write_text(_lines(records), encoding="utf-8")
    return root / "qwen"
