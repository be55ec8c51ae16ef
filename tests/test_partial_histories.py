"""Partial histories: actions told without the amounts that do not matter, streets told by who is left and the
pot, pots by amount with their seats, and the act as the dealer took it kept apart; an amount that matters and
is missing is asked, never guessed (rulings/incident/unsized.py, rulings/incident/hand.py)."""
from __future__ import annotations

import pytest

from rulings.incident import incident_from_data
from rulings.problems import ProblemsError
from rulings.report.render import report_text
from rulings.ruling.decide import rule_on

SIX = {"game": {"structure": "no-limit", "setting": "tournament", "blinds": [100, 200]}, "button": 1,
       "players": {s: 20000 for s in range(1, 7)}}


def _rule(standard, data):
    book, engine = standard
    return rule_on(incident_from_data(data), book, engine)


def _refused(data):
    with pytest.raises(ProblemsError) as got:
        incident_from_data(data)
    return got.value.problems


def test_a_raise_without_its_amount_still_counts_as_substantial_action(standard):
    # TDA 2024 rule 34-A's example as a floor tells it: "UTG raised, UTG+1 called", no amounts. The button
    # question needs only the count of actions (TDA-2024-36), so it is ruled.
    data = {**SIX, "street": "preflop", "actions": [{"seat": 4, "action": "raised"}, {"seat": 5, "action": "called"}],
            "procedure": {"button": {"wrong_move": True}}}
    report = _rule(standard, data)
    assert any(d["fact"] == "substantial_action" and d["value"] is True for d in report.derived)
    assert [r.rule for r in report.rulings] == ["button.wrong-move-stands"]
    # "folded" and "checked" are read as the actions themselves: two folds are not substantial action
    folds = _rule(standard, {**data, "actions": [{"seat": 4, "action": "folded"}, {"seat": 5, "action": "folds"}]})
    assert [r.rule for r in folds.rulings] == ["button.wrong-move-corrected"]


def test_a_fixed_limit_raise_without_its_amount_is_sized_by_the_limits(standard):
    # $3-$6 (RRP-BR-ONECHIP's game) on the turn: a bet is $6 and a raise makes it $12, so "seat 1 bet, seat 2
    # raised" needs no amounts, and seat 3 faces $12
    data = {"game": {"structure": "fixed-limit", "blinds": [1, 3], "bet_sizes": [3, 6]}, "button": 3,
            "players": {1: 1000, 2: 1000, 3: 1000}, "street": "turn", "pot": 30,
            "actions": [{"seat": 1, "action": "bet"}, {"seat": 2, "action": "raised"}],
            "disputed": {"seat": 3, "said": "call"}}
    incident = incident_from_data(data)
    assert [a.to for a in incident.hand.streets[0]] == [600, 1200] and incident.unsized == ()
    report = _rule(standard, data)
    assert report.facts["to_call"] == 1200 and report.outcome == "ruled"


def test_a_no_limit_raise_without_its_amount_is_asked_when_the_act_after_it_depends_on_it(standard):
    # no-limit, "seat 1 bet, seat 2 raised" and seat 3 puts out a single $500 chip: whether that is a call or a
    # raise depends on the raise's size, so it is asked and nothing is ruled on a guess
    data = {"game": {"structure": "no-limit", "blinds": [1, 2]}, "button": 3,
            "players": {1: 1000, 2: 1000, 3: 1000}, "street": "flop", "pot": 20,
            "actions": [{"seat": 1, "action": "bet", "to": 100}, {"seat": 2, "action": "raise"}],
            "disputed": {"seat": 3, "chips": [500]}}
    report = _rule(standard, data)
    asked = [q for q in report.questions if q.get("field") == "actions[1].to"]
    assert asked and "seat 2 raise" in asked[0]["question"] and not report.rulings
    assert report.facts.get("to_call") is None and report.facts["pot"] is None
    # given, it is ruled: a $500 chip facing a raise to $300 is a call (TDA-2024-44)
    data["actions"][1]["to"] = 300
    ruled = _rule(standard, data)
    assert ruled.rulings and not [q for q in ruled.questions if q.get("field") == "actions[1].to"]


