"""Kilo's adapter: OpenCode parts from kilo.db and Cline-family UI messages from the legacy task folders."""

from __future__ import annotations

from typing import ClassVar

from moraine.harnesses._cline.adapter import ClineFamilyAdapter
from moraine.ingest.adapters._records import TaggedAdapter, TaggedReader
from moraine.ingest.adapters.opencode import OpenCodeAdapter

__all__ = ["KiloAdapter"]


class KiloAdapter(TaggedAdapter):
    """Normalize both of Kilo's formats: each record is read by the adapter of the format its tag names."""

    harness = "kilo"
    kinds: ClassVar[dict[str, TaggedReader]] = {**OpenCodeAdapter.kinds, **ClineFamilyAdapter.kinds}
    untagged = "neither a kilo.db part nor a legacy task UI message"
