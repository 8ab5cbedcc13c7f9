"""Passwords told in a sentence, in English, German, French, Spanish, Chinese and a few more languages.

A user tells an agent "Das Passwort lautet: Sonne2024!", "le mot de passe est Soleil2024", "la contraseña es
Luna2024", "密码是 Mima2024"; no assignment syntax surrounds the secret, so it is known by the word for password, a
few words at most ("for the database", "für die Datenbank", "de la base de datos de producción": articles and
prepositions do not count), and a connector ("is", "lautet", "est", "es", "是",
"为", or a colon). A quoted value is always taken. A bare value after a word connector is taken only when it does
not read as a word (a digit, a symbol or an inner capital in it), so "the password is required" keeps its word; after a
colon any token is (as in ``password: value`` assignments). Values are ASCII: a password is typed on a keyboard,
and the sentence around it may be in any script.

The same goes for an "api secret", "client secret" or "secret key" followed on its line by 32 or more hex digits
with no connector at all ("API secret 3f9c...").
"""

from __future__ import annotations

import re

from moraine.redact.detector import detector

__all__ = ["PHRASE_DETECTORS", "reads_as_secret"]

# The word for a password in each language, and for an API secret; lower case (the patterns are case-blind).
_PASSWORD = (
    r"(?:pass(?:word|wd|phrase)|pass[ -]phrase|passwort|kennwort|mot[ \t]de[ \t]passe|mdp|contrase(?:ñ|n)a"
    r"|senha|wachtwoord|пароль)"
)
_SECRET = r"(?:(?:api|app|client|secret|access|account)[ \t_-](?:secret|key)|secret)"
_CJK = r"(?:密码|密碼|口令|パスワード|비밀번호)"  # no spaces around words in these scripts
# A Latin word starts a word (not "bypassword", not a "-password" option: ``context`` has those).
_PASSWORD_WORDS = r"(?:(?<![\w-])" + _PASSWORD + "|" + _CJK + ")"
_SECRET_WORDS = r"(?<![\w-])" + _SECRET
_CONNECTOR = r"(?:(?:is|was|lautet|ist|war|lautete|est|était|es|era|é|è)(?!\w)|是|为|為|は|는)"
# Articles, prepositions and possessives: they do not count towards the four words of a filler, so a Spanish or
# French phrase, which needs more of them, is as long as an English one ("de la base de datos de producción" is
# three words and four of these).
_FUNCTION_WORD = (
    r"(?:the|of|for|on|in|at|to|my|our|your|this|an?|de|del|la|las|el|los|lo|una?|para|por|en|al|mi|tu|su|du|des"
    r"|le|les|une|pour|sur|au|aux|mon|ma|mes|da|do|das|dos|os|as|um|uma|na|no|em|meu|minha|der|die|dem|den"
    r"|für|von|zum|zur|im|am|mein|meine|di|della|il|van|het|voor)(?![\w'’-])"
)
# A filler: at most four words, each perhaps after up to three function words ("for the root user", "für die
# Datenbank", "de la base de datos de producción").
_FILLER = r"(?:(?:[ \t]{1,4}" + _FUNCTION_WORD + r"){0,3}[ \t]{1,4}[\w'’-]{1,20}){0,4}?"
_GAP = r"[ \t]{0,4}[:：]?[ \t]{0,4}"
_QUOTED = (
    r"(?:\"(?P<dq>[^\"\n]{1,200})\"|'(?P<sq>[^'\n]{1,200})'|`(?P<bq>[^`\n]{1,200})`"
    r"|«[ \t]?(?P<gq>[^»\n]{1,200}?)[ \t]?»|[「“](?P<cq>[^」”\n]{1,200})[」”])"
)
_QUOTES = ("dq", "sq", "bq", "gq", "cq")
_BARE = r"(?P<bare>[!-~]{4,200})"
_TRIGGERS = (
    r"pass(?:word|wd|phrase)",
    r"passwort",
    r"kennwort",
    r"mot de passe",
    r"contrase",
    r"senha",
    r"wachtwoord",
    r"\xd0\xbf\xd0\xb0\xd1\x80\xd0\xbe\xd0\xbb\xd1\x8c",  # пароль, as UTF-8 bytes (the triggers match bytes)
    r"\xe5\xaf\x86\xe7\xa0\x81",  # 密码
    r"\xe5\xaf\x86\xe7\xa2\xbc",  # 密碼
    r"\xe5\x8f\xa3\xe4\xbb\xa4",  # 口令
    r"\xe3\x83\x91\xe3\x82\xb9\xe3\x83\xaf\xe3\x83\xbc\xe3\x83\x89",  # パスワード
    r"\xeb\xb9\x84\xeb\xb0\x80\xeb\xb2\x88\xed\x98\xb8",  # 비밀번호
    r"mdp[ \t]{0,4}[:=]",
)
_SECRET_TRIGGERS = (r"(?:secret|key)[ \t]+(?:[\w'-]+[ \t]+){0,4}(?:is|was|est|es|ist|lautet)[ \t]",)
_WORD = re.compile(r"[A-Za-z][a-z]*[.,;:!?]?")  # a word, perhaps capitalized, perhaps ending a sentence
_LETTERS = re.compile(r"[A-Za-z]+[.,;:!?]?")  # letters only (camelCase too)
_HEX_AFTER = r"(?<![0-9A-Za-z])(?P<hex>[0-9a-fA-F]{32,128})(?![0-9A-Za-z])"


def reads_as_secret(value: str) -> bool:
    """Say whether a bare value told after a word for password is one rather than the sentence's next word."""
    return _WORD.fullmatch(value) is None


def _not_letters(value: str) -> bool:
    """A value told after "secret" or "API key": a word or an identifier is the sentence going on, not the key."""
    return _LETTERS.fullmatch(value) is None


def _phrase(words: str, value: str) -> str:
    return words + _FILLER + r"[ \t]{0,4}" + _CONNECTOR + _GAP + value


PHRASE_DETECTORS = (
    detector("password", _phrase(_PASSWORD_WORDS, _QUOTED), _TRIGGERS, _QUOTES, re.I),
    detector("password", _phrase(_PASSWORD_WORDS, _BARE), _TRIGGERS, ("bare",), re.I, reads_as_secret),
    detector("api-secret", _phrase(_SECRET_WORDS, _QUOTED), _SECRET_TRIGGERS, _QUOTES, re.I),
    detector("api-secret", _phrase(_SECRET_WORDS, _BARE), _SECRET_TRIGGERS, ("bare",), re.I, _not_letters),
    detector(  # a colon straight after the word: any token (English words: the assignment shape in ``context``)
        "password",
        r"(?:(?<![\w-])(?:passwort|kennwort|mot[ \t]de[ \t]passe|mdp|contrase(?:ñ|n)a|senha|wachtwoord|пароль)|"
        + _CJK
        + r")[ \t]{0,4}[:=：][ \t]{0,4}(?:"
        + _QUOTED
        + r"|(?P<tok>[!-~]{2,200}))",
        _TRIGGERS,
        (*_QUOTES, "tok"),
        re.I,
    ),
    detector(
        "api-secret",
        r"(?:secret|token|api[ \t_-]?key|access[ \t_-]?key|signing[ \t_-]?key|passw(?:or)?d)[^\n]{0,24}?"
        + _HEX_AFTER,
        (
            r"(?:secret|token|api[ \t_-]?key|access[ \t_-]?key|signing[ \t_-]?key|passw(?:or)?d)"
            r"[^\n]{0,24}[0-9a-f]{32}",
        ),
        ("hex",),
        re.I,
    ),
)
