"""The ruling log, accounts, sessions and published house books; log entries made append-only in the database.

Revision ID: 0001
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_REFUSE = "the ruling log is append-only: a correction is a new entry"


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("username", sa.String(64), nullable=False, unique=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("room", sa.String(64), nullable=False),
        sa.Column("password_hash", sa.Text, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("disabled", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("expires_at", sa.String(32), nullable=False),
        sa.Column("revoked", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "entries",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("refers_to", sa.Integer, sa.ForeignKey("entries.id"), nullable=True),
        sa.Column("at", sa.String(32), nullable=False),
        sa.Column("room", sa.String(64), nullable=False),
        sa.Column("table_name", sa.String(64), nullable=True),
        sa.Column("floorperson", sa.String(64), nullable=False),
        sa.Column("book", sa.String(128), nullable=True),
        sa.Column("book_hash", sa.String(80), nullable=True),
        sa.Column("outcome", sa.String(16), nullable=True),
        sa.Column("incident", sa.Text, nullable=True),
        sa.Column("answers", sa.Text, nullable=True),
        sa.Column("report", sa.Text, nullable=True),
        sa.Column("rules", sa.Text, nullable=False, server_default=""),
        sa.Column("topics", sa.Text, nullable=False, server_default=""),
        sa.Column("citations", sa.Text, nullable=False, server_default=""),
        sa.Column("decision", sa.String(16), nullable=True),
        sa.Column("reason", sa.Text, nullable=True),
        sa.Column("note", sa.Text, nullable=True),
        sa.Column("request_id", sa.String(128), nullable=True),
    )
    op.create_index("entries_at", "entries", ["at"])
    op.create_index("entries_room_at", "entries", ["room", "at"])
    op.create_index("entries_table", "entries", ["table_name"])
    op.create_index("entries_refers_to", "entries", ["refers_to"])
    op.create_index("entries_request_id", "entries", ["request_id"])
    op.create_table(
        "book_versions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("content", sa.Text, nullable=False),
        sa.Column("hash", sa.String(80), nullable=False),
        sa.Column("published_by", sa.String(64), nullable=False),
        sa.Column("at", sa.String(32), nullable=False),
        sa.UniqueConstraint("name", "version", name="book_versions_name_version"),
    )
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for verb in ("UPDATE", "DELETE"):
            op.execute(f"CREATE TRIGGER entries_no_{verb.lower()} BEFORE {verb} ON entries "
                       f"BEGIN SELECT RAISE(ABORT, '{_REFUSE}'); END")
            op.execute(f"CREATE TRIGGER book_versions_no_{verb.lower()} BEFORE {verb} ON book_versions "
                       f"BEGIN SELECT RAISE(ABORT, 'published book versions are kept as they were'); END")
    elif dialect == "postgresql":
        op.execute("CREATE FUNCTION rulings_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
                   f"BEGIN RAISE EXCEPTION '{_REFUSE}'; END $$")
        for table in ("entries", "book_versions"):
            op.execute(f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                       "FOR EACH ROW EXECUTE FUNCTION rulings_append_only()")


def downgrade() -> None:
    raise NotImplementedError("the ruling log is never migrated down")
