"""Batch mode: several files, or one JSON incident per line in and one report per line out, in order."""
from __future__ import annotations

import json

import pytest

from cli.main import main
from incident_gen import random_incidents

CHIP = {"game": {"structure": "pot-limit", "blinds": [1, 2]}, "button": 3,
        "players": {1: 1000, 2: 1000, 3: 1000}, "street": "flop", "pot": 80, "disputed": {"seat": 1, "chips": [500]}}
OVER = dict(CHIP, disputed={"seat": 1, "chips": [5000]})   # more chips than the stack: refused (I107)


def _run(capsys, argv) -> tuple[int, list[str]]:
    code = main(argv)
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out.splitlines()


def test_jsonl_one_report_per_line_refusals_in_place(tmp_path, capsys):
    src = tmp_path / "night.jsonl"
    src.write_text(json.dumps(CHIP) + "\n" + json.dumps(OVER) + "\n\n{not json\n" + json.dumps([1]) + "\n"
                   + json.dumps(dict(CHIP, incident="table 9")) + "\n")
    code, lines = _run(capsys, ["rule", "--jsonl", str(src)])
    assert code == 2 and len(lines) == 5
    first, over, bad, listed, named = map(json.loads, lines)
    assert first["incident"] == "night.jsonl:1" and first["rulings"][0]["rule"] == "pot-limit.silent-overchip-is-pot-bet"
    assert first["rulings"][0]["effects"] == {"wager_to": 80, "returned": 420}
    assert over["refused"] and over["problems"][0]["code"] == "I107" and over["problems"][0]["line"] == 2
    assert bad["refused"] and bad["problems"][0]["code"] == "Y001" and bad["problems"][0]["line"] == 4
    assert listed["refused"] and listed["problems"][0]["line"] == 5
    assert named["incident"] == "table 9"
    (tmp_path / "one.json").write_text(json.dumps(dict(CHIP, incident="night.jsonl:1")))
    code, single = _run(capsys, ["rule", str(tmp_path / "one.json"), "--format", "json"])
    assert json.loads("\n".join(single)) == first     # the same report as ruling the file alone


def test_jobs_keep_the_order_and_the_reports(tmp_path, capsys):
    src = tmp_path / "many.jsonl"
    src.write_text("".join(json.dumps(d) + "\n" for d in random_incidents(3, 300)))
    code1, one = _run(capsys, ["rule", "--jsonl", str(src)])
    code2, two = _run(capsys, ["rule", "--jsonl", str(src), "--jobs", "2"])
    assert len(one) == 300 and one == two and code1 == code2
    assert [json.loads(x)["incident"] for x in two] == [f"many.jsonl:{i}" for i in range(1, 301)]


def test_several_files(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(CHIP))
    b.write_text(json.dumps(OVER))
    code, lines = _run(capsys, ["rule", str(a), str(b), "--format", "json"])
    assert code == 2 and [json.loads(x)["incident"] for x in lines] == ["a", "b"]
    assert json.loads(lines[1])["problems"][0]["code"] == "I107"
    code, lines = _run(capsys, ["rule", str(a), str(a)])
    assert code == 0 and sum(1 for x in lines if x.startswith("Incident a")) == 2
    assert main(["rule", "--jsonl", str(a), str(b)]) == 2
    with pytest.raises(SystemExit) as exc:
        main(["rule"])
    assert exc.value.code == 2


# ---------------------------------------------------------------- the JSON line reader against the YAML reader

def _deep(levels: int) -> dict:
    inner: dict = {"x": 1}
    for _ in range(levels):
        inner = {"x": inner}
    return inner


