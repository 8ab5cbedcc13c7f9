"""The benchmark, end to end: corpus -> full ingest (child process) -> tool latency -> baseline -> watch."""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from moraine.config import DEFAULT_INGEST_WORKERS, load_config
from moraine.daemon.settings import DaemonSettings
from moraine.store.client import Store
from tools.bench.baseline import run_baseline
from tools.bench.cache import NO_RESULT_CACHES, disable_result_caches, make_cold
from tools.bench.cases import MAX_VARIANTS, RARE_KINDS, Case, build_cases, manifest_cases
from tools.bench.client import ToolClient, open_client
from tools.bench.first_call import measure_first_calls
from tools.bench.home import bench_env, write_config
from tools.bench.ingest import IngestRun, run_ingest
from tools.bench.latency import CaseResult, run_cold, run_concurrent, run_warm
from tools.bench.newest import plant_newest
from tools.bench.machine import describe_machine
from tools.bench.relevance import check_relevance
from tools.bench.report import Report
from tools.bench.semantic import (
    SemanticRun,
    fill_synthetic_vectors,
    run_hybrid,
    run_hybrid_busy,
    vector_rows,
)
from tools.bench.settle import wait_for_merges
from tools.bench.watch import measure_watch
from tools.corpus import MANIFEST, generate

__all__ = ["Options", "run_benchmark"]

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Options:
    events: int
    corpus: Path | None = None
    seed: int = 1
    repeat: int = 30
    cold_repeat: int = 5
    clients: int = 8
    rounds: int = 3
    baseline_repeat: int = 3
    watch_probes: int = 5
    keep: bool = False
    semantic_threads: int = 0  # > 0: also measure semantic recall (tools.bench.semantic)
    workers: int = DEFAULT_INGEST_WORKERS  # [ingest] workers of the measured ingest
    ingest_only: bool = False  # measure the ingest and stop
    settle_quiet: float = 20.0  # merge-free seconds before reads are timed (tools.bench.settle)
    max_variants: int = MAX_VARIANTS  # argument variants per case, each called once untimed before timing
    # Time each query's first call through a fresh `moraine mcp` (tools.bench.first_call).
    first_calls: bool = True


def _corpus(options: Options, scratch: Path, console: Console) -> tuple[Path, Json, bool]:
    """Return the corpus directory and its manifest, generating it when there is none; and whether it is new."""
    root = options.corpus or scratch / "corpus"
    manifest_path = root / MANIFEST
    if manifest_path.exists():
        manifest: Json = json.loads(manifest_path.read_text(encoding="utf-8"))
        if manifest["events"] != options.events:
            console.print(
                f"reusing {root}: it holds {manifest['events']:,} events (--events {options.events:,} ignored)"
            )
        return root, manifest, False
    if root.exists() and any(root.iterdir()):
        raise ValueError(
            f"{root} is not empty and has no {MANIFEST}: give an empty directory or a generated corpus"
        )
    console.print(f"generating {options.events:,} events into {root} (seed {options.seed}) ...")
    generate(root, options.events, options.seed)
    return root, json.loads(manifest_path.read_text(encoding="utf-8")), True


def _baseline_queries(manifest: Json) -> dict[str, list[list[str]]]:
    needles = manifest["needles"]
    return {
        "rare": [n["terms"] for n in needles if n["kind"] in RARE_KINDS],
        "common": [[q] for q in manifest["queries"]["common"]],
        "multi-term": [q.split() for q in manifest["queries"]["multi"]],
    }


def _ingest(home: Path, root: Path, manifest: Json, workers: int, embed_threads: int = 0) -> IngestRun:
    """Ingest the corpus into a fresh store under ``home``, with a newest-first probe planted beside it."""
    newest = plant_newest(home)
    write_config(home, root, manifest, workers=workers, newest=newest)
    return run_ingest(
        home, manifest["events"], manifest["bytes"], embed_threads=embed_threads, newest_word=newest["word"]
    )


