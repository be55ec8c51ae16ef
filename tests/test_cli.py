"""The command line: the headline ruling, and one-line refusals (exit 2, no traceback) for bad input."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.main import main

ROOT = Path(__file__).resolve().parents[1]
HEADLINE = ROOT / "examples" / "incidents" / "pl-silent-overchip.yaml"

BASE = """\
game: {structure: pot-limit, blinds: [1, 2]}
button: 3
players: {1: 1000, 2: 300, 3: 1000}
street: flop
pot: 100
"""


def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out, out.err


def test_rrp_pl_6_silent_500_chip_into_80_pot_is_80_bet(capsys):
    code, out, _ = run(["rule", str(HEADLINE), "--verbose"], capsys)
    assert code == 0
    assert "pot-size bet of $80" in out and "$420" in out
    assert "RRP-PL-6" in out
    assert "wagers.silent-single-chip-bet -> pot-limit.silent-overchip-is-pot-bet" in out


def test_rrp_pl_6_json_carries_numbers(capsys):
    code, out, _ = run(["rule", str(HEADLINE), "--format", "json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["contract"] == "rulings.report/1"
    ruling = data["rulings"][0]
    assert ruling["rule"] == "pot-limit.silent-overchip-is-pot-bet"
    assert ruling["effects"] == {"wager_to": 80, "returned": 420}
    assert ruling["chain"] == ["wagers.silent-single-chip-bet", "pot-limit.silent-overchip-is-pot-bet"]
    assert {c["key"] for c in ruling["citations"] if "via" not in c} == {"RRP-PL-6", "TDA-2024-44-PL"}
    # the silent chip's own rule, which the pot-limit ruling stood in for while the act was read, follows via it
    assert {c["key"] for c in ruling["citations"] if c.get("via") == "wagers.silent-single-chip-bet"} \
        == {"RRP-NL-11", "TDA-2024-44"}
    assert ruling["origin"]["file"].endswith("rulebooks/standard/pot-limit.yaml")
    assert data["overridden"][0]["rule"] == "wagers.silent-single-chip-bet"


def test_exact_cents_in_json(tmp_path, capsys):
    f = tmp_path / "cents.yaml"
    f.write_text(BASE.replace("pot: 100", "pot: 84.50") + "disputed: {seat: 1}\n")
    code, out, _ = run(["rule", str(f), "--format", "json"], capsys)
    assert code == 0
    assert '"max_raise_to": 84.5' in out


@pytest.mark.parametrize("name,extra,field", [
    ("negative amount", "actions: [{seat: 1, action: bet, to: -50}]\ndisputed: {seat: 2}", "actions[0].to"),
    ("non-numeric amount", "actions: [{seat: 1, action: bet, to: lots}]\ndisputed: {seat: 2}", "actions[0].to"),
    ("raise below the current bet", "actions: [{seat: 1, action: bet, to: 50}, {seat: 2, action: raise, to: 40}]",
     "actions[1]"),
    ("wager bigger than the stack", "disputed: {seat: 2, chips: [500]}", "disputed.chips"),
    ("bet bigger than the stack", "actions: [{seat: 1, action: check}, {seat: 2, action: bet, to: 400}]",
     "actions[1]"),
    ("action by a folded seat", "actions: [{seat: 1, action: bet, to: 50}, {seat: 2, action: fold}, "
     "{seat: 3, action: call}, {seat: 2, action: call}]", "actions[3]"),
    ("unknown field", "disputed: {seat: 1}\nwitness: the dealer", "witness"),
    ("pot contradicts the actions", "actions: [{seat: 1, action: bet, to: 50}]\npot_now: 120\ndisputed: {seat: 2}",
     "pot_now"),
])
def test_bad_incident_refused_naming_field(tmp_path, capsys, name, extra, field):
    f = tmp_path / "bad.yaml"
    f.write_text(BASE + extra + "\n")
    code, _, err = run(["rule", str(f)], capsys)
    assert code == 2, name
    assert f": {field}" in err.splitlines()[0], err


def test_unknown_structure_refused(tmp_path, capsys):
    f = tmp_path / "bad.yaml"
    f.write_text(BASE.replace("pot-limit", "pot-limt") + "disputed: {seat: 1}\n")
    code, _, err = run(["rule", str(f)], capsys)
    assert code == 2 and "game.structure" in err and "did you mean 'pot-limit'" in err


@pytest.mark.parametrize("text,code", [("", "Y006"), ("game: [1,\n", "Y001"), ("- just\n- a list\n", "I103")])
def test_empty_or_malformed_file_refused(tmp_path, capsys, text, code):
    f = tmp_path / "bad.yaml"
    f.write_text(text)
    rc, _, err = run(["rule", str(f)], capsys)
    assert rc == 2 and code in err


def test_unclear_words_become_a_question(tmp_path, capsys):
    f = tmp_path / "q.yaml"
    f.write_text(BASE + 'actions: [{seat: 1, action: bet, to: 50}]\ndisputed: {seat: 2, said: "maybe raise?"}\n')
    code, out, _ = run(["rule", str(f)], capsys)
    assert code == 0 and "ASK FIRST" in out


def test_usage_error_exits_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["rule"])
    assert exc.value.code == 2


def test_lint_test_explain_rules(capsys):
    assert run(["lint"], capsys)[0] == 0
    code, out, _ = run(["test"], capsys)
    assert code == 0 and " 0 failed" in out
    code, out, _ = run(["explain", "pot-limit.oversize-wager"], capsys)
    assert code == 0 and "RRP-PL-1" in out
    code, out, _ = run(["explain", "RRP-PL-6"], capsys)
    assert code == 0 and "pot-limit.silent-overchip-is-pot-bet" in out
    code, out, _ = run(["rules", "--topic", "pot-limit", "rounded"], capsys)
    assert code == 0 and "pot-limit.pot-rounded-up" in out
    assert run(["explain", "no.such-rule"], capsys)[0] == 2


def test_calc_incident_json(capsys):
    code, out, _ = run(["calc", str(ROOT / "examples/incidents/pl-oversize-raise.yaml"), "--format", "json"], capsys)
    data = json.loads(out)
    assert code == 0
    assert (data["pot"], data["to_call"], data["min_raise_to"], data["max_raise_to"]) == (150, 50, 100, 250)



def test_the_installed_entry_sets_its_imports_aside_and_collects_as_before():
    """rulings.cli.run (the script, python -m rulings): the command line's modules are imported with the
    collector paused and what they made is frozen; the command itself runs with the collector on."""
    import subprocess
    import sys
    probe = ("import builtins, gc, sys\n"
             "from rulings.cli import run\n"
             "real = builtins.__import__\n"
             "def spy(name, *args, **kwargs):\n"   # the command, as run() imports it, reports on the collector
             "    got = real(name, *args, **kwargs)\n"
             "    if name == 'rulings.cli.main':\n"
             "        print(gc.isenabled())\n"
             "        got.main = lambda: print(gc.isenabled(), gc.get_freeze_count()) or 0\n"
             "    return got\n"
             "builtins.__import__ = spy\n"
             "sys.exit(run())\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    paused, on, frozen = out.stdout.split()
    assert (paused, on) == ("False", "True")   # off while importing, on again for the command
    assert int(frozen) > 20_000                # yaml, jinja2, durable-rules and the package, set aside


def test_no_output_carries_an_absolute_path_of_the_install(tmp_path, monkeypatch, capsys):
    """Started outside the repository, every command that names where a rule or parameter is written names it
    from the rulebooks folder (the shipped books) or from the book's own folder (a house book elsewhere), never
    by an absolute path of the install; the JSON report's origin.file as the text report's "from:"."""
    house = tmp_path / "elsewhere" / "my-room.yaml"
    house.parent.mkdir()
    house.write_text((ROOT / "rulebooks" / "houses" / "tda-series.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    rule = "pot-limit.silent-overchip-is-pot-bet"
    outs = {}
    for args in (["rule", str(HEADLINE), "--format", "json"], ["rule", str(HEADLINE), "--verbose"],
                 ["rule", str(HEADLINE), "--house", str(house), "--format", "json"],
                 ["params", "--house", str(house)], ["test", "--house", str(house)], ["diff", str(house)],
                 ["diff", str(house), "--format", "json"], ["explain", rule], ["explain", "RRP-PL-6"],
                 ["explain", "--house", str(house), "pot"], ["rules", "--house", str(house), "pot"],
                 ["book", str(house), "--format", "markdown"]):
        code, out, err = run(args, capsys)
        assert code == 0, (args, err)
        assert str(ROOT) not in out + err and str(tmp_path) not in out + err, args
        outs[" ".join(a for a in args if not a.startswith("/"))] = out   # named without the paths
    ruling = json.loads(outs["rule --format json"])["rulings"][0]
    assert ruling["rule"] == rule and ruling["origin"]["file"] == "rulebooks/standard/pot-limit.yaml"
    assert f"from:    rulebooks/standard/pot-limit.yaml:{ruling['origin']['line']}" in outs["rule --verbose"]
    assert f"from: rulebooks/standard/pot-limit.yaml:{ruling['origin']['line']}" in outs[f"explain {rule}"]
    changed = json.loads(outs["diff --format json"])
    origins = [r["origin"] for r in changed["rules"]] + [e["origin"] for e in changed["examples"]]
    assert any(o.startswith("my-room.yaml:") for o in origins)   # the house's own rules, from its own folder
    assert all(o.startswith(("my-room.yaml:", "rulebooks/standard/")) for o in origins), origins


def test_rule_dash_reads_one_incident_from_standard_input(monkeypatch, capsys):
    """`rulings rule -`: the incident piped in (RRP-PL-6's silent $500 chip into an $80 pot: an $80 bet, $420
    back); text over an incident's size is refused as a file would be (Y007), not read to its end."""
    import io
    import sys
    text = (ROOT / "examples" / "incidents" / "pl-silent-overchip.yaml").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    assert main(["rule", "-"]) == 0
    assert "$420 goes back" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a" * 300_000)))
    assert main(["rule", "-"]) == 2
    assert "Y007" in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"incident: x\n\xff\n")))
    assert main(["rule", "-"]) == 2
    assert "Y009" in capsys.readouterr().err


