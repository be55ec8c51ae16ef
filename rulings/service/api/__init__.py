"""The JSON API: the ASGI app, its routes and the OpenAPI document (contract: ../API.md)."""
