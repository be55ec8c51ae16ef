"""The engine: the only importer of durable-rules."""
