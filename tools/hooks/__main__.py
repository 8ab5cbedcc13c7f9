"""``python -m tools.hooks locomo --homes DIR`` and ``python -m tools.hooks latency``: see the package docstring."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

__all__ = ["main"]

_BENCHMARK = Path("/work/shared/benchmarks/locomo-dev")
_COVERAGES = (0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
_MARGINS = (0.0, 0.05, 0.1, 0.2, 0.3)
_HITS = (1, 3, 5)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Benchmarks of `moraine hook`."""


def _pct(value: float) -> str:
    return f"{value * 100:.1f} %"


def _meets(figures: dict[str, Any]) -> bool:
    return bool(
        figures["evidence_in_injections"] >= 0.8
        and figures["answerable_injected"] >= 0.7
        and figures["adversarial_injected"] <= 0.2
    )


@main.command("locomo")
@click.option(
    "--homes",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    required=True,
    help="The homes `python -m tools.relevance --locomo DIR --keep HOMES` kept (one folder per conversation).",
)
@click.option(
    "--benchmark",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=_BENCHMARK,
    show_default=True,
    help="The LoCoMo conversations (conversation-*.json).",
)
@click.option(
    "--gate",
    default=None,
    metavar="COVERAGE,MARGIN,HITS",
    help="Check this gate through `moraine hook prompt` (default: the sweep's best that meets the goals, else "
    "the product's default).",
)
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), default=None)
@click.option(
    "--sweep-only", is_flag=True, help="Print the sweep and stop (no check through the hook process)."
)
def locomo(homes: Path, benchmark: Path, gate: str | None, json_out: Path | None, sweep_only: bool) -> None:
    """Sweep the prompt hook's confidence gate on LoCoMo, then check one gate through the real hook process."""
    from moraine.hooks.settings import HookSettings
    from tools.hooks.locomo import Gate, ask_route, check, check_figures, conversation_of, served, sweep

    roots = sorted(p for p in homes.iterdir() if (p / ".moraine").is_dir())
    asked, turns = [], {}
    for root in roots:
        click.echo(f"{root.name}: explaining every question through the hook route", err=True)
        conversation = conversation_of(root, benchmark)
        with served(root, None) as (_, socket):
            found, seen = ask_route(socket, root, conversation)
        asked.extend(found)
        turns[root.name] = seen
    gates = [Gate(c, m, h) for c in _COVERAGES for m in _MARGINS for h in _HITS]
    table = sweep(asked, gates)
    click.echo(
        "min_coverage | min_margin | max_hits | evidence in injections | answerable given nothing | "
        "adversarial given something"
    )
    for g, f in table:
        if g.min_margin in (0.0, 0.05, 0.1) or _meets(f):
            click.echo(
                f"{g.min_coverage:.1f} | {g.min_margin:.2f} | {g.max_hits} | {_pct(f['evidence_in_injections'])} | "
                f"{_pct(f['answerable_without'])} | {_pct(f['adversarial_injected'])}"
            )
    meeting = [(g, f) for g, f in table if _meets(f)]
    rows = [
        {"category": a.category, "evidence": bool(a.evidence), "coverage": a.coverage, "margin": a.margin,
         "evidence_at": next((i + 1 for i, t in enumerate(a.turns) if t in a.evidence), 0)}
        for a in asked
    ]  # fmt: skip
    report: dict[str, Any] = {"questions": rows, "sweep": [{"gate": repr(g), **f} for g, f in table]}
    if json_out:
        json_out.write_text(json.dumps(report, indent=2))
    if sweep_only:
        return
    if gate:
        coverage, margin, hits = gate.split(",")
        chosen = Gate(float(coverage), float(margin), int(hits))
    elif meeting:
        chosen = max(meeting, key=lambda gf: (gf[1]["answerable_injected"], -gf[1]["adversarial_injected"]))[
            0
        ]
    else:
        d = HookSettings()
        chosen = Gate(d.min_coverage, d.min_margin, d.max_hits)
    click.echo(
        f"\n{len(meeting)} gates meet all three goals; checking {chosen} through `moraine hook prompt`"
    )
    checked: list[Any] = []
    seconds: list[float] = []
    for root in roots:
        conversation = conversation_of(root, benchmark)
        with served(root, chosen) as (home, _):
            found = check(home, root, conversation, turns[root.name])
        checked.extend(found)
        seconds.extend(a.seconds for a in found)
    figures = check_figures(checked)
    seconds.sort()
    p50, p95 = seconds[len(seconds) // 2], seconds[int(len(seconds) * 0.95)]
    click.echo(
        f"checked ({figures['answerable']} answerable, {figures['adversarial']} adversarial): evidence in "
        f"injections {_pct(figures['evidence_in_injections'])}, answerable given nothing "
        f"{_pct(figures['answerable_without'])}, adversarial given something {_pct(figures['adversarial_injected'])}; "
        f"hook process p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {seconds[-1] * 1000:.0f} ms"
    )
    if json_out:
        report["checked"] = {"gate": repr(chosen), **figures, "p50_ms": p50 * 1000, "p95_ms": p95 * 1000}
        json_out.write_text(json.dumps(report, indent=2))


@main.command("latency")
@click.option(
    "--corpus",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    required=True,
    help="A corpus `python -m tools.corpus --events 200000 --out DIR --seed 1` generated.",
)
@click.option(
    "--home",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="The Moraine home to ingest into (kept: a second run reuses its store).",
)
@click.option(
    "--repeat", type=click.IntRange(min=1), default=200, show_default=True, help="Timed prompt hooks."
)
@click.option(
    "--deadline-ms", type=click.IntRange(min=1), default=1000, show_default=True, help="[hooks] deadline_ms."
)
def latency(corpus: Path, home: Path, repeat: int, deadline_ms: int) -> None:
    """Time `moraine hook prompt` end to end through the daemon: the first after a start, then p50/p95/max."""
    from tools.hooks.latency import ensure_store, time_hooks

    home.mkdir(parents=True, exist_ok=True)
    manifest = ensure_store(home.absolute(), corpus.absolute())
    times = time_hooks(home.absolute(), manifest, repeat, deadline_ms)
    over = sum(1 for t in times.times_ms if t > deadline_ms)
    click.echo(
        f"{manifest['events']:,} records; prompt hook end to end (process start to exit), {len(times.times_ms)} "
        f"hooks: p50 {times.percentile(0.5):.0f} ms, p95 {times.percentile(0.95):.0f} ms, max "
        f"{max(times.times_ms):.0f} ms; {times.printed} printed context; {over} over the {deadline_ms} ms deadline; "
        f"first hook after the daemon's start {times.first_ms:.0f} ms"
        f" ({'printed' if times.first_printed else 'printed nothing'})"
    )


if __name__ == "__main__":
    main()
