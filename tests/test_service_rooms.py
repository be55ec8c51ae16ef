"""Rooms of a chain: every ruling carries its room; a manager sees the same dispute's earlier rulings in every
room (``rooms=all``), a floor account only its own room's; a room given a book of its own has managers who
change only that book (an admin changes any). On SQLite and a real PostgreSQL."""
from __future__ import annotations

import warnings

import pytest

from service_support import BACKENDS, PASSWORDS, accounts_of, form_client, logged_at, login, make_service, overchip

OVERCHIP = "pot-limit.silent-overchip-is-pot-bet"


@pytest.fixture(params=BACKENDS)
def svc(request, tmp_path):
    s = make_service(tmp_path, request.param)
    yield s
    s.close()


def _api(svc):
    from rulings.service.api.app import create_app
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    return TestClient(create_app(service=svc))


def test_a_manager_sees_the_same_dispute_in_every_room_a_floor_account_only_its_own(svc):
    acct = accounts_of(svc)
    main = logged_at(svc, acct["fiona"], overchip(), "2026-11-29T22:10:05.000000Z", "3")
    river = logged_at(svc, acct["otto"], overchip(), "2026-11-30T01:00:00.000000Z", "1")
    now = logged_at(svc, acct["fiona"], overchip(), "2026-11-30T09:15:00.000000Z", "4")
    assert svc.log.get(river, acct["manny"])["room"] == "riverside"          # a ruling carries its room
    client = _api(svc)
    manny, fiona = login(client, "manny"), login(client, "fiona")
    q = {"rule": OVERCHIP, "matter": "wager"}
    room = client.get("/api/log/earlier", params=q, headers=manny).json()
    assert [(e["entry"], e["room"]) for e in room["earlier"]] == [(now, "main"), (main, "main")]
    chain = client.get("/api/log/earlier", params={**q, "rooms": "all"}, headers=manny).json()
    assert chain["room"] is None
    assert [(e["entry"], e["room"]) for e in chain["earlier"]] == [(now, "main"), (river, "riverside"),
                                                                   (main, "main")]
    beside = client.get(f"/api/log/{now}/earlier", params={"rooms": "all"}, headers=manny).json()["rulings"]
    assert [e["room"] for e in beside[0]["earlier"]] == ["riverside", "main"]
    own = client.get(f"/api/log/{now}/earlier", headers=manny).json()["rulings"]
    assert [e["entry"] for e in own[0]["earlier"]] == [main]
    # a floor account: its own room's, never the chain's
    assert client.get("/api/log/earlier", params={**q, "rooms": "all"}, headers=fiona).status_code == 403
    assert client.get(f"/api/log/{now}/earlier", params={"rooms": "all"}, headers=fiona).status_code == 403
    assert client.get("/api/log/earlier", params={**q, "rooms": "some"}, headers=manny).status_code == 422


def _podium(svc, name: str):
    from rulings.service.api.app import create_app
    from rulings.service.store.auth import add_account
    if name == "rita":
        add_account(svc.engine, "rita", "river-manager-1", "manager", "riverside")
    c = form_client(create_app(service=svc))
    r = c.post("/podium/login", data={"username": name, "password": PASSWORDS.get(name, "river-manager-1"),
                                      "next": "/podium"})
    assert r.status_code == 200, r.text
    return c


def test_a_manager_whose_room_has_a_book_changes_only_that_book(svc, capsys):
    from cli.main import main
    url = svc.config.database
    where = ["--database", url] if url else ["--data", str(svc.config.data_dir)]
    assert main(["chain", "room-book", "riverside", "riverside-house", *where]) == 0
    assert "only riverside-house" in capsys.readouterr().out
    rita = _podium(svc, "rita")
    r = rita.get("/podium/books/east-coast-limit/edit")
    assert r.status_code == 403 and "riverside-house" in r.text
    assert rita.post("/podium/books/east-coast-limit/edit",
                     data={"text": "rulebook: east-coast-limit\n", "go": "check"}).status_code == 403
    assert rita.post("/podium/books/east-coast-limit/params", data={"p.kill.size": "half"}).status_code == 403
    assert rita.get("/podium/books/riverside-house/edit").status_code == 200
    # main has no book of its own: its manager changes any; an admin changes every room's
    assert _podium(svc, "manny").get("/podium/books/east-coast-limit/edit").status_code == 200
    assert _podium(svc, "ada").get("/podium/books/riverside-house/edit").status_code == 200
    assert main(["chain", "room-book", "riverside", "--none", *where]) == 0
    assert rita.get("/podium/books/east-coast-limit/edit").status_code == 200
    assert main(["chain", "room-book", "riverside", "Not A Name", *where]) == 2
