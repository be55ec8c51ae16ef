"""The ASGI app: a JSON API over the warm rulebooks, the consultation and the ruling log (contract: ../API.md)."""
from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import secrets
import sys
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from rulings.ruling.books import book_for
from rulings.rulebook.catalogue import citations, did_you_mean
from rulings.ruling.consult import answered
from rulings.report.explain import explain as explain_text
from rulings.money import whole_number
from rulings.problems import Problem, ProblemsError
from rulings.rulebook.model import shown
from rulings.ruling.decide import citation
from rulings.service.api.openapi import document
from rulings.service.core import ApiError, Config, Service, WarmBook, replayed, step_json
from rulings.service.guard import MAX_DEPTH, Guard, bounded, cpu, read_body
from rulings.service.guard import login as guarded_login
from rulings.service.session import look_up, require, token_of
from rulings.service.store.auth import COOKIE, AuthError, add_account, has_admin, list_accounts, update_account
from rulings.service.store.log import DUPLICATE, ENTRY_ID_MAX, LogError, dumps
from rulings.yamlsrc import Located, json_number, load_text
from rulings.settings import env_seconds

MAX_BODY = 256 * 1024
log = logging.getLogger("rulings.service")

# ---------------------------------------------------------------- helpers

def json_response(data: Any, status: int = 200, headers: dict | None = None) -> Response:
    return Response(dumps(data), status_code=status, media_type="application/json", headers=headers)


def _request_problem(field_: str, message: str, hint: str | None = None) -> dict:
    return Problem("<request>", 0, 0, "S101", f"{field_}: {message}", (field_,), hint).to_json()


