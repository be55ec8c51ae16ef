"""The ruling service over HTTP (in process): rule, consult, the log, accounts — on SQLite and a real PostgreSQL."""
from __future__ import annotations

import csv
import io
import json

import pytest
import sqlalchemy as sa
with __import__("warnings").catch_warnings():    # starlette asks for httpx2, which is not needed here
    __import__("warnings").simplefilter("ignore")
    from starlette.testclient import TestClient

from service_support import BACKENDS, PASSWORDS, count_entries, login, make_service, overchip



def _rule(client, headers, incident=None, **extra):
    body = {"incident": incident if incident is not None else overchip(), **extra}
    return client.post("/api/rule", json=body, headers=headers)


def test_rule_records_everything_the_log_keeps(client, svc):
    floor = login(client, "fiona")
    r = _rule(client, floor, table="7")
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["outcome"] == "ruled"
    first = out["report"]["rulings"][0]
    assert first["rule"] == "pot-limit.silent-overchip-is-pot-bet"
    assert first["effects"] == {"wager_to": 80, "returned": 420}          # RRP-PL-6: $80 bet, $420 back
    entry = client.get(f"/api/log/{out['entry']['id']}", headers=floor).json()
    assert entry["kind"] == "ruling" and entry["table"] == "7" and entry["room"] == "main"
    assert entry["floorperson"] == "fiona" and entry["book"] == "standard"
    assert entry["book_hash"].startswith("sha256:") and len(entry["book_hash"]) == 71
    assert entry["incident"] == json.loads(json.dumps(overchip()))        # as entered (JSON keys are text)
    assert entry["report"]["rulings"][0]["effects"] == {"wager_to": 80, "returned": 420}
    assert entry["at"].endswith("Z") and entry["at"][:4] >= "2025"
    assert "RRP-PL-6" in entry["citations"] and "pot-limit" in entry["topics"]
    assert entry["decision"] is None and entry["later"] == []


def test_consultation_step_and_answers_recorded(client):
    floor = login(client, "fiona")
    incident = {"game": {"variant": "omaha", "structure": "pot-limit", "blinds": [1, 2]}, "button": 3,
                "players": {"1": 1000, "2": 1000, "3": 1000}, "street": "turn", "pot": 100,
                "actions": [{"seat": 1, "action": "bet", "to": 50}],
                "disputed": {"seat": 2, "said": "raise to four hundred", "words_first": "words"}}
    step = client.post("/api/consult", json={"incident": incident}, headers=floor).json()
    assert step["outcome"] == "ruled"
    assert step["report"]["rulings"][0]["effects"] == {"wager_to": 250, "returned": 0, "owed": 250}  # RRP-PL-1 max $250; words only, nothing went in
    q = step["questions"][0]
    assert q["fact"] == "noticed" and q["asked_by"] == "pot-limit.oversize-wager"
    assert [v["value"] for v in q["values"]] == ["before_next_action", "after_some_action", "after_all_acted",
                                                "after_next_card"]
    after = client.post("/api/consult", json={"incident": incident, "answers": {"noticed": "after_all_acted"}},
                        headers=floor).json()
    assert after["report"]["rulings"][0]["ruling"] == "wager-stands"
    assert "noticed" not in [x["fact"] for x in after["questions"]]
    recorded = _rule(client, floor, incident, answers={"noticed": "after_all_acted"}, table="3").json()
    entry = client.get(f"/api/log/{recorded['entry']['id']}", headers=floor).json()
    assert entry["answers"] == [{"fact": "noticed", "question": q["question"], "answer": "after_all_acted"}]
    assert "noticed" not in entry["incident"]                             # the incident as entered


