"""What the agents' model calls cost: token usage from the store, priced per model and day.

- ``request``: the one parse of a usage request (window, grouping, filters), for the CLI and the daemon's route.
- ``pricing``: genai-prices' bundled table (offline), per (model, day); a model it does not know stays unpriced.
- ``summary``: the store's rows rolled up by the grouping asked for, with costs, as the JSON both print.
"""
