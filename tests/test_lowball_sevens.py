"""Ace-to-five lowball's sevens rule (inventory §32: RRP §11 Ace-to-Five rule 4, BARGE Appendix B): the facts
rulings/facts/lowball.py works out from the hand as told, and the rulings of rulebooks/standard/showdown.yaml."""
from __future__ import annotations

from rulings.incident import incident_from_data
from rulings.ruling.decide import rule_on

# $20/$40 limit lowball, $120 in the middle before the draw, heads-up; after the draw seat 1 checks, seat 2 bets $40
# and seat 1 calls. Seat 1 tables 7-5-4-2-A.
HAND = {"game": {"variant": "lowball", "structure": "fixed-limit", "blinds": [10, 20], "bet_sizes": [20, 40]},
        "button": 2, "players": {1: 500, 2: 500},
        "streets": [{"street": "before-draw", "left": [1, 2], "pot": 120},
                    {"street": "after-draw", "actions": [{"seat": 1, "action": "check"},
                                                         {"seat": 2, "action": "bet", "to": 40},
                                                         {"seat": 1, "action": "call"}]}],
        "procedure": {"showdown": {}}}


def _pot(standard, beaten_by: str, **params):
    book, engine = standard
    data = {**HAND, "showdown": [{"seat": 2, "shows": beaten_by}, {"seat": 1, "shows": "7c 5d 4h 2s Ac"}]}
    if params:
        data["params"] = params
    report = rule_on(incident_from_data(data), book, engine)
    return report, next(r for r in report.rulings if r.decides == "pot")


def test_a_checked_seven_that_wins_takes_the_pot_before_the_draw(standard):
    report, pot = _pot(standard, "9h 6d 4c 3s 2d")
    f = report.facts
    assert (f["sevens_checked_seat"], f["sevens_checked_hand"], f["sevens_checker_best"]) == (1, "7-5-4-2-A", True)
    assert (f["sevens_pot_before_draw"], f["sevens_post_draw_total"]) == (12000, 8000)
    assert pot.rule == "showdown.sevens-rule-checked-winner" and pot.cites[0] == "RRP-LB-A5-4b"
    assert "$120" in pot.sentence and "seat 2 $40, seat 1 $40" in pot.sentence


def test_the_sevens_rule_on_each_side(standard):
    # beaten by 6-5-4-3-2: he loses the whole $200 as usual (rule 4, checked loser)
    _, lost = _pot(standard, "6h 5s 4c 3s 2d")
    assert (lost.rule, lost.effects["pot"]) == ("showdown.sevens-rule-checked-loser", 20000)
    # no sevens rule: the check costs nothing, he wins all $200
    _, free = _pot(standard, "9h 6d 4c 3s 2d", **{"lowball.sevens_rule": "off"})
    assert (free.rule, free.effects["pot"]) == ("showdown.no-sevens-rule", 20000)
    # a house that takes the whole pot
    _, gone = _pot(standard, "9h 6d 4c 3s 2d", **{"lowball.sevens_rule_penalty": "forfeit_pot"})
    assert gone.rule == "showdown.sevens-rule-forfeit"


def test_an_eight_checked_is_no_seven(standard):
    book, engine = standard
    data = {**HAND, "showdown": [{"seat": 2, "shows": "9h 6d 4c 3s 2d"}, {"seat": 1, "shows": "8c 5d 4h 2s Ac"}]}
    report = rule_on(incident_from_data(data), book, engine)
    assert "sevens_checked_seat" not in report.facts
    assert not [r for r in report.rulings if r.rule.startswith("showdown.sevens")]
