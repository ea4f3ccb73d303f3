"""The JSON API next to the pages (``/api/v1``): endpoints, the schemas of what they take and
answer, the check of a command's ids against its game, and the OpenAPI document."""