def test_every_consultation_step_is_kept_in_order_with_its_questions_and_answers(client, svc):
    floor, other = login(client, "fiona"), login(client, "otto")
    incident = {"game": {"variant": "omaha", "structure": "pot-limit", "blinds": [1, 2]}, "button": 3,
                "players": {"1": 1000, "2": 1000, "3": 1000}, "street": "turn", "pot": 100,
                "actions": [{"seat": 1, "action": "bet", "to": 50}],
                "disputed": {"seat": 2, "said": "raise to four hundred", "words_first": "words"}}
    first = client.post("/api/consult", json={"incident": incident, "table": "3"}, headers=floor).json()
    cid = first["consultation"]["id"]
    assert first["consultation"]["step"] == 1 and first["questions"][0]["fact"] == "noticed"
    second = client.post("/api/consult", json={"incident": incident, "consultation": cid, "table": "3",
                                               "answers": {"noticed": "after_all_acted"}}, headers=floor).json()
    assert second["consultation"] == {"id": cid, "step": 2, "at": second["consultation"]["at"]}
    assert second["report"]["rulings"][0]["ruling"] == "wager-stands"
    recorded = _rule(client, floor, incident, answers={"noticed": "after_all_acted"}, table="3",
                     consultation=cid).json()
    assert recorded["entry"]["consultation"] == cid
    entry = client.get(f"/api/log/{recorded['entry']['id']}", headers=floor).json()
    assert entry["consultation"] == cid
    trail = entry["trail"]
    assert [t["step"] for t in trail] == [1, 2] and all(t["floorperson"] == "fiona" for t in trail)
    assert trail[0]["answered"] == [] and trail[0]["questions"][0]["fact"] == "noticed"
    assert trail[0]["questions"][0]["asked_by"] == "pot-limit.oversize-wager"
    assert trail[0]["rules"] == [first["report"]["rulings"][0]["rule"]]      # the ruling so far: $250 max
    assert trail[1]["answered"] == [{"fact": "noticed", "question": first["questions"][0]["question"],
                                     "answer": "after_all_acted"}]
    assert "noticed" not in [q["fact"] for q in trail[1]["questions"]] and trail[1]["outcome"] == "ruled"
    whole = client.get(f"/api/consultations/{cid}", headers=floor).json()
    assert whole["steps"] == trail and whole["entries"] == [recorded["entry"]["id"]]
    assert client.get(f"/api/log?consultation={cid}", headers=floor).json()["total"] == 1
    # another room's floor account neither reads nor continues it; an unknown id is refused, nothing recorded
    assert client.get(f"/api/consultations/{cid}", headers=other).status_code == 404
    r = client.post("/api/consult", json={"incident": incident, "consultation": cid}, headers=other)
    assert r.status_code == 404 and r.json()["error"]["problems"][0]["path"] == ["consultation"]
    before = count_entries(svc)
    assert _rule(client, floor, incident, consultation="c-unknown").status_code == 404
    assert count_entries(svc) == before
    # the trail is append-only in the database itself
    from rulings.service.store import db
    with pytest.raises(sa.exc.DatabaseError, match="append-only"):
        with svc.engine.begin() as conn:
            conn.execute(db.consult_steps.update().values(outcome="ruled"))
    with pytest.raises(sa.exc.DatabaseError, match="append-only"):
        with svc.engine.begin() as conn:
            conn.execute(db.consult_steps.delete())


