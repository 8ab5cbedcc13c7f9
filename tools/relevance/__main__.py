"""Command line: ``python -m tools.relevance [--lexical-only] [--rrf-k K] [--depth N] [--min-words W] [--misses]``."""

from __future__ import annotations

import statistics

import click
from rich.console import Console
from rich.table import Table

from moraine.semantic.embedder import SemanticUnavailableError, load_embedder
from moraine.semantic.hybrid import SemanticSettings
from tools.relevance.run import METHODS, Outcome, build_store, evaluate


_DEFAULTS = SemanticSettings()


def _table(out: Outcome) -> Table:
    table = Table("method", "category", "queries", "MRR@10", "recall@1", "recall@10")
    for method in [m for m in METHODS if m in out.ranks]:
        for category in [None, *out.categories()]:
            s = out.scores(method, category)
            table.add_row(method if category is None else "", category or "all", str(s.queries),
                          f"{s.mrr10:.3f}", f"{s.recall1:.3f}", f"{s.recall10:.3f}")  # fmt: skip
    return table


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--lexical-only", is_flag=True, help="Only the BM25 baseline (no model needed).")
@click.option("--rrf-k", type=float, default=_DEFAULTS.rrf_k, show_default=True)
@click.option("--depth", type=click.IntRange(min=1), default=_DEFAULTS.depth, show_default=True)
@click.option("--min-words", type=click.IntRange(min=0), default=_DEFAULTS.min_words, show_default=True)
@click.option("--threads", type=click.IntRange(min=1), default=1, show_default=True, help="Embedder threads.")
@click.option("--misses", is_flag=True, help="List the queries whose answer is not first, per method.")
def main(lexical_only: bool, rrf_k: float, depth: int, min_words: int, threads: int, misses: bool) -> None:
    """Print MRR@10, recall@1 and recall@10 per ranking method and query category on the labeled set."""
    console = Console()
    embedder = None
    if not lexical_only:
        try:
            embedder = load_embedder(threads)
        except SemanticUnavailableError as exc:
            raise click.ClickException(f"{exc} (or pass --lexical-only)") from exc
    settings = SemanticSettings(rrf_k=rrf_k, depth=depth, min_words=min_words, threads=threads)
    with build_store() as store:
        out = evaluate(store, embedder, settings)
    console.print(_table(out))
    if embedder is not None:
        rate = out.embedded / out.embed_seconds if out.embed_seconds else 0.0
        console.print(f"embedded {out.embedded} events in {out.embed_seconds:.1f} s ({rate:.1f} passages/s, "
                      f"{threads} thread(s)); settings rrf_k={rrf_k:g} depth={depth} min_words={min_words}")  # fmt: skip
    for method, times in out.latency_ms.items():
        ordered = sorted(times)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        console.print(f"{method}: median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms per query")
    if misses:
        for method in out.ranks:
            wrong = [
                f"{q.id}({out.ranks[method][q.id]})" for q in out.queries if out.ranks[method][q.id] != 1
            ]
            console.print(f"{method} not first: {' '.join(wrong)}")


if __name__ == "__main__":
    main()
