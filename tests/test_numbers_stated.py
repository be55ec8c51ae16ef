"""The numbers the floor needs, stated with the ruling (issue #43, class 2): the amounts a seat must put in
when a bring-in passes to him, what a player who played an unposted hand posts on the next deal."""
from __future__ import annotations

from rulings.incident import incident_from_data
from rulings.ruling import books
from rulings.ruling.decide import rule_on


def _rule(data):
    book, engine = books.load()
    return rule_on(incident_from_data(data, book=book), book, engine)


def test_a_low_card_all_in_for_the_ante_passes_the_bring_in_with_its_amounts():
    # $20/$40 stud, $5 ante, $10 bring-in: the deuce had only his ante, so seat 5 on his left brings it in
    # for $10 or completes to $20 (TDA 2024 RP-10)
    report = _rule({"game": {"variant": "stud", "structure": "fixed-limit", "setting": "tournament", "ante": 5,
                             "bring_in": 10, "bet_sizes": [20, 40]},
                    "button": 1, "players": {1: 900, 2: 900, 4: 5, 5: 900}, "street": "third",
                    "upcards": {1: "Qs", 2: "9d", 4: "2h", 5: "7c"}, "disputed": {"seat": 5}})
    (r,) = [r for r in report.rulings if r.rule == "bring-in.low-card-all-in-for-the-ante"]
    assert r.effects["bring_in_seat"] == 5
    assert "seat 5 must bring it in for 10 or complete to 20" in r.sentence, r.sentence


def test_the_missed_blinds_posted_next_deal_are_in_the_ruling():
    report = _rule({"game": {"structure": "no-limit", "blinds": [2, 5]}, "button": 1,
                    "players": {1: 500, 2: 500, 3: 500, 4: 500},
                    "procedure": {"posting": {"seat": 4, "player": "returning", "missed": "both",
                                              "dealt_in_unposted": True, "looked": True, "acted": True}}})
    (r,) = report.rulings
    assert (r.effects["post_live"], r.effects["post_dead"], r.effects["post_total"]) == (500, 200, 700)
    assert "On the next deal he posts $7: $5 live and $2 dead." in r.sentence


def test_a_capped_round_names_what_each_seat_after_the_player_owes():
    # $20/$40 hold'em, flop: seat 1 bets $20, seat 2 raises to $40, seat 3 to $60, seat 4 caps it at $80 (RRP-BR-3);
    # seat 1 owes $60, and after him seat 2 owes $40 and seat 3 $20
    report = _rule({"game": {"structure": "fixed-limit", "blinds": [10, 20], "bet_sizes": [20, 40]}, "button": 4,
                    "players": {1: 900, 2: 900, 3: 900, 4: 900}, "street": "flop", "pot": 80,
                    "actions": [{"seat": 1, "action": "bet", "to": 20}, {"seat": 2, "action": "raise", "to": 40},
                                {"seat": 3, "action": "raise", "to": 60}, {"seat": 4, "action": "raise", "to": 80}],
                    "disputed": {"seat": 1}})
    (r,) = [r for r in report.rulings if r.ruling == "capped"]
    assert r.effects["to_call"] == 6000
    assert "After him, seat 2 owes $40 (to $80); seat 3 owes $20 (to $80)." in r.sentence, r.sentence


