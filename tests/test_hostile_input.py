"""Hostile incident and book files: each is refused with a code (or ruled on) in bounded time and memory.

Every case runs in a child process with a memory limit and a timeout (tests/bounded.py),
so a hang or a blow-up fails the test instead of hanging the suite.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
import yaml

from rulings.problems import Problem, render_text
from rulings.yamlsrc import MAX_DEPTH, load_text
from tests.bounded import PEAK_LIMIT_KB, run_cli

INCIDENT = """\
game: {structure: pot-limit, blinds: [1, 2]}
button: 3
players: {1: 1000, 2: 640, 3: 815}
street: flop
pot: 80
disputed: {seat: 1, chips: [500]}
"""


def alias_bomb() -> str:
    """Under 468 bytes that expand to 9^9 (387 million) strings."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """Write every hostile file, run every case in one bounded child, return the results by name."""
    d = tmp_path_factory.mktemp("hostile")
    files = {
        "bomb.yaml": alias_bomb(),
        "deep.yaml": "incident: x\nplayers: " + "[" * 496 + "]" * 496 + "\n",
        "wide.yaml": "{" + ", ".join(f"k{i}: 1" for i in range(20000)) + "}\n",
        "wide-fewer.yaml": "{" + ", ".join(f"k{i}: 1" for i in range(9000)) + "}\n",
        "shadow.yaml": INCIDENT + "house: /etc/shadow\n",
        "zero.yaml": INCIDENT + "house: /dev/zero\n",
        "relative.yaml": INCIDENT + "house: ./tda-series.yaml\n",
        "noname.yaml": INCIDENT + "house: tda-serie\n",
        "named.yaml": INCIDENT + "house: tda-series\n",
        "big.yaml": "incident: big\nnote: " + "x" * 300_000 + "\n",
        "seat-superscript.yaml": INCIDENT.replace("3: 815", '"\u00b2": 815'),
        "seat-5000-digits.json": json.dumps({**yaml.safe_load(INCIDENT), "players": {1: 1000, 2: 640, "9" * 5000: 815}}),
        "secret.txt": "root:$6$secret-hash:19000:0:99999:7:::\nbin:*:19000:0:99999:7:::\n",
    }
    assert len(files["bomb.yaml"].encode()) <= 468
    for name, text in files.items():
        (d / name).write_text(text)
    os.mkfifo(d / "fifo.yaml")
    names = {
        "bomb": ["rule", str(d / "bomb.yaml")],
        "deep": ["rule", str(d / "deep.yaml")],
        "wide": ["rule", str(d / "wide.yaml")],
        "wide-fewer": ["rule", str(d / "wide-fewer.yaml")],
        "fifo": ["rule", str(d / "fifo.yaml")],
        "dev-zero": ["rule", "/dev/zero"],
        "dev-urandom": ["rule", "/dev/urandom"],
        "folder": ["rule", str(d)],
        "big": ["rule", str(d / "big.yaml")],
        "shadow": ["rule", str(d / "shadow.yaml")],
        "zero": ["rule", str(d / "zero.yaml")],
        "relative": ["rule", str(d / "relative.yaml")],
        "noname": ["rule", str(d / "noname.yaml")],
        "named": ["rule", str(d / "named.yaml"), "--format", "json"],
        "house-fifo": ["rule", str(d / "named.yaml"), "--house", str(d / "fifo.yaml")],
        "house-dev-zero": ["rule", str(d / "named.yaml"), "--house", "/dev/zero"],
        "house-secret": ["rule", str(d / "named.yaml"), "--house", str(d / "secret.txt")],
        "lint-bomb": ["lint", str(d / "bomb.yaml")],
        "lint-fifo": ["lint", str(d / "fifo.yaml")],
        "calc-urandom": ["calc", "/dev/urandom"],
        "seat-superscript": ["rule", str(d / "seat-superscript.yaml")],
        "seat-5000-digits": ["rule", str(d / "seat-5000-digits.json")],
    }
    cases, peak = run_cli(list(names.values()))
    return dict(zip(names, cases)), peak, d


def refused(case, code: str, exit_code: int = 2) -> str:
    assert case.exc is None, case.exc
    assert "Traceback" not in case.text
    assert case.code == exit_code, case.text[:2000]
    assert f"error {code}:" in case.text or f'"code": "{code}"' in case.text, case.text[:2000]
    return case.text


def test_every_hostile_file_stays_within_memory(hostile):
    _, peak, _ = hostile
    assert peak < PEAK_LIMIT_KB, f"peak resident memory {peak} KB"


def test_a_468_byte_alias_bomb_is_refused_before_any_expansion(hostile):
    text = refused(hostile[0]["bomb"], "Y005")
    assert "YAML anchor or alias 'a' is not allowed" in text and text.count('error Y005') == 3
    refused(hostile[0]["lint-bomb"], "Y005", exit_code=1)


def test_lint_never_reads_a_pipe(hostile):
    assert "this is a pipe" in refused(hostile[0]["lint-fifo"], "Y010", exit_code=1)


def test_brackets_nested_496_deep_are_refused_not_a_recursion_error(hostile):
    text = refused(hostile[0]["deep"], "Y011")
    assert f"nested more than {MAX_DEPTH} deep" in text


def test_a_209_kb_line_of_20000_fields_is_refused_by_count_and_never_reprinted(hostile):
    text = refused(hostile[0]["wide"], "Y012")
    assert len(text) < 2000    # the line is shown clipped, once
    text = refused(hostile[0]["wide-fewer"], "I101")
    assert "9,000 unknown fields; the first 20 follow" in text
    assert text.count("error I101") == 21 and len(text) < 20_000


@pytest.mark.parametrize("name, what", [("fifo", "a pipe"), ("dev-zero", "a device"),
                                        ("dev-urandom", "a device"), ("folder", "a folder")])
def test_only_regular_files_are_opened(hostile, name, what):
    text = refused(hostile[0][name], "Y010")
    assert f"this is {what}, not a regular file" in text


def test_a_file_over_the_byte_limit_is_refused_by_reading_not_by_stat(hostile):
    text = refused(hostile[0]["big"], "Y007")
    assert "over the limit of 256,000 bytes" in text


@pytest.mark.parametrize("name, code", [("seat-superscript", "I103"), ("seat-5000-digits", "Y001")])
def test_a_seat_key_that_is_no_ascii_number_is_refused_as_a_seat(hostile, name, code):
    """'²' passes str.isdigit and int('²') raises (it was a traceback): now a seat that is not a seat.
    A key of 5,000 digits is past what a YAML (or JSON) key may be: the reader refuses the text."""
    cases, _, _ = hostile
    text = refused(cases[name], code)
    assert len(text) < 3000


def test_house_in_an_incident_is_a_name_never_a_path(hostile):
    for name in ("shadow", "zero", "relative"):
        text = refused(hostile[0][name], "I104")
        assert "a house book is named here, not given as a path" in text
        assert "--house PATH" in text
    text = refused(hostile[0]["noname"], "I104")
    assert "no house book named 'tda-serie'" in text and "did you mean 'tda-series'?" in text


def test_a_named_house_is_looked_up_in_the_house_folder_wherever_the_command_runs(hostile):
    case = hostile[0]["named"]
    assert case.code == 0, case.text
    assert '"rulebook": "tda-series"' in case.out


def test_a_house_path_on_the_command_line_is_read_as_carefully(hostile):
    refused(hostile[0]["house-fifo"], "Y010", exit_code=1)
    refused(hostile[0]["house-dev-zero"], "Y010", exit_code=1)
    text = refused(hostile[0]["house-secret"], "R106", exit_code=1)
    assert "not a house rulebook" in text
    assert "secret-hash" not in text and "bin:" not in text   # the file's lines are never echoed


def test_calc_reads_hand_histories_through_the_same_bounds(hostile):
    case = hostile[0]["calc-urandom"]
    assert case.exc is None and "Traceback" not in case.text and case.code == 2, case.text
    assert "not a regular file" in case.text


def test_load_text_refuses_text_over_the_limits_too():
    doc, problems = load_text("a: " + "[" * 40 + "]" * 40, "<t>")
    assert doc is None and [p.code for p in problems] == ["Y011"]
    doc, problems = load_text("x" * 2000, "<t>", max_bytes=1000)
    assert doc is None and [p.code for p in problems] == ["Y007"]
    doc, problems = load_text("[" + ", ".join(["1"] * 50) + "]", "<t>", max_nodes=20)
    assert doc is None and [p.code for p in problems] == ["Y012"]
    doc, problems = load_text("a: !!str 1\nb: &x 2\n", "<t>")
    assert [p.code for p in problems] == ["Y004", "Y005"]


def test_problems_beyond_the_first_hundred_are_counted_not_printed(tmp_path):
    f = tmp_path / "one-line.yaml"
    f.write_text("x" * 5000 + "\n")
    problems = [Problem(str(f), 1, 4000 + i, "I101", f"problem {i}") for i in range(250)]
    text = render_text(problems)
    assert text.count("error I101") == 100
    assert "... and 150 more problems not shown" in text and "250 problems found" in text
    assert max(len(line) for line in text.splitlines()) < 200


def test_a_file_that_cannot_be_opened(tmp_path):
    from rulings.yamlsrc import load_file
    (tmp_path / "plain.txt").write_text("x")
    doc, problems = load_file(tmp_path / "plain.txt" / "book.yaml")
    assert doc is None and [(p.code, p.message) for p in problems] == [
        ("Y008", "cannot read the file: Not a directory")]


@pytest.mark.parametrize("text, message", [
    ("92233720368547758.07", "is more than the largest amount accepted (1,000,000,000,000)"),
    ("1000000000000.01", "is more than the largest amount accepted"),
    ("1." + "0" * 40 + "1", "has more than two decimal places"),        # 42 significant digits, not rounded
    ("12345678901234567890123456789.001", "is more than the largest amount accepted"),
    ("0.001", "has more than two decimal places"),
])
def test_amounts_out_of_range_or_too_precise_are_refused_by_field(text, message):
    from rulings.incident import incident_from_text
    from rulings.problems import ProblemsError
    with pytest.raises(ProblemsError) as exc:
        incident_from_text(INCIDENT.replace("pot: 80", f"pot: {text}"))
    [p] = exc.value.problems
    assert (p.code, p.path) == ("I103", ("pot",)) and message in p.message


def test_the_largest_amount_and_trailing_zeros_are_accepted():
    from decimal import Decimal
    from rulings.money import MAX_AMOUNT, to_minor
    assert to_minor(MAX_AMOUNT) == MAX_AMOUNT * 100
    assert to_minor("84.5" + "0" * 50) == 8450
    assert to_minor(Decimal("1E+3")) == 100000


def test_a_seat_number_is_a_small_whole_number():
    from rulings.incident import incident_from_text
    from rulings.problems import ProblemsError
    with pytest.raises(ProblemsError) as exc:
        incident_from_text(INCIDENT.replace("button: 3", "button: 100000000000000000000000"))
    bad = [p for p in exc.value.problems if p.code == "I103"]
    assert [p.path for p in bad] == [("button",)] and "from 1 to 1,000,000" in bad[0].message


def test_the_players_words_are_a_sentence_not_a_book():
    from rulings.incident import incident_from_text
    from rulings.problems import ProblemsError
    with pytest.raises(ProblemsError) as exc:
        incident_from_text(INCIDENT.replace("chips: [500]", "said: '" + "raise " * 200 + "'"))
    assert [(p.code, p.path) for p in exc.value.problems] == [("I103", ("disputed", "said"))]
    assert "1,200 characters; the player's words are at most 500" in exc.value.problems[0].message


def test_a_bug_is_reported_in_one_line_never_as_a_traceback(monkeypatch, capsys):
    import cli.main as cli

    def broken(args):
        raise RecursionError("maximum recursion depth exceeded")
    monkeypatch.setattr(cli, "cmd_schema", broken)
    assert cli.main(["schema"]) == cli.INTERNAL == 70
    err = capsys.readouterr().err
    assert err.startswith("rulings: internal error (RecursionError): maximum recursion depth exceeded;")
    assert "Traceback" not in err


def test_a_bare_house_name_never_reads_the_working_folder(tmp_path, monkeypatch):
    from rulings.ruling.books import house_path
    from rulings.rulebook.house import house_dirs
    (tmp_path / "tda-series").write_text("rulebook: other-room\n")
    (tmp_path / "tda-series.yaml").write_text("rulebook: other-room\n")
    monkeypatch.chdir(tmp_path)
    assert house_path("tda-series") == house_dirs()[0] / "tda-series.yaml"
    assert house_path("./tda-series.yaml") == Path("./tda-series.yaml")   # a path, as documented


@pytest.mark.parametrize("value", ["/etc/passwd", "../../../etc/passwd.yaml", "./x.yaml", "sub/x.yaml"])
def test_a_house_book_extends_only_a_name_or_a_file_beside_it(tmp_path, value):
    from rulings.problems import ProblemsError
    from rulings.rulebook.house import load_house
    from rulings.rulebook.load import standard_book
    f = tmp_path / "h.yaml"
    f.write_text(f"rulebook: h\nextends: '{value}'\ntitle: t\n")
    with pytest.raises(ProblemsError) as exc:
        load_house(f, standard_book())
    [p] = exc.value.problems
    assert p.code == "R601" and "is not a book's name" in p.message


@pytest.mark.parametrize("change, path, words", [
    (("players: {1: 1000, 2: 640, 3: 815}", "players: {" + ", ".join(f"{i}: 100" for i in range(1, 41)) + "}"),
     ("players",), "40 players; a hand has at most 30"),
    (("pot: 80", "pot: 80\nactions: [" + ", ".join(["{seat: 1, action: fold}"] * 501) + "]"),
     ("actions",), "501 actions; at most 500 are read"),
    (("chips: [500]", "chips: [" + ", ".join(["5"] * 501) + "]"), ("disputed", "chips"), "501 chips"),
    (("pot: 80", "pot: 80\nparams: {" + ", ".join(f"x{i}.y: 1" for i in range(101)) + "}"),
     ("params",), "101 parameters; an incident sets at most 100"),
])
def test_lists_in_an_incident_are_refused_by_count_before_they_are_worked_through(change, path, words):
    from rulings.incident import incident_from_text
    from rulings.problems import ProblemsError
    with pytest.raises(ProblemsError) as exc:
        incident_from_text(INCIDENT.replace(*change))
    assert [(p.code, p.path) for p in exc.value.problems] == [("I103", path)]
    assert words in exc.value.problems[0].message


# ---------------------------------------------------------------- issue #42: numbers, files and nesting

PHH = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 6', 'p1 cc', 'p2 cc', 'd db AhKd7c', 'p1 cc']

[_rulings]
disputed = {seat = 2, said = "call", chips = [5], at = {street = "flop"}}
noticed = "before_next_action"
"""
HOUSE = "rulebook: trial\nextends: standard\ntitle: Trial room\nparameters:\n"


