"""Session and turn transcripts as readable documents (``moraine export``, the web page's download).

- ``walk``: read a session or turn through the ``open`` tool's paging (the envelopes agents get, so the text is
  redacted as everything in the store is) into a ``Transcript``.
- ``labels``: what both formats say about an event, and which events are folded.
- ``markdown``, ``html``: print a transcript.
- ``document``: walk then print, in a named format; ``formats``: the format names and media types.
"""
