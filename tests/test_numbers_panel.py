"""The numbers panel (issue #43, class 2): after a ruling, the numbers the floor needs to act on it, worked out
by the arithmetic from known facts only (rulings/ruling/panel.py, which panel for which matter in
rulings/ruling/numbers.yaml), kept on the ruling and said in WHAT HAPPENS NOW. Numbers from the sources'
worked examples (rules inventory §18 and §28)."""
from __future__ import annotations

from rulings.incident import incident_from_data
from rulings.report.render import report_json
from rulings.ruling import books
from rulings.ruling.decide import rule_on


def _rule(data):
    book, engine = books.load()
    return rule_on(incident_from_data(data, book=book), book, engine)


def _numbers(report) -> dict:
    out: dict = {}
    for r in report.rulings:
        out.update(r.numbers)
    return out


def test_a_pot_limit_pot_states_the_pot_before_with_the_call_and_after():
    # RRP §14: a $100 pot and a $50 bet: the raiser calls $50 (the pot is then $200) and raises $200, to $250
    report = _rule({"game": {"structure": "pot-limit", "blinds": [1, 2]}, "button": 3,
                    "players": {1: 2000, 2: 2000, 3: 2000}, "street": "flop", "pot": 100,
                    "actions": [{"seat": 1, "action": "bet", "to": 50}], "disputed": {"seat": 2, "said": "pot"}})
    n = _numbers(report)
    assert (n["pot_before"], n["pot_after_call"], n["pot_after"]) == (15000, 20000, 40000)
    assert "With a call from him the pot is $200." in report.now
    assert "After his act as ruled the pot is $400." in report.now
    assert n["to_call_by_seat"] == {3: 25000, 1: 20000}


def test_a_later_street_s_pot_not_given_leaves_the_pot_numbers_out():
    report = _rule({"game": {"structure": "pot-limit", "blinds": [1, 2]}, "button": 3,
                    "players": {1: 2000, 2: 2000, 3: 2000}, "street": "flop",
                    "actions": [{"seat": 1, "action": "bet", "to": 50}], "disputed": {"seat": 2, "said": "pot"}})
    n = _numbers(report)
    assert not {"pot_before", "pot_after_call", "pot_after"} & n.keys()
    assert report.outcome != "not_covered"


def test_a_capped_limit_round_states_what_each_seat_owes_and_the_cap_in_chips():
    # inventory §18: A $20, B $40, C $60, A $80 -> B owes $40 (2 bets), C owes $20 (1 bet); a bet and 3 raises cap it
    report = _rule({"game": {"structure": "fixed-limit", "blinds": [10, 20], "bet_sizes": [20, 40]}, "button": 4,
                    "players": {1: 900, 2: 900, 3: 900, 4: 900}, "street": "flop", "pot": 80,
                    "actions": [{"seat": 1, "action": "bet", "to": 20}, {"seat": 2, "action": "raise", "to": 40},
                                {"seat": 3, "action": "raise", "to": 60}, {"seat": 4, "action": "fold"}],
                    "disputed": {"seat": 1, "said": "raise", "chips": [20]}})
    n = _numbers(report)
    assert n["to_call_by_seat"] == {2: 4000, 3: 2000}
    assert (n["raises_counted"], n["capped_at"]) == (3, 8000)
    assert "Each seat still to act now owes: seat 2 $40, seat 3 $20." in report.now
    assert "The round is capped at $80: nobody may raise again." in report.now


def test_a_limit_round_not_yet_capped_states_the_cap_and_the_raises_left():
    report = _rule({"game": {"structure": "fixed-limit", "blinds": [10, 20], "bet_sizes": [20, 40]}, "button": 4,
                    "players": {1: 900, 2: 900, 3: 900, 4: 900}, "street": "flop", "pot": 80,
                    "actions": [{"seat": 1, "action": "bet", "to": 20}],
                    "disputed": {"seat": 2, "said": "raise", "chips": [20, 20]}})
    n = _numbers(report)
    assert (n["raises_counted"], n["cap_to"], n["raises_left"]) == (1, 8000, 2)


def test_a_killed_hand_states_its_limits_and_each_round_s_cap():
    # RRP-KILL-INTRO: a $10/$20 game's full kill plays $20/$40, a half kill $15/$30; a bet and 3 raises a round
    full = {"game": {"structure": "fixed-limit", "blinds": [5, 10], "bet_sizes": [10, 20]}, "button": 1,
            "players": {1: 500, 2: 500, 3: 500, 4: 500},
            "table": {"pots": [{"winners": [3], "amount": 220, "blind_money": 15}], "kill_button": {"seat": 3},
                      "kill_posted": {"seat": 3, "amount": 20}}}
    n = _numbers(_rule(full))
    assert (n["kill_small_bet"], n["kill_big_bet"], n["kill_cap_small"], n["kill_cap_big"]) == (2000, 4000, 8000, 16000)
    half = dict(full, table=dict(full["table"], kill_posted={"seat": 3, "amount": 15}), params={"kill.size": "half"})
    report = _rule(half)
    n = _numbers(report)
    assert (n["kill_small_bet"], n["kill_big_bet"], n["kill_cap_small"], n["kill_cap_big"]) == (1500, 3000, 6000, 12000)
    assert any("capped at $60 a round" in line for line in report.now)


