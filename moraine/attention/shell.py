"""Path-like operands of a shell command (a script string or an argv array).

Only operands and redirect targets count: command words, flags, URLs, globs, variables, prose (quoted text with
spaces), ``echo``/``printf`` arguments, the pattern operand of grep/sed/awk-like commands, inline code (``-c``/``-e``)
and here-document bodies are not files. ``cd``/``pushd`` with a literal directory moves the base of the relative
operands that follow it; after a ``cd`` we cannot follow (``cd $X``, ``cd -``), relative operands are dropped.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass

from moraine.attention.pathtext import clean_path, looks_like_file
from moraine.memo import Memo

__all__ = ["Operand", "shell_operands"]

_OPERATORS = frozenset({";", "&&", "||", "|", "&", "(", ")", "\n", ";;", "|&", "&|"})
_REDIRECTS = frozenset({">", ">>", "<", ">|", "&>", "&>>", "<>", ">&"})
_HEREDOC_OPS = frozenset({"<<", "<<-", "<<<"})
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "fish"})
_WRAPPERS = frozenset(
    {"sudo", "env", "time", "nohup", "command", "exec", "nice", "builtin", "xargs", "stdbuf"}
)
_SILENT = frozenset({"echo", "printf", "export", "alias", "unset", "set", "true", "false", "test", "["})
_PATTERN_FIRST = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "sed", "awk", "gawk", "mawk", "jq"})
_PATTERN_FLAGS = frozenset({"-e", "-f", "--regexp", "--expression", "--file"})
_CODE_FLAGS = frozenset({"-c", "-e", "-m", "--eval", "--command", "-r"})
_CODE_COMMANDS = frozenset({"python", "python3", "node", "perl", "ruby", "deno", "bun", "php", "uv", "npx"})
_VALUE_FLAGS = frozenset({"-m", "--message"})
_DIR_FLAG_COMMANDS = frozenset({"git", "make"})  # `-C DIR`: run in DIR
_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_LINE_REF = re.compile(r"^(.+\.[A-Za-z0-9_]+):\d+(?::\d+)?$")


@dataclass(frozen=True, slots=True)
class Operand:
    """A path-like operand; ``cd`` is the directory the command ran in, relative to the call's cwd ("" = cwd).

    ``strong`` is False for words that only read as files if they exist (``bin/run``): callers check the disk.
    """

    path: str
    cd: str
    strong: bool


def shell_operands(command: str | Sequence[str]) -> list[Operand]:
    """Return the path-like operands of ``command``, in order, without duplicates."""
    if not isinstance(command, str):
        return list(_parse_operands(command))
    return list(_memo(command))  # a list of its own: the memo keeps the tuple


def _parse_operands(command: str | Sequence[str]) -> tuple[Operand, ...]:
    found: list[Operand] = []
    seen: set[tuple[str, str]] = set()
    for operand in _operands(command, depth=0):
        key = (operand.path, operand.cd)
        if key not in seen:
            seen.add(key)
            found.append(operand)
    return tuple(found)


# Agents run the same commands again and again (``git status``, the test command): the operands of a command, which
# depend on its text alone, are memoised (short commands, a bounded number).
_memo: Memo[tuple[Operand, ...]] = Memo(_parse_operands, entries=1 << 13, longest=1024)


def _operands(command: str | Sequence[str], depth: int) -> Iterator[Operand]:
    if depth > 3:
        return
    if isinstance(command, str):
        yield from _script(command, depth)
        return
    argv = [word for word in command if isinstance(word, str)]
    if not argv:
        return
    if posixpath.basename(argv[0]) in _SHELLS:
        script = _inline_script(argv[1:])
        if script is not None:
            yield from _operands(script, depth + 1)
            return
    yield from _simple(argv, cd="", depth=depth)


def _inline_script(args: Sequence[str]) -> str | None:
    for index, word in enumerate(args):
        if word.startswith("-") and not word.startswith("--") and "c" in word[1:]:
            return args[index + 1] if index + 1 < len(args) else None
        if not word.startswith("-"):
            return None
    return None


def _strip_heredocs(script: str) -> str:
    """Drop here-document bodies (their text is data, not operands)."""
    if "<<" not in script:
        return script
    out: list[str] = []
    pending: list[str] = []
    for line in script.split("\n"):
        if pending:
            if line.strip() == pending[0]:
                pending.pop(0)
            continue
        out.append(line)
        pending.extend(match.group(2) for match in _HEREDOC.finditer(line) if "<<<" not in match.group(0))
    return "\n".join(out)


def _tokens(script: str) -> list[str]:
    lexer = shlex.shlex(script, posix=True, punctuation_chars="();<>|&\n")
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        return list(lexer)
    except ValueError:  # unbalanced quotes: fall back to plain words
        return script.replace("\n", " \n ").split(" ")


def _script(script: str, depth: int) -> Iterator[Operand]:
    words: list[str] = []
    cd: str | None = ""
    comment = False
    for token in _tokens(_strip_heredocs(script)):
        if comment:
            comment = token != "\n"
            continue
        if token.startswith("#") and not words:
            comment = True
            continue
        if token in _OPERATORS:
            cd = yield from _command(words, cd, depth)
            words = []
            continue
        words.append(token)
    yield from _command(words, cd, depth)


def _command(words: list[str], cd: str | None, depth: int) -> Generator[Operand, None, str | None]:
    """Yield one simple command's operands; return the working directory after it (None: unknown)."""
    if not words:
        return cd
    head = 0
    while head < len(words) and (_ASSIGNMENT.match(words[head]) or words[head] in _WRAPPERS):
        head += 1
    if head >= len(words):
        return cd
    name = posixpath.basename(words[head])
    args = words[head + 1 :]
    if name in ("cd", "pushd"):
        return _change_dir(cd, args)
    if cd is None:
        yield from (op for op in _simple(words[head:], "", depth) if posixpath.isabs(op.path))
        return cd
    yield from _simple(words[head:], cd, depth)
    return cd


