"""A kill history told without the pots' sizes (issue #43, class 3): only the last pot's size is ever read,
and only where it decides (a second win counts as a leg only when its pot is big enough: RRP kill rule 3), so
an earlier pot, or a last pot that is a first leg, may be told by its winners alone; where the size decides,
it is asked, never refused and never guessed."""
from __future__ import annotations

from rulings.incident import incident_from_data
from rulings.ruling import books
from rulings.ruling.decide import rule_on

# $10/$20 limit with $5/$10 blinds: a full kill is a $20 blind and $20/$40
GAME = {"game": {"structure": "fixed-limit", "blinds": [5, 10], "bet_sizes": [10, 20]}, "button": 1,
        "players": {1: 500, 2: 500, 3: 500, 4: 500}}


def _rule(table):
    book, engine = books.load()
    return rule_on(incident_from_data(GAME | {"table": table}, book=book), book, engine)


def test_the_earlier_pot_needs_no_size():
    # seat 3 won the pot before (no size told) and the last one, $220 with $15 of blinds: two in a row
    report = _rule({"pots": [{"winners": [3]}, {"winners": [3], "amount": 220, "blind_money": 15}]})
    kill = next(r for r in report.rulings if r.decides == "kill")
    assert kill.ruling == "kill-required" and kill.effects["killer"] == 3 and kill.effects["kill_blind"] == 2000


def test_a_first_leg_needs_no_size():
    report = _rule({"pots": [{"winners": [4]}], "kill_button": {"seat": 3}})
    assert report.outcome == "ruled"
    (leg,) = [r for r in report.rulings if r.decides == "kill"]
    assert (leg.ruling, leg.effects["kill_button_next"]) == ("leg-up", 4)


def test_where_the_size_decides_it_is_asked():
    report = _rule({"pots": [{"winners": [3]}, {"winners": [3]}]})
    assert report.outcome == "questions"
    assert [q["fact"] for q in report.questions] == ["kill_last_pot"]
    assert not [r for r in report.rulings if r.decides == "kill"]   # neither a kill nor a leg on a guess


def test_a_kill_due_in_a_game_told_without_blinds_asks_them_instead_of_refusing():
    book, engine = books.load()
    data = {"game": {"structure": "fixed-limit", "bet_sizes": [10, 20]}, "button": 1,
            "players": {1: 500, 2: 500, 3: 500, 4: 500},
            "table": {"pots": [{"winners": [3]}, {"winners": [3], "amount": 220, "blind_money": 15}]}}
    report = rule_on(incident_from_data(data, book=book), book, engine)
    assert report.outcome == "questions"
    assert [q["fact"] for q in report.questions] == ["kill_blind"]
    # a first leg needs no blinds either
    data["table"] = {"pots": [{"winners": [4]}], "kill_button": {"seat": 3}}
    report = rule_on(incident_from_data(data, book=book), book, engine)
    assert [(r.ruling, r.effects["kill_button_next"]) for r in report.rulings if r.decides == "kill"] == [("leg-up", 4)]
