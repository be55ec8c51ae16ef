"""A request id is recorded once per account: a unique index on (floorperson, request_id) where one is given,
so a retried ruling (the same ``request_id``) cannot be written twice, even by two workers at once.

A log written before this revision may already hold a request id twice (entries are never changed): then
the index is left out and said so; the service still answers a retry with the first record.

Revision ID: 0004
"""
import logging

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    twice = conn.execute(sa.text(
        "SELECT count(*) FROM (SELECT floorperson, request_id FROM entries WHERE request_id IS NOT NULL "
        "GROUP BY floorperson, request_id HAVING count(*) > 1) AS d")).scalar()
    if twice:
        logging.getLogger("rulings.service").warning(
            "%d request id(s) are already in the log twice; the unique index on request ids is left out", twice)
        return
    op.create_index("entries_request_once", "entries", ["floorperson", "request_id"], unique=True,
                    sqlite_where=sa.text("request_id IS NOT NULL"),
                    postgresql_where=sa.text("request_id IS NOT NULL"))


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS entries_request_once")
