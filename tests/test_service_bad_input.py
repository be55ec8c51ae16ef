"""Bad input to the service: each refusal is clear, names every problem, and changes nothing."""
from __future__ import annotations

import json
import warnings

import pytest
import yaml

from service_support import BACKENDS, count_entries, login, make_service, overchip

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture(params=BACKENDS)
def env(request, tmp_path):
    from rulings.service.api.app import create_app
    svc = make_service(tmp_path, request.param)
    with TestClient(create_app(service=svc), raise_server_exceptions=False) as c:
        c.floor = login(c, "fiona")
        yield c, svc
    svc.close()


def _post(client, path, body, **kw):
    headers = {"Content-Type": "application/json", **client.floor, **kw.pop("headers", {})}
    return client.post(path, content=body if isinstance(body, (str, bytes)) else json.dumps(body),
                       headers=headers, **kw)


def _error(r, status, code):
    assert r.status_code == status, r.text
    err = r.json()["error"]
    assert err["status"] == status and err["code"] == code and err["message"]
    return err


def test_malformed_json_wrong_type_and_oversized(env):
    client, svc = env
    before = count_entries(svc)
    _error(_post(client, "/api/rule", '{"incident": {"game": '), 400, "json")
    _error(_post(client, "/api/rule", "[1, 2]"), 400, "json")
    _error(_post(client, "/api/rule", b"\xff\xfe{}"), 400, "json")
    r = client.post("/api/rule", content="incident: x", headers={**client.floor, "Content-Type": "text/yaml"})
    _error(r, 415, "content_type")
    big = json.dumps({"incident": overchip(), "table": "x" * (300 * 1024)})
    _error(_post(client, "/api/rule", big), 413, "too_large")
    _error(_post(client, "/api/rule", {"table": "7"}), 422, "request")       # no incident at all
    assert count_entries(svc) == before


def test_incident_problems_are_all_given_as_the_cli_gives_them(env, tmp_path, capsys):
    client, svc = env
    bad = overchip()
    bad["actions"] = [{"seat": 1, "action": "bet", "to": -50}]
    bad["noticed"] = "later"
    bad["disputed"]["colour"] = "red"
    r = _post(client, "/api/rule", {"incident": bad})
    err = _error(r, 422, "incident")
    got = sorted((p["code"], p["message"]) for p in err["problems"])
    assert len(got) == 3 and {c for c, _ in got} == {"I101", "I103", "I104"}
    # the same refusals as `rulings rule` on the same incident written as a file
    from cli.main import main
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(bad), encoding="utf-8")
    assert main(["rule", str(path), "--format", "json"]) == 2
    cli = sorted((p["code"], p["message"]) for p in json.loads(capsys.readouterr().out)["problems"])
    assert got == cli
    # given as YAML text, the refusal carries line and column
    text_err = _error(_post(client, "/api/consult", {"incident": yaml.safe_dump(bad)}), 422, "incident")
    assert all(p["line"] > 0 for p in text_err["problems"])
    assert count_entries(svc) == 0


def test_unknown_book_and_answers_not_allowed(env):
    client, svc = env
    err = _error(_post(client, "/api/rule", {"incident": overchip(), "book": "east-coast-limt"}), 404, "not_found")
    assert "east-coast-limit" in err["problems"][0]["hint"]                # did you mean
    # a house given as a path is never read: the reader refuses it (I104 at house), as `rulings rule` does,
    # whether the incident comes as an object or as text (books.book_for names only houses, never paths)
    for sent in ({**overchip(), "house": "../../etc/passwd"}, json.dumps({**overchip(), "house": "../../etc/passwd"})):
        err = _error(_post(client, "/api/rule", {"incident": sent}), 422, "incident")
        assert [(p["code"], p["path"]) for p in err["problems"]] == [("I104", ["house"])]
    err = _error(_post(client, "/api/rule", {"incident": {**overchip(), "house": "east-coast-limt"}}), 404, "not_found")
    assert "east-coast-limit" in err["problems"][0]["hint"]                # a house name: did you mean
    err = _error(_post(client, "/api/consult", {"incident": overchip(),
                                                "answers": {"released": "perhaps", "noticed": "tomorrow"}}),
                 422, "answer")
    assert sorted(p["path"][1] for p in err["problems"]) == ["noticed", "released"]
    assert "before_next_action" in next(p for p in err["problems"] if p["path"][1] == "noticed")["hint"]
    _error(_post(client, "/api/rule", {"incident": overchip(), "answers": {"pot": 5}}), 422, "answer")
    _error(_post(client, "/api/rule", {"incident": overchip(), "answers": ["noticed"]}), 422, "request")
    assert count_entries(svc) == 0