async def read_json(request: Request) -> dict:
    """The request body as a JSON object; 415, 413 or 400 otherwise (checked before anything else happens)."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise ApiError(415, "content_type", "send the body as JSON with Content-Type: application/json")
    declared = request.headers.get("content-length")
    size = whole_number(declared, 0, 10 ** 18) if declared else None   # ASCII digits only ('²' is no size)
    if size is not None and size > MAX_BODY:
        raise ApiError(413, "too_large", f"the body is {size:,} bytes, over the limit of {MAX_BODY:,}")
    body = await read_body(request, MAX_BODY,
                           lambda: ApiError(413, "too_large", f"the body is over the limit of {MAX_BODY:,} bytes"))
    try:
        data = json.loads(body.decode("utf-8"), parse_float=json_number, parse_constant=json_number)
    except RecursionError:      # deeper than the parser goes: refused as too deep, like a shallower one
        raise ApiError(400, "too_deep", f"the body is nested more than {MAX_DEPTH} levels deep") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise ApiError(400, "json", f"the body is not valid JSON: {exc}") from None
    why = bounded(data)     # before the shape: Python 3.13's parser reads 5,000 levels without a RecursionError
    if why:
        deep = "nested more than" in why
        raise ApiError(400 if deep else 422, "too_deep" if deep else "control_character", why,
                       [] if deep else [_request_problem(why.partition(":")[0], why.partition(": ")[2] or why)])
    if not isinstance(data, dict):
        raise ApiError(400, "json", "the body must be a JSON object")
    return data


def _text(body: dict, name: str, problems: list, limit: int = 64, required: bool = False) -> str | None:
    value = body.get(name)
    if value is None:
        if required:
            problems.append(_request_problem(name, "is required"))
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        problems.append(_request_problem(name, "expected text"))
        return None
    value = str(value)
    if len(value) > limit:
        problems.append(_request_problem(name, f"is longer than {limit} characters"))
        return None
    return value


def _consult_args(body: dict, problems: list) -> tuple[Any, Any, str | None, dict]:
    """The request's incident (as sent, for the log), the incident to rule (YAML or JSON text read once
    here, with its lines and columns), the book that rules it (``books.book_for``: the request's ``book``, else
    the incident's ``house:`` whether sent as an object or as text) and the answers."""
    incident = ruled = body.get("incident")
    if incident is None:
        problems.append(_request_problem("incident", "is required", "the incident format of the README, as JSON"))
    elif not isinstance(incident, (dict, str)):
        problems.append(_request_problem("incident", "expected an object (or YAML/JSON text)"))
    elif isinstance(incident, str):
        doc, _ = load_text(incident, "<request>")     # text that does not read is refused when ruled
        if doc is not None and isinstance(doc.data, dict):
            ruled = doc
    book = body.get("book")
    if book is not None and not isinstance(book, str):
        problems.append(_request_problem("book", "expected a book name"))
        book = None
    book = book_for(ruled if isinstance(ruled, (dict, Located)) else None, book)   # a house name, never a path
    answers = body.get("answers") or {}
    if not isinstance(answers, dict):
        problems.append(_request_problem("answers", "expected an object of fact: answer"))
        answers = {}
    return incident, ruled, book, answers


async def _told(body: dict) -> tuple[dict, Any]:
    """A request that tells the dispute in words (``told``: text, bounded) instead of sending an incident: the text
    read (rulings/told/) into the incident the rest of the request rules, the text kept in its ``note`` (so the
    consultation and the log keep it). Returns the body to go on with and what was read (None: no ``told``)."""
    text = body.get("told")
    if text is None:
        return body, None
    from rulings.told import MAX_TOLD, read_told
    if "incident" in body:
        raise ApiError(422, "request", "give the incident or the told dispute, not both",
                       [_request_problem("told", "sent with incident", "send one of them")])
    if not isinstance(text, str):
        raise ApiError(422, "request", "told is text", [_request_problem("told", "expected text")])
    if len(text) > MAX_TOLD:
        raise ApiError(422, "request", "the told dispute is too long",
                       [_request_problem("told", f"{len(text):,} characters; at most {MAX_TOLD:,} are read",
                                         "tell only the hand in dispute")])
    book = body.get("book")
    try:
        from rulings.told.rule import house_lexicon      # a repository house's words (NAME.told.yaml), if any
        from rulings.rulebook.house import find_house
        lexicon = house_lexicon(book) if isinstance(book, str) and find_house(book) is not None else None
        told = await cpu(read_told, text, lexicon)
    except ProblemsError as exc:
        raise _incident_error(exc) from None
    return {**body, "incident": told.incident}, told


def _incident_error(exc: ProblemsError) -> ApiError:
    answer = all(p.code == "C101" for p in exc.problems)
    n = len(exc.problems)
    what = "answers" if answer else "incident"
    return ApiError(422, "answer" if answer else "incident", f"the {what} has {n} problem{'s' if n != 1 else ''}",
                    [p.to_json() for p in exc.problems])


def _service(request: Request) -> Service:
    return request.app.state.service


# ---------------------------------------------------------------- routes

async def health(request: Request) -> Response:
    svc = _service(request)
    return json_response({"status": "ok", "database": svc.database, "books": len(svc.books.books),
                          "worker": os.getpid()})


async def login(request: Request) -> Response:
    body = await read_json(request)
    username, password = body.get("username"), body.get("password")
    if not isinstance(username, str) or not isinstance(password, str) or len(username) > 64 or len(password) > 1024:
        raise ApiError(422, "request", "give username and password as text",
                       [_request_problem("username", "expected text"), _request_problem("password", "expected text")])
    svc = _service(request)
    token, expires, account = await guarded_login(request, username, password)   # off the floor's threads
    resp = json_response({"token": token, "expires_at": expires, **account.to_json()})
    resp.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/",
                    max_age=int(svc.auth.ttl.total_seconds()))
    return resp


async def logout(request: Request) -> Response:
    require(request, "floor")
    token = token_of(request)
    if token is not None:   # always, once ``require`` has found the account it names
        await run_in_threadpool(_service(request).auth.logout, token)
    resp = Response(status_code=204)
    resp.delete_cookie(COOKIE, path="/")
    return resp


async def me(request: Request) -> Response:
    return json_response(require(request, "floor").to_json())


