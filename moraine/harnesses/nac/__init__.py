"""NAC: its SQLite store (``~/.nac/store.db``), created by ``moraine setup``; the source is off until then."""

from moraine.harness_api.declaration import Harness, Location

HARNESS = Harness(
    name="nac",
    display_name="NAC",
    adapter="moraine.harnesses.nac.adapter:NacAdapter",
    # Setup-managed: `moraine setup` creates the store and enables the source.
    locations=(
        Location(
            "nac", "~/.nac/store.db", reader="nac_sqlite", windows_glob="~/.nac/store.db", enabled=False
        ),
    ),
    readers={"nac_sqlite": "moraine.harnesses.nac.reader:NacReader"},
    reads="session messages, worker-thread episodes (one turn each)",
    not_read="sessions synced from another host",
)
