"""The deal and its irregularities (issue #44; inventory §20-§22): the `procedure.deal` section read and refused
by field, the facts worked out from it, and the rulings of rulebooks/standard/deal.yaml with the sources'
numbers, each house convention under both its values."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rulings.incident import incident_from_data
from rulings.problems import ProblemsError
from rulings.rulebook.catalogue import citations
from rulings.ruling.decide import rule_on

ROOT = Path(__file__).resolve().parents[1]
NINE = [1, 2, 3, 4, 5, 6, 7, 8, 9]
TOURNEY = {"variant": "holdem", "setting": "tournament"}


def deal(d: dict, game: dict | None = None, button: int | None = 9, params: dict | None = None,
         players=NINE) -> dict:
    out = {"game": game or {"variant": "holdem"}, "players": players, "procedure": {"deal": d},
           "params": params or {}}
    if button is not None:
        out["button"] = button
    return out


def report(standard, data: dict):
    book, engine = standard
    return rule_on(incident_from_data(data), book, engine)


def ruled(standard, data: dict, matter: str):
    return next((r for r in report(standard, data).rulings if r.decides == matter), None)


def refused(data: dict) -> list[tuple[str, str]]:
    with pytest.raises(ProblemsError) as err:
        incident_from_data(data)
    return sorted((p.code, ".".join(map(str, p.path))) for p in err.value.problems)


def exposed(*positions: int, by: str = "dealer", how: str = "exposed") -> list[dict]:
    return [{"position": p, "how": how, "by": by} for p in positions]


# --- reading the deal ---------------------------------------------------------------------------------------

def test_a_deal_needs_no_structure_button_or_blinds():
    """No wager, no betting: the game's variant and the seats are enough (before #44: I102 game.structure)."""
    inc = incident_from_data(deal({"cards": exposed(2), "noticed": "during_deal"}, button=None))
    assert inc.no_betting and inc.procedure.raw["deal"]["cards"][0] == {"position": 2, "how": "exposed",
                                                                          "by": "dealer"}
    # the betting sections still need them
    assert ("I102", "game.structure") in refused(
        {"game": {"variant": "holdem"}, "players": NINE, "procedure": {"clock": {"seat": 2, "called_by": "floor"}}})


def test_contradictions_are_refused_all_at_once():
    got = refused(deal({"first_card_seat": 1, "hands": {1: 2},
                        "cards": [{"position": 33, "how": "exposed", "by": "dealer"},        # seat 1 fifth card (8 dealt)
                                  {"position": 3, "seat": 4, "how": "exposed", "by": "dealer"},  # card 3 is seat 3's
                                  {"position": 3, "how": "boxed"},                              # card 3 twice
                                  {"position": 5, "how": "flashed"}],                           # by whom?
                        "dealt_out": [6], "on_penalty": [6], "noticed": "during_deal",
                        "actions": [{"seat": 3, "action": "fold"}], "flop_cards": 2}))
    assert got == [("I102", "procedure.deal.cards.3"), ("I130", "procedure.deal.actions"),
                   ("I130", "procedure.deal.cards.0"), ("I130", "procedure.deal.cards.1.seat"),
                   ("I130", "procedure.deal.cards.2.position"), ("I130", "procedure.deal.flop_cards"),
                   ("I130", "procedure.deal.on_penalty")]
    # a player away and dealt round is told as both (whether he had a right to a hand is the rules' question)
    incident_from_data(deal({"dealt_out": [6], "away": [6], "noticed": "during_deal"}))
    # the same fifth card to a player said to hold five is read
    incident_from_data(deal({"first_card_seat": 1, "hands": {1: 5}, "cards": exposed(37), "noticed": "during_deal"}))


def test_the_first_card_seat_against_the_button():
    assert refused(deal({"first_card_seat": 1, "first_card_wrong_seat": True})) == [
        ("I130", "procedure.deal.first_card_wrong_seat")]
    facts = report(STANDARD[0], deal({"first_card_seat": 2, "noticed": "during_deal"})).facts
    assert facts["deal_wrong_first_seat"] is True


def test_the_facts_of_a_deal(standard):
    f = report(standard, deal({"first_card_seat": 1, "cards": exposed(7) + exposed(12, how="off_table")
                               + exposed(11, by="player", how="flashed") + [{"position": 15, "how": "boxed"}],
                               "hands": {5: 3, 9: 1}, "away": [4], "on_penalty": [8],
                               "noticed": "after_action",
                               "actions": [{"seat": 3, "action": "fold"}, {"seat": 4, "action": "call"}]})).facts
    assert (f["deal_dealer_shown"], f["deal_dealer_shown_first"], f["deal_dealer_shown_seat"]) == (2, 7, 7)
    assert (f["deal_player_flashed"], f["deal_boxed"]) == (1, 1)
    assert (f["deal_extra_cards"], f["deal_extra_seat"], f["deal_short_seats"], f["deal_short_seat"]) == (1, 5, 1, 9)
    assert f["deal_short_is_button"] is False      # there is an extra card too
    assert (f["deal_away_seats"], f["deal_penalty_seats"], f["deal_button_seat"]) == ("4", "8", 9)
    assert (f["actions_since"], f["chip_actions_since"]) == (2, 1)


