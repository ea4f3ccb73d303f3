"""The JSON API and its OpenAPI document."""
