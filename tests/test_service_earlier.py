"""Consistent across shifts: beside a ruling, the room's earlier rulings by the same rule on the same matter
(when, by whom, what was decided, whether it was corrected), newest first, bounded, only the room's own; the
log searched by rule (id or citation key) and matter. On SQLite and a real PostgreSQL (both through the
indexes of migration 0005)."""
from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from service_support import BACKENDS, accounts_of, database_for, example, logged_at, login, overchip

OVERCHIP = "pot-limit.silent-overchip-is-pot-bet"        # RRP-PL-6: a silent oversize chip is a pot-size bet
OVERCHIP_SAYS = "The silent $500 chip is a pot-size bet of $80; $420 goes back to the player."


def _accounts(svc) -> dict:
    from rulings.service.store.auth import add_account
    add_account(svc.engine, "gwen", "morning-pass-1", "floor", "main")     # the morning shift's floorperson
    return accounts_of(svc)


_logged = logged_at


@pytest.fixture
def shifts(svc):
    """Last night's shift (fiona) and this morning's (gwen) in room main; otto in riverside; a kill ruling."""
    acct = _accounts(svc)
    ids = {}
    ids["a"] = _logged(svc, acct["fiona"], overchip(), "2026-11-29T22:10:05.000000Z", "3")
    svc.log.follow_up(acct["fiona"], ids["a"], "decision", {"decision": "followed"})
    ids["b"] = _logged(svc, acct["fiona"], overchip(), "2026-11-29T23:40:30.000000Z", "5")
    svc.log.follow_up(acct["fiona"], ids["b"], "decision",
                      {"decision": "departed", "reason": "let the $500 stand as a raise"})
    svc.log.follow_up(acct["manny"], ids["b"], "correction",
                      {"note": "departing was wrong: the chip is a pot-size bet (RRP-PL-6)"})
    ids["r"] = _logged(svc, acct["otto"], overchip(), "2026-11-30T01:00:00.000000Z", "1")      # another room
    ids["k"] = _logged(svc, acct["fiona"], example("kill-scoop"), "2026-11-30T01:30:00.000000Z", "5")
    ids["c"] = _logged(svc, acct["gwen"], overchip(), "2026-11-30T09:15:00.000000Z", "3")
    return acct, ids


def test_a_new_ruling_shows_the_rooms_earlier_ones_newest_first(client, svc, shifts):
    """Two shifts: the morning ruling lists this morning's, then last night's with its departure and its
    correction; never riverside's ruling, never the kill ruling (another rule and matter)."""
    acct, ids = shifts
    gwen = {"Authorization": f"Bearer {svc.auth.login('gwen', 'morning-pass-1', 'test')[0]}"}
    d = client.post("/api/rule", json={"incident": overchip(), "table": "3"}, headers=gwen).json()["entry"]["id"]
    out = client.get(f"/api/log/{d}/earlier", headers=gwen).json()
    assert out["entry"] == d and out["room"] == "main"
    [beside] = out["rulings"]
    assert (beside["rule"], beside["matter"], beside["act"]) == (OVERCHIP, "wager", 0)
    got = beside["earlier"]
    assert [x["entry"] for x in got] == [ids["c"], ids["b"], ids["a"]] and beside["more"] is False
    assert [(x["floorperson"], x["at"], x["table"]) for x in got] == [
        ("gwen", "2026-11-30T09:15:00.000000Z", "3"), ("fiona", "2026-11-29T23:40:30.000000Z", "5"),
        ("fiona", "2026-11-29T22:10:05.000000Z", "3")]
    assert {x["sentence"] for x in got} == {OVERCHIP_SAYS}
    c, b, a = got
    assert c["decision"] is None and not c["corrected"]
    assert b["decision"]["decision"] == "departed" and b["decision"]["reason"] == "let the $500 stand as a raise"
    assert b["corrected"] and [(x["floorperson"], x["note"]) for x in b["corrections"]] == [
        ("manny", "departing was wrong: the chip is a pot-size bet (RRP-PL-6)")]
    assert a["decision"]["decision"] == "followed" and not a["corrected"] and a["corrections"] == []
    # by rule and matter: every one of the room's, the newest (d) first; riverside sees only its own
    main = client.get("/api/log/earlier", params={"rule": OVERCHIP, "matter": "wager"}, headers=gwen).json()
    assert [x["entry"] for x in main["earlier"]] == [d, ids["c"], ids["b"], ids["a"]]
    otto = login(client, "otto")
    there = client.get("/api/log/earlier", params={"rule": OVERCHIP, "matter": "wager"}, headers=otto).json()
    assert there["room"] == "riverside" and [x["entry"] for x in there["earlier"]] == [ids["r"]]
    refused = client.get("/api/log/earlier", params={"rule": OVERCHIP, "matter": "wager", "room": "main"},
                         headers=otto)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "role"
    assert client.get(f"/api/log/{d}/earlier", headers=otto).status_code == 404      # not otto's room's entry
    manager = login(client, "manny")
    other = client.get("/api/log/earlier", params={"rule": OVERCHIP, "matter": "wager", "room": "riverside"},
                       headers=manager).json()
    assert [x["entry"] for x in other["earlier"]] == [ids["r"]]
    # the same rule on another matter is another thing: nothing
    assert client.get("/api/log/earlier", params={"rule": OVERCHIP, "matter": "kill"},
                      headers=gwen).json()["earlier"] == []