# --- substantial action: one rule, read by the deal and by pot limit ----------------------------------------

@pytest.mark.parametrize("actions,substantial", [
    (["fold", "call"], True), (["fold", "fold"], False), (["fold", "fold", "fold"], True), (["call"], False),
    (["check", "fold"], False), (["post", "fold", "fold"], False),     # a posted blind is no action
])
def test_substantial_action_is_derived_once(standard, actions, substantial):
    """TDA 36 as the inventory's §28 table: the deal's actions feed the one rule (pot-limit.substantial-action)
    that the under-pot bet reads too; nothing in Python says what is substantial."""
    acts = [{"seat": i + 3, "action": a} for i, a in enumerate(actions)]
    rep = report(standard, deal({"cards": exposed(7, 12), "noticed": "after_action", "actions": acts},
                                game=TOURNEY))
    derived = {d["fact"]: (d["value"], d["by"]) for d in rep.derived}
    rule = "pot-limit.substantial-action" if substantial else "pot-limit.no-substantial-action"
    assert derived["substantial_action"] == (substantial, rule)
    assert ruled(standard, deal({"cards": exposed(7, 12), "noticed": "after_action", "actions": acts},
                                game=TOURNEY), "deal").ruling == ("no-misdeal" if substantial else "misdeal")


def test_hand_says_decides_no_verdict():
    """The hand's actions give counts; the rules decide what is substantial (one rule, not Python and YAML)."""
    text = (ROOT / "rulings" / "incident" / "hand_says.py").read_text(encoding="utf-8")
    assert ">= 3" not in text and "substantial =" not in text


# --- misdeals (§20) and the window (§27 D25) -------------------------------------------------------------

@pytest.mark.parametrize("cards,params,ruling", [
    (exposed(1), {}, "misdeal"), (exposed(2), {}, "misdeal"),        # TDA 35-A(7), RRP r.1(a)
    (exposed(7, 12), {}, "misdeal"),                                  # two downcards
    (exposed(2), {"misdeal.exposed_lead_cards": 1}, None),            # RRP hold'em rule: card 2 replaced
    (exposed(7), {}, None),
])
def test_exposed_cards_nine_handed(standard, cards, params, ruling):
    got = ruled(standard, deal({"cards": cards, "noticed": "during_deal"}, params=params), "deal")
    assert (got.ruling if got else None) == ruling


def test_one_exposed_card_is_replaced_and_burned(standard):
    """§28: card 7 alone exposed: the deal goes on; after card 18 seat 7 gets the top card; card 7 is the
    flop's burn."""
    got = ruled(standard, deal({"cards": exposed(7), "noticed": "during_deal"}), "exposed-card")
    assert got.ruling == "exposed-card-replaced"
    assert "seat 7 gets the top card" in got.sentence and "card 7" in got.sentence and "burn" in got.sentence
    got = ruled(standard, deal({"cards": exposed(2), "noticed": "during_deal"},
                               params={"misdeal.exposed_lead_cards": 1}), "exposed-card")
    assert got.ruling == "exposed-card-replaced" and "seat 2" in got.sentence


@pytest.mark.parametrize("game,actions,ruling", [
    (TOURNEY, ["fold", "fold"], "misdeal"),        # TDA: two folds are not substantial action
    ({"variant": "holdem"}, ["fold", "fold"], "no-misdeal"),     # RRP: two players acted
    (TOURNEY, ["fold", "call"], "no-misdeal"),
    ({"variant": "holdem"}, ["call"], "misdeal"),
])
def test_the_misdeal_window_by_setting(standard, game, actions, ruling):
    acts = [{"seat": i + 3, "action": a} for i, a in enumerate(actions)]
    got = ruled(standard, deal({"cards": exposed(1), "noticed": "after_action", "actions": acts}, game=game), "deal")
    assert got.ruling == ruling


def test_the_redeal_says_what_the_dealer_does(standard):
    got = ruled(standard, deal({"first_card_seat": 2, "away": [4], "on_penalty": [8], "noticed": "during_deal"},
                               game=TOURNEY), "deal")
    assert got.ruling == "misdeal"
    s = got.sentence
    assert "stays on seat 9" in s and "(1, 2, 3, 4, 5, 6, 7, 8, 9)" in s
    assert "seat(s) 4, away from the table, are dealt again and may play" in s
    assert "seat(s) 8, on a penalty, are dealt again and their hands killed" in s
    assert s.index("(1)") < s.index("(2)") < s.index("(3)") < s.index("(4)")
    killed = ruled(standard, deal({"first_card_seat": 2, "away": [4], "noticed": "during_deal"}, game=TOURNEY,
                                  params={"redeal.absent_players_may_play": False}), "deal")
    assert "seat(s) 4, away from the table, are dealt again and their hands killed" in killed.sentence


@pytest.mark.parametrize("d,ruling", [
    ({"cards": [{"position": 10, "how": "boxed"}]}, None),                                         # §28
    ({"cards": [{"position": 10, "how": "boxed"}, {"position": 14, "how": "boxed"}]}, "misdeal"),
    ({"not_entitled": [10]}, "misdeal"), ({"dealt_out": [6]}, "misdeal"),
    ({"first_card_seat": 2}, "misdeal"), ({"first_card_seat": 1}, None),
])
def test_other_causes(standard, d, ruling):
    got = ruled(standard, deal({**d, "noticed": "during_deal"}), "deal")
    assert (got.ruling if got else None) == ruling


