"""Tournament procedure, penalties and etiquette (issue #47; inventory §24-§25): the sections at_seat, moved,
tables, chip_race, chips, conduct and penalty read and refused by field, the numbers worked out from them
(rulings/facts/tournament.py) with the inventory's §28 arithmetic, and the rulings of
rulebooks/standard/tournament.yaml and penalties.yaml, each house convention under its values."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rulings.facts.procedure import procedure_facts
from rulings.incident import incident_from_data
from rulings.problems import ProblemsError
from rulings.rulebook.catalogue import citations
from rulings.ruling.decide import rule_on

ROOT = Path(__file__).resolve().parents[1]
NINE = [1, 2, 3, 4, 5, 6, 7, 8, 9]
TOURNEY = {"variant": "holdem", "setting": "tournament"}


def data(section: str, d: dict, game: dict | None = None, button: int | None = 9, players=NINE,
         params: dict | None = None, **more: dict) -> dict:
    out = {"game": {**TOURNEY, **(game or {})}, "players": players, "procedure": {section: d, **more},
           "params": params or {}}
    if button is not None:
        out["button"] = button
    return out


def facts(d: dict, params: dict | None = None) -> dict:
    """The facts as a ruling builds them: under the book's parameter values for the game's setting (the
    incident's own settings and ``params`` over them)."""
    from rulings.ruling import books
    incident = incident_from_data(d)
    book, _ = books.load(None, compile=False)
    values = book.param_values(incident.hand.game.setting, {**incident.params, **(params or {})})
    return procedure_facts(incident, dict(values))


def ruled(standard, d: dict, matter: str):
    book, engine = standard
    report = rule_on(incident_from_data(d), book, engine)
    return next((r for r in report.rulings if r.decides == matter), None)


def refused(d: dict) -> list[tuple[str, str]]:
    with pytest.raises(ProblemsError) as err:
        incident_from_data(d)
    return sorted((p.code, ".".join(map(str, p.path))) for p in err.value.problems)


# --- reading ------------------------------------------------------------------------------------------------

def test_the_sections_need_no_betting_and_refuse_by_field():
    inc = incident_from_data(data("penalty", {"seat": 4, "given": "missed_round", "rounds": 1}, button=None))
    assert inc.no_betting
    assert refused(data("penalty", {"seat": 4, "given": "two_rounds", "colour": 3})) == [
        ("I101", "procedure.penalty.colour"), ("I104", "procedure.penalty.given")]
    assert refused(data("conduct", {"act": "abuse"})) == [("I102", "procedure.conduct")]   # which seat?
    assert refused(data("chip_race", {"removed": 25, "smallest_left": 100, "cards": {12: "As"}})) == [
        ("I105", "procedure.chip_race.cards.12")]


# --- penalties: §28's missed-round arithmetic ---------------------------------------------------------------

@pytest.mark.parametrize("players,rounds,hands", [(9, 1, 9), (7, 2, 14), (10, 3, 30)])
def test_a_round_is_the_players_at_the_table(players, rounds, hands):
    seats = list(range(1, players + 1))
    f = facts(data("penalty", {"seat": 2, "given": "missed_round", "rounds": rounds}, button=players,
                   players=seats))
    assert (f["penalty_round_size"], f["penalty_hands_missed"], f["penalty_back_hand"]) == (players, hands, hands + 1)


def test_the_count_is_fixed_when_the_penalty_is_given():
    """Two players bust while he is away: he still misses the 9 hands counted at nine players."""
    f = facts(data("penalty", {"seat": 2, "given": "missed_round", "rounds": 1, "at_table": 9}, players=NINE[:7],
                   button=7))
    assert f["penalty_hands_missed"] == 9


def test_forum_319_ten_handed_button_penalised():
    """Penalised on the button in hand H: cutoff in H+1, big blind in H+8, small blind H+9, button H+10, back H+11."""
    ten = list(range(1, 11))
    f = facts(data("penalty", {"seat": 10, "given": "missed_round", "rounds": 1}, button=10, players=ten))
    assert (f["penalty_bb_hand"], f["penalty_sb_hand"], f["penalty_button_hand"], f["penalty_back_hand"]) == \
        (8, 9, 10, 11)
    nine = facts(data("penalty", {"seat": 9, "given": "missed_round", "rounds": 1}))
    assert (nine["penalty_bb_hand"], nine["penalty_sb_hand"], nine["penalty_button_hand"], nine["penalty_back_hand"]) \
        == (7, 8, 9, 10)


@pytest.mark.parametrize("game,forfeit", [
    ({"blinds": [1000, 2000], "big_blind_ante": 2000}, 500000),   # 1,000 + 2,000 + 2,000
    ({"blinds": [1000, 2000], "ante": 300}, 570000),              # 9 x 300 + 1,000 + 2,000
])
def test_what_one_round_costs_at_the_level(standard, game, forfeit):
    d = data("penalty", {"seat": 4, "given": "missed_round", "rounds": 1}, game={"structure": "no-limit", **game})
    assert facts(d)["penalty_forfeit"] == forfeit
    r = ruled(standard, d, "penalty")
    assert r.ruling == "missed-round" and "misses 9 hands" in r.sentence
    cost = ruled(standard, d, "penalty-cost")
    assert cost.ruling == "seat-posts-while-away" and f"{forfeit // 100:,} in all" in cost.sentence


def test_a_misdeal_while_away_is_one_penalty_hand(standard):
    """Two rounds at seven, 1,500-3,000 with a 500 ante each, one misdeal: 14 hands, 15 deals, 16,000."""
    d = data("penalty", {"seat": 3, "given": "missed_round", "rounds": 2, "misdeals": 1},
             game={"blinds": [1500, 3000], "ante": 500}, button=7, players=NINE[:7])
    f = facts(d)
    assert (f["penalty_hands_missed"], f["penalty_deals"], f["penalty_forfeit"]) == (14, 15, 1600000)
    assert "15 deals" in ruled(standard, d, "penalty").sentence


def test_the_house_round_limit(standard):
    """TDA 2013 and WSOP cap one penalty at 4 rounds: 36 hands at nine players; TDA 2024 has no cap."""
    d = data("penalty", {"seat": 4, "given": "missed_round", "rounds": 5}, params={"penalty.max_rounds": 4})
    assert ruled(standard, d, "penalty").ruling == "rounds-capped"
    assert "36 hands" in ruled(standard, d, "penalty").sentence
    assert ruled(standard, data("penalty", {"seat": 4, "given": "missed_round", "rounds": 5}), "penalty").ruling == \
        "missed-round"


@pytest.mark.parametrize("params,ruling,discretion", [
    ({}, "penalty-may-be-given", True),                                       # TDA 68: may
    ({"penalty.exposure_with_action_pending": "will"}, "penalty-due", True),  # WSOP T117: will (its size open)
    ({"disclosure.allowed_two_left_in_event": True}, "no-penalty", False),    # RRP r.21: two left
])
def test_exposure_with_action_pending(standard, params, ruling, discretion):
    d = data("conduct", {"seat": 2, "act": "exposed_cards", "in_hand": True, "action_pending": True,
                         "players_left_in_event": 2}, params=params)
    r = ruled(standard, d, "conduct")
    assert r.ruling == ruling and bool(r.discretion) == discretion
    assert ruled(standard, d, "exposed-hand").ruling == "hand-live"


def test_talk_when_nobody_has_a_decision(standard):
    d = data("conduct", {"seat": 5, "act": "talked_about_hand", "in_hand": True, "others_to_decide": False,
                         "players_left_in_event": 40})
    assert ruled(standard, d, "conduct").ruling == "penalty-may-be-given"      # TDA 67: no exception
    d["params"] = {"disclosure.allowed_no_decision_pending": True}
    assert ruled(standard, d, "conduct").ruling == "no-penalty"                # WSOP T116


def test_an_unknown_fact_is_asked_only_when_it_changes_the_ruling(standard):
    book, engine = standard
    report = rule_on(incident_from_data(data("conduct", {"seat": 2, "act": "exposed_cards"})), book, engine)
    asked = [q["field"] for q in report.questions]
    assert "procedure.conduct.action_pending" in asked


# --- the chip race: §28 -------------------------------------------------------------------------------------

def derived(standard, d: dict, matter: str) -> dict:
    """The numbers the ruling on ``matter`` sets (its effects), by fact."""
    return dict(ruled(standard, d, matter).effects)


@pytest.mark.parametrize("button,seat,forfeit,bb_hand", [
    (9, 5, 500000, 3),    # §28: one round, 1,000-2,000 with a 2,000 big blind ante: 1,000 + 2,000 + 2,000
    (4, 7, 600000, 1),    # one missed hand, 1,500-3,000/3,000: big blind the next hand, 3,000 + 3,000
    (7, 7, 0, 7),         # the same on the button: the cutoff next hand, nothing posted (big blind in hand 7)
])
def test_what_the_seat_posts_hand_by_hand(standard, button, seat, forfeit, bb_hand):
    game = {"blinds": [1000, 2000], "big_blind_ante": 2000} if button == 9 else \
        {"blinds": [1500, 3000], "big_blind_ante": 3000}
    given = {"given": "missed_round", "rounds": 1} if button == 9 else {"given": "missed_hand", "hands": 1}
    d = data("penalty", {"seat": seat, **given}, game={"structure": "no-limit", **game}, button=button)
    f = facts(d)
    assert (f["penalty_forfeit"], f["penalty_bb_hand"]) == (forfeit, bb_hand)
    assert derived(standard, d, "penalty-cost") == {"forfeited": forfeit}


def test_a_new_level_and_a_bust_while_he_is_away(standard):
    """Nine-handed, button 9, seat 5 penalised one round in hand 0 at 1,000-2,000/2,000; 1,500-3,000/3,000 from
    hand 4; seat 8 out in hand 2: 9 hands all the same, big blind in hand 3 at the old level (4,000), small blind
    in hand 4 at the new (1,500): 5,500, back on hand 10."""
    d = data("penalty", {"seat": 5, "given": "missed_round", "rounds": 1, "busted": {8: 2},
                         "levels": [{"from_hand": 4, "small_blind": 1500, "big_blind": 3000, "big_blind_ante": 3000}]},
             game={"structure": "no-limit", "blinds": [1000, 2000], "big_blind_ante": 2000})
    f = facts(d)
    assert (f["penalty_hands_missed"], f["penalty_back_hand"], f["penalty_bb_hand"], f["penalty_sb_hand"],
            f["penalty_forfeit"]) == (9, 10, 3, 4, 550000)
    assert derived(standard, d, "penalty") == {"hands_missed": 9, "back_on_hand": 10}
    assert "hand 3: big blind 2,000 + big blind ante 2,000; hand 4: small blind 1,500: 5,500 in all" in \
        ruled(standard, d, "penalty-cost").sentence


def test_a_stud_seat_antes_and_brings_it_in(standard):
    """Stud, seven players, 200 ante, bring-in 300: one round is 7 hands, 7 x 200 + 2 bring-ins x 300 = 2,000."""
    d = data("penalty", {"seat": 4, "given": "missed_round", "rounds": 1, "bring_in_hands": 2},
             game={"variant": "stud", "ante": 200, "bring_in": 300}, button=None, players=NINE[:7])
    assert facts(d)["penalty_forfeit"] == 200000
    assert derived(standard, d, "penalty-cost") == {"forfeited": 200000}


def test_a_disqualified_stack_leaves_the_event(standard):
    stack = [{"denomination": 1000, "chips": 40}, {"denomination": 5000, "chips": 11}, {"denomination": 100, "chips": 6}]
    d = data("penalty", {"seat": 7, "given": "disqualification"}, chips={"seat": 7, "stack": stack})
    assert derived(standard, d, "penalty") == {"removed_from_play": 9560000}


RACE = {"removed": 25, "smallest_left": 100, "chips": {1: 3, 4: 2, 6: 1, 8: 3}, "nothing_else": [6]}
CARDS = {1: "Qd2c3c", 4: "4d5d", 6: "6d", 8: "KsQh7c"}   # seat 8 K♠ and Q♥ the two highest, seat 1 Q♦ third


def test_the_pool_and_the_cards():
    f = facts(data("chip_race", RACE))
    assert (f["race_odd_chips"], f["race_odd_value"], f["race_whole"], f["race_remainder"]) == (9, 22500, 2, 2500)
    assert f["race_chips_cap"] == 2 and not f["race_half_or_more"]
    assert f["race_card_places"] == "seat 1: cards 1-3; seat 4: cards 4-5; seat 6: card 6; seat 8: cards 7-9"


@pytest.mark.parametrize("odd,raced", [(2, 3), (1, 2)])   # 250: a remainder of 50 rounds up; 225: 25 does not
def test_half_a_chip_rounds_up(odd, raced):
    chips = {1: 3, 4: 2, 6: odd, 8: 3}
    f = facts(data("chip_race", {"removed": 25, "smallest_left": 100, "chips": chips}))
    assert f["race_chips_cap"] == raced
    off = facts(data("chip_race", {"removed": 25, "smallest_left": 100, "chips": chips}),
                {"chip_race.round_half_up": False})
    assert off["race_chips_cap"] == 2


def test_one_chip_each_and_nobody_raced_out(standard):
    """TDA: seat 8 gets one 100, the second goes to seat 1 (Q♦); seat 6 gets a 100 on top: 300 after, 225 before."""
    d = data("chip_race", {**RACE, "cards": CARDS})
    f = facts(d)
    assert f["race_awards"] == "seat 1: 100 (1 chip), seat 4: 0, seat 6: 100 (1 chip), seat 8: 100 (1 chip)"
    assert f["race_raced_out"] == "seat 6" and f["race_chips_added"] == 1
    assert ruled(standard, d, "raced-out").ruling == "given-one-chip"


def test_robert_s_rules_race(standard):
    """No cap, the raced-out player's chip first out of the two: seat 6 one, seat 8's K♠ the other (200 in all)."""
    params = {"chip_race.max_chips_per_player": 0, "chip_race.raced_out_award": "new_denomination_first"}
    d = data("chip_race", {**RACE, "cards": CARDS}, params=params)
    f = facts(d, params)
    assert f["race_awards"] == "seat 1: 0, seat 4: 0, seat 6: 100 (1 chip), seat 8: 100 (1 chip)"
    assert f["race_chips_added"] == 0
    assert ruled(standard, d, "raced-out").ruling == "chip-first"


def test_each_stack_after_the_race_when_the_stacks_are_told():
    """The same race with each whole stack told: seat 6's 25 is his whole stack (no nothing_else needed), so he
    keeps one 100; seat 4 (2,050, two odd 25s, no win) ends on 2,000; seat 8 (5,075, K♠) on 5,100."""
    stacks = {1: 3075, 4: 2050, 6: 25, 8: 5075}
    race = {k: v for k, v in RACE.items() if k != "nothing_else"}
    f = facts(data("chip_race", {**race, "cards": CARDS, "stacks": stacks}))
    assert f["race_raced_out"] == "seat 6"
    assert f["race_stacks_after"] == "seat 1: 3,100, seat 4: 2,000, seat 6: 100, seat 8: 5,100"
    assert facts(data("chip_race", {**RACE, "cards": CARDS}))["race_stacks_after"] == ""


def test_a_full_table_named_gives_the_player_and_the_counts_after(standard):
    """Tables of 9, 9 and 6, table 1 named as giving the player: table 3 is 3 short (it stops), and after the
    move the tables have 8, 9 and 7."""
    d = data("tables", {"players_at": {1: 9, 2: 9, 3: 6}, "table": 1})
    f = facts(d)
    assert (f["tables_short_by"], f["tables_source"]) == (3, 1)
    assert f["tables_counts_after"] == "table 1: 8, table 2: 9, table 3: 7"
    assert ruled(standard, d, "balancing-halt").ruling == "table-stops"


@pytest.mark.parametrize("after,ruling", [(0, "hand-live"), (10, "hand-live"), (17, "hand-live"), (18, "hand-dead")])
def test_the_card_he_came_back_after_says_when(standard, after, ruling):
    """Nine-handed hold'em deals 18 cards: back after card 17 is in time, after card 18 is too late."""
    d = data("at_seat", {"seat": 6, "after_card": after})
    assert ruled(standard, d, "at-seat").ruling == ruling


@pytest.mark.parametrize("found,changed,dropped", [(3, 0, 7500), (5, 1, 2500)])
def test_old_chips_after_the_race(standard, found, changed, dropped):
    d = data("chip_race", {"removed": 25, "smallest_left": 100, "found_after": {3: found}})
    f = facts(d)
    assert (f["race_found_changed"], f["race_found_dropped"]) == (changed, dropped)
    assert ruled(standard, d, "leftover-chips").ruling == "changed-at-face-value"


# --- at your seat, seating, tables ---------------------------------------------------------------------------

@pytest.mark.parametrize("reached,params,ruling", [
    ("during_deal", {}, "hand-live"),                                       # TDA 30: by card 18
    ("after_last_card", {}, "hand-dead"),
    ("during_deal", {"at_your_seat.deadline": "first_card"}, "hand-dead"),  # RRP (verify): the first card
])
def test_at_your_seat(standard, reached, params, ruling):
    d = data("at_seat", {"seat": 4, "reached": reached}, params=params)
    assert facts(d)["at_seat_last_card"] == 18
    assert ruled(standard, d, "at-seat").ruling == ruling


def test_stud_absent_player_forfeits_ante_and_bring_in(standard):
    d = data("at_seat", {"seat": 6, "reached": "after_last_card", "bring_in_card": True},
             game={"variant": "stud", "ante": 100, "bring_in": 200}, button=None, players=NINE[:7])
    f = facts(d)
    assert (f["at_seat_last_card"], f["at_seat_forfeit"], f["at_seat_left_seat"]) == (21, 30000, 7)


@pytest.mark.parametrize("seat,players,ruling", [
    (1, [2, 3, 4, 5, 6, 7, 8, 9], "waits-for-button"),    # button 9, small blind 2: seat 1 lies between
    (2, [1, 3, 4, 5, 6, 7, 8, 9], "dealt-in-now"),        # small blind 1: seat 2 is the big blind, in at once
])
def test_a_player_from_a_broken_table(standard, seat, players, ruling):
    assert ruled(standard, data("moved", {"seat": seat, "reason": "broken_table"}, players=players),
                 "new-seat").ruling == ruling


def test_a_table_breaks_into_the_dead_button(standard):
    """A player from a broken table given the empty seat 5 between the blinds (4 and 6, button 3): dealt in at
    once, posting nothing; the big blind reaches him after the other eight, in hand 8. Given the small blind's
    seat instead (1,000-2,000/2,000), he posts the 1,000 small blind."""
    between = data("moved", {"seat": 5, "reason": "broken_table", "small_blind": 4, "big_blind": 6}, button=3,
                   players=[1, 2, 3, 4, 6, 7, 8, 9])
    assert ruled(standard, between, "new-seat").ruling == "dealt-in-now"
    assert derived(standard, between, "new-seat-posts") == {"posts": 0, "first_big_blind_hand": 8, "button_seat": 3,
                                                            "sb_seat": 4, "bb_seat": 6}
    small = data("moved", {"seat": 5, "reason": "broken_table", "small_blind": 5}, button=4,
                 players=[1, 2, 3, 4, 6, 7, 8, 9], game={"structure": "no-limit", "blinds": [1000, 2000],
                                                         "big_blind_ante": 2000})
    assert derived(standard, small, "new-seat-posts") == {"posts": 100000, "first_big_blind_hand": 8, "button_seat": 4,
                                                          "sb_seat": 5, "bb_seat": 6}


@pytest.mark.parametrize("source,order,table", [("breaking_order", [11, 4, 5, 3, 10], 11),
                                                ("numerical_order", None, 10)])
def test_the_posted_procedure_names_the_table(standard, source, order, table):
    counts = {1: 8, 2: 8, 3: 9, 4: 8, 5: 9, 6: 8, 7: 8, 8: 6, 9: 8, 10: 9, 11: 9, 12: 8}
    d = data("tables", {"players_at": counts, "table": 8, "source": source,
                        **({"breaking_order": order} if order else {})})
    assert derived(standard, d, "balancing-source") == {"from_table": table, "players_after": 7}


def test_each_player_s_chips_after_the_race():
    """§28's race under the TDA: seat 8 one 100 in the race, seat 1 one, seat 6 one given (raced out)."""
    f = facts(data("chip_race", {**RACE, "cards": CARDS}))
    assert f["race_after"] == "seat 1: 100 (1 chip), seat 4: 0, seat 6: 100 (1 chip), seat 8: 100 (1 chip)"
    direct = facts(data("chip_race", {"removed": 100, "smallest_left": 500, "chips": {1: 2, 3: 17, 6: 9, 8: 8},
                                      "cards": {1: "Kd4d", 3: "Kh6c", 6: "Ks2d8h5s", 8: "QdJs9c"}}))
    assert direct["race_after"] == "seat 1: 0, seat 3: 2,000 (4 chips), seat 6: 1,000 (2 chips), seat 8: 500 (1 chip)"


@pytest.mark.parametrize("counts,ruling", [({1: 5, 2: 8}, "table-stops"), ({1: 6, 2: 8}, "table-plays-on")])
def test_the_short_table_addendum(standard, counts, ruling):
    assert ruled(standard, data("tables", {"players_at": counts, "table": 1}), "balancing-halt").ruling == ruling


def test_the_next_big_blind_moves_to_the_worst_seat(standard):
    d = data("tables", {"big_blind": 6, "open_seats": [2, 8], "big_blind_there": 7}, button=4)
    f = facts(d)
    assert (f["tables_next_big_blind"], f["tables_worst_seat"]) == (7, 8)


@pytest.mark.parametrize("left,params,ruling", [
    (10, {}, "final-table-now"), (11, {}, "final-table-not-yet"),
    (9, {"final_table.forms_at": "table_size"}, "final-table-now")])
def test_the_final_table(standard, left, params, ruling):
    d = data("tables", {"handed": 9, "players_left": left}, params=params)
    assert ruled(standard, d, "final-table").ruling == ruling


def test_the_seat_draw_goes_by_suit():
    f = facts(data("tables", {"draw_cards": {1: "Qh", 3: "Ad", 6: "Qs", 8: "4c"}, "absent": [8]},
                   players=[1, 3, 6, 8]))
    assert f["tables_draw_order"] == "seat 3 (Ad), seat 6 (Qs), seat 1 (Qh), seat 8 (4c)"
    assert f["tables_draw_ties"] == 1 and f["tables_absent"] == "seat 8"


def test_hand_for_hand_bubble_and_clock(standard):
    """TDA RP-8-A: 50 paid, 52 left, 3 out on the announcement hand: 49 left, the 3 share 50th place. 10 hands at
    2 minutes take 20 minutes off (TDA's cap of 3 would allow 30)."""
    d = data("hand_for_hand", {"players_left": 52, "paid": 50, "busted": 3, "clock_seconds": 1800, "hands": 10})
    f = facts(d)
    assert (f["hfh_left_after"], f["hfh_places_shared"], f["hfh_share_places"]) == (49, 1, "50th")
    assert (f["hfh_minutes_off"], f["hfh_clock_after"]) == (20, "10:00")
    assert facts(d, {"hand_for_hand.minutes_per_hand": 3})["hfh_minutes_off"] == 30
    assert "1/3 each" in ruled(standard, d, "hand-for-hand").sentence
    one = data("hand_for_hand", {"players_left": 52, "paid": 50, "busted": 1})
    assert facts(one)["hfh_places_shared"] == 0 and ruled(standard, one, "hand-for-hand") is None


# --- coverage ------------------------------------------------------------------------------------------------

def test_every_key_of_sections_24_and_25_is_cited_or_explained():
    """docs/tournament-coverage.md lists every rule line of §24-§25: the rule citing it, or why not yet; and
    every key the tournament and penalty rules cite names its rule there."""
    keys = {k for k, c in citations().items() if c.topic in ("Tournament procedure a floor rules on",
                                                             "Penalties and etiquette")}
    doc = (ROOT / "docs" / "tournament-coverage.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([^`]+)` \|", doc, re.M))
    assert keys and keys <= listed, sorted(keys - listed)
    for name in ("tournament", "penalties"):
        book = yaml.safe_load((ROOT / "rulebooks" / "standard" / f"{name}.yaml").read_text(encoding="utf-8"))
        for rule in book["rules"]:
            for key in rule["cites"]:
                if key in listed:
                    assert re.search(rf"^\| `{re.escape(key)}` \|.*`{re.escape(rule['id'])}`", doc, re.M), \
                        (key, rule["id"])


