"""No record can crash the adapters of the VS Code family and its neighbours.

The records are what each harness's readers build from its fixture home; one nested value of a record is swapped
for arbitrary JSON (or the whole record is), and the adapter must still return only events, session metadata and
ingest errors, leaving a state that serializes.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.harnesses.home import build_home
from moraine.config import default_sources
from moraine.ingest.adapters import adapter_for, reader_for
from moraine.harness_api.adapter import StreamContext
from moraine.ingest.discovery import discover
from moraine.harness_api.model import Event, IngestError, RawRecord, SessionInfo

PKGS = {
    "vscode-copilot": "vscode_copilot",
    "cline": "cline",
    "roo-code": "roo_code",
    "kilo": "kilo",
    "windsurf": "windsurf",
    "trae": "trae",
    "trae-cli": "trae_cli",
    "visual-studio-copilot": "visual_studio_copilot",
    "zencoder": "zencoder",
}
anything = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=16),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)


def _records(harness: str, home: Path) -> list[Any]:
    """Return the data of every record the harness's readers build from its fixture home."""
    found: list[Any] = []
    for source in default_sources("linux"):
        if source.harness != harness:
            continue
        reader = reader_for(source.format)
        assert reader is not None
        expanded = source.glob.replace("~", str(home), 1)
        for path in discover(type(source)(source.name, harness, expanded, str(home), source.format)):
            found.extend(item.record.data for item in reader.read(path, 0, 0) if item.record is not None)
    return found


class Records(dict[str, list[Any]]):
    """Each harness's records (shown briefly when a failing example is reported)."""

    def __repr__(self) -> str:
        return f"Records({ {harness: len(found) for harness, found in self.items()} })"


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Records:
    home = build_home(tmp_path_factory.mktemp("robust-home"), PKGS.values())
    built = Records({harness: _records(harness, home) for harness in PKGS})
    assert all(built.values()), built
    return built


def _slots(value: Any) -> list[tuple[Any, Any]]:
    """Return every (container, key) inside ``value``, outermost first."""
    slots: list[tuple[Any, Any]] = []
    pending = [value]
    while pending:
        container = pending.pop(0)
        keys = container.keys() if isinstance(container, dict) else range(len(container))
        for key in keys:
            slots.append((container, key))
            if isinstance(container[key], dict | list) and container[key]:
                pending.append(container[key])
    return slots


@pytest.mark.parametrize("harness", list(PKGS))
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pick=st.integers(min_value=0), slot=st.integers(min_value=-1), swapped=anything)
def test_a_record_with_any_value_swapped_yields_items_only(
    records: Records, harness: str, pick: int, slot: int, swapped: Any, tmp_path: Path
) -> None:
    data = copy.deepcopy(records[harness][pick % len(records[harness])])
    slots = _slots(data) if isinstance(data, dict | list) else []
    if slot < 0 or not slots:
        data = swapped
    else:
        container, key = slots[slot % len(slots)]
        container[key] = swapped
    adapter = adapter_for(harness)
    assert adapter is not None
    ctx = StreamContext(path=tmp_path / "tasks" / "t1" / "ui_messages.json", source=harness)
    for _ in range(2):  # the state the first call leaves must serve the second
        items = list(adapter.normalize(RawRecord(data=data, line_no=1, offset=0), ctx))
        assert all(isinstance(item, Event | SessionInfo | IngestError) for item in items)
        json.dumps(ctx.state)
