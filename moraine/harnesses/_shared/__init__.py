"""Record helpers every harness may use: the adapter protocol (``base``), record dispatch (``records``), event
building (``events``, ``chat``, ``calls``), text and field coercion (``text``, ``fields``, ``exit``, ``depth``,
``memory``) and the reader bases for files rewritten in place (``once``) and SQLite stores (``sqlite``).

They sit beside the harness folders, not inside one of them; a third-party harness package imports them too.
"""
