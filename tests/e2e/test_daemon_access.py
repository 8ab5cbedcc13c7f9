"""A real ``moraine serve`` process: loopback TCP answers only holders of the install's secret (and its own pages),
the Unix socket needs none (``moraine mcp`` keeps working), ``moraine web`` logs a browser in once (through a user-only page), and another
account (``nobody``, when the test runs as root) is refused, even when the user's browser visits its server after
logging in."""

from __future__ import annotations

import html
import os
import re
import shutil
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx2
import pytest
from daemon_support import MORAINE, DaemonHome, codex_turn, wait_for
from mcp import Client

from tests.neighbour import Neighbour

UUID = "0196f100-0000-7000-8000-00000000abcd"
QUERY = {"query": "narwhal"}


@pytest.fixture(scope="module")
def home() -> Iterator[DaemonHome]:
    home = DaemonHome()
    home.configure()
    home.seed_store()
    home.session_file(UUID).write_text(codex_turn(0, "Where is the narwhal cache?", "Under var/narwhal."))
    try:
        home.serve()
        home.wait_ready()
        wait_for(lambda: home.health()["backfill"] == "done", 120, "the backfill")
        yield home
    finally:
        home.cleanup()


def _base(home: DaemonHome) -> str:
    state = home.state()
    assert state is not None
    return f"http://127.0.0.1:{state.port}"


def test_the_facade_over_tcp_answers_only_with_the_secret(home: DaemonHome) -> None:
    url = _base(home) + "/v1/tools/search_sessions"
    refused = httpx2.post(url, json=QUERY, timeout=60)
    wrong = httpx2.post(url, json=QUERY, headers={"Authorization": "Bearer " + "x" * 43}, timeout=60)
    answered = httpx2.post(url, json=QUERY, headers=home.http_headers(), timeout=60)
    assert refused.status_code == wrong.status_code == 401
    assert refused.headers["www-authenticate"].startswith("Bearer")
    assert answered.status_code == 200 and answered.json()["data"]["result_count"] >= 1
    rebound = httpx2.post(
        url, json=QUERY, headers={**home.http_headers(), "Host": "evil.example"}, timeout=60
    )
    assert rebound.status_code == 421
    foreign = httpx2.post(
        url, json=QUERY, headers={**home.http_headers(), "Origin": "http://evil.example"}, timeout=60
    )
    assert foreign.status_code == 403
    form = httpx2.post(
        url, content=b'{"query": "narwhal"}', headers={"Content-Type": "text/plain"}, timeout=60
    )
    assert form.status_code == 401  # no secret: refused before its media type is even looked at
    form = httpx2.post(
        url, content=b'{"query": "narwhal"}', headers={**home.http_headers(), "Content-Type": "text/plain"}
    )
    assert form.status_code == 415


def test_the_run_directory_secret_and_socket_are_user_only(home: DaemonHome) -> None:
    run = home.moraine_home / "run"
    assert stat.S_IMODE(run.stat().st_mode) == 0o700
    assert stat.S_IMODE((run / "http-secret").stat().st_mode) == 0o600
    assert stat.S_IMODE((run / "daemon.sock").stat().st_mode) == 0o600
    assert len((run / "http-secret").read_text().strip()) >= 32


def test_moraine_mcp_reaches_the_daemon_over_its_socket_without_the_secret(home: DaemonHome) -> None:
    async def search() -> int:
        async with Client(home.relay_params(), read_timeout_seconds=120) as client:
            result = await client.call_tool("search_sessions", QUERY)
            assert result.structured_content is not None and result.is_error is False
            return int(result.structured_content["data"]["result_count"])

    assert anyio.run(search) >= 1


def _login_link(page_url: str) -> str:
    """Return the one-time link the login page forwards to (its refresh target)."""
    text = Path(page_url.removeprefix("file://")).read_text(encoding="utf-8")
    found = re.search(r'content="0;url=([^"]+)"', text)
    assert found is not None, text
    return html.unescape(found.group(1))


def _page_token(landing: str) -> str:
    """Return the page token the ``/auth`` landing hands its tab (what ``/web/login.js`` keeps)."""
    found = re.search(r'<meta name="moraine-page-token" content="([^"]+)">', landing)
    assert found is not None, landing
    return html.unescape(found.group(1))


