"""Draw the target events of known-item queries: ``python -m tools.relevance.draw [--set coding] [--seed N]``.

A seeded random draw stratified by kind (user message, assistant text, tool call, tool output) over the set's
corpus; each drawn event is printed with its session name, seq and text so that a person can write the query
they would type to find it again. It runs no search: whoever writes the queries never sees a ranking.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import click

from moraine.ids import session_key
from moraine.store.client import Store
from tools.relevance.run import build_store
from tools.relevance.sets import CODING, CODING_SOURCE, coding_sessions

__all__ = ["KINDS", "Drawn", "draw"]

# kind -> how many events of it to draw (all of them when fewer exist)
KINDS = {"user_input": 45, "assistant_response": 60, "tool_call": 80, "tool_response": 80}
_SHOWN = 1500  # characters of an event's text printed


@dataclass(frozen=True, slots=True)
class Drawn:
    kind: str
    session: str
    seq: int
    tool: str
    text: str


def _events(store: Store, kind: str) -> list[Drawn]:
    names = {session_key(CODING_SOURCE[0], sid): name for name, sid in coding_sessions().items()}
    rows = store.query(
        f"SELECT session_key, seq, ifNull(tool_name, ''), if(type = 'tool_call', ifNull(arguments, ''), text) "
        f"FROM {store.table('events')} WHERE type = {{kind:String}} ORDER BY session_key, seq",
        {"kind": kind},
    )
    out = [Drawn(kind, names[int(k)], int(seq), str(tool), str(text)) for k, seq, tool, text in rows]
    return sorted((d for d in out if d.text.strip()), key=lambda d: (d.session, d.seq))


def draw(store: Store, seed: int) -> list[Drawn]:
    """Return the drawn events, kind by kind, in draw order (the same for the same seed and corpus)."""
    rng = random.Random(seed)
    drawn: list[Drawn] = []
    for kind, count in KINDS.items():
        events = _events(store, kind)
        drawn += rng.sample(events, min(count, len(events)))
    return drawn


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--seed", type=int, default=34, show_default=True)
def main(seed: int) -> None:
    """Print the events drawn from the coding set's corpus, one block each."""
    with build_store(CODING) as store:
        for n, d in enumerate(draw(store, seed), 1):
            tool = f" {d.tool}" if d.tool else ""
            click.echo(f"=== #{n} {d.kind}{tool} {d.session} seq={d.seq} ({len(d.text)} chars)")
            click.echo(d.text[:_SHOWN])


if __name__ == "__main__":
    main()
