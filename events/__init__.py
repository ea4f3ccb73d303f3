"""The event log: what happened in a game (``catalog``), as JSON (``codec``), stored by a ``store.Store``
(its roles: ``log``, ``library``, ``drafts``, ``presence``; its engines ``sqlite`` or ``postgres``, opened by
``factory``)."""
