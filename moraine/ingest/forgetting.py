"""``moraine forget``'s work: remove chosen sessions from the store for good, and keep them out of later ingests.

Steps, in this order so that a concurrent ingest (the daemon's) cannot bring them back:

1. record the sessions in ``forgotten`` (ingest reads it before every publish and drops their rows);
2. remove their rows from every table by mutation (``moraine.store.forget``), again if a batch published just
   before step 1 was read lands meanwhile;
3. scrub the checkpoints that saved their state (titles, first prompts, turn texts): a new checkpoint version
   without it, the older versions removed; for a file none of whose sessions is left, its adapter state too, its
   search statistics and its ingest errors;
4. remove the raw export copies earlier versions of ``moraine import`` kept under the Moraine home, when one of
   the sessions came from one (an import now reads the export in place and keeps nothing);
5. wait (bounded) until ClickHouse has removed the replaced parts from disk.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from moraine.harnesses._shared.export import legacy_copies
from moraine.ingest.checkpoints import CHECKPOINT_COLUMNS, Checkpoint, load_checkpoints
from moraine.store.client import Store
from moraine.store.forget import (
    ForgetTarget,
    outdated_parts,
    parts_remaining,
    purge_checkpoint_versions,
    purge_sessions,
    purge_streams,
    record_forgotten,
    rows_left,
)

__all__ = ["FORGOTTEN_MARK", "ForgetResult", "forget_sessions", "scrub_checkpoint"]

FORGOTTEN_MARK = "forgotten"

_PURGE_ATTEMPTS = 3
_DISK_WAIT_SECONDS = (
    60.0  # old_parts_lifetime (10 s) plus ClickHouse's cleanup period (1-5 s, 014 and 015), with margin
)
_POLL_SECONDS = 0.5
_SESSION_TEXT = ("title", "summary", "slug", "cwd", "model", "first_user_message", "parent_session")
_TURN_TEXT = ("user_input_text", "final_text")


@dataclass(frozen=True, slots=True)
class ForgetResult:
    """What a forget did: sessions forgotten, checkpoints scrubbed, and old parts still on disk at the end."""

    sessions: int
    checkpoints: int
    parts_left: int
    seconds: float


def _scrub_session(saved: dict[str, Any]) -> dict[str, Any]:
    scrubbed = {**saved, **{name: None for name in _SESSION_TEXT if name in saved}}
    turn = saved.get("turn")
    if isinstance(turn, dict):
        scrubbed["turn"] = {**turn, **{name: "" for name in _TURN_TEXT if name in turn}}
    return scrubbed


def scrub_checkpoint(checkpoint: Checkpoint, keys: Collection[int]) -> Checkpoint | None:
    """Return ``checkpoint`` without the content of the forgotten sessions ``keys`` (None when it holds none).

    Positions (seq, turn numbers) are kept, so appended lines are read from where the file was left. When no session
    of the file is left, the adapter's state goes too and the checkpoint is marked ``FORGOTTEN_MARK``: the file is
    not read again at all (an adapter without its state could take appended lines for a new session).
    """
    saved = checkpoint.saved_sessions()
    hit = {sid for sid, state in saved.items() if state.get("key") in keys}
    if not hit:
        return None
    sessions = {sid: _scrub_session(state) if sid in hit else state for sid, state in saved.items()}
    state = {**checkpoint.state, "sessions": sessions}
    if hit == set(saved):
        state["adapter"] = {}  # the adapter's own state (cwd, model, pending text) goes too
        state[FORGOTTEN_MARK] = True  # the whole file: never read again (``Ingestor._open``)
    return replace(checkpoint, state=state)


def _whole(checkpoint: Checkpoint, keys: Collection[int]) -> bool:
    saved = checkpoint.saved_sessions().values()
    return bool(saved) and all(state.get("key") in keys for state in saved)


def _scrub_checkpoints(store: Store, sources: Collection[str], keys: Collection[int]) -> int:
    rows: list[list[Any]] = []
    whole: list[tuple[int, str, str]] = []
    for source in sorted(sources):
        for checkpoint in load_checkpoints(store, source).values():
            scrubbed = scrub_checkpoint(checkpoint, keys)
            if scrubbed is None:
                continue
            rows.append(scrubbed.row())
            if _whole(checkpoint, keys):
                whole.append((checkpoint.stream_id, checkpoint.source, checkpoint.path))
    if rows:
        store.insert("checkpoints", rows, CHECKPOINT_COLUMNS)
        version = CHECKPOINT_COLUMNS.index("version")
        purge_checkpoint_versions(store, [row[0] for row in rows], min(row[version] for row in rows))
    purge_streams(store, whole)
    return len(rows)


def forget_sessions(
    store: Store,
    targets: Sequence[ForgetTarget],
    wait_seconds: float = _DISK_WAIT_SECONDS,
    waiting: Callable[[int], None] | None = None,
    home: Path | None = None,
) -> ForgetResult:
    """Forget ``targets`` (see the module docstring); ``waiting(n)`` is told once when n old parts are still on disk.

    ``home`` is the Moraine home whose kept export copies go when a target came from one."""
    started = time.monotonic()
    if not targets:
        return ForgetResult(0, 0, 0, 0.0)
    keys = sorted({t.session_key for t in targets})
    record_forgotten(store, targets)
    for _ in range(_PURGE_ATTEMPTS):
        purge_sessions(store, keys)
        if rows_left(store, keys) == 0:
            break
    scrubbed = _scrub_checkpoints(store, {t.source for t in targets}, set(keys))
    if home is not None:
        copies = legacy_copies(home)
        if any(Path(t.source_path).is_relative_to(copies) for t in targets):
            shutil.rmtree(copies, ignore_errors=True)
    left = outdated_parts(store)
    deadline = time.monotonic() + wait_seconds
    if left and waiting is not None:
        waiting(len(left))
    while left and time.monotonic() < deadline:
        time.sleep(_POLL_SECONDS)  # ClickHouse's own cleanup removes them: nothing to wake us earlier
        left = parts_remaining(store, left)

    return ForgetResult(len(keys), scrubbed, len(left), time.monotonic() - started)
