"""Design spike (issue 42): ClickHouse's text index beside today's postings, on one kept bench store.

    python -m tools.bench --events 1000000 --corpus /tmp/c1m --ingest-only --keep   # prints "kept DIR"
    python -m tools.bench.textindex DIR/home CORPUS [--rounds 15] [--json F]

Every variant is built inside ClickHouse from the same per-event input, the one the ingest workers send today
(an event's distinct terms and their frequencies, its type, time and length): ``spike.src``, grouped once from the
store's postings. Each variant is inserted in batches the size of an ingest batch and left to merge until quiet;
its cost is the process CPU of that (chDB runs in this process) per event. Then the same ranking (the BM25 of
``moraine.store.reads.search`` with its word forms and session evidence) runs through each variant, alternating
variants query by query, and every variant's ranked lists are checked equal to today's before any time counts.

Variants:

- ``postings``: today's, one row per (term, event) sorted by term (migration 016); document frequencies counted
  from it.
- ``text``: one row per event sorted by (session, seq), its terms as ``Array(String)`` under a text index
  (``tokenizer = array``) and their frequencies beside; candidates from the index, frequencies read from the row;
  document frequencies from a per-term table kept at ingest (``term_df``, summed).
- ``text-tf``: the same rows without the frequencies: a term seen ``tf`` times also puts the tokens
  ``term\\x1f2`` .. ``term\\x1f<min(tf, cap)>`` in the array, so every score is a sum over statements that
  ClickHouse answers from the index alone (direct read): the rows holding ``term\\x1fj`` add the BM25 gain of the
  j-th occurrence. Exact up to ``cap`` occurrences (a term seen more often counts as ``cap``).
"""

from __future__ import annotations

import json
import resource
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from moraine.config import load_config
from moraine.ranking import BM25_B, BM25_K1, FORM_MAX_SHARE, FORM_WEIGHT, SESSION_DEPTH, SESSION_WEIGHT
from moraine.store.client import Store
from moraine.store.limits import StatementLimits
from moraine.terms.query import parse_query
from tools.bench.cases import RARE_KINDS

DB = "spike"
BATCH = 20_000  # events per insert, about an ingest batch
TYPES = ["user_input", "assistant_response"]  # search_sessions' default types
CAP = 8  # text-tf: occurrences counted exactly up to this many
SEP = "\x1f"  # never inside a term (terms are word characters and moraine.terms.tokenize's connectors)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _settle(store: Store, quiet: float = 5.0) -> None:
    """Wait until no merge or mutation has run for ``quiet`` seconds."""
    last_busy = time.monotonic()
    while time.monotonic() - last_busy < quiet:
        rows = store.query(
            "SELECT (SELECT count() FROM system.merges) + (SELECT count() FROM system.mutations WHERE NOT is_done)"
        )
        if int(rows[0][0]):
            last_busy = time.monotonic()
        time.sleep(0.5)


@dataclass
class Variant:
    name: str
    tables: dict[str, str]  # table -> CREATE statement ({db} replaced)
    inserts: list[str]  # INSERT ... SELECT from spike.src WHERE the batch's range ({lo}, {hi})
    build_cpu: float = 0.0
    build_wall: float = 0.0
    bytes: dict[str, int] = field(default_factory=dict)


_POSTINGS = f"""CREATE TABLE {DB}.postings (term String, session_key UInt64, seq UInt32, tf UInt16, doc_len UInt32,
    type LowCardinality(String), timestamp Nullable(DateTime64(3, 'UTC')))
ENGINE = MergeTree ORDER BY (term, session_key, seq)"""
_POSTINGS_BY_TYPE = _POSTINGS.replace(f"{DB}.postings", f"{DB}.postings_by_type").replace(
    "ORDER BY (term, session_key, seq)", "ORDER BY (term, type, session_key, seq)"
)
_TERM_DF = f"""CREATE TABLE {DB}.term_df (term String, type LowCardinality(String), df Int64)
ENGINE = SummingMergeTree ORDER BY (term, type)"""
_TEXT = f"""CREATE TABLE {DB}.text (session_key UInt64, seq UInt32, type LowCardinality(String),
    timestamp Nullable(DateTime64(3, 'UTC')), doc_len UInt32, terms Array(String), tfs Array(UInt16),
    INDEX terms_index terms TYPE text(tokenizer = array) GRANULARITY 1)
ENGINE = MergeTree ORDER BY (session_key, seq)"""
_TEXT_TF = f"""CREATE TABLE {DB}.text_tf (session_key UInt64, seq UInt32, type LowCardinality(String),
    timestamp Nullable(DateTime64(3, 'UTC')), doc_len UInt32, terms Array(String),
    INDEX terms_index terms TYPE text(tokenizer = array) GRANULARITY 1)
ENGINE = MergeTree ORDER BY (session_key, seq)"""
_RANGE = "WHERE row >= {lo} AND row < {hi}"
_DF_INSERT = (
    f"INSERT INTO {DB}.term_df SELECT term, type, count() FROM {DB}.src ARRAY JOIN terms AS term {_RANGE} "
    "GROUP BY term, type"
)