# --- the service takes these incidents (the generic incident path and the consultation's questions) ----------

def test_the_service_rules_and_asks_on_a_tournament_incident(client):
    from service_support import login
    floor = login(client, "fiona")
    incident = data("penalty", {"seat": 6, "given": "missed_round", "rounds": 1},
                    game={"blinds": [2000, 4000], "big_blind_ante": 4000})
    out = client.post("/api/rule", json={"incident": incident, "table": "4"}, headers=floor)
    assert out.status_code == 200, out.text
    rulings = out.json()["report"]["rulings"]
    assert rulings[0]["rule"] == "penalties.missed-round"
    cost = next(r for r in rulings if r["rule"] == "penalties.seat-posts-while-away")
    assert "10,000 in all" in cost["sentence"]   # 2,000 + 4,000 + 4,000
    partial = data("conduct", {"seat": 2, "act": "exposed_cards", "in_hand": True})
    step = client.post("/api/consult", json={"incident": partial}, headers=floor).json()
    assert "conduct_action_pending" in [q["fact"] for q in step["questions"]]
    after = client.post("/api/consult", json={"incident": partial, "answers": {"conduct_action_pending": True}},
                        headers=floor).json()
    assert "penalty-may-be-given" in [r["ruling"] for r in after["report"]["rulings"]]


