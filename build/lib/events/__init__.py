"""The event log: what happened in a game (``catalog``), as JSON (``codec``), kept by a ``store.Store``
(``sqlite`` or ``postgres``, picked by ``factory``)."""