def test_a_single_boxed_card_is_a_scrap_of_paper(standard):
    got = ruled(standard, deal({"cards": [{"position": 10, "how": "boxed"}], "noticed": "during_deal"}), "boxed-card")
    assert got.ruling == "boxed-card-replaced"


@pytest.mark.parametrize("game,hands,matter,ruling", [
    (TOURNEY, {5: 3}, "deal", "misdeal"),                        # TDA 35-A(5): any wrong count
    ({"variant": "holdem"}, {5: 3}, "card-count", "extra-card-burned"),   # RRP: one extra is the burn
    ({"variant": "holdem"}, {5: 3, 6: 3}, "deal", "misdeal"),     # RRP r.1(d): two extra
    (TOURNEY, {9: 1}, "card-count", "button-completed"),          # TDA 37
    (TOURNEY, {4: 1}, "deal", "misdeal"),
    ({"variant": "holdem"}, {4: 1}, "card-count", "floor-decides"),   # RRP r.1(e)
])
def test_wrong_card_counts(standard, game, hands, matter, ruling):
    got = ruled(standard, deal({"hands": hands, "noticed": "before_any_action"}, game=game), matter)
    assert got.ruling == ruling


@pytest.mark.parametrize("hands,seat", [({5: 1}, 5), ({5: 3}, 5)])
def test_addendum_38_after_substantial_action_the_hand_is_dead(standard, hands, seat):
    """TDA Addendum 38, 1-A and 1-B: seat 3 folds, seat 4 calls (substantial action), seat 5 has one card (or
    three): his hand is dead and one card is burned before the flop."""
    rep = report(standard, deal({"hands": hands, "noticed": "after_action",
                                 "actions": [{"seat": 3, "action": "fold"}, {"seat": 4, "action": "call"}]},
                                game=TOURNEY))
    dead = next(r for r in rep.rulings if r.decides == "deal")
    assert dead.ruling == "hand-dead" and f"Seat {seat}'s hand is dead" in dead.sentence
    assert "burns one card" in dead.sentence


# --- the board (§21) ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("game,d,ruling", [
    (TOURNEY, {"flop_cards": 4}, "flop-fixed"), ({"variant": "holdem"}, {"flop_cards": 4}, "board-redealt"),
    (TOURNEY, {"premature": "turn"}, "board-redealt"), ({"variant": "holdem"}, {"premature": "turn"}, "turn-set-aside"),
    ({"variant": "holdem"}, {"premature": "flop"}, "board-redealt"),
    (TOURNEY, {"no_burn": "flop"}, "flop-fixed"),
    (TOURNEY, {"no_burn": "turn"}, "floor-decides"), ({"variant": "holdem"}, {"no_burn": "turn"}, "board-fixed"),
])
def test_board_errors_by_setting(standard, game, d, ruling):
    got = ruled(standard, deal({**d, "noticed": "before_any_action"}, game=game), "board")
    assert got.ruling == ruling


def test_a_flop_without_burn_after_one_check_stands(standard):
    """TDA 39-B: one check ends the remedy; the WSOP's keeps it until substantial action."""
    d = {"no_burn": "flop", "noticed": "after_action", "actions": [{"seat": 1, "action": "check"}]}
    assert ruled(standard, deal(d, game=TOURNEY), "board").ruling == "board-stands"
    assert ruled(standard, deal(d, game=TOURNEY, params={"flop.missing_burn": "random_burn_until_sa"}),
                 "board").ruling == "flop-fixed"


def test_premature_turn_the_two_methods_in_order(standard):
    tda = ruled(standard, deal({"premature": "turn", "noticed": "before_any_action"}, game=TOURNEY), "board").sentence
    rrp = ruled(standard, deal({"premature": "turn", "noticed": "before_any_action"}), "board").sentence
    assert "no new burn" in tda and "the river then comes with its usual burn" in tda
    assert "would have been the river" in rrp and "deals the river with no burn" in rrp


# --- dead hands (§22) -----------------------------------------------------------------------------------

def test_a_killed_hand_gets_back_only_its_uncalled_raise(standard):
    """§28: NLHE 100-200, A bets 500, B raises to 2,000, the dealer mucks B's hand beyond identification: B gets
    back 1,500."""
    got = ruled(standard, deal({"killed_seat": 2, "killed_identifiable": False, "killed_uncalled": 1500,
                                "noticed": "after_action"}, game={**TOURNEY, "blinds": [100, 200]}), "dead-hand")
    assert got.ruling == "hand-dead" and got.effects["returned"] == 150000
    assert "1,500" in got.sentence
    none = ruled(standard, deal({"killed_seat": 2, "killed_identifiable": False}, game=TOURNEY), "dead-hand")
    assert none.effects["returned"] == 0 and "goes back" not in none.sentence


