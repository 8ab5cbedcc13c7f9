"""codex_format"""
