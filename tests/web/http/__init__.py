"""Per-request plumbing: addresses, security headers, compression, static files, the store pool."""
