"""The pure game core: standard library and ``events.catalog`` only (no Flask, no SQL)."""
