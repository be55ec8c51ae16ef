"""Alembic's entry point: the service hands over an open connection (no alembic.ini, no logging set-up)."""
from alembic import context


def run() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=None, transaction_per_migration=True)
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):   # run by Alembic; a plain import (doctest collection) does nothing
    run()
