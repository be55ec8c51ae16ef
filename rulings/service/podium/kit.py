"""The podium's shared web kit: templates and rendering, reading a posted form (size, CSRF, control
characters), the page endpoint (forms read on the event loop, handlers on the CPU threads), the request's
account, refusals, the room's clock, a report shown in words, and the one ruling a page makes of a POST. Every
podium page builds on this; it points at the service's core, guard and session, never back at a page."""
from __future__ import annotations

import hashlib
from collections import OrderedDict
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

from jinja2 import Environment, FileSystemLoader, StrictUndefined, pass_context, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.staticfiles import StaticFiles
from zoneinfo import ZoneInfo

from rulings.ruling.books import book_for
from rulings.rulebook.catalogue import facts, fit
from rulings.money import show, to_minor
from rulings.report.render import primary, quote_all
from rulings.service.core import room_zone, step_json, zone
from rulings.service.guard import (LOGIN_COOKIE, control_characters, cpu, csrf_ok, csrf_token, manager_work,
                                   read_body)
from rulings.service.podium import form as pf
from rulings.service.session import current_account
from rulings.service.store.log import LogError

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
MAX_FORM = 1024 * 1024      # a form body (a 256 KiB book, URL-encoded, fits)
MANAGERS = ("manager", "admin")

_env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["html"], default=True),
                   undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
_env.globals["quote_all"] = quote_all   # a ruling's sources named as the report and the printed book name them

# the page's stylesheet and script, each named with its content's hash: a browser keeps them for good and asks
# again only when a new version of the podium changes them (no revalidation at every page load)
_VERSIONS = {f.name: hashlib.sha256(f.read_bytes()).hexdigest()[:12] for f in STATIC.iterdir() if f.is_file()}


def asset(name: str) -> str:
    """The URL of a static file of the podium, with its version (``podium.css?v=0123456789ab``)."""
    return f"/podium/static/{name}?v={_VERSIONS[name]}"


_env.globals["asset"] = asset


