"""PATCH /api/accounts/{name}, an admin's change to one account through the JSON API, on SQLite and on a real
PostgreSQL: disable and enable, role, room and password; only an admin may (403 otherwise), of any room; the
service keeps an admin who can log in; every change is one audit line on the logger rulings.service.accounts."""
from __future__ import annotations

import logging
import warnings

import pytest

from service_support import BACKENDS, PASSWORDS, login, make_service

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

AUDIT = "rulings.service.accounts"


@pytest.fixture(params=BACKENDS)
def env(request, tmp_path):
    from rulings.service.api.app import create_app
    svc = make_service(tmp_path, request.param)
    with TestClient(create_app(service=svc), raise_server_exceptions=False) as client:
        client.admin = login(client, "ada")
        yield client, svc
    svc.close()


def _patch(client, name: str, body: dict, who: dict):
    return client.patch(f"/api/accounts/{name}", json=body, headers=who)


def _listed(client) -> dict:
    r = client.get("/api/accounts", headers=client.admin)
    assert r.status_code == 200, r.text
    return {a["username"]: a for a in r.json()["accounts"]}


def _logs_in(client, name: str, password: str) -> bool:
    r = client.post("/api/login", json={"username": name, "password": password})
    client.cookies.clear()
    assert r.status_code in (200, 401), r.text
    return r.status_code == 200


def _audited(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == AUDIT and r.levelno == logging.WARNING]


def test_disable_then_enable_an_account_of_another_room(env, caplog):
    client, _ = env
    caplog.set_level(logging.WARNING, logger=AUDIT)
    otto = login(client, "otto")                           # riverside; ada is an admin of main
    assert client.get("/api/me", headers=otto).status_code == 200
    r = _patch(client, "otto", {"disabled": True}, client.admin)
    assert r.status_code == 200, r.text
    assert r.json() == {**_listed(client)["otto"], "disabled": True}
    assert r.json()["room"] == "riverside" and r.json()["role"] == "floor"
    assert client.get("/api/me", headers=otto).status_code == 401          # his open session ended at once
    assert not _logs_in(client, "otto", PASSWORDS["otto"])
    assert _audited(caplog) == ["account otto: disabled False -> True; by ada (api)"]
    r = _patch(client, "otto", {"disabled": False}, client.admin)
    assert r.status_code == 200 and r.json()["disabled"] is False
    assert _logs_in(client, "otto", PASSWORDS["otto"])
    assert _audited(caplog)[1:] == ["account otto: disabled True -> False; by ada (api)"]


def test_a_role_change_takes_effect_on_the_next_request(env, caplog):
    client, _ = env
    caplog.set_level(logging.WARNING, logger=AUDIT)
    fiona = login(client, "fiona")
    assert client.get("/api/accounts", headers=fiona).status_code == 403
    r = _patch(client, "fiona", {"role": "admin", "room": "riverside"}, client.admin)
    assert r.status_code == 200, r.text
    assert (r.json()["role"], r.json()["room"]) == ("admin", "riverside")
    assert client.get("/api/accounts", headers=fiona).status_code == 200    # the same session, now an admin
    assert client.get("/api/me", headers=fiona).json()["room"] == "riverside"
    assert _audited(caplog) == ["account fiona: role floor -> admin; room main -> riverside; by ada (api)"]


def test_a_new_password_works_the_old_one_does_not_and_the_old_sessions_end(env, caplog):
    client, _ = env
    caplog.set_level(logging.WARNING, logger=AUDIT)
    manny = login(client, "manny")
    r = _patch(client, "manny", {"password": "a-new-pass-99"}, client.admin)
    assert r.status_code == 200, r.text
    assert "password" not in r.json() and "password_hash" not in r.json()
    assert client.get("/api/me", headers=manny).status_code == 401
    assert not _logs_in(client, "manny", PASSWORDS["manny"])
    assert _logs_in(client, "manny", "a-new-pass-99")
    said = _audited(caplog)
    assert said == ["account manny: password reset, sessions ended; by ada (api)"]
    assert "a-new-pass-99" not in caplog.text                               # never the password itself
    r = _patch(client, "manny", {"password": "short"}, client.admin)        # 8 characters at least
    assert r.status_code == 422 and "8 characters" in r.json()["error"]["message"]
    assert _logs_in(client, "manny", "a-new-pass-99") and len(_audited(caplog)) == 1


