"""The ruling log, for people: search past rulings, open one (incident, report, decision), print it."""
from __future__ import annotations

from decimal import Decimal
from typing import Any
from urllib.parse import urlencode

import yaml
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from rulings.money import whole_number
from rulings.ruling.matters import matters
from rulings.report.render import dumps
from rulings.service.core import room_zone, zone
from rulings.service.podium.kit import (MANAGERS, account_of, first, form_data, local_time, login_redirect, page,
                                        refuse, render, ruling_view)
from rulings.service.store.log import ENTRY_ID_MAX, LogError

FILTERS = ("table", "date_from", "date_to", "topic", "rule", "matter", "citation", "floorperson")
PAGE = 50


def shown_time(at: str | None, tz: Any = None) -> str:
    """A log time as the podium's pages show it: on the room's clock with the zone's abbreviation
    (pages.local_time; UTC when no zone is given)."""
    return local_time(at, tz or zone("UTC"), seconds=True) if at else ""


def _decided(d: dict | None) -> str:
    if not d:
        return "no decision recorded"
    if d.get("decision") == "departed":
        return "the floor departed" + (f": “{d['reason']}”" if d.get("reason") else "")
    return "the floor followed it" if d.get("decision") == "followed" else str(d.get("decision"))


def earlier_view(found: dict, tz: Any = None) -> dict:
    """The room's earlier rulings on a rule and matter (Log.earlier), worded for the page."""
    rows = []
    for x in found["earlier"]:
        rows.append({"entry": x["entry"], "at": x["at"], "when": shown_time(x["at"], tz), "floorperson": x["floorperson"],
                     "table": x.get("table") or "", "sentence": x.get("sentence") or "", "decided": _decided(
                         x.get("decision")), "corrected": x["corrected"],
                     "corrections": [{"entry": c["entry"], "when": shown_time(c["at"], tz), "floorperson": c["floorperson"],
                                      "note": c.get("note") or "", "sentence": c.get("sentence") or "",
                                      "decided": _decided(c) if c.get("decision") else ""}
                                     for c in x["corrections"]]})
    return {"rule": found["rule"], "matter": found["matter"], "rows": rows, "more": found["more"],
            "search": "/podium/log?" + urlencode({"rule": found["rule"], "matter": found["matter"]})}


SAID_WORDS = ("all in", "pot", "raise", "bet", "call", "check", "fold")


def decisive(incident: Any) -> tuple:
    """What decides a dispute, beyond the rule that ruled it (issue 45): the game's structure, the act (what was
    said, in the floor's words, or nothing), the chips against the bet (none, one chip, several) and the table
    procedure in dispute (its section's name). A generic rule (words in turn bind) rules a verbal raise and a
    pot-limit "pot" alike; these tell them apart."""
    if not isinstance(incident, dict):
        return ()
    game: dict = incident["game"] if isinstance(incident.get("game"), dict) else {}
    disputed = incident.get("disputed")
    act = disputed[0] if isinstance(disputed, list) and disputed else disputed
    act = act if isinstance(act, dict) else {}
    said = str(act.get("said") or "").lower()
    word = next((w for w in SAID_WORDS if w in said), "words" if said else "nothing said") if act else ""
    chips = act.get("chips") if isinstance(act.get("chips"), list) else []
    procedure: dict = incident["procedure"] if isinstance(incident.get("procedure"), dict) else {}
    return (str(game.get("structure") or "no-limit"), word,
            "" if not act else "no chips" if not chips else "one chip" if len(chips) == 1 else "several chips",
            ", ".join(sorted(procedure)))


def decisive_words(key: tuple) -> str:
    structure, word, chips, procedure = key
    parts = [structure, word if word in ("", "nothing said", "words") else f"“{word}”", chips, procedure]
    return ", ".join(p for p in parts if p)


def with_earlier(request: Request, account: dict, views: list[dict], before: int | None = None,
                 room: str | None = None, incident: Any = None) -> list[dict]:
    """Each ruling view with ``earlier``: the room's rulings before entry ``before`` (all, when None) by the same
    rule on the same matter, newest first (``room``: the account's own unless given). With ``incident``, only
    those whose incident has the same decisive facts (``decisive``), each read from the log (the last
    ``EARLIER_LOOKED`` by rule and matter are looked at). Returned for chaining."""
    log = request.app.state.service.log
    tz = room_zone(getattr(request.app.state.service, "config", None), room or account["room"])
    key = decisive(incident) if incident is not None else None
    for v in views:
        if not isinstance(v, dict) or not v.get("rule"):
            continue
        try:
            found = log.earlier(account["raw"], room or account["room"], v["rule"], v.get("decides") or "",
                                before=before, **({"limit": EARLIER_LOOKED} if key else {}))
            if key:
                like = [x for x in found["earlier"]
                        if decisive((log.get(x["entry"], account["raw"]) or {}).get("incident")) == key]
                found = {**found, "earlier": like[:EARLIER_SHOWN], "more": found["more"] or len(like) > EARLIER_SHOWN}
            v["earlier"] = earlier_view(found, tz)
            if key:
                v["earlier"]["like"] = decisive_words(key)
        except LogError:       # another room's log, for a floor account: nothing beside the ruling
            v["earlier"] = None
    return views


EARLIER_LOOKED = 20     # earlier rulings by the rule and matter whose incidents are read for their decisive facts
EARLIER_SHOWN = 5


def _entries(result: Any) -> tuple[list[dict], int]:
    if isinstance(result, dict):
        return list(result.get("entries", [])), int(result.get("total", len(result.get("entries", []))))
    entries = list(result)
    return entries, len(entries)


