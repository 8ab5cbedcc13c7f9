"""The harness tools: the table of what every harness's fixtures yield, and docs/harnesses.md from the registry.

``python -m tools.harnesses`` builds the shared harness home (``tests/harnesses/home.py``), ingests it into a scratch
store and prints, per registered harness: fixture files, sessions, events, touches, titles, resume commands and
events carrying token usage, then a count line. ``python -m tools.harnesses docs`` writes ``docs/harnesses.md``;
``--check`` exits 1 when it is stale.
"""
