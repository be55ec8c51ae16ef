"""The podium: server-rendered HTML pages for floor staff and house managers, on the ruling service.

Routes (all under /podium, plus /login): the floor page (describe the hand, answer the
consultation's questions, read the ruling, record the floor's decision), the ruling
log (search, one entry, print), the table's kill, and the house books (managers only).
Every page needs an account; the templates escape every value (jinja2 autoescape), so a
player's words are shown as text, never as markup. The pages share the kit (kit.py).
"""
from __future__ import annotations

import json
import re
import secrets
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Mount, Route

from rulings.ruling.consult import answered
from rulings.money import whole_number
from rulings.problems import ProblemsError
from rulings.service.core import ApiError
from rulings.service.guard import login as guarded_login
from rulings.service.podium import book_pages, kill_page, log_pages
from rulings.service.podium import form as pf
from rulings.service.podium.kit import (STATIC, Assets, account_of, book_names, first, form_data, login_redirect, page,
                                        problems_view, question_view, read_answers, record_ruling, record_step,
                                        refuse, render, rule, ruling_view, service_of, shown, form_value)
from rulings.service.podium.log_pages import with_earlier
from rulings.service.session import token_of
from rulings.service.store.auth import COOKIE, AuthError
from rulings.service.store.log import ENTRY_ID_MAX, LogError, loads


# ---------------------------------------------------------------- pages: login

def root(request: Request) -> Response:
    return RedirectResponse("/podium", status_code=303)


def login_page(request: Request) -> Response:
    nxt = request.query_params.get("next", "/podium")
    return render(request, "login.html", account=None, next=_safe_next(nxt), error="", username="")


def _safe_next(nxt: str) -> str:
    return nxt if nxt.startswith("/") and not nxt.startswith("//") else "/podium"


async def check_login(request: Request) -> None:
    """The login form's password, checked on the login threads (guard.login) before the page is made: its
    session token, or the AuthError that refused it, for ``login_post``."""
    form = form_data(request)
    username, password = first(form, "username"), first(form, "password")
    try:
        if len(username) > 64 or len(password) > 1024:    # no account has such a name or password: no hash spent
            raise AuthError(401, "auth", "wrong account name or password")
        request.scope["rulings.login"] = await guarded_login(request, username, password)
    except AuthError as exc:
        request.scope["rulings.login"] = exc


def login_post(request: Request) -> Response:
    """The service's own login (same password check, rate limits and session), from an HTML form."""
    form = form_data(request)
    username = first(form, "username")
    nxt = _safe_next(first(form, "next") or "/podium")
    outcome = request.scope.get("rulings.login")
    if not isinstance(outcome, tuple):
        exc = outcome if isinstance(outcome, AuthError) else AuthError(401, "auth", "wrong account name or password")
        words = ("Wrong name or password." if exc.status == 401 else
                 f"Too many failed logins; wait {exc.retry_after or 60} seconds and try again." if exc.status == 429
                 else "The podium is busy checking other logins; try again in a moment." if exc.status == 503
                 else exc.message)
        refused = render(request, "login.html", status=exc.status, account=None, next=nxt, error=words,
                         username=username)
        if exc.retry_after:
            refused.headers["Retry-After"] = str(exc.retry_after)
        return refused
    token = outcome[0]
    response = RedirectResponse(nxt, status_code=303)
    hours = getattr(service_of(request).auth, "ttl", None)
    response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/",
                        max_age=int(hours.total_seconds()) if hours else None)
    return response


def logout_post(request: Request) -> Response:
    token = token_of(request)
    if token:
        service_of(request).auth.logout(token)
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(COOKIE, path="/")
    return response


# ---------------------------------------------------------------- pages: the floor