async def consult(request: Request) -> Response:
    """A consultation step, appended to the consultation's trail (a new consultation without ``consultation``)."""
    await look_up(request)      # a session looked up in a thread, not on the event loop
    account = require(request, "floor")
    body, told = await _told(await read_json(request))
    problems: list = []
    incident, ruled, book, answers = _consult_args(body, problems)
    table = _text(body, "table", problems)
    consultation_id = _text(body, "consultation", problems)
    if problems:
        raise ApiError(422, "request", f"the request has {len(problems)} problem(s)", problems)
    svc = _service(request)
    warm = svc.books.get(book)
    try:
        step = await cpu(warm.consultation.step, ruled, answers)
    except ProblemsError as exc:
        raise _incident_error(exc) from None
    out = step_json(step)
    if told is not None:
        out["told"] = told.to_json()
    out["consultation"] = await run_in_threadpool(
        svc.log.record_step, account, consultation_id, room=account.room, table=table, book=warm.name,
        book_hash=warm.hash, incident=incident, answers=answers, questions=step.questions, outcome=step.outcome,
        rules=[r.rule for one in (step.report, *step.report.more_acts) for r in one.rulings])
    return json_response(out)


async def rule(request: Request) -> Response:
    await look_up(request)      # a session looked up in a thread, not on the event loop
    account = require(request, "floor")
    body, told = await _told(await read_json(request))
    problems: list = []
    incident, ruled, book, answers = _consult_args(body, problems)
    table = _text(body, "table", problems)
    room = _text(body, "room", problems) or account.room
    request_id = _text(body, "request_id", problems, limit=128)
    consultation_id = _text(body, "consultation", problems)
    asked = body.get("asked")
    if asked is not None and not (isinstance(asked, list) and all(isinstance(a, dict) for a in asked)):
        problems.append(_request_problem("asked", "expected a list of {fact, question, answer}"))
    if room != account.room and not account.may("manager"):
        raise ApiError(403, "role", f"a floor account records only in its own room ({account.room})")
    if problems:
        raise ApiError(422, "request", f"the request has {len(problems)} problem(s)", problems)
    full = body.get("consult", False)
    if not isinstance(full, bool):
        raise ApiError(422, "request", "consult is true or false", [_request_problem("consult", "expected true or false")])
    svc = _service(request)
    warm = svc.books.get(book)
    if consultation_id is not None and not await run_in_threadpool(svc.log.known, consultation_id, account):
        raise ApiError(404, "not_found", f"no consultation '{consultation_id}'",
                       [_request_problem("consultation", "not a consultation this account may record from",
                                         "the id POST /api/consult answered, or leave it out")])
    # a retry: the first record, recorded once (a request without an id is no retry: no thread is woken to say so)
    first = await run_in_threadpool(svc.log.by_request, account, request_id) if request_id else None
    if first is not None:
        return json_response(replayed(first))
    how = warm.consultation.step if full else warm.consultation.rule

    def rule_and_hand_to_the_log():
        step = how(ruled, answers)
        return svc.record(account, warm, incident, step, table=table, asked=asked, request_id=request_id,
                          room=room, consultation=consultation_id)
    try:
        pending, out = await _ruled_then_committed(svc, rule_and_hand_to_the_log)
    except ProblemsError as exc:
        raise _incident_error(exc) from None
    except DUPLICATE:     # the same request id, recorded by a request sent at the same time
        first = await run_in_threadpool(svc.log.by_request, account, request_id)
        if first is None:
            raise
        return json_response(replayed(first))
    told_part = ',"told":' + dumps(told.to_json()) if told is not None else ""
    return Response(pending.head + told_part + ',"entry":' + dumps(out["entry"]) + "}",
                    media_type="application/json")


