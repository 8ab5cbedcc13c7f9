"""Moraine: search and walk coding-agent session history over MCP."""

__all__: list[str] = []
