"""The room's earlier rulings on the same rule and matter, found through an index, not by reading the log.

A new table ``ruling_keys``: for each ruling in force of a ruling entry (every disputed act's), a row with
the rule's id (and the ruling's sentence) and a row for each citation key of the rule, each with the matter
the ruling decides and the entry's room. Index ``ruling_keys_lookup`` (key, matter, room, entry_id) answers
"this room's rulings by this rule on this matter, newest first" as one range read, and the log's search by
rule (id or citation key); ``ruling_keys_matter`` (matter, room, entry_id) the search by matter alone. The
rows of the entries already in the log are made here from their reports (entries are never changed); the
table is append-only like the log.

Revision ID: 0005
"""
import json

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_REFUSE = "the ruling keys are append-only, as the log is"
BATCH = 500


def upgrade() -> None:
    op.create_table(
        "ruling_keys",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("entry_id", sa.Integer, sa.ForeignKey("entries.id"), nullable=False),
        sa.Column("room", sa.String(64), nullable=False),
        sa.Column("key", sa.String(128), nullable=False),        # a rule id, or a citation key of the rule
        sa.Column("matter", sa.String(64), nullable=False),      # what the ruling decides (rulings/ruling/matters.yaml)
        sa.Column("sentence", sa.Text, nullable=True),           # the ruling's sentence, on the rule id's row
    )
    op.create_index("ruling_keys_lookup", "ruling_keys", ["key", "matter", "room", "entry_id"])
    op.create_index("ruling_keys_matter", "ruling_keys", ["matter", "room", "entry_id"])
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for verb in ("UPDATE", "DELETE"):
            op.execute(f"CREATE TRIGGER ruling_keys_no_{verb.lower()} BEFORE {verb} ON ruling_keys "
                       f"BEGIN SELECT RAISE(ABORT, '{_REFUSE}'); END")
    elif dialect == "postgresql":
        op.execute("CREATE FUNCTION rulings_keys_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
                   f"BEGIN RAISE EXCEPTION '{_REFUSE}'; END $$")
        op.execute("CREATE TRIGGER ruling_keys_append_only BEFORE UPDATE OR DELETE ON ruling_keys "
                   "FOR EACH ROW EXECUTE FUNCTION rulings_keys_append_only()")
    _fill(op.get_bind())


def _fill(conn) -> None:
    """The keys of every ruling entry already in the log, read from their reports in batches of ids."""
    entries = sa.table("entries", sa.column("id"), sa.column("kind"), sa.column("room"), sa.column("report"))
    keys = sa.table("ruling_keys", *(sa.column(c) for c in ("entry_id", "room", "key", "matter", "sentence")))
    last = 0
    while True:
        rows = conn.execute(sa.select(entries.c.id, entries.c.room, entries.c.report)
                            .where(entries.c.kind == "ruling", entries.c.id > last)
                            .order_by(entries.c.id).limit(BATCH)).all()
        if not rows:
            return
        found = [dict(k, entry_id=r.id, room=r.room) for r in rows for k in _keys(r.report)]
        if found:
            conn.execute(keys.insert(), found)
        last = rows[-1].id


def _keys(text) -> list[dict]:
    """A stored report's keys, as rulings/service/log.py's ``ruling_keys`` makes them for a new entry
    (kept here as written, so this revision makes the same rows whatever that module later becomes)."""
    try:
        report = json.loads(text) if text else None
    except ValueError:
        return []
    if not isinstance(report, dict):
        return []
    out, seen = [], set()
    for one in [report, *(report.get("more_acts") or [])]:
        for r in (one.get("rulings") or []) if isinstance(one, dict) else []:
            if not isinstance(r, dict) or not isinstance(r.get("rule"), str) or not r["rule"]:
                continue
            matter = r.get("decides") or ""
            pairs = [(r["rule"], r.get("sentence"))] + [(c["key"], None) for c in r.get("citations") or []
                                                         if isinstance(c, dict) and c.get("key") and not c.get("via")]
            for key, sentence in pairs:
                key, matter = str(key)[:128], str(matter)[:64]       # the columns' sizes
                if (key, matter) not in seen:
                    seen.add((key, matter))
                    out.append({"key": key, "matter": matter, "sentence": sentence})
    return out


def downgrade() -> None:
    raise NotImplementedError("the ruling log is never migrated down")
