"""A chain of rooms on one database: what a server kept in its data folder is kept in the database instead.

- ``book_versions`` gains ``note`` (the publisher's note) and ``room`` (the room of the manager who published
  it): on PostgreSQL every published version of a house book is a row there, the newest in force, so a
  server started on an empty data folder serves the chain's books (the table was made by 0001, append-only).
- ``entries`` gains ``book_version``: the published version of the house book a ruling was ruled under
  (none for the standard book or a house book as the repository ships it).
- ``shared_secrets``: the secret that signs the login form's CSRF token, one for every server of the chain
  (a form shown by one server is posted through the balancer to another).
- ``table_states``: each table's last pots for the kill page, one row per room and table, replaced as pots
  are added (a state, not a record: the rulings made from it are in the log).
- ``room_books``: a room's own house book, when it has one: its managers change only that book.

Revision ID: 0006
"""
import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("book_versions", sa.Column("note", sa.Text, nullable=True))
    op.add_column("book_versions", sa.Column("room", sa.String(64), nullable=True))
    op.add_column("entries", sa.Column("book_version", sa.Integer, nullable=True))
    op.create_table(
        "shared_secrets",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    op.create_table(
        "table_states",
        sa.Column("room", sa.String(64), primary_key=True),
        sa.Column("table_name", sa.String(64), primary_key=True),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("at", sa.String(32), nullable=False),
    )
    op.create_table(
        "room_books",
        sa.Column("room", sa.String(64), primary_key=True),
        sa.Column("book", sa.String(128), nullable=False),
        sa.Column("at", sa.String(32), nullable=False),
    )


def downgrade() -> None:
    raise NotImplementedError("the ruling log is never migrated down")