def _recent_games(request: Request, account: dict) -> list[dict]:
    """Games of this room's recent rulings (newest first), then a few common ones.

    Only the incidents of the last 40 rulings are read (the log's own room rule, ``Log.where``): a search of
    the log counted the room's whole log and parsed each entry's report, a tenth of the floor POST's time."""
    texts = service_of(request).log.recent_incidents(account["room"], account["raw"], 40)
    games: list[dict] = []
    for text in texts:
        try:
            inc = loads(text)
        except ValueError:
            continue
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
            "books": book_names(request), "variants": list(pf.VARIANT_WORDS.items()),
            "structures": list(pf.STRUCTURE_WORDS.items()), "seats": list(pf.SEATS),
            "streets": pf.STREETS[variant], "streets_by_variant": {v: list(st) for v, st in pf.STREETS.items()},
            "street_words": pf.STREET_WORDS, "said_words": pf.SAID,
            "chip_words": {c: (f"{int(c) // 1000}k" if int(c) >= 1000 else c) for c in pf.CHIPS},
            "more_open": any(f.get(k) for k in ("sb", "bb", "ante", "bb_ante", "small_bet", "big_bet", "kill_seat",
                                                "kill", "table"))
            or f.get("book", "standard") != "standard",
            "stacks_open": any(f.get(f"stack-{n}") for n in pf.SEATS),
            "timing_open": any(f.get(k) for k in ("noticed", "pointed_out_by", "after")),
            "chips": pf.CHIPS, "noticed": list(pf.NOTICED.items()),
            "pointed": list(pf.POINTED_OUT_BY.items()),
            "deal_how": [(k, w) for k, (_h, _b, w) in pf.DEAL_HOW.items()], "deal_noticed": list(pf.DEAL_NOTICED.items()),
            # the incident's declared sections, picked by the floor, each showing its declared fields
            "sections": pf.sections(), "picked": {k[4:] for k, v in f.items() if k.startswith("sec.") and v},
            "result": None, "answers": {}, "asked_now": set(),
            "rid": secrets.token_urlsafe(12), "told_read": "", "told_left": [],
            "consultation": (f.get("consultation") or "")[:64],
            # an open question's incident field (unknowns.py) and the form field that takes its answer
            "typed_fields": {"pot": "pot", "game.blinds": "stakes"},
            "typed_words": {"pot": "the pot before this street", "game.blinds": "the stakes"}}


class _Defaults(dict):
    """A dict that answers '' for a missing key (form values and field errors in templates)."""

    def __missing__(self, key):
        return ""

    def __getattr__(self, key):
        return self[key]


def floor_get(request: Request) -> Response:
    account = account_of(request)
    if account is None:
        return login_redirect(request)
    return render(request, "floor.html", **_floor_context(request, account, {}))