@pytest.mark.parametrize("game,ruling", [(TOURNEY, "hand-live"), ({"variant": "holdem"}, "floor-decides")])
def test_an_identifiable_killed_hand(standard, game, ruling):
    assert ruled(standard, deal({"killed_seat": 2, "killed_identifiable": True}, game=game),
                 "dead-hand").ruling == ruling


# --- coverage ----------------------------------------------------------------------------------------------

def test_every_key_of_sections_20_to_23_is_cited_or_explained():
    """docs/deal-coverage.md lists every rule line of §20-§23: the rule citing it, or why not yet; and every key
    the deal rules cite is there."""
    topics = ("Misdeals", "Exposed", "Dead hands", "Stud and draw")
    keys = {k for k, c in citations().items() if c.topic.startswith(topics)}
    doc = (ROOT / "docs" / "deal-coverage.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([^`]+)` \|", doc, re.M))
    assert keys <= listed, sorted(keys - listed)
    book = yaml.safe_load((ROOT / "rulebooks" / "standard" / "deal.yaml").read_text(encoding="utf-8"))
    for rule in book["rules"]:
        for key in rule["cites"]:
            if key in keys:
                assert re.search(rf"^\| `{re.escape(key)}` \|.*`{re.escape(rule['id'])}`", doc, re.M), (key, rule["id"])


STANDARD: list = []


@pytest.fixture(autouse=True)
def _keep(standard):
    STANDARD[:] = [standard]


# --- stud and cards the game does not use -----------------------------------------------------------------

STUD8 = [1, 2, 3, 4, 5, 6, 7, 8]


@pytest.mark.parametrize("setting,positions,params,matter,ruling", [
    ("tournament", [3], {}, "exposed-card", "downcard-becomes-upcard"),     # TDA RP-10-A
    ("cash", [3], {}, "exposed-card", "downcard-becomes-upcard"),           # RRP stud r.5: third card down
    ("tournament", [3], {"stud.exposed_downcard_initial_deal": "misdeal"}, "deal", "misdeal"),  # RRP tournament
    ("cash", [3, 11], {}, "exposed-card", "hand-dead"),                     # both of seat 3's: dead, ante back
    ("tournament", [3, 11], {}, "deal", "misdeal"),                         # WSOP T88-a
    ("tournament", [3, 19], {}, "exposed-card", None),   # card 19 is seat 3's upcard (third round): one downcard
])
def test_stud_downcards_exposed_on_the_deal(standard, setting, positions, params, matter, ruling):
    rep = report(standard, deal({"first_card_seat": 1, "cards": exposed(*positions, how="face_up"),
                                 "noticed": "during_deal"}, game={"variant": "stud", "setting": setting},
                                players=STUD8, button=None, params=params))
    got = next((r for r in rep.rulings if r.decides == matter), None)
    if ruling is None:
        assert rep.facts["deal_downcards_shown"] == 1
        return
    assert got.ruling == ruling


@pytest.mark.parametrize("game,matter,ruling", [(TOURNEY, "deal", "misdeal"),          # TDA 35-A(6)
                                                ({"variant": "holdem"}, "boxed-card", "card-replaced")])  # RRP-IRR-8
def test_a_joker_in_the_deal(standard, game, matter, ruling):
    got = ruled(standard, deal({"nonstandard_card": True, "noticed": "before_any_action"}, game=game), matter)
    assert got.ruling == ruling


@pytest.mark.parametrize("actions,ruling", [(["fold"], "level-corrected"), (["fold", "call"], "level-stands"),
                                            (["fold", "fold", "fold"], "level-stands")])
def test_a_hand_dealt_at_the_old_level(standard, actions, ruling):
    """TDA 23: corrected before substantial action, played at the old level after it."""
    acts = [{"seat": i + 3, "action": a} for i, a in enumerate(actions)]
    got = ruled(standard, deal({"old_level": True, "noticed": "after_action", "actions": acts}, game=TOURNEY), "level")
    assert got.ruling == ruling


def test_cards_thrown_into_another_hand_are_dead(standard):
    got = ruled(standard, deal({"threw_seat": 5, "noticed": "before_any_action"}), "thrown-cards")
    assert got.ruling == "hand-dead" and got.discretion and "Seat 5" in got.sentence


def test_a_cause_with_the_actions_not_told_gives_both_answers_and_asks(standard):
    rep = report(standard, deal({"cards": exposed(2), "noticed": "after_action"}))
    got = next(r for r in rep.rulings if r.decides == "deal")
    assert got.ruling == "misdeal-if-in-time" and "two players had acted" in got.sentence
    assert "actions_since" in {q["fact"] for q in rep.questions}
    tda = ruled(standard, deal({"cards": exposed(2), "noticed": "after_action"}, game=TOURNEY), "deal")
    assert "substantial action" in tda.sentence


# --- the chips of a hand whose deal is in dispute, from its betting -------------------------------------------

def _hand(streets: list, d: dict, blinds=(100, 200), extra: dict | None = None) -> dict:
    game = {"variant": "holdem", "structure": "no-limit", "setting": "tournament", "blinds": list(blinds),
            **(extra or {})}
    return {"game": game, "button": 9, "players": {s: None for s in NINE},
            "streets": [{"street": name, "actions": acts} for name, acts in streets], "procedure": {"deal": d}}


