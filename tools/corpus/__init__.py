"""A deterministic generator of realistic Codex and Claude Code trace corpora with planted needles.

``python -m tools.corpus --events N --out DIR --seed S`` writes ``DIR/codex/sessions/YYYY/MM/DD/rollout-*.jsonl``,
``DIR/claude/projects/<project>/<uuid>.jsonl`` and ``DIR/manifest.json`` (needle queries -> file, line, session).
"""

from tools.corpus.generate import MANIFEST, SOURCES, CorpusSummary, generate

__all__ = ["MANIFEST", "SOURCES", "CorpusSummary", "generate"]