@pytest.mark.parametrize("name", ["fiona", "manny", "otto"])
def test_only_an_admin_changes_an_account(env, name, caplog):
    client, _ = env
    caplog.set_level(logging.WARNING, logger=AUDIT)
    who = login(client, name)
    before = _listed(client)
    for target, body in (("fiona", {"disabled": True}), ("otto", {"role": "admin"}), (name, {"role": "admin"})):
        r = _patch(client, target, body, who)
        assert r.status_code == 403, r.text
        assert r.json()["error"]["code"] == "role"
    assert client.patch("/api/accounts/fiona", json={"disabled": True}).status_code == 401   # no session at all
    assert _listed(client) == before and _audited(caplog) == []


def test_the_service_keeps_an_admin_who_can_log_in(env, caplog):
    client, svc = env
    caplog.set_level(logging.WARNING, logger=AUDIT)
    for body in ({"disabled": True}, {"role": "manager"}):       # herself, and the last admin
        r = _patch(client, "ada", body, client.admin)
        assert r.status_code == 422, r.text
        assert "demote his own account" in r.json()["error"]["message"]
    from rulings.service.store.auth import update_account
    with pytest.raises(ValueError, match="'ada' is the last admin who can log in"):
        update_account(svc.engine, "ada", by="a-script", disabled=True)
    assert _listed(client)["ada"]["role"] == "admin" and not _listed(client)["ada"]["disabled"]
    assert _audited(caplog) == []
    assert client.post("/api/accounts", headers=client.admin, json={
        "username": "abe", "password": "abe-pass-12", "role": "admin", "room": "riverside"}).status_code == 201
    abe = login_as(client, "abe", "abe-pass-12")
    r = _patch(client, "ada", {"role": "manager"}, abe)                 # another admin may
    assert r.status_code == 200 and r.json()["role"] == "manager"
    assert client.get("/api/accounts", headers=client.admin).status_code == 403   # at once, for her
    r = _patch(client, "abe", {"disabled": True}, abe)                  # now the last admin
    assert r.status_code == 422 and not _listed_by(client, abe)["abe"]["disabled"]
    assert _audited(caplog) == ["account ada: role admin -> manager; by abe (api)"]


def test_an_unknown_account_or_change_is_refused_and_nothing_changes(env, caplog):
    client, _ = env
    caplog.set_level(logging.WARNING, logger=AUDIT)
    before = _listed(client)
    r = _patch(client, "nobody", {"disabled": True}, client.admin)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    for body, field in (({"role": "owner"}, "account"), ({"room": "the back room"}, "account"),
                        ({"disabled": "yes"}, "disabled"), ({"username": "fi"}, "username"), ({}, "disabled")):
        r = _patch(client, "fiona", body, client.admin)
        assert r.status_code == 422, (body, r.text)
        assert field in [p["path"][0] for p in r.json()["error"]["problems"]], (body, r.text)
    r = _patch(client, "fiona", {"role": "owner"}, client.admin)
    assert "floor, manager, admin" in r.json()["error"]["message"]
    assert _listed(client) == before and _audited(caplog) == []


def login_as(client, name: str, password: str) -> dict:
    r = client.post("/api/login", json={"username": name, "password": password})
    assert r.status_code == 200, r.text
    client.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


def _listed_by(client, who: dict) -> dict:
    return {a["username"]: a for a in client.get("/api/accounts", headers=who).json()["accounts"]}