@pytest.fixture(scope="module")
def attack(tmp_path_factory):
    """Issue #42's attack run, each case run in one bounded child (a hang or a blow-up fails, never hangs)."""
    d = tmp_path_factory.mktemp("attack")
    overlong = '{"note": "' + "x" * 300_000 + '"}'
    files = {
        "quoted-exponent.yaml": HOUSE + "  kill.pot_size_multiple: '1.0E+999999999'\n",
        "bare-exponent.yaml": HOUSE + "  kill.pot_size_multiple: 1.0E+999999999\n  clock.seconds: '1.0e+99999999'\n",
        "amount-exponent.yaml": INCIDENT.replace("chips: [500]", "chips: [1.0e+999999999]"),
        "pot-exponent.yaml": INCIDENT.replace("pot: 80", "pot: 1.0e+999999999"),
        "ok.phh": PHH,
        "deep.phh": PHH.replace("noticed =", "x = " + "[" * 3000 + "]" * 3000 + "\nnoticed ="),
        "deep33.phh": PHH.replace("noticed =", "x = " + "[" * 33 + "]" * 33 + "\nnoticed ="),
        "exponent.phh": PHH.replace("min_bet = 2", "min_bet = 1.0e+999999999"),
        "digits.phh": PHH.replace("min_bet = 2", "min_bet = " + "9" * 5000),
        "lines.jsonl": "\n".join([overlong, json.dumps(yaml.safe_load(INCIDENT)), "\xff"]) + "\n",
    }
    for name, text in files.items():
        (d / name).write_text(text, encoding="latin-1" if name.endswith(".jsonl") else "utf-8")
    os.mkfifo(d / "fifo.phh")
    os.mkfifo(d / "fifo.jsonl")
    os.symlink("/dev/zero", d / "zero.phh")
    big = d / "big.phh"            # 3 GB by its size, written as a hole: only the first 256,001 bytes are read
    with open(big, "wb") as fh:
        fh.truncate(3 << 30)
    names = {
        "lint-quoted": ["lint", str(d / "quoted-exponent.yaml")],
        "lint-bare": ["lint", str(d / "bare-exponent.yaml")],
        "amount": ["rule", str(d / "amount-exponent.yaml")],
        "pot": ["rule", str(d / "pot-exponent.yaml")],
        "phh-ok": ["rule", str(d / "ok.phh")],
        "phh-fifo": ["rule", str(d / "fifo.phh")],
        "phh-zero": ["rule", str(d / "zero.phh")],
        "phh-big": ["rule", str(big)],
        "phh-deep": ["rule", str(d / "deep.phh")],
        "phh-deep33": ["rule", str(d / "deep33.phh")],
        "phh-exponent": ["rule", str(d / "exponent.phh")],
        "phh-digits": ["rule", str(d / "digits.phh")],
        "jsonl": ["rule", "--jsonl", str(d / "lines.jsonl")],
        "jsonl-fifo": ["rule", "--jsonl", str(d / "fifo.jsonl")],
    }
    started = time.monotonic()
    cases, peak = run_cli(list(names.values()), timeout=90)
    return dict(zip(names, cases)), peak, time.monotonic() - started, d


