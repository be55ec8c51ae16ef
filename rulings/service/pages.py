"""The podium: server-rendered HTML pages for floor staff and house managers, on the ruling service.

Routes (all under /podium, plus /login): the floor page (describe the hand, answer the
consultation's questions, read the ruling, record the floor's decision), the ruling
log (search, one entry, print), the table's kill, and the house books (managers only).
Every page needs an account; the templates escape every value (jinja2 autoescape), so a
player's words are shown as text, never as markup.
"""
from __future__ import annotations

import json
import secrets
from collections import OrderedDict
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

from datetime import datetime, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from jinja2 import Environment, FileSystemLoader, StrictUndefined, pass_context, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from rulings.catalogue import facts
from rulings.money import show, to_minor
from rulings.render import quote_all
from rulings.service import podium_form as pf

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
MAX_FORM = 1024 * 1024      # a form body (a 256 KiB book, URL-encoded, fits)
MANAGERS = ("manager", "admin")

_env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["html"], default=True),
                   undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
_env.globals["quote_all"] = quote_all   # a ruling's sources named as the report and the printed book name them


@lru_cache(maxsize=64)
def zone(name: str) -> ZoneInfo:
    """The IANA time zone ``name`` (the system's tz database, Python's zoneinfo); ValueError naming it when unknown."""
    try:
        return ZoneInfo(str(name))
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        raise ValueError(f"'{name}' is not a time zone: give an IANA name such as America/New_York or "
                         "Europe/London") from None


def room_zone(config: Any, room: str | None) -> ZoneInfo:
    """The zone of ``room``'s clock: its own (Config.room_zones), else the service's (Config.time_zone)."""
    rooms = getattr(config, "room_zones", None) or {}
    return zone(rooms.get(room) or getattr(config, "time_zone", None) or "UTC")


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

def _service(request: Request):
    return request.app.state.service


def _account(request: Request) -> dict | None:
    from rulings.service.auth import current_account
    acct = current_account(request)
    if acct is None:
        return None
    get = acct.get if isinstance(acct, dict) else (lambda k, d=None: getattr(acct, k, d))
    return {"username": get("username") or get("name"), "role": get("role"), "room": get("room"), "raw": acct}


def rule(request: Request, incident: Any, book: str | None, answers: dict) -> tuple[Any, Any]:
    """The one ruling a page makes of a POST: a consultation step (the questions that would change it) under
    the book that rules the incident (``books.book_for``: the book the form names, else the incident's house).
    The warm book and the step; what the page shows and what it records are both this step."""
    from rulings.books import book_for
    sync_published(request)
    warm = _service(request).books.get(book_for(incident, book))
    return warm, warm.consultation.step(incident, answers)


def shown(step: Any) -> dict:
    """A step as the page reads it: the JSON API's form (``step_json``)."""
    from rulings.service.app import step_json
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
    out = _service(request).record_ruled(account["raw"], warm, incident, step, table=table, asked=asked,
                                         request_id=request_id, consultation=consultation)
    if request_id:
        seen[key] = out
        while len(seen) > 1000:
            seen.popitem(last=False)
    return out


def record_step(request: Request, account: dict, consultation: str | None, incident: Any, book: str, answers: dict,
                table: str | None, step: dict) -> str:
    """Append a floor-page consultation step to its trail (a new one when the id is missing or not this room's)."""
    from rulings.service.log import LogError
    svc = _service(request)
    warm = svc.books.get(book)
    args = dict(room=account["room"], table=table, book=warm.name, book_hash=warm.hash, incident=incident,
                answers=answers, questions=step.get("questions", []), outcome=step["outcome"],
                rules=[r["rule"] for r in step["report"].get("rulings", [])])
    try:
        return svc.log.record_step(account["raw"], consultation, **args)["id"]
    except LogError:
        return svc.log.record_step(account["raw"], None, **args)["id"]