async def _ruled_then_committed(svc: Service, work) -> tuple[Any, dict]:
    """Run ``work`` (rule, then hand the entry to the log writer: a future) in a ruling thread; wake the event
    loop once, when the entry is committed (or the ruling refused). The pending future and its result."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future = loop.create_future()

    def settle(pending, exc: BaseException | None) -> None:
        if done.cancelled():
            return
        if exc is None and pending.exception() is not None:
            exc = pending.exception()
        if exc is not None:
            done.set_exception(exc)
        else:
            done.set_result((pending, pending.result()))

    def run() -> None:
        try:
            pending = work()
        except BaseException as exc:   # noqa: BLE001 - handed to the waiting request (a refusal: 422)
            loop.call_soon_threadsafe(settle, None, exc)
            return
        pending.add_done_callback(lambda f: loop.call_soon_threadsafe(settle, f, None))
    svc.rulers.submit(run)
    return await done


def _entry_id(request: Request) -> int:
    """The entry id of the path, read as text (Starlette's int convertor would int() 5,000 digits and fail):
    ASCII digits within PostgreSQL's integer, else no such entry."""
    raw = request.path_params["id"]
    number = whole_number(raw, 1, ENTRY_ID_MAX)
    if number is None:
        raise ApiError(404, "not_found", f"no log entry {raw[:20]}{'...' if len(raw) > 20 else ''}")
    return number


def _query_number(q: Any, name: str, default: int | None, low: int, high: int, problems: list) -> int | None:
    """A whole number of the query string, or ``default`` when not given: ASCII digits (no sign, no '²'), at
    least ``low``; one past ``high`` is read as ``high`` (a page size, an offset past the end)."""
    raw = q.get(name)
    if raw is None or raw == "":
        return default
    number = whole_number(raw, 0, 10 ** 18)
    if number is None or number < low:
        problems.append(_request_problem(name, f"expected a whole number from {low}, in digits 0-9"))
        return default
    return min(number, high)


async def consultation_trail(request: Request) -> Response:
    account = require(request, "floor")
    name = request.path_params["id"]
    found = await run_in_threadpool(_service(request).log.trail, name, account) if len(name) <= 64 else None
    if found is None:
        raise ApiError(404, "not_found", f"no consultation '{name}'")
    return json_response(found)


async def entry(request: Request) -> Response:
    account = require(request, "floor")
    found = await run_in_threadpool(_service(request).log.get, _entry_id(request), account)
    if found is None:
        raise ApiError(404, "not_found", f"no log entry {_entry_id(request)}")
    return json_response(found)


async def earlier(request: Request) -> Response:
    """The room's rulings by a rule on a matter, newest first: ``rule`` and ``matter`` required, ``room`` (the
    account's own by default; another room's for a manager; ``rooms=all``: every room of the chain, for a
    manager), ``before`` (an entry id), ``limit`` (1-50)."""
    account = require(request, "floor")
    q = request.query_params
    problems = [_request_problem(name, "is required") for name in ("rule", "matter") if not q.get(name)]
    chain = _rooms_all(q, problems)
    problems += [_request_problem(name, "is longer than 128 characters") for name in ("rule", "matter", "room")
                 if len(q.get(name) or "") > 128]
    before = _query_number(q, "before", None, 1, ENTRY_ID_MAX, problems)
    limit = _query_number(q, "limit", 5, 1, 50, problems) or 5
    if problems:
        raise ApiError(422, "request", f"the request has {len(problems)} problem(s)", problems)
    found = await run_in_threadpool(_service(request).log.earlier, account,
                                    None if chain else q.get("room") or account.room,
                                    q["rule"], q["matter"], before=before, limit=limit)
    return json_response(found)


def _rooms_all(q, problems: list) -> bool:
    """Whether ``rooms=all`` asks for every room of the chain (the only value ``rooms`` takes)."""
    rooms = q.get("rooms")
    if rooms not in (None, "all"):
        problems.append(_request_problem("rooms", "takes only the value all (every room of the chain)"))
    return rooms == "all"


async def entry_earlier(request: Request) -> Response:
    """For each ruling in force of a logged ruling, the room's rulings before it by the same rule on the same matter
    (``rooms=all``: every room's, for a manager)."""
    account = require(request, "floor")
    problems: list = []
    chain = _rooms_all(request.query_params, problems)
    if problems:
        raise ApiError(422, "request", f"the request has {len(problems)} problem(s)", problems)
    svc = _service(request)
    found = await run_in_threadpool(svc.log.get, _entry_id(request), account)
    if found is None:
        raise ApiError(404, "not_found", f"no log entry {_entry_id(request)}")
    rulings = await run_in_threadpool(svc.log.earlier_for, found, account, chain=chain)
    return json_response({"entry": found["id"], "room": found["room"], "rulings": rulings})


async def decision(request: Request) -> Response:
    account = require(request, "floor")
    body = await read_json(request)
    out = await run_in_threadpool(_service(request).log.follow_up, account, _entry_id(request), "decision", body)
    return json_response(out, 201)


async def correction(request: Request) -> Response:
    """A manager's correction; with an ``incident`` it is ruled again and the correction carries the new ruling."""
    account = require(request, "manager")
    body = await read_json(request)
    svc = _service(request)
    ruling = None
    if body.get("incident") is not None:
        problems: list = []
        incident, ruled, book, answers = _consult_args(body, problems)
        if problems:
            raise ApiError(422, "request", f"the request has {len(problems)} problem(s)", problems)
        target = await run_in_threadpool(svc.log.get, _entry_id(request), account)
        if target is None:
            raise ApiError(404, "not_found", f"no log entry {_entry_id(request)}")
        warm = svc.books.get(book or target["book"])
        try:
            step = await cpu(warm.consultation.rule, ruled, answers)
        except ProblemsError as exc:
            raise _incident_error(exc) from None
        ruling = {"book": warm.name, "book_hash": warm.hash, "book_version": warm.version, "incident": incident, "outcome": step.outcome,
                  "report": step_json(step)["report"], "answers": answered(answers)}
    out = await run_in_threadpool(svc.log.follow_up, account, _entry_id(request), "correction", body, ruling)
    return json_response(out, 201)


def _paging(request: Request) -> tuple[dict, int, int]:
    q = dict(request.query_params)
    problems: list = []
    limit = _query_number(q, "limit", 50, 1, 1000, problems)
    offset = _query_number(q, "offset", 0, 0, ENTRY_ID_MAX, problems)
    q.pop("limit", None), q.pop("offset", None)
    if problems or limit is None or offset is None:
        raise ApiError(422, "request", "limit and offset are whole numbers", problems)
    return q, limit, offset


async def search(request: Request) -> Response:
    account = require(request, "floor")
    filters, limit, offset = _paging(request)
    out = await run_in_threadpool(_service(request).log.search, filters, account, limit, offset)
    return json_response(out)


async def export(request: Request) -> Response:
    account = require(request, "floor")
    filters, _, _ = _paging(request)
    fmt = filters.pop("format", "json")
    if fmt not in ("json", "csv"):
        raise ApiError(422, "request", "format is csv or json")
    text = await cpu(_service(request).log.export, filters, account, fmt)
    media = "text/csv; charset=utf-8" if fmt == "csv" else "application/json"
    return Response(text, media_type=media,
                    headers={"Content-Disposition": f'attachment; filename="rulings-log.{fmt}"'})


def _book_summary(warm: WarmBook) -> dict:
    return {"name": warm.name, "title": warm.book.title, "hash": warm.hash, "version": warm.version,
            "extends": warm.extends,
            "rules": len(warm.book.rules), "parameters": len(warm.book.parameters)}


async def book_list(request: Request) -> Response:
    require(request, "floor")
    return json_response({"books": [_book_summary(w) for w in _service(request).books.books.values()]})


async def book_detail(request: Request) -> Response:
    require(request, "floor")
    warm = _service(request).books.get(request.path_params["name"])
    book = warm.book
    cash, tour = book.param_values("cash"), book.param_values("tournament")
    params = [{"name": p.name, "type": p.type, "description": p.description, "cites": list(p.cites),
               "value": {"cash": _plain(cash.get(p.name)), "tournament": _plain(tour.get(p.name))},
               "values": [{"value": v, "words": p.words.get(v)} for v in p.values]}
              for p in book.parameters.values()]
    rules = [{"id": r.id, "title": r.title, "topic": r.topic, "cites": list(r.cites), "house": r.house,
              "modifies": r.modifies, "origin": shown(str(r.origin))} for r in book.rules.values()]
    return json_response({**_book_summary(warm), "parameters": params, "rules": rules})


def _plain(value: Any) -> Any:
    return value if isinstance(value, (str, int, bool, type(None))) else str(value)


async def explain(request: Request) -> Response:
    require(request, "floor")
    what = request.path_params["what"]
    warm = _service(request).books.get(request.query_params.get("book"))
    text = explain_text(warm.book, what)
    if text is None:
        close = did_you_mean(what, list(warm.book.rules) + list(warm.book.parameters) + list(citations()))
        raise ApiError(404, "not_found", f"no rule, parameter or citation key '{what}'"
                       + (f"; did you mean '{close}'?" if close else ""))
    kind = "rule" if what in warm.book.rules else "parameter" if what in warm.book.parameters else "citation"
    out = {"kind": kind, "id": what, "book": warm.name, "text": text}
    if kind == "citation":
        out["citation"] = citation(what)
        out["rules"] = [r.id for r in warm.book.rules.values() if what in r.cites]
    return json_response(out)


async def accounts(request: Request) -> Response:
    require(request, "admin")
    return json_response({"accounts": await run_in_threadpool(list_accounts, _service(request).engine)})


async def account_add(request: Request) -> Response:
    require(request, "admin")
    body = await read_json(request)
    problems: list = []
    name = _text(body, "username", problems, required=True)
    password = _text(body, "password", problems, limit=1024, required=True)
    role = _text(body, "role", problems, limit=16, required=True)
    room = _text(body, "room", problems) or "main"
    if problems or name is None or password is None or role is None:   # each missing one is a problem
        raise ApiError(422, "request", f"the request has {len(problems)} problem(s)", problems)
    try:
        account = await run_in_threadpool(add_account, _service(request).engine, name, password, role, room)
    except ValueError as exc:
        raise ApiError(422, "request", str(exc), [_request_problem("account", str(exc))]) from None
    return json_response(account.to_json(), 201)


async def account_change(request: Request) -> Response:
    """An admin's change to one account, as the accounts page makes it (``auth.update_account``, audited there):
    any of ``disabled`` (true: it cannot log in and its sessions end; false: enabled again), ``role``, ``room``
    and ``password``. The account as ``GET /api/accounts`` lists it."""
    admin = require(request, "admin")
    body = await read_json(request)
    problems: list = []
    changes: dict[str, Any] = {}
    unknown = sorted(set(body) - {"disabled", "role", "room", "password"})
    problems += [_request_problem(k[:64], "is not a change this route makes",
                                  "one or more of: disabled, role, room, password") for k in unknown]
    if "disabled" in body:
        if isinstance(body["disabled"], bool):
            changes["disabled"] = body["disabled"]
        else:
            problems.append(_request_problem("disabled", "expected true or false"))
    for name, limit in (("role", 16), ("room", 64), ("password", 1024)):
        if name in body:
            value = _text(body, name, problems, limit=limit, required=True)
            if value is not None:
                changes[name] = value
    if not body:
        problems.append(_request_problem("disabled", "say what changes", "e.g. {\"disabled\": true}"))
    if problems:
        raise ApiError(422, "request", f"the request has {len(problems)} problem(s)", problems)
    name = request.path_params["name"]
    svc = _service(request)
    try:
        out = await cpu(update_account, svc.engine, name, by=admin.username, via="api", **changes)
    except LookupError:
        raise ApiError(404, "not_found", f"no account '{name[:64]}'") from None
    except ValueError as exc:
        raise ApiError(422, "request", str(exc), [_request_problem("account", str(exc))]) from None
    svc.auth.forget()        # this worker checks every session again at once (the others within a second)
    return json_response(out)


async def openapi(request: Request) -> Response:
    require(request, "floor")
    return json_response(document())


# ---------------------------------------------------------------- errors

async def _api_error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, (AuthError, LogError, ApiError)):
        status, code, message = exc.status, exc.code, exc.message
        problems = [p if "code" in p else _request_problem(p.get("field", "?"), p.get("message", ""))
                    for p in getattr(exc, "problems", [])]
        retry = getattr(exc, "retry_after", None)
        headers = {"Retry-After": str(retry)} if retry else None
    elif isinstance(exc, HTTPException):   # unknown route, method not allowed
        status, message, problems, headers = exc.status_code, str(exc.detail), [], None
        code = "not_found" if status == 404 else "method" if status == 405 else "http"
    else:
        raise exc
    return json_response({"error": {"status": status, "code": code, "message": message, "problems": problems}},
                         status, headers)