def test_sql_and_html_are_stored_and_returned_as_text(env):
    client, svc = env
    table = "7'); DROP TABLE entries; --"
    said = "<script>alert('x')</script> raise to 400"
    incident = overchip()
    incident["disputed"]["said"] = said
    incident["incident"] = "<b>bold</b> ' OR 1=1 --"
    r = _post(client, "/api/rule", {"incident": incident, "table": table})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/json")
    rid = r.json()["entry"]["id"]
    reason = "<img src=x onerror=alert(1)>'; DELETE FROM entries; --"
    assert _post(client, f"/api/log/{rid}/decision", {"decision": "departed", "reason": reason}).status_code == 201
    entry = client.get(f"/api/log/{rid}", headers=client.floor).json()
    assert entry["table"] == table and entry["incident"]["disputed"]["said"] == said
    assert entry["incident"]["incident"] == "<b>bold</b> ' OR 1=1 --"
    assert entry["later"][0]["reason"] == reason
    found = client.get("/api/log", params={"table": table, "kind": "ruling"}, headers=client.floor).json()
    assert [e["id"] for e in found["entries"]] == [rid]
    # a LIKE wildcard in a search is a character, not a pattern
    assert client.get("/api/log", params={"rule": "%"}, headers=client.floor).json()["total"] == 0
    assert count_entries(svc) == 2                                         # nothing dropped or deleted
    # text shaped like the log's own marking of exact money stays text
    incident["incident"] = "__dec__5__"
    r = _post(client, "/api/rule", {"incident": incident, "table": "__dec__7__"})
    entry = client.get(f"/api/log/{r.json()['entry']['id']}", headers=client.floor).json()
    assert entry["incident"]["incident"] == "__dec__5__" and entry["table"] == "__dec__7__"


def test_no_account_or_wrong_role_changes_nothing(env):
    client, svc = env
    rid = _post(client, "/api/rule", {"incident": overchip()}).json()["entry"]["id"]
    before = count_entries(svc)
    r = client.post("/api/rule", json={"incident": overchip()})
    _error(r, 401, "auth")
    _error(_post(client, f"/api/log/{rid}/correction", {"note": "x"}), 403, "role")
    _error(_post(client, "/api/accounts", {"username": "eve", "password": "12345678", "role": "admin"}), 403, "role")
    r = client.post(f"/api/log/{rid}/decision", json={"decision": "followed"},
                    headers={"Authorization": "Bearer expired-or-made-up"})
    _error(r, 401, "auth")
    _error(_post(client, f"/api/log/{rid}/decision", {"decision": "ignored"}), 422, "request")
    _error(_post(client, "/api/log/99999/decision", {"decision": "followed"}), 404, "not_found")
    _error(client.get("/api/log/99999999999999999999999", headers=client.floor), 404, "not_found")
    assert count_entries(svc) == before
    _error(client.get("/api/nowhere", headers=client.floor), 404, "not_found")