def _moraine_web(home: DaemonHome) -> subprocess.CompletedProcess[str]:
    """Run ``moraine web --no-open`` (it prints the login page's address instead of opening it)."""
    return subprocess.run(
        [str(MORAINE), "web", "--no-open"],
        env=home.env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


def _fresh_login_link(home: DaemonHome) -> str:
    """Run ``moraine web --no-open`` and return the one-time link its page forwards to."""
    return _login_link(_moraine_web(home).stdout.strip())


def test_moraine_web_hands_the_browser_a_user_only_page_whose_link_logs_in_once(home: DaemonHome) -> None:
    printed = _moraine_web(home)
    page = printed.stdout.strip()
    assert page.startswith("file://") and "token" not in page and "token" not in printed.stderr
    page_path = Path(page.removeprefix("file://"))
    assert stat.S_IMODE(page_path.stat().st_mode) == 0o600
    assert stat.S_IMODE(page_path.parent.stat().st_mode) == 0o700
    link = _login_link(page)
    assert link.startswith(_base(home) + "/auth?token=")
    with httpx2.Client(timeout=60, follow_redirects=True) as browser:
        login = browser.get(link)  # a page whose script keeps the tab's token and moves on to /
        assert login.status_code == 200 and '<script type="module" src="/web/login.js">' in login.text
        assert "set-cookie" not in login.headers and not list(browser.cookies.jar)
        token = _page_token(login.text)
        assert token not in (home.moraine_home / "run" / "http-secret").read_text()
        url = _base(home) + "/v1/tools/search_sessions"
        search = browser.post(
            url, json=QUERY, headers={"Origin": _base(home), "Authorization": f"Bearer {token}"}
        )
        assert search.status_code == 200 and search.json()["data"]["result_count"] >= 1
        assert browser.post(url, json=QUERY, headers={"Origin": _base(home)}).status_code == 401
    assert httpx2.get(link, timeout=60).status_code == 401  # spent


FORGET_PREVIEW = {"criteria": {"ids": [UUID]}}  # what a neighbour would forget next


def _visit_neighbour(browser: httpx2.Client, base: str) -> list[str]:
    """Have ``browser`` visit another account's server; replay every cookie it received against the daemon."""
    with Neighbour() as neighbour:
        assert browser.get(neighbour.base + "/").status_code == 200
        received = neighbour.cookies_received()
        assert [visit["path"] for visit in neighbour.stop()] == ["/"]
    for cookie in received:
        for path, body in (("/v1/tools/search_sessions", QUERY), ("/v1/daemon/forget", FORGET_PREVIEW)):
            replayed = httpx2.post(base + path, json=body, headers={"Cookie": cookie}, timeout=60)
            assert replayed.status_code == 401, f"the neighbour's replay of {cookie!r} opened {path}"
    return received


def test_a_neighbours_server_the_logged_in_browser_visits_receives_nothing_that_opens_the_daemon(
    home: DaemonHome,
) -> None:
    base = _base(home)
    answers: list[httpx2.Response] = []  # every answer the daemon gave the browser
    with httpx2.Client(timeout=60) as browser:
        # The browser logs in and loads the page as a user does, then visits the neighbour's page (127.0.0.1,
        # another port): it sends the neighbour whatever it holds for 127.0.0.1.
        answers.append(browser.get(_fresh_login_link(home)))
        for path in ("/", "/web/main.js", "/web/api.js", "/web/app.css"):
            answers.append(browser.get(base + path))
        assert [a.status_code for a in answers] == [200] * len(answers)
        received = _visit_neighbour(browser, base)
        # The page in use: its script sends the token, as a header, to search, list the agents and forget.
        auth = {"Authorization": f"Bearer {_page_token(answers[0].text)}", "Origin": base}
        answers.append(browser.post(base + "/v1/tools/search_sessions", json=QUERY, headers=auth))
        answers.append(browser.get(base + "/v1/daemon/agents", headers=auth))
        answers.append(browser.post(base + "/v1/daemon/forget", json=FORGET_PREVIEW, headers=auth))
        assert [a.status_code for a in answers] == [200] * len(answers)
        received += _visit_neighbour(browser, base)
    set_cookies = [value.split(";", 1)[0] for a in answers for value in a.headers.get_list("set-cookie")]
    for cookie in set_cookies:
        replayed = httpx2.post(
            base + "/v1/tools/search_sessions", json=QUERY, headers={"Cookie": cookie}, timeout=60
        )
        assert replayed.status_code == 401, f"a replay of the daemon's own {cookie!r} opened a search"
    assert received == [] and set_cookies == []  # nothing ambient to receive in the first place


def test_moraine_web_never_puts_the_ticket_on_the_browsers_command_line(
    home: DaemonHome, tmp_path: Path
) -> None:
    seen = tmp_path / "argv.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > {seen}\n')
    browser.chmod(0o700)
    subprocess.run(
        [str(MORAINE), "web"],
        env={**home.env, "BROWSER": f"{browser} %s", "DISPLAY": ""},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    argv = seen.read_text(encoding="utf-8")
    assert argv.startswith("file://") and "token" not in argv, argv
    assert _login_link(argv.strip()).startswith(_base(home) + "/auth?token=")


def test_another_account_is_refused_a_search(home: DaemonHome) -> None:
    if os.geteuid() != 0:
        pytest.skip(
            "switching to the user 'nobody' needs root; run the suite as root (CI does) to check this"
        )
    curl, runuser = shutil.which("curl"), shutil.which("runuser")
    if curl is None or runuser is None:
        pytest.skip(
            "curl and runuser are needed to make a request as 'nobody' (apt-get install curl util-linux)"
        )
    secret = home.moraine_home / "run" / "http-secret"
    peek = subprocess.run(
        [runuser, "-u", "nobody", "--", "cat", str(secret)], capture_output=True, text=True, timeout=60
    )
    assert peek.returncode != 0 and "Permission denied" in peek.stderr
    answer = subprocess.run(
        [
            runuser, "-u", "nobody", "--", curl, "-s", "-o", "/dev/null", "-w", "%{http_code}",
            "-H", "Content-Type: application/json", "-d", '{"query": "narwhal"}',
            _base(home) + "/v1/tools/search_sessions",
        ],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert answer.stdout == "401", (answer.stdout, answer.stderr)
    socket = subprocess.run(
        [
            runuser, "-u", "nobody", "--", curl, "-s", "--unix-socket", str(home.moraine_home / "run" / "daemon.sock"),
            "-o", "/dev/null", "-w", "%{http_code}", "http://moraine.daemon/v1/daemon/health",
        ],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert socket.stdout == "000"  # the socket is not even reachable for another account
