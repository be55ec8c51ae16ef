"""The OpenAPI 3.1 document of the service, served at /openapi.json (kept equal to the routes by a test)."""
from __future__ import annotations

from functools import lru_cache

_ERR = {"$ref": "#/components/responses/Error"}


def _op(summary: str, *, body: str | None = None, ok: str = "Object", status: str = "200",
        public: bool = False, params: list | None = None, role: str = "floor", busy: bool = False) -> dict:
    op: dict = {"summary": summary + ("" if public else f" (role: {role} or above)"),
                "responses": {status: {"description": "done", "content": {"application/json": {
                    "schema": {"$ref": f"#/components/schemas/{ok}"}}}},
                    "400": _ERR, "401": _ERR, "403": _ERR, "404": _ERR, "413": _ERR, "415": _ERR,
                    "422": _ERR, "429": _ERR}}
    if busy:     # the login: 503 when too many logins wait for a password hash (API.md, "Auth")
        op["responses"]["503"] = _ERR
    if public:
        op["security"] = []
    if body:
        op["requestBody"] = {"required": True, "content": {"application/json": {
            "schema": {"$ref": f"#/components/schemas/{body}"}}}}
    if params:
        op["parameters"] = params
    return op


def _q(name: str, description: str, schema: dict | None = None) -> dict:
    return {"name": name, "in": "query", "required": False, "description": description,
            "schema": schema or {"type": "string"}}


def _p(name: str, schema: dict | None = None) -> dict:
    return {"name": name, "in": "path", "required": True, "schema": schema or {"type": "string"}}


_FILTERS = [_q("table", "table name or number"), _q("room", "room (managers: any; floor: its own)"),
            _q("date_from", "first day, YYYY-MM-DD, on the room's clock (serve --time-zone / --room-zone)", {"type": "string", "format": "date"}),
            _q("date_to", "last day (included), YYYY-MM-DD, on the room's clock", {"type": "string", "format": "date"}),
            _q("topic", "rule topic, e.g. pot-limit"), _q("rule", "a ruling in force by this rule: its id or a citation key of the rule"),
            _q("matter", "a ruling in force on this matter (rulings/ruling/matters.yaml), by the rule given when both are"),
            _q("citation", "citation key"),
            _q("floorperson", "account name"), _q("kind", "ruling | decision | correction"),
            _q("consultation", "the consultation a ruling was recorded from")]