def run_benchmark(options: Options, console: Console | None = None) -> Report:
    """Run every phase and return the report (temporary directories are removed unless ``keep``)."""
    console = console or Console(stderr=True)
    machine = describe_machine()
    scratch = Path(tempfile.mkdtemp(prefix="moraine-bench-"))
    phases: dict[str, float] = {}
    try:
        t = time.perf_counter()
        root, manifest, generated = _corpus(options, scratch, console)
        if generated:
            phases["generate corpus"] = time.perf_counter() - t
        corpus = {
            "events": manifest["events"],
            "files": manifest["files"],
            "mb": manifest["bytes"] / 1e6,
            "seed": manifest["seed"],
            "dir": str(root),
        }
        home = scratch / "home"
        console.print(f"ingesting into {home} ({options.workers} worker(s)) ...")
        t = time.perf_counter()
        ingest = _ingest(home, root, manifest, options.workers)
        phases["ingest"] = time.perf_counter() - t
        if options.ingest_only:
            report = Report(machine=machine, corpus=corpus, client="none (--ingest-only)", phases=phases)
            report.ingest = ingest
            return report
        first: tuple[list[CaseResult], float] | None = None
        if options.first_calls:
            console.print(
                "first calls through moraine mcp (its daemon starting, the embedder catching up) ..."
            )
            t = time.perf_counter()
            first = measure_first_calls(home, manifest_cases(manifest, options.max_variants))
            phases["first calls via moraine mcp"] = time.perf_counter() - t
        report = _query_phases(options, home, root, manifest, machine, corpus, console, phases)
        report.ingest = ingest
        if first is not None:
            report.first_calls, report.daemon_start_seconds = first
        if report.semantic is not None:
            console.print(
                f"ingesting again with the embedder running ({options.semantic_threads} thread(s)) ..."
            )
            t = time.perf_counter()
            again = scratch / "home-embedder"
            report.semantic.ingest = _ingest(again, root, manifest, options.workers, options.semantic_threads)
            shutil.rmtree(again / "store", ignore_errors=True)
            phases["ingest with embedder"] = time.perf_counter() - t
        load = machine["load_average_at_start"][0]
        if load > 0.5 * machine["nproc"]:
            report.notes.append(
                f"the CPU was shared: load average {load} at start on {machine['nproc']} cores; "
                "figures are pessimistic"
            )
        return report
    finally:
        if options.keep:
            console.print(f"kept {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


def _query_phases(
    options: Options,
    home: Path,
    root: Path,
    manifest: Json,
    machine: Json,
    corpus: Json,
    console: Console,
    phases: dict[str, float],
) -> Report:
    env = bench_env(home)
    config = load_config(Path(env["MORAINE_CONFIG"]))
    # As many connections as the daemon's read store has (its max_concurrent), so calls run as they do there.
    store = Store.open(
        config.store_dsn, config.database, DaemonSettings().max_concurrent, config.store_limits
    )
    disable_result_caches(store)
    try:
        with open_client(store, config.max_results) as client:
            return _timed_phases(
                options, store, client, home, root, manifest, machine, corpus, console, phases
            )
    finally:
        store.close()


def _timed_phases(
    options: Options,
    store: Store,
    client: ToolClient,
    home: Path,
    root: Path,
    manifest: Json,
    machine: Json,
    corpus: Json,
    console: Console,
    phases: dict[str, float],
) -> Report:
    report = Report(machine=machine, corpus=corpus, client=client.via, phases=phases)
    console.print("waiting for the bulk load's background merges ...")
    waited, settled = wait_for_merges(store, quiet_seconds=options.settle_quiet)
    phases["merges settle"] = waited
    report.notes.append(
        f"reads were timed after the bulk load's background merges finished ({waited:.0f} s after ingest), "
        "the state a running daemon is in"
        if settled
        else f"merges were still running {waited:.0f} s after ingest: read figures include merge contention"
    )
    t = time.perf_counter()
    cases = build_cases(client, manifest, options.max_variants)
    report.relevance = check_relevance(client, manifest)
    phases["discover ids + relevance"] = time.perf_counter() - t
    console.print(f"timing {len(cases)} cases: warm ...")
    t = time.perf_counter()
    report.warm = run_warm(client, cases, options.repeat)
    phases["warm"] = time.perf_counter() - t
    console.print("cold ...")
    t = time.perf_counter()
    store_dir = home / "store"
    report.cold = run_cold(client, cases, options.cold_repeat, lambda: make_cold(store, store_dir))
    phases["cold"] = time.perf_counter() - t
    failed = make_cold(store, store_dir)
    report.cold_method = (
        "each call right after SYSTEM DROP {MARK, UNCOMPRESSED, QUERY CONDITION, QUERY, PRIMARY INDEX, MMAP} "
        "CACHE and posix_fadvise(DONTNEED) on every store file (evicts them from the OS page cache)"
        + (f"; not supported here: {', '.join(failed)}" if failed else "")
    )
    console.print(f"{options.clients} concurrent clients ...")
    t = time.perf_counter()
    report.concurrent = run_concurrent(client, cases, options.clients, options.rounds)
    phases["concurrent"] = time.perf_counter() - t
    console.print("baseline (grep over the raw files) ...")
    t = time.perf_counter()
    for cls, queries in _baseline_queries(manifest).items():
        report.baseline[cls] = run_baseline(root, queries, options.baseline_repeat)
    phases["baseline"] = time.perf_counter() - t
    if options.watch_probes:
        console.print("watch mode ...")
        t = time.perf_counter()
        report.watch = measure_watch(store, client, home / "live", options.watch_probes)
        phases["watch"] = time.perf_counter() - t
    if options.semantic_threads:
        report.semantic = _semantic(options, store, client, cases, console, phases)
    report.notes.append(
        "warm figures run with "
        + ", ".join(f"{k}={v}" for k, v in NO_RESULT_CACHES.items())
        + " so repeated queries are not served from result caches"
    )
    return report


def _semantic(
    options: Options,
    store: Store,
    client: ToolClient,
    cases: list[Case],
    console: Console,
    phases: dict[str, float],
) -> SemanticRun:
    run = SemanticRun(threads=options.semantic_threads)
    console.print("filling the vectors table (synthetic vectors for every eligible event) ...")
    run.fill_seconds = fill_synthetic_vectors(store)
    phases["fill vectors"] = run.fill_seconds
    wait_for_merges(store, quiet_seconds=options.settle_quiet)
    run.vectors, run.synthetic = vector_rows(store)
    console.print("hybrid search, warm ...")
    t = time.perf_counter()
    run.warm, run.hybrid_variants = run_hybrid(client, cases, options.repeat, options.semantic_threads)
    phases["hybrid warm"] = time.perf_counter() - t
    # The synthetic vectors carry no watermark, so the vectorizer finds the whole backlog still to embed (it
    # replaces them with real ones, newest sessions first) while the same searches run over the full table.
    console.print("hybrid search while the embedder works through the backlog ...")
    t = time.perf_counter()
    run.busy, run.busy_embedded = run_hybrid_busy(
        store, client, cases, options.repeat, options.semantic_threads
    )
    phases["hybrid warm, embedder busy"] = time.perf_counter() - t
    return run
