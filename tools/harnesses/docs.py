"""``docs/harnesses.md`` from the harness registry: every harness, where it writes, how it is read, what is not.

The hand-written parts (the introduction and "Adding a harness") live in ``harnesses.md.template``; the generated
sections replace its ``{harness_table}`` and ``{harness_details}`` markers.
"""

from __future__ import annotations

from pathlib import Path

from moraine.harnesses import Harness, Location, harnesses

__all__ = ["DOCS", "TEMPLATE", "render_docs"]

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "harnesses.md"
TEMPLATE = Path(__file__).with_name("harnesses.md.template")


def render_docs() -> str:
    """Return ``docs/harnesses.md`` as the registry and the template make it."""
    declared = list(harnesses().values())
    text = TEMPLATE.read_text(encoding="utf-8")
    text = text.replace("{harness_count}", str(len(declared)))
    text = text.replace("{harness_table}", _table(declared))
    return text.replace("{harness_details}", "\n".join(_details(h) for h in declared))


def _table(declared: list[Harness]) -> str:
    lines = ["| Harness | Value | Sources | Reader | Resume |", "|---|---|---|---|---|"]
    for h in declared:
        sources = ", ".join(f"`{location.source}`" for location in h.locations) or "(import only)"
        readers = ", ".join(sorted({f"`{location.reader}`" for location in h.locations})) or "-"
        resume = f"`{' '.join(h.resume.words)} <id>`" if h.resume else "-"
        lines.append(f"| {h.display_name} | `{h.name}` | {sources} | {readers} | {resume} |")
    return "\n".join(lines)


def _details(h: Harness) -> str:
    lines = [f"### {h.display_name} (`{h.name}`)", ""]
    for location in h.locations:
        lines += _location(location)
    if h.importer:
        lines.append("- Read by `moraine import PATH` only (a data export), never watched.")
    lines.append(f"- Adapter: `{h.adapter}`")
    if h.resume:
        where = "in the session's directory" if h.resume.in_cwd else "anywhere"
        lines.append(f"- Resume: `{' '.join(h.resume.words)} <native id>`, run {where}")
    lines.append(f"- Read: {h.reads or 'not documented yet'}")
    lines.append(f"- Not read: {h.not_read or 'not documented yet'}")
    lines.append(f"- Token usage (`moraine usage`): {h.usage or 'not read'}")
    return "\n".join(lines) + "\n"


def _location(location: Location) -> list[str]:
    off = "" if location.enabled else " (off until you turn it on in the config, below)"
    macos = location.macos_glob or location.glob
    lines = [
        f"- Source `{location.source}`{off}, reader `{location.reader}`:",
        f"  - Linux: {_path(location.glob)}",
        f"  - macOS: {_path(macos)}",
        f"  - Windows: {_path(location.windows_glob)}",
    ]
    if not location.enabled:
        lines += _turn_on(location)
    return lines


def _turn_on(location: Location) -> list[str]:
    """Return the config entry that turns an opt-in source on: no command does it (``moraine setup`` writes only
    the agents' MCP client files), and only the user knows where such a source's files are."""
    glob = location.glob or location.macos_glob or location.windows_glob
    return [
        "  - To read it, add this entry to `~/.moraine/config.toml` (or the file `--config` or `MORAINE_CONFIG`",
        "    names), with the `glob` uncommented and pointed at your own folders when the files are elsewhere:",
        "",
        "    ```toml",
        "    [[sources]]",
        f'    name = "{location.source}"',
        "    enabled = true",
        f'    # glob = "{glob}"',
        "    ```",
    ]


def _path(glob: str | None) -> str:
    return f"`{glob}`" if glob else "none"
