"""What the service keeps: the database (SQLAlchemy, Alembic migrations), the ruling log, accounts and sessions, and
the published house books. The only SQLAlchemy importers of the package."""