async def _server_error(request: Request, exc: Exception) -> Response:
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return json_response({"error": {"status": 500, "code": "internal", "problems": [],
                                     "message": "the service failed on this request; nothing was recorded"}}, 500)


ROUTES = [
    Route("/health", health),
    Route("/openapi.json", openapi),
    Route("/api/login", login, methods=["POST"]),
    Route("/api/logout", logout, methods=["POST"]),
    Route("/api/me", me),
    Route("/api/consult", consult, methods=["POST"]),
    Route("/api/rule", rule, methods=["POST"]),
    Route("/api/consultations/{id}", consultation_trail),
    Route("/api/log", search),
    Route("/api/log/export", export),
    Route("/api/log/earlier", earlier),
    Route("/api/log/{id}/earlier", entry_earlier),
    Route("/api/log/{id}", entry),
    Route("/api/log/{id}/decision", decision, methods=["POST"]),
    Route("/api/log/{id}/correction", correction, methods=["POST"]),
    Route("/api/accounts", accounts),
    Route("/api/accounts", account_add, methods=["POST"]),
    Route("/api/accounts/{name}", account_change, methods=["PATCH"]),
    Route("/api/books", book_list),
    Route("/api/books/{name}", book_detail),
    Route("/api/explain/{what}", explain),
]


