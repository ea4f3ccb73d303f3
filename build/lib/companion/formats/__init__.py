"""How the app writes and reads things outside itself: commands and events as JSON (what the log,
the API and exports hold), exported game files and their safe reading, a BG Stats play, and the
flattened messages of a schema that refused its input."""