VARIANTS = {
    "postings": lambda: Variant(
        "postings",
        {"postings": _POSTINGS},
        [
            f"INSERT INTO {DB}.postings SELECT term, session_key, seq, tf, doc_len, type, timestamp "
            f"FROM {DB}.src ARRAY JOIN terms AS term, tfs AS tf {_RANGE}"
        ],
    ),
    "postings-by-type": lambda: Variant(
        "postings-by-type",
        {"postings_by_type": _POSTINGS_BY_TYPE},
        [
            f"INSERT INTO {DB}.postings_by_type SELECT term, session_key, seq, tf, doc_len, type, timestamp "
            f"FROM {DB}.src ARRAY JOIN terms AS term, tfs AS tf {_RANGE}"
        ],
    ),
    "text": lambda: Variant(
        "text",
        {"text": _TEXT, "term_df": _TERM_DF},
        [
            f"INSERT INTO {DB}.text SELECT session_key, seq, type, timestamp, doc_len, terms, tfs FROM {DB}.src "
            + _RANGE,
            _DF_INSERT,
        ],
    ),
    "text-tf": lambda: Variant(
        "text-tf",
        {"text_tf": _TEXT_TF, "term_df": _TERM_DF},
        [
            f"INSERT INTO {DB}.text_tf SELECT session_key, seq, type, timestamp, doc_len, arrayConcat(terms, "
            f"arrayFlatten(arrayMap((t, f) -> arrayMap(j -> concat(t, '{SEP}', toString(j)), "
            f"range(2, toUInt32(least(f, {CAP})) + 1)), terms, tfs))) FROM {DB}.src {_RANGE}",
            _DF_INSERT,
        ],
    ),
}


def prepare_source(store: Store) -> int:
    """Group the store's postings back into one row per event (what the workers send); return the event count."""
    store.command(f"CREATE DATABASE IF NOT EXISTS {DB}")
    have = store.query(f"SELECT count() FROM system.tables WHERE database = '{DB}' AND name = 'src'")
    if not int(have[0][0]):
        store.command(
            f"CREATE TABLE {DB}.src ENGINE = MergeTree ORDER BY row AS SELECT "
            "toUInt64(rowNumberInAllBlocks()) AS row, * FROM (SELECT session_key, seq, any(type) AS type, "
            "any(timestamp) AS timestamp, any(doc_len) AS doc_len, groupArray(term) AS terms, "
            "groupArray(tf) AS tfs FROM moraine.postings GROUP BY session_key, seq ORDER BY session_key, seq)"
        )
    return int(store.query(f"SELECT count() FROM {DB}.src")[0][0])


def build(store: Store, variant: Variant, events: int) -> None:
    for table, create in variant.tables.items():
        store.command(f"DROP TABLE IF EXISTS {DB}.{table}")
        store.command(create)
    _settle(store, 2.0)
    cpu, wall = _cpu(), time.perf_counter()
    for lo in range(0, events, BATCH):
        for insert in variant.inserts:
            store.command(insert.format(lo=lo, hi=lo + BATCH))
    _settle(store)
    variant.build_cpu, variant.build_wall = _cpu() - cpu, time.perf_counter() - wall
    for table in variant.tables:
        rows = store.query(
            "SELECT sum(data_compressed_bytes) + sum(secondary_indices_compressed_bytes) + "
            "sum(primary_key_bytes_in_memory) FROM system.parts WHERE active AND database = {db:String} "
            "AND table = {t:String}",
            {"db": DB, "t": table},
        )
        variant.bytes[table] = int(rows[0][0] or 0)


