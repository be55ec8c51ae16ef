"""A request's login: the session token it carries (bearer header or cookie) and the account behind it, looked
up once per request; ``require`` refuses a request without the role it needs. The web side of store/auth.py."""
from __future__ import annotations

from starlette.concurrency import run_in_threadpool

from rulings.service.store.auth import COOKIE, Account, AuthError


def token_of(request) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return request.cookies.get(COOKIE)


def current_account(request) -> Account | None:
    """The account behind the request's bearer token or session cookie, or None."""
    cached = request.scope.get("rulings.account", False)
    if cached is not False:
        return cached
    account = request.app.state.service.auth.account(token_of(request))
    request.scope["rulings.account"] = account
    return account


async def look_up(request) -> None:
    """Settle the request's account before ``require``, asking the database in a thread when it must be asked.

    ``require`` is called on the event loop; a session looked up there (once a second per token) held every
    other request of the worker for a round trip to the database (on PostgreSQL, over a socket). The busiest
    requests (POST /api/rule, /api/consult) call this first.
    """
    if request.scope.get("rulings.account", False) is not False:
        return
    token = token_of(request)
    auth = request.app.state.service.auth
    if not auth.known(token):
        request.scope["rulings.account"] = await run_in_threadpool(auth.account, token)


def require(request, role: str = "floor") -> Account:
    """The request's account if it has at least ``role``; AuthError 401/403 otherwise."""
    account = current_account(request)
    if account is None:
        raise AuthError(401, "auth", "log in first: POST /api/login, then send the token "
                                     "(Authorization: Bearer TOKEN) or the session cookie")
    if not account.may(role):
        raise AuthError(403, "role", f"this needs the {role} role; the account '{account.username}' is {account.role}")
    return account
