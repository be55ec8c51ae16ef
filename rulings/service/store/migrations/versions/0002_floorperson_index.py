"""Search by floorperson without a scan of the whole log.

Revision ID: 0002
"""
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("entries_floorperson_at", "entries", ["floorperson", "at"])


def downgrade() -> None:
    op.drop_index("entries_floorperson_at", table_name="entries")
