"""Roo Code's adapter: the Cline-family adapter under Roo Code's name."""

from __future__ import annotations

from moraine.harnesses._shared.cline_family.adapter import ClineFamilyAdapter

__all__ = ["RooCodeAdapter"]


class RooCodeAdapter(ClineFamilyAdapter):
    """Normalize Roo Code's UI messages."""

    harness = "roo-code"