def test_earlier_rulings_are_bounded_with_more_to_search(client, svc, shifts):
    acct, ids = shifts
    later = [_logged(svc, acct["gwen"], overchip(), f"2026-11-30T1{n}:00:00.000000Z", "4") for n in range(5)]
    out = svc.log.earlier(acct["gwen"], "main", OVERCHIP, "wager")
    assert [x["entry"] for x in out["earlier"]] == later[::-1] and out["more"] is True
    out = svc.log.earlier(acct["gwen"], "main", OVERCHIP, "wager", before=later[1])
    assert [x["entry"] for x in out["earlier"]] == [later[0], ids["c"], ids["b"], ids["a"]] and out["more"] is False
    floor = login(client, "fiona")
    r = client.get("/api/log/earlier", params={"rule": OVERCHIP, "matter": "wager", "limit": 2}, headers=floor).json()
    assert [x["entry"] for x in r["earlier"]] == [later[4], later[3]] and r["more"] is True
    bad = client.get("/api/log/earlier", params={"rule": OVERCHIP}, headers=floor)
    assert bad.status_code == 422 and "matter" in bad.text
    assert client.get("/api/log/earlier", params={"rule": OVERCHIP, "matter": "wager", "before": "x"},
                      headers=floor).status_code == 422


def test_the_log_is_searched_by_rule_and_matter(client, svc, shifts):
    acct, ids = shifts
    floor = login(client, "fiona")
    found = lambda **q: [e["id"] for e in client.get("/api/log", params=q, headers=floor).json()["entries"]]  # noqa: E731
    rulings = [ids["c"], ids["b"], ids["a"]]
    assert found(rule=OVERCHIP, matter="wager", kind="ruling") == rulings
    assert found(rule="RRP-PL-6", matter="wager", kind="ruling") == rulings          # by citation key
    assert found(rule="TDA-2024-44-PL", kind="ruling") == rulings                    # the rule's other key
    assert found(matter="wager", kind="ruling") == rulings                           # the kill is not a wager
    kill_matters = {r["decides"] for r in svc.log.get(ids["k"])["report"]["rulings"]}
    assert found(matter=sorted(kill_matters)[0], kind="ruling") == [ids["k"]]
    assert found(rule=OVERCHIP, matter="kill") == []                                 # both on one ruling
    assert found(rule="RRP-PL", kind="ruling") == []                                 # a key, not a prefix
    # the decisions and the correction on those rulings are found with them (the page reads decisions so)
    assert [(e["kind"], e["refers_to"]) for e in client.get(
        "/api/log", params={"rule": OVERCHIP, "kind": "decision"}, headers=floor).json()["entries"]] == [
        ("decision", ids["b"]), ("decision", ids["a"])]
    manager = login(client, "manny")
    every = [e["id"] for e in client.get("/api/log", params={"rule": OVERCHIP, "kind": "ruling"},
                                         headers=manager).json()["entries"]]
    assert every == [ids["c"], ids["r"], ids["b"], ids["a"]]                          # a manager: every room


def _plan(conn, query) -> str:
    sql = str(query.compile(conn.engine, compile_kwargs={"literal_binds": True}))
    if conn.dialect.name == "sqlite":
        return " | ".join(r[-1] for r in conn.execute(sa.text("EXPLAIN QUERY PLAN " + sql)))
    conn.execute(sa.text("SET enable_seqscan = off"))     # a small table: ask whether the index can serve it
    return " | ".join(r[0] for r in conn.execute(sa.text("EXPLAIN " + sql)))


