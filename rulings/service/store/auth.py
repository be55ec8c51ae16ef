"""Accounts, roles, sessions and login limits.

Passwords are hashed with Argon2id (argon2-cffi, memory-hard). A login gives a
random token; only its SHA-256 is stored, with an expiry. Roles rank floor <
manager < admin: each route names the least role it needs. Failed logins are
counted per (account name, client address) in the database, so every worker
process (and every podium on a shared PostgreSQL) sees the same count; after a
few, each further attempt from that address on that name waits longer (``Limiter``),
refused unchecked until then. Another address is never held.

Each worker remembers a session it has checked for at most ``check_seconds``
(1 s by default), never past the session's own expiry: a logout answered by
one worker takes effect in that worker at once and in every other within
``check_seconds``.
"""
from __future__ import annotations

from typing import Any

import hashlib
import logging
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from rulings.service.store import db
from rulings.settings import env_whole

ROLES = ("floor", "manager", "admin")
RANK = {r: i for i, r in enumerate(ROLES)}
COOKIE = "rulings_session"
AUDIT = logging.getLogger("rulings.service.accounts")     # every change an admin makes to an account



class _Hasher:
    """Argon2id with argon2-cffi's defaults (64 MiB, 3 passes), made on first use.

    RULINGS_ARGON2_MEMORY_KIB and RULINGS_ARGON2_TIME lower the cost where
    speed matters more than strength (the test suite); a hash keeps its own
    parameters, so verifying always uses the ones it was made with.
    """

    # the hasher and a hash of a password nobody has (what a login for no account is checked against), made
    # together: a thread never finds the one without the other (it once could, while the dummy was hashed, and
    # a login for no account then failed with AttributeError instead of a refusal)
    _made: tuple[PasswordHasher, str] | None = None

    def _both(self) -> tuple[PasswordHasher, str]:
        made = self._made
        if made is None:
            import os
            kwargs: dict[str, Any] = {}
            if os.environ.get("RULINGS_ARGON2_MEMORY_KIB"):
                kwargs["memory_cost"] = env_whole("RULINGS_ARGON2_MEMORY_KIB", 65536, 8, 4 * 1024 * 1024)
            if os.environ.get("RULINGS_ARGON2_TIME"):
                kwargs["time_cost"] = env_whole("RULINGS_ARGON2_TIME", 3, 1, 100)
            ph = PasswordHasher(**kwargs)
            made = self._made = (ph, ph.hash("not a password anyone has"))
        return made

    def get(self) -> PasswordHasher:
        return self._both()[0]

    def hash(self, password: str) -> str:
        return self.get().hash(password)

    def verify(self, hashed: str | None, password: str) -> None:
        ph, dummy = self._both()
        ph.verify(hashed or dummy, password)


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
    if why := check_room(room):
        raise ValueError(why)
    _check_password(password)
    with engine.begin() as conn:
        if conn.execute(sa.select(db.accounts.c.id).where(db.accounts.c.username == username)).first():
            raise ValueError(f"there is already an account '{username}'")
        result = conn.execute(db.accounts.insert().values(
            username=username, role=role, room=room, password_hash=_HASHER.hash(password),
            created_at=db.now(), disabled=False))
        return Account(db.inserted_id(result), username, role, room)


def list_accounts(engine: sa.Engine) -> list[dict]:
    with engine.connect() as conn:
        rows = conn.execute(sa.select(db.accounts).order_by(db.accounts.c.username)).mappings().all()
    return [{"username": r["username"], "role": r["role"], "room": r["room"], "disabled": r["disabled"],
             "created_at": r["created_at"]} for r in rows]


def check_room(room: str) -> str | None:
    """Why a room name is not acceptable, or None (the same letters as an account name)."""
    if not isinstance(room, str) or not 1 <= len(room) <= 64:
        return "a room name is 1 to 64 characters"
    if not all(c.isalnum() or c in "._-@" for c in room):
        return "a room name has letters, digits and . _ - @ only"
    return None


def _check_password(password: str) -> None:
    if not isinstance(password, str) or len(password) < 8:
        raise ValueError("a password has at least 8 characters")
    if len(password) > 1024:
        raise ValueError("a password has at most 1,024 characters")


