"""The table's kill: each table's last pots kept, so the kill for the next hand is shown without retyping history.

A table's state is a small JSON file in the data directory (``DATA/tables/ROOM/TABLE.json``,
replaced atomically; on PostgreSQL a row of ``table_states``, shared by every server of a chain): the game, the book, the last pots (oldest first, each with the kill
posted in it, if any), where the kill button is going into the next pot, and the seats that
just sat down. The kill ruling itself is the book's: the page writes the README's incident
``table:`` section and asks the same consultation as the floor page; as there, each step a POST
takes is kept in the consultation's trail (``consult_steps``): the kill in force for the pot just
played, then the one for the next hand, whose ruling is recorded linked to that trail.
"""
from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from rulings.money import whole_number
from rulings.problems import ProblemsError
from rulings.service.core import ApiError
from rulings.service.podium import form as pf
from rulings.service.podium.kit import (account_of, book_names, service_of, first, form_data, login_redirect, page,
                                   problems_view, record_ruling, record_step, refuse, render, rule, ruling_view,
                                   shown)
from rulings.service.podium.log_pages import with_earlier
from rulings.service.store.chain import load_table_state, save_table_state
from rulings.service.store.housebook import _write

KEEP = 4                       # pots kept per table (the book reads the last two)
TABLE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _-]{0,15}$")
_LOCK = threading.Lock()
DEFAULT = {"game": {"variant": "holdem", "structure": "fixed-limit", "setting": "cash", "blinds": [10, 20],
                    "bet_sizes": [20, 40]}, "book": "standard", "split_game": False, "players": 9,
           "pots": [], "kill_button": None, "new_players": [],
           "entry": None}       # the log entry of the kill ruling recorded for the next hand, once a pot is added


def data_dir(request: Request) -> Path:
    svc = service_of(request)
    for cand in (getattr(svc, "data_dir", None), getattr(getattr(svc, "config", None), "data_dir", None)):
        if cand:
            return Path(cand)
    return Path(".")


def _file(request: Request, room: str, table: str) -> Path:
    safe_room = re.sub(r"[^A-Za-z0-9_-]", "_", room or "main")
    return data_dir(request) / "tables" / safe_room / f"{table.replace(' ', '_')}.json"


def _chain(request: Request) -> Any:
    """The chain's database engine when the tables are kept there (PostgreSQL), else None (the data folder)."""
    svc = service_of(request)
    books = getattr(svc, "books", None)
    return svc.engine if getattr(books, "chain", False) else None


def load_table(request: Request, room: str, table: str) -> dict:
    engine = _chain(request)
    if engine is not None:
        kept = load_table_state(engine, room or "main", table)
        return {**json.loads(json.dumps(DEFAULT)), **(kept or {})}
    p = _file(request, room, table)
    if p.exists():
        state = json.loads(p.read_text(encoding="utf-8"))
        return {**json.loads(json.dumps(DEFAULT)), **state}
    return json.loads(json.dumps(DEFAULT))


def save_table(request: Request, room: str, table: str, state: dict) -> None:
    engine = _chain(request)
    if engine is not None:
        save_table_state(engine, room or "main", table, state)
        return
    p = _file(request, room, table)
    with _LOCK:
        p.parent.mkdir(parents=True, exist_ok=True)
        _write(p, json.dumps(state, indent=1))


def incident_for(state: dict) -> dict:
    """The README's kill incident for the next hand at this table."""
    seats = list(range(1, int(state.get("players") or 9) + 1))
    for pot in state["pots"]:
        for s in pot["winners"]:
            if s not in seats:
                seats.append(s)
    table: dict[str, Any] = {"split_game": bool(state.get("split_game")),
                             "pots": [{k: v for k, v in p.items() if v is not None} for p in state["pots"][-KEEP:]],
                             "kill_button": state.get("kill_button")}
    if not state["pots"]:
        table["new_game"] = True
    if state.get("new_players"):
        table["new_players"] = state["new_players"]
    return {"incident": "table-kill", "game": state["game"], "button": seats[0],
            "players": {s: None for s in sorted(seats)}, "table": table}


def _ruling(request: Request, account: dict, state: dict, table: str, record: bool, trail: bool = False,
            consultation: str | None = None) -> dict:
    """The kill ruling on the table's history. ``trail``: the consultation step is kept in its trail, as the
    floor page keeps its steps (``consultation``: the trail to continue; a new one without it); ``record``:
    the step is kept and the ruling recorded in the log, linked to that trail."""
    incident = incident_for(state)
    try:
        warm, ruled = rule(request, incident, state["book"], {})       # ruled once: shown, kept and recorded
        step = shown(ruled)
        if trail or record:
            consultation = record_step(request, account, consultation, incident, warm.name, {}, table, step)
        if record:
            step = record_ruling(request, account, warm, incident, ruled, table, [], None, consultation)
    except ProblemsError as exc:
        return {"problems": problems_view(exc.problems), "rulings": [], "entry": None}
    except ApiError as exc:   # an unknown book (the service's 404)
        return {"problems": [{"where": "book", "message": exc.message, "hint": None}], "rulings": [], "entry": None}
    report = step["report"]
    rulings = [ruling_view(r, report.get("setting", "cash")) for r in report["rulings"]]
    kill = next((r for r in report["rulings"] if r.get("decides") == "kill"), None)
    effects: dict[str, Any] = {}
    for r in report["rulings"]:
        effects.update(r.get("effects") or {})
    rulings.sort(key=lambda r: r.get("decides") != "kill")
    return {"problems": [], "rulings": rulings, "entry": step.get("entry"), "kill": kill, "effects": effects,
            "outcome": step["outcome"], "book": report.get("rulebook"), "consultation": consultation}