def test_a_street_told_by_who_is_left_and_the_pot(standard):
    # "three saw the flop for 600; on the flop seat 2 bet 400, seat 3 raised to 1,200": seats 1, 4, 5, 6
    # folded preflop and are out of the hand
    data = {**SIX, "streets": [{"street": "preflop", "left": [2, 3, 4], "pot": 600},
                               {"street": "flop", "board": "Kd 8s 3c",
                                "actions": [{"seat": 2, "action": "bet", "to": 400},
                                            {"seat": 3, "action": "raise", "to": 1200}]}],
            "disputed": {"seat": 4, "chips": [1000], "at": {"street": "flop", "after": 2}}}
    incident = incident_from_data(data)
    assert incident.hand.pot_before == 60000 and [p.seat for p in incident.hand.players] == [2, 3, 4]
    assert set(incident.log.folded) == {1, 5, 6}
    report = _rule(standard, data)
    assert report.facts["pot"] == 60000 + 40000 + 120000 and report.facts["to_call"] == 120000
    # a seat that was not left cannot act later, nor show down
    bad = {**data, "streets": [data["streets"][0], {**data["streets"][1], "actions": [
        {"seat": 5, "action": "bet", "to": 400}]}], "disputed": {"seat": 4, "chips": [1000]}}
    assert [p.code for p in _refused(bad)] == ["I105"]
    # a told street after one told action by action is refused, as is a told street with actions too
    late = {**SIX, "streets": [{"street": "preflop", "actions": []}, {"street": "flop", "left": [2, 3], "pot": 600}]}
    both = {**SIX, "streets": [{"street": "preflop", "left": [2, 3], "pot": 600,
                                "actions": [{"seat": 2, "action": "call"}]}]}
    assert [p.code for p in _refused(late)] == ["I105"] and [p.code for p in _refused(both)] == ["I105"]


def test_side_pots_by_amount_with_their_seats(standard):
    # TDA 2024 rule 16, additional example 3, told by its pots after the turn: 2,100 in the main pot (seats 1,
    # 2, 3; seat 1 all in for 700) and 2,000 in the side pot (seats 2 and 3); the river is checked
    data = {"game": {"structure": "no-limit", "setting": "cash", "blinds": [100, 200]}, "button": 3,
            "players": {1: 700, 2: 5000, 3: 5000},
            "streets": [{"street": "turn", "pots": [{"amount": 2100, "seats": [1, 2, 3]},
                                                    {"amount": 2000, "seats": [2, 3]}]},
                        {"street": "river", "board": "5s", "actions": [{"seat": 2, "action": "check"},
                                                                      {"seat": 3, "action": "check"}]}],
            "procedure": {"showdown": {}}}
    incident = incident_from_data(data)
    assert incident.hand.pot_before == 410000
    assert {p.seat: p.stack for p in incident.hand.players}[1] == 0
    report = _rule(standard, data)
    assert report.facts["sd_main_pot_only_seats"] == "1" and report.facts["sd_side_pot_seats"] == "2 and 3"
    show = next(r for r in report.rulings if r.decides == "show-order")
    assert show.effects["show_order"] == "2, 3, 1"
    # pots that do not add up to the pot given, or a side pot with a seat the main pot lacks, are refused
    wrong = {**data, "streets": [{**data["streets"][0], "pot": 4000}, data["streets"][1]]}
    assert [p.code for p in _refused(wrong)] == ["I105"]
    stray = {**data, "streets": [{"street": "turn", "pots": [{"amount": 2100, "seats": [1, 2]},
                                                             {"amount": 2000, "seats": [2, 3]}]}, data["streets"][1]]}
    assert "I105" in [p.code for p in _refused(stray)]


def test_the_act_as_the_dealer_took_it_is_kept_apart(standard):
    # the player said "raise" and put out 1,000 facing 400; the dealer took it as a raise to 1,000
    data = {"game": {"structure": "no-limit", "blinds": [100, 200]}, "button": 3,
            "players": {1: 20000, 2: 20000, 3: 20000}, "street": "flop", "pot": 600,
            "actions": [{"seat": 1, "action": "bet", "to": 400}],
            "disputed": {"seat": 2, "said": "raise", "chips": [1000], "dealer_took": {"action": "raised", "to": 1000}}}
    report = _rule(standard, data)
    assert report.facts["dealer_took"] == "raise" and report.facts["dealer_took_to"] == 100000
    assert report.facts["said_kind"] == "raise"     # what he said is read on its own
    # no rule of the inventory makes the dealer's record bind or ruled on it: the report says it was not weighed
    assert "dealer_took" in report.not_considered
    assert "NOT CONSIDERED (given, but no rule weighed it): " in report_text(report)
    # in the whole hand the action listed at the act's point is the dealer's record; given twice, they agree
    whole = {**{k: v for k, v in data.items() if k not in ("street", "pot", "actions", "disputed")},
             "streets": [{"street": "preflop", "actions": [{"seat": 3, "action": "call"}, {"seat": 1, "action": "call"},
                                                           {"seat": 2, "action": "check"}]},
                         {"street": "flop", "board": "Kd 8s 3c", "actions": [
                             {"seat": 1, "action": "bet", "to": 400}, {"seat": 2, "action": "raise", "to": 1000}]}],
             "disputed": {"seat": 2, "said": "raise", "chips": [1000], "at": {"street": "flop", "after": 1}}}
    told = _rule(standard, whole)
    assert told.facts["dealer_took_to"] == 100000
    assert "dealer_took" not in told.not_considered   # the log's own action at the act's point: read with the hand
    clash = {**whole, "disputed": {**whole["disputed"], "dealer_took": {"action": "call"}}}
    assert [p.code for p in _refused(clash)] == ["I105"]


