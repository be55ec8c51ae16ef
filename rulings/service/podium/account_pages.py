"""The accounts page, for admins: every account of the service; add one, disable or enable it, reset its
password, set its role and its room (rulings/service/auth.py does the work; policy: docs/service.md).

Admins are not scoped by room (as the JSON API's ``/api/accounts`` lists every room's accounts): an admin
manages the accounts of every room the service serves. Every form carries the page's CSRF token and is
checked by ``pages.page`` like every other podium form.
"""
from __future__ import annotations

from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from rulings.service.store import auth
from rulings.service.podium.kit import account_of, first, form_data, login_redirect, page, refuse, render

DONE = {"added": "Account {name} added.", "disabled": "Account {name} disabled: its sessions have ended.",
        "enabled": "Account {name} enabled.", "password": "The password of {name} is reset: its old password "
        "and its sessions no longer work.", "role": "The role of {name} is changed.",
        "room": "The room of {name} is changed."}
ROLE_WORDS = {"floor": "floor — rules, consults, records",
              "manager": "manager — also house books, corrections, every room's log",
              "admin": "admin — also accounts"}


def _admin(request: Request) -> tuple[dict, Response | None]:
    """The admin's account, and None; or the refusal to show instead (with no account: ``{}``)."""
    account = account_of(request)
    if account is None:
        return {}, login_redirect(request)
    if account["role"] != "admin":
        return account, refuse(request, "Admins only", "Accounts are managed by an admin. Your account ("
                               f"{account['role']}) cannot open this page.", 403)
    return account, None


def _engine(request: Request):
    return request.app.state.service.engine


def _show(request: Request, account: dict, status: int = 200, error: str = "", done: str = "",
          form: dict | None = None) -> Response:
    rows = auth.list_accounts(_engine(request))
    rooms = sorted({r["room"] for r in rows} | {account["room"] or "main"})
    return render(request, "accounts.html", status=status, nav="accounts", rows=rows, rooms=rooms,
                  roles=list(auth.ROLES), role_words=ROLE_WORDS, error=error, done=done, me=account["username"],
                  f=form or {"role": "floor", "room": account["room"] or "main", "username": ""},
                  admins=sum(1 for r in rows if r["role"] == "admin" and not r["disabled"]))


def accounts_page(request: Request) -> Response:
    account, refused = _admin(request)
    if refused:
        return refused
    done = ""
    what, name = request.query_params.get("done", ""), request.query_params.get("name", "")
    if what in DONE and not auth.check_name(name):
        done = DONE[what].format(name=name)
    return _show(request, account, done=done)


def _done(what: str, name: str) -> RedirectResponse:
    return RedirectResponse(f"/podium/accounts?done={what}&name={quote(name)}", status_code=303)


def account_add(request: Request) -> Response:
    account, refused = _admin(request)
    if refused:
        return refused
    form = form_data(request)
    name, password = first(form, "username").strip(), first(form, "password")
    role, room = first(form, "role"), first(form, "room").strip() or "main"
    if password != first(form, "again"):
        return _show(request, account, 422, "The two passwords differ; nothing was changed.",
                     form={"username": name, "role": role, "room": room})
    try:
        auth.add_account(_engine(request), name, password, role, room)
    except ValueError as exc:
        return _show(request, account, 422, f"Not added: {exc}.", form={"username": name, "role": role, "room": room})
    return _done("added", name)


def account_change(request: Request) -> Response:
    """One change to one account: ``go`` is disable, enable, password, role or room."""
    account, refused = _admin(request)
    if refused:
        return refused
    form = form_data(request)
    name, go = request.path_params["name"], first(form, "go")
    changes: dict = {}
    if go in ("disable", "enable"):
        changes["disabled"] = go == "disable"
    elif go == "password":
        if first(form, "password") != first(form, "again"):
            return _show(request, account, 422, f"The two passwords for {name} differ; nothing was changed.")
        changes["password"] = first(form, "password")
    elif go == "role":
        changes["role"] = first(form, "role")
    elif go == "room":
        changes["room"] = first(form, "room").strip()
    else:
        return _show(request, account, 422, "Choose what to change; nothing was changed.")
    try:
        auth.update_account(_engine(request), name, by=account["username"], **changes)
    except LookupError:
        return refuse(request, "No such account", f"There is no account '{name[:64]}'.", 404)
    except ValueError as exc:
        return _show(request, account, 422, f"{name}: not changed: {exc}.")
    request.app.state.service.auth.forget()      # this worker checks every session again at once
    return _done({"disable": "disabled", "enable": "enabled"}.get(go, go), name)


def routes() -> list:
    return [
        Route("/podium/accounts", page(accounts_page), methods=["GET"]),
        Route("/podium/accounts", page(account_add), methods=["POST"]),
        Route("/podium/accounts/{name}", page(account_change), methods=["POST"]),
    ]