def test_the_attack_run_stays_within_time_and_memory(attack):
    _, peak, seconds, _ = attack
    assert peak < PEAK_LIMIT_KB and seconds < 5 * 14


@pytest.mark.parametrize("name", ["lint-quoted", "lint-bare"])
def test_a_parameter_written_with_a_huge_exponent_is_refused_without_writing_it_out(attack, name):
    text = refused(attack[0][name], "R205", exit_code=1)
    assert "kill.pot_size_multiple must be a whole number from 1 to 100, not" in text
    assert "write " not in text     # no hint computed from int(Decimal('1.0E+999999999'))


@pytest.mark.parametrize("name, field", [("amount", "disputed.chips[0]"), ("pot", "pot")])
def test_an_amount_written_with_a_huge_exponent_is_refused_by_field(attack, name, field):
    text = refused(attack[0][name], "I103")
    assert f"{field}: '1.0e+999999999' is not an amount" in text


def test_a_hand_history_is_read_as_every_file_is(attack):
    cases = attack[0]
    assert cases["phh-ok"].code == 0, cases["phh-ok"].text
    assert "this is a pipe, not a regular file" in refused(cases["phh-fifo"], "Y010")
    assert "this is a device, not a regular file" in refused(cases["phh-zero"], "Y010")
    assert "over the limit of 256,000 bytes" in refused(cases["phh-big"], "Y007")


