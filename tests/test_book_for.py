"""Which book rules an incident is decided in one place (books.book_for) for the command line, batch, ask, the
JSON API and the podium (issue 28, "one owner per decision"): the book the caller names, else the house the
incident names (``house:``, a name, never a path), else the standard book.

The incident: a $1/$2 cash game, seat 4 on the clock facing a bet, who acts on the 31st second. The standard book
gives a cash game one minute and a 10-second warning (70 seconds): he acted in time. The tda-series house book
(rulebooks/houses/tda-series.yaml) gives 25 seconds and a 5-second countdown (30 seconds), cash games included:
his hand is dead.
"""
from __future__ import annotations

import io
import json
import warnings

import pytest
import yaml

from service_support import BACKENDS, login, make_service

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

CLOCK = {"incident": "clock-cash", "game": {"variant": "holdem", "structure": "no-limit", "blinds": [1, 2]},
         "button": 1, "players": {1: 500, 2: 500, 3: 500, 4: 500}, "street": "turn",
         "procedure": {"clock": {"seat": 4, "called_by": "floor", "facing_bet": True, "seconds_taken": 31}}}
HOUSE = {**CLOCK, "house": "tda-series"}
DEAD = ("tda-series", "hand-dead", "Time ran out on seat 4 facing a bet (31 seconds against 30): his hand is dead.")
IN_TIME = ("standard", "action-in-time", "Seat 4 acted in time (31 of 70 seconds); his action stands.")


def _said(report: dict) -> tuple:
    """The book, the ruling and its sentence: what the house changes."""
    (one,) = report["rulings"]
    return report["rulebook"], one["ruling"], one["sentence"]


def _ways(incident: dict) -> dict:
    """The incident as the API takes it: a JSON object, YAML text, JSON text."""
    return {"mapping": incident, "yaml": yaml.safe_dump(incident, sort_keys=False), "json": json.dumps(incident)}


def test_book_for_reads_a_house_name_from_every_form_of_an_incident(tmp_path):
    from rulings.ruling import books
    from rulings.incident import load_incident
    from rulings.yamlsrc import load_text
    for text in _ways(HOUSE).values():
        assert books.book_for(text) == "tda-series"
    assert books.book_for(load_text(_ways(HOUSE)["yaml"], "<t>")[0]) == "tda-series"       # a located document
    path = tmp_path / "clock.yaml"
    path.write_text(_ways(HOUSE)["yaml"], encoding="utf-8")
    assert books.book_for(load_incident(str(path), books.load()[0])) == "tda-series"      # the reader's Incident
    assert books.book_for(HOUSE, "east-coast-limit") == "east-coast-limit"                # the caller's book first
    for plain in (CLOCK, _ways(CLOCK)["yaml"], None, "house: [", "- a list"):
        assert books.book_for(plain) is None                                              # the standard book
    for path_like in ("../../etc/passwd", "houses/tda-series.yaml", "tda-series.yaml", "", 7):
        assert books.book_for({**CLOCK, "house": path_like}) is None                      # never a path


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_incident_naming_its_house_is_ruled_under_it_however_it_is_sent(tmp_path, backend):
    from rulings.service.api.app import create_app
    svc = make_service(tmp_path, backend)
    try:
        with TestClient(create_app(service=svc), raise_server_exceptions=False) as client:
            floor = login(client, "fiona")
            for way, sent in _ways(HOUSE).items():
                r = client.post("/api/rule", json={"incident": sent, "table": "4"}, headers=floor)
                assert r.status_code == 200, (way, r.text)
                assert _said(r.json()["report"]) == DEAD, way
                entry = client.get(f"/api/log/{r.json()['entry']['id']}", headers=floor).json()
                assert entry["book"] == "tda-series" and entry["incident"] == json.loads(json.dumps(sent)), way   # as sent
                r = client.post("/api/consult", json={"incident": sent}, headers=floor)
                assert r.status_code == 200 and _said(r.json()["report"]) == DEAD, way
                r = client.post("/api/rule", json={"incident": sent, "book": "standard"}, headers=floor)
                assert _said(r.json()["report"]) == IN_TIME, way                            # the request's book wins
            for way, sent in _ways(CLOCK).items():
                r = client.post("/api/rule", json={"incident": sent}, headers=floor)
                assert r.status_code == 200 and _said(r.json()["report"]) == IN_TIME, way
    finally:
        svc.close()