def floor_post(request: Request) -> Response:
    account = account_of(request)
    if account is None:
        return login_redirect(request)
    clock = _Clock()
    form = form_data(request)
    told = None
    if first(form, "go") == "told":      # "Tell what happened": the text read, the form filled with it, ruled
        form, told = _told_form(form)
        if isinstance(told, ProblemsError):
            return _told_refused(request, account, form, told)
    ctx = _floor_context(request, account, form)
    read = pf.read_form(form)
    clock.mark("form")
    if told is not None:
        ctx["told_read"] = told["read_as"]
        ctx["told_left"] = told["left_out"]
        if told["left_out"]:         # the form cannot hold all of it: the incident as read is ruled
            read.incident = told["incident"]
    elif _told_text(form):           # answered or ruled again: the text's reading still leads, said when changed
        ctx["told_read"] = _read_as_since(form)
    if _told_text(form):             # the story as told is kept with the incident: in the consultation and the log
        read.incident["note"] = _told_text(form)
    ctx["f"].update(read.shown)      # a list shows what a shorthand answer was read as ('nl': No-limit)
    answers = read_answers(form)
    ctx["answers"] = {k: form_value(v) for k, v in answers.items()}
    early = first(form, "part") == "ruling"      # the page's script asks for the ruling alone first
    if read.errors:
        if early:
            return Response(status_code=204)      # nothing early: the whole answer says what is wrong
        ctx["errors"] = _Defaults(read.errors)
        ctx["more_open"] = ctx["more_open"] or any(k in read.errors for k in ("sb", "bb", "ante", "bb_ante",
                                                                             "small_bet", "kill_seat", "kill"))
        ctx["stacks_open"] = ctx["stacks_open"] or any(k.startswith("stack-") for k in read.errors)
        ctx["timing_open"] = ctx["timing_open"] or any(k in read.errors for k in ("noticed", "pointed_out_by",
                                                                                 "after"))
        ctx["result"] = {"problems": [{"where": k, "message": v, "hint": None} for k, v in read.errors.items()],
                         "rulings": [], "questions": [], "open": [], "outcome": "problems", "entry": None}
        return render(request, "floor.html", status=422, **ctx)
    book = first(form, "book") or "standard"
    if early:
        return _ruling_first(request, account, ctx, read.incident, book, answers, clock)
    try:
        warm, ruled = rule(request, read.incident, book, answers)     # ruled once: shown, kept and recorded
        step = shown(ruled)
        clock.mark("rule")
        table = first(form, "table") or None
        ctx["consultation"] = record_step(request, account, ctx["consultation"] or None, read.incident, warm.name,
                                          answers, table, step)
        go = first(form, "go")
        record = go in ("record", "followed") or (step["outcome"] in ("ruled", "not_covered")
                                                  and not step.get("questions"))
        refused_log = record and step["outcome"] == "questions"
        if refused_log:      # a non-answer is never logged as a ruling: its consultation step is kept (above)
            record = False
        if record:
            step = record_ruling(request, account, warm, read.incident, ruled, table, answered(answers),
                                 first(form, "rid") or None, ctx["consultation"])
            ctx["consultation"] = ""      # the next hand is a new consultation
            entry = step.get("entry")
            if go == "followed" and entry and step["report"].get("rulings"):   # logged and followed in one tap
                service_of(request).log.follow_up(account["raw"], int(entry["id"]), "decision",
                                                {"decision": "followed", "reason": None})
                return RedirectResponse(f"/podium/log/{entry['id']}?recorded=followed", status_code=303)
        clock.mark("log")
    except ProblemsError as exc:
        problems = [{**p, "message": floor_words(p["message"])} for p in problems_view(exc.problems)]
        ctx["errors"] = _Defaults({k: floor_words(v) for k, v in _beside_fields(exc.problems).items()})
        ctx["timing_open"] = ctx["timing_open"] or "after" in ctx["errors"]
        ctx["result"] = {"problems": problems, "rulings": [], "questions": [], "open": [],
                         "outcome": "problems", "entry": None}
        return render(request, "floor.html", status=422, **ctx)
    except ApiError as exc:   # an unknown book (the service's 404): said on the page, nothing recorded
        ctx["result"] = {"problems": [{"where": "book", "message": exc.message, "hint": None}], "rulings": [],
                         "questions": [], "open": [], "outcome": "problems", "entry": None}
        return render(request, "floor.html", status=422, **ctx)
    ctx["result"] = _result(step, book, refused_log=refused_log and go in ("record", "followed"))
    ctx["asked_now"] = {q.get("key", q["fact"]) for q in ctx["result"]["questions"]}
    return _with_earlier_rendered(request, account, ctx, "floor.html", (step.get("entry") or {}).get("id"), clock,
                                  read.incident)


def _told_text(form: dict[str, list[str]]) -> str:
    return first(form, "told").strip()


def _told_form(form: dict[str, list[str]]) -> tuple[dict[str, list[str]], Any]:
    """The floor form filled with what a told dispute was read as (rulings/told/: the one reader of told text),
    each field editable, and what was read; or the form kept as it is and the reader's ProblemsError. What the
    form does not hold of the page's own (the book, the table, the consultation, the request id) is kept;
    the answers of an earlier hand are not."""
    from rulings.told import read_told
    text = _told_text(form)
    try:
        told = read_told(text)
    except ProblemsError as exc:
        return form, exc
    filled = pf.fields_of(told.incident)
    out = {k: v for k, v in form.items() if k in ("csrf", "rid", "consultation", "book", "table", "told")}
    out.update({k: [v] for k, v in filled.fields.items()})
    out.update({f"a.{k}": [v] for k, v in filled.answers.items()})
    out["go"] = ["rule"]
    return out, {"read_as": told.read_as_line(), "left_out": filled.left_out, "incident": told.incident,
                 "typos": told.typos}


def _read_as_since(form: dict[str, list[str]]) -> str:
    """The line a told text in the form was read as, and whether the form has been changed from it since (a
    later tap: an answer, Rule again): the text read again (the reader is deterministic) and its fields compared
    with the form's. '' when the text does not read."""
    from rulings.told import read_told
    try:
        told = read_told(_told_text(form))
    except ProblemsError:
        return ""
    filled = pf.fields_of(told.incident)
    fields = set(filled.fields) | {k for k in form if k.startswith(("in-", "stack-"))} | {
        "button", "street", "pot", "actions", "after", "d_seat", "d_said", "d_chips", "stakes"}
    changed = sorted({k.partition("-")[0] if k.startswith(("in-", "stack-")) else k for k in fields
                      if first(form, k).strip() != filled.fields.get(k, "").strip()})
    words = {"in": "the seats", "stack": "the stacks", "d_seat": "whose act", "d_said": "what he said",
             "d_chips": "the chips", "actions": "the action", "after": "the action after"}
    return told.read_as_line() + (" Changed on the form since: " + ", ".join(words.get(k, k) for k in changed)
                                  + "." if changed else "")