PRE = [{"seat": 3, "action": "fold"}, {"seat": 4, "action": "fold"}, {"seat": 5, "action": "raise", "to": 600},
       {"seat": 6, "action": "fold"}, {"seat": 7, "action": "fold"}, {"seat": 8, "action": "call"},
       {"seat": 9, "action": "fold"}, {"seat": 1, "action": "fold"}, {"seat": 2, "action": "call"}]


def test_a_void_hand_gives_each_seat_its_own_chips_back(standard):
    """TDA 35-E, RRP-IRR-4: a fouled deck found on the turn (100-200; 5 raises to 600, 8 and 2 call; the flop:
    2 checks, 5 bets 1,000, 8 calls, 2 folds): every chip back, folded players' too."""
    flop = [{"seat": 2, "action": "check"}, {"seat": 5, "action": "bet", "to": 1000}, {"seat": 8, "action": "call"},
            {"seat": 2, "action": "fold"}]
    r = ruled(standard, _hand([("preflop", PRE), ("flop", flop)], {"duplicate_card": True, "noticed": "after_action"}),
              "fouled-deck")
    assert "Back to each: seat 1 100, seat 2 600, seat 5 1,600 and seat 8 1,600." in r.sentence
    # a big blind ante is the big blind's to take back (seat 2: 200 blind and 200 ante)
    r = ruled(standard, _hand([("preflop", PRE)], {"duplicate_card": True, "noticed": "after_action"},
                              extra={"big_blind_ante": 200}), "fouled-deck")
    assert "seat 2 800" in r.sentence and "seat 5 600" in r.sentence


def test_a_killed_hand_with_one_live_hand_left_and_one_given_back(standard):
    """TDA 65-A: seat 4's raise to 3,000 over seat 3's 1,000 bet, his hand fouled beyond identifying: 2,000 (in hundredths) comes
    back and seat 3 takes 1,000 x 3 + 200 + 400 + 400 ante + 2 x 1,000 = 6,000. 65-B: identifiable, it plays and
    seat 3 faces 2,000 more."""
    pre = [{"seat": 1, "action": "fold"}, {"seat": 2, "action": "fold"}, {"seat": 3, "action": "raise", "to": 1000},
           {"seat": 4, "action": "call"}, {"seat": 5, "action": "fold"}, {"seat": 6, "action": "fold"},
           {"seat": 7, "action": "call"}, {"seat": 8, "action": "fold"}, {"seat": 9, "action": "fold"}]
    flop = [{"seat": 3, "action": "bet", "to": 1000}, {"seat": 4, "action": "raise", "to": 3000},
            {"seat": 7, "action": "fold"}]
    data = _hand([("preflop", pre), ("flop", flop)], {"killed_seat": 4, "killed_identifiable": False,
                                                      "killed_uncalled": 2000}, blinds=(200, 400),
                 extra={"big_blind_ante": 400})
    data["button"] = 7
    r = ruled(standard, data, "dead-hand")
    assert r.effects["returned"] == 200000 and "Seat 3 is the only live hand left and takes the pot of 6,000" in r.sentence
    data["procedure"]["deal"]["killed_identifiable"] = True
    r = ruled(standard, data, "dead-hand")
    assert r.ruling == "hand-live" and "The action is on seat 3, 2,000 to call." in r.sentence


def test_a_hand_folded_on_the_dealers_wrong_count_faces_the_real_bet_when_given_back(standard):
    """RRP-DEAD-2: $5/$10, seat 4 bets $100 on the turn, the dealer says $1,000, seat 6 folds: given back, he
    faces $100."""
    data = {"game": {"variant": "holdem", "structure": "no-limit", "setting": "cash", "blinds": [5, 10]},
            "button": 6, "players": {4: None, 6: None},
            "streets": [{"street": "flop", "left": [4, 6]},
                        {"street": "turn", "actions": [{"seat": 4, "action": "bet", "to": 100},
                                                       {"seat": 6, "action": "fold"}]}],
            "procedure": {"deal": {"killed_seat": 6, "killed_identifiable": True}}}
    r = ruled(standard, data, "dead-hand")
    assert r.discretion and "facing $100 to call" in r.sentence


def test_a_premature_flop_says_the_pot_going_to_the_flop(standard):
    """TDA RP-5-A: 500-1,000 with a 1,000 big blind ante; 3 and 7 limp, 1 completes, the flop comes before the
    big blind's option; he raises to 4,000 and all call: 4 x 4,000 + 1,000 = 17,000 to the flop."""
    pre = [{"seat": 3, "action": "call"}, {"seat": 4, "action": "fold"}, {"seat": 5, "action": "fold"},
           {"seat": 6, "action": "fold"}, {"seat": 7, "action": "call"}, {"seat": 8, "action": "fold"},
           {"seat": 9, "action": "fold"}, {"seat": 1, "action": "call"}, {"seat": 2, "action": "raise", "to": 4000},
           {"seat": 3, "action": "call"}, {"seat": 7, "action": "call"}, {"seat": 1, "action": "call"}]
    r = ruled(standard, _hand([("preflop", pre)], {"premature": "flop", "noticed": "after_action"},
                              blinds=(500, 1000), extra={"big_blind_ante": 1000}), "board")
    assert "The pot going to the flop: 17,000." in r.sentence
    # the round not finished as told: no pot is said (the players still to act finish it first)
    r = ruled(standard, _hand([("preflop", pre[:8])], {"premature": "flop", "noticed": "after_action"},
                              blinds=(500, 1000), extra={"big_blind_ante": 1000}), "board")
    assert "The pot going to the flop" not in r.sentence