def test_two_offenders_in_one_dispute_are_each_ruled_with_their_numbers(standard):
    """TDA 71-A/71-C at seven players, 1,500/3,000 with a 3,000 big blind ante, button 1 (hand 0's big blind seat
    3): seat 4's two rounds are 14 hands, his seat posting 3,000 + 3,000 in hands 1 and 8 and 1,500 in hands 2
    and 9 (15,000); seat 6's one round is 7 hands, the big blind in hand 3 and the small blind in hand 4 (7,500).
    Each is ruled by himself; giving one offender's fields beside the list is refused."""
    from rulings.incident import each_request
    game = {"structure": "no-limit", "blinds": [1500, 3000], "big_blind_ante": 3000}
    d = data("penalty", {"offenders": [{"seat": 4, "given": "missed_round", "rounds": 2},
                                       {"seat": 6, "given": "missed_round", "rounds": 1}]},
             game=game, button=1, players=[1, 2, 3, 4, 5, 6, 7])
    book, engine = standard
    reports = [rule_on(one, book, engine) for one in each_request(incident_from_data(d))]
    numbers = [{k: v for r in rep.rulings if r.decides.startswith("penalty") for k, v in r.effects.items()}
               for rep in reports]
    assert [(n["hands_missed"], n["back_on_hand"], n["forfeited"]) for n in numbers] == [(14, 15, 1500000),
                                                                                           (7, 8, 750000)]
    assert reports[1].incident.endswith("offender 2 of 2 (seat 6)")
    both = data("penalty", {"seat": 4, "given": "missed_round", "offenders": [{"seat": 6, "given": "warning"}]})
    assert ("I130", "procedure.penalty.offenders") in refused(both)
    assert refused(data("penalty", {"offenders": [{"seat": 6}]})) == [("I102", "procedure.penalty.offenders.0")]
