"""Live pages: streams, the notifier, presence, several workers."""