# Each line wrong in its own way (written for this test): the problems --jsonl names must be the ones the
# positioned YAML reader names for the same text, at the same column, on the line's own number.
BAD_LINES = [
    # a misspelt top field and a misspelt field of the act (each with its "did you mean")
    '{"incident": "t1", "game": {"structure": "pot-limit", "blinds": [1, 2]}, "button": 3, '
    '"players": {"1": 1000, "2": 1000, "3": 1000}, "street": "flop", "pott": 80, '
    '"disputed": {"seat": 1, "chipz": [500]}}',
    # a structure that is no structure, and a negative stack
    '{"incident": "t2", "game": {"structure": "pot limit", "blinds": [1, 2]}, "button": 3, '
    '"players": {"1": 1000, "2": -5, "3": 1000}, "street": "flop", "pot": 80, "disputed": {"seat": 1, "chips": [500]}}',
    # more chips than the stack (a check made after the replay: I107) and a pot count the actions do not make
    '{"incident": "t3", "game": {"structure": "no-limit", "blinds": [5, 10]}, "button": 3, '
    '"players": {"1": 300, "2": 300, "3": 300}, "street": "preflop", "pot_now": 99, '
    '"actions": [{"seat": 3, "action": "call"}, {"seat": 1, "action": "call"}], "disputed": {"seat": 2, "chips": [500]}}',
    # an amount with a third decimal place, an exponent with no fraction (text to YAML), no button
    '{"incident": "t4", "game": {"structure": "no-limit", "blinds": [0.5, 1e1]}, '
    '"players": {"1": 100.125, "2": 100}, "street": "flop", "pot": 20, "disputed": {"seat": 1, "chips": [25]}}',
    # an action the betting refuses (a check facing a bet), then a seat not at the table
    '{"incident": "t5", "game": {"structure": "no-limit", "blinds": [1, 2]}, "button": 2, '
    '"players": {"1": 200, "2": 200}, "street": "flop", "pot": 4, '
    '"actions": [{"seat": 1, "action": "bet", "to": 10}, {"seat": 2, "action": "check"}], '
    '"disputed": {"seat": 7, "chips": [10]}}',
    # a key written twice
    '{"incident": "t6", "game": {"structure": "no-limit", "blinds": [1, 2]}, "button": 2, "button": 1, '
    '"players": {"1": 200, "2": 200}, "street": "flop", "pot": 4, "disputed": {"seat": 1, "chips": [10]}}',
    # nested deeper than any incident is, and more values than any incident holds
    json.dumps({"incident": "t7", "game": _deep(40)}),
    json.dumps({"incident": "t9", "button": 1, "players": [0] * 21_000}),
    # a street that is no street and a said that is not text
    '{"incident": "t8", "game": {"structure": "fixed-limit", "blinds": [1, 2], "bet_sizes": [2, 4]}, "button": 2, '
    '"players": {"1": 200, "2": 200}, "street": "flopp", "pot": 4, "disputed": {"seat": 1, "said": [1, 2]}}',
]


def _as_yaml(text: str, line: int) -> list[dict]:
    """The problems the positioned YAML reader names for ``text`` read as a file, moved to ``line``."""
    from rulings.incident.fields import incident_from_text
    from rulings.problems import ProblemsError
    from rulings.rulebook.load import standard_book
    problems = []
    try:
        incident_from_text(text, "room.jsonl", standard_book())   # an incident file's reading and limits
    except ProblemsError as exc:
        problems = exc.problems
    assert problems, text
    return [dict(p.to_json(), line=p.line + line - 1) for p in sorted(problems)]


@pytest.mark.parametrize("n", range(len(BAD_LINES)))
def test_a_bad_jsonl_line_names_the_problems_the_yaml_reader_names(n):
    from rulings.commands.batch import INPUT, rule_line
    text = BAD_LINES[n]
    code, out = rule_line(text + "\n", f"room.jsonl:{n + 7}", None)
    got = json.loads(out)
    assert code == INPUT and got["refused"], got
    assert got["problems"] == _as_yaml(text, n + 7)
    assert all(p["line"] == n + 7 for p in got["problems"])
    assert any(p["col"] > 1 for p in got["problems"]), got   # placed on the line, not at its start


def test_the_bad_lines_cover_the_readers_kinds_of_problem():
    codes = {p["code"] for n, text in enumerate(BAD_LINES) for p in _as_yaml(text, 1)}
    assert {"I101", "I102", "I103", "I104", "I105", "I106", "I107", "Y002", "Y011", "Y012"} <= codes, codes


def test_a_jsonl_line_reads_numbers_as_the_yaml_reader_does(tmp_path, capsys):
    """84.5 is an amount in an incident file (YAML reads it as a Decimal); a JSON line says the same."""
    from rulings.commands.batch import OK, rule_line
    line = json.dumps(dict(CHIP, incident="decimal", players={"1": 1000.5, "2": 1000, "3": 1000}))
    code, out = rule_line(line, "room.jsonl:1", None)
    (tmp_path / "decimal.yaml").write_text(line)
    assert main(["rule", str(tmp_path / "decimal.yaml"), "--format", "json"]) == 0
    assert code == OK and json.loads(out) == json.loads(capsys.readouterr().out)