def test_a_seat_short_of_the_call_owes_his_chips_and_is_then_all_in():
    report = _rule({"game": {"structure": "fixed-limit", "blinds": [10, 20], "bet_sizes": [20, 40]}, "button": 4,
                    "players": {1: 900, 2: 50, 3: 900, 4: 900}, "street": "flop", "pot": 80,
                    "actions": [{"seat": 1, "action": "bet", "to": 20}, {"seat": 2, "action": "call"},
                                {"seat": 3, "action": "raise", "to": 40}, {"seat": 4, "action": "raise", "to": 60},
                                {"seat": 1, "action": "raise", "to": 80}],
                    "disputed": {"seat": 2}})
    # seat 2 has $30 left behind his $20: short of the $60 he owes; seat 3 owes $40 after him
    assert report.facts["others_to_call"] == "seat 3 owes $40 (to $80); seat 4 owes $20 (to $80)"
    report = _rule({"game": {"structure": "fixed-limit", "blinds": [10, 20], "bet_sizes": [20, 40]}, "button": 4,
                    "players": {1: 900, 2: 50, 3: 900, 4: 900}, "street": "flop", "pot": 80,
                    "actions": [{"seat": 1, "action": "bet", "to": 20}, {"seat": 2, "action": "call"},
                                {"seat": 3, "action": "raise", "to": 40}, {"seat": 4, "action": "raise", "to": 60},
                                {"seat": 1, "action": "raise", "to": 80}],
                    "disputed": {"seat": 4}})
    assert report.facts["others_to_call"] == "seat 2 owes $30 (to $50) and is then all-in; seat 3 owes $40 (to $80)"


# A hand told to its end, no act in dispute: $5/$10 no-limit, seat 2 (small blind) all-in for $100 preflop and
# called by seats 4 and 6; seat 4 bets $200 on the turn and seat 6 calls; seat 4 bets $500 on the river, seat 6 folds
PAYOUT = {"game": {"structure": "no-limit", "blinds": [5, 10]}, "button": 6,
          "players": {2: 100, 3: 400, 4: 2000, 6: 1500},
          "streets": [{"street": "preflop", "actions": [{"seat": 4, "action": "call"}, {"seat": 6, "action": "call"},
                                                        {"seat": 2, "action": "raise", "to": 100},
                                                        {"seat": 3, "action": "fold"},
                                                        {"seat": 4, "action": "call"}, {"seat": 6, "action": "call"}]},
                      {"street": "flop", "board": "Kc 8d 3s", "actions": [{"seat": 4, "action": "check"},
                                                                        {"seat": 6, "action": "check"}]},
                      {"street": "turn", "board": "2h", "actions": [{"seat": 4, "action": "bet", "to": 200},
                                                                  {"seat": 6, "action": "call"}]},
                      {"street": "river", "board": "9c", "actions": [{"seat": 4, "action": "bet", "to": 500},
                                                                   {"seat": 6, "action": "fold"}]}],
          "pots_won": [{"pot": 0, "winners": [2]}, {"pot": 1, "winners": [4]}]}


def test_a_hand_told_to_its_end_is_paid_pot_by_pot_with_the_uncalled_bet_back():
    # main pot: 3 x $100 + the big blind's $10 = $310 (seats 2, 4); side pot: $200 + $200 = $400 (seat 4, as seat 6
    # folded); seat 4's $500 river bet was never called and goes back to him (WIKI-SIDEPOT-1, OLR-TS-1)
    report = _rule(PAYOUT)
    pots = next(r for r in report.rulings if r.decides == "pots")
    assert (pots.effects["main_pot"], pots.effects["side_pots_total"]) == (31000, 40000)
    assert "main pot $310 (seats 2, 4); side pot 1 $400 (seat 4)" in pots.sentence
    assert "seat 2 takes $310, seat 4 takes $400" in pots.sentence
    back = next(r for r in report.rulings if r.decides == "uncalled")
    assert back.effects["returned"] == 50000


def test_a_hand_told_to_its_end_with_no_one_all_in_has_one_pot_and_no_side_pot_ruling():
    data = dict(PAYOUT, players={2: 3000, 3: 400, 4: 2000, 6: 1500}, pots_won=[{"pot": 0, "winners": [4]}])
    data["streets"] = PAYOUT["streets"][:1] + [
        {"street": "flop", "board": "Kc 8d 3s", "actions": [{"seat": 2, "action": "check"}, {"seat": 4, "action": "check"},
                                                         {"seat": 6, "action": "check"}]},
        {"street": "turn", "board": "2h", "actions": [{"seat": 2, "action": "check"}, {"seat": 4, "action": "bet", "to": 200},
                                                     {"seat": 6, "action": "call"}, {"seat": 2, "action": "fold"}]},
        PAYOUT["streets"][3]]
    report = _rule(data)
    assert report.facts["side_pot_count"] == 0 and report.facts["main_pot"] == 71000   # 3 x 100 + 10 + 2 x 200
    assert not [r for r in report.rulings if r.decides == "pots"]
    assert next(r for r in report.rulings if r.decides == "uncalled").effects["returned"] == 50000


