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
