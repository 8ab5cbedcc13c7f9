"""Command line: ``python -m tools.relevance [--set current|coding] [--lexical-only] [--vector-weight W] [--depth N] [--min-words W] [--context W] [--misses]``,
or ``python -m tools.relevance --locomo DIR [--lexical-only] [--conversation NAME] [--keep DIR [--replay]]`` (LoCoMo)."""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.table import Table

from moraine.semantic.embedder import SemanticUnavailableError, load_embedder
from moraine.semantic.hybrid import SemanticSettings
from tools.relevance.locomo import PEER, Ranks, category_names, conversation_files, rank_conversation, scores
from tools.relevance.locomo_replay import replay_conversation
from moraine.store.reads.search import Bm25
from tools.relevance.metrics import CUTOFF
from tools.relevance.run import METHODS, Outcome, Ranking, build_store, evaluate
from tools.relevance.sets import SETS


_DEFAULTS = SemanticSettings()
_F = TypeVar("_F", bound=Callable[..., Any])


def _table(out: Outcome, by: str = "category") -> Table:
    table = Table("method", by.replace("_", " "), "queries", "MRR@10", "recall@1", "recall@10")
    for method in [m for m in METHODS if m in out.ranks]:
        for category in [None, *out.categories(by)]:
            s = out.scores(method, category, by)
            table.add_row(method if category is None else "", category or "all", str(s.queries),
                          f"{s.mrr10:.3f}", f"{s.recall1:.3f}", f"{s.recall10:.3f}")  # fmt: skip
    return table


def _number_option(flag: str, setting: str, text: str) -> Callable[[_F], _F]:
    """A number >= 0 whose default is the ``[semantic]`` setting's."""
    return click.option(
        flag, type=click.FloatRange(min=0), default=getattr(_DEFAULTS, setting), show_default=True, help=text
    )


def _bm25_option(flag: str, field: str, text: str) -> Callable[[_F], _F]:
    """A number >= 0 whose default is the ``Bm25`` field's."""
    return click.option(
        flag, type=click.FloatRange(min=0), default=getattr(Bm25(), field), show_default=True, help=text
    )


def _span(values: list[float]) -> str:
    return f"{values[0]:.3f}-{values[-1]:.3f}" if values else "none"


def _locomo_table(ranks: Ranks) -> Table:
    table = Table("method", "category", "questions", "session hit@1", "hit@5", "MRR",
                  "evidence turn hit@1", "hit@5", "MRR@10")  # fmt: skip
    for method, values in ranks.by_method.items():
        turns = ranks.turns_by_method.get(method, [])
        for category, name in category_names(ranks):
            s, t = scores(values, category), scores(turns, category)
            table.add_row(method if category is None else "", name, str(s.questions), f"{s.hit1:.1%}",
                          f"{s.hit5:.1%}", f"{s.mrr:.3f}", f"{t.hit1:.1%}", f"{t.hit5:.1%}", f"{t.mrr:.3f}")  # fmt: skip
    hit1, hit5, mrr = PEER
    table.add_row(
        "peer (deja-vu, all ten)", "all", "1982", f"{hit1:.1%}", f"{hit5:.1%}", f"{mrr:.3f}", "", "", ""
    )
    return table