# ---- the same ranking through each variant -------------------------------------------------------------------


@dataclass(frozen=True)
class Ranked:
    events: list[tuple[int, int, float]]  # (session_key, seq, score) in order
    sessions: dict[int, float]


def _idf(n: float, df: int) -> float:
    import math

    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def _weights(query: str, df: dict[str, int], docs: int) -> tuple[list[str], list[float]]:
    parsed = parse_query(query)
    n = float(max(docs, max(df.values(), default=0)))
    common = max(FORM_MAX_SHARE * n, 1000)
    terms = [t for t in parsed.terms if t in df] + [t for t in parsed.forms if t in df and df[t] <= common]
    typed = set(parsed.terms)
    return terms, [_idf(n, df[t]) * (1.0 if t in typed else FORM_WEIGHT) for t in terms]


def _bm25(tf: str, dl: str) -> str:
    return (
        f"{tf} * ({BM25_K1} + 1) / ({tf} + {BM25_K1} * (1 - {BM25_B} + {BM25_B} * {dl} / {{avgdl:Float64}}))"
    )


_ORDER = "ORDER BY score DESC, ts DESC NULLS LAST, session_key ASC, seq ASC LIMIT {limit:UInt32}"


class Runner:
    """One variant's df -> events -> session evidence, timed by step."""

    def __init__(self, store: Store, name: str, docs: int, total: int) -> None:
        self.store, self.name, self.docs, self.avgdl = store, name, docs, max(total / docs, 1.0)
        self.steps: dict[str, list[float]] = {}
        self.table = name.replace("-", "_")

    def _timed(self, step: str, fn: Callable[[], Any]) -> Any:
        t = time.perf_counter()
        out = fn()
        self.steps.setdefault(step, []).append((time.perf_counter() - t) * 1000)
        return out

    def df(self, terms: list[str]) -> dict[str, int]:
        params = {"terms": terms, "types": TYPES}
        if self.name.startswith("postings"):
            sql = (
                f"SELECT term, count() FROM {DB}.{self.table} WHERE term IN {{terms:Array(String)}} "
                "AND type IN {types:Array(String)} GROUP BY term"
            )
        else:
            sql = (
                f"SELECT term, sum(df) FROM {DB}.term_df WHERE term IN {{terms:Array(String)}} "
                "AND type IN {types:Array(String)} GROUP BY term HAVING sum(df) > 0"
            )
        return {str(t): int(n) for t, n in self.store.query(sql, params)}

    def events(self, terms: list[str], idf: list[float], limit: int) -> list[tuple[int, int, float]]:
        params: dict[str, Any] = {
            "terms": terms,
            "idf": idf,
            "types": TYPES,
            "avgdl": self.avgdl,
            "limit": limit,
        }
        if self.name.startswith("postings"):
            weight = "transform(term, {terms:Array(String)}, {idf:Array(Float64)}, 0.0) * " + _bm25(
                "tf", "doc_len"
            )
            sql = (
                f"SELECT session_key, seq, any(timestamp) AS ts, round(sum({weight}), 9) AS score "
                f"FROM {DB}.{self.table} WHERE term IN {{terms:Array(String)}} AND type IN {{types:Array(String)}} "
                f"GROUP BY session_key, seq {_ORDER}"
            )
        elif self.name == "text":
            weight = (
                "arraySum(arrayMap((t, w) -> if(has(terms, t), w * "
                + _bm25("toFloat64(arrayElement(tfs, indexOf(terms, t)))", "doc_len")
                + ", 0.0), {terms:Array(String)}, {idf:Array(Float64)}))"
            )
            sql = (
                f"SELECT session_key, seq, timestamp AS ts, round({weight}, 9) AS score FROM {DB}.text "
                f"WHERE hasAnyTokens(terms, {{terms:Array(String)}}) AND type IN {{types:Array(String)}} {_ORDER}"
            )
        else:
            return self.events_tf(terms, idf, limit)
        rows = self.store.query(sql, params)
        return [(int(k), int(s), float(score)) for k, s, _ts, score in rows]

    def events_tf(self, terms: list[str], idf: list[float], limit: int) -> list[tuple[int, int, float]]:
        branches = []
        params: dict[str, Any] = {"types": TYPES, "avgdl": self.avgdl, "limit": limit}
        for i, (term, w) in enumerate(zip(terms, idf, strict=True)):
            params[f"w{i}"] = w
            for j in range(1, CAP + 1):
                token = term if j == 1 else f"{term}{SEP}{j}"
                params[f"t{i}_{j}"] = token
                gain = f"{{w{i}:Float64}} * ({_bm25(str(j), 'doc_len')} - {_bm25(str(j - 1), 'doc_len')})"
                branches.append(
                    f"SELECT session_key, seq, timestamp, {gain} AS gain FROM {DB}.text_tf "
                    f"WHERE hasAnyTokens(terms, [{{t{i}_{j}:String}}]) AND type IN {{types:Array(String)}}"
                )
        sql = (
            "SELECT session_key, seq, any(timestamp) AS ts, round(sum(gain), 9) AS score FROM ("
            + " UNION ALL ".join(branches)
            + f") GROUP BY session_key, seq {_ORDER}"
        )
        rows = self.store.query(sql, params)
        return [(int(k), int(s), float(score)) for k, s, _ts, score in rows]

    def session_tf(self, terms: list[str], keys: list[int]) -> dict[tuple[int, str], int]:
        params: dict[str, Any] = {"terms": terms, "types": TYPES, "keys": keys}
        if self.name.startswith("postings"):
            sql = (
                f"SELECT session_key, term, sum(tf) FROM {DB}.{self.table} WHERE term IN {{terms:Array(String)}} "
                "AND session_key IN {keys:Array(UInt64)} AND type IN {types:Array(String)} GROUP BY session_key, term"
            )
        elif self.name == "text":
            sql = (
                f"SELECT session_key, term, sum(arrayElement(tfs, indexOf(terms, term))) FROM {DB}.text "
                "ARRAY JOIN arrayFilter(t -> has(terms, t), {terms:Array(String)}) AS term "
                "WHERE session_key IN {keys:Array(UInt64)} AND hasAnyTokens(terms, {terms:Array(String)}) "
                "AND type IN {types:Array(String)} GROUP BY session_key, term"
            )
        else:
            branches = []
            for i, term in enumerate(terms):
                params[f"n{i}"] = term
                for j in range(1, CAP + 1):
                    params[f"t{i}_{j}"] = term if j == 1 else f"{term}{SEP}{j}"
                    branches.append(
                        f"SELECT session_key, {{n{i}:String}} AS term, count() AS n FROM {DB}.text_tf "
                        f"WHERE session_key IN {{keys:Array(UInt64)}} AND hasAnyTokens(terms, [{{t{i}_{j}:String}}]) "
                        "AND type IN {types:Array(String)} GROUP BY session_key"
                    )
            sql = f"SELECT session_key, term, sum(n) FROM ({' UNION ALL '.join(branches)}) GROUP BY session_key, term"
        return {(int(k), str(t)): int(n) for k, t, n in self.store.query(sql, params)}

    def rank(self, query: str, limit: int = 10) -> Ranked:
        parsed = parse_query(query)
        every = [*parsed.terms, *parsed.forms]
        df = self._timed("df", lambda: self.df(every))
        terms, idf = _weights(query, df, self.docs)
        depth = max(limit + 1, SESSION_DEPTH)
        rows = self._timed("events", lambda: self.events(terms, idf, depth))
        keys = sorted({k for k, _s, _sc in rows})
        tf = self._timed("sessions", lambda: self.session_tf(terms, keys)) if keys else {}
        lengths = dict(
            (int(k), float(n))
            for k, n in self.store.query(
                "SELECT session_key, sum(doc_len) FROM moraine.events WHERE session_key IN {keys:Array(UInt64)} "
                "AND type IN {types:Array(String)} GROUP BY session_key",
                {"keys": keys, "types": TYPES},
            )
        )
        average = max(sum(lengths.values()) / len(lengths), 1.0) if lengths else 1.0
        weight = dict(zip(terms, idf, strict=True))
        sessions: dict[int, float] = {}
        for (key, term), n in tf.items():
            norm = BM25_K1 * (1 - BM25_B + BM25_B * lengths.get(key, average) / average)
            sessions[key] = sessions.get(key, 0.0) + weight[term] * n * (BM25_K1 + 1) / (n + norm)
        best_e = max((s for _k, _q, s in rows), default=0.0) or 1.0
        best_s = max(sessions.values(), default=0.0) or 1.0
        final = sorted(
            (
                (k, q, round(s / best_e + SESSION_WEIGHT * sessions.get(k, 0.0) / best_s, 6))
                for k, q, s in rows
            ),
            key=lambda r: (-r[2], r[0], r[1]),
        )
        return Ranked(final[: limit + 1], sessions)


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


