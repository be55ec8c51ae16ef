"""What the seat to act may do after a ruling (issue #43, class 2): wherever a ruling leaves someone to act,
WHAT HAPPENS NOW and the report's `next` state his call, his smallest and largest raise-to and whether
raising is open to him, worked out by the betting arithmetic.

Over every example of every book, and on hand-made positions whose numbers come from the rule texts
(TDA 2024 rule 43-A: a raise is at least the largest bet or raise of the round; Robert's Rules PL: the
pot-size raise is the call plus the pot after the call; a limit round is capped at a bet and three raises).
"""
from __future__ import annotations

import pytest

from examples_ruled import examples_ruled
from rulings.incident import incident_from_data
from rulings.problems import ProblemsError
from rulings.report.render import report_json
from rulings.rulebook.house import house_names
from rulings.ruling import books
from rulings.ruling.decide import rule_on

BOOKS = [None] + sorted(house_names())


def _examples(house):
    for r in examples_ruled(house):
        yield r.book, r.report, f"{house or 'standard'} {r.rule.id} {r.index}", r.example


@pytest.mark.parametrize("house", BOOKS)
def test_every_example_that_leaves_a_seat_to_act_says_what_he_may_do(house):
    stated = pots_stated = 0
    missing = []
    for book, report, name, ex in _examples(house):
        try:
            incident = incident_from_data(ex.incident, file=str(ex.origin), book=book)
        except ProblemsError:
            continue
        pots_stated += _pots_and_calls_stated(name, report)
        to_act = [line for line in report.now if "is next to act" in line]
        if not to_act:
            continue
        stand_in = incident.unsized or incident.limits_unknown or incident.blinds_unknown
        nxt = report.next
        if nxt is None:
            if not stand_in:
                missing.append(f"{name}: {to_act[0]!r} but no options")
            continue
        stated += 1
        assert "he may" in to_act[0], name
        assert isinstance(nxt["to_call"], int) and nxt["to_call"] >= 0, name
        if nxt["can_raise"]:
            assert nxt.get("min_raise_to") is not None, name
            low, high = nxt["min_raise_to"], nxt.get("max_raise_to")
            assert high is None or high >= low, name
            if high is None:   # left out only when it rests on something not given
                assert incident.pot_unknown or any(p.stack is None for p in incident.hand.players), name
        else:
            assert "min_raise_to" not in nxt and "max_raise_to" not in nxt, name
            assert "raising is not open" in to_act[0], name
        js = report_json(report)
        assert js["next"]["seat"] == nxt["seat"]
        assert any(r.get("next") == js["next"] for r in js["rulings"]), f"{name}: no ruling carries `next`"
    assert not missing, missing[:10]
    if house is None:
        assert stated >= 20   # the standard book's examples leave a seat to act often; a test over none proves nothing
        assert pots_stated >= 10


def _pots_and_calls_stated(name: str, report) -> int:
    """The pot and call numbers a ruling touches are in its sentence (issue #43, class 2): a ruling on the pots
    names each pot with its amount and players and, where the winners are told, what each takes; a capped round
    names what every seat after the player still owes. Returns how many rulings it checked."""
    f, checked = report.facts, 0
    for r in report.rulings:
        if r.decides == "pots" and f.get("pots_listed"):
            assert f["pots_listed"] in r.sentence, f"{name}: {r.rule} leaves out the pots ({f['pots_listed']})"
            if f.get("pot_takes_listed"):
                assert f["pot_takes_listed"] in r.sentence, f"{name}: {r.rule} leaves out who takes what"
            checked += 1
        if r.ruling == "capped" and f.get("others_to_call"):
            assert f["others_to_call"] in r.sentence, f"{name}: {r.rule} leaves out {f['others_to_call']!r}"
            checked += 1
    return checked


def _rule(data, house=None):
    book, engine = books.load(house)
    return rule_on(incident_from_data(data, book=book), book, engine)


NL = {"game": {"structure": "no-limit", "blinds": [1, 2]}, "button": 6,
      "players": {1: 500, 2: 500, 3: 300, 4: 500, 5: 500, 6: 500}}


def test_a_raise_ruled_leaves_the_next_seat_his_call_and_his_raise_window():
    # flop, pot $40: seat 1 bets $20, seat 2 says "raise" and puts out $60 in one motion (a raise to $60,
    # $40 more); seat 3 faces $60, and a raise must be at least $40 more: to $100; his $300 is the most
    report = _rule(NL | {"street": "flop", "pot": 40, "actions": [{"seat": 1, "action": "bet", "to": 20}],
                         "disputed": {"seat": 2, "said": "raise", "chips": [20, 20, 20], "words_first": "words"}})
    assert report.next == {"seat": 3, "to_call": 6000, "can_raise": True, "min_raise_to": 10000,
                           "max_raise_to": 30000, "after": report.next["after"]}
    assert any("Seat 3 is next to act and faces $60 to call: he may fold, call $60 or raise to at least $100 "
               "and at most $300 (all-in)." == line for line in report.now), report.now
    js = report_json(report)
    assert js["next"]["min_raise_to"] == 100 and js["next"]["to_call"] == 60
    wager = next(r for r in js["rulings"] if r["decides"] == "wager")
    assert wager["faced"] == {"to_call": 20, "min_raise_to": 40, "max_raise_to": 500, "can_raise": True}


def test_pot_limit_states_the_pot_size_raise():
    # pot $100, seat 1 bets $50 with one silent $50 chip: seat 2 may call $50 or raise to at most
    # $50 + ($100 + $50 + $50) = $250
    report = _rule({"game": {"structure": "pot-limit", "blinds": [1, 2]}, "button": 3,
                    "players": {1: 1000, 2: 1000, 3: 1000}, "street": "flop", "pot": 100,
                    "disputed": {"seat": 1, "chips": [50]}})
    assert report.next is not None
    assert (report.next["seat"], report.next["to_call"], report.next["min_raise_to"],
            report.next["max_raise_to"]) == (2, 5000, 10000, 25000)


def test_a_capped_limit_round_says_raising_is_not_open():
    # $10/$20 limit, turn: a bet and three raises reach the cap; seat 4 calls $80 with chips: seat 1, who bet,
    # owes $60 and may not raise
    report = _rule({"game": {"structure": "fixed-limit", "blinds": [5, 10], "bet_sizes": [10, 20]},
                    "button": 4, "players": {1: 500, 2: 500, 3: 500, 4: 500}, "street": "turn", "pot": 100,
                    "actions": [{"seat": 1, "action": "bet", "to": 20}, {"seat": 2, "action": "raise", "to": 40},
                                {"seat": 3, "action": "raise", "to": 60}],
                    "disputed": {"seat": 4, "said": "raise", "chips": [80]}})
    nxt = report.next
    assert nxt is not None and nxt["seat"] == 1 and nxt["to_call"] == 6000, (report.now, nxt)
    assert nxt["can_raise"] is False and "reason" in nxt
    assert any("raising is not open to him" in line for line in report.now), report.now


def test_a_pot_not_given_leaves_the_pot_limit_maximum_unknown():
    report = _rule({"game": {"structure": "pot-limit", "blinds": [1, 2]}, "button": 3,
                    "players": {1: 1000, 2: 1000, 3: 1000}, "street": "turn",
                    "actions": [{"seat": 1, "action": "bet", "to": 40}],
                    "disputed": {"seat": 2, "said": "call", "chips": [40]}})
    assert report.next is not None and report.next["min_raise_to"] == 8000, report.now
    assert "max_raise_to" not in report.next, report.next
    assert any("raise to at least $80." in line for line in report.now), report.now