def update_account(engine: sa.Engine, username: str, *, by: str | None = None, role: str | None = None,
                   room: str | None = None, disabled: bool | None = None, password: str | None = None,
                   via: str = "page") -> dict:
    """Change one account, as an admin does on the accounts page or ``PATCH /api/accounts/NAME``; the account as
    ``list_accounts`` gives it. Each change made is audited here, whichever way it came (``via``): one line on
    the service's log (``rulings.service.accounts``, at warning level, so the default ``--log-level`` keeps
    it) naming the account, what changed (never a password), who changed it and how.

    Disabling an account or resetting its password ends every session it has (its old password and its
    open podium pages stop working at once in the database; in every worker within ``check_seconds``).
    The service always keeps one admin who can log in: the last enabled admin is neither disabled nor
    given a lesser role, and ``by`` (the admin making the change) does not disable or demote himself.
    ValueError says why a change is refused; LookupError: no such account.
    """
    if role is not None and role not in ROLES:
        raise ValueError(f"role '{role}' is not one of: {', '.join(ROLES)}")
    if room is not None and (why := check_room(room)):
        raise ValueError(why)
    if password is not None:
        _check_password(password)
    hashed = _HASHER.hash(password) if password is not None else None    # before the lock: Argon2 is slow
    a = db.accounts
    with db.write_lock(engine), engine.begin() as conn:
        row = conn.execute(sa.select(a).where(a.c.username == username)).mappings().first()
        if row is None:
            raise LookupError(f"there is no account '{username}'")
        losing_admin = row["role"] == "admin" and not row["disabled"] and (
            disabled is True or (role is not None and role != "admin"))
        if losing_admin and by == username:
            raise ValueError("an admin does not disable or demote his own account here; another admin can")
        if losing_admin:
            others = conn.execute(sa.select(sa.func.count()).select_from(a).where(
                a.c.role == "admin", a.c.disabled == sa.false(), a.c.id != row["id"])).scalar()
            if not others:
                raise ValueError(f"'{username}' is the last admin who can log in; make another admin first")
        values: dict[str, Any] = {}
        if role is not None:
            values["role"] = role
        if room is not None:
            values["room"] = room
        if disabled is not None:
            values["disabled"] = bool(disabled)
        if hashed is not None:
            values["password_hash"] = hashed
        if values:
            conn.execute(a.update().where(a.c.id == row["id"]).values(**values))
        if disabled or hashed is not None:     # its sessions end: a stolen or forgotten one as well
            conn.execute(db.sessions.update().where(db.sessions.c.account_id == row["id"]).values(revoked=True))
        new = conn.execute(sa.select(a).where(a.c.id == row["id"])).mappings().one()   # the row just changed
    said = [f"{k} {row[k]!s} -> {new[k]!s}" for k in ("disabled", "role", "room") if new[k] != row[k]]
    said += ["password reset, sessions ended"] if hashed is not None else []
    if said:
        AUDIT.warning("account %s: %s; by %s (%s)", username, "; ".join(said), by or "?", via)
    return {"username": new["username"], "role": new["role"], "room": new["room"], "disabled": new["disabled"],
            "created_at": new["created_at"]}


def rooms(engine: sa.Engine) -> list[str]:
    """Every room an account is in, sorted (the accounts page offers them)."""
    with engine.connect() as conn:
        return sorted(set(conn.execute(sa.select(db.accounts.c.room).distinct()).scalars().all()))


def has_admin(engine: sa.Engine) -> bool:
    with engine.connect() as conn:
        return conn.execute(sa.select(db.accounts.c.id).where(db.accounts.c.role == "admin")).first() is not None


class Limiter:
    """Growing waits after failed logins, per account name *and* client address (policy: API.md, "Auth").

    The first ``free`` failures of one name from one address within ``window`` seconds cost nothing; after
    them each further attempt from there must wait ``base`` seconds after the latest, doubling with each
    failure, up to ``cap``. A success from that address clears its count. A name is never held from
    another address, and an address holds only the names it failed on: a stranger can slow his own
    guesses, not lock anyone out.

    An attempt is written down *before* its password is checked and struck out again only when it succeeds
    (or is refused unchecked), so attempts sent all at once, to several workers, are counted together.
    """

    def __init__(self, engine: sa.Engine, attempts: int = 5, window: float = 3600.0, base: float = 1.0,
                 cap: float = 300.0):
        self.engine, self.free, self.window, self.base, self.cap = engine, attempts, window, base, cap

    def wait_after(self, failures: int) -> float:
        """Seconds an attempt waits after the latest one, when ``failures`` are counted before it."""
        return 0.0 if failures < self.free else min(self.cap, self.base * 2 ** (failures - self.free))

    def begin(self, name: str, client: str) -> tuple[list[int], int]:
        """Write down an attempt on ``name`` from ``client``; its row ids and the seconds to wait (0: go on)."""
        f = db.login_failures
        now = time.time()
        key = _pair(name, client)
        with db.write_lock(self.engine), self.engine.begin() as conn:
            conn.execute(f.delete().where(f.c.at < now - self.window))     # attempts whose window has passed
            own = db.inserted_id(conn.execute(f.insert().values(key=key, at=now)))
        with self.engine.connect() as conn:
            earlier = conn.execute(sa.select(f.c.at).where(f.c.key == key, f.c.at >= now - self.window,
                                                           f.c.id != own).order_by(f.c.at)).scalars().all()
        wait = self.wait_after(len(earlier))
        left = (earlier[-1] + wait - now) if earlier and wait else 0.0
        if left > 0:
            self.forget([own])       # a refused attempt is not a failure: it does not lengthen the wait
            return [], int(left) + 1
        return [own], 0

    def failed(self, name: str, client: str) -> None:
        """The attempt failed: its row stays, and counts."""

    def succeeded(self, name: str, client: str) -> None:
        """The right password from this address: its count for the name is cleared."""
        with db.write_lock(self.engine), self.engine.begin() as conn:
            conn.execute(db.login_failures.delete().where(db.login_failures.c.key == _pair(name, client)))

    def forget(self, ids: list[int]) -> None:
        if ids:
            with db.write_lock(self.engine), self.engine.begin() as conn:
                conn.execute(db.login_failures.delete().where(db.login_failures.c.id.in_(ids)))