def _change_dir(cd: str | None, args: list[str]) -> str | None:
    target = next((word for word in args if not word.startswith("-")), None)
    if cd is None or target is None or target.startswith("~") and not target.startswith("~/"):
        return None
    cleaned = clean_path(target if not target.endswith("/") else target.rstrip("/") or "/")
    if cleaned is None:
        return None
    return posixpath.normpath(posixpath.join(cd, cleaned)) if cd else posixpath.normpath(cleaned)


def _simple(argv: Sequence[str], cd: str, depth: int) -> Iterator[Operand]:
    name = posixpath.basename(argv[0])
    if name in _SHELLS:
        script = _inline_script(argv[1:])
        if script is not None:
            for operand in _operands(script, depth + 1):
                yield Operand(operand.path, _join(cd, operand.cd), operand.strong)
            return
    silent = name in _SILENT
    pattern_pending = name in _PATTERN_FIRST
    skip_next = False
    index = 1
    while index < len(argv):
        word = argv[index]
        index += 1
        if word in _REDIRECTS or (word[:-1].isdigit() and word[-1:] in "<>" and len(word) > 1):
            if index < len(argv):
                yield from _candidate(argv[index], cd)
                index += 1
            continue
        if word in _HEREDOC_OPS:
            index += 1
            continue
        if skip_next:
            skip_next = False
            continue
        if silent:
            continue
        if word == "--":
            continue
        if word == "-C" and name in _DIR_FLAG_COMMANDS and index < len(argv):
            target = clean_path(argv[index].rstrip("/") or "/")
            index += 1
            if target is None:
                return  # `git -C $DIR ...`: the base of the remaining operands is unknown
            cd = _join(cd, target) if not posixpath.isabs(target) else target
            continue
        if word.startswith("-"):
            if name in _PATTERN_FIRST and word in _PATTERN_FLAGS:
                pattern_pending = False
                skip_next = True
            elif word in _CODE_FLAGS and (name in _CODE_COMMANDS or name.startswith("python")):
                skip_next = True
            elif word in _VALUE_FLAGS:
                skip_next = True
            elif word.startswith("--") and "=" in word:
                yield from _candidate(word.split("=", 1)[1], cd)
            continue
        if pattern_pending:
            pattern_pending = False
            continue
        yield from _candidate(word, cd)


def _candidate(word: str, cd: str) -> Iterator[Operand]:
    if "::" in word:
        word = word.split("::", 1)[0]  # pytest node ids: tests/test_x.py::test_y
    line_ref = _LINE_REF.match(word)
    if line_ref:
        word = line_ref.group(1)
    if ":" in word:
        return
    cleaned = clean_path(word)
    if cleaned is None:
        return
    if looks_like_file(cleaned):
        yield Operand(cleaned, cd, True)
    elif "/" in cleaned and not any(ch.isspace() or ch in "=,;|&<>()'\"\\" for ch in cleaned):
        yield Operand(cleaned, cd, False)


def _join(outer: str, inner: str) -> str:
    if not outer:
        return inner
    if not inner:
        return outer
    return posixpath.normpath(posixpath.join(outer, inner))