@click.command()
@click.argument("home", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("corpus", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--rounds", default=15, show_default=True, help="Timed calls per query and variant.")
@click.option("--variants", default=",".join(VARIANTS), show_default=True)
@click.option("--skip-build", is_flag=True, help="Reuse the variants' tables from an earlier run.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path))
def main(
    home: Path, corpus: Path, rounds: int, variants: str, skip_build: bool, json_path: Path | None
) -> None:
    """Build each variant from the kept store's events, then time the same ranking through each."""
    config = load_config(home / "config.toml")
    store = Store.open(config.store_dsn, config.database, 1, StatementLimits(max_memory_usage=16 * 1024**3))
    manifest = json.loads((corpus / "manifest.json").read_text())
    names = variants.split(",")
    events = prepare_source(store)
    click.echo(f"{events:,} events in {DB}.src")
    built = {name: VARIANTS[name]() for name in names}
    if not skip_build:
        for name in names:
            build(store, built[name], events)
            v = built[name]
            click.echo(
                f"{name}: build {v.build_wall:.1f} s wall, {v.build_cpu:.1f} CPU s "
                f"({v.build_cpu / events * 1e6:.1f} µs/event); "
                + ", ".join(f"{t} {b / 2**20:.1f} MiB" for t, b in v.bytes.items())
            )
    docs, total = (
        int(x)
        for x in store.query(
            "SELECT sum(docs), sum(total_len) FROM moraine.doc_stats WHERE type IN {types:Array(String)}",
            {"types": TYPES},
        )[0]
    )
    cases = {
        "rare": [n["query"] for n in manifest["needles"] if n["kind"] in RARE_KINDS][:6],
        "common": manifest["queries"]["common"],
        "three terms": manifest["queries"]["multi"],
    }
    runners = {name: Runner(store, name, docs, total) for name in names}
    # Equal ranked lists first (untimed): a variant that ranks differently is not timed.
    for queries in cases.values():
        for query in queries:
            want = runners[names[0]].rank(query)
            for name in names[1:]:
                got = runners[name].rank(query)
                same = [(k, s) for k, s, _ in got.events] == [(k, s) for k, s, _ in want.events]
                if not same:
                    click.echo(f"!! {name} ranks {query!r} differently from {names[0]}")
    report: dict[str, Any] = {"events": events, "variants": {}, "cases": {}}
    for case, queries in cases.items():
        totals: dict[str, list[float]] = {name: [] for name in names}
        for runner in runners.values():
            runner.steps = {}
        for _ in range(rounds):
            for query in queries:
                for name in names:
                    t = time.perf_counter()
                    runners[name].rank(query)
                    totals[name].append((time.perf_counter() - t) * 1000)
        report["cases"][case] = {}
        for name in names:
            steps = {s: round(statistics.median(v), 1) for s, v in runners[name].steps.items()}
            row = {
                "p50": round(_pct(totals[name], 0.5), 1),
                "p95": round(_pct(totals[name], 0.95), 1),
                "steps_p50": steps,
            }
            report["cases"][case][name] = row
            click.echo(f"{case:12s} {name:9s} p50 {row['p50']:7.1f}  p95 {row['p95']:7.1f}  steps {steps}")
    for name, v in built.items():
        report["variants"][name] = {
            "build_cpu_s": v.build_cpu,
            "build_wall_s": v.build_wall,
            "bytes": v.bytes,
        }
    if json_path:
        json_path.write_text(json.dumps(report, indent=1))
    store.close()


if __name__ == "__main__":
    main()