@pytest.mark.parametrize("street", [
    {"street": "preflop", "left": "all"}, {"street": "preflop", "left": [2, 2], "pot": 10},
    {"street": "preflop", "left": [9], "pot": 10}, {"street": "preflop", "pots": [{"amount": -5, "seats": [2]}]},
    {"street": "preflop", "pots": [{"amount": 5}]}, {"street": "preflop", "pots": "lots"},
    {"street": "preflop", "left": [2, 3], "pot": "x"},
])
def test_hostile_told_streets_are_refused_not_a_traceback(street):
    problems = _refused({**SIX, "streets": [street]})
    assert problems and all(p.code.startswith("I1") for p in problems)


@pytest.mark.parametrize("took", [{"action": "fold", "to": 5}, {"action": "shove"}, "raise", {"to": 100}])
def test_hostile_dealer_records_are_refused(took):
    data = {"game": {"structure": "no-limit", "blinds": [1, 2]}, "button": 3,
            "players": {1: 100, 2: 100, 3: 100}, "disputed": {"seat": 1, "said": "call", "dealer_took": took}}
    assert _refused(data)


def test_the_stacks_given_with_a_told_street_are_those_at_the_next_street(standard):
    """Issue 43, class 5: "three saw the flop for 600, seat 3 had 125 left" is a legal story. The stacks given
    are read at the flop, so seat 3's call of 400 is all in for 125 and the next action may pass him by:
    main pot 600 + 3 x 125 = 975 for all three, side pot 2 x 1,075 = 2,150 for seats 2 and 4 (the raise to
    1,200 called). Before, the stacks were set aside and a check after seat 2's call was refused as out of turn."""
    data = {**SIX, "players": {2: 20000, 3: 125, 4: 20000},
            "streets": [{"street": "preflop", "left": [2, 3, 4], "pot": 600},
                        {"street": "flop", "actions": [{"seat": 2, "action": "bet", "to": 400},
                                                       {"seat": 3, "action": "call"},
                                                       {"seat": 4, "action": "raise", "to": 1200},
                                                       {"seat": 2, "action": "call"}]}],
            "disputed": {"seat": 3, "at": {"street": "flop", "after": 4}}}
    incident = incident_from_data(data)
    assert {p.seat: p.stack for p in incident.hand.players} == {2: 2000000, 3: 12500, 4: 2000000}
    report = _rule(standard, data)
    assert (report.facts["main_pot"], report.facts["side_pots_total"]) == (97500, 215000)


def test_noticed_before_the_next_action_with_an_action_after_it_is_refused_naming_both(standard):
    """Issue 43, class 5: "noticed before the next action" and an action told after the act cannot both be
    true; the reader refuses it and names both places. TDA 53's spot: seat 3 bets 500 out of turn (seat 1 is due),
    and the skipped seat 1 then acting in turn, once it was pointed out, is no contradiction."""
    base = {"game": {"structure": "no-limit", "setting": "tournament", "blinds": [100, 200]}, "button": 5,
            "players": {1: 20000, 2: 20000, 3: 20000, 4: 20000, 5: 20000}, "street": "flop", "pot": 1200,
            "disputed": {"seat": 3, "said": "bet five hundred"}, "noticed": "before_next_action"}
    problems = _refused({**base, "after": [{"seat": 4, "action": "call", "to": 500}]})
    assert [p.code for p in problems] == ["I145"]
    assert problems[0].path == ("noticed",) and "after[0]" in problems[0].message
    incident_from_data({**base, "after": [{"seat": 1, "action": "check"}]})      # the skipped seat, in turn
    incident_from_data({**base, "noticed": "after_some_action", "after": [{"seat": 4, "action": "call", "to": 500}]})


def test_a_skipped_player_with_no_chance_to_object_keeps_his_turn(standard):
    """Issue 43, class 5: TDA 53-B binds a skipped player to speak up before substantial action only when he had a
    reasonable chance. Seat 3 bets 500 while seat 1 is due; seats 4 and 5 call. Told that seat 1 had no chance
    (the dealer passed him over), the action backs up to him; told nothing, the action stands (the floor's call)."""
    base = {"game": {"structure": "no-limit", "setting": "tournament", "blinds": [100, 200]}, "button": 5,
            "players": {1: 20000, 2: 20000, 3: 20000, 4: 20000, 5: 20000}, "street": "flop", "pot": 1200,
            "disputed": {"seat": 3, "said": "bet five hundred"},
            "after": [{"seat": 4, "action": "call", "to": 500}, {"seat": 5, "action": "call", "to": 500}]}
    back = _rule(standard, {**base, "skipped_had_time": False})
    assert [r.rule for r in back.rulings if r.decides == "out-of-turn"] == ["declarations.skipped-player-had-no-time"]
    late = _rule(standard, base)
    assert [r.rule for r in late.rulings if r.decides == "out-of-turn"] == ["declarations.skipped-player-too-late"]
    assert [p.code for p in _refused({**base, "skipped_had_time": "no"})] == ["I103"]
