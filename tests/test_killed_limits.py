"""A killed hand is played at the killed limits on every street (RRP kill pots: a full kill doubles the
limits; issue #43, class 6): with the kill posted this hand (table.kill_posted), every bet and raise of the
hand is sized and checked at the killed limits, while the next kill is still sized on the game's own."""
from __future__ import annotations

import pytest

from rulings.incident import incident_from_data
from rulings.problems import ProblemsError
from rulings.ruling import books
from rulings.ruling.decide import rule_on

# $10/$20 limit, $5/$10 blinds; seat 3 won the last pot with a leg up and has posted the $20 full kill:
# the hand plays $20/$40
BASE = {"game": {"structure": "fixed-limit", "blinds": [5, 10], "bet_sizes": [10, 20]}, "button": 1,
        "players": {1: 500, 2: 500, 3: 500, 4: 500}, "pot": 100,
        "table": {"pots": [{"winners": [3], "amount": 220, "blind_money": 15}], "kill_button": {"seat": 3},
                  "kill_posted": {"seat": 3, "amount": 20}}}


def _rule(**more):
    book, engine = books.load()
    return rule_on(incident_from_data(BASE | more, book=book), book, engine)


def test_a_flop_bet_and_raise_are_at_the_killed_small_bet():
    report = _rule(street="flop", actions=[{"seat": 2, "action": "bet", "to": 20}], disputed={"seat": 3, "said": "raise"})
    wager = next(r for r in report.rulings if r.decides == "wager")
    assert wager.effects["wager_to"] == 4000
    assert report.next is not None and (report.next["to_call"], report.next["min_raise_to"]) == (4000, 6000)


def test_the_turn_is_at_the_killed_big_bet():
    report = _rule(street="turn", disputed={"seat": 2, "said": "bet"})
    assert next(r for r in report.rulings if r.decides == "wager").effects["wager_to"] == 4000


def test_a_bet_at_the_game_s_own_limits_is_short_in_a_killed_hand():
    with pytest.raises(ProblemsError):
        _rule(street="flop", actions=[{"seat": 2, "action": "bet", "to": 10}], disputed={"seat": 3, "said": "call"})


def test_the_next_kill_is_still_sized_on_the_game_s_own_limits():
    report = _rule(street="flop", disputed={"seat": 2, "said": "check"})
    kill = next(r for r in report.rulings if r.decides == "kill")
    assert (kill.effects["kill_blind"], kill.effects["kill_small_bet"]) == (2000, 2000)


def test_without_the_kill_posted_the_hand_plays_at_the_game_s_limits():
    table = {k: v for k, v in BASE["table"].items() if k != "kill_posted"}
    report = _rule(street="flop", table=table, disputed={"seat": 2, "said": "bet"})
    assert next(r for r in report.rulings if r.decides == "wager").effects["wager_to"] == 1000
