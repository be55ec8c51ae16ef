"""The ruling log's writer on both databases: a batch of entries and an entry alone, each with its ruling keys,
ids in the entries' order, a duplicate request id refused as the log's DUPLICATE and the writer writing on."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from rulings.service.store import db
from service_support import BACKENDS, make_service, overchip


def _rows(svc, incidents, request_ids):
    from rulings.service.core import step_json
    from rulings.service.store.auth import Account
    from rulings.service.store.log import ruling_row
    with svc.engine.connect() as conn:
        r = conn.execute(sa.select(db.accounts).where(db.accounts.c.username == "fiona")).first()
    account = Account(r.id, r.username, r.role, r.room)
    warm = svc.books.get("standard")
    rows = []
    for incident, rid in zip(incidents, request_ids):
        step = warm.consultation.rule(incident, {})
        rows.append(ruling_row(account, room=account.room, table="4", book=warm.name, book_hash=warm.hash,
                               incident=incident, answers=[], report=step_json(step)["report"], outcome=step.outcome,
                               request_id=rid))
    return rows


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_batch_and_an_entry_alone_keep_their_ids_and_keys_and_a_duplicate_is_refused(backend, tmp_path):
    """Three rulings of RRP-PL-6's silent $500 chip into an $80 pot written as one batch, then one alone: four
    ids in order, each entry's ruling keys under its own id (the rule that decided it, pot-limit's silent
    overchip); the same request id again is refused (an IntegrityError: the service answers it with the first
    record), and the next entry is written after it."""
    svc = make_service(tmp_path, backend)
    try:
        writer = svc.log.writer
        batch = _rows(svc, [overchip(), overchip(), overchip()], ["b-1", "b-2", "b-3"])
        ids = writer._write(batch)
        [alone] = writer._write(_rows(svc, [overchip()], ["a-1"]))
        assert len(set(ids + [alone])) == 4 and ids + [alone] == sorted(ids + [alone])
        with svc.engine.connect() as conn:
            entries = {r.id: r.request_id for r in conn.execute(sa.select(db.entries.c.id, db.entries.c.request_id))}
            keys = conn.execute(sa.select(db.ruling_keys.c.entry_id, db.ruling_keys.c.key)).all()
        assert [entries[i] for i in ids + [alone]] == ["b-1", "b-2", "b-3", "a-1"]
        by_entry: dict[int, set] = {}
        for entry_id, key in keys:
            by_entry.setdefault(entry_id, set()).add(key)
        assert set(by_entry) == set(ids + [alone])
        assert all(by_entry[i] == by_entry[alone] for i in ids) and "pot-limit.silent-overchip-is-pot-bet" in \
            by_entry[alone]
        from rulings.service.store.log import DUPLICATE
        with pytest.raises(DUPLICATE):
            writer._write(_rows(svc, [overchip()], ["a-1"]))
        [after] = writer._write(_rows(svc, [overchip()], ["a-2"]))
        assert after > alone
    finally:
        svc.close()
