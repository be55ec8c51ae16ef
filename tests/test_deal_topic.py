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