# --- the house parameters of §26 for the deal, each under its values -----------------------------------------

def _one(standard, data: dict):
    return [(r.decides, r.ruling) for r in report(standard, data).rulings]


@pytest.mark.parametrize("acts,definition,ruling", [
    (["fold", "check"], "wsop_cash", "no-misdeal"),     # HOUSE-WSOP-C109: a fold and a check are substantial
    (["fold", "check"], "tda", "misdeal"),              # TDA 36: two actions need chips in one of them
    (["fold", "fold"], "wsop_cash", "misdeal"),         # two folds are not, even at the WSOP
    (["check", "check"], "wsop_cash", "misdeal"),
    (["fold", "call"], "tda", "no-misdeal"),
])
def test_substantial_action_by_the_houses_definition(standard, acts, definition, ruling):
    d = {"cards": exposed(2), "noticed": "after_action",
         "actions": [{"seat": 3 + i, "action": a} for i, a in enumerate(acts)]}
    params = {"misdeal.window": "substantial_action", "substantial_action.definition": definition}
    assert ruled(standard, deal(d, params=params), "deal").ruling == ruling


def test_the_redeal_as_the_house_runs_it(standard):
    """TDA 35-C: the same hand again, the penalty's two deals counted as one (WSOP T88-B: as the house says)."""
    d = {"cards": exposed(2), "on_penalty": [5], "noticed": "during_deal"}
    assert "count as 1 hand(s) of the penalty" in ruled(standard, deal(d), "deal").sentence
    assert "count as 2 hand(s) of the penalty" in ruled(
        standard, deal(d, params={"redeal.penalty_hands_counted": 2}), "deal").sentence
    moved = ruled(standard, deal(d, params={"redeal.keep_button_and_level": False}), "deal")
    assert moved.ruling == "misdeal" and "the button moves one seat on from seat 9" in moved.sentence


def test_boxed_cards_counted_where_the_house_counts_them(standard):
    """RRP-MISDEAL-1c (cash): a boxed card in the deal (card 4) and one dealing the flop (card 22), no action yet:
    two boxed cards, a misdeal; TDA 35-A1 counts only the deal's: one, no misdeal."""
    d = {"first_card_seat": 1, "cards": [{"position": 4, "how": "boxed"}, {"position": 22, "how": "boxed"}],
         "noticed": "before_any_action"}
    assert ruled(standard, deal(d), "deal").ruling == "misdeal"
    assert ruled(standard, deal(d, game=TOURNEY), "deal") is None


def test_the_button_short_after_substantial_action(standard):
    """TDA 37: the button short one card is given it after substantial action; a house that says otherwise
    (button.short_hand_complete_after_sa false) kills the short hand."""
    d = {"hands": {9: 1}, "noticed": "after_action", "actions": [{"seat": 3, "action": "call"},
                                                                 {"seat": 4, "action": "raise"}]}
    assert ruled(standard, deal(d, game=TOURNEY), "card-count").ruling == "button-completed"
    dead = ruled(standard, deal(d, game=TOURNEY, params={"button.short_hand_complete_after_sa": False}), "deal")
    assert dead.ruling == "hand-dead" and "Seat 9's hand is dead" in dead.sentence


def test_a_dead_hands_uncalled_bet_by_the_houses_rule(standard):
    """TDA 65-A and 15-B: 1,500 of his raise no one called goes back; a house that keeps it says so."""
    d = {"killed_seat": 2, "killed_identifiable": False, "killed_uncalled": 1500}
    game = {"variant": "holdem", "setting": "tournament", "structure": "no-limit", "blinds": [100, 200]}
    assert ruled(standard, deal(d, game=game), "dead-hand").effects["returned"] == 150000
    kept = ruled(standard, deal(d, game=game, params={"dead_hand.uncalled_returned": False}), "dead-hand")
    assert kept.effects["returned"] == 0 and "this house keeps it in the pot" in kept.sentence


STUD5 = [1, 2, 3, 4, 5]


@pytest.mark.parametrize("setting,d,params,ruling", [
    ("tournament", {"seventh_exposed_seat": 4, "betting_remains": True}, {}, "card-replaced"),     # TDA RP-10-B
    ("tournament", {"seventh_exposed_seat": 4, "betting_remains": False}, {}, "card-plays"),
    ("cash", {"seventh_exposed_seat": 4, "seventh_players": 4, "seventh_exposed_first": False}, {}, "card-plays"),
    ("cash", {"seventh_exposed_seat": 2, "seventh_players": 2, "seventh_exposed_first": True}, {}, "both-dealt-up"),
    ("cash", {"seventh_exposed_seat": 2, "seventh_players": 4, "seventh_exposed_first": True},
     {"stud.seventh_street_exposed": "wsop_cash"}, "all-dealt-up"),                              # WSOP C234
    ("cash", {"seventh_exposed_seat": 4, "seventh_exposed_all_in": True}, {}, "card-plays"),     # RRP stud r.16
])
def test_a_seventh_street_card_dealt_up(standard, setting, d, params, ruling):
    data = deal({**d, "noticed": "during_deal"}, game={"variant": "stud", "setting": setting}, button=None,
                params=params, players=STUD5)
    assert ruled(standard, data, "exposed-card").ruling == ruling


