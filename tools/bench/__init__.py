"""The benchmark command: ``python -m tools.bench --events N [--corpus DIR] [--json out.json]``.

Phases: generate (or reuse) a corpus with ``tools.corpus``; ingest it into a fresh store in a child process
(throughput, peak RSS); time the four tools in-process (warm, cold, 8 concurrent clients); grep the raw files for
the same queries (the baseline); append lines to live files under the watch loop and poll search until found.
"""

from tools.bench.report import Report
from tools.bench.run import Options, run_benchmark

__all__ = ["Options", "Report", "run_benchmark"]
