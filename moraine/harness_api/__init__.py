"""The harness contract, at the bottom of the tree: what a harness declares, reads and emits (the interface
harnesses are written against, as ``handler_api`` is the handlers').

- ``declaration``: a harness's declaration (its name, where it writes, its sources, its adapter and reader).
- ``model``: the records a reader hands on and the events an adapter emits.
- ``reader``: the reader protocol (a trace file -> ``ReadItem``s).
- ``adapter``: the adapter protocol (records -> events) and the context it runs in.

Every harness, ingest, the store and the config import it; it imports nothing of Moraine's
(``tests/test_import_layers.py``).
"""

__all__: list[str] = []
