"""Issue 33: each request rule lives once. A tool's arguments are parsed by its parse (``handlers/requests/``) and
the handler never checks an argument again; a search query's text is read by ``parse_query`` alone."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("file_attention", "list_sessions", "open", "search_sessions")
# What parses or checks an argument: only a parse may call these.
ARGUMENT_READERS = {
    "check_limit",
    "could_be_native_id",
    "decode_list_cursor",
    "decode_open_cursor",
    "parse_datetime",
    "parse_id",
    "parse_query",
    "parse_timestamp",
}
# What reads a search query's text: only parse_query may call these.
QUERY_READERS = {"query_terms", "time_cue", "_natural_words"}


def _calls(path: Path) -> Iterator[tuple[str, str, int]]:
    """Yield (enclosing top-level function, called name, line) for every call in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for top in tree.body:
        owner = top.name if isinstance(top, ast.FunctionDef | ast.ClassDef) else "<module>"
        for node in ast.walk(top):
            if isinstance(node, ast.Call):
                func = node.func
                name = (
                    func.id
                    if isinstance(func, ast.Name)
                    else func.attr
                    if isinstance(func, ast.Attribute)
                    else ""
                )
                yield owner, name, node.lineno


def _sources(*folders: str) -> list[Path]:
    return sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py"))


def test_the_handlers_parse_no_argument_and_raise_no_request_error() -> None:
    handlers = [ROOT / "handlers" / f"{tool}.py" for tool in TOOLS] + [ROOT / "handlers" / "shapes.py"]
    found = [
        f"{path.name}:{line} {owner} calls {name}"
        for path in handlers
        for owner, name, line in _calls(path)
        if name in ARGUMENT_READERS or name == "RequestError"
    ]
    assert found == []
    # The one InvalidIdError left in a handler is a store lookup's miss: text that could only be a harness's own
    # session ID, and no stored session has it.
    invalid = [
        (path.name, owner) for path in handlers for owner, name, _ in _calls(path) if name == "InvalidIdError"
    ]
    assert invalid == [("open.py", "open_data")]


def test_arguments_are_parsed_only_by_the_tools_parse_modules() -> None:
    sources = _sources("handlers")
    assert len(sources) >= 10, "handlers/ has too few sources: the path above is wrong"
    outside = [
        f"{path.relative_to(ROOT)}:{line} calls {name}"
        for path in sources
        if path.parent.name != "requests"
        for _owner, name, line in _calls(path)
        if name in ARGUMENT_READERS
    ]
    assert outside == []


def test_the_query_text_is_read_only_by_parse_query() -> None:
    sources = _sources("moraine", "handlers", "tools")
    assert len(sources) > 100, "too few sources: the paths above are wrong"
    readers = sorted(
        f"{path.relative_to(ROOT)}:{owner}"
        for path in sources
        for owner, name, _line in _calls(path)
        if name in QUERY_READERS
    )
    assert set(readers) == {"moraine/terms/query.py:parse_query"}
    assert len(readers) == len(QUERY_READERS)  # each reader called once, there


def _defined(path: Path) -> set[str]:
    return {
        node.name
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef)
    }


def test_no_second_reading_of_a_request_is_left_behind() -> None:
    assert not list((ROOT / "moraine" / "server" / "canonical").glob("*.py"))  # moved into handlers/requests/
    assert not {"resolve_limit", "_when"} & _defined(ROOT / "handlers" / "file_attention.py")
    assert not {"_when"} & _defined(ROOT / "handlers" / "list_sessions.py")
    assert not {"_check_limit"} & _defined(ROOT / "handlers" / "open.py")
    assert not {"search_terms", "search_forms"} & _defined(ROOT / "moraine" / "terms" / "query.py")
    assert "natural_words" not in _defined(ROOT / "moraine" / "semantic" / "hybrid.py")
