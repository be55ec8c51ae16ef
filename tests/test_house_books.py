"""The three example house books: clean, their tests pass, and a ruling under each carries the house's provenance."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from cli.main import main
from rulings.ruling import books

ROOT = Path(__file__).resolve().parents[1]
HOUSES = ("east-coast-limit", "pnw-lowball", "tda-series")


def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out, out.err


@pytest.mark.parametrize("house", HOUSES)
def test_house_book_lints_clean(house):
    assert books.lint([str(ROOT / "rulebooks" / "houses" / f"{house}.yaml")]) == []


@pytest.mark.parametrize("house", HOUSES)
def test_house_book_examples_pass_and_standard_changes_are_the_houses(house, capsys):
    code, out, _ = run(["test", "--house", house], capsys)
    assert code == 0, out
    assert out.splitlines()[-1].endswith(" failed") and " 0 failed" in out.splitlines()[-1]


# incident text, house, the house rule that must decide, the standard rule it modifies, the numbers
CASES = {
    "east-coast-limit": ("""\
        game: {structure: fixed-limit, blinds: [10, 20], bet_sizes: [20, 40]}
        button: 1
        players: {1: 1000, 2: 1000, 3: 1000, 4: 1000, 5: 1000, 6: 1000}
        table: {pots: [{winners: [2, 6], amount: 500, blind_money: 30}]}
        """, "east-coast-limit.split-big-pot-no-kill", "kill-pots.pot-size-split", {}),
    "pnw-lowball": ("""\
        game: {variant: lowball, structure: fixed-limit, blinds: [2, 4], bet_sizes: [4, 8]}
        button: 1
        players: {1: 500, 2: 500, 3: 500, 4: 500, 5: 500, 6: 500}
        table: {pots: [{winners: [3], amount: 20, blind_money: 6}, {winners: [3], amount: 44, blind_money: 6}]}
        """, "pnw-lowball.half-kill-after-two-wins", "kill-pots.two-in-a-row",
        {"killer": 3, "kill_blind": 6, "kill_small_bet": 6, "kill_big_bet": 12}),
    "tda-series": ("""\
        game: {structure: fixed-limit, setting: tournament, blinds: [100, 200], bet_sizes: [200, 400]}
        button: 2
        players: {1: 20000, 2: 20000}
        street: turn
        pot: 1200
        actions: [{seat: 1, action: bet, to: 400}, {seat: 2, action: raise, to: 800}, {seat: 1, action: raise, to: 1200},
                  {seat: 2, action: raise, to: 1600}, {seat: 1, action: raise, to: 2000}]
        disputed: {seat: 2}
        """, "tda-series.cap-reached", "raise-caps.cap-reached", {"to_call": 400}),
}


@pytest.mark.parametrize("house", HOUSES)
def test_a_ruling_under_the_house_shows_its_provenance(house, tmp_path, capsys):
    text, rule, modifies, effects = CASES[house]
    incident = tmp_path / "incident.yaml"
    incident.write_text(textwrap.dedent(text), encoding="utf-8")
    code, out, _ = run(["rule", str(incident), "--house", house, "--format", "json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["rulebook"] == house
    mine = next(r for r in data["rulings"] if r["rule"] == rule)
    assert (mine["house"], mine["modifies"]) == (house, modifies)
    assert mine["origin"]["file"].endswith(f"rulebooks/houses/{house}.yaml")
    assert all(mine["effects"][k] == v for k, v in effects.items())
    assert any(c["source"] == "House rule" for c in mine["citations"])
    assert any(r["rule"] == modifies for r in data["overridden"])   # the standard rule, beaten by the exception
    code, text_out, _ = run(["rule", str(incident), "--house", house], capsys)
    assert f"house:   {house} (modifies {modifies})" in text_out
