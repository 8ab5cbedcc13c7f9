"""``moraine doctor``'s checks: each says what it found and, when something is wrong, what to do about it."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from moraine.config import Config, SourceConfig, load_config
from moraine.daemon.client import DaemonUnreachable
from moraine.daemon.launcher import live_state
from moraine.daemon.locks import FileLock
from moraine.daemon.logmask import mask_credentials
from moraine.daemon.logs import log_tail
from moraine.daemon.paths import DaemonPaths
from moraine.daemon.report import StoreReport, fetch_report, store_report
from moraine.daemon.settings import daemon_settings
from moraine.daemon.state import DaemonState, read_state
from moraine.errors import ConfigError, StoreError
from moraine.daemon.found import silent_sources
from moraine.harnesses.registry import harness as registered
from moraine.ingest.adapters import has_adapter, load_problem, reader_for
from moraine.ingest.discovery import discover
from moraine.store.client import Store

__all__ = ["Check", "run_checks"]

_LOG_PROBLEMS = ("ERROR", "CRITICAL", "Traceback")
# Recent ingest errors read for the checks: enough that a silent source's own errors are among them.
_ERROR_LINES = 200


@dataclass(frozen=True, slots=True)
class Check:
    """One finding: ``status`` is ok, warn or fail; ``fix`` says what to do (None when nothing is needed)."""

    name: str
    status: str
    detail: str
    fix: str | None = None


def run_checks(config_path: Path | None, every_source: bool = False) -> list[Check]:
    """Run every check in order (later ones are skipped when the configuration does not load); credentials masked.

    The sources whose globs match nothing, and the disabled ones, are folded into one line each, so that the few
    sources present and every warning are what a reader sees; ``every_source`` lists each of them instead.

    A finding quotes the store's DSN, driver errors and log lines, any of which can carry the store's password or
    a token: every detail and fix passes through ``mask_credentials`` before it is returned (and so printed).
    """
    return [_masked(check) for check in _checks(config_path, every_source)]


def _masked(check: Check) -> Check:
    return replace(
        check,
        detail=mask_credentials(check.detail),
        fix=mask_credentials(check.fix) if check.fix else check.fix,
    )


def _checks(config_path: Path | None, every_source: bool) -> list[Check]:
    try:
        config = load_config(config_path)
    except ConfigError as exc:
        return [
            Check("config", "fail", str(exc), "fix the file named above (see `moraine --help` for its path)")
        ]
    where = str(config.path) if config.path else f"defaults (no {config.home / 'config.toml'})"
    checks = [Check("config", "ok", f"loaded {where}")]
    try:
        settings = daemon_settings(config)
        checks.append(
            Check(
                "daemon settings",
                "ok",
                f"port {settings.port or 'any free'}, max_concurrent {settings.max_concurrent}, "
                f"max_queued {settings.max_queued}",
            )
        )
    except ConfigError as exc:
        checks.append(Check("daemon settings", "fail", str(exc), "fix the [daemon] table"))
    matched, source_checks = _sources(config, every_source)
    checks.extend(source_checks)
    paths = DaemonPaths(config.home)
    problem = paths.socket_path_problem()
    if problem:
        checks.append(Check("socket", "fail", problem, "set MORAINE_HOME to a shorter path"))
    state = live_state(paths)
    checks.append(_daemon(paths, state))
    report, store_check = _store(config, paths, state)
    checks.append(store_check)
    if report is not None:
        checks.append(_ingest_errors(report))
        checks.extend(_silent_agents(config, report, matched))
    checks.append(_log(paths))
    return checks


def _sources(config: Config, every_source: bool) -> tuple[dict[str, int], list[Check]]:
    """Return the number of files each enabled source's glob matches, and the sources' checks.

    A source present (its glob matches files) or wrong (no adapter, a folder that cannot be listed) has a line of its
    own; the absent and the disabled ones are counted in one line each unless ``every_source`` lists them.
    """
    matched: dict[str, int] = {}
    shown: list[Check] = []
    absent: list[str] = []
    disabled: list[str] = []
    for source in config.sources:
        name = f"source {source.name}"
        if not source.enabled:
            disabled.append(source.name)
            if every_source:
                shown.append(Check(name, "ok", "disabled"))
            continue
        broken = load_problem(source.harness, source.format)
        if broken is not None:
            shown.append(Check(name, "fail", f"broken harness: {broken}", "reinstall or remove that plugin"))
            continue
        if not has_adapter(source.harness) or reader_for(source.format) is None:
            shown.append(Check(name, "warn", f"no adapter for {source.harness} yet"))
            continue
        try:
            found = len(discover(source))
        except OSError as exc:
            shown.append(Check(name, "fail", f"cannot list {source.glob}: {exc}", "check permissions"))
            continue
        matched[source.name] = found
        if found:
            shown.append(Check(name, "ok", f"{found} file(s) match {source.glob}"))
        else:
            absent.append(source.name)
            if every_source:
                shown.append(Check(name, "ok", f"absent (nothing matches {source.glob})"))
    if absent and not every_source:
        shown.append(
            Check("absent", "ok", f"{len(absent)} source(s): nothing matches their globs (--all lists them)")
        )
    if disabled and not every_source:
        shown.append(
            Check(
                "disabled",
                "ok",
                f"{', '.join(disabled)} (opt-in: a [[sources]] entry with its name and enabled = true in the "
                "config turns one on; see docs/harnesses.md)",
            )
        )
    if not any(matched.values()):
        shown.append(
            Check(
                "sources",
                "warn",
                "no trace files found in any enabled source",
                "if your agent keeps traces elsewhere, add a [[sources]] entry with its glob to the config",
            )
        )
    return matched, shown


def _daemon(paths: DaemonPaths, state: DaemonState | None) -> Check:
    if state is not None:
        return Check(
            "daemon",
            "ok",
            f"running (pid {state.pid}, http://127.0.0.1:{state.port}/mcp, socket {state.socket}, "
            f"backfill {state.backfill}, since {state.started_at})",
        )
    if FileLock(paths.owner_lock).held_elsewhere():
        stale = read_state(paths.state)
        pid = f" (pid {stale.pid})" if stale else ""
        return Check(
            "daemon",
            "fail",
            f"a daemon process{pid} holds {paths.owner_lock} but does not answer on {paths.socket}",
            f"it may still be starting; otherwise stop it{f' (kill {stale.pid})' if stale else ''} "
            f"and read {paths.log}",
        )
    return Check(
        "daemon",
        "ok",
        "not running (agents start it through `moraine mcp`; `moraine serve` runs it in the foreground)",
    )


def _store(config: Config, paths: DaemonPaths, state: DaemonState | None) -> tuple[StoreReport | None, Check]:
    if state is not None:
        try:
            report = fetch_report(Path(state.socket), _ERROR_LINES)
        except DaemonUnreachable as exc:
            return None, Check("store", "fail", str(exc), f"read {paths.log}; restart the daemon")
        return report, Check("store", "ok", "served by the daemon: " + _counts(report))
    if FileLock(paths.owner_lock).held_elsewhere():
        return None, Check("store", "warn", "held by the daemon process above; not checked")
    try:
        store = Store.open(config.store_dsn, config.database, limits=config.store_limits)
    except StoreError as exc:
        return None, Check(
            "store",
            "fail",
            f"{config.store_dsn} does not open: {exc.message}",
            "check [store] dsn in the config; for chdb:// make sure no other program uses that directory",
        )
    try:
        report = store_report(store, _ERROR_LINES)
    except StoreError as exc:
        return None, Check(
            "store", "fail", f"opened but not readable: {exc.message}", "see the message above"
        )
    finally:
        store.close()
    return report, Check("store", "ok", f"{config.store_dsn}: " + _counts(report))


def _counts(report: StoreReport) -> str:
    counts = report.counts
    return f"{counts.get('sessions', 0)} sessions, {counts.get('events', 0)} events"


def _ingest_errors(report: StoreReport) -> Check:
    if not report.errors:
        return Check("ingest errors", "ok", "none recorded")
    total = sum(c.errors for c in report.coverage.values())
    lines = "; ".join(f"{e.source} {e.path}:{e.line_no} {e.reason}" for e in report.errors[:3])
    return Check(
        "ingest errors",
        "warn",
        f"{total} unreadable record(s) skipped, latest: {lines}",
        "`moraine status --errors 20` lists them; they are skipped lines, the rest of each file is indexed",
    )


def _silent_agents(config: Config, report: StoreReport, matched: dict[str, int]) -> list[Check]:
    """Name each known agent's folder whose files are there but from which no session was read, with its first
    errors (``moraine.daemon.found`` says when a folder is a source's and when it is silent)."""
    checks = []
    for source in silent_sources(config.sources, report.coverage, matched):
        declared = registered(source.harness)
        name = declared.display_name if declared else source.harness
        why = _why(source, report, matched.get(source.name, 0))
        checks.append(
            Check(
                f"agent {name} ({source.name})",
                "warn",
                f"{source.watch_root} exists but no session was read from it: {why}",
                "a changed format shows in the errors above (`moraine status --errors 20`); check the folder's "
                "permissions; if nothing has been ingested yet, run `moraine ingest` or start the daemon",
            )
        )
    return checks


def _why(source: SourceConfig, report: StoreReport, found: int) -> str:
    root = source.expanded_watch_root()
    if not os.access(root, os.R_OK | os.X_OK):
        return f"permission denied on {root}"
    coverage = report.coverage.get(source.name)
    read = f"{found} file(s) match {source.glob}, {coverage.files if coverage else 0} ingested"
    errors = [e for e in report.errors if e.source == source.name]
    if not errors:
        return read + ", no ingest errors"
    lines = "; ".join(f"{e.path}:{e.line_no} {e.reason}: {e.detail[:120]}" for e in errors[:3])
    return f"{read}, {coverage.errors if coverage else len(errors)} ingest error(s), latest: {lines}"


def _log(paths: DaemonPaths) -> Check:
    tail = log_tail(paths.log, 15)
    if not tail:
        return Check("daemon log", "ok", f"{paths.log} is empty or absent")
    if any(marker in tail for marker in _LOG_PROBLEMS):
        return Check(
            "daemon log",
            "warn",
            f"recent problems in {paths.log}:\n{tail}",
            "the lines above name the failure; `moraine serve` in a terminal shows it live",
        )
    return Check("daemon log", "ok", f"{paths.log}: no recent errors")