class Assets(StaticFiles):
    """The podium's static files: kept a year by the browser when asked for by their version's URL (``asset``),
    revalidated each time otherwise (an old page's URL, or none)."""

    async def get_response(self, path: str, scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code == 200:
            asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("v", [""])[0]
            response.headers["Cache-Control"] = ("public, max-age=31536000, immutable"
                                                 if asked and asked == _VERSIONS.get(Path(path).name) else "no-cache")
            response.headers["X-Content-Type-Options"] = "nosniff"
        return response


def local_time(value: Any, tz: ZoneInfo, seconds: bool = False) -> str:
    """A stored UTC time ('2026-12-02T04:20:01.123456Z') on the room's clock, with the zone's abbreviation:
    '2026-12-01 23:20 EST'. A value that is not a time is shown as it is."""
    if not value:
        return "—"
    try:
        at = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return str(value)
    if at.tzinfo is None:
        at = at.replace(tzinfo=timezone.utc)
    return at.astimezone(tz).strftime("%Y-%m-%d %H:%M:%S %Z" if seconds else "%Y-%m-%d %H:%M %Z")


@pass_context
def _local(ctx, value: Any, seconds: bool = False) -> str:
    return local_time(value, ctx.get("zone") or zone("UTC"), seconds)


_env.filters["local"] = _local           # {{ e.at | local }}: a stored time on the room's clock

NUMBER_WORDS = {
    "wager_to": "His bet, in total this street", "returned": "Goes back to him", "to_call": "To call",
    "owed": "He owes", "min_raise_to": "Smallest raise, to", "max_raise_to": "Largest raise, to", "pot": "Pot",
    "killer": "Kills the next hand: seat", "kill_blind": "Kill blind", "kill_small_bet": "Killed hand's small bet",
    "kill_big_bet": "Killed hand's big bet", "kill_legs_next": "Legs on the kill button next hand",
    "kill_button_next": "Kill button goes to seat", "kill_stack_needed": "Stack needed to kill",
    "kill_underpaid_short": "Short by", "hidden_chips": "Hidden chips",
}
VALUE_WORDS = {**pf.NOTICED, **pf.POINTED_OUT_BY, "words": "the words came first", "chips": "the chips came first",
               "together": "words and chips together", "none": "none of them", "part": "some of them",
               "all": "all of them"}


# ---------------------------------------------------------------- service glue (one place)

def service_of(request: Request):
    return request.app.state.service


def account_of(request: Request) -> dict | None:
    acct = current_account(request)
    if acct is None:
        return None
    get = acct.get if isinstance(acct, dict) else (lambda k, d=None: getattr(acct, k, d))
    return {"username": get("username") or get("name"), "role": get("role"), "room": get("room"), "raw": acct}


def rule(request: Request, incident: Any, book: str | None, answers: dict, whole: bool = True) -> tuple[Any, Any]:
    """The one ruling a page makes of a POST: a consultation step (the questions that would change it) under
    the book that rules the incident (``books.book_for``: the book the form names, else the incident's house).
    The warm book and the step; what the page shows and what it records are both this step. ``whole`` false:
    the ruling alone, no questions searched (the floor page's early answer, never recorded)."""
    warm = service_of(request).books.get(book_for(incident, book))
    return warm, (warm.consultation.step if whole else warm.consultation.rule)(incident, answers)


def shown(step: Any) -> dict:
    """A step as the page reads it: the JSON API's form (``step_json``)."""
    return step_json(step)


def record_ruling(request: Request, account: dict, warm: Any, incident: Any, step: Any, table: str | None,
                  asked: list, request_id: str | None, consultation: str | None = None) -> dict:
    """Write the ruling the page made (``rule``) to the log, not ruled again: the step JSON with ``entry``,
    which is on disk when this returns.

    The same form sent twice (a double tap, a reload) is recorded once: the page's request id is remembered
    (and the log answers a retried request id with its first record).
    """
    seen = getattr(request.app.state, "podium_recorded", None)
    if seen is None:
        seen = request.app.state.podium_recorded = OrderedDict()
    key = (account["username"], request_id)
    if request_id and key in seen:
        return seen[key]
    out = service_of(request).record_ruled(account["raw"], warm, incident, step, table=table, asked=asked,
                                         request_id=request_id, consultation=consultation)
    if request_id:
        seen[key] = out
        while len(seen) > 1000:
            seen.popitem(last=False)
    return out


def record_step(request: Request, account: dict, consultation: str | None, incident: Any, book: str, answers: dict,
                table: str | None, step: dict) -> str:
    """Append a floor-page consultation step to its trail (a new one when the id is missing or not this room's)."""
    svc = service_of(request)
    warm = svc.books.get(book)
    args = dict(room=account["room"], table=table, book=warm.name, book_hash=warm.hash, incident=incident,
                answers=answers, questions=step.get("questions", []), outcome=step["outcome"],
                rules=[r["rule"] for r in step["report"].get("rulings", [])])
    try:
        return svc.log.record_step(account["raw"], consultation, **args)["id"]
    except LogError:
        return svc.log.record_step(account["raw"], None, **args)["id"]


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    context.setdefault("account", account_of(request))
    context.setdefault("nav", "")
    acct = context["account"]
    context.setdefault("zone", room_zone(getattr(service_of(request), "config", None),
                                         acct.get("room") if isinstance(acct, dict) else None))
    token, fresh = csrf_token(request)
    context.setdefault("csrf", token)        # every form of the page carries it (guard.py)
    html = _env.get_template(template).render(**context)
    response = HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store",
                                                               "X-Content-Type-Options": "nosniff"})
    if fresh:
        response.set_cookie(LOGIN_COOKIE, fresh, httponly=True, samesite="strict", path="/", max_age=12 * 3600)
    return response


class FormRefused(Exception):
    def __init__(self, status: int, heading: str, message: str):
        super().__init__(message)
        self.status, self.heading, self.message = status, heading, message


async def read_form(request: Request, login: bool = False) -> dict[str, list[str]]:
    """The posted form, read in pieces up to MAX_FORM bytes (413 past it), its CSRF token checked (403) and
    its values free of control characters (422). ``login``: the token of the pre-login cookie."""
    body = await read_body(request, MAX_FORM, lambda: FormRefused(
        413, "Too large", f"The form is over {MAX_FORM // 1024:,} KiB; nothing was changed."))
    try:
        form = parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=5000,
                        errors="strict")
    except (UnicodeDecodeError, ValueError):
        raise FormRefused(400, "Not understood", "The form could not be read; reload the page and send it again.") \
            from None
    if not csrf_ok(request, first(form, "csrf"), login=login):
        raise FormRefused(403, "Form expired", "This form is not from this podium page (or it has expired): "
                          "reload the page and send it again. Nothing was changed.")
    for key, values in form.items():
        for value in (key, *values):
            bad = control_characters(value)
            if bad is not None:
                raise FormRefused(422, "Not recorded", f"The field '{key[:40]}' holds the control character "
                                  f"U+{ord(bad):04X}, which a record may not hold. Nothing was changed.")
    return form


def form_data(request: Request) -> dict[str, list[str]]:
    """The form read (and checked) by ``page`` before the handler ran."""
    return request.scope.get("rulings.form") or {}


