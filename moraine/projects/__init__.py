"""The project floor: which project a session originated under, and a server restricted to its launch project.

- ``projects``: the project identity of a session's working directory (set at ingest as ``sessions.project_id``).
- ``floor``: ``ProjectFloor`` (a project-only server's hard scope), resolved from the launch directory, and the SQL
  fragment readers add so nothing outside it is returned.
- ``settings``: the ``[mcp]`` configuration table (``project_only``).
"""
