"""Accounts, roles, sessions and login limits.

Passwords are hashed with Argon2id (argon2-cffi, memory-hard). A login gives a
random token; only its SHA-256 is stored, with an expiry. Roles rank floor <
manager < admin: each route names the least role it needs. Failed logins are
counted per account name and per client address; over the limit, logins are
refused for the rest of the window without even checking the password.
"""
from __future__ import annotations

from typing import Any

import hashlib
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from rulings.service import db

ROLES = ("floor", "manager", "admin")
RANK = {r: i for i, r in enumerate(ROLES)}
COOKIE = "rulings_session"



class _Hasher:
    """Argon2id with argon2-cffi's defaults (64 MiB, 3 passes), made on first use.

    RULINGS_ARGON2_MEMORY_KIB and RULINGS_ARGON2_TIME lower the cost where
    speed matters more than strength (the test suite); a hash keeps its own
    parameters, so verifying always uses the ones it was made with.
    """

    _ph: PasswordHasher | None = None
    _dummy: str | None = None

    def get(self) -> PasswordHasher:
        if self._ph is None:
            import os
            kwargs: dict[str, Any] = {}
            if os.environ.get("RULINGS_ARGON2_MEMORY_KIB"):
                kwargs["memory_cost"] = int(os.environ["RULINGS_ARGON2_MEMORY_KIB"])
            if os.environ.get("RULINGS_ARGON2_TIME"):
                kwargs["time_cost"] = int(os.environ["RULINGS_ARGON2_TIME"])
            self._ph = PasswordHasher(**kwargs)
            self._dummy = self._ph.hash("not a password anyone has")
        return self._ph

    def hash(self, password: str) -> str:
        return self.get().hash(password)

    def verify(self, hashed: str | None, password: str) -> None:
        self.get().verify(hashed or self._dummy, password)


_HASHER = _Hasher()


