"""Write planned sessions as Claude Code JSONL (``projects/<project>/<uuid>.jsonl``).

One record per content block (as Claude Code writes them), chained by ``parentUuid``: user messages, assistant
thinking/text/tool_use blocks, user tool_result records with ``toolUseResult``, file-history-snapshot, summary
(titles), sidechain records of Task sub-agents, system records and user interrupts.
"""

from __future__ import annotations

import random
from typing import Any

from tools.corpus.plan import SessionPlan, TextStep, ToolStep, TurnPlan
from tools.corpus.trace import TraceFile, iso, uuid4

__all__ = ["ClaudeWriter", "project_dir"]

_TOOL_NAMES = {
    "shell": "Bash",
    "read": "Read",
    "edit": "Edit",
    "write": "Write",
    "search": "Grep",
    "task": "Task",
    "web": "WebSearch",
}


def project_dir(cwd: str) -> str:
    """Return Claude Code's project directory name for a working directory."""
    return cwd.replace("/", "-").replace(".", "-")


class ClaudeWriter:
    """Turns one ``SessionPlan`` and its ``TurnPlan``s into the lines of a Claude Code session file."""

    source = "claude"
    harness = "claude-code"

    def __init__(self, rng: random.Random, session: SessionPlan) -> None:
        self.rng = rng
        self.session = session
        self.file = TraceFile(
            f"claude/projects/{project_dir(session.cwd)}/{session.session_id}.jsonl", session.started_ms
        )
        self._parent: str | None = None
        if session.title is not None:
            self.file.add({"type": "summary", "summary": session.title, "leafUuid": uuid4(rng)})

    def _base(self, kind: str, message: dict[str, Any], sidechain: bool = False) -> dict[str, Any]:
        s = self.session
        uid = uuid4(self.rng)
        record: dict[str, Any] = {
            "parentUuid": self._parent,
            "isSidechain": sidechain,
            "userType": "external",
            "cwd": s.cwd,
            "sessionId": s.session_id,
            "version": "2.0.31",
            "gitBranch": s.branch,
            "type": kind,
            "message": message,
            "uuid": uid,
            "timestamp": self.file.tick(self.rng, 30, 6_000),
        }
        self._parent = uid
        return record

    def _assistant(self, block: dict[str, Any], stop: str | None, sidechain: bool = False) -> dict[str, Any]:
        out = self.rng.randint(5, 900)
        message = {
            "model": self.session.model,
            "id": f"msg_01{self.rng.getrandbits(100):025x}",
            "type": "message",
            "role": "assistant",
            "content": [block],
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {
                "input_tokens": 4,
                "cache_creation_input_tokens": out * 3,
                "cache_read_input_tokens": out * 40,
                "output_tokens": out,
                "service_tier": "standard",
            },
        }
        record = self._base("assistant", message, sidechain)
        record["requestId"] = f"req_011{self.rng.getrandbits(90):023x}"
        return record

    def turn(self, plan: TurnPlan) -> None:
        """Append the records of one turn."""
        rng, f = self.rng, self.file
        f.clock_ms += rng.randint(20_000, 1_800_000)
        if rng.random() < 0.3:
            mid = uuid4(rng)
            snap = {"messageId": mid, "trackedFileBackups": {}, "timestamp": iso(f.clock_ms)}
            f.add(
                {
                    "type": "file-history-snapshot",
                    "messageId": mid,
                    "snapshot": snap,
                    "isSnapshotUpdate": False,
                }
            )
        f.add(self._base("user", {"role": "user", "content": plan.user_text}), plan.user_needle, "user_input")
        for step in plan.steps:
            if isinstance(step, TextStep):
                if step.kind == "reasoning":
                    block = {
                        "type": "thinking",
                        "thinking": step.text,
                        "signature": f"Eq{rng.getrandbits(256):064x}",
                    }
                else:
                    block = {"type": "text", "text": step.text}
                f.add(self._assistant(block, None))
            else:
                self._tool(step)
        if plan.ending == "complete" and plan.final_text is not None:
            record = self._assistant({"type": "text", "text": plan.final_text}, "end_turn")
            f.add(record, plan.final_needle, "assistant_response")
        elif plan.ending == "aborted":
            interrupt = {
                "role": "user",
                "content": [{"type": "text", "text": "[Request interrupted by user]"}],
            }
            f.add(self._base("user", interrupt))
        if rng.random() < 0.01:
            system = self._base("system", {})
            del system["message"]
            system.update(
                {"subtype": "compact_boundary", "content": "Conversation compacted", "level": "info"}
            )
            f.add(system)

    def _tool(self, step: ToolStep) -> None:
        rng, f, cwd = self.rng, self.file, self.session.cwd
        tool_id = f"toolu_01{rng.getrandbits(110):028x}"
        path = step.path if step.path is None or step.path.startswith("/") else f"{cwd}/{step.path}"
        tool_input: dict[str, Any]
        result_extra: dict[str, Any]
        output = step.output
        if step.kind == "shell":
            tool_input = {"command": step.command, "description": "Run command"}
            result_extra = {
                "stdout": output if len(output) < 2_000 else output[:2_000],
                "stderr": "",
                "interrupted": False,
                "isImage": False,
            }
        elif step.kind == "read":
            tool_input = {"file_path": path}
            output = "\n".join(f"{i:>6}\u2192{line}" for i, line in enumerate(output.splitlines(), 1))
            result_extra = {"type": "text", "file": {"filePath": path, "numLines": output.count("\n") + 1}}
        elif step.kind == "edit":
            tool_input = {"file_path": path, "old_string": step.old_text, "new_string": step.new_text}
            result_extra = {"filePath": path}
        elif step.kind == "write":
            tool_input = {"file_path": path, "content": step.new_text}
            result_extra = {"type": "create", "filePath": path}
        elif step.kind == "search":
            tool_input = {"pattern": step.command, "path": path, "output_mode": "content"}
            result_extra = {"mode": "content", "numFiles": 1}
        elif step.kind == "task":
            tool_input = {
                "description": "Investigate",
                "prompt": step.command,
                "subagent_type": "general-purpose",
            }
            result_extra = {"status": "completed"}
        else:
            tool_input = {"query": step.command}
            result_extra = {"query": step.command}
        block = {"type": "tool_use", "id": tool_id, "name": _TOOL_NAMES[step.kind], "input": tool_input}
        f.add(self._assistant(block, "tool_use"), step.needle, "tool_call")
        if step.kind == "task":
            main_parent = self._parent
            self._parent = None
            f.add(self._base("user", {"role": "user", "content": step.command}, sidechain=True))
            f.add(self._assistant({"type": "text", "text": output}, "end_turn", sidechain=True))
            self._parent = main_parent
        result = {
            "tool_use_id": tool_id,
            "type": "tool_result",
            "content": output,
            "is_error": step.exit_code != 0,
        }
        record = self._base("user", {"role": "user", "content": [result]})
        record["toolUseResult"] = result_extra
        f.add(record, step.output_needle, "tool_response")
