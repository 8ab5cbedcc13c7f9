"""Mirroring chosen projects' sessions to named ClickHouse backends, redacted, while everything stays local too.

- ``settings``: ``[backends.<name>]`` (url, database, credentials from env vars) and ``[[routes]]`` (cwd glob ->
  backend) from the configuration.
- ``routing``: which backend a session goes to: the repository's ``.moraine.toml`` ``backend = "<name>"``, else
  the first route whose glob matches the session's working directory.
- ``remote``: connect to a backend; never migrate a remote whose schema is newer than ours.
- ``sync``: copy each routed session's new rows (redacted) after a per-backend, per-session watermark, so a backend
  that is down only delays mirroring and catches up, every event present once.
"""