def page(handler, login: bool = False, needs_account: bool = True, before=None, managers: bool = False):
    """A page's endpoint: a POST's form read and checked on the event loop (``read_form``), then ``before``
    (an async step on the event loop, given the request once its form is read: the login's password check,
    which waits on the login threads), then ``handler`` (plain, blocking code: book checks, consultations,
    rulings, rendering) on the bounded CPU threads (guard.cpu), so the event loop goes on answering the floor
    while a manager's check runs; ``managers``: on the managers' threads instead (guard.manager_work: the
    house-book pages, which wait for a check's process), so a check never holds a thread of the floor's."""

    async def endpoint(request: Request) -> Response:
        if request.method == "POST":
            if needs_account and await cpu(account_of, request) is None:
                return login_redirect(request)
            try:
                request.scope["rulings.form"] = await read_form(request, login=login)
            except FormRefused as exc:
                response = await cpu(refuse, request, exc.heading, exc.message, exc.status)
                if exc.status == 413:       # the rest of the body is not read: the connection ends here
                    response.headers["Connection"] = "close"
                return response
            if before is not None:
                await before(request)
        return await (manager_work if managers else cpu)(handler, request)
    endpoint.__name__ = getattr(handler, "__name__", "page")
    return endpoint


def first(form: dict[str, list[str]], name: str) -> str:
    v = form.get(name) or [""]
    return v[0]


def login_redirect(request: Request) -> RedirectResponse:
    return RedirectResponse("/login?next=" + quote(str(request.url.path)), status_code=303)


def refuse(request: Request, heading: str, message: str, status: int) -> HTMLResponse:
    return render(request, "error.html", status=status, heading=heading, message=message)


# ---------------------------------------------------------------- showing a report

def _money(name: str, value: Any, setting: str) -> str:
    f = facts().get(name)
    if f is not None and f.type == "money" and isinstance(value, (int, float, Decimal, str)) \
            and not isinstance(value, bool):
        try:
            return show(to_minor(value), setting)
        except ValueError:   # a value the money reader refuses (MoneyError) is shown as given
            return str(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def ruling_view(r: dict, setting: str, game: Any = None) -> dict:
    """A report's ruling (JSON form) with its numbers in words, for the template; ``quoted``: the source(s) the
    report quotes for the game (``render.primary``, by the incident's structure, game and setting), ``others``
    the rest of its citations (under "more" on the floor page)."""
    out = dict(r)
    g = game if isinstance(game, dict) else {}
    keys = [c["key"] for c in r.get("citations") or [] if isinstance(c, dict) and "key" in c]
    own = [c["key"] for c in r.get("citations") or [] if isinstance(c, dict) and "key" in c and not c.get("via")]
    where = (g.get("structure"), g.get("variant"), g.get("setting") or setting)
    out["quoted"] = primary(own or keys, fit=lambda k: fit(k, *where))     # the ruling's own, as the report
    out["others"] = [k for k in keys if k not in out["quoted"]]
    out["numbers"] = [(NUMBER_WORDS.get(k) or (facts()[k].description if k in facts() else k), _money(k, v, setting))
                      for k, v in (r.get("effects") or {}).items()]
    return out


def value_words(fact: str, value: Any) -> str:
    if isinstance(value, bool):
        return "Yes" if value else "No"
    return VALUE_WORDS.get(str(value), str(value).replace("_", " ").replace("-", " "))


def form_value(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def question_view(q: dict) -> dict:
    choices = [{"value": form_value(v["value"]), "words": value_words(q["fact"], v["value"]),
                "leads": [r.get("sentence") or r.get("ruling") for r in v.get("leads_to", [])]}
               for v in q.get("values", [])]
    return {**q, "choices": choices, "leads": ""}


def read_answers(form: dict[str, list[str]]) -> dict[str, Any]:
    """The answers carried by the form (``a.FACT``), typed as the catalogue says."""
    cat = facts()
    out: dict[str, Any] = {}
    for key, values in form.items():
        if not key.startswith("a.") or not values or not values[-1]:
            continue
        name, raw = key[2:], values[-1]
        f = cat.get(name.partition("@")[0])     # FACT@N: the fact asked of act N
        if f is not None and f.type == "bool":
            out[name] = raw == "true" if raw in ("true", "false") else raw
        else:
            out[name] = raw
    return out


def problems_view(problems: list) -> list[dict]:
    out = []
    for p in problems:
        get = p.get if isinstance(p, dict) else (lambda k, d=None, p=p: getattr(p, k, d))
        line = f"line {get('line')}, column {get('col')}" if get("line") else ""
        out.append({"where": line, "message": get("message"), "hint": get("hint")})   # the message names its field
    return out


def book_names(request: Request) -> list[str]:
    """The books a page offers: standard first, then each house book in its live version."""
    return service_of(request).books.names()


