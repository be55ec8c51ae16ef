"""After a pot dispute, who takes what (issue #43, class 2): once the betting is over and the log names the
winners of every pot, the pots ruling says each winner's take in all, each pot cut on its own in shares of
the smallest chip with the odd chip to the first winner left of the button (TDA 2024 rules 20 and 21,
Robert's Rules' ties section)."""
from __future__ import annotations

import copy

from rulings.incident import incident_from_data
from rulings.report.render import report_json
from rulings.ruling import books
from rulings.ruling.decide import rule_on

# $1/$2, button 3; seat 3 is all in preflop for $41 and both blinds call: a $123 main pot (seats 1, 2, 3);
# on the flop seat 1 bets $50 and seat 2 calls: a $100 side pot (seats 1, 2); turn and river checked.
HAND = {
    "game": {"structure": "no-limit", "blinds": [1, 2]}, "button": 3,
    "players": {1: 200, 2: 200, 3: 41},
    "streets": [
        {"street": "preflop", "actions": [{"seat": 3, "action": "raise", "to": 41}, {"seat": 1, "action": "call"},
                                          {"seat": 2, "action": "call"}]},
        {"street": "flop", "actions": [{"seat": 1, "action": "bet", "to": 50}, {"seat": 2, "action": "call"}]},
        {"street": "turn", "actions": [{"seat": 1, "action": "check"}, {"seat": 2, "action": "check"}]},
        {"street": "river", "actions": [{"seat": 1, "action": "check"}, {"seat": 2, "action": "check"}]},
    ],
    "disputed": {"seat": 3, "at": {"street": "river", "after": 2}},
}


def _report(data):
    book, engine = books.load()
    return rule_on(incident_from_data(data, book=book), book, engine)


def _pots_sentence(report):
    return next(r.sentence for r in report.rulings if r.decides == "pots")


def test_a_tied_main_pot_and_a_side_pot_say_what_each_winner_takes():
    # seats 2 and 3 tie the $123 main pot: $61 each, the odd $1 to seat 2 (seat 1 is first left of the
    # button but did not win it); seat 2 also takes the $100 side pot: $162 in all, seat 3 $61
    data = copy.deepcopy(HAND) | {"pots_won": [{"pot": 0, "winners": [2, 3]}, {"pot": 1, "winners": [2]}],
                                  "split": {"winners": [2, 3], "pot": 0, "smallest_chip": 1}}
    report = _report(data)
    assert "Paid out: seat 2 takes $162, seat 3 takes $61." in _pots_sentence(report)
    sentences = " ".join(r["sentence"] for r in report_json(report)["rulings"])
    assert "$162" in sentences


def test_one_winner_of_both_pots_takes_them_both():
    data = copy.deepcopy(HAND) | {"pots_won": [{"pot": 0, "winners": [1]}, {"pot": 1, "winners": [1]}]}
    assert "Paid out: seat 1 takes $223." in _pots_sentence(_report(data))


def test_with_a_pot_whose_winner_is_not_told_nothing_is_paid_out_on_a_guess():
    data = copy.deepcopy(HAND) | {"pots_won": [{"pot": 0, "winners": [3]}]}
    assert "Paid out" not in _pots_sentence(_report(data))
