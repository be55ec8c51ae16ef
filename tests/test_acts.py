"""The arithmetic facts of the disputed act (rulings/facts/acts.py), checked on the sources' numbers."""
from __future__ import annotations

from rulings.ruling import books
from rulings.facts.acts import percent
from rulings.incident import incident_from_data
from rulings.facts.situation import build

NL = {"structure": "no-limit", "setting": "tournament", "blinds": [250, 500]}


def facts(**incident) -> dict:
    inc = incident_from_data(incident)
    book, _ = books.load(None, compile=False)
    return build(inc, book.param_values(inc.hand.game.setting)).facts


def test_tda_2024_45_ex2_raise_percent_of_minimum_increment():
    f = facts(game=NL, button=4, players={1: 20000, 2: 20000, 3: 20000, 4: 20000}, street="preflop",
              actions=[{"seat": 3, "action": "raise", "to": 1100}],
              disputed={"seat": 4, "chips": [1000, 100, 100, 100, 100, 100]})
    assert f["chips_raise_percent"] == 66 and f["chips_over_call"] == 40000
    assert f["chip_largest"] == 100000 and f["chip_smallest"] == 10000


def test_tda_2024_43a_fifty_percent_is_whole_and_rounded_down():
    assert percent(300, 600) == 50 and percent(299, 600) == 49 and percent(200, 600) == 33


def test_rrp_nl_10_call_percent():
    f = facts(game={"structure": "no-limit", "blinds": [5, 10]}, button=3, players={1: 3000, 2: 3000, 3: 3000},
              street="river", pot=600, actions=[{"seat": 1, "action": "bet", "to": 400}],
              disputed={"seat": 2, "said": "call", "chips": [100], "misunderstood": True})
    assert f["call_percent"] == 25 and f["chips_short"] == 30000 and f["words_chips_differ"] is True


def test_tda_2024_57_bare_number_reading():
    # NLHE 200-400: "I bet five" is 500 into a pot under 5,000, and 5,000 from 5,000 up (rulings/facts/said.py)
    game = {"structure": "no-limit", "setting": "tournament", "blinds": [200, 400]}
    for pot, reading in ((4000, 50000), (4999, 50000), (5000, 500000)):
        f = facts(game=game, button=3, players={1: 50000, 2: 50000, 3: 50000}, street="flop", pot=pot,
                  disputed={"seat": 1, "said": "I bet five"})
        assert (f["said_bare_reading"], f["said_amount_to"]) == (reading, reading)


def test_tda_2024_46_prior_chips_judged_together():
    f = facts(game={"structure": "no-limit", "setting": "tournament", "blinds": [100, 200]}, button=3,
              players={1: 20000, 2: 20000, 3: 20000}, street="preflop",
              actions=[{"seat": 3, "action": "raise", "to": 700}, {"seat": 1, "action": "fold"}],
              disputed={"seat": 2, "chips": [100], "prior_chips": [1000]})
    assert f["prior_covers_call"] is True and f["combined_to"] == 110000
    assert f["combined_every_chip_needed"] is False and f["combined_raise_percent"] == 80


def test_tda_2024_51bc_opening_bet_and_players_in_hand():
    f = facts(game=NL, button=4, players={1: 50000, 2: 50000, 3: 50000, 4: 50000}, street="flop", pot=4000,
              actions=[{"seat": 1, "action": "bet", "to": 2000}, {"seat": 2, "action": "raise", "to": 8000}],
              disputed={"seat": 3, "chips": [1000, 1000]})
    assert f["facing_opening_bet"] is False and f["players_in_hand"] == 4 and f["opening_bet"] == 200000


def test_tda_2024_53_skipped_seat_wager_changes_the_action():
    base = dict(game=NL, button=3, players={1: 20000, 2: 20000, 3: 20000}, street="flop", pot=1200,
                disputed={"seat": 3, "said": "bet five hundred"})
    assert facts(**base, after=[{"seat": 1, "action": "check"}])["out_of_turn_changed"] is False
    assert facts(**base, after=[{"seat": 1, "action": "bet", "to": 300}])["out_of_turn_changed"] is True


def test_tda_2024_49_count_answer_against_the_real_bet():
    f = facts(game=NL, button=3, players={1: 50000, 2: 50000, 3: 50000}, street="river", pot=6000,
              actions=[{"seat": 1, "action": "bet", "to": 5500}],
              disputed={"seat": 2, "said": "call", "chips": [1000, 1000, 1000, 500],
                        "count_asked": True, "count_answer": 3500})
    assert f["count_wrong"] is True and f["chips_short"] == 200000


def test_tda_2024_57_bare_number_with_no_reading_the_chips_can_make():
    # $3/$6 with a $3 unit: "five" read as 50, 500, ... is never a multiple of $3. Stacks not given, it has no
    # reading and stands as said (it once read a missing stack as a reading and crashed); with a $90 stack every
    # reading is above it, and the reading is all of it.
    game = {"structure": "no-limit", "setting": "cash", "blinds": [3, 6], "betting_unit": 3}
    base = dict(game=game, button=3, street="flop", pot=18, actions=[{"seat": 1, "action": "bet", "to": 6}],
                disputed={"seat": 2, "said": "raise five"})
    f = facts(**base, players=[1, 2, 3])
    assert "said_bare_reading" not in f and f["said_amount_to"] == 500
    f = facts(**base, players={1: 90, 2: 90, 3: 90})
    assert (f["said_bare_reading"], f["said_amount_to"]) == (9000, 9000)
