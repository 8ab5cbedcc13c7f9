"""Shell operands: files named by a command, never URLs, prose, flags, globs, patterns or here-document bodies."""

from __future__ import annotations

import pytest

from moraine.attention.shell import Operand, shell_operands


def paths(command: str | list[str]) -> list[str]:
    return [operand.path for operand in shell_operands(command) if operand.strong]


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cat src/app.py", ["src/app.py"]),
        ("sed -n '1,40p' src/app.py | head -n 5", ["src/app.py"]),
        ("grep -rn 'def main' src/app.py tests/", ["src/app.py"]),
        ("rg -e foo -- src/app.py", ["src/app.py"]),
        ("cp a.py b.py && mv Makefile docs/Makefile.old", ["a.py", "b.py", "Makefile", "docs/Makefile.old"]),
        ("pytest tests/test_app.py::test_main -q", ["tests/test_app.py"]),
        ("python -m pkg.module --config=conf/settings.toml", ["conf/settings.toml"]),
        ("echo done > logs/out.txt 2>/dev/null", ["logs/out.txt"]),
        ("git diff HEAD~1 -- src/app.py", ["src/app.py"]),
        ("vim src/app.py:42", ["src/app.py"]),
    ],
)
def test_operands_that_name_files_are_found(command: str, expected: list[str]) -> None:
    assert paths(command) == expected


@pytest.mark.parametrize(
    "command",
    [
        "curl -sL https://example.com/src/app.py",
        "wget example.com/src/app.py",
        "echo see src/app.py for the details",
        "git commit -m 'fix the bug in src/app.py'",
        "rg --file=*.py needle",
        "ls src/*.py",
        "cat $HOME/notes.txt",
        "python -c 'open(\"src/app.py\").read()'",
        "git checkout feature/login",
        "grep -rn src/app.py",
    ],
)
def test_urls_prose_flags_globs_and_patterns_are_not_files(command: str) -> None:
    assert paths(command) == []


def test_here_document_body_is_not_read_but_its_target_is() -> None:
    command = "cat > notes/plan.md <<'EOF'\nedit src/app.py then run tests/test_app.py\nEOF\nls"
    assert paths(command) == ["notes/plan.md"]


def test_cd_moves_the_base_of_following_relative_operands() -> None:
    assert shell_operands("cd pkg && cat app.py; cat /etc/hosts") == [
        Operand("app.py", "pkg", True),
        Operand("/etc/hosts", "pkg", True),
    ]


def test_operands_after_an_unfollowable_cd_keep_only_absolute_paths() -> None:
    assert paths("cd $TMPDIR && cat notes.txt /srv/app/main.py") == ["/srv/app/main.py"]


def test_argv_arrays_and_shell_wrappers_are_parsed() -> None:
    assert paths(["bash", "-lc", "cat ./src/app.py 2>&1"]) == ["./src/app.py"]
    assert paths(["cat", "src/app.py"]) == ["src/app.py"]
    assert paths(["/bin/zsh", "-c", "cd lib && head util.ts"]) == ["util.ts"]


def test_extension_less_slash_words_are_weak_candidates() -> None:
    assert shell_operands("./bin/run build && chmod +x bin/run") == [Operand("bin/run", "", False)]


def test_unbalanced_quotes_do_not_crash() -> None:
    assert paths("cat 'src/app.py") == []
    assert paths('cat src/app.py "unterminated') == ["src/app.py"]


def test_git_and_make_dash_c_move_the_base_of_their_operands() -> None:
    assert shell_operands("git -C ../lib add src/app.py") == [Operand("src/app.py", "../lib", True)]
    assert shell_operands("make -C build install.mk; cat a.py") == [
        Operand("install.mk", "build", True),
        Operand("a.py", "", True),
    ]
    assert shell_operands("git -C $ROOT diff src/app.py") == []


def test_a_repeated_command_gives_the_same_operands_from_the_memo_and_callers_get_their_own_list() -> None:
    first = shell_operands("cat src/app.py && git diff docs/readme.md")
    first.append(Operand("mutated", "", True))
    again = shell_operands("cat src/app.py && git diff docs/readme.md")
    assert again == [Operand("src/app.py", "", True), Operand("docs/readme.md", "", True)]