def create_app(config: Config | None = None, service: Service | None = None) -> Starlette:
    """The app; the service (database, migrations, warm books) is made here unless one is given."""
    svc = service or Service(config or Config())
    routes = list(ROUTES)
    try:
        from rulings.service.podium import floor   # the podium's HTML pages, when installed (optional)
        routes += floor.routes()
    except ImportError as exc:
        if getattr(exc, "name", "") != "rulings.service.podium.floor":   # present but broken: say so, serve the API
            log.error("the podium pages are not served: %s", exc)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        svc.close()

    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(Guard)], exception_handlers={
        AuthError: _api_error, LogError: _api_error, ApiError: _api_error, HTTPException: _api_error,
        Exception: _server_error})
    app.state.service = svc
    return app


def admin_password_if_none(service) -> str | None:
    """A first admin account with a random password, when the database has none (printed once by serve).

    ``service`` is a Service or a SQLAlchemy engine.
    """
    engine = getattr(service, "engine", service)
    if has_admin(engine):
        return None
    password = secrets.token_urlsafe(12)
    add_account(engine, "admin", password, "admin", "main")
    return password


SWITCH_INTERVAL = 0.0005
def tune_worker() -> None:
    """Settings for a `rulings serve` worker process (not for an app made inside another program).

    A worker runs the event loop, the rulings (in threads) and the log writer in one interpreter. With
    Python's default 5 ms switch interval, a finished commit or a newly arrived request waited up to
    5 ms for a ruling thread to let go of the interpreter; at 0.5 ms they get in promptly. Measured with
    benchmarks/service_speed.py: more rulings a second and a lower p99 at the same load.
    """
    sys.setswitchinterval(env_seconds("RULINGS_SWITCH_INTERVAL", SWITCH_INTERVAL, 0.0001, 1.0))


