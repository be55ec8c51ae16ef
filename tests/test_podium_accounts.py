"""The accounts page for admins, on SQLite and on a real PostgreSQL (the ``svc`` fixture): add, disable and
enable, reset a password, set the role and the room; only an admin sees or uses it; every form carries the
CSRF token and is refused without it."""
from __future__ import annotations

import re

import pytest

from service_support import PASSWORDS, form_client


def _app(svc):
    from rulings.service.api.app import create_app
    return create_app(service=svc)


def _logged_in(svc, name: str, password: str | None = None):
    c = form_client(_app(svc))
    r = c.post("/podium/login", data={"username": name, "password": password or PASSWORDS[name], "next": "/podium"})
    assert r.status_code == 200 and r.url.path == "/podium", r.text
    return c


def _can_log_in(svc, name: str, password: str) -> bool:
    c = form_client(_app(svc))
    r = c.post("/podium/login", data={"username": name, "password": password, "next": "/podium"},
               follow_redirects=False)
    assert r.status_code in (303, 401), r.status_code
    return r.status_code == 303


def _accounts(svc) -> dict:
    from rulings.service.store.auth import list_accounts
    return {a["username"]: a for a in list_accounts(svc.engine)}


def test_only_an_admin_sees_or_uses_the_accounts_page(svc):
    for name in ("fiona", "manny"):
        c = _logged_in(svc, name)
        assert c.get("/podium/accounts").status_code == 403
        assert 'href="/podium/accounts"' not in c.get("/podium/log").text      # not in the menu either
        token = c.csrf()
        r = c.post("/podium/accounts", data={"username": "eve", "password": "eve-pass-123", "again": "eve-pass-123",
                                             "role": "admin", "room": "main", "csrf": token})
        assert r.status_code == 403
        r = c.post("/podium/accounts/ada", data={"go": "disable", "csrf": token})
        assert r.status_code == 403
    assert "eve" not in _accounts(svc) and not _accounts(svc)["ada"]["disabled"]
    anonymous = form_client(_app(svc))
    r = anonymous.get("/podium/accounts", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/login")
    a = _logged_in(svc, "ada")
    page = a.get("/podium/accounts")
    assert page.status_code == 200 and 'href="/podium/accounts"' in page.text
    for name in ("fiona", "manny", "ada", "otto"):     # every room's accounts: otto is in riverside
        assert f'id="a-{name}"' in page.text
    assert "room riverside" in page.text


def test_every_form_on_the_page_carries_the_token_and_a_forged_one_changes_nothing(svc):
    a = _logged_in(svc, "ada")
    page = a.get("/podium/accounts").text
    forms = re.findall(r'<form[^>]*method="post".*?</form>', page, re.S)
    assert len(forms) == 1 + 4 * 4 + 1 and all('name="csrf"' in f for f in forms)     # logout, 4 per account, add
    for data, headers in (({"go": "disable", "csrf": ""}, {}),
                          ({"go": "disable", "csrf": a.csrf()}, {"Origin": "http://testserver:8081"}),
                          ({"go": "disable", "csrf": _logged_in(svc, "fiona").csrf()}, {})):
        r = a.post("/podium/accounts/fiona", data=data, headers=headers)
        assert r.status_code == 403
    assert not _accounts(svc)["fiona"]["disabled"] and _can_log_in(svc, "fiona", PASSWORDS["fiona"])


def test_an_admin_adds_a_floor_account_who_then_logs_in_in_his_room(svc):
    a = _logged_in(svc, "ada")
    r = a.post("/podium/accounts", data={"username": "dora", "password": "dora-pass-1", "again": "dora-pass-1",
                                         "role": "floor", "room": "riverside"})
    assert r.status_code == 200 and r.url.path == "/podium/accounts"
    assert "Account dora added." in r.text
    dora = _accounts(svc)["dora"]
    assert (dora["role"], dora["room"], dora["disabled"]) == ("floor", "riverside", False)
    from rulings.service.store import db
    import sqlalchemy as sa
    with svc.engine.connect() as conn:    # hashed as every account is (Argon2id), never the password itself
        stored = conn.execute(sa.select(db.accounts.c.password_hash).where(db.accounts.c.username == "dora")).scalar()
    assert stored.startswith("$argon2id$") and "dora-pass-1" not in stored
    d = _logged_in(svc, "dora", "dora-pass-1")
    assert "dora (floor, room riverside)" in d.get("/podium").text


@pytest.mark.parametrize("data, words", [
    ({"username": "dora", "password": "short", "again": "short", "role": "floor", "room": "main"}, "at least 8"),
    ({"username": "dora", "password": "dora-pass-1", "again": "dora-pass-2", "role": "floor", "room": "main"},
     "differ"),
    ({"username": "fiona", "password": "dora-pass-1", "again": "dora-pass-1", "role": "floor", "room": "main"},
     "already an account"),
    ({"username": "do ra", "password": "dora-pass-1", "again": "dora-pass-1", "role": "floor", "room": "main"},
     "letters, digits"),
    ({"username": "dora", "password": "dora-pass-1", "again": "dora-pass-1", "role": "owner", "room": "main"},
     "not one of"),
    ({"username": "dora", "password": "dora-pass-1", "again": "dora-pass-1", "role": "floor", "room": "<b>"},
     "a room name"),
])
def test_an_account_that_cannot_be_added_is_said_why_and_nothing_is_added(svc, data, words):
    a = _logged_in(svc, "ada")
    before = _accounts(svc)
    r = a.post("/podium/accounts", data=data)
    assert r.status_code == 422 and words in r.text and "<b>" not in r.text
    assert _accounts(svc) == before


def test_a_disabled_account_cannot_log_in_and_its_open_session_ends(svc):
    f = _logged_in(svc, "fiona")
    assert f.get("/podium/log").status_code == 200
    a = _logged_in(svc, "ada")
    r = a.post("/podium/accounts/fiona", data={"go": "disable"})
    assert r.status_code == 200 and "Account fiona disabled" in r.text and _accounts(svc)["fiona"]["disabled"]
    r = f.get("/podium/log", follow_redirects=False)              # her open page: sent back to the login
    assert r.status_code == 303 and r.headers["location"].startswith("/login")
    assert not _can_log_in(svc, "fiona", PASSWORDS["fiona"])
    r = a.post("/podium/accounts/fiona", data={"go": "enable"})
    assert "Account fiona enabled." in r.text and _can_log_in(svc, "fiona", PASSWORDS["fiona"])


def test_a_reset_password_works_the_old_one_does_not_and_the_old_sessions_end(svc):
    m = _logged_in(svc, "manny")
    a = _logged_in(svc, "ada")
    r = a.post("/podium/accounts/manny", data={"go": "password", "password": "new-manny-pass", "again": "other"})
    assert r.status_code == 422 and "differ" in r.text and _can_log_in(svc, "manny", PASSWORDS["manny"])
    r = a.post("/podium/accounts/manny", data={"go": "password", "password": "new-manny-pass",
                                               "again": "new-manny-pass"})
    assert r.status_code == 200 and "The password of manny is reset" in r.text
    assert m.get("/podium/books", follow_redirects=False).status_code == 303     # his session ended
    assert not _can_log_in(svc, "manny", PASSWORDS["manny"])
    assert _can_log_in(svc, "manny", "new-manny-pass")


def test_setting_the_role_and_the_room_takes_effect_on_the_next_page(svc):
    f = _logged_in(svc, "fiona")
    assert f.get("/podium/books").status_code == 403
    a = _logged_in(svc, "ada")
    assert a.post("/podium/accounts/fiona", data={"go": "role", "role": "manager"}).status_code == 200
    assert a.post("/podium/accounts/fiona", data={"go": "room", "room": "riverside"}).status_code == 200
    assert (_accounts(svc)["fiona"]["role"], _accounts(svc)["fiona"]["room"]) == ("manager", "riverside")
    page = f.get("/podium/books")       # the same session, the new role and room
    assert page.status_code == 200 and "fiona (manager, room riverside)" in page.text
    r = a.post("/podium/accounts/fiona", data={"go": "role", "role": "owner"})
    assert r.status_code == 422 and "not one of" in r.text and _accounts(svc)["fiona"]["role"] == "manager"
    r = a.post("/podium/accounts/nobody", data={"go": "role", "role": "floor"})
    assert r.status_code == 404


def test_the_service_keeps_an_admin_who_can_log_in(svc):
    a = _logged_in(svc, "ada")
    for data in ({"go": "disable"}, {"go": "role", "role": "manager"}):
        r = a.post("/podium/accounts/ada", data=data)        # herself, and the last admin
        assert r.status_code == 422 and "not changed" in r.text
    assert _accounts(svc)["ada"]["role"] == "admin" and not _accounts(svc)["ada"]["disabled"]
    a.post("/podium/accounts", data={"username": "abe", "password": "abe-pass-12", "again": "abe-pass-12",
                                     "role": "admin", "room": "riverside"})
    b = _logged_in(svc, "abe", "abe-pass-12")
    r = b.post("/podium/accounts/ada", data={"go": "role", "role": "manager"})     # another admin may
    assert r.status_code == 200 and _accounts(svc)["ada"]["role"] == "manager"
    assert a.get("/podium/accounts").status_code == 403                            # at once, for her
    r = b.post("/podium/accounts/abe", data={"go": "disable"})
    assert r.status_code == 422 and not _accounts(svc)["abe"]["disabled"]
