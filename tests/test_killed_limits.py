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


# $20/$40 limit, $10/$20 blinds, nine seats, button 9: seat 5 has posted the $30 half kill (or the $40 full one)
PREFLOP = {"game": {"structure": "fixed-limit", "blinds": [10, 20], "bet_sizes": [20, 40]}, "button": 9,
           "players": {s: 800 for s in range(1, 10)}, "street": "preflop",
           "table": {"kill_posted": {"seat": 5, "amount": 30, "required": True}}, "params": {"kill.size": "half"}}


def _preflop(**more):
    book, engine = books.load()
    return rule_on(incident_from_data(PREFLOP | more, book=book), book, engine)


@pytest.mark.parametrize("seat, to_call, raise_to", [(3, 3000, 6000), (4, 3000, 6000), (6, 3000, 6000)])
def test_before_the_flop_every_seat_faces_the_kill_blind_at_the_killed_limits(seat, to_call, raise_to):
    """RRP-KILL-INTRO: a half kill of a $20 big blind is $30 and plays $30/$60; those before the killer face it too."""
    actions = [{"seat": s, "action": "fold"} for s in range(3, seat)]
    report = _preflop(actions=actions, disputed={"seat": seat})
    options = next(r for r in report.rulings if r.decides == "seat-options")
    assert (options.effects["to_call"], options.effects["min_raise_to"]) == (to_call, raise_to)


def test_the_killer_acts_in_his_turn_and_has_the_option():
    """RRP-KILL-2: everyone folds to seat 4, who calls $30: the killer acts next, and may raise to $60."""
    report = _preflop(actions=[{"seat": 3, "action": "fold"}, {"seat": 4, "action": "call"}], disputed={"seat": 5})
    assert report.facts["in_turn"] is True and report.facts["to_call"] == 0 and report.facts["min_raise_to"] == 6000


def test_a_killer_under_the_gun_who_acts_last_on_the_first_round_is_passed_over_until_the_end():
    """RRP-KILL-10's custom (the killer acts last before the flop): seat 3, first after the big blind, kills for
    $30; the action starts on his left, seat 4 faces $30 and the killer acts after the big blind."""
    table = {"kill_posted": {"seat": 3, "amount": 3000 // 100, "required": True}}
    params = {"kill.size": "half", "kill.killer_acts": "last_on_first_round"}
    report = _preflop(table=table, params=params, disputed={"seat": 4})
    assert report.facts["in_turn"] is True and report.facts["to_call"] == 3000
    folds = [{"seat": s, "action": "fold"} for s in (4, 5, 6, 7, 8, 9, 1)] + [{"seat": 2, "action": "call"}]
    report = _preflop(table=table, params=params, actions=folds, disputed={"seat": 3})
    assert report.facts["in_turn"] is True and report.facts["min_raise_to"] == 6000


def test_a_killer_elsewhere_who_acts_last_is_not_replayed_at_killed_limits_before_the_flop():
    """The arithmetic keeps one circular order: a killer in seat 5 acting last cannot be placed, so the first round
    is left at the game's own limits and no killed-limits ruling is given on it (never a guessed order)."""
    report = _preflop(params={"kill.size": "half", "kill.killer_acts": "last_on_first_round"}, disputed={"seat": 3})
    assert report.facts["kill_limits_played"] is False
    assert not [r for r in report.rulings if r.ruling == "killed-limits"]


def test_a_full_kill_before_the_flop_doubles_the_limits():
    report = _preflop(table={"kill_posted": {"seat": 5, "amount": 40}}, params={}, disputed={"seat": 3})
    assert (report.facts["to_call"], report.facts["min_raise_to"]) == (4000, 8000)