def test_random_wrong_values_are_refused_or_ruled_never_a_server_error(tmp_path):
    """Values of the wrong kind anywhere in an incident: a 422 naming them or a ruling; each 200 logged once."""
    import copy
    import random
    from rulings.service.api.app import create_app
    svc = make_service(tmp_path, "sqlite")
    values = [None, -1, 0, 10 ** 30, "x", "", [], {}, [1, "a"], {"a": 1}, True, "1.5", "<b>", "500", [[]]]
    base = overchip()

    def paths(node, pre=()):
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for k, v in items:
            yield pre + (k,)
            yield from paths(v, pre + (k,))
    where = list(paths(base))
    rng = random.Random(15)
    ok = 0
    with TestClient(create_app(service=svc), raise_server_exceptions=False) as c:
        floor = login(c, "fiona")
        for _ in range(150):
            data = copy.deepcopy(base)
            for _ in range(rng.randint(1, 3)):
                path = rng.choice(where)
                node = data
                try:
                    for k in path[:-1]:
                        node = node[k]
                    node[path[-1]] = rng.choice(values)
                except (KeyError, IndexError, TypeError):
                    pass
            r = c.post("/api/rule", json={"incident": data}, headers=floor)
            assert r.status_code in (200, 422), (r.status_code, r.text[:300], data)
            if r.status_code == 422:
                assert r.json()["error"]["problems"], data
            ok += r.status_code == 200
    assert 0 < ok < 150 and count_entries(svc) == ok
    svc.close()


def test_csv_export_shows_a_formula_as_text(env):
    import csv
    import io
    client, svc = env
    table = '=HYPERLINK("http://x","7")'
    assert _post(client, "/api/rule", {"incident": overchip(), "table": table}).status_code == 200
    rows = list(csv.DictReader(io.StringIO(client.get("/api/log/export?format=csv", headers=client.floor).text)))
    assert rows[0]["table"] == "'" + table                                 # a spreadsheet shows it, never runs it
    data = json.loads(client.get("/api/log/export?format=json", headers=client.floor).text)
    assert data["entries"][0]["table"] == table                            # JSON keeps the text exactly


# ---------------------------------------------------------------- issue #42: whole numbers from a client

SUPERSCRIPT_TWO = "\u00b2"     # '²'.isdigit() is True, but int('²') raises


@pytest.fixture
def sqlite_env(tmp_path):
    from rulings.service.api.app import create_app
    svc = make_service(tmp_path, "sqlite")
    with TestClient(create_app(service=svc), raise_server_exceptions=False) as c:
        c.floor = login(c, "fiona")
        yield c, svc
    svc.close()


def _two_acts() -> dict:
    return {"game": {"structure": "no-limit", "blinds": [1, 2]}, "button": 3, "players": {1: 1000, 2: 1000, 3: 1000},
            "streets": [{"street": "preflop", "actions": [{"seat": 1, "action": "call"}, {"seat": 2, "action": "check"}]},
                        {"street": "flop", "actions": [{"seat": 1, "action": "bet", "to": 10},
                                                       {"seat": 2, "action": "call"}]}],
            "disputed": [{"seat": 1, "said": "bet", "at": {"street": "flop", "after": 0}},
                         {"seat": 2, "said": "call", "at": {"street": "flop", "after": 1}}]}


@pytest.mark.parametrize("number", [SUPERSCRIPT_TWO, "9" * 60, "0", "3", "-1", " 1", "1.0", "\u0663"])
def test_an_answer_for_an_act_that_is_no_act_number_is_refused(sqlite_env, number):
    client, svc = sqlite_env
    r = _post(client, "/api/consult", {"incident": _two_acts(), "answers": {f"noticed@{number}": "before_next_action"}})
    err = _error(r, 422, "answer")
    [p] = err["problems"]
    assert p["code"] == "C101" and "the incident has no disputed act" in p["message"]
    assert len(p["message"]) < 200 and count_entries(svc) == 0


@pytest.mark.parametrize("key", ["9" * 5000, "noticed@" + "9" * 5000])
def test_an_answer_key_of_five_thousand_digits_is_refused_and_never_written_back_whole(sqlite_env, key):
    client, svc = sqlite_env
    r = _post(client, "/api/consult", {"incident": _two_acts(), "answers": {key: "before_next_action"}})
    [p] = _error(r, 422, "answer")["problems"]
    assert p["code"] == "C101" and "is not a question the consultation can take" in p["message"]
    assert len(p["message"]) < 300 and len(p["path"][1]) <= 80


@pytest.mark.parametrize("query", [f"limit={SUPERSCRIPT_TWO}", "offset=" + "9" * 4000, "offset=" + "9" * 5000,
                                   "limit=-3", "offset=1_000", f"offset={SUPERSCRIPT_TWO}"])