def test_decision_and_correction_are_new_entries(client, svc):
    floor, manager = login(client, "fiona"), login(client, "manny")
    rid = _rule(client, floor, table="2").json()["entry"]["id"]
    r = client.post(f"/api/log/{rid}/decision", json={"decision": "departed"}, headers=floor)
    assert r.status_code == 422 and "reason" in r.text
    d = client.post(f"/api/log/{rid}/decision", json={"decision": "departed", "reason": "player misheard"},
                    headers=floor)
    assert d.status_code == 201 and d.json()["refers_to"] == rid and d.json()["kind"] == "decision"
    assert client.post(f"/api/log/{rid}/correction", json={"note": "table was 12"},
                       headers=floor).status_code == 403
    c = client.post(f"/api/log/{rid}/correction", json={"note": "table was 12", "table": "12"}, headers=manager)
    assert c.status_code == 201 and c.json()["table"] == "12" and c.json()["floorperson"] == "manny"
    # a correction of the incident itself rules again: seat 1 had bet $20 and the $500 chip was seat 2's
    fixed = overchip()
    fixed["actions"] = [{"seat": 1, "action": "bet", "to": 20}]
    fixed["disputed"]["seat"] = 2
    redo = client.post(f"/api/log/{rid}/correction", json={"note": "seat 1 had bet $20 first", "incident": fixed},
                       headers=manager)
    assert redo.status_code == 201, redo.text
    assert redo.json()["incident"]["actions"] == [{"seat": 1, "action": "bet", "to": 20}]
    assert redo.json()["report"]["rulings"][0]["rule"] == "misdeclared-calls.overchip-is-call"   # a $20 call
    assert "$480 goes back" in redo.json()["report"]["rulings"][0]["sentence"]
    bad = overchip()
    bad["pot"] = -5
    assert client.post(f"/api/log/{rid}/correction", json={"note": "x", "incident": bad},
                       headers=manager).status_code == 422
    original = client.get(f"/api/log/{rid}", headers=floor).json()
    assert original["table"] == "2"                                        # never changed
    assert [(x["kind"], x["refers_to"]) for x in original["later"]] == [("decision", rid), ("correction", rid),
                                                                       ("correction", rid)]
    # the database itself refuses to change or delete an entry
    from rulings.service.store import db
    with pytest.raises(sa.exc.DatabaseError):
        with svc.engine.begin() as conn:
            conn.execute(db.entries.update().where(db.entries.c.id == rid).values(table_name="9"))
    with pytest.raises(sa.exc.DatabaseError):
        with svc.engine.begin() as conn:
            conn.execute(db.entries.delete())
    assert count_entries(svc) == 4


def test_a_ruling_that_still_asks_is_never_recorded_as_followed(client, svc):
    """Pot-limit "pot" facing a $50 bet with the pot before the flop not given: what "pot" comes to depends on
    it, so the step's outcome is "questions"; recorded, it is only a step on the way, never followed (issue
    45). Answered (a $100 pot: a raise to $250, TDA 2024 rule 44's arithmetic), it is followed."""
    floor, manager = login(client, "fiona"), login(client, "manny")
    incident = {"game": {"variant": "holdem", "structure": "pot-limit", "blinds": [1, 2]}, "button": 3,
                "players": {"1": None, "2": None, "3": None}, "street": "flop",
                "actions": [{"seat": 1, "action": "bet", "to": 50}], "disputed": {"seat": 2, "said": "pot"}}
    out = _rule(client, floor, incident, consult=True).json()
    assert out["outcome"] == "questions" and out["open"][0]["fact"] == "pot" and out["open"][0]["under_each"]
    rid = out["entry"]["id"]
    before = count_entries(svc)
    r = client.post(f"/api/log/{rid}/decision", json={"decision": "followed"}, headers=floor)
    assert r.status_code == 422 and r.json()["error"]["problems"][0]["path"] == ["decision"], r.text
    r = client.post(f"/api/log/{rid}/correction", json={"note": "as it stood", "decision": "followed"},
                    headers=manager)
    assert r.status_code == 422
    assert count_entries(svc) == before                                   # nothing followed was written
    departed = client.post(f"/api/log/{rid}/decision", json={"decision": "departed", "reason": "pot unknown"},
                           headers=floor)
    assert departed.status_code == 201
    incident["pot"] = 100
    answered = _rule(client, floor, incident, consult=True).json()
    assert answered["outcome"] == "ruled" and answered["report"]["rulings"][0]["effects"]["wager_to"] == 250
    assert client.post(f"/api/log/{answered['entry']['id']}/decision", json={"decision": "followed"},
                       headers=floor).status_code == 201


