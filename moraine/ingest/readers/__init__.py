"""Readers for trace sources that are not JSON Lines: SQLite stores and JSON files rewritten in place.

Each satisfies ``moraine.ingest.reader.Reader`` with ``byte_offsets = False`` and is registered by source format in
``moraine.ingest.adapters`` (``session_json``, ``cursor_sqlite``, ``opencode_sqlite``, ``nac_sqlite``). Positions
are not byte offsets but a monotonic cursor each reader defines (a message index, a row id, an update watermark):
the pipeline passes the checkpointed ``offset``/``line_no`` to ``read`` on every poll and checkpoints each item's
``end``/``end_line`` with the adapter state. A locked or busy database ends the pass early without error and the
next poll resumes from the same position; schema drift is reported once per reader as an ``IngestError`` item.
"""
