"""Harnesses: one folder per coding agent, each declaring where it writes and how to read it (``declaration``).

See ``moraine.harness_api.declaration`` for what a harness declares and ``moraine.harnesses.registry`` for how the
built-ins and third-party packages are found.
"""

from moraine.harness_api.declaration import Harness, Location, Resume
from moraine.harnesses.registry import harness, harnesses

__all__ = ["Harness", "Location", "Resume", "harness", "harnesses"]