def test_paging_numbers_are_ascii_whole_numbers_in_range(sqlite_env, query):
    client, _ = sqlite_env
    r = client.get(f"/api/log?{query}", headers=client.floor)
    _error(r, 422, "request")


@pytest.mark.parametrize("query", [f"before={SUPERSCRIPT_TWO}", "before=" + "9" * 4000, "limit=" + "9" * 5000])
def test_the_earlier_rulings_numbers_are_bounded(sqlite_env, query):
    client, _ = sqlite_env
    r = client.get(f"/api/log/earlier?rule=x&matter=y&{query}", headers=client.floor)
    _error(r, 422, "request")


def test_a_log_entry_id_of_five_thousand_digits_is_not_found(sqlite_env):
    client, _ = sqlite_env
    r = client.get("/api/log/" + "9" * 5000, headers=client.floor)
    assert r.status_code == 404, r.text[:300]


def test_an_amount_with_a_huge_exponent_in_a_body_is_refused_by_field(sqlite_env):
    client, svc = sqlite_env
    body = json.dumps({"incident": overchip()}).replace('"pot": 80', '"pot": 1.0e+999999999')
    assert "1.0e+999999999" in body
    err = _error(_post(client, "/api/rule", body), 422, "incident")
    assert [p["code"] for p in err["problems"]] == ["I103"] and count_entries(svc) == 0
    body = json.dumps({"incident": overchip()}).replace('"pot": 80', '"pot": NaN')
    assert [p["code"] for p in _error(_post(client, "/api/rule", body), 422, "incident")["problems"]] == ["I103"]


# issue #42 F: a sentence holding a NUL never reaches the log (PostgreSQL stores no NUL: every ruling was a 500)
SPLIT_SAY = 'say: "The {{ kill_last_pot | money }} pot was split'


@pytest.mark.parametrize("nul, code", [("\\0", "R115"), ('{{ \\"\\\\x00\\" }}', "R302")])
def test_a_house_book_whose_sentence_holds_a_nul_is_never_published(env, nul, code):
    client, svc = env
    text = svc.books.published.text("east-coast-limit")
    assert SPLIT_SAY in text
    check, info = svc.books.published.publish("east-coast-limit", text.replace(SPLIT_SAY, SPLIT_SAY + nul), "manny")
    assert info is None and [p.code for p in check.problems] == [code]
    split = {"game": {"structure": "fixed-limit", "blinds": [10, 20], "bet_sizes": [20, 40]}, "button": 1,
             "players": {str(s): 1000 for s in range(1, 7)},
             "table": {"pots": [{"winners": [2, 6], "amount": 500, "blind_money": 30}]}}
    r = _post(client, "/api/rule", {"incident": split, "book": "east-coast-limit"})
    assert r.status_code == 200, r.text
    assert "east-coast-limit.split-big-pot-no-kill" in r.text and "\\u0000" not in r.text


@pytest.mark.parametrize("length", [SUPERSCRIPT_TWO, "9" * 5000, "-1", "1e3", "\u0663"])
def test_a_content_length_that_is_no_number_of_bytes_is_a_bad_request(length):
    """The body guard reads the declared length before a byte of the body: a header no number of bytes
    ('²' passes str.isdigit, 5,000 digits pass it too and int() refuses them) is a 400, never a 500."""
    import asyncio

    from rulings.service.guard import Guard
    reached: list = []
    sent: list = []

    async def app(scope, receive, send):          # the service behind the guard: must never be reached
        reached.append(scope["path"])

    async def receive():
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/rule", "query_string": b"", "scheme": "http",
             "server": ("127.0.0.1", 8080), "headers": [(b"host", b"127.0.0.1:8080"),
                                                         (b"content-type", b"application/json"),
                                                         (b"content-length", length.encode())]}
    asyncio.run(Guard(app)(scope, receive, send))
    assert reached == []
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 400
    body = json.loads(b"".join(m.get("body", b"") for m in sent[1:]))
    assert body["error"]["code"] == "bad_length"