def test_the_command_line_batch_ask_and_the_api_choose_the_same_book(tmp_path, capsys):
    """The same incident text with ``house:`` through each of them, then without it."""
    from cli.main import main
    from rulings.commands import batch
    from rulings.commands.ask import run
    from rulings.service.api.app import create_app

    def no_questions(prompt: str) -> str:
        raise AssertionError(f"asked: {prompt}")

    svc = make_service(tmp_path, "sqlite")
    try:
        with TestClient(create_app(service=svc), raise_server_exceptions=False) as client:
            floor = login(client, "fiona")
            for incident, expected in ((HOUSE, DEAD), (CLOCK, IN_TIME)):
                text = yaml.safe_dump(incident, sort_keys=False)
                path = tmp_path / "clock.yaml"
                path.write_text(text, encoding="utf-8")
                lines = tmp_path / "clock.jsonl"
                lines.write_text(json.dumps(incident) + "\n", encoding="utf-8")
                capsys.readouterr()
                assert main(["rule", str(path), "--format", "json"]) == 0
                cli = json.loads(capsys.readouterr().out)
                files, jsonl = io.StringIO(), io.StringIO()
                assert batch.rule_files([str(path), str(path)], None, "json", out=files) == 0
                assert batch.rule_jsonl(str(lines), None, 1, out=jsonl) == 0
                asked = io.StringIO()
                assert run(str(path), None, None, read=no_questions, out=asked, draft=None) == 0
                api = client.post("/api/rule", json={"incident": text}, headers=floor).json()["report"]
                chosen = [_said(cli), *(_said(json.loads(line)) for line in files.getvalue().splitlines()),
                          _said(json.loads(jsonl.getvalue())), _said(api)]
                assert chosen == [expected] * 5
                assert f"— {expected[0]} rulebook" in asked.getvalue() and expected[2] in asked.getvalue()
                assert main(["rule", str(path), "--format", "json", "--house", "east-coast-limit"]) in (0, 1)
                assert json.loads(capsys.readouterr().out)["rulebook"] == "east-coast-limit"   # --house wins
    finally:
        svc.close()


def test_ask_refuses_a_house_given_as_a_path_in_the_incident_as_rule_does(tmp_path, capsys):
    """``house:`` names a house; a file is given only with --house. ask loaded such a path as a book (a traceback
    when it was missing); it now refuses the incident as ``rulings rule`` does, with the line and column."""
    from cli.main import main
    from rulings.commands.ask import run
    (tmp_path / "mine.yaml").write_text("rulebook: mine\nextends: standard\n", encoding="utf-8")
    path = tmp_path / "clock.yaml"
    for house in ("mine.yaml", "../elsewhere.yaml"):
        text = yaml.safe_dump({**CLOCK, "house": house}, sort_keys=False)
        path.write_text(text, encoding="utf-8")
        line = text.splitlines().index(f"house: {house}") + 1
        capsys.readouterr()
        assert run(str(path), None, None, read=lambda prompt: "", out=io.StringIO(), draft=None) == 2
        asked = capsys.readouterr().err
        assert main(["rule", str(path)]) == 2
        ruled = capsys.readouterr().err
        for err in (asked, ruled):
            assert f"{path}:{line}:8: error I104: house: a house book is named here, not given as a path" in err, err


def test_ask_refuses_a_misspelt_house_as_rule_does_with_the_near_name(tmp_path, capsys):
    """A house name that names no book: ask said R001 with the install's path and exited 1 (as a function, it
    raised); it now lets the reader refuse the incident, as ``rulings rule`` does: I104 at the line, exit 2."""
    from cli.main import main
    from rulings.commands.ask import run
    path = tmp_path / "clock.yaml"
    text = yaml.safe_dump({**CLOCK, "house": "east-coast-limt"}, sort_keys=False)
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index("house: east-coast-limt") + 1
    capsys.readouterr()
    assert run(str(path), None, None, read=lambda prompt: "", out=io.StringIO(), draft=None) == 2
    asked = capsys.readouterr().err
    assert main(["rule", str(path)]) == 2
    ruled = capsys.readouterr().err
    for err in (asked, ruled):
        assert f"{path}:{line}:8: error I104: house: no house book named 'east-coast-limt'" in err, err
        assert "did you mean 'east-coast-limit'?" in err
        assert "R001" not in err
