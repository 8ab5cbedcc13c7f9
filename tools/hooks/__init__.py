"""Hook benchmarks: ``python -m tools.hooks locomo`` (is a prompt hook's injection useful, and when to stay quiet)
and ``python -m tools.hooks latency`` (the prompt hook end to end through the daemon at 200,000 records)."""