def _with_earlier(request: Request, account: dict, state: dict, result: dict) -> dict:
    """Beside each ruling of the kill, the room's earlier rulings by the same rule on the same matter, as the
    floor page and a log entry show them: those before the entry recorded for this hand (``state["entry"]``),
    so the ruling shown is never listed beside itself."""
    with_earlier(request, account, result.get("rulings") or [], state.get("entry"))
    return result


def _table_name(request: Request, raw: str | None) -> str | None:
    raw = (raw or "").strip()
    return raw if TABLE.match(raw) else None


def kill_get(request: Request) -> Response:
    account = account_of(request)
    if account is None:
        return login_redirect(request)
    table = _table_name(request, request.query_params.get("table", "1"))
    if table is None:
        return refuse(request, "No such table", "A table is named with letters, digits, spaces and dashes.", 422)
    state = load_table(request, account["room"], table)
    result = _with_earlier(request, account, state, _ruling(request, account, state, table, record=False))
    return render(request, "kill.html", nav="kill", table=table, state=state, result=result,
                  books=book_names(request), seats=list(pf.SEATS), label=pf.game_label(state["game"]),
                  error="", account=account)


def kill_post(request: Request) -> Response:
    account = account_of(request)
    if account is None:
        return login_redirect(request)
    form = form_data(request)
    table = _table_name(request, first(form, "table"))
    if table is None:
        return refuse(request, "No such table", "A table is named with letters, digits, spaces and dashes.", 422)
    state = load_table(request, account["room"], table)
    go = first(form, "go")
    error = ""
    if go == "game":
        read = pf.read_form({"variant": first(form, "variant"), "structure": "fixed-limit",
                             "sb": first(form, "sb"), "bb": first(form, "bb"),
                             "small_bet": first(form, "small_bet"), "big_bet": first(form, "big_bet"),
                             "setting": first(form, "setting") or "cash"})
        bad = {k: v for k, v in read.errors.items() if k not in ("seats", "button")}
        if bad:
            error = "; ".join(bad.values())
        else:
            state["game"] = read.incident["game"]
            state["book"] = first(form, "book") or "standard"
            state["split_game"] = first(form, "split_game") == "1"
            n = first(form, "players")
            players = whole_number(n, 2, max(pf.SEATS)) if n else 9   # ASCII digits only: int('²') raises
            if players is None:
                error = f"The table has 2 to {max(pf.SEATS)} seats, in digits."
            else:
                state["players"] = players
                state["pots"], state["kill_button"] = [], None
    elif go == "pot":
        taps = [k for k in form if k.startswith("w-") and first(form, k)]
        winners = sorted(s for s in (whole_number(k[2:], 1, max(pf.SEATS)) for k in taps) if s is not None)
        said = first(form, "new_players")     # "3 5", "3, 5" or "3 and 5": each seat in digits 0-9, on the table
        newcomers = [whole_number(s, 1, max(pf.SEATS)) for s in re.findall(r"[0-9]+", said)]
        if any(c.isdigit() and not c.isascii() for c in said):
            newcomers.append(None)
        amount = pf.amount(first(form, "amount"))
        blinds = first(form, "blind_money")
        blind_money = pf.amount(blinds) if blinds else sum(pf.amount(str(b)) or 0 for b in state["game"].get("blinds", []))
        if len(winners) != len(taps) or None in newcomers:
            error = f"A seat is a number from 1 to {max(pf.SEATS)}, in digits."
        elif not winners:
            error = "Tap the seat that won the pot (two or more seats: a split pot)."
        elif amount is None or blind_money is None:
            error = "The pot's amount (and the blind money in it) are amounts, like 220."
        else:
            pot: dict[str, Any] = {"winners": winners, "amount": amount, "blind_money": blind_money,
                                   "flop": first(form, "flop") != "no"}
            # what was in force for the hand just played: the ruling on the history before it
            before = _ruling(request, account, state, table, record=False, trail=True)
            eff, kill = before.get("effects") or {}, before.get("kill")
            if kill and kill.get("ruling") == "kill-required" and eff.get("killer") is not None:
                pot["kill"] = {"seat": eff["killer"], "amount": eff.get("kill_blind")}
                state["kill_button"] = {"seat": eff["killer"], "legs": 2}
            elif eff.get("kill_button_next") is not None:
                state["kill_button"] = {"seat": eff["kill_button_next"], "legs": int(eff.get("kill_legs_next") or 1)}
            else:
                state["kill_button"] = None
            state["pots"] = (state["pots"] + [pot])[-KEEP:]
            state["new_players"] = [s for s in newcomers if s is not None]
    elif go == "clear":
        state["pots"], state["kill_button"], state["new_players"] = [], None, []
    if error:
        result = _with_earlier(request, account, state, _ruling(request, account, state, table, record=False))
        return render(request, "kill.html", status=422, nav="kill", table=table, state=state, result=result,
                      books=book_names(request), seats=list(pf.SEATS), label=pf.game_label(state["game"]),
                      error=error, account=account)
    state["entry"] = None
    if go == "pot":   # the kill ruling for the next hand is given, so it goes in the log, after its trail
        recorded = _ruling(request, account, state, table, record=True, consultation=before.get("consultation"))
        state["entry"] = (recorded.get("entry") or {}).get("id")
    save_table(request, account["room"], table, state)
    return RedirectResponse(f"/podium/kill?table={table}", status_code=303)


def routes() -> list:
    return [Route("/podium/kill", page(kill_get), methods=["GET"]), Route("/podium/kill", page(kill_post), methods=["POST"])]
