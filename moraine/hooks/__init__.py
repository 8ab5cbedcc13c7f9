"""Recall through the agents' own hooks (``moraine hook EVENT``, ``moraine setup --hooks``).

``run`` is the process an agent's hook starts: the standard library only, a hard deadline, one request to the
daemon's ``/v1/daemon/hook`` route on its Unix socket, the answer printed in the agent's hook protocol (or
nothing). ``compose`` is the daemon's side: what a session start, a prompt or a compaction is given, within a token
budget and only when the ranking is confident. ``settings`` reads the ``[hooks]`` table.
"""
