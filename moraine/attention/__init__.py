"""file_attention's ingest side: which files each tool call touched, and the project each file belongs to."""

from moraine.attention.extract import TOUCH_COLUMNS, MatchKind, Touch, TouchContext, extract_touches
from moraine.attention.project import Placement, ProjectResolver

__all__ = [
    "TOUCH_COLUMNS",
    "MatchKind",
    "Placement",
    "ProjectResolver",
    "Touch",
    "TouchContext",
    "extract_touches",
]
