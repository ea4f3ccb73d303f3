"""The JSON API beside the pages (``/api/v1``): endpoints, the check of a command's ids against
its game, and the OpenAPI document."""