class AuthError(Exception):
    """401 (no valid session, wrong password), 403 (role) or 429 (too many attempts)."""

    def __init__(self, status: int, code: str, message: str, retry_after: int | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.retry_after = status, code, message, retry_after


@dataclass(frozen=True)
class Account:
    id: int
    username: str
    role: str
    room: str

    def may(self, role: str) -> bool:
        return RANK[self.role] >= RANK[role]

    def to_json(self) -> dict:
        return {"username": self.username, "role": self.role, "room": self.room}


def check_name(username: str) -> str | None:
    """Why an account name is not acceptable, or None."""
    if not isinstance(username, str) or not 1 <= len(username) <= 64:
        return "an account name is 1 to 64 characters"
    if not all(c.isalnum() or c in "._-@" for c in username):
        return "an account name has letters, digits and . _ - @ only"
    return None


def add_account(engine: sa.Engine, username: str, password: str, role: str, room: str = "main") -> Account:
    why = check_name(username)
    if why:
        raise ValueError(why)
    if role not in ROLES:
        raise ValueError(f"role '{role}' is not one of: {', '.join(ROLES)}")
    if not isinstance(password, str) or len(password) < 8:
        raise ValueError("a password has at least 8 characters")
    with engine.begin() as conn:
        if conn.execute(sa.select(db.accounts.c.id).where(db.accounts.c.username == username)).first():
            raise ValueError(f"there is already an account '{username}'")
        result = conn.execute(db.accounts.insert().values(
            username=username, role=role, room=room, password_hash=_HASHER.hash(password),
            created_at=db.now(), disabled=False))
        return Account(result.inserted_primary_key[0], username, role, room)


def list_accounts(engine: sa.Engine) -> list[dict]:
    with engine.connect() as conn:
        rows = conn.execute(sa.select(db.accounts).order_by(db.accounts.c.username)).mappings().all()
    return [{"username": r["username"], "role": r["role"], "room": r["room"], "disabled": r["disabled"],
             "created_at": r["created_at"]} for r in rows]


def has_admin(engine: sa.Engine) -> bool:
    with engine.connect() as conn:
        return conn.execute(sa.select(db.accounts.c.id).where(db.accounts.c.role == "admin")).first() is not None


class Limiter:
    """At most ``attempts`` failed logins per key in ``window`` seconds."""

    def __init__(self, attempts: int = 5, window: float = 60.0):
        self.attempts, self.window = attempts, window
        self._failures: dict[str, deque] = {}
        self._lock = threading.Lock()

    def wait(self, *keys: str) -> int:
        """Seconds until a login may be tried again for these keys (0: now)."""
        now = time.monotonic()
        with self._lock:
            worst = 0.0
            for key in keys:
                q = self._failures.get(key)
                while q and now - q[0] > self.window:
                    q.popleft()
                if q and len(q) >= self.attempts:
                    worst = max(worst, self.window - (now - q[0]))
            return int(worst) + 1 if worst else 0

    def fail(self, *keys: str) -> None:
        now = time.monotonic()
        with self._lock:
            if len(self._failures) > 50_000:   # many names tried: forget the ones whose window has passed
                self._failures = {k: q for k, q in self._failures.items() if q and now - q[-1] <= self.window}
            for key in keys:
                self._failures.setdefault(key, deque()).append(now)


class Auth:
    """Logins and sessions against one database."""

    def __init__(self, engine: sa.Engine, session_hours: float = 12.0, limiter: Limiter | None = None):
        self.engine = engine
        self.ttl = timedelta(hours=session_hours)
        self.limiter = limiter or Limiter()
        self._cache: dict[str, tuple[float, Account | None]] = {}

    CACHE_SECONDS = 5.0

    def login(self, username: str, password: str, client: str) -> tuple[str, str, Account]:
        keys = (f"name:{username}", f"client:{client}")
        wait = self.limiter.wait(*keys)
        if wait:
            raise AuthError(429, "rate_limited", "too many failed logins; try again later", wait)
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(db.accounts).where(db.accounts.c.username == username)).mappings().first()
        try:
            _HASHER.verify(row["password_hash"] if row else None, password)
            ok = row is not None and not row["disabled"]
        except (VerificationError, InvalidHashError):
            ok = False
        if not ok:
            self.limiter.fail(*keys)
            raise AuthError(401, "auth", "wrong account name or password")
        token = secrets.token_urlsafe(32)
        created = datetime.now(timezone.utc)
        expires = (created + self.ttl).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        with self.engine.begin() as conn:
            conn.execute(db.sessions.delete().where(db.sessions.c.expires_at < db.now()))   # sessions long over
            conn.execute(db.sessions.insert().values(token_hash=_digest(token), account_id=row["id"],
                                                     created_at=db.now(), expires_at=expires, revoked=False))
        return token, expires, Account(row["id"], row["username"], row["role"], row["room"])

    def account(self, token: str | None) -> Account | None:
        """The account of a live session. Looked up in the database at most every CACHE_SECONDS per token
        (a logout in this process takes effect at once; one in another process within that time)."""
        if not token:
            return None
        key = _digest(token)
        now = time.monotonic()
        hit = self._cache.get(key)
        if hit and now - hit[0] < self.CACHE_SECONDS:
            return hit[1]
        account = self._lookup(token)
        if len(self._cache) > 10_000:
            self._cache.clear()
        self._cache[key] = (now, account)
        return account

    def _lookup(self, token: str) -> Account | None:
        s, a = db.sessions, db.accounts
        query = (sa.select(a.c.id, a.c.username, a.c.role, a.c.room)
                 .join(s, s.c.account_id == a.c.id)
                 .where(s.c.token_hash == _digest(token), s.c.revoked == sa.false(),
                        s.c.expires_at > db.now(), a.c.disabled == sa.false()))
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return Account(*row) if row else None

    def logout(self, token: str) -> None:
        self._cache.pop(_digest(token), None)
        with self.engine.begin() as conn:
            conn.execute(db.sessions.update().where(db.sessions.c.token_hash == _digest(token)).values(revoked=True))


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


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


def require(request, role: str = "floor") -> Account:
    """The request's account if it has at least ``role``; AuthError 401/403 otherwise."""
    account = current_account(request)
    if account is None:
        raise AuthError(401, "auth", "log in first: POST /api/login, then send the token "
                                     "(Authorization: Bearer TOKEN) or the session cookie")
    if not account.may(role):
        raise AuthError(403, "role", f"this needs the {role} role; the account '{account.username}' is {account.role}")
    return account
