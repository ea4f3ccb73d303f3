"""The event log: what happened in a game (``catalog``), as JSON (``codec``), kept in SQLite (``store``)."""