def log_list(request: Request) -> Response:
    account = account_of(request)
    if account is None:
        return login_redirect(request)
    q = {k: request.query_params.get(k, "").strip() for k in FILTERS}
    offset = whole_number(request.query_params.get("offset") or "0", 0, ENTRY_ID_MAX)
    if offset is None:   # ASCII digits only: int('²') raises, and 4,000 digits overflow the database's integer
        return refuse(request, "No such page", "The page of the log is a whole number, in digits 0-9.", 422)
    filters = {k: v for k, v in q.items() if v}
    log = request.app.state.service.log
    try:
        entries, total = _entries(log.search({**filters, "kind": "ruling"}, account["raw"], limit=PAGE,
                                             offset=offset))
        decided = {}
        for d in reversed(log.search({**filters, "kind": "decision"}, account["raw"], limit=1000)["entries"]):
            decided[d["refers_to"]] = d["decision"]
    except LogError as exc:   # a filter the log refuses (a date that is not one, ...)
        return refuse(request, "Search refused", getattr(exc, "message", str(exc)), exc.status)
    rows = []
    for e in entries:
        report = e.get("report") or {}
        first = (report.get("rulings") or [{}])[0]
        rows.append({"id": e["id"], "at": str(e.get("at", ""))[:19].replace("T", " "), "table": e.get("table") or "",
                     "room": e.get("room") or "", "topics": ", ".join(e.get("topics") or []),
                     "rules": ", ".join(e.get("rules") or []), "floorperson": e.get("floorperson") or "",
                     "sentence": first.get("sentence") or ("not covered by the book" if e.get("outcome") ==
                                                           "not_covered" else ""),
                     "decision": decided.get(e["id"], "")})
    return render(request, "log.html", nav="log", q=q, rows=rows, total=total, offset=offset, page=PAGE,
                  account=account, matters=[(k, k.replace("-", " ")) for k in matters()[0]])


def log_entry(request: Request) -> Response:
    account = account_of(request)
    if account is None:
        return login_redirect(request)
    entry_id = whole_number(request.path_params["id"], 1, ENTRY_ID_MAX)
    log = request.app.state.service.log
    entry = None if entry_id is None else log.get(entry_id, account["raw"])
    if entry is None:
        return refuse(request, "No such entry", f"There is no entry #{str(request.path_params['id'])[:20]} in the log "
                      "you can read.", 404)
    report = entry.get("report") or {}
    setting = report.get("setting", "cash")
    game = entry["incident"].get("game") if isinstance(entry.get("incident"), dict) else None
    rulings = [ruling_view(r, setting, game) for r in report.get("rulings") or []]
    acts = [{"name": one.get("incident"), "outcome": one.get("outcome"),   # every disputed act, in hand order
             "rulings": [ruling_view(r, setting, game) for r in one.get("rulings") or []]}
            for one in [report, *(report.get("more_acts") or [])]]
    if entry.get("kind") == "ruling":       # beside each ruling, the room's rulings before it on the same
        shown = [r for act in acts for r in act["rulings"]] if len(acts) > 1 else rulings   # as the page shows them
        with_earlier(request, account, shown, before=entry["id"], room=entry["room"], incident=entry.get("incident"))
    incident_text = _yaml(entry.get("incident"))
    later = entry.get("later") or []
    return render(request, "log_entry.html", nav="log", e=entry, rulings=rulings, acts=acts, incident_text=incident_text,
                  later=later, recorded=request.query_params.get("recorded", ""), account=account,
                  book_link=_book_link(entry), report_json=dumps(report), now=report.get("now") or [])


class _Dumper(yaml.SafeDumper):
    """YAML with exact money: a Decimal read back from the log is written as the number it is."""


_Dumper.add_representer(Decimal, lambda d, v: d.represent_scalar("tag:yaml.org,2002:int" if v == v.to_integral_value()
                                                                  else "tag:yaml.org,2002:float", f"{v.normalize():f}"))


def _yaml(incident: Any) -> str:
    """The incident as entered, in the README's YAML layout (seat keys as numbers, short lists inline)."""
    if isinstance(incident, str):
        return incident
    if isinstance(incident, dict) and isinstance(incident.get("players"), dict):
        incident = dict(incident, players={whole_number(str(k), 0, 10 ** 6) or k: v
                                           for k, v in incident["players"].items()})
    return yaml.dump(incident, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100,
                     default_flow_style=None)


def _book_link(entry: dict) -> str | None:
    book, digest = entry.get("book"), entry.get("book_hash")
    if not book or not digest:
        return None
    return f"/podium/books/{book}/version/{digest}"


def correction_post(request: Request) -> Response:
    """A manager's correction: a new entry referring to this one (the service checks the role and the fields)."""
    account = account_of(request)
    if account is None:
        return login_redirect(request)
    if account["role"] not in MANAGERS:
        return refuse(request, "Managers only", "A log entry is corrected by a manager.", 403)
    form = form_data(request)
    body = {"note": first(form, "note").strip() or None, "decision": first(form, "decision") or None,
            "reason": first(form, "reason").strip() or None}
    entry_id = whole_number(request.path_params["id"], 1, ENTRY_ID_MAX)
    if entry_id is None:
        return refuse(request, "Not recorded", "There is no such entry in the log.", 404)
    try:
        request.app.state.service.log.follow_up(account["raw"], entry_id, "correction", body)
    except LogError as exc:
        words = "; ".join(p.get("message", "") for p in exc.problems) or exc.message
        return refuse(request, "Not recorded", words, exc.status)
    return RedirectResponse(f"/podium/log/{entry_id}", status_code=303)


def routes() -> list:
    return [
        Route("/podium/log/{id}/correction", page(correction_post), methods=["POST"]),
        Route("/podium/log", page(log_list), methods=["GET"]),
        Route("/podium/log/{id}", page(log_entry), methods=["GET"]),
    ]