def test_search_and_export(client):
    floor, manager, other = login(client, "fiona"), login(client, "manny"), login(client, "otto")
    a = _rule(client, floor, table="7").json()["entry"]["id"]
    kill = {"incident": __import__("service_support").example("kill-scoop"), "table": "9"}
    b = client.post("/api/rule", json=kill, headers=floor).json()["entry"]["id"]
    c = _rule(client, other, table="7").json()["entry"]["id"]            # another room
    ids = lambda r: [e["id"] for e in r.json()["entries"]]                # noqa: E731
    assert ids(client.get("/api/log?table=7", headers=floor)) == [a]     # floor: own room only
    assert ids(client.get("/api/log?table=7", headers=manager)) == [c, a]
    assert ids(client.get("/api/log?topic=kill-pots", headers=floor)) == [b]
    assert ids(client.get("/api/log?rule=pot-limit.silent-overchip-is-pot-bet", headers=manager)) == [c, a]
    assert ids(client.get("/api/log?citation=RRP-PL-6", headers=floor)) == [a]
    assert ids(client.get("/api/log?floorperson=otto", headers=manager)) == [c]
    assert ids(client.get("/api/log?rule=pot-limit", headers=manager)) == []   # a rule id, not a prefix
    today = client.get(f"/api/log/{a}", headers=floor).json()["at"][:10]
    assert ids(client.get(f"/api/log?date_from={today}&date_to={today}", headers=floor)) == [b, a]
    assert ids(client.get("/api/log?date_to=2020-01-01", headers=manager)) == []
    assert client.get("/api/log?date_from=yesterday", headers=floor).status_code == 422
    assert client.get("/api/log?room=riverside", headers=floor).status_code == 403
    assert ids(client.get("/api/log?room=riverside", headers=manager)) == [c]
    r = client.get("/api/log/export?format=csv&table=7", headers=manager)
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert r.headers["content-type"].startswith("text/csv") and [int(x["id"]) for x in rows] == [a, c]
    assert rows[0]["rulings"] == "The silent $500 chip is a pot-size bet of $80; $420 goes back to the player."
    assert "RRP-PL-6" in rows[0]["citations"].split() and rows[0]["floorperson"] == "fiona"
    j = json.loads(client.get("/api/log/export?format=json", headers=floor).text)
    assert [e["id"] for e in j["entries"]] == [a, b]
    assert client.get(f"/api/log/{c}", headers=floor).status_code == 404   # other room's entry: not shown


def test_books_explain_openapi(client):
    floor = login(client, "fiona")
    books = {b["name"]: b for b in client.get("/api/books", headers=floor).json()["books"]}
    assert {"standard", "east-coast-limit", "pnw-lowball", "tda-series"} <= set(books)
    assert books["east-coast-limit"]["hash"] != books["standard"]["hash"]
    detail = client.get("/api/books/east-coast-limit", headers=floor).json()
    cap = next(p for p in detail["parameters"] if p["name"] == "raise_cap.max_raises")
    assert cap["value"]["cash"] == 4                                       # the house sets a five-bet cap
    assert client.get("/api/books/nowhere", headers=floor).status_code == 404
    e = client.get("/api/explain/RRP-PL-6", headers=floor).json()
    assert e["kind"] == "citation" and "pot-limit.silent-overchip-is-pot-bet" in e["rules"]
    assert client.get("/api/explain/pot-limit.silent-overchip-is-pot-bet", headers=floor).json()["kind"] == "rule"
    assert client.get("/api/explain/NOPE-1", headers=floor).status_code == 404
    doc = client.get("/openapi.json", headers=floor).json()
    assert doc["openapi"].startswith("3.")
    from rulings.service.api.app import ROUTES
    served = {(r.path.replace(":int", ""), m.lower()) for r in ROUTES for m in (r.methods or ()) if m != "HEAD"}
    documented = {(p, m) for p, ops in doc["paths"].items() for m in ops}
    assert served == documented


def test_every_route_but_health_needs_an_account(client, svc):
    from rulings.service.api.app import ROUTES
    assert client.get("/health").json()["status"] == "ok"
    before = count_entries(svc)
    for route in ROUTES:
        if route.path in ("/health", "/api/login"):
            continue
        path = route.path.replace("{id:int}", "1").replace("{name}", "standard").replace("{what}", "RRP-PL-6")
        for method in route.methods - {"HEAD"}:
            r = client.request(method, path, json={"incident": overchip()})
            assert r.status_code == 401, (method, path)
            assert r.json()["error"]["code"] == "auth"
    bad = {"Authorization": "Bearer not-a-token"}
    assert _rule(client, bad).status_code == 401
    assert count_entries(svc) == before


