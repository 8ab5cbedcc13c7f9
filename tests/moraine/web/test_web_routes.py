"""The page's routes and static files: what is served, with which headers, and rules the scripts must keep."""

from __future__ import annotations

import json
import re
from importlib import resources

import anyio
import httpx2
import pytest
from starlette.applications import Starlette

from moraine.config import default_sources
from moraine.harnesses.registry import harnesses
from moraine.web import ASSET_PREFIX, web_routes

STATIC = resources.files("moraine.web") / "static"
SCRIPTS = sorted(entry.name for entry in STATIC.iterdir() if entry.name.endswith(".js"))
# Ways text could become markup or code: the page builds every node with createElement/textContent instead.
UNSAFE = re.compile(
    r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|setAttribute\(\"on"
)


def _get(*paths: str) -> list[httpx2.Response]:
    async def run() -> list[httpx2.Response]:
        transport = httpx2.ASGITransport(app=Starlette(routes=web_routes()))
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1:8765") as client:
            return [await client.get(path) for path in paths]

    return anyio.run(run)


def test_the_shell_is_served_at_the_root_with_a_strict_content_security_policy() -> None:
    (index,) = _get("/")
    assert index.status_code == 200
    assert index.headers["content-type"] == "text/html; charset=utf-8"
    policy = index.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy and "connect-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert index.headers["x-content-type-options"] == "nosniff"
    assert f'src="{ASSET_PREFIX}/main.js"' in index.text


def test_every_file_the_shell_and_scripts_reference_is_served_with_its_media_type() -> None:
    (index,) = _get("/")
    referenced = set(re.findall(rf'(?:src|href)="{ASSET_PREFIX}/([^"]+)"', index.text))
    for script in SCRIPTS:
        text = (STATIC / script).read_text(encoding="utf-8")
        referenced |= set(re.findall(r'from "\./([^"]+)"', text))
    assert {"main.js", "app.css", "icon.svg", "api.js"} <= referenced
    replies = _get(*(f"{ASSET_PREFIX}/{name}" for name in sorted(referenced)))
    types = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
    for name, reply in zip(sorted(referenced), replies, strict=True):
        assert reply.status_code == 200, name
        assert reply.headers["content-type"].startswith(types[name[name.rfind(".") :]]), name


@pytest.mark.parametrize(
    "path", [f"{ASSET_PREFIX}/missing.js", f"{ASSET_PREFIX}/..%2Froutes.py", f"{ASSET_PREFIX}/"]
)
def test_names_outside_the_shipped_files_are_not_found(path: str) -> None:
    (reply,) = _get(path)
    assert reply.status_code == 404
    assert "import" not in reply.text


@pytest.mark.parametrize("script", SCRIPTS)
def test_scripts_never_turn_text_into_markup_or_code(script: str) -> None:
    text = (STATIC / script).read_text(encoding="utf-8")
    assert not UNSAFE.findall(text), f"{script} must build nodes with h()/textContent"


def test_the_page_asks_for_compact_pages_only() -> None:
    api = (STATIC / "api.js").read_text(encoding="utf-8")
    sizes = [
        int(value)
        for value in re.findall(r"\b[a-z]+: (\d+)", api.split("PAGE = Object.freeze(", 1)[1].split(")", 1)[0])
    ]
    assert sizes and max(sizes) <= 25


def test_the_filters_offer_every_registered_harness_and_standard_source() -> None:
    (module,) = _get(f"{ASSET_PREFIX}/harnesses.js")
    assert module.status_code == 200 and module.headers["content-type"].startswith("text/javascript")
    labels = re.search(r"HARNESS_LABELS = Object\.freeze\((\{.*?\})\);", module.text)
    sources = re.search(r"SOURCES = Object\.freeze\((\[.*?\])\);", module.text)
    assert labels is not None and sources is not None
    offered = json.loads(labels.group(1))
    assert offered == {name: declared.display_name for name, declared in harnesses().items()}
    assert len(offered) >= 57 and offered["gemini-cli"] == "Gemini CLI" and offered["codex"] == "Codex"
    assert set(json.loads(sources.group(1))) >= {s.name for s in default_sources("linux")} | {
        "claude",
        "codex",
    }
    ui = (STATIC / "ui.js").read_text(encoding="utf-8")
    assert '"kiro-cli"' not in ui, "the harness list comes from the registry, not a list in the page"


def test_every_request_the_page_makes_sends_its_tab_token_and_never_a_cookie() -> None:
    callers = {script for script in SCRIPTS if re.search(r"\bfetch\(", (STATIC / script).read_text("utf-8"))}
    assert callers == {"credential.js"}, "every request goes through daemonFetch (credential.js)"
    credential = (STATIC / "credential.js").read_text(encoding="utf-8")
    assert 'credentials: "omit"' in credential and "sessionStorage" in credential
    assert 'headers.set("authorization", `Bearer ${token}`)' in credential
    for script in SCRIPTS:  # a followed link would be a navigation, which can carry no token
        text = (STATIC / script).read_text(encoding="utf-8")
        assert "document.cookie" not in text and 'download: ""' not in text, script
