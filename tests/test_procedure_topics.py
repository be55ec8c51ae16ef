"""Procedure rulings (inventory sections 9, 10, 13, 14): the `procedure:` section read and refused by field,
the sources' numbers through the engine, every parameter's effect."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulings.ruling import books
from rulings.rulebook.catalogue import citations
from rulings.incident import incident_from_data, incident_from_text
from rulings.problems import ProblemsError
from rulings.ruling.decide import rule_on

ROOT = Path(__file__).resolve().parents[1]
TOURNEY = {"structure": "no-limit", "blinds": [100, 200], "setting": "tournament"}
CASH = {"structure": "no-limit", "blinds": [1, 2]}
FOUR = {1: 5000, 2: 5000, 3: 5000, 4: 5000}


def incident(procedure: dict, game: dict = CASH, players: dict = FOUR, params: dict | None = None,
             button: int = 1) -> dict:
    return {"game": game, "button": button, "players": players, "procedure": procedure, "params": params or {}}


def ruled(standard, data: dict, question: str):
    book, engine = standard
    report = rule_on(incident_from_data(data), book, engine)
    return next((r for r in report.rulings if r.decides == question), None)


def facts_of(standard, data: dict) -> dict:
    book, engine = standard
    return rule_on(incident_from_data(data), book, engine).facts


def refused(data: dict) -> list[tuple[str, str]]:
    with pytest.raises(ProblemsError) as err:
        incident_from_data(data)
    return [(p.code, ".".join(p.path)) for p in err.value.problems]


# --- the clock (TDA-2024-29, RRP-NL-15) ------------------------------------------------------------

@pytest.mark.parametrize("game,seconds,ruling", [
    (TOURNEY, 30, "action-in-time"), (TOURNEY, 31, "hand-dead"),     # 25 s + 5 s countdown; a tie to the player
    (CASH, 70, "action-in-time"), (CASH, 71, "hand-dead"),           # one minute + 10 s warning
])
def test_clock_facing_a_bet_each_side_of_the_limit(standard, game, seconds, ruling):
    clock = {"seat": 4, "called_by": "floor", "facing_bet": True, "seconds_taken": seconds}
    assert ruled(standard, incident({"clock": clock}, game), "clock").ruling == ruling


@pytest.mark.parametrize("game,seconds,params,ruling", [
    (TOURNEY, 40, {}, "checked"), (CASH, 80, {}, "floor-decides"), (CASH, 70, {}, "action-in-time"),
    (CASH, 80, {"clock.expire_not_facing_bet": "check"}, "checked"),
    (TOURNEY, 40, {"clock.seconds": 60}, "action-in-time"),              # 40 s is inside 60 + 5
    (TOURNEY, 40, {"clock.countdown_seconds": 15}, "action-in-time"),    # 40 s is inside 25 + 15
    (TOURNEY, 41, {"clock.countdown_seconds": 15}, "checked"),
])
def test_clock_not_facing_a_bet_and_every_parameter(standard, game, seconds, params, ruling):
    clock = {"seat": 4, "called_by": "floor", "facing_bet": False, "seconds_taken": seconds}
    assert ruled(standard, incident({"clock": clock}, game, params=params), "clock").ruling == ruling


def test_clock_called_from_away_from_the_seat_does_not_start(standard):
    clock = {"seat": 4, "called_by": "player", "caller_seat": 2, "caller_seated": False}
    r = ruled(standard, incident({"clock": clock}, TOURNEY), "clock")
    assert (r.ruling, r.cites) == ("clock-not-started", ["TDA-2024-29", "RRP-TRN-TIME"])


def test_a_seated_players_clock_call_is_the_floors_to_grant(standard):
    clock = {"seat": 4, "called_by": "player", "caller_seat": 2, "caller_seated": True}
    r = ruled(standard, incident({"clock": clock}, TOURNEY), "clock")
    assert r.ruling == "clock-on-floor-approval" and r.discretion is not None
    assert "25 seconds and a 5-second countdown" in r.sentence


@pytest.mark.parametrize("time,ruling", [
    ({"called_time": True, "acted_behind": 3}, "keeps-right-to-act"),
    ({"called_time": False, "acted_behind": 3}, "may-lose-right-to-act"),
    ({"called_time": False, "acted_behind": 2}, "keeps-right-to-act"),
    ({"called_time": False, "acted_behind": 5, "earlier_to_act": True}, "keeps-right-to-act"),
])
def test_rrp_calling_time_and_three_behind(standard, time, ruling):
    assert ruled(standard, incident({"time": {"seat": 3, **time}}), "turn").ruling == ruling


def test_tournament_time_needs_the_player_at_the_table(standard):
    time = {"seat": 3, "called_time": True, "at_seat": False, "acted_behind": 1}
    assert ruled(standard, incident({"time": time}, TOURNEY), "turn").ruling == "time-not-held"
    time["at_seat"] = True
    assert ruled(standard, incident({"time": time}, TOURNEY), "turn").ruling == "keeps-right-to-act"


# --- bad input --------------------------------------------------------------------------------------

def test_procedure_refusals_name_every_field_at_once():
    data = incident({"clock": {"seat": 9, "called_by": "bystander", "seconds_taken": -1, "speed": 2},
                     "posting": {"seat": 6, "player": "new", "missed": "both"},
                     "showdown": {"hands": {3: "AsXd"}}})
    got = refused(data)
    assert ("I105", "procedure.clock.seat") in got
    assert ("I104", "procedure.clock.called_by") in got
    assert ("I103", "procedure.clock.seconds_taken") in got
    assert ("I101", "procedure.clock.speed") in got
    assert ("I130", "procedure.posting.missed") in got
    assert ("I103", "procedure.showdown.hands.3") in got


def test_a_refusal_points_at_line_and_column():
    text = ("game: {structure: no-limit, blinds: [1, 2]}\nbutton: 1\nplayers: {1: 100, 2: 100, 3: 100}\n"
            "procedure:\n  clock: {seat: 7}\n")
    with pytest.raises(ProblemsError) as err:
        incident_from_text(text, "clock.yaml")
    p = err.value.problems[0]
    assert (p.file, p.line, p.col, p.code) == ("clock.yaml", 5, 17, "I105")
    assert p.hint == "seats: 1, 2, 3"


# --- inventory coverage -----------------------------------------------------------------------------

def _uncovered(topic: str) -> list[str]:
    book, _ = books.load(compile=False)
    cited = {k for r in book.rules.values() for k in r.cites}
    cited |= {k for p in book.parameters.values() for k in p.cites}
    keys = {k for k, c in citations().items() if c.topic == topic}
    readme = (ROOT / "docs" / "rulebooks.md").read_text(encoding="utf-8")   # moved from the README
    return sorted(k for k in keys - cited if k not in readme)


@pytest.mark.parametrize("topic", ["The clock", "Missed blinds and posting", "Blinds, dead button, moving button",
                                   "Showdown order, cards speak, miscalled hands"])
def test_every_procedure_inventory_key_is_cited_or_explained(topic):
    assert _uncovered(topic) == []


# --- missed blinds and posting (RRP-BB-4..14, WIKI-POST-1, TDA-2024-30) -----------------------------

LOWBALL = {"variant": "lowball", "structure": "fixed-limit", "blinds": [5, 10], "bet_sizes": [10, 20]}
FIVE = {1: 200, 2: 200, 3: 200, 4: 200, 5: 200}


@pytest.mark.parametrize("posting,game,params,ruling,effects", [
    ({"player": "new", "choice": "post"}, CASH, {}, "post-big-blind",
     {"post_live": 200, "post_dead": 0, "post_total": 200}),
    ({"player": "returning", "missed": "both", "choice": "post"}, CASH, {}, "post-missed-blinds",
     {"post_live": 200, "post_dead": 100, "post_total": 300}),
    ({"player": "returning", "missed": "small", "choice": "post"}, CASH, {}, "post-missed-blinds",
     {"post_live": 0, "post_dead": 100, "post_total": 100}),
    ({"player": "new", "choice": "post"}, LOWBALL, {}, "post-double-big-blind",
     {"post_live": 2000, "post_dead": 0, "post_total": 2000}),
    ({"player": "new", "choice": "post"}, LOWBALL, {"new_player.post_amount": "bb"}, "post-big-blind",
     {"post_live": 1000, "post_dead": 0, "post_total": 1000}),
    ({"player": "returning", "missed": "none", "posted": 3}, CASH, {}, "nothing-owed",
     {"post_total": 0, "post_returned": 300}),
])
def test_what_a_player_owes_and_what_is_live(standard, posting, game, params, ruling, effects):
    r = ruled(standard, incident({"posting": {"seat": 6, **posting}}, game, FIVE, params), "entry")
    assert (r.ruling, r.effects) == (ruling, effects)


@pytest.mark.parametrize("posting,setting,params,ruling", [
    ({"player": "new", "choice": "post", "between_bb_and_button": True}, "cash", {}, "wait-for-button"),
    ({"player": "new", "choice": "post", "between_bb_and_button": True}, "cash",
     {"posting.allow_between_bb_and_button": True}, "post-big-blind"),
    ({"player": "returning", "missed": "both", "choice": "wait"}, "cash", {}, "wait-for-big-blind"),
    ({"player": "returning", "missed": "both", "choice": "wait"}, "cash",
     {"missed_blinds.may_wait_for_bb": False}, "must-post-missed-blinds"),
    ({"player": "returning", "missed": "both", "dealt_in_unposted": True, "looked": True}, "cash", {}, "hand-dead"),
    ({"player": "returning", "missed": "both", "dealt_in_unposted": True, "looked": True, "acted": True}, "cash", {},
     "hand-live-post-next-deal"),
    ({"player": "returning", "missed": "both", "choice": "post"}, "tournament", {}, "no-post-needed"),
    ({"player": "returning", "absent": True}, "tournament", {}, "blinds-in-hand-killed"),
    ({"player": "new", "new_game": True, "blind_passed_seat": False}, "cash", {}, "no-post-needed"),
])
def test_when_a_player_may_come_in(standard, posting, setting, params, ruling):
    game = {**CASH, "setting": setting}
    assert ruled(standard, incident({"posting": {"seat": 6, **posting}}, game, FIVE, params), "entry").ruling == ruling


# --- button and blinds (WIKI-BTN-*, RRP-BB-1/3, TDA-2024-34) ----------------------------------------

LAST = {"last_button": 5, "last_small": 1, "last_big": 2}     # Ellen button, Alice small, Bob big: Carol due


@pytest.mark.parametrize("seats,mode,effects", [
    ([2, 3, 4, 5], "dead", {"bb_seat": 3, "sb_seat": 2, "button_seat": 1, "big_blinds_posted": 1}),   # Alice out
    ([1, 3, 4, 5], "dead", {"bb_seat": 3, "button_seat": 1, "big_blinds_posted": 1}),                 # Bob out
    ([2, 3, 4, 5], "moving", {"button_seat": 2, "big_blinds_posted": 2}),
    ([2, 3, 4, 5], "simplified_moving", {"button_seat": 2, "sb_seat": 3, "bb_seat": 4, "big_blinds_posted": 1}),
])
def test_wikipedia_button_examples_under_each_mode(standard, seats, mode, effects):
    data = incident({"button": LAST}, players={s: 200 for s in seats}, params={"button.mode": mode})
    assert ruled(standard, data, "blinds").effects == effects


def test_moving_button_names_every_blind(standard):
    data = incident({"button": LAST}, players={s: 200 for s in (2, 3, 4, 5)}, params={"button.mode": "moving"})
    r = ruled(standard, data, "blinds")
    assert "big blinds from seat(s) 3 and 4; small blind from seat(s) 2" in r.sentence


@pytest.mark.parametrize("seats,bb,button", [((2, 3), 2, 3), ((1, 2), 1, 2)])
def test_going_heads_up_the_big_blind_keeps_moving(standard, seats, bb, button):
    last = {"last_button": 1, "last_small": 2, "last_big": 3}
    r = ruled(standard, incident({"button": last}, TOURNEY, {s: 5000 for s in seats}), "blinds")
    assert (r.rule, r.effects["bb_seat"], r.effects["button_seat"], r.effects["sb_seat"]) == \
        ("button.heads-up", bb, button, button)


@pytest.mark.parametrize("substantial,ruling", [(False, "button-corrected"), (True, "play-continues")])
def test_tda_34_wrong_button(standard, substantial, ruling):
    b = {"wrong_move": True, "substantial_action": substantial}
    assert ruled(standard, incident({"button": b}, TOURNEY), "button").ruling == ruling


def test_button_refusals():
    got = refused(incident({"button": {"last_button": 5, "table_seats": 3}}, players={s: 200 for s in (2, 3, 4, 5)}))
    # the missing blinds and the seat count too small for seat 5, in one refusal
    assert got == [("I102", "procedure.button"), ("I131", "procedure.button.table_seats")]
    with pytest.raises(ProblemsError) as err:   # the reader refuses it; the fact builder never sees it
        incident_from_data(incident({"button": {**LAST, "table_seats": 4}}, players={s: 200 for s in (2, 3, 4, 5)}))
    assert [p.code for p in err.value.problems] == ["I131"]


# --- showdown (RRP-SD-*, TDA-2024-12..22, RRP-LB-15/16) -----------------------------------------------

RIVER = {"game": CASH, "button": 1, "players": {s: 200 for s in range(1, 6)}, "street": "river"}


def showdown(sd: dict, **over) -> dict:
    return {**RIVER, **over, "procedure": {"showdown": sd}}


def test_a_dealer_misread_is_ruled_from_the_tabled_cards(standard):
    sd = {"in_showdown": [3, 5], "hands": {3: "AsKd", 5: "QhQc"}, "board": "Qd7c2s9hTd", "dealer_read": 3}
    r = ruled(standard, showdown(sd), "pot")
    assert (r.rule, r.effects) == ("showdown.cards-speak-misread", {"pot_winner": 5})
    assert "three of a kind" in r.sentence


def test_cards_speak_against_pokerkit_on_a_two_pair_board(standard):
    # board Ah Ad 8c 8s 2d: seat 3's K kicker beats seat 5's Q kicker; seat 2's 8 makes a full house
    sd = {"hands": {2: "8h3c", 3: "Kc4d", 5: "Qc5h"}, "board": "AhAd8c8s2d", "dealer_read": 3}
    facts = facts_of(standard, showdown(sd))
    assert (facts["sd_best_hand_seat"], facts["sd_misread"]) == (2, True)
    sd["hands"] = {3: "Kc4d", 5: "Qc5h"}
    facts = facts_of(standard, showdown(sd))
    assert (facts["sd_best_hand_seat"], facts["sd_misread"]) == (3, False)


def test_a_tie_names_both_seats_and_no_single_winner(standard):
    sd = {"hands": {2: "Jc2h", 3: "Jd3h"}, "board": "Ts9h8c7d4s"}
    facts = facts_of(standard, showdown(sd))
    assert facts["sd_best_hand_seats"] == "2 and 3" and "sd_best_hand_seat" not in facts


@pytest.mark.parametrize("sd,button,first", [
    ({"last_aggressor": 5, "river_checked": False, "in_showdown": [3, 5]}, 1, 5),
    ({"river_checked": True, "in_showdown": [3, 5]}, 1, 3),
    ({"river_checked": True, "in_showdown": [3, 5]}, 4, 5),
])
def test_who_shows_first(standard, sd, button, first):
    assert ruled(standard, showdown(sd, button=button), "show-order").effects == {"shows_first": first}


@pytest.mark.parametrize("sd,ruling", [
    ({"claimant": 5, "tabled": "some", "mucked": False}, "table-all-cards"),
    ({"claimant": 5, "tabled": "all", "mucked": True, "winning_if_tabled": True}, "tabled-hand-wins"),
    ({"claimant": 5, "tabled": "none", "mucked": True, "identifiable": True}, "retrieve-and-table"),
    ({"claimant": 5, "tabled": "none", "mucked": True, "identifiable": False}, "hand-dead"),
    ({"claimant": 4, "claimant_folded": True}, "no-claim"),
])
def test_tabling_and_mucking(standard, sd, ruling):
    assert ruled(standard, showdown(sd), "pot").ruling == ruling


@pytest.mark.parametrize("setting,kept,called,aggressor,ruling", [
    ("tournament", True, True, 3, "must-show"),
    ("tournament", False, True, 3, "no-right-to-see"),
    ("tournament", True, True, 2, "floor-decides"),
    ("cash", False, False, 3, "may-see"),
])
def test_asking_to_see_a_hand(standard, setting, kept, called, aggressor, ruling):
    sd = {"last_aggressor": 3, "river_bet": True, "asker": 5, "asker_kept_cards": kept, "asker_called": called,
          "asked_to_see": aggressor}
    assert ruled(standard, showdown(sd, game={**CASH, "setting": setting}), "ask-to-see").ruling == ruling


@pytest.mark.parametrize("setting,params,face_up", [
    ("tournament", {}, True), ("cash", {}, False), ("cash", {"showdown.all_in_face_up": "all_games"}, True),
])
def test_all_in_hands_face_up(standard, setting, params, face_up):
    data = showdown({"player_all_in": True, "betting_done": True}, game={**CASH, "setting": setting}, params=params)
    assert (ruled(standard, data, "face-up") is not None) == face_up


@pytest.mark.parametrize("miscall,fouled,left,ruling", [
    ("first_card", True, 2, "miscaller-hand-dead"),
    ("first_card", False, 3, "miscaller-hand-dead"),
    ("first_card", False, 2, "floor-decides"),
    ("second_card", True, 2, "best-hand-wins"),
    ("pair_unannounced", True, 2, "floor-decides"),
    ("pair_unannounced", False, 2, "best-hand-wins"),
])
def test_rrp_lb_15_and_16_lowball_miscalls(standard, miscall, fouled, left, ruling):
    sd = {"claimant": 2, "miscall": miscall, "other_fouled": fouled, "players_left": left}
    r = ruled(standard, showdown(sd, game=LOWBALL, street="after-draw"), "pot")
    assert (r.ruling, r.cites[0]) == (ruling, "RRP-LB-16" if miscall == "pair_unannounced" else "RRP-LB-15")


@pytest.mark.parametrize("dispute,when,ruling", [
    ("reading", "before_next_hand", "correct-the-pot"), ("reading", "next_hand_started", "pot-stands"),
    ("count", "next_hand_started", "correct-the-pot"), ("count", "after_substantial_action", "pot-stands"),
])
def test_tda_22_how_long_a_pot_can_be_disputed(standard, dispute, when, ruling):
    assert ruled(standard, showdown({"dispute": dispute, "when": when}), "dispute").ruling == ruling


def test_showdown_refusals():
    got = refused(showdown({"hands": {3: "AsKd", 5: "AsQc"}, "board": "2c3d4h5s9c"}))
    assert got == [("I130", "procedure.showdown.hands.5")]
    assert refused(showdown({"hands": {3: "AsKd"}})) == [("I102", "procedure.showdown.board")]
    assert refused(showdown({"claimant": 8})) == [("I105", "procedure.showdown.claimant")]


# --- the example incidents through the command line ---------------------------------------------------

@pytest.mark.parametrize("name,rulings", [
    ("clock-expired", {"clock.expired-facing-bet"}),
    ("returning-player-posts", {"posting.missed-both-blinds"}),
    ("showdown-misread", {"showdown.last-aggressor-first", "showdown.cards-speak-misread"}),
    ("lowball-miscall", {"showdown.lowball-miscall-fouls-other"}),
])
def test_example_incidents_are_ruled_not_left_uncovered(name, rulings, capsys):
    from cli.main import main
    assert main(["rule", str(ROOT / "examples" / "incidents" / f"{name}.yaml"), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {r["rule"] for r in report["rulings"]} == rulings


def test_moving_button_second_hand_after_two_big_blinds(standard):
    last = {"last_button": 2, "last_small": 2, "last_big": [3, 4]}
    data = incident({"button": last}, players={s: 200 for s in (2, 3, 4, 5)}, params={"button.mode": "moving"})
    r = ruled(standard, data, "blinds")
    assert r.effects == {"button_seat": 3, "big_blinds_posted": 1}
    assert "big blinds from seat(s) 5; small blind from seat(s) 3 and 4" in r.sentence


def test_hands_of_the_wrong_size_are_refused():
    got = refused(showdown({"hands": {3: "AsKdQc", 5: "QhJh"}, "board": "2c3d"}))
    assert sorted(got) == [("I130", "procedure.showdown.board"), ("I130", "procedure.showdown.hands.3")]
    omaha = showdown({"hands": {3: "AsKd"}, "board": "2c3d4h"}, game={**CASH, "variant": "omaha"})
    assert refused(omaha) == [("I130", "procedure.showdown.hands.3")]


def test_stud_show_order_comes_from_the_cards_showing_not_the_button(standard):
    stud = {"variant": "stud", "structure": "fixed-limit", "blinds": [], "ante": 1, "bring_in": 2, "bet_sizes": [5, 10]}
    data = showdown({"river_checked": True, "in_showdown": [2, 4]}, game=stud, street="seventh")
    assert "sd_first_to_act" not in facts_of(standard, data)
    data["procedure"]["showdown"]["first_to_act"] = 4
    assert ruled(standard, data, "show-order").effects == {"shows_first": 4}