def test_roles(client, svc):
    floor, manager, admin = login(client, "fiona"), login(client, "manny"), login(client, "ada")
    assert client.get("/api/accounts", headers=floor).status_code == 403
    assert client.get("/api/accounts", headers=manager).status_code == 403
    names = [a["username"] for a in client.get("/api/accounts", headers=admin).json()["accounts"]]
    assert names == ["ada", "fiona", "manny", "otto"]
    r = client.post("/api/accounts", json={"username": "newbie", "password": "pw-123456", "role": "floor"},
                    headers=manager)
    assert r.status_code == 403
    r = client.post("/api/accounts", json={"username": "newbie", "password": "pw-123456", "role": "boss"},
                    headers=admin)
    assert r.status_code == 422 and "boss" in r.text
    r = client.post("/api/accounts", json={"username": "newbie", "password": "pw-123456", "role": "floor"},
                    headers=admin)
    assert r.status_code == 201
    assert client.post("/api/login", json={"username": "newbie", "password": "pw-123456"}).status_code == 200
    # a floor account records only in its own room
    assert _rule(client, floor, room="riverside").status_code == 403
    assert _rule(client, manager, room="riverside").json()["entry"]["room"] == "riverside"


def test_logins_are_limited_and_sessions_end(client, svc):
    manager = login(client, "manny")
    for _ in range(5):
        assert client.post("/api/login", json={"username": "fiona", "password": "wrong"}).status_code == 401
    r = client.post("/api/login", json={"username": "fiona", "password": PASSWORDS["fiona"]})
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 0    # from this address even the right one waits
    r = client.post("/api/login", json={"username": "manny", "password": PASSWORDS["manny"]})
    assert r.status_code == 200                                           # another name from it is not held
    assert client.post("/api/logout", headers=manager).status_code == 204
    assert client.get("/api/me", headers=manager).status_code == 401     # revoked


def test_attempts_sent_at_once_are_counted_before_the_password_is_checked(svc):
    """Twelve wrong passwords for one name from one address in parallel: at most five are checked, the rest
    refused unchecked; from twelve other addresses each is checked (a name is never held from elsewhere)."""
    from concurrent.futures import ThreadPoolExecutor
    from rulings.service.store.auth import AuthError

    def attempt(n: int) -> int:
        try:
            svc.auth.login("fiona", "wrong-password", "10.0.0.1")
        except AuthError as exc:
            return exc.status
        return 200

    with ThreadPoolExecutor(12) as pool:
        statuses = sorted(pool.map(attempt, range(12)))
    assert statuses.count(401) <= 5 and statuses.count(429) >= 7 and set(statuses) <= {401, 429}
    elsewhere = [svc.auth.login("fiona", PASSWORDS["fiona"], f"10.0.1.{n}")[2].username for n in range(3)]
    assert elsewhere == ["fiona"] * 3


def test_session_expiry(tmp_path):
    from rulings.service.api.app import create_app
    svc = make_service(tmp_path, "sqlite", session_hours=-1)              # every session already expired
    with TestClient(create_app(service=svc)) as c:
        r = c.post("/api/login", json={"username": "fiona", "password": PASSWORDS["fiona"]})
        assert r.status_code == 200
        c.cookies.clear()
        assert c.get("/api/me", headers={"Authorization": f"Bearer {r.json()['token']}"}).status_code == 401
    svc.close()


def test_cookie_session(client):
    r = client.post("/api/login", json={"username": "fiona", "password": PASSWORDS["fiona"]})
    assert "httponly" in r.headers["set-cookie"].lower() and "samesite=strict" in r.headers["set-cookie"].lower()
    assert client.get("/api/me").json()["username"] == "fiona"            # the cookie alone


@pytest.mark.parametrize("backend", BACKENDS)
def test_migrations_upgrade_in_place(tmp_path, backend):
    """A log made by an earlier version (schema 0001) is upgraded at start and keeps every entry."""
    from rulings.service.store import db
    from rulings.service.core import Config, Service
    database = __import__("service_support").database_for(backend)
    url = db.database_url(database, tmp_path / "data")
    old = db.make_engine(url)
    db.migrate(old, "0001")
    assert db.revision(old) == "0001"
    with old.begin() as conn:
        conn.execute(db.entries.insert().values(kind="ruling", at="2026-01-02T03:04:05.000000Z", room="main",
                                                table_name="4", floorperson="fiona", rules="", topics="",
                                                citations="", report='{"rulings":[]}'))
    old.dispose()
    svc = Service(Config(data_dir=tmp_path / "data", database=database))
    assert db.revision(svc.engine) == "0006"
    indexes = {i["name"] for i in sa.inspect(svc.engine).get_indexes("entries")}
    assert {"entries_floorperson_at", "entries_consultation", "entries_request_once"} <= indexes
    kept = svc.log.get(1)
    assert kept["table"] == "4" and kept["at"] == "2026-01-02T03:04:05.000000Z"
    assert kept["consultation"] is None and kept["trail"] == []          # the new column, empty for old entries
    assert {"consult_steps", "login_failures", "ruling_keys"} <= set(sa.inspect(svc.engine).get_table_names())
    svc.close()