def _told_refused(request: Request, account: dict, form: dict, exc: ProblemsError) -> Response:
    """A told text the reader does not read: its answer (what is missing, contradictory or not read, word for
    word with its place in the text) on the page, the text kept in its box and the form as it was."""
    ctx = _floor_context(request, account, form)
    ctx["f"].update({k: v[-1] for k, v in form.items()})
    problems = [{"where": f"line {p.line}, column {p.col}" if p.line else "", "message": p.message,
                 "hint": p.hint} for p in exc.problems]
    ctx["result"] = {"problems": problems, "rulings": [], "questions": [], "open": [], "outcome": "problems",
                     "entry": None, "told": True}
    return render(request, "floor.html", status=422, **ctx)


def _result(step: dict, book: str, **over) -> dict:
    """A step (the JSON API's form) as the ruling's section reads it; ``over``: what the early answer shows
    otherwise (no questions yet, ``pending``)."""
    report = step["report"]
    setting = report.get("setting", "cash")
    game = (step.get("incident") or {}).get("game") if isinstance(step.get("incident"), dict) else None
    return {"outcome": step["outcome"], "rulings": [ruling_view(r, setting, game) for r in report["rulings"]],
            "now": list(report.get("now") or []),
            "questions": [question_view(q) for q in step.get("questions", [])], "also": step.get("also", []),
            "open": step.get("open", []), "problems": [], "entry": step.get("entry"),
            "book": report.get("rulebook", book), **over}


def _with_earlier_rendered(request: Request, account: dict, ctx: dict, template: str, before: int | None,
                           clock: "_Clock", incident=None) -> Response:
    """The room's earlier rulings beside each ruling shown, then the page (or section) rendered, with where the
    POST's time went (Server-Timing)."""
    with_earlier(request, account, ctx["result"]["rulings"], before, incident=incident)
    clock.mark("earlier")
    response = render(request, template, **ctx)
    clock.mark("page")
    response.headers["Server-Timing"] = clock.header()
    return response


def _ruling_first(request: Request, account: dict, ctx: dict, incident, book: str, answers: dict, clock) -> Response:
    """The floor page's early answer (``part=ruling``): the ruling's section alone, ruled without searching for
    the questions that would change it, so the page shows the ruling while the whole step is worked out by the
    same form posted again. Nothing is recorded. No ruling to show (a refused hand, an unknown book, nothing
    the book rules yet): 204, and the whole answer says what there is to say."""
    try:
        warm, ruled = rule(request, incident, book, answers, whole=False)
    except (ProblemsError, ApiError):
        return Response(status_code=204)
    step = shown(ruled)
    if not step["report"]["rulings"]:
        return Response(status_code=204)
    clock.mark("rule")
    ctx["result"] = _result(step, book, open=[], pending=True)
    response = _with_earlier_rendered(request, account, ctx, "_result.html", None, clock, incident)
    response.headers["X-Podium-Part"] = "ruling"
    return response


class _Clock:
    """Where a floor POST's time goes, for the response's Server-Timing header (the browser's timeline and
    benchmarks/podium_speed.py read it): the form and the page's context, the ruling (the consultation step),
    the log (the trail step and the ruling's entry, each committed), the earlier rulings, the page rendered."""

    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.marks: list[tuple[str, float]] = []

    def mark(self, name: str) -> None:
        now = time.perf_counter()
        self.marks.append((name, (now - self.last) * 1000))
        self.last = now

    def header(self) -> str:
        return ", ".join(f"{name};dur={ms:.1f}" for name, ms in self.marks)


_PLACE = re.compile(r"^(actions|after)\[(\d+)\](?:\.\w+)*: ")
_FIELD_WORDS = {"game.blinds": "the blinds", "game": "the game", "players": "the seats", "button": "the button",
                "street": "the street", "pot": "the pot", "disputed": "the disputed act"}


