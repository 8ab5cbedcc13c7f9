"""The words, identifiers, paths and text pools a synthetic corpus is made of (Zipf-distributed, seeded).

Text generation is the cost of writing a million events, so everything is drawn once into large pools and events
take random windows of them: the corpus keeps a Zipf-like term distribution while each event costs a slice.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

__all__ = ["Vocabulary", "needle_word"]

# The head of the distribution: words that dominate agent transcripts (prose and programming talk).
_HEAD = (
    "the to and a of in is that it for this on with be you we can file test i not are as if so "
    "error function will now should use from run check code add fix update change then need let "
    "config value type return build new tests make see one which all have at by or but when there "
    "data call output path list first issue just missing instead case also looks failing passes "
    "module import class method field default string null option command line step server client "
    "request response query index table schema migration cache session event turn search result "
    "user input model token parser handler worker queue lock thread async await retry timeout "
    "commit branch merge rebase diff patch review lint format ci pipeline release version deploy "
    "docker container image service endpoint route api json yaml toml env variable secret key "
    "memory disk cpu latency throughput benchmark profile trace log warning debug info assert expect "
    "mock fixture setup teardown coverage refactor rename extract inline delete remove create read "
    "write open close start stop restart install dependency package lockfile cargo npm pip pytest "
    "clippy mypy ruff eslint tsc webpack vite react component props state hook effect render prop "
    "database postgres sqlite clickhouse redis kafka batch stream buffer offset checkpoint cursor "
    "page limit sort filter scope range window bucket rank score snippet tokenizer posting"
).split()

_SYLLABLES = (
    "ba be bi bo bu da de di do du fa fe fi fo ga ge go ka ke ki ko ku la le li lo lu ma me mi mo mu "
    "na ne ni no nu pa pe pi po pu ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo wa we "
    "ya yo za ze ar er ir or ur an en in on un al el il ol st tr pr cr gr bl fl pl sl th ch sh"
).split()

_EXTENSIONS = (
    "py",
    "py",
    "py",
    "rs",
    "rs",
    "ts",
    "ts",
    "tsx",
    "go",
    "md",
    "toml",
    "json",
    "yaml",
    "sql",
    "sh",
)
_DIRS = (
    "src", "lib", "crates", "packages", "tests", "internal", "pkg", "app", "server", "client", "core",
    "store", "ingest", "search", "api", "cli", "utils", "config", "models", "handlers", "migrations", "docs",
)  # fmt: skip


def needle_word(rng: random.Random, syllables: int = 4) -> str:
    """Return a made-up word that no vocabulary word can equal (the ``zq`` prefix never starts one)."""
    return "zq" + "".join(rng.choice(_SYLLABLES) for _ in range(syllables))


def _zipf_weights(n: int, exponent: float = 1.07) -> list[float]:
    return list(itertools.accumulate(1.0 / (rank**exponent) for rank in range(1, n + 1)))


def _camel(parts: list[str]) -> str:
    return parts[0] + "".join(p.capitalize() for p in parts[1:])


@dataclass(slots=True)
class Vocabulary:
    """Seeded pools of prose words, code identifiers, file paths, code lines and log lines."""

    words: list[str]
    identifiers: list[str]
    prose: list[str]
    code_lines: list[str]
    log_lines: list[str]

    @classmethod
    def build(cls, rng: random.Random, tail_words: int = 20_000, pool_words: int = 400_000) -> Vocabulary:
        """Draw the vocabulary and the text pools from ``rng``."""
        seen = set(_HEAD)
        tail: list[str] = []
        while len(tail) < tail_words:
            word = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4)))
            if word not in seen and not word.startswith("zq"):
                seen.add(word)
                tail.append(word)
        words = list(_HEAD) + tail
        identifiers = cls._identifiers(rng, words, 6_000)
        cum_words = _zipf_weights(len(words))
        cum_ids = _zipf_weights(len(identifiers), 0.9)
        drawn = rng.choices(words, cum_weights=cum_words, k=pool_words)
        ids = rng.choices(identifiers, cum_weights=cum_ids, k=pool_words // 12)
        prose: list[str] = []
        id_iter = iter(ids)
        for i, word in enumerate(drawn):
            if i % 12 == 7:
                prose.append(next(id_iter, word))
            prose.append(word + "." if i % 14 == 13 else word)
        code_lines = cls._code_lines(rng, identifiers, cum_ids, words, 30_000)
        log_lines = cls._log_lines(rng, identifiers, cum_ids, code_lines, 30_000)
        return cls(words, identifiers, prose, code_lines, log_lines)

    @staticmethod
    def _identifiers(rng: random.Random, words: list[str], count: int) -> list[str]:
        base = words[:2_000]
        out: list[str] = []
        seen: set[str] = set()
        while len(out) < count:
            parts = [rng.choice(base) for _ in range(rng.randint(2, 4))]
            style = rng.random()
            if style < 0.45:
                ident = _camel(parts)
            elif style < 0.85:
                ident = "_".join(parts)
            else:
                ident = "".join(p.capitalize() for p in parts)
            if ident not in seen:
                seen.add(ident)
                out.append(ident)
        return out

    @staticmethod
    def _code_lines(
        rng: random.Random, idents: list[str], cum: list[float], words: list[str], count: int
    ) -> list[str]:
        picks = iter(rng.choices(idents, cum_weights=cum, k=count * 3))
        templates = (
            "    {a} = {b}({c})",
            "def {a}(self, {b}: {c}) -> None:",
            "class {a}({b}):",
            "from {a} import {b}, {c}",
            "    return {a}.{b}({c})",
            '    if not {a}:\n        raise ValueError("{w} {w2}")',
            "const {a} = await {b}({c});",
            "fn {a}(&self, {b}: &{c}) -> Result<()> {{",
            "    let {a} = {b}.{c}()?;",
            "    # {w} {w2} {a}",
            "    assert {a} == {b}",
            "export function {a}({b}) {{ return {c}; }}",
            "func {a}({b} {c}) error {{",
        )
        out = []
        for _ in range(count):
            tpl = rng.choice(templates)
            out.append(
                tpl.format(
                    a=next(picks),
                    b=next(picks),
                    c=next(picks),
                    w=rng.choice(words[:400]),
                    w2=rng.choice(words),
                )
            )
        return out

    @staticmethod
    def _log_lines(
        rng: random.Random, idents: list[str], cum: list[float], code: list[str], count: int
    ) -> list[str]:
        picks = iter(rng.choices(idents, cum_weights=cum, k=count * 2))
        out = []
        for i in range(count):
            kind = i % 8
            a, b = next(picks), next(picks)
            if kind == 0:
                out.append(f"tests/test_{a.lower()}.py::test_{b.lower()} PASSED")
            elif kind == 1:
                out.append(f"FAILED tests/test_{a.lower()}.py::test_{b.lower()} - AssertionError: {a} != {b}")
            elif kind == 2:
                out.append(f"error[E0308]: mismatched types in `{a}` expected `{b}`")
            elif kind == 3:
                out.append(f'  File "src/{a.lower()}.py", line {rng.randint(1, 900)}, in {b}')
            elif kind == 4:
                out.append(
                    f"src/{a.lower()}/mod.rs:{rng.randint(1, 900)}:{rng.randint(1, 80)}: {rng.choice(code)}"
                )
            elif kind == 5:
                out.append(
                    f"2026-10-{rng.randint(1, 28):02d} INFO {a}: processed {rng.randint(1, 99999)} rows"
                )
            elif kind == 6:
                out.append(f"warning: unused variable `{a}` --> src/{b.lower()}.rs")
            else:
                out.append(rng.choice(code))
        return out

    def project_paths(self, rng: random.Random, count: int) -> list[str]:
        """Return ``count`` distinct repository-relative file paths."""
        out: list[str] = []
        seen: set[str] = set()
        while len(out) < count:
            depth = rng.randint(1, 3)
            dirs = [rng.choice(_DIRS) for _ in range(depth)]
            name = rng.choice(self.identifiers[:3_000])
            if "_" not in name and any(c.isupper() for c in name) and rng.random() < 0.6:
                name = "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")
            path = "/".join([*dirs, f"{name}.{rng.choice(_EXTENSIONS)}"])
            if path not in seen:
                seen.add(path)
                out.append(path)
        return out

    def text(self, rng: random.Random, lo: int, hi: int) -> str:
        """Return prose of ``lo``..``hi`` words (a random window of the Zipf pool)."""
        k = rng.randint(lo, hi)
        start = rng.randrange(0, len(self.prose) - k)
        return " ".join(self.prose[start : start + k])

    def lines(self, rng: random.Random, pool: list[str], lo: int, hi: int) -> str:
        """Return ``lo``..``hi`` consecutive lines from ``pool`` (code or log lines)."""
        k = rng.randint(lo, hi)
        start = rng.randrange(0, len(pool) - k)
        return "\n".join(pool[start : start + k])
