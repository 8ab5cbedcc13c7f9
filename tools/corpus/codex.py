"""Write planned sessions as Codex rollout JSONL (``sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl``).

Record shapes follow real rollouts: ``session_meta``, ``turn_context``, ``response_item`` (message, reasoning,
function_call/_output, custom_tool_call/_output, web_search_call) and ``event_msg`` (task_started, user_message,
agent_message, agent_reasoning, token_count, task_complete, turn_aborted) mirrors, plus the odd ``compacted``.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from typing import Any

from tools.corpus.plan import SessionPlan, TextStep, ToolStep, TurnPlan
from tools.corpus.trace import TraceFile, iso, uuid7

__all__ = ["CodexWriter"]

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def _opaque(rng: random.Random, n: int) -> str:
    return "gAAAAA" + "".join(rng.choices(_B64, k=n))


class CodexWriter:
    """Turns one ``SessionPlan`` and its ``TurnPlan``s into the lines of a Codex rollout file."""

    source = "codex"
    harness = "codex"

    def __init__(self, rng: random.Random, session: SessionPlan) -> None:
        self.rng = rng
        self.session = session
        start = datetime.fromtimestamp(session.started_ms // 1000, UTC)
        rel = f"codex/sessions/{start:%Y/%m/%d}/rollout-{start:%Y-%m-%dT%H-%M-%S}-{session.session_id}.jsonl"
        self.file = TraceFile(rel, session.started_ms)
        self._tokens = 0
        self._header()

    def _add(
        self, kind: str, payload: dict[str, Any], needle: str | None = None, event_type: str = ""
    ) -> None:
        ts = self.file.tick(self.rng, 5, 2_500)
        self.file.add({"timestamp": ts, "type": kind, "payload": payload}, needle, event_type)

    def _header(self) -> None:
        s = self.session
        self._add(
            "session_meta",
            {
                "id": s.session_id,
                "timestamp": iso(s.started_ms),
                "cwd": s.cwd,
                "originator": "codex_cli_rs",
                "cli_version": "0.104.0",
                "source": "cli",
                "model_provider": "openai",
                "base_instructions": {
                    "text": "You are Codex, a coding agent. Follow the repository conventions."
                },
                "git": {
                    "commit_hash": f"{self.rng.getrandbits(160):040x}",
                    "branch": s.branch,
                    "repository_url": f"git@github.com:dev/{s.project.name}.git",
                },
            },
        )
        self._add(
            "response_item",
            _message(
                "developer", "<permissions instructions>sandbox: workspace-write</permissions instructions>"
            ),
        )
        env = f"<environment_context>\n  <cwd>{s.cwd}</cwd>\n  <shell>bash</shell>\n</environment_context>"
        self._add("response_item", _message("user", env))

    def turn(self, plan: TurnPlan) -> None:
        """Append the records of one turn."""
        s, rng = self.session, self.rng
        turn_id = uuid7(rng, self.file.clock_ms)
        self.file.clock_ms += rng.randint(20_000, 1_800_000)
        self._add("event_msg", {"type": "task_started", "turn_id": turn_id, "model_context_window": 258_400})
        self._add("response_item", _message("user", plan.user_text), plan.user_needle, "user_input")
        self._add(
            "event_msg",
            {
                "type": "user_message",
                "message": plan.user_text,
                "images": [],
                "local_images": [],
                "text_elements": [],
            },
            plan.user_needle,
            "user_input",
        )
        self._add(
            "turn_context",
            {
                "turn_id": turn_id,
                "cwd": s.cwd,
                "approval_policy": "on-request",
                "sandbox_policy": {
                    "type": "workspace-write",
                    "writable_roots": [s.cwd],
                    "network_access": False,
                },
                "model": s.model,
                "effort": "high",
                "summary": "auto",
            },
        )
        for step in plan.steps:
            if isinstance(step, TextStep):
                self._text_step(step)
            else:
                self._tool_step(step)
        if plan.ending == "complete" and plan.final_text is not None:
            final, needle = plan.final_text, plan.final_needle
            self._add("event_msg", {"type": "agent_message", "message": final}, needle, "assistant_response")
            item = _message("assistant", final, "output_text")
            item["phase"] = "final_answer"
            self._add("response_item", item, needle, "assistant_response")
            complete = {"type": "task_complete", "turn_id": turn_id, "last_agent_message": final}
            self._add("event_msg", complete, needle, "runtime")
        elif plan.ending == "aborted":
            self._add("event_msg", {"type": "turn_aborted", "turn_id": turn_id, "reason": "interrupted"})
        if rng.random() < 0.01:
            self._add("compacted", {"message": plan.user_text[:400], "replacement_history": []})
            self._add("event_msg", {"type": "context_compacted"})

    def _text_step(self, step: TextStep) -> None:
        if step.kind == "reasoning":
            self._add("event_msg", {"type": "agent_reasoning", "text": step.text})
            self._add(
                "response_item",
                {
                    "type": "reasoning",
                    "summary": [{"type": "summary_text", "text": step.text}],
                    "content": None,
                    "encrypted_content": _opaque(self.rng, 160),
                },
            )
        else:
            self._add("event_msg", {"type": "agent_message", "message": step.text})
            item = _message("assistant", step.text, "output_text")
            item["phase"] = "commentary"
            self._add("response_item", item)

    def _tool_step(self, step: ToolStep) -> None:
        rng, cwd = self.rng, self.session.cwd
        call_id = f"call_{rng.getrandbits(120):030x}"
        if step.kind in ("edit", "write"):
            verb = "Update" if step.kind == "edit" else "Add"
            body = "\n".join(f"-{line}" for line in (step.old_text or "").splitlines())
            body += "\n" + "\n".join(f"+{line}" for line in (step.new_text or "").splitlines())
            patch = f"*** Begin Patch\n*** {verb} File: {step.path}\n@@\n{body}\n*** End Patch\n"
            self._add(
                "response_item",
                {
                    "type": "custom_tool_call",
                    "status": "completed",
                    "call_id": call_id,
                    "name": "apply_patch",
                    "input": patch,
                },
                step.needle,
                "tool_call",
            )
            result = {
                "output": f"Success. Updated the following files:\nM {step.path}\n",
                "metadata": {"exit_code": 0, "duration_seconds": 0.0},
            }
            self._add(
                "response_item",
                {"type": "custom_tool_call_output", "call_id": call_id, "output": json.dumps(result)},
                step.output_needle,
                "tool_response",
            )
        elif step.kind == "web":
            action = {"type": "search", "query": step.command}
            self._add(
                "response_item",
                {"type": "web_search_call", "status": "completed", "action": action},
                step.needle,
                "tool_call",
            )
        elif step.kind == "task":
            self._text_step(TextStep("commentary", step.output))
        else:
            command = _command_for(step)
            if rng.random() < 0.7:
                args = {"cmd": command, "workdir": cwd, "yield_time_ms": 10_000}
                name = "exec_command"
                output = (
                    f"Chunk ID: {rng.getrandbits(24):06x}\nWall time: {rng.random():.4f} seconds\n"
                    f"Process exited with code {step.exit_code}\nOriginal token count: {len(step.output) // 4}\n"
                    f"Output:\n{step.output}"
                )
            else:
                args = {"command": ["bash", "-lc", command], "workdir": cwd, "timeout_ms": 120_000}
                name = "shell"
                meta = {"exit_code": step.exit_code, "duration_seconds": round(rng.random(), 3)}
                output = json.dumps({"output": step.output, "metadata": meta})
            self._add(
                "response_item",
                {"type": "function_call", "name": name, "arguments": json.dumps(args), "call_id": call_id},
                step.needle,
                "tool_call",
            )
            self._add(
                "response_item",
                {"type": "function_call_output", "call_id": call_id, "output": output},
                step.output_needle,
                "tool_response",
            )
        if rng.random() < 0.5:
            self._token_count()

    def _token_count(self) -> None:
        used = self.rng.randint(800, 30_000)
        self._tokens += used
        usage = {
            "input_tokens": used,
            "cached_input_tokens": used // 2,
            "output_tokens": used // 20,
            "reasoning_output_tokens": used // 40,
            "total_tokens": used + used // 20,
        }
        total = {**usage, "total_tokens": self._tokens}
        self._add(
            "event_msg",
            {
                "type": "token_count",
                "info": {
                    "total_token_usage": total,
                    "last_token_usage": usage,
                    "model_context_window": 258_400,
                },
                "rate_limits": {"limit_id": "codex", "primary": {"used_percent": 2.0, "window_minutes": 300}},
            },
        )


def _command_for(step: ToolStep) -> str:
    if step.kind == "read":
        return f"sed -n '1,200p' {step.path}"
    if step.kind == "search":
        return f"rg -n '{step.command}' {step.path}"
    return step.command or "true"


def _message(role: str, text: str, part: str = "input_text") -> dict[str, Any]:
    return {"type": "message", "role": role, "content": [{"type": part, "text": text}]}
