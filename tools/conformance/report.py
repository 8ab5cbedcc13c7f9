"""The PASS/FAIL table."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Report", "Row"]


@dataclass(frozen=True)
class Row:
    section: str
    name: str
    passed: bool
    detail: str


@dataclass
class Report:
    """Collects one row per check and renders them."""

    rows: list[Row] = field(default_factory=list)

    def add(self, section: str, name: str, passed: bool, detail: str = "") -> bool:
        """Record a check; return whether it passed."""
        self.rows.append(Row(section, name, passed, detail))
        return passed

    @property
    def failed(self) -> list[Row]:
        return [row for row in self.rows if not row.passed]

    def render(self) -> str:
        """Return the table and a summary line."""
        width = max((len(f"{r.section}: {r.name}") for r in self.rows), default=10)
        lines = [f"{'RESULT':6}  {'CHECK':{width}}  DETAIL", f"{'-' * 6}  {'-' * width}  {'-' * 6}"]
        for row in self.rows:
            status = "PASS" if row.passed else "FAIL"
            lines.append(f"{status:6}  {f'{row.section}: {row.name}':{width}}  {row.detail[:200]}")
        passed = len(self.rows) - len(self.failed)
        lines.append(
            f"{passed}/{len(self.rows)} PASS" + (f", {len(self.failed)} FAIL" if self.failed else "")
        )
        return "\n".join(lines)