def freeze_heap() -> None:
    """Leave what a worker loaded at start (the warm books: some 100,000 objects) out of the garbage
    collector's full passes (``gc.freeze``). A full pass over them took 0.1-0.5 s, holding the
    interpreter, and came at any moment: a /health or a floor request waited for it.

    Before that, what the first showdown would otherwise load in the middle of serving (``warm_up``)."""
    warm_up()
    gc.collect()
    gc.freeze()


def warm_up() -> None:
    """Load at start what a ruling loads on first use: pokerkit's hand evaluator and its lookup tables
    for every game (``rulings.facts.strength.strength``). Loaded by the first showdown a worker ruled, it held the
    interpreter for 0.3-1 s, while every other request of the worker waited (benchmarks/service_speed.py's
    profile: 6% of the server's CPU in a 3,000-ruling run)."""
    from rulings.facts.strength import GAMES, strength
    from rulings.incident.cards import read_cards
    hole, board = read_cards("As 2d Qh Jc"), read_cards("9s 8s 7d 3c 4h")    # a hand with a low, for the low games
    for game in GAMES:
        strength(hole if game.startswith("omaha") else hole[:2], board, game)


def app_from_environment() -> Starlette:
    """The app of one worker process of `rulings serve --workers N` (settings passed in the environment)."""
    tune_worker()
    app = create_app(Config(data_dir=Path(os.environ["RULINGS_SERVE_DATA"]),
                            database=os.environ.get("RULINGS_SERVE_DATABASE") or None,
                            session_hours=float(os.environ.get("RULINGS_SERVE_SESSION_HOURS", "12")),
                            time_zone=os.environ.get("RULINGS_SERVE_TIME_ZONE") or "UTC",
                            room_zones=json.loads(os.environ.get("RULINGS_SERVE_ROOM_ZONES") or "{}")))
    freeze_heap()
    return app