def test_house_by_name_finds_the_version_the_service_published(tmp_path, monkeypatch, capsys):
    """`rulings rule --house NAME`: a house book published from the podium (its data folder's houses/NAME, the
    version `current` names) is found by its name, as the service rules with it; without it the name is not
    known (issue 45)."""
    book = tmp_path / "houses" / "my-room"
    book.mkdir(parents=True)
    (book / "0001.yaml").write_text("rulebook: my-room\nextends: standard\ntitle: My room\n"
                                    "parameters: {kill.size: half}\n", encoding="utf-8")
    (book / "current").write_text("0001.yaml\n", encoding="utf-8")
    incident = str(ROOT / "examples" / "incidents" / "pl-silent-overchip.yaml")
    monkeypatch.setenv("RULINGS_DATA", str(tmp_path / "elsewhere"))
    assert main(["rule", "--house", "my-room", incident]) == 1           # no such house here
    assert "no house book 'my-room'" in capsys.readouterr().err
    monkeypatch.setenv("RULINGS_DATA", str(tmp_path))
    assert main(["rule", "--house", "my-room", incident]) == 0
    assert "my-room rulebook" in capsys.readouterr().out


def test_house_by_name_finds_a_book_published_by_the_running_service_or_in_its_database(tmp_path, monkeypatch, capsys):
    """The running service's data folder is found from its note (rulings/service/running.py), whatever this
    shell's $RULINGS_DATA; a book published in a database (a chain's PostgreSQL; here the same table in SQLite)
    is found through $RULINGS_DATABASE. RRP-PL-6's silent $500 chip is ruled under each (issue 45)."""
    import os
    from rulings.service import running
    from rulings.service.store import db
    from rulings.service.store.chain import store_version
    for var in ("RULINGS_DATA", "RULINGS_DATABASE", "XDG_RUNTIME_DIR"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("RULINGS_RUN_DIR", str(tmp_path / "run"))
    incident = str(ROOT / "examples" / "incidents" / "pl-silent-overchip.yaml")
    served = tmp_path / "served" / "houses" / "served-room"
    served.mkdir(parents=True)
    (served / "0001.yaml").write_text("rulebook: served-room\nextends: standard\ntitle: Served room\n"
                                      "parameters: {kill.size: half}\n", encoding="utf-8")
    (served / "current").write_text("0001.yaml\n", encoding="utf-8")
    assert main(["rule", "--house", "served-room", incident]) == 1
    assert "no house book 'served-room'" in capsys.readouterr().err
    note = running.announce(tmp_path / "served", None, "http://127.0.0.1:8000/", signals=False)   # one running now
    assert note is not None and [n["pid"] for n in running.services()] == [os.getpid()]
    assert main(["rule", "--house", "served-room", incident]) == 0
    assert "served-room rulebook" in capsys.readouterr().out
    note.unlink()
    engine = db.make_engine(db.database_url(None, tmp_path / "chain"))
    db.migrate(engine)
    store_version(engine, "chain-room", "rulebook: chain-room\nextends: standard\ntitle: Chain room\n"
                                        "parameters: {kill.size: half}\n", "manny")
    engine.dispose()
    monkeypatch.setenv("RULINGS_DATABASE", f"sqlite:///{tmp_path / 'chain' / 'rulings.db'}")
    assert main(["rule", "--house", "chain-room", incident]) == 0
    assert "chain-room rulebook" in capsys.readouterr().out
    assert (tmp_path / "xdg" / "rulings" / "cache" / "houses" / "chain-room" / "0001.yaml").is_file()
