"""Secret shapes the shipped ruleset has no rule for, or a rule that needs surroundings a trace rarely shows.

- tokens known by their own form: a Telegram bot token (``<bot id>:AA...``, also inside ``api.telegram.org/bot...``
  URLs), a Google OAuth client secret (``GOCSPX-...``);
- moraine's own credentials: the session cookie older versions gave the web page (``moraine_session...=<digest>``,
  whatever suffix the install and port give its name, in a header, a cookie jar or a browser's JSON; the page token
  that replaced it is sent as ``Authorization: Bearer``, which the ruleset redacts), and the HTTP secret read from its
  file (``cat ~/.moraine/run/http-secret`` shows it alone on the next line) or shown alone (a random-looking token
  of 32 to 100 URL-safe characters that is the whole text, as a tool's output);
- passwords given to commands as ``-p``: ``sshpass -p X``, ``docker login -p X`` (podman, nerdctl, helm...);
- a ``.netrc`` line (``machine host login me password X``, or ``password X`` alone on its line);
- an unquoted value assigned (``=``) to a secret-named key that holds ``&``, ``(`` or ``)`` (a Django ``SECRET_KEY`` drawn
  from its alphabet): the assignment shape in ``context`` stops at those characters, this one takes the whole value.
"""

from __future__ import annotations

import re

from moraine.redact.context import random_looking
from moraine.redact.detector import detector

__all__ = ["LONE_MAX", "LONE_MIN", "SHAPE_DETECTORS", "lone_token"]

_URLSAFE = r"A-Za-z0-9_-"
_SECRET_KEY_NAME = (
    r"[A-Za-z0-9_.-]{0,40}(?:password|passwd|pwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key"
    r"|private[_-]?key|credentials?|auth[_-]?key)[A-Za-z0-9_.-]{0,40}"
)
_HEX = re.compile(r"[0-9a-fA-F]+")
_CALL = re.compile(r"[A-Za-z_][\w.]*\(.*\)?")  # token = make_token(user), SECRET_KEY=get_random_secret_key()
_VALUE_OPTION = (
    r"(?:[ \t]{1,8}|=)?(?:\"(?P<dq>[^\"\n]{1,200})\"|'(?P<sq>[^'\n]{1,200})'|(?P<bare>[^\s\"']{1,200}))"
)


LONE_MIN = 32  # the shortest text that can be a lone token
LONE_MAX = 110  # the longest (100 characters and some blanks)
_LONE = re.compile(r"(\s*)([" + _URLSAFE + r"]{32,100})(\s*)")


def lone_token(text: str) -> str | None:
    """Return ``text`` redacted when it is one random-looking token and nothing else (a secret file's contents, as
    ``cat`` shows them), else None. Checked before the detectors run, after the caller has told most IDs and hashes
    apart by their length and case."""
    found = _LONE.fullmatch(text)
    if found is None or not random_looking(found.group(2)):
        return None
    return f"{found.group(1)}[REDACTED:random-token]{found.group(3)}"


def _digest(value: str) -> bool:
    """A cookie value: hex digits (a keyed digest) or a random-looking URL-safe token."""
    return _HEX.fullmatch(value) is not None or random_looking(value)


def _whole_value(value: str) -> bool:
    """An unquoted secret value holding what the assignment shape stops at (and not a function call)."""
    return any(c in value for c in "&()") and _CALL.fullmatch(value) is None


SHAPE_DETECTORS = (
    detector(
        "telegram-bot-api-token",
        r"(?<![0-9])[0-9]{6,12}:AA[" + _URLSAFE + r"]{30,200}",
        (r"[0-9]{6}:aa[a-z0-9_-]{30}",),
        (0,),
    ),
    detector("google-oauth-client-secret", r"\bGOCSPX-[" + _URLSAFE + r"]{10,200}", (r"gocspx-",), (0,)),
    detector(  # the name's tail is the install's and the port's: any moraine... name with a digest-like value
        "moraine-session",
        r"(?i)moraine[\w-]{0,80}?[\"']?[ \t]{0,8}[=:\t][ \t]{0,8}[\"']?(?P<v>[" + _URLSAFE + r"]{32,200})",
        (r"moraine[\w-]{0,80}[\"']?[ \t]*[=:\t][ \t]*[\"']?[a-z0-9_-]{32}",),
        ("v",),
        accept=_digest,
    ),
    detector(
        "moraine-session",
        r"(?i)\"name\"[ \t]{0,8}:[ \t]{0,8}\"moraine[^\"\n]{0,80}\"[^{}]{0,300}?\"value\"[ \t]{0,8}:[ \t]{0,8}\"(?P<v>[^\"\n]{8,300})\"",
        (r"\"name\"[ \t]*:[ \t]*\"moraine",),
        ("v",),
    ),
    detector(
        "moraine-http-secret",
        r"http-secret[^\n]{0,300}\n[ \t]{0,8}(?P<s>[" + _URLSAFE + r"]{32,100})[ \t]{0,8}(?=\r?\n|$)",
        (r"http-secret",),
        ("s",),
    ),
    detector(
        "password",
        r"(?i)\b(?:sshpass|(?:docker|podman|nerdctl|buildah|skopeo|helm|oras|crane)\b[^\n|;&]{0,100}?\blogin)\b"
        r"[^\n|;&]{0,200}?[ \t]-p" + _VALUE_OPTION,
        (r"sshpass[^\n|;&]*[ \t]-p", r"login[^\n|;&]*[ \t]-p"),
        ("dq", "sq", "bare"),
    ),
    detector(
        "password",
        r"(?i)\bmachine[ \t]{1,8}[^\s]{1,200}[^\n]{0,200}?[ \t]password[ \t]{1,8}(?P<pw>[^\s]{1,200})"
        r"|^[ \t]{0,8}password[ \t]{1,8}(?P<alone>[^\s]{1,200})[ \t]{0,8}\r?$",
        (r"machine[ \t][^\n]*password[ \t]", r"(?:^|\n)[ \t]*password[ \t]+[^\s]"),
        ("pw", "alone"),
        re.M,
    ),
    detector(
        "password",
        r"(?i)(?<![?&\w.-])" + _SECRET_KEY_NAME + r"[ \t]{0,8}=[ \t]{0,8}"
        r"(?P<v>(?![\"'`$&(])[^\s\"'`,;<>{}\[\]\\]{4,200})(?=[\s\"'`,;]|$)",
        (
            r"(?:password|passwd|pwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key"
            r"|credential|auth[_-]?key)[a-z0-9_.-]{0,40}[ \t]{0,8}=[ \t]{0,8}[^\s\"'`,;<>{}\[\]\\]{0,200}[&()]",
        ),
        ("v",),
        accept=_whole_value,
    ),
)