@lru_cache(maxsize=1)
def document() -> dict:
    obj = {"type": "object"}
    schemas = {
        "Object": obj,
        "Error": {"type": "object", "required": ["error"], "properties": {"error": {
            "type": "object", "properties": {"status": {"type": "integer"}, "code": {"type": "string"},
                                             "message": {"type": "string"},
                                             "problems": {"type": "array", "items": obj}}}}},
        "Login": {"type": "object", "required": ["username", "password"],
                  "properties": {"username": {"type": "string"}, "password": {"type": "string"}}},
        "Account": {"type": "object", "required": ["username", "password", "role"], "properties": {
            "username": {"type": "string"}, "password": {"type": "string", "minLength": 8},
            "role": {"enum": ["floor", "manager", "admin"]}, "room": {"type": "string"}}},
        "AccountChange": {"type": "object", "minProperties": 1, "additionalProperties": False, "properties": {
            "disabled": {"type": "boolean", "description": "true: it cannot log in and its sessions end; false: "
                                                          "enabled again"},
            "role": {"enum": ["floor", "manager", "admin"]}, "room": {"type": "string"},
            "password": {"type": "string", "minLength": 8, "description": "a new password: its sessions end"}}},
        "AccountListed": {"type": "object", "properties": {
            "username": {"type": "string"}, "role": {"type": "string"}, "room": {"type": "string"},
            "disabled": {"type": "boolean"}, "created_at": {"type": "string"}}},
        "Session": {"type": "object", "properties": {"token": {"type": "string"}, "expires_at": {"type": "string"},
                                                     "username": {"type": "string"}, "role": {"type": "string"},
                                                     "room": {"type": "string"}}},
        "Consult": {"type": "object", "properties": {
            "incident": {"description": "the incident format of the README, as an object or YAML/JSON text "
                                        "(this or told)",
                         "oneOf": [obj, {"type": "string"}]},
            "told": {"type": "string", "maxLength": 8000,
                     "description": "the dispute told in the floor's words instead of an incident: read "
                                    "(docs/told.md), the answer's `told` shows what was read, the text is kept in "
                                    "the incident's note"},
            "book": {"type": "string", "description": "standard or a house book name"},
            "answers": {"type": "object", "description": "fact (or fact@N, about disputed act N in hand order): "
                                                         "one of its allowed values"},
            "consultation": {"type": "string", "description": "the id an earlier step answered: this step is "
                                                              "appended to that consultation's trail"},
            "table": {"type": "string"}}},
        "Rule": {"allOf": [{"$ref": "#/components/schemas/Consult"}, {"type": "object", "properties": {
            "table": {"type": "string"}, "room": {"type": "string"}, "request_id": {"type": "string"},
            "asked": {"type": "array", "items": obj}}}]},
        "Step": {"type": "object", "properties": {
            "outcome": {"enum": ["ruled", "questions", "not_covered"]},
            "report": {"type": "object", "description": "the first disputed act's report; with several acts, "
                                                        "more_acts holds the others' reports in hand order"},
            "questions": {"type": "array", "items": {"type": "object", "properties": {
                "fact": {"type": "string"}, "key": {"type": "string", "description": "the answers key: fact, or "
                                                                                     "fact@N for act N"},
                "act": {"type": "integer"}, "question": {"type": "string"}, "type": {"type": "string"},
                "field": {"type": "string"}, "asked_by": {"type": ["string", "null"]},
                "rules": {"type": "array", "items": {"type": "string"}},
                "values": {"type": "array", "items": obj}}}},
            "also": {"type": "array", "description": "also worth asking: questions whose answers change only a "
                     "ruling on another matter than the dispute's", "items": {"type": "object", "properties": {
                         "fact": {"type": "string"}, "key": {"type": "string"}, "question": {"type": "string"},
                         "act": {"type": "integer"}, "rules": {"type": "array", "items": {"type": "string"}}}}},
            "open": {"type": "array", "items": obj}, "incident": obj, "answers": obj,
            "entry": {"type": "object", "description": "only from /api/rule: the log entry written"},
            "consultation": {"type": "object", "description": "only from /api/consult: the step recorded",
                             "properties": {"id": {"type": "string"}, "step": {"type": "integer"},
                                            "at": {"type": "string"}}}}},
        "Trail": {"type": "object", "properties": {
            "consultation": {"type": "string"}, "entries": {"type": "array", "items": {"type": "integer"}},
            "steps": {"type": "array", "items": {"type": "object", "properties": {
                "step": {"type": "integer"}, "at": {"type": "string"}, "floorperson": {"type": "string"},
                "answered": {"type": "array", "items": obj}, "questions": {"type": "array", "items": obj},
                "answers": obj, "outcome": {"type": "string"}, "rules": {"type": "array"}}}}}},
        "Entry": {"type": "object", "properties": {
            "id": {"type": "integer"}, "kind": {"enum": ["ruling", "decision", "correction"]},
            "refers_to": {"type": ["integer", "null"]}, "at": {"type": "string"}, "room": {"type": "string"},
            "table": {"type": ["string", "null"]}, "floorperson": {"type": "string"}, "book": {"type": "string"},
            "book_hash": {"type": "string"}, "book_version": {"type": ["integer", "null"]},
            "outcome": {"type": ["string", "null"]}, "incident": {},
            "answers": {}, "report": {}, "decision": {"type": ["string", "null"]},
            "reason": {"type": ["string", "null"]}, "note": {"type": ["string", "null"]},
            "consultation": {"type": ["string", "null"]}, "trail": {"type": "array", "items": obj}}},
        "Earlier": {"type": "object", "properties": {
            "room": {"type": ["string", "null"], "description": "null: every room of the chain (rooms=all)"}, "rule": {"type": "string"}, "matter": {"type": "string"},
            "more": {"type": "boolean", "description": "there are more: search the log by rule and matter"},
            "earlier": {"type": "array", "items": {"type": "object", "properties": {
                "entry": {"type": "integer"}, "at": {"type": "string"}, "room": {"type": "string"},
                "floorperson": {"type": "string"}, "table": {"type": ["string", "null"]}, "book": {"type": ["string", "null"]},
                "sentence": {"type": ["string", "null"]},
                "decision": {"type": ["object", "null"], "description": "the floor's last decision on it"},
                "corrected": {"type": "boolean"}, "corrections": {"type": "array", "items": obj}}}}}},
        "Decision": {"type": "object", "required": ["decision"], "properties": {
            "decision": {"enum": ["followed", "departed"]}, "reason": {"type": "string"}}},
        "Correction": {"type": "object", "required": ["note"], "properties": {
            "note": {"type": "string"}, "decision": {"enum": ["followed", "departed"]},
            "reason": {"type": "string"}, "table": {"type": "string"},
            "incident": {"description": "the corrected incident: ruled again, the correction carries the new ruling",
                         "oneOf": [obj, {"type": "string"}]},
            "book": {"type": "string"}, "answers": obj}},
    }
    paths = {
        "/health": {"get": _op("Is the service up", public=True)},
        "/openapi.json": {"get": _op("This document")},
        "/api/login": {"post": _op("Log in: a session token (also set as the rulings_session cookie)",
                                   body="Login", ok="Session", public=True, busy=True)},
        "/api/logout": {"post": _op("Revoke the session", status="204")},
        "/api/me": {"get": _op("The logged-in account")},
        "/api/consult": {"post": _op("One consultation step: the ruling so far and the questions that change it; "
                                     "appended to the consultation's trail", body="Consult", ok="Step")},
        "/api/consultations/{id}": {"get": _op("A consultation's trail: every step in order, the rulings recorded",
                                               ok="Trail", params=[_p("id")])},
        "/api/rule": {"post": _op("Rule on an incident and record it in the log (acknowledged once on disk)",
                                 body="Rule", ok="Step")},
        "/api/log": {"get": _op("Search the log, newest first", params=_FILTERS + [
            _q("limit", "at most this many (1-1000, default 50)", {"type": "integer"}),
            _q("offset", "skip this many", {"type": "integer"})])},
        "/api/log/export": {"get": _op("Export the log (CSV or JSON)", params=_FILTERS + [
            _q("format", "csv or json", {"enum": ["csv", "json"]})])},
        "/api/log/earlier": {"get": _op(
            "The room's rulings by a rule on a matter, newest first: when, by whom, the sentence, the floor's "
            "decision, corrections", ok="Earlier", params=[
                {**_q("rule", "rule id"), "required": True},
                {**_q("matter", "the matter the ruling decides"), "required": True},
                _q("room", "the account's own room by default (managers: any)"),
                _q("rooms", "all: every room of the chain (managers)", {"enum": ["all"]}),
                _q("before", "only entries before this entry id", {"type": "integer"}),
                _q("limit", "at most this many (1-50, default 5)", {"type": "integer"})])},
        "/api/log/{id}/earlier": {"get": _op(
            "For each ruling in force of a logged ruling, the room's earlier rulings by the same rule on the same "
            "matter", params=[_p("id", {"type": "integer"}),
                              _q("rooms", "all: every room of the chain (managers)", {"enum": ["all"]})])},
        "/api/log/{id}": {"get": _op("One entry, with the entries referring to it", ok="Entry",
                                     params=[_p("id", {"type": "integer"})])},
        "/api/log/{id}/decision": {"post": _op("The floor's decision on a ruling: a new entry", body="Decision",
                                              ok="Entry", status="201", params=[_p("id", {"type": "integer"})])},
        "/api/log/{id}/correction": {"post": _op("A correction: a new entry pointing at the one it corrects",
                                                body="Correction", ok="Entry", status="201", role="manager",
                                                params=[_p("id", {"type": "integer"})])},
        "/api/accounts": {"get": _op("The accounts", role="admin"),
                          "post": _op("Create an account", body="Account", status="201", role="admin")},
        "/api/accounts/{name}": {"patch": _op(
            "Change an account as the accounts page does: disable or enable it, set its role or room, reset its "
            "password (audited)", body="AccountChange", ok="AccountListed", role="admin", params=[_p("name")])},
        "/api/books": {"get": _op("The rulebooks served, with content hashes")},
        "/api/books/{name}": {"get": _op("A rulebook's parameters and rules", params=[_p("name")])},
        "/api/explain/{what}": {"get": _op("A rule, parameter or citation key explained",
                                           params=[_p("what"), _q("book", "standard or a house book")])},
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "rulings — the ruling service", "version": "1",
                 "description": "A card room's rules expert over HTTP: rule, consult, and keep the ruling log. "
                                "See rulings/service/API.md."},
        "paths": paths,
        "components": {"schemas": schemas,
                       "responses": {"Error": {"description": "refused; nothing was changed",
                                               "content": {"application/json": {
                                                   "schema": {"$ref": "#/components/schemas/Error"}}}}},
                       "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"},
                                           "cookie": {"type": "apiKey", "in": "cookie", "name": "rulings_session"}}},
        "security": [{"bearer": []}, {"cookie": []}],
    }