def _pair(name: str, client: str) -> str:
    digest = hashlib.sha256(f"{name}\0{client}".encode("utf-8", "replace")).hexdigest()
    return f"pair:{digest}"


class Auth:
    """Logins and sessions against one database."""

    def __init__(self, engine: sa.Engine, session_hours: float = 12.0, limiter: Limiter | None = None,
                 check_seconds: float = 1.0):
        self.engine = engine
        self.ttl = timedelta(hours=session_hours)
        self.limiter = limiter or Limiter(engine)
        self.check_seconds = check_seconds
        # token digest -> (checked at, account or None, session expiry as epoch seconds)
        self._cache: dict[str, tuple[float, Account | None, float]] = {}

    def login(self, username: str, password: str, client: str) -> tuple[str, str, Account]:
        attempt, wait = self.limiter.begin(username, client)
        if wait:
            raise AuthError(429, "rate_limited", "too many failed logins; try again later", wait)
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(db.accounts).where(db.accounts.c.username == username)).mappings().first()
        try:
            _HASHER.verify(row["password_hash"] if row else None, password)
            ok = row is not None and not row["disabled"]
        except (VerificationError, InvalidHashError):
            ok = False
        if not ok or row is None:      # the attempt stays written down: a failure (no row is never ok)
            self.limiter.failed(username, client)
            raise AuthError(401, "auth", "wrong account name or password")
        self.limiter.succeeded(username, client)
        token = secrets.token_urlsafe(32)
        created = datetime.now(timezone.utc)
        expires = (created + self.ttl).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        with db.write_lock(self.engine), self.engine.begin() as conn:
            conn.execute(db.sessions.delete().where(db.sessions.c.expires_at < db.now()))   # sessions long over
            conn.execute(db.sessions.insert().values(token_hash=_digest(token), account_id=row["id"],
                                                     created_at=db.now(), expires_at=expires, revoked=False))
        return token, expires, Account(row["id"], row["username"], row["role"], row["room"])

    def account(self, token: str | None) -> Account | None:
        """The account of a live session. Looked up in the database at most every ``check_seconds`` per token
        and never trusted past the session's expiry (a logout in this process takes effect at once; one in
        another process within ``check_seconds``)."""
        if not token:
            return None
        key = _digest(token)
        now = time.monotonic()
        hit = self._cache.get(key)
        if hit is not None and self._fresh(hit, now):
            return hit[1]
        account, expires = self._lookup(key)
        if len(self._cache) > 10_000:
            self._cache.clear()
        self._cache[key] = (now, account, expires)
        return account

    def _fresh(self, hit, now: float) -> bool:
        return bool(hit) and now - hit[0] < self.check_seconds and time.time() < hit[2]

    def known(self, token: str | None) -> bool:
        """Whether ``account(token)`` answers without asking the database (no token, or checked lately)."""
        return not token or self._fresh(self._cache.get(_digest(token)), time.monotonic())

    def _lookup(self, digest: str) -> tuple[Account | None, float]:
        s, a = db.sessions, db.accounts
        query = (sa.select(a.c.id, a.c.username, a.c.role, a.c.room, s.c.expires_at)
                 .join(s, s.c.account_id == a.c.id)
                 .where(s.c.token_hash == digest, s.c.revoked == sa.false(),
                        s.c.expires_at > db.now(), a.c.disabled == sa.false()))
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        if row is None:
            return None, float("inf")
        expires = datetime.strptime(row[4], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()
        return Account(*row[:4]), expires

    def forget(self) -> None:
        """Check every session in the database again at its next request (after an account was changed here:
        a disabled account or a reset password ends its sessions in this worker at once)."""
        self._cache.clear()

    def logout(self, token: str) -> None:
        self._cache.pop(_digest(token), None)
        with db.write_lock(self.engine), self.engine.begin() as conn:
            conn.execute(db.sessions.update().where(db.sessions.c.token_hash == _digest(token)).values(revoked=True))


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()