def test_a_missed_round_states_what_his_seat_forfeits_and_his_stack_after():
    # inventory §28 (TDA 71-A, 71-C): 9-handed at 1,000/2,000 with a 300 ante from every player, one round:
    # 9 x 300 + 1,000 + 2,000 = 5,700
    report = _rule({"game": {"variant": "holdem", "structure": "no-limit", "setting": "tournament",
                             "blinds": [1000, 2000], "ante": 300}, "button": 1,
                    "players": {1: None, 2: None, 3: None, 4: None, 5: None, 6: 40000, 7: None, 8: None, 9: None},
                    "procedure": {"penalty": {"seat": 6, "given": "missed_round", "rounds": 1}}})
    n = _numbers(report)
    assert (n["forfeited"], n["antes_forfeited"], n["blinds_forfeited"]) == (570000, 270000, 300000)
    assert (n["stack_before"], n["stack_after"]) == (4000000, 3430000)
    assert "Seat 6 had 40,000; after the 5,700 he forfeits he has 34,300." in report.now


def test_a_big_blind_ante_round_names_each_kind_and_an_untold_stack_stays_unknown():
    # inventory §28: one round 9-handed at 1,000/2,000 with a 2,000 big blind ante: 1,000 + 2,000 + 2,000 = 5,000
    report = _rule({"game": {"variant": "holdem", "structure": "no-limit", "setting": "tournament",
                             "blinds": [1000, 2000], "big_blind_ante": 2000}, "button": 1,
                    "players": [1, 2, 3, 4, 5, 6, 7, 8, 9],
                    "procedure": {"penalty": {"seat": 6, "given": "missed_round", "rounds": 1}}})
    n = _numbers(report)
    assert (n["small_blinds_forfeited"], n["big_blinds_forfeited"], n["bb_antes_forfeited"]) == (100000, 200000, 200000)
    assert n["forfeited"] == 500000 and "stack_after" not in n


BBA = {"game": {"variant": "holdem", "structure": "no-limit", "setting": "tournament", "blinds": [1000, 2000],
                "big_blind_ante": 2000}, "button": 6,
       "players": {1: 30000, 2: 3000, 3: 30000, 4: 30000, 5: 30000, 6: 30000},
       "streets": [{"street": "preflop", "actions": [{"seat": 3, "action": "raise", "to": 6000},
                                                    {"seat": 4, "action": "fold"}, {"seat": 5, "action": "fold"},
                                                    {"seat": 6, "action": "fold"}, {"seat": 1, "action": "fold"}]}],
       "pots_won": [{"pot": 0, "winners": [2]}], "procedure": {"showdown": {}}}


def test_a_short_big_blind_ante_pot_states_the_split_the_pot_and_what_goes_back():
    # inventory §18 (TDA RP-11): BB with 3,000 at 1,000/2,000/2,000, UTG raises to 6,000, all fold. Blind first:
    # live 2,000 + ante 1,000; main pot 1,000 + 1,000 + 2,000 + 2,000 = 6,000; UTG's other 4,000 goes back
    report = _rule(BBA | {"params": {"ante.bba_short_order": "big_blind_first"}})
    n = _numbers(report)
    assert (n["bba_live_blind"], n["bba_ante"]) == (200000, 100000)
    assert n["pots"] == [{"amount": 600000, "seats": [2, 3]}]
    assert (n["returned"], n["returned_to"]) == (400000, 3)
    # ante first: ante 2,000, live blind 1,000; main pot 2,000 + 1,000 + 1,000 + 1,000 = 5,000, 5,000 back
    n = _numbers(_rule(BBA | {"params": {"ante.bba_short_order": "ante_first"}}))
    assert (n["bba_live_blind"], n["bba_ante"]) == (100000, 200000)
    assert n["pots"][0]["amount"] == 500000 and n["returned"] == 500000


def test_the_panel_is_in_the_report_data_in_the_game_s_units():
    report = _rule(BBA | {"params": {"ante.bba_short_order": "big_blind_first"}})
    data = report_json(report)
    (r,) = [r for r in data["rulings"] if "numbers" in r]
    assert r["numbers"]["pots"] == [{"amount": 6000, "seats": [2, 3]}] and r["numbers"]["returned"] == 4000
    assert "The 4,000 nobody called goes back to seat 3." in r["say"]


def test_hidden_chips_forfeited_state_what_he_plays_on_with():
    # TDA 63: two 5,000 chips out of view are forfeited; seat 5 plays on with the 38,000 in view
    report = _rule({"game": {"variant": "holdem", "structure": "no-limit", "setting": "tournament"},
                    "players": [1, 2, 3, 4, 5, 6, 7, 8, 9],
                    "procedure": {"chips": {"seat": 5, "hidden": True,
                                            "stack": [{"denomination": 1000, "chips": 38},
                                                      {"denomination": 5000, "chips": 2, "out_of_view": True}]}}})
    n = _numbers(report)
    assert (n["chips_forfeited"], n["stack_after"]) == (1000000, 3800000)
