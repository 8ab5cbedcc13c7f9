"""``moraine search/open/sessions/files/export`` against a real store: tables, ``--json`` envelopes, exit status.

No daemon runs here, so each command opens the store named by its config and answers through a ``ToolService``
(``moraine.daemon.calls``); ``tests/e2e/test_daemon_cli.py`` drives the same commands through a running daemon.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner, Result

from handlers import Deps, Settings, load_handlers
from moraine.cli import main
from moraine.daemon.version import moraine_version
from moraine.server.runtime import cursor_secret
from moraine.server.service import ToolService
from moraine.store.client import Store

FIXTURES = Path(__file__).resolve().parents[2] / "harnesses"
COUPON_FIX = "session:ses_8P46V0DKXM0VW"  # the Claude Code fixture session titled "Coupon fix" (4 turns)
MARCH = ("--since", "2026-03-01T00:00:00Z", "--until", "2026-04-01T00:00:00Z")


@pytest.fixture
def config(store: Store, ingest_into_store: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Ingest the Codex and Claude Code fixtures; return a config naming that store (and a home of its own)."""
    shutil.copytree(FIXTURES / "codex" / "home" / ".codex" / "sessions", tmp_path / "codex")
    shutil.copytree(FIXTURES / "claude_code" / "home" / ".claude" / "projects", tmp_path / "claude")
    assert ingest_into_store([tmp_path / "codex"], source="codex").events > 20
    assert ingest_into_store([tmp_path / "claude"], source="claude", harness="claude-code").events > 20
    monkeypatch.setenv("MORAINE_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "config.toml"
    path.write_text(f'[store]\ndsn = "{store.dsn}"\ndatabase = "{store.database}"\n')
    return path


@pytest.fixture
def service(store: Store, tmp_path: Path, config: Path) -> Iterator[ToolService]:
    """The same tools in-process, signing cursors with the home's secret as the command does."""
    secret = cursor_secret(tmp_path / "home")
    yield ToolService(Deps(store, Settings(cursor_secret=secret), launch_dir=tmp_path), load_handlers())


def moraine(config: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--config", str(config), *args], catch_exceptions=False)


def ok(config: Path, *args: str) -> str:
    result = moraine(config, *args)
    assert result.exit_code == 0, result.output
    return result.output


def direct(service: ToolService, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Return ``tool``'s envelope from the service, without its timing."""
    envelope = anyio.run(service.call, tool, arguments).envelope
    envelope.pop("performance")
    return envelope


def untimed(output: str) -> dict[str, Any]:
    envelope: dict[str, Any] = json.loads(output)
    assert isinstance(envelope.pop("performance")["elapsed_ms"], int)
    return envelope


def test_version_prints_the_installed_version() -> None:
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0 and result.output == f"moraine {moraine_version()}\n"


def test_search_prints_ranked_hits_and_json_is_the_tools_envelope(config: Path, service: ToolService) -> None:
    table = ok(config, "search", "coupon", "--n-hits", "5", "--harness", "claude-code")
    assert "Coupon fix (claude-code)" in table and "codex" not in table
    assert re.search(r"│ 1 +│ 2026-03-06 14:00 │ user_input", table)
    # More claude-code events say "coupon" or "coupons" (a form of it) than the five asked for.
    assert "\n5 hit(s) (more may exist: narrow the query or raise --n-hits)\n" in table
    printed = untimed(ok(config, "search", "coupon", "--n-hits", "5", "--harness", "claude-code", "--json"))
    arguments = {"query": "coupon", "n_hits": 5, "harness": "claude-code"}
    assert printed == direct(service, "search_sessions", arguments)
    assert printed["data"]["results"][0]["session"]["harness"] == "claude-code"


def test_search_filters_by_event_type_and_within_a_session(config: Path) -> None:
    printed = json.loads(
        ok(config, "search", "pytest", "--type", "tool_call", "--within", COUPON_FIX, "--json")
    )
    assert (
        printed["request"]["event_types"] == ["tool_call"] and printed["request"]["within_id"] == COUPON_FIX
    )
    hits = printed["data"]["results"]
    assert hits and {hit["event"]["type"] for hit in hits} == {"tool_call"}
    assert {hit["session"]["id"] for hit in hits} == {COUPON_FIX}


def test_open_pages_a_session_with_limit_then_the_printed_cursor(config: Path, service: ToolService) -> None:
    first = ok(config, "open", COUPON_FIX, "--limit", "2")
    assert first.startswith("Coupon fix\n")
    assert "4 turns, 48 events" in first  # its sub-agent's 6 events included (issue 44 item 8)
    assert "Fix the coupon bug" in first
    cursor = re.search(r"next page: moraine open --cursor (\S+)", first)
    assert cursor is not None
    second = ok(config, "open", "--cursor", cursor.group(1))
    assert re.search(r"│ 3 +│", second) and re.search(r"│ 4 +│", second) and "next page" not in second
    printed = untimed(ok(config, "open", COUPON_FIX, "--limit", "2", "--json"))
    assert printed == direct(service, "open", {"id": COUPON_FIX, "limit": 2})


@pytest.mark.parametrize(
    ("native", "resume"),
    [
        ("5f0c2a9e-1b7d-4c3e-9a8f-6d2e1c0b9a87", "claude --resume 5f0c2a9e-1b7d-4c3e-9a8f-6d2e1c0b9a87"),
        ("0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", "codex resume 0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"),
    ],
)
def test_open_takes_a_harness_session_id_and_prints_the_resume_command(
    config: Path, native: str, resume: str
) -> None:
    shown = ok(config, "open", native)
    assert re.search(r"^resume: cd \S+ && " + re.escape(resume) + "$", shown, re.MULTILINE), shown
    opened = json.loads(ok(config, "open", native, "--json"))
    assert opened["data"]["session"]["native_id"] == native
    assert opened["data"]["session"]["id"].startswith("session:")


def test_open_of_an_event_prints_its_full_content(config: Path) -> None:
    hits = json.loads(ok(config, "search", "pytest", "--type", "tool_call", "--n-hits", "1", "--json"))
    event_id = hits["data"]["results"][0]["open"]["event_id"]
    shown = ok(config, "open", event_id)
    assert shown.startswith("tool_call ")
    assert "pytest" in shown and "next: event:" in shown


def test_sessions_lists_the_window_and_json_is_the_tools_envelope(config: Path, service: ToolService) -> None:
    table = ok(config, "sessions", *MARCH)
    assert COUPON_FIX in table and "Coupon fix" in table
    assert "session:ses_CQDB46BX7G0HT" not in table  # the May 2025 session is outside the window
    printed = untimed(ok(config, "sessions", *MARCH, "--harness", "codex", "--json"))
    arguments = {
        "start_datetime": "2026-03-01T00:00:00Z",
        "end_datetime": "2026-04-01T00:00:00Z",
        "harness": "codex",
    }
    assert printed == direct(service, "list_sessions", arguments)
    assert {row["session"]["harness"] for row in printed["data"]["sessions"]} == {"codex"}


def test_sessions_prints_a_next_page_command_with_the_window_spelled_out(config: Path) -> None:
    first = ok(config, "sessions", "--since", "3000d", "--limit", "2")
    command = re.search(r"next page: moraine sessions (.+)", first)
    assert command is not None and "--since 20" in command.group(1)
    again = ok(config, "sessions", *command.group(1).split())
    assert again.count("session:ses_") == 2 and not set(re.findall(r"session:ses_\w+", again)) & set(
        re.findall(r"session:ses_\w+", first)
    )


def test_a_time_that_is_neither_rfc3339_nor_a_duration_is_a_usage_error(config: Path) -> None:
    result = moraine(config, "sessions", "--since", "yesterday")
    assert result.exit_code == 2
    assert "'yesterday' is not a duration (90m, 24h, 7d, 2w, 6mo, 2y), a date (2024-01-01)" in result.output


MAY_2025 = "session:ses_CQDB46BX7G0HT"


def test_sessions_takes_years_months_and_dates_and_defaults_to_any_time(config: Path) -> None:
    may = ok(config, "sessions", "--since", "2025-05", "--until", "2025-05")
    assert MAY_2025 in may and COUPON_FIX not in may
    day = ok(config, "sessions", "--since", "2026-03-01", "--until", "2026-03-31")
    assert COUPON_FIX in day and MAY_2025 not in day
    for since in ("2y", "2024", "2024-01-01", "30mo"):
        shown = ok(config, "sessions", "--since", since)
        assert MAY_2025 in shown and COUPON_FIX in shown, since
    anytime = ok(config, "sessions")
    assert MAY_2025 in anytime and COUPON_FIX in anytime


def test_an_empty_window_says_how_much_history_there_is_and_how_to_widen_it(config: Path) -> None:
    shown = ok(config, "sessions", "--since", "2020", "--until", "2020")
    assert "No sessions between 2020-01-01T00:00:00.000Z and 2021-01-01T00:00:00.000Z." in shown
    assert re.search(r"The index holds sessions from 2025-05-\d\d to 2026-\d\d-\d\d: widen", shown), shown
    assert "--since 2025-05" in shown
    again = ok(config, "sessions", "--since", "2025-05")
    assert MAY_2025 in again


def test_open_of_a_session_lists_its_turns_without_a_limit(config: Path) -> None:
    shown = ok(config, "open", COUPON_FIX)
    assert "Fix the coupon bug" in shown
    assert all(re.search(rf"│ {n} +│", shown) for n in (1, 2, 3, 4)), shown


def test_the_search_table_names_each_hits_session(config: Path) -> None:
    shown = ok(config, "search", "coupon")
    assert f"session: {COUPON_FIX}" in shown


@pytest.mark.parametrize("command", [("search", "coupon"), ("sessions",), ("files", "src/cart.py")])
def test_an_unknown_harness_is_refused_naming_the_harnesses_that_exist(
    config: Path, command: tuple[str, ...]
) -> None:
    result = moraine(config, *command, "--harness", "nope")
    assert result.exit_code == 2
    assert "no harness is called 'nope'; the harnesses are:" in result.output
    assert "claude-code" in result.output and "codex" in result.output


def test_files_shows_the_sessions_that_touched_a_path(config: Path, service: ToolService) -> None:
    table = ok(config, "files", "src/cart.py", "--scope", "all")
    assert "src/cart.py (all): 3 touch(es) in 2 session(s)" in table
    assert COUPON_FIX in table and "apply_patch" in table
    printed = untimed(
        ok(config, "files", "src/cart.py", "--scope", "all", "--granularity", "events", "--json")
    )
    arguments = {"path": "src/cart.py", "scope": "all", "granularity": "events"}
    assert printed == direct(service, "file_attention", arguments)
    assert len(printed["data"]["events"]) == 3


@pytest.mark.parametrize("as_json", [False, True])
def test_an_error_envelope_exits_1_with_its_message(config: Path, as_json: bool) -> None:
    result = moraine(config, "open", "session:not-an-id", *(["--json"] if as_json else []))
    assert result.exit_code == 1
    assert "Error: invalid_id: id is not a valid Moraine MCP ID" in result.output
    if as_json:
        envelope = json.loads(result.output[: result.output.index("Error:")])
        assert (
            envelope["schema_version"] == "moraine.mcp.error.v1" and envelope["error"]["code"] == "invalid_id"
        )


def test_a_bad_argument_combination_is_the_tools_invalid_request(config: Path) -> None:
    result = moraine(config, "open", COUPON_FIX, "--cursor", "m1.abc.def")
    assert result.exit_code == 1
    assert "invalid_request: pass either id or cursor, not both" in result.output


def test_export_writes_the_transcript_and_refuses_an_event(config: Path, tmp_path: Path) -> None:
    markdown = ok(config, "export", COUPON_FIX)
    assert markdown.startswith("# Coupon fix\n") and "<summary>Tool call: Bash</summary>" in markdown
    target = tmp_path / "coupon.html"
    moraine(config, "export", COUPON_FIX, "--format", "html", "-o", str(target))
    assert target.read_text(encoding="utf-8").startswith("<!doctype html>")
    hits = json.loads(ok(config, "search", "coupon", "--n-hits", "1", "--json"))
    result = moraine(config, "export", hits["data"]["results"][0]["open"]["event_id"])
    assert result.exit_code == 1 and "export takes a session or turn ID" in result.output
