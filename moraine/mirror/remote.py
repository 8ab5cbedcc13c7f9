"""Connect to a backend: migrate it up to our schema, never a remote whose schema is newer than ours."""

from __future__ import annotations

from moraine.errors import MoraineError, StoreError
from moraine.mirror.settings import Backend
from moraine.store.client import Store, _migrations
from moraine.store.mirror import migrated_version

__all__ = ["RemoteSchemaNewer", "open_remote", "our_schema_version"]


class RemoteSchemaNewer(StoreError):
    """The backend's schema is newer than this Moraine's: nothing is migrated or written."""


def our_schema_version() -> int:
    """Return the highest migration version this Moraine knows."""
    return max(version for version, _, _ in _migrations())


def open_remote(backend: Backend) -> Store:
    """Return a store on the backend, migrated to our schema.

    Raises:
        RemoteSchemaNewer: the backend has migrations this Moraine does not know (upgrade Moraine).
        StoreError: the backend cannot be reached or refused a statement.
        ConfigError: a credential variable is not set.
    """
    store = Store(backend.dsn(), backend.database)
    try:
        remote = migrated_version(store, backend.database)
        if remote is not None:
            ours = our_schema_version()
            if remote > ours:
                raise RemoteSchemaNewer(
                    f"backend {backend.name!r} ({backend.database}) has schema version {remote}, newer than this "
                    f"Moraine's {ours}: upgrade Moraine to mirror there (nothing was migrated or written)"
                )
        store.migrate()
    except MoraineError:
        store.close()
        raise
    return store
