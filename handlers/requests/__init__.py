"""Each tool's arguments parsed once into typed values: one module per tool (module name = tool name).

Each module defines ``parse(arguments, settings)`` returning a frozen dataclass that the tool's handler receives
and whose ``echo()`` is the canonical request echoed in envelopes. The arguments have already passed the tool's
published schema (types and shapes are right) and carry every schema default; every further request rule of the
tool lives in its parse, once, and the handler never checks an argument again.
"""

from __future__ import annotations

__all__: list[str] = []
