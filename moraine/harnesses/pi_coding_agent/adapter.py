"""pi-coding-agent session trees (sources ``pi`` and ``omp``) -> normalized events (the schema:
``moraine.harnesses._shared.pi_tree``)."""

from __future__ import annotations

from moraine.harnesses._shared.pi_tree import PiFamilyNormalizer

__all__ = ["PiAdapter"]


class PiAdapter(PiFamilyNormalizer):
    """Normalize pi-coding-agent (and omp) session trees."""
