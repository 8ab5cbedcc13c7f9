"""QClaw session trees: OpenClaw's format under ``~/.qclaw`` (``moraine.harnesses._shared.openclaw_format``)."""

from __future__ import annotations

from moraine.harnesses._shared.openclaw_format import OpenClawAdapter

__all__ = ["QClawAdapter"]


class QClawAdapter(OpenClawAdapter):
    """Normalize QClaw session trees under the ``qclaw`` harness value."""

    harness = "qclaw"