def _conditional(structure, said, bet_to, stacks=(58000, 90000), pot=30000, sizes=None):
    game = {"structure": structure, "setting": "tournament", "blinds": [2000, 4000]}
    if sizes:
        game["bet_sizes"] = sizes
    report = _rule({"game": game, "button": 7, "players": {3: stacks[0], 7: stacks[1]}, "street": "river",
                    "pot": pot, "actions": [{"seat": 3, "action": "check"}],
                    "disputed": {"seat": 3, "said": said}, "after": [{"seat": 7, "action": "bet", "to": bet_to}]})
    f = report.facts
    return f.get("conditional_binding_to"), f.get("conditional_binding_to_call")


def test_a_conditional_statement_held_binding_in_each_structure():
    """TDA 2024 rule 59: what holding the player to "if you bet, I ..." would mean, where the bet came."""
    assert _conditional("no-limit", "if you bet, I'm all in", 20000) == (5800000, 3800000)
    assert _conditional("no-limit", "if you bet, I raise", 20000) == (4000000, 2000000)   # the smallest raise
    assert _conditional("no-limit", "if you bet I raise to 50,000", 20000) == (5000000, 3000000)
    assert _conditional("no-limit", "if you bet, I call", 20000) == (2000000, 0)
    # a raise beyond his chips is his all-in; the bettor owes no more than he has behind
    assert _conditional("no-limit", "if you bet, I'm all in", 20000, stacks=(58000, 30000)) == (5800000, 1000000)
    # pot-limit: the pot 30,000 + bet 20,000 + call 20,000 = 70,000 on top, so all-in 58,000 is within it
    assert _conditional("pot-limit", "if you bet, I'm all in", 20000) == (5800000, 3800000)
    # limit 4,000/8,000 on the river: a raise is one big bet more
    assert _conditional("fixed-limit", "if you bet, I raise", 8000, sizes=[4000, 8000]) == (1600000, 800000)


def test_a_conditional_statement_whose_condition_did_not_happen_binds_no_amount():
    game = {"structure": "no-limit", "setting": "tournament", "blinds": [2000, 4000]}
    report = _rule({"game": game, "button": 7, "players": {3: 58000, 7: 90000}, "street": "river", "pot": 30000,
                    "actions": [{"seat": 3, "action": "check"}], "disputed": {"seat": 3, "said": "if you raise, I call"},
                    "after": [{"seat": 7, "action": "bet", "to": 20000}]})
    assert report.facts["conditional_met"] is False and "conditional_binding_to" not in report.facts
    assert any(r.ruling == "conditional-may-bind" and r.discretion for r in report.rulings)


def test_with_no_winners_named_the_tabled_hands_decide_each_pot():
    # the same hand with the hands tabled instead of the winners named: seat 2's Ks Kd (three kings) beats seat
    # 4's Ac Qc in the main pot; seat 6 folded, so seat 4 is alone in the side pot and takes it unshown
    data = {k: v for k, v in PAYOUT.items() if k != "pots_won"}
    data["showdown"] = [{"seat": 4, "tables": "Ac Qc"}, {"seat": 2, "tables": "Ks Kd"}]
    report = _rule(data)
    pots = next(r for r in report.rulings if r.decides == "pots")
    assert "seat 2 takes $310, seat 4 takes $400" in pots.sentence, pots.sentence
    data["showdown"] = [{"seat": 4, "tables": "Ac Qc"}]   # seat 2's hand not told: who wins the main pot is unknown
    report = _rule(data)
    assert "pot_takes_listed" not in report.facts