def sync_published(request: Request, force: str | None = None) -> None:
    """Serve the live published version of each house book (once per process, and after each publish)."""
    svc = _service(request)
    state = request.app.state
    done = getattr(state, "podium_synced", None)
    if done is None:
        done = state.podium_synced = {}
    from rulings.service.podium_books import store
    hb = store(request)
    warm_books = getattr(getattr(svc, "books", None), "books", None)
    if warm_books is None:
        return
    for name in ([force] if force else hb.names()):
        live = hb.live_path(name)
        if live is None or (done.get(name) == str(live) and not force):
            continue
        from rulings import books as bookstore
        from rulings.service.app import WarmBook
        book, engine = bookstore.load(str(live))
        warm_books[name] = WarmBook(name, book, engine, svc.books._house_hash(live), svc.books._extends(live))
        done[name] = str(live)


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    from rulings.service.guard import LOGIN_COOKIE, csrf_token
    context.setdefault("account", _account(request))
    context.setdefault("nav", "")
    acct = context["account"]
    context.setdefault("zone", room_zone(getattr(_service(request), "config", None),
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
    from rulings.service.guard import control_characters, csrf_ok, read_body
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


def page(handler, login: bool = False, needs_account: bool = True):
    """A page's endpoint: a POST's form read and checked on the event loop (``read_form``), then ``handler``
    (plain, blocking code: book checks, consultations, rulings, rendering) on the bounded CPU threads
    (guard.cpu), so the event loop goes on answering the floor while a manager's check runs."""
    from rulings.service.guard import cpu

    async def endpoint(request: Request) -> Response:
        if request.method == "POST":
            if needs_account and await cpu(_account, request) is None:
                return login_redirect(request)
            try:
                request.scope["rulings.form"] = await read_form(request, login=login)
            except FormRefused as exc:
                response = await cpu(refuse, request, exc.heading, exc.message, exc.status)
                if exc.status == 413:       # the rest of the body is not read: the connection ends here
                    response.headers["Connection"] = "close"
                return response
        return await cpu(handler, request)
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


def ruling_view(r: dict, setting: str) -> dict:
    """A report's ruling (JSON form) with its numbers in words, for the template."""
    out = dict(r)
    out["numbers"] = [(NUMBER_WORDS.get(k) or (facts()[k].description if k in facts() else k), _money(k, v, setting))
                      for k, v in (r.get("effects") or {}).items()]
    return out


def value_words(fact: str, value: Any) -> str:
    if isinstance(value, bool):
        return "Yes" if value else "No"
    return VALUE_WORDS.get(str(value), str(value).replace("_", " ").replace("-", " "))


def _form_value(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def question_view(q: dict) -> dict:
    choices = [{"value": _form_value(v["value"]), "words": value_words(q["fact"], v["value"]),
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


# ---------------------------------------------------------------- pages: login

def root(request: Request) -> Response:
    return RedirectResponse("/podium", status_code=303)


def login_page(request: Request) -> Response:
    nxt = request.query_params.get("next", "/podium")
    return render(request, "login.html", account=None, next=_safe_next(nxt), error="", username="")


def _safe_next(nxt: str) -> str:
    return nxt if nxt.startswith("/") and not nxt.startswith("//") else "/podium"


def login_post(request: Request) -> Response:
    """The service's own login (same password check, rate limit and session), from an HTML form."""
    from rulings.service.auth import COOKIE, AuthError
    form = form_data(request)
    username, password = first(form, "username"), first(form, "password")
    nxt = _safe_next(first(form, "next") or "/podium")
    client = request.client.host if request.client else "unknown"
    try:
        token, _expires, _acct = _service(request).auth.login(username, password, client)
    except AuthError as exc:
        words = ("Wrong name or password." if exc.status == 401 else
                 "Too many failed logins; wait a minute and try again." if exc.status == 429 else exc.message)
        return render(request, "login.html", status=exc.status, account=None, next=nxt, error=words,
                      username=username)
    response = RedirectResponse(nxt, status_code=303)
    hours = getattr(_service(request).auth, "ttl", None)
    response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/",
                        max_age=int(hours.total_seconds()) if hours else None)
    return response


def logout_post(request: Request) -> Response:
    from rulings.service.auth import COOKIE, token_of
    token = token_of(request)
    if token:
        _service(request).auth.logout(token)
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(COOKIE, path="/")
    return response


# ---------------------------------------------------------------- pages: the floor

def _recent_games(request: Request, account: dict) -> list[dict]:
    """Games of this room's recent rulings (newest first), then a few common ones."""
    entries = _service(request).log.search({"room": account["room"], "kind": "ruling"}, account["raw"],
                                           limit=40)["entries"]
    games: list[dict] = []
    for e in entries:
        inc = e.get("incident") if isinstance(e, dict) else None
        g = inc.get("game") if isinstance(inc, dict) else None
        if isinstance(g, dict):
            games.append({k: g[k] for k in ("variant", "structure", "setting", "blinds", "bet_sizes", "ante") if k in g})
    games += [{"variant": "holdem", "structure": "no-limit", "setting": "cash", "blinds": [1, 2]},
              {"variant": "holdem", "structure": "pot-limit", "setting": "cash", "blinds": [1, 2]},
              {"variant": "omaha", "structure": "pot-limit", "setting": "cash", "blinds": [2, 5]},
              {"variant": "holdem", "structure": "fixed-limit", "setting": "cash", "blinds": [10, 20],
               "bet_sizes": [20, 40]},
              {"variant": "holdem", "structure": "no-limit", "setting": "tournament", "blinds": [100, 200]}]
    out, seen = [], set()
    for g in games:
        key = json.dumps(g, sort_keys=True, default=str)
        if key in seen:
            continue
        seen.add(key)
        out.append({"label": pf.game_label(g), "json": json.dumps(g, default=str)})
    return out[:4]


def _book_names(request: Request) -> list[str]:
    sync_published(request)
    names = list(_service(request).books.books)
    return ["standard"] + sorted(n for n in names if n != "standard")


def _floor_context(request: Request, account: dict, form: dict[str, list[str]]) -> dict:
    f = {k: v[-1] for k, v in form.items()}
    f.setdefault("book", "standard")
    variant = f["variant"] if f.get("variant") in pf.STREETS else "holdem"
    recent = _recent_games(request, account)
    if not form and recent:          # the room's last game is the form's starting game (one tap changes it)
        last = json.loads(recent[0]["json"])
        f.update(variant=last.get("variant", "holdem"), structure=last.get("structure", "no-limit"),
                 setting=last.get("setting", "cash"))
        stakes = last.get("bet_sizes") if last.get("structure") in ("fixed-limit", "spread-limit") \
            else last.get("blinds")
        if stakes:
            f["stakes"] = "/".join(str(x) for x in stakes)
        variant = f["variant"] if f["variant"] in pf.STREETS else "holdem"
    return {"nav": "floor", "f": _Defaults(f), "errors": _Defaults({}), "recent": recent,
            "books": _book_names(request), "variants": list(pf.VARIANT_WORDS.items()),
            "structures": list(pf.STRUCTURE_WORDS.items()), "seats": list(pf.SEATS),
            "streets": pf.STREETS[variant], "streets_by_variant": {v: list(st) for v, st in pf.STREETS.items()},
            "street_words": pf.STREET_WORDS, "said_words": pf.SAID,
            "chip_words": {c: (f"{int(c) // 1000}k" if int(c) >= 1000 else c) for c in pf.CHIPS},
            "more_open": any(f.get(k) for k in ("sb", "bb", "ante", "small_bet", "big_bet", "table"))
            or f.get("book", "standard") != "standard",
            "stacks_open": any(f.get(f"stack-{n}") for n in pf.SEATS),
            "timing_open": any(f.get(k) for k in ("noticed", "pointed_out_by", "after")),
            "chips": pf.CHIPS, "noticed": list(pf.NOTICED.items()),
            "pointed": list(pf.POINTED_OUT_BY.items()), "result": None, "answers": {}, "asked_now": set(),
            "rid": secrets.token_urlsafe(12), "consultation": (f.get("consultation") or "")[:64]}


class _Defaults(dict):
    """A dict that answers '' for a missing key (form values and field errors in templates)."""

    def __missing__(self, key):
        return ""

    def __getattr__(self, key):
        return self[key]


def floor_get(request: Request) -> Response:
    account = _account(request)
    if account is None:
        return login_redirect(request)
    return render(request, "floor.html", **_floor_context(request, account, {}))


def floor_post(request: Request) -> Response:
    account = _account(request)
    if account is None:
        return login_redirect(request)
    form = form_data(request)
    ctx = _floor_context(request, account, form)
    read = pf.read_form(form)
    ctx["f"].update(read.shown)      # a list shows what a shorthand answer was read as ('nl': No-limit)
    answers = read_answers(form)
    ctx["answers"] = {k: _form_value(v) for k, v in answers.items()}
    if read.errors:
        ctx["errors"] = _Defaults(read.errors)
        ctx["more_open"] = ctx["more_open"] or any(k in read.errors for k in ("sb", "bb", "ante", "small_bet"))
        ctx["stacks_open"] = ctx["stacks_open"] or any(k.startswith("stack-") for k in read.errors)
        ctx["timing_open"] = ctx["timing_open"] or any(k in read.errors for k in ("noticed", "pointed_out_by",
                                                                                 "after"))
        ctx["result"] = {"problems": [{"where": k, "message": v, "hint": None} for k, v in read.errors.items()],
                         "rulings": [], "questions": [], "open": [], "outcome": "problems", "entry": None}
        return render(request, "floor.html", status=422, **ctx)
    book = first(form, "book") or "standard"
    from rulings.problems import ProblemsError
    from rulings.service.app import ApiError
    try:
        warm, ruled = rule(request, read.incident, book, answers)     # ruled once: shown, kept and recorded
        step = shown(ruled)
        table = first(form, "table") or None
        ctx["consultation"] = record_step(request, account, ctx["consultation"] or None, read.incident, warm.name,
                                          answers, table, step)
        go = first(form, "go")
        record = go in ("record", "followed") or (step["outcome"] in ("ruled", "not_covered")
                                                  and not step.get("questions"))
        if record:
            from rulings.consult import answered
            step = record_ruling(request, account, warm, read.incident, ruled, table, answered(answers),
                                 first(form, "rid") or None, ctx["consultation"])
            ctx["consultation"] = ""      # the next hand is a new consultation
            entry = step.get("entry")
            if go == "followed" and entry and step["report"].get("rulings"):   # logged and followed in one tap
                _service(request).log.follow_up(account["raw"], int(entry["id"]), "decision",
                                                {"decision": "followed", "reason": None})
                return RedirectResponse(f"/podium/log/{entry['id']}?recorded=followed", status_code=303)
    except ProblemsError as exc:
        problems = problems_view(exc.problems)
        ctx["errors"] = _Defaults(_beside_fields(exc.problems))      # each problem also beside its field
        ctx["timing_open"] = ctx["timing_open"] or "after" in ctx["errors"]
        ctx["result"] = {"problems": problems, "rulings": [], "questions": [], "open": [],
                         "outcome": "problems", "entry": None}
        return render(request, "floor.html", status=422, **ctx)
    except ApiError as exc:   # an unknown book (the service's 404): said on the page, nothing recorded
        ctx["result"] = {"problems": [{"where": "book", "message": exc.message, "hint": None}], "rulings": [],
                         "questions": [], "open": [], "outcome": "problems", "entry": None}
        return render(request, "floor.html", status=422, **ctx)
    report = step["report"]
    setting = report.get("setting", "cash")
    questions = [question_view(q) for q in step.get("questions", [])]
    ctx["asked_now"] = {q.get("key", q["fact"]) for q in questions}
    ctx["result"] = {"outcome": step["outcome"], "rulings": [ruling_view(r, setting) for r in report["rulings"]],
                     "now": list(report.get("now") or []),
                     "questions": questions, "also": step.get("also", []), "open": step.get("open", []),
                     "problems": [],
                     "entry": step.get("entry"), "book": report.get("rulebook", book)}
    from rulings.service.podium_log import with_earlier     # beside each ruling, the room's earlier ones on it
    with_earlier(request, account, ctx["result"]["rulings"], (step.get("entry") or {}).get("id"))
    return render(request, "floor.html", **ctx)


# the incident's fields (as the reader's problems name them) and the form field each is typed in
_FIELD_OF = {"actions": "actions", "after": "after", "pot": "pot", "button": "button", "street": "street",
             "players": "seats", "disputed": "d_seat", "game": "stakes", "noticed": "noticed",
             "pointed_out_by": "pointed_out_by"}


def _beside_fields(problems: list) -> dict[str, str]:
    """The reader's problems keyed by the form field they are about (``actions[0]: ...`` beside the actions)."""
    out: dict[str, str] = {}
    for p in problems:
        get = p.get if isinstance(p, dict) else (lambda k, d=None, p=p: getattr(p, k, d))
        message = str(get("message") or "")
        path = get("path") or get("field") or message.partition(":")[0]
        head = str(path[0] if isinstance(path, (list, tuple)) and path else path).partition("[")[0].partition(".")[0]
        name = _FIELD_OF.get(head)
        if name and name not in out:
            out[name] = message + (f" — {get('hint')}" if get("hint") else "")
    return out


def decision_post(request: Request) -> Response:
    account = _account(request)
    if account is None:
        return login_redirect(request)
    form = form_data(request)
    entry, decision, reason = first(form, "entry"), first(form, "decision"), first(form, "reason").strip()
    if not entry.isdigit() or decision not in ("followed", "departed"):
        return refuse(request, "Not recorded", "Tap 'Followed the ruling' or 'Departed from it' on a ruling.", 422)
    if decision == "departed" and not reason:
        return refuse(request, "Not recorded", "Say why the floor departed from the ruling, then record it.", 422)
    from rulings.service.log import LogError
    try:
        _service(request).log.follow_up(account["raw"], int(entry), "decision",
                                        {"decision": decision, "reason": reason or None})
    except LogError as exc:
        return refuse(request, "Not recorded", exc.message if hasattr(exc, "message") else str(exc), exc.status)
    return RedirectResponse(f"/podium/log/{entry}?recorded={decision}", status_code=303)


# ---------------------------------------------------------------- routes

def routes() -> list:
    from rulings.service import podium_books, podium_kill, podium_log
    return [
        Route("/", page(root), methods=["GET"]),
        Route("/login", page(login_page, needs_account=False), methods=["GET"]),
        Route("/podium/login", page(login_post, login=True, needs_account=False), methods=["POST"]),
        Route("/podium/logout", page(logout_post), methods=["POST"]),
        Route("/podium", page(floor_get), methods=["GET"]),
        Route("/podium", page(floor_post), methods=["POST"]),
        Route("/podium/decision", page(decision_post), methods=["POST"]),
        *podium_log.routes(),
        *podium_kill.routes(),
        *podium_books.routes(),
        Mount("/podium/static", app=StaticFiles(directory=str(STATIC)), name="podium-static"),
    ]