def test_first_admin_printed_once(tmp_path):
    from rulings.service.api.app import admin_password_if_none
    from rulings.service.core import Config, Service
    from rulings.service.store.auth import Auth
    svc = Service(Config(data_dir=tmp_path / "d"))
    password = admin_password_if_none(svc)
    assert password and admin_password_if_none(svc) is None
    assert Auth(svc.engine).login("admin", password, "here")[2].role == "admin"
    svc.close()


def test_users_add_command(tmp_path, monkeypatch, capsys):
    import sys
    from cli.main import main
    monkeypatch.setattr(sys, "stdin", io.StringIO("a-long-password\n"))
    assert main(["users", "add", "zoe", "--role", "manager", "--room", "east", "--data", str(tmp_path),
                 "--password-stdin"]) == 0
    # which database it wrote to, said (a service on another one will not know the account: issue 45)
    assert f"created in SQLite {(tmp_path / 'rulings.db').resolve()}" in capsys.readouterr().out
    assert main(["users", "list", "--data", str(tmp_path)]) == 0
    assert "zoe" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO("short\n"))
    assert main(["users", "add", "zed", "--role", "floor", "--data", str(tmp_path), "--password-stdin"]) == 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_podiums_share_one_log(tmp_path, backend):
    """Two services (two podiums) on one database record at once; every ruling lands once, with its own id."""
    from concurrent.futures import ThreadPoolExecutor
    from rulings.service.core import Config, Service
    from rulings.service.store.auth import Account
    first = make_service(tmp_path, backend)
    second = Service(Config(data_dir=tmp_path / "data", database=first.config.database))
    fiona = first.auth.account(first.auth.login("fiona", PASSWORDS["fiona"], "podium-1")[0])
    assert isinstance(fiona, Account)

    def record(i: int) -> int:
        svc = (first, second)[i % 2]
        incident = {**overchip(), "incident": f"hand-{i}"}
        out = svc.rule_and_record(fiona, incident=incident, table=str(i % 2 + 1), consult=False)
        return out["entry"]["id"]
    with ThreadPoolExecutor(8) as pool:
        ids = list(pool.map(record, range(40)))
    assert len(set(ids)) == 40
    for i, rid in enumerate(ids):
        entry = second.log.get(rid)
        assert entry["incident"]["incident"] == f"hand-{i}" and entry["table"] == str(i % 2 + 1)
    assert count_entries(first) == 40
    second.close()
    first.close()


def test_a_house_book_published_elsewhere_is_served_on_the_next_request(tmp_path):
    """Another worker or podium writes a new live version into the data folder: this service serves it next."""
    from service_support import ROOT
    svc = make_service(tmp_path, "sqlite")
    before = svc.books.get("east-coast-limit")
    text = (ROOT / "rulebooks" / "houses" / "east-coast-limit.yaml").read_text(encoding="utf-8")
    text = text.replace("raise_cap.max_raises: 4", "raise_cap.max_raises: 3")
    assert "raise_cap.max_raises: 3" in text
    folder = tmp_path / "data" / "houses" / "east-coast-limit"
    folder.mkdir(parents=True)
    (folder / "0001.yaml").write_text(text, encoding="utf-8")
    (folder / "current").write_text("0001.yaml\n", encoding="utf-8")
    after = svc.books.get("east-coast-limit")
    assert after.path == str(folder / "0001.yaml") and after.hash != before.hash
    assert after.book.param_values("cash")["raise_cap.max_raises"] == 3
    assert before.book.param_values("cash")["raise_cap.max_raises"] == 4
    assert svc.books.get("east-coast-limit") is after                  # loaded once, then kept warm
    svc.close()


