"""The store's schema, version by version: ``NNN_name.sql`` statements, or ``NNN_name.py`` modules whose ``apply``
copies data in steps (see ``moraine.store.client.Migration``)."""
