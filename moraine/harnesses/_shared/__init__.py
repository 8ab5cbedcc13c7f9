"""Record helpers every harness may use, one concept a module.

- Adapter protocol and record dispatch: ``base``, ``records``.
- Building events: ``events``, ``calls`` (tool calls remembered by id), ``chat`` (chat-completions messages),
  ``content_blocks`` (Anthropic-style typed blocks), ``held`` (holder-and-item records), ``document_adapter``
  (session-document headers and messages), ``snapshot`` (conversations re-read whole: emit only what is new),
  ``revised`` (messages rewritten as they grow), ``usage`` (token counts).
- Coercing values: ``text``, ``fields``, ``exit``, ``depth``, ``memory`` (the stream's checkpointed state).
- Readers: ``once`` (report a problem once), ``whole_file`` (load a file re-read whole; settle before the newest
  part counts), ``json_document`` (a JSON document as numbered records), ``json_array`` (stream a large JSON array),
  ``sidecar`` (small files beside a transcript), ``sqlite`` (read-only SQLite polling), ``sqlite_rows`` (rows
  appended with growing ids), ``snapshot_poller`` (SQLite conversations as snapshots), ``vscode_state`` (a VS Code
  fork's ``state.vscdb``), ``export`` (ChatGPT and Claude.ai data exports).
- Locations: ``locations`` (under ``~`` on every platform), ``vscode`` (VS Code products' ``User`` folders).
- ``cline_family``: the task-folder reader and adapter Cline, Roo Code and Kilo share.

They sit beside the harness folders, not inside one of them; a third-party harness package imports them too.
"""