def test_sqlite_log_is_made_at_first_start_with_wal_and_full_sync(tmp_path):
    from rulings.service.core import Config, Service
    data = tmp_path / "fresh" / "data"
    assert not data.exists()
    svc = Service(Config(data_dir=data))
    assert (data / "rulings.db").exists()
    with svc.engine.connect() as conn:
        assert conn.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(sa.text("PRAGMA synchronous")).scalar() == 2        # FULL: every commit synced
    svc.close()


def test_serve_refuses_a_database_it_cannot_reach_in_one_line(tmp_path, capsys):
    from cli.main import main
    missing = tmp_path / "no-socket-here"
    assert main(["serve", "--database", f"postgresql://nobody@/nodb?host={missing}", "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rulings: cannot open the database: OperationalError") and err.count("\n") == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_date_filter_counts_the_rooms_days_not_utc_days(tmp_path, backend):
    """A room in America/New_York (EST, UTC-5 in December) and riverside in America/Los_Angeles (PST, UTC-8): a
    ruling at 23:30 EST on 1 December is stored 04:30 UTC on the 2nd and belongs to the 1st; one at midnight
    EST belongs to the 2nd. The API's search and export and the podium's log page count days alike."""
    import re
    from service_support import accounts_of, form_client, logged_at
    from rulings.service.api.app import create_app
    svc = make_service(tmp_path, backend, time_zone="America/New_York",
                       room_zones={"riverside": "America/Los_Angeles"})
    try:
        acct = accounts_of(svc)
        at = {"nov30_late": "2026-12-01T04:59:59.999999Z", "dec1_midnight": "2026-12-01T05:00:00.000000Z",
              "dec1_late": "2026-12-02T04:30:00.000000Z", "dec2_midnight": "2026-12-02T05:00:00.000000Z"}
        ids = {name: logged_at(svc, acct["fiona"], overchip(), when, "3") for name, when in at.items()}
        ids["riverside"] = logged_at(svc, acct["otto"], overchip(), "2026-12-02T07:30:00.000000Z", "1")  # 23:30 PST
        with TestClient(create_app(service=svc), raise_server_exceptions=False) as client:
            floor, manager, other = login(client, "fiona"), login(client, "manny"), login(client, "otto")
            found = lambda query, who: [e["id"] for e in client.get("/api/log?" + query, headers=who).json()["entries"]]  # noqa: E731
            dec1 = "date_from=2026-12-01&date_to=2026-12-01"
            assert found(dec1, floor) == [ids["dec1_late"], ids["dec1_midnight"]]       # UTC days: nov30_late, not dec1_late
            assert found("date_from=2026-12-02", floor) == [ids["dec2_midnight"]]
            assert found("date_to=2026-11-30", floor) == [ids["nov30_late"]]
            assert found(dec1, other) == [ids["riverside"]]                              # 07:30 UTC is 23:30 in LA
            assert found(dec1 + "&room=riverside", manager) == [ids["riverside"]]
            assert found(dec1 + "&room=main", manager) == [ids["dec1_late"], ids["dec1_midnight"]]
            assert found(dec1, manager) == [ids["riverside"], ids["dec1_late"], ids["dec1_midnight"]]  # each room's clock
            exported = client.get("/api/log/export?format=csv&" + dec1, headers=floor).text
            assert [int(row["id"]) for row in csv.DictReader(io.StringIO(exported))] == [ids["dec1_midnight"],
                                                                                          ids["dec1_late"]]
        page = form_client(create_app(service=svc))
        page.post("/podium/login", data={"username": "fiona", "password": PASSWORDS["fiona"], "next": "/podium"})
        listed = page.get("/podium/log", params={"date_from": "2026-12-01", "date_to": "2026-12-01"}).text
        assert re.findall(r'aria-label="Open ruling (\d+)"', listed) == [str(ids["dec1_late"]),
                                                                        str(ids["dec1_midnight"])]
        assert "2026-12-01 23:30 EST" in listed and "2026-12-01 00:00 EST" in listed
    finally:
        svc.close()
