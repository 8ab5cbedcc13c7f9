"""The Cline family (Cline, Roo Code, Kilo Code's legacy extension): one task folder per session, one format.

``reader`` reads a task's ``ui_messages.json`` with its metadata files; ``adapter`` normalizes the messages. Each
harness of the family declares its own folder and subclasses the adapter for its name.
"""