def test_the_lookup_reads_the_index_not_the_log(svc, shifts):
    """With a room's log holding many wager rulings by other rules (statistics taken), the lookup is one
    range of ruling_keys_lookup read in order, not a scan of the log or of the matter's rulings."""
    from rulings.service.store import db
    from rulings.service.store.log import earlier_query
    _, ids = shifts
    with svc.engine.begin() as conn:
        conn.execute(db.ruling_keys.insert(), [{"entry_id": ids["k"], "room": "main", "key": f"other.rule-{n % 300}",
                                                "matter": "wager", "sentence": None} for n in range(3000)])
        conn.execute(sa.text("ANALYZE"))
    with svc.engine.connect() as conn:
        plan = _plan(conn, earlier_query("main", OVERCHIP, "wager", 10 ** 6, 6))
    assert "ruling_keys_lookup" in plan, plan
    assert "TEMP B-TREE" not in plan and "Sort" not in plan, plan        # read in order, newest first, no sort
    assert "SCAN entries" not in plan and "Seq Scan on entries" not in plan, plan


def test_the_keys_cannot_be_changed(svc, shifts):
    from rulings.service.store import db
    with pytest.raises(sa.exc.DatabaseError):
        with svc.engine.begin() as conn:
            conn.execute(db.ruling_keys.update().values(room="riverside"))
    with pytest.raises(sa.exc.DatabaseError):
        with svc.engine.begin() as conn:
            conn.execute(db.ruling_keys.delete())


@pytest.mark.parametrize("backend", BACKENDS)
def test_migration_fills_the_keys_of_entries_already_logged(tmp_path, backend):
    """A log written before revision 0005 (reports only) gains the keys of its rulings when it is upgraded."""
    from rulings.report.render import report_json
    from rulings.service.store import db
    from rulings.ruling import books as bookstore
    from rulings.ruling.consult import Consultation
    from rulings.service.store.log import Log
    engine = db.make_engine(db.database_url(database_for(backend), tmp_path / "data"))
    db.migrate(engine, "0004")
    book, rules = bookstore.load()
    report = report_json(Consultation(book, rules, "<request>").rule(overchip(), {}).report)
    old = dict(kind="ruling", at="2026-11-28T20:00:00.000000Z", room="main", table_name="2", floorperson="fiona",
               book="standard", book_hash="sha256:" + "0" * 64, outcome="ruled", incident=json.dumps(overchip()),
               answers="[]", report=json.dumps(report), rules=f" {OVERCHIP} ", topics=" pot-limit ",
               citations=" RRP-PL-6 TDA-2024-44-PL ")
    with engine.begin() as conn:
        first = conn.execute(db.entries.insert().values(**old).returning(db.entries.c.id)).scalar()
        conn.execute(db.entries.insert().values(**dict(old, room="riverside")))
        conn.execute(db.entries.insert().values(**dict(old, kind="decision", refers_to=first, decision="followed",
                                                       report=None, at="2026-11-28T20:01:00.000000Z")))
        conn.execute(db.entries.insert().values(**dict(old, report=None, outcome="not_covered")))   # nothing to key
    db.migrate(engine)
    assert db.revision(engine) == "0006"
    log = Log(engine)
    try:
        from rulings.service.store.auth import Account
        fiona = Account(1, "fiona", "floor", "main")
        out = log.earlier(fiona, "main", OVERCHIP, "wager")
        assert [(x["entry"], x["floorperson"], x["sentence"], x["decision"]["decision"]) for x in out["earlier"]] == [
            (first, "fiona", OVERCHIP_SAYS, "followed")]
        with engine.connect() as conn:
            keys = conn.execute(sa.select(db.ruling_keys.c.key).where(db.ruling_keys.c.entry_id == first)
                                .order_by(db.ruling_keys.c.id)).scalars().all()
        assert keys == [OVERCHIP, "RRP-PL-6", "TDA-2024-44-PL"]
        assert log.search({"rule": "RRP-PL-6", "kind": "ruling"}, fiona)["total"] == 1
    finally:
        log.close()
        engine.dispose()


def test_a_rule_id_longer_than_the_key_column_is_recorded_and_found(svc):
    """A house book may name a rule at length: its entry is still written (PostgreSQL checks the column's
    size) and found by the whole id."""
    from rulings.service.store.log import ruling_row
    acct = accounts_of(svc)
    long_id = "house." + "a-very-long-rule-name-" * 10
    report = {"rulings": [{"rule": long_id, "decides": "wager", "sentence": "It stands.", "citations": []}]}
    row = ruling_row(acct["fiona"], room="main", table="1", book="standard", book_hash="sha256:x", incident={},
                     answers=[], report=report, outcome="ruled", request_id=None)
    entry = svc.log.record(row).result(timeout=30)
    found = svc.log.earlier(acct["fiona"], "main", long_id, "wager")["earlier"]
    assert [(x["entry"], x["sentence"]) for x in found] == [(entry, "It stands.")]
