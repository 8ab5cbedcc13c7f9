"""Cline's adapter: the Cline-family adapter under Cline's name."""

from __future__ import annotations

from moraine.harnesses._shared.cline_family.adapter import ClineFamilyAdapter

__all__ = ["ClineAdapter"]


class ClineAdapter(ClineFamilyAdapter):
    """Normalize Cline's UI messages."""

    harness = "cline"
