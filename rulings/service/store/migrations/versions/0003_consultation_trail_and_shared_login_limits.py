"""Every consultation step kept in order (append-only), a ruling linked to its consultation; failed logins
counted in the database so that every worker process sees the same count.

Revision ID: 0003
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_REFUSE = "the consultation trail is append-only"


def upgrade() -> None:
    op.add_column("entries", sa.Column("consultation", sa.String(64), nullable=True))
    op.create_index("entries_consultation", "entries", ["consultation"])
    op.create_table(
        "consult_steps",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("consultation", sa.String(64), nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("at", sa.String(32), nullable=False),
        sa.Column("room", sa.String(64), nullable=False),
        sa.Column("table_name", sa.String(64), nullable=True),
        sa.Column("floorperson", sa.String(64), nullable=False),
        sa.Column("book", sa.String(128), nullable=True),
        sa.Column("book_hash", sa.String(80), nullable=True),
        sa.Column("incident", sa.Text, nullable=True),
        sa.Column("answers", sa.Text, nullable=False),       # every answer given so far, as sent
        sa.Column("answered", sa.Text, nullable=False),      # the answers new at this step, in order
        sa.Column("questions", sa.Text, nullable=False),     # the questions asked back, most important first
        sa.Column("outcome", sa.String(16), nullable=True),
        sa.Column("rules", sa.Text, nullable=False, server_default=""),
        sa.UniqueConstraint("consultation", "step", name="consult_steps_consultation_step"),
    )
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("at", sa.Float, nullable=False),           # seconds since the epoch (one clock for every worker)
    )
    op.create_index("login_failures_key_at", "login_failures", ["key", "at"])
    op.create_index("login_failures_at", "login_failures", ["at"])
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for verb in ("UPDATE", "DELETE"):
            op.execute(f"CREATE TRIGGER consult_steps_no_{verb.lower()} BEFORE {verb} ON consult_steps "
                       f"BEGIN SELECT RAISE(ABORT, '{_REFUSE}'); END")
    elif dialect == "postgresql":
        op.execute("CREATE FUNCTION rulings_trail_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
                   f"BEGIN RAISE EXCEPTION '{_REFUSE}'; END $$")
        op.execute("CREATE TRIGGER consult_steps_append_only BEFORE UPDATE OR DELETE ON consult_steps "
                   "FOR EACH ROW EXECUTE FUNCTION rulings_trail_append_only()")


def downgrade() -> None:
    raise NotImplementedError("the ruling log is never migrated down")