@pytest.mark.parametrize("cards,params,ruling", [
    (8, {}, "hand-dead"), (5, {}, "hand-dead"), (6, {}, "floor-decides"), (7, {}, None),
    (6, {"stud.min_cards_at_showdown": 6}, None), (6, {"dead_hand.stud_missing_final_card": "dead"}, "hand-dead"),
])
def test_a_stud_hand_of_the_wrong_size_at_the_showdown(standard, cards, params, ruling):
    """RRP stud r.18: eight or more cards kill a hand, fewer than seven too but for one missing its seventh card,
    which the floor may rule live; WSOP C235 lets six play."""
    data = deal({"showdown_cards": {2: cards}, "noticed": "after_action"}, game={"variant": "stud"}, button=None,
                params=params, players=[1, 2, 3])
    got = ruled(standard, data, "dead-hand")
    assert (got.ruling if got else None) == ruling


def test_a_request_for_a_new_deck(standard):
    """TDA 26: players may not ask for deck changes; WSOP C79 (cash): after two hours; a damaged card always."""
    d = {"deck_change_asked": True, "deck_damaged": False, "deck_minutes": 90}
    assert ruled(standard, deal(d, game=TOURNEY), "deck").ruling == "deck-stays"
    soon = ruled(standard, deal(d), "deck")
    assert soon.ruling == "deck-stays" and "30 minutes to go" in soon.sentence
    assert ruled(standard, deal({**d, "deck_minutes": 120}), "deck").ruling == "deck-changed"
    assert ruled(standard, deal({**d, "deck_damaged": True}, game=TOURNEY), "deck").ruling == "deck-changed"


def test_draw_games_exposed_and_short(standard):
    """RRP draw high r.3: a card exposed before the draw is kept; lowball r.9: one exposed on the draw is replaced
    after the draw goes round; r.11: a short hand after action draws to five."""
    six = [1, 2, 3, 4, 5, 6]
    kept = ruled(standard, deal({"first_card_seat": 1, "cards": exposed(8), "noticed": "during_deal"},
                                game={"variant": "draw"}, button=6, players=six), "exposed-card")
    assert kept.ruling == "card-plays" and "keeps the exposed card (card 8)" in kept.sentence
    assert ruled(standard, deal({"draw_exposed_seat": 3, "noticed": "during_deal"}, game={"variant": "lowball"},
                                button=6, players=six), "exposed-card").ruling == "card-replaced"
    short = ruled(standard, deal({"hands": {2: 4}, "noticed": "after_action",
                                  "actions": [{"seat": 3, "action": "call"}, {"seat": 4, "action": "raise"}]},
                                 game={"variant": "lowball"}, button=6, players=six), "card-count")
    assert short.ruling == "hand-plays" and "make five" in short.sentence


def test_all_three_first_stud_cards_up_is_a_misdeal(standard):
    """WSOP C218: cards 3, 11 and 19 of an eight-handed stud deal (seat 3's three) all dealt up."""
    d = {"first_card_seat": 1, "cards": [{"position": p, "how": "face_up", "by": "dealer"} for p in (3, 11, 19)],
         "noticed": "during_deal"}
    assert ruled(standard, deal(d, game={"variant": "stud"}, button=None, players=STUD8), "deal").ruling == "misdeal"


def test_every_house_parameter_of_section_26_for_the_deal_exists():
    """Inventory §26: each parameter for §20-§23 is declared, with a default per setting where they differ."""
    names = ["misdeal.window", "substantial_action.definition", "substantial_action.count_forced_bets",
             "misdeal.exposed_lead_cards", "misdeal.exposed_downcards_threshold", "exposed_downcard.single",
             "misdeal.boxed_cards_threshold", "misdeal.boxed_cards_scope", "boxed_card.single",
             "misdeal.extra_cards_threshold", "misdeal.wrong_card_count", "misdeal.nonstandard_card_before_sa",
             "redeal.absent_players_may_play", "redeal.penalty_hands_counted", "redeal.keep_button_and_level",
             "button.short_hand_complete_after_sa", "fouled_deck.extra_conditions",
             "fouled_deck.different_back_in_stub", "flop.four_card_flop", "flop.missing_burn",
             "premature.board_card", "burn.error_principle", "dropped_card.by_player", "card_off_table.by_dealer",
             "flashed_card.by_player", "deck.change_on_request", "dead_hand.retrieval", "dead_hand.uncalled_returned",
             "dead_hand.stud_missing_final_card", "protect_hand.definition", "stud.exposed_downcard_initial_deal",
             "stud.both_downcards_exposed", "stud.all_three_initial_exposed", "stud.seventh_street_exposed",
             "stud.premature_card", "stud.short_stub_required_cards", "stud.min_cards_at_showdown",
             "draw.five_card_draw_delivery", "draw.take_exposed_before_draw",
             "draw.initial_deal_exposed_misdeal_count"]
    book = STANDARD[0][0]
    assert not [n for n in names if n not in book.parameters]
    both = {n: book.parameters[n].default for n in ("misdeal.boxed_cards_scope", "deck.change_on_request",
                                                     "stud.seventh_street_exposed")}
    assert both == {"misdeal.boxed_cards_scope": {"cash": "anywhere_found", "tournament": "initial_deal"},
                    "deck.change_on_request": {"cash": "every_2_hours", "tournament": "never"},
                    "stud.seventh_street_exposed": {"cash": "rrp_keep_and_allin_option",
                                                    "tournament": "replace_if_action_remains"}}