@pytest.mark.parametrize("name", ["phh-deep", "phh-deep33"])
def test_a_deeply_nested_hand_history_is_refused_not_a_recursion_error(attack, name):
    assert f"nested more than {MAX_DEPTH} deep" in refused(attack[0][name], "Y011")


def test_numbers_in_a_hand_history_are_bounded_where_they_are_read(attack):
    assert "min_bet: '1.0e+999999999' is not an amount" in refused(attack[0]["phh-exponent"], "I103")
    assert "4300 digits" in refused(attack[0]["phh-digits"], "Y001")


def test_each_jsonl_line_is_read_with_a_bound_and_the_others_are_ruled(attack):
    case = attack[0]["jsonl"]
    assert case.exc is None and case.code == 2, case.text
    first, second, third = (json.loads(line) for line in case.out.splitlines())
    assert first["refused"] and first["problems"][0]["code"] == "Y007" and first["problems"][0]["line"] == 1
    assert "over the limit of an incident, 256,000 bytes" in first["problems"][0]["message"]
    assert second.get("outcome") == "ruled"
    assert third["refused"] and third["problems"][0]["code"] == "Y009" and third["problems"][0]["line"] == 3
    assert "this is a pipe, not a regular file" in refused(attack[0]["jsonl-fifo"], "Y010")