def _locomo(
    directory: Path,
    only: tuple[str, ...],
    keep: Path | None,
    lexical_only: bool,
    json_out: Path | None,
    replay: bool = False,
) -> None:
    console = Console()
    methods = ["lexical"] if lexical_only else ["lexical", "hybrid"]
    ranks = Ranks()
    if replay and keep is None:
        raise click.UsageError("--replay needs --keep: the directory of an earlier run's kept stores")
    embedder = None
    if replay and not lexical_only:
        try:
            embedder = load_embedder(1)
        except SemanticUnavailableError as exc:
            raise click.ClickException(f"{exc} (or pass --lexical-only)") from exc
    for path in conversation_files(directory, only):
        if replay and keep is not None:
            console.print(f"{path.stem}: replaying in this process on the kept store ({', '.join(methods)})")
            ranks.extend(replay_conversation(path, methods, keep, embedder))
            continue
        console.print(f"{path.stem}: indexing and asking through moraine mcp ({', '.join(methods)})")
        ranks.extend(rank_conversation(path, methods, keep))
    console.print(_locomo_table(ranks))
    if json_out is not None:
        json_out.write_text(
            json.dumps(
                {
                    "ranks": ranks.by_method,
                    "turn_ranks": ranks.turns_by_method,
                    "embed_seconds": ranks.embed_seconds,
                }
            )
        )
    if not lexical_only and not replay:
        console.print(f"embedder backlog cleared in {ranks.embed_seconds:.0f} s in total (after indexing)")


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--set",
    "set_name",
    type=click.Choice(sorted(SETS)),
    default="current",
    show_default=True,
    help="The labeled set: current (synthetic corpus) or coding (real public traces, known-item queries).",
)
@click.option("--lexical-only", is_flag=True, help="Only the BM25 baseline (no model needed).")
@click.option(
    "--vector-weight", type=click.FloatRange(min=0), default=_DEFAULTS.vector_weight, show_default=True
)
@click.option("--depth", type=click.IntRange(min=1), default=_DEFAULTS.depth, show_default=True)
@click.option("--min-words", type=click.IntRange(min=0), default=_DEFAULTS.min_words, show_default=True)
@_number_option(
    "--context", "context", "Weight of a message's neighbours in its similarity (0: each message alone)."
)
@click.option("--threads", type=click.IntRange(min=1), default=1, show_default=True, help="Embedder threads.")
@_number_option(
    "--meaning-floor", "meaning_floor", "Similarity in context a hit holding none of the query's words needs."
)
@click.option("--misses", is_flag=True, help="List the queries whose answer is not first, per method.")
@_bm25_option(
    "--session-weight",
    "session_weight",
    "Weight of the session's own BM25 score in an event's score (0: events alone).",
)
@_bm25_option(
    "--form-weight",
    "form_weight",
    "Weight of a query word's other English forms (hike, hiked for hiking) (0: off).",
)
@click.option(
    "--replies-first/--no-replies-first",
    default=Bm25().replies_first,
    show_default=True,
    help="A candidate asking about the query hands its place to its reply (moraine/store/reads/replies.py).",
)
@_bm25_option(
    "--when-weight", "when_weight", "A query asking when lifts the candidates that say when 1 + W times."
)
@_bm25_option("--tool-b", "tool_b", "BM25 b of tool calls and outputs.")
@_bm25_option(
    "--tool-form-weight", "tool_form_weight", "Weight of other word forms in tool calls and outputs."
)
@click.option(
    "--keep-function-words", is_flag=True, help="Rank by every query term, function words included."
)
@click.option(
    "--locomo",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Run LoCoMo session retrieval on the conversations in this directory instead (through moraine mcp).",
)
@click.option(
    "--conversation", "only", multiple=True, help="LoCoMo: only this conversation (e.g. 26; repeatable)."
)
@click.option(
    "--keep",
    type=click.Path(file_okay=False, path_type=Path),
    help="LoCoMo: keep each conversation's home (store, vectors) here and reuse it next time.",
)
@click.option(
    "--replay",
    is_flag=True,
    help="LoCoMo: ask in this process on the stores an earlier --keep run kept (no daemon; to try variants).",
)
@click.option(
    "--json",
    "json_out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="LoCoMo: write every rank here.",
)
def main(
    set_name: str,
    lexical_only: bool,
    vector_weight: float,
    depth: int,
    min_words: int,
    context: float,
    threads: int,
    meaning_floor: float,
    misses: bool,
    session_weight: float,
    form_weight: float,
    replies_first: bool,
    when_weight: float,
    tool_b: float,
    tool_form_weight: float,
    keep_function_words: bool,
    locomo: Path | None,
    only: tuple[str, ...],
    keep: Path | None,
    replay: bool,
    json_out: Path | None,
) -> None:
    """Print MRR@10, recall@1 and recall@10 per ranking method and query category on the labeled set (or, with
    --locomo, hit@1, hit@5 and MRR per LoCoMo category beside the best published peer)."""
    if locomo is not None:
        _locomo(locomo, only, keep, lexical_only, json_out, replay)
        return
    console = Console()
    embedder = None
    if not lexical_only:
        try:
            embedder = load_embedder(threads)
        except SemanticUnavailableError as exc:
            raise click.ClickException(f"{exc} (or pass --lexical-only)") from exc
    settings = SemanticSettings(
        vector_weight=vector_weight,
        depth=depth,
        min_words=min_words,
        threads=threads,
        context=context,
        meaning_floor=meaning_floor,
    )
    labels = SETS[set_name]
    with build_store(labels) as store:
        ranking = Ranking(
            Bm25(
                session_weight=session_weight,
                form_weight=form_weight,
                replies_first=replies_first,
                when_weight=when_weight,
                tool_b=tool_b,
                tool_form_weight=tool_form_weight,
            ),
            keep_function_words,
        )
        out = evaluate(store, embedder, settings, ranking, labels)
    console.print(_table(out))
    if out.categories("answer_kind"):
        console.print(_table(out, "answer_kind"))
    if embedder is not None:
        rate = out.embedded / out.embed_seconds if out.embed_seconds else 0.0
        console.print(f"embedded {out.embedded} events in {out.embed_seconds:.1f} s ({rate:.1f} passages/s, "
                      f"{threads} thread(s)); settings vector_weight={vector_weight:g} depth={depth} min_words={min_words} context={context:g}")  # fmt: skip
    if embedder is not None:
        answers = sorted(sim for _, sim, is_answer in out.meaning_only if is_answer)
        others = sorted(sim for _, sim, is_answer in out.meaning_only if not is_answer)
        console.print(
            f"meaning matches in the hybrid top {CUTOFF} (floor {meaning_floor:g}): {len(out.meaning_only)}, "
            f"{len(answers)} of them answers (similarity {_span(answers)}), the rest {_span(others)}"
        )
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