@pytest.mark.parametrize("d,game,matter,ruling", [
    ({"duplicate_card": True, "noticed": "after_hand"}, None, "fouled-deck", "result-stands"),    # RRP-IRR-10
    ({"short_deck": True, "noticed": "after_hand"}, None, "fouled-deck", "result-stands"),
    ({"short_deck": True, "noticed": "after_action", "actions": [{"seat": 3, "action": "call"}]}, None,
     "fouled-deck", "hand-plays"),
    ({"rabbit_hunt_asked": True}, TOURNEY, "deck", "not-shown"),                                 # TDA 28
    ({"stub_dropped": True, "stub_order_known": True}, TOURNEY, "board", "stub-restored"),       # TDA RP-4
    ({"stub_dropped": True, "stub_order_known": False, "stub_mixed": True}, TOURNEY, "board", "new-stub"),
    ({"carried_pot_seat": [6], "noticed": "before_any_action"}, None, "deal", "not-dealt-in"),   # RRP-IRR-6
    ({"pushed_forward_seat": 3, "behind_acted": True}, None, "dead-hand", "hand-dead"),          # RRP-DEAD-1b
    ({"pushed_forward_seat": 3, "behind_acted": False}, None, "dead-hand", "hand-live"),
    ({"upcards_lifted_seat": 2, "facing_bet": True}, {"variant": "stud"}, "dead-hand", "hand-dead"),   # TDA 66
    ({"upcards_lifted_seat": 2, "facing_bet": False}, {"variant": "stud"}, "dead-hand", "hand-live"),  # RRP stud 10
    ({"away": [5], "noticed": "during_deal"}, {"variant": "stud"}, "dead-hand", "hand-dead"),   # RRP stud 6, RP-10-C
    ({"folded_no_bet_seat": 2}, {"variant": "stud"}, "deal", "still-dealt"),                    # RRP stud 7
    ({"call_refund_asked": True}, {"variant": "stud"}, "refund", "no-refund"),                  # RRP stud 19
    ({"draw_change_seat": 2, "draw_change_dealt": False, "draw_change_acted_on": False}, {"variant": "lowball"},
     "draw", "change-allowed"),                                                                # RRP lowball 12
    ({"draw_change_seat": 2, "draw_change_dealt": False, "draw_change_acted_on": True}, {"variant": "draw"},
     "draw", "change-refused"),                                                                # RRP draw 6
])
def test_the_deals_other_irregularities(standard, d, game, matter, ruling):
    data = deal(d, game=game, button=None if game and game.get("variant") == "stud" else 5,
                players=[1, 2, 3, 4, 5, 6])
    assert ruled(standard, data, matter).ruling == ruling


def test_stud_cards_taken_out_under_robert_and_dealt_again_under_the_tda(standard):
    """RRP stud r.14: fifth street dealt to seats 2 and 3 before seat 7 acted; seat 7 then folds: the 2 premature
    cards and one for each of the 4 left, 6 out of play. TDA RP-5-D: back into the stub, dealt again to the 4."""
    d = {"premature": "fifth", "premature_cards": 2, "players_in": 4, "noticed": "after_action",
         "actions": [{"seat": 2, "action": "bet"}, {"seat": 3, "action": "call"}, {"seat": 5, "action": "call"},
                     {"seat": 6, "action": "call"}]}
    stud = [2, 3, 5, 6, 7]
    rrp = ruled(standard, deal(d, game={"variant": "stud"}, button=None, players=stud), "board")
    assert "the 2 premature card(s) and 4 more, one for each player still in: 6 cards" in rrp.sentence
    tda = ruled(standard, deal(d, game={"variant": "stud", "setting": "tournament"}, button=None, players=stud),
                "board")
    assert "again to the 4 players still in, with no new burn (0 burned)" in tda.sentence


def test_a_void_hand_told_without_its_betting_names_the_amounts_the_actions_give(standard):
    """WSOP T88-D: a different-backed card in the stub before substantial action voids the hand; seat 3's raise to
    $20 goes back to him (the blinds to theirs)."""
    d = {"different_back": "stub", "noticed": "after_action", "actions": [{"seat": 3, "action": "raise", "to": 20}]}
    r = ruled(standard, deal(d, params={"fouled_deck.different_back_in_stub": "stands_after_sa"}), "fouled-deck")
    assert r.ruling == "hand-void" and "seat 3 $20 (and each blind and ante to the player who posted it)" in r.sentence