def test_a_draft_of_ask_is_read_as_every_file_is(tmp_path):
    """A FIFO, /dev/zero or a draft bigger than an incident: said in one line, never a hang or a read of it all."""
    from tests.bounded import run_child
    os.mkfifo(tmp_path / "fifo.yaml")
    os.symlink("/dev/zero", tmp_path / "zero.yaml")
    (tmp_path / "big.yaml").write_text("typed: {}\nnote: " + "x" * 300_000 + "\n")
    (tmp_path / "bomb.yaml").write_text(alias_bomb())
    code = ("import json, sys; from pathlib import Path; from rulings.commands.ask import load_draft\n"
            "print(json.dumps([load_draft(Path(p))[1] for p in json.load(sys.stdin)]))")
    names = ["fifo.yaml", "zero.yaml", "big.yaml", "bomb.yaml"]
    result, _ = run_child(code, json.dumps([str(tmp_path / n) for n in names]), timeout=30)
    fifo, zero, big, bomb = result
    assert "a pipe, not a regular file (Y010)" in fifo and "a device, not a regular file (Y010)" in zero
    assert "over the limit of 256,000 bytes (Y007)" in big and "Y005" in bomb


def test_money_refuses_a_huge_exponent_before_any_arithmetic():
    from decimal import Decimal

    from rulings.money import MoneyError, to_minor
    for value in (Decimal("1.0e+999999999"), Decimal("-1.0e+999999999"), Decimal("1e-999999999")):
        with pytest.raises(MoneyError):
            to_minor(value, allow_negative=True)
    assert to_minor(Decimal("0E-999999999")) == 0 and to_minor(Decimal("0.000")) == 0
