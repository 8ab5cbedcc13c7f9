"""Redaction on a corpus that holds no secrets: how many strings it changes (false positives) and what it costs."""
