"""Alembic migrations of the ruling log's schema, run in place by `rulings serve` at every start."""