def floor_words(message: str) -> str:
    """A reader's problem as the floor says it: seats, chips and actions by their place in the hand, never the
    incident format's field paths ('actions[0]: seat 4 acted out of turn' -> 'Action 1 this street: seat 4
    acted out of turn')."""
    message = str(message or "")
    m = _PLACE.match(message)
    if m:
        where = "this street" if m.group(1) == "actions" else "after the disputed act"
        rest = message[m.end():]
        return f"Action {int(m.group(2)) + 1} {where}: {rest}"
    head, sep, rest = message.partition(": ")
    if sep and re.fullmatch(r"[a-z_]+(\.[a-z_0-9]+|\[\d+\])*", head):
        name = re.sub(r"\[\d+\]", "", head)
        words = _FIELD_WORDS.get(name) or _FIELD_WORDS.get(name.partition(".")[0])
        seat = re.fullmatch(r"players\.(\d+)", head)
        if seat:
            words = f"seat {seat.group(1)}"
        if words:
            return f"{words[0].upper()}{words[1:]}: {rest}"
        return rest[:1].upper() + rest[1:]
    return message


# the incident's fields (as the reader's problems name them) and the form field each is typed in
_FIELD_OF = {"actions": "actions", "after": "after", "pot": "pot", "button": "button", "street": "street",
             "players": "seats", "disputed": "d_seat", "game": "stakes", "noticed": "noticed",
             "pointed_out_by": "pointed_out_by", "procedure": "dl_card"}


def _beside_fields(problems: list) -> dict[str, str]:
    """The reader's problems keyed by the form field they are about (``actions[0]: ...`` beside the actions)."""
    out: dict[str, str] = {}
    for p in problems:
        get = p.get if isinstance(p, dict) else (lambda k, d=None, p=p: getattr(p, k, d))
        message = str(get("message") or "")
        path = get("path") or get("field") or message.partition(":")[0]
        head = str(path[0] if isinstance(path, (list, tuple)) and path else path).partition("[")[0].partition(".")[0]
        name = _FIELD_OF.get(head)
        parts = path if isinstance(path, (list, tuple)) else str(path).split(".")
        if head == "procedure" and len(parts) >= 3 and f"sec.{parts[1]}" and any(
                fld["name"] == f"p.{parts[1]}.{parts[2]}" for sec in pf.sections() for fld in sec["fields"]):
            name = f"p.{parts[1]}.{parts[2]}"      # a picked section's field: said beside it
        if name and name not in out:
            out[name] = message + (f" — {get('hint')}" if get("hint") else "")
    return out


def decision_post(request: Request) -> Response:
    account = account_of(request)
    if account is None:
        return login_redirect(request)
    form = form_data(request)
    entry, decision, reason = first(form, "entry"), first(form, "decision"), first(form, "reason").strip()
    entry_id = whole_number(entry, 1, ENTRY_ID_MAX)    # ASCII digits only: int('²') raises
    if entry_id is None or decision not in ("followed", "departed"):
        return refuse(request, "Not recorded", "Tap 'Followed the ruling' or 'Departed from it' on a ruling.", 422)
    if decision == "departed" and not reason:
        return refuse(request, "Not recorded", "Say why the floor departed from the ruling, then record it.", 422)
    try:
        service_of(request).log.follow_up(account["raw"], entry_id, "decision",
                                        {"decision": decision, "reason": reason or None})
    except LogError as exc:
        return refuse(request, "Not recorded", exc.message if hasattr(exc, "message") else str(exc), exc.status)
    return RedirectResponse(f"/podium/log/{entry_id}?recorded={decision}", status_code=303)


# ---------------------------------------------------------------- routes

def routes() -> list:
    return [
        Route("/", page(root), methods=["GET"]),
        Route("/login", page(login_page, needs_account=False), methods=["GET"]),
        Route("/podium/login", page(login_post, login=True, needs_account=False, before=check_login),
              methods=["POST"]),
        Route("/podium/logout", page(logout_post), methods=["POST"]),
        Route("/podium", page(floor_get), methods=["GET"]),
        Route("/podium", page(floor_post), methods=["POST"]),
        Route("/podium/decision", page(decision_post), methods=["POST"]),
        *log_pages.routes(),
        *kill_page.routes(),
        *book_pages.routes(),
        Mount("/podium/static", app=Assets(directory=str(STATIC)), name="podium-static"),
    ]
