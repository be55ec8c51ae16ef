"""The ruling service: a JSON API over the rulebooks, the consultation and the ruling log (see API.md)."""
