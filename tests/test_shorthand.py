"""Floor shorthand (rulings/incident/shorthand.py): what floorpersons type, read exactly, and everything else said, not guessed."""
from decimal import Decimal

import pytest
from hypothesis import given, settings, strategies as st

from rulings.incident import shorthand as sh
from rulings.incident.shorthand import Unread


@pytest.mark.parametrize("text, value", [
    ("60", 60), ("$60", 60), ("1,000", 1000), ("$1,000", 1000), ("84.50", Decimal("84.50")), ("84.5", Decimal("84.5")),
    ("1k", 1000), ("1.5k", 1500), ("2.25K", 2250), ("0", 0), (".5", Decimal(".5")), ("$ 25", 25),
])
def test_amounts(text, value):
    got = sh.amount(text)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("text, says", [
    ("sixty", "not an amount"), ("-5", "not an amount"), ("84.505", "more than cents"), ("1.234567k", "more than cents"),
    ("", "not an amount"), ("1,00", "not an amount"), ("10000000000000", "largest amount"), ("$", "not an amount"),
])
def test_what_is_not_an_amount_is_said(text, says):
    with pytest.raises(Unread, match=says):
        sh.amount(text)


@pytest.mark.parametrize("text, value", [
    ("nl", "no-limit"), ("NL", "no-limit"), ("no limit", "no-limit"), ("No-Limit", "no-limit"),
    ("pl", "pot-limit"), ("pot limit", "pot-limit"), ("fl", "fixed-limit"), ("limit", "fixed-limit"),
    ("fixed", "fixed-limit"), ("spread", "spread-limit"), ("  nl ", "no-limit"),
])
def test_structures(text, value):
    assert sh.structure(text) == value


def test_a_misspelt_structure_is_named_with_the_closest_and_every_legal_answer():
    with pytest.raises(Unread) as e:
        sh.structure("pot limt")
    assert "did you mean 'pot limit'?" in e.value.message and "nl (no-limit)" in e.value.message
    with pytest.raises(Unread, match="one of nl"):
        sh.structure("limitless and more")


@pytest.mark.parametrize("text, parts", [
    ("nl 2/5", {"structure": "no-limit", "stakes": [2, 5]}),
    ("2/5 nl", {"stakes": [2, 5], "structure": "no-limit"}),
    ("$1/$2 nlhe", {"stakes": [1, 2], "structure": "no-limit", "variant": "holdem"}),
    ("plo 1/2", {"structure": "pot-limit", "variant": "omaha", "stakes": [1, 2]}),
    ("pot limit omaha $2/$5", {"structure": "pot-limit", "variant": "omaha", "stakes": [2, 5]}),
    ("no limit hold'em 1/3 tournament", {"structure": "no-limit", "variant": "holdem", "stakes": [1, 3],
                                         "setting": "tournament"}),
    ("limit 7 stud 10/20", {"structure": "fixed-limit", "variant": "stud", "stakes": [10, 20]}),
    ("razz", {"variant": "razz"}),
    ("fl 2-7 20/40", {"structure": "fixed-limit", "variant": "lowball", "stakes": [20, 40]}),
    ("nl 100/200 tourney", {"structure": "no-limit", "stakes": [100, 200], "setting": "tournament"}),
    ("NL 5/10/20", {"structure": "no-limit", "stakes": [5, 10, 20]}),
    ("nl, 2/5, cash game", {"structure": "no-limit", "stakes": [2, 5], "setting": "cash"}),
])
def test_a_game_line_in_any_order(text, parts):
    assert sh.game(text) == parts


@pytest.mark.parametrize("text, says", [
    ("nl pl 2/5", "structure twice"), ("plo holdem", "variant twice"), ("nl 2/5 1/2", "stakes twice"),
    ("nl 2/five", "'five' is not an amount"), ("nl 5/2", "small to large"), ("nl 0/2", "of 0"),
    ("noo limit 2/5", "'noo' in 'noo limit 2/5'"), ("nl 2/", "an amount on each side"), ("nl /5", "each side"), ("nl 1/2/4/8", "at most three"), ("", "the game, e.g."),
])
def test_a_game_line_that_says_two_things_or_an_unknown_word_is_refused(text, says):
    with pytest.raises(Unread, match=says):
        sh.game(text)


@pytest.mark.parametrize("text, value", [
    ("2/5", [2, 5]), ("$1/$2", [1, 2]), ("1-2", [1, 2]), ("1 2", [1, 2]), ("[1, 2]", [1, 2]), ("2", [2]),
    ("$0.25/$0.50", [Decimal("0.25"), Decimal("0.50")]), ("5/10/20", [5, 10, 20]), ("1k/2k", [1000, 2000]),
    ("$1,000/$2,000", [1000, 2000]), ("25/50 ", [25, 50]),
])
def test_stakes(text, value):
    assert sh.stakes(text) == value


@pytest.mark.parametrize("text, variant, value", [
    ("pre", None, "preflop"), ("pf", None, "preflop"), ("Preflop", "holdem", "preflop"), ("flop", None, "flop"),
    ("turn", "omaha", "turn"), ("river", None, "river"), ("3rd", "stud", "third"), ("5", "razz", "fifth"),
    ("7th street", "stud", "seventh"), ("before the draw", "lowball", "before-draw"), ("post-draw", None, "after-draw"),
])
def test_streets(text, variant, value):
    assert sh.street(text, variant) == value


def test_a_street_is_checked_against_the_game():
    with pytest.raises(Unread, match="a street of stud.*third"):
        sh.street("flop", "stud")
    with pytest.raises(Unread, match="not a street"):
        sh.street("3")      # a number is a stud street only when the game is known


@pytest.mark.parametrize("text, value", [("3", 3), ("seat 3", 3), ("Seat 10", 10), ("s4", 4), ("#2", 2), ("btn 6", 6),
                                         ("button 1", 1), (" 9 ", 9)])
def test_seats(text, value):
    assert sh.seat(text) == value


@pytest.mark.parametrize("text", ["0", "31", "three", "seat", "3 4", ""])
def test_what_is_not_a_seat(text):
    with pytest.raises(Unread):
        sh.seat(text)


@pytest.mark.parametrize("text, value", [
    ("1:1000 2:640 3:815", {1: 1000, 2: 640, 3: 815}),
    ("{1: 1000, 2: 640, 3: 815}", {1: 1000, 2: 640, 3: 815}),
    ("1=1k, 2=640", {1: 1000, 2: 640}),
    ("seat 1: 1,000 seat 4: 2,500", {1: 1000, 4: 2500}),
    ("1 1000, 2 640, 3 815", {1: 1000, 2: 640, 3: 815}),
    ("1 $1,000, 2 ?", {1: 1000, 2: None}),
    ("1-6", {n: None for n in range(1, 7)}),
    ("1 to 3", {1: None, 2: None, 3: None}),
    ("1 2 5", {1: None, 2: None, 5: None}),
    ("1, 2, 5", {1: None, 2: None, 5: None}),
    ("1:?, 2:500", {1: None, 2: 500}),
])
def test_players(text, value):
    assert sh.players(text) == value


@pytest.mark.parametrize("text, says", [
    ("1 1000 2 640", "give stacks with a colon"), ("1:1000 1:500", "seat 1 is given twice"), ("1-1", "goes up"),
    ("1:lots", "stack 'lots' is not an amount"), ("0:100", "numbered 1 to"), ("", "the seats in the hand"),
    ("a, b", "is not a seat"),
])
def test_what_is_not_seats_and_stacks(text, says):
    with pytest.raises(Unread, match=says):
        sh.players(text)


@pytest.mark.parametrize("text, value", [
    ("500", [500]), ("100 100 25", [100, 100, 25]), ("2x100 25", [100, 100, 25]), ("[500]", [500]),
    ("$1,000", [1000]), ("100, 25", [100, 25]), ("3X5", [5, 5, 5]),
])
def test_chips(text, value):
    assert sh.chips(text) == value


@pytest.mark.parametrize("text", ["100 0", "red", "0x100", ""])
def test_what_is_not_chips(text):
    with pytest.raises(Unread):
        sh.chips(text)


A = {"seat": 1, "action": "bet", "to": 50}
B = {"seat": 2, "action": "call"}


@pytest.mark.parametrize("text, value", [
    ("3 bet 60", [{"seat": 3, "action": "bet", "to": 60}]),
    ("seat 3 raises to 60", [{"seat": 3, "action": "raise", "to": 60}]),
    ("1 bet 50, 2 call", [A, B]),
    ("1 bet 50 2 call", [A, B]),
    ("1 bets 50; 2 calls", [A, B]),
    ("Seat 1 bets $50. Seat 2 calls.", [A, B]),
    ("s1 b 50, s2 c", [A, B]),
    ("1 bet 50 then 2 call", [A, B]),
    ("1 bet 1,000, 2 call", [{"seat": 1, "action": "bet", "to": 1000}, B]),
    ("1 bet 1k, 2 calls 1k", [{"seat": 1, "action": "bet", "to": 1000}, {"seat": 2, "action": "call", "to": 1000}]),
    ("2 call 4 fold", [B, {"seat": 4, "action": "fold"}]),     # 4 is the next seat, not a call of $4
    ("2 call 4", [{"seat": 2, "action": "call", "to": 4}]),
    ("1 x, 2 x, 3 bet 10", [{"seat": 1, "action": "check"}, {"seat": 2, "action": "check"},
                            {"seat": 3, "action": "bet", "to": 10}]),
    ("4 3-bets to 60", [{"seat": 4, "action": "raise", "to": 60}]),
    ("6 straddles 4", [{"seat": 6, "action": "post", "to": 4}]),
    ("3 brings it in for 5, 4 completes to 20", [{"seat": 3, "action": "bring-in", "to": 5},
                                                {"seat": 4, "action": "complete", "to": 20}]),
    ("5 limps, 6 folded", [{"seat": 5, "action": "call"}, {"seat": 6, "action": "fold"}]),
    ("#7 raise $84.50", [{"seat": 7, "action": "raise", "to": Decimal("84.50")}]),
    ("", []), ("none", []), ("-", []),
    ("1 bet 50\n2 call", [A, B]),
])
def test_actions(text, value):
    assert sh.actions(text) == value


@pytest.mark.parametrize("text, says", [
    ("1 bet", "how much"), ("3 raise", "how much"), ("2 shove 40", "'2 shove 40'"), ("3 all in", "an all-in is"),
    ("bet 60", "should start with the seat"), ("3 raise by 40", "not the raise by itself"), ("3", "what did seat 3"),
    ("3 check 40", "a check has no amount"), ("3 rasie 60", "did you mean 'raise'"), ("40 bet 60", "numbered 1 to"),
    ("3 bet sixty", "how much"),
])
def test_actions_that_cannot_be_read_are_said(text, says):
    with pytest.raises(Unread, match=says):
        sh.actions(text)


def test_a_wrong_action_names_its_place_in_the_line():
    with pytest.raises(Unread) as e:
        sh.actions("1 check, 2 bet 10, 3 rais 30")
    assert e.value.message.startswith("action 3 ('3 rais 30')")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_no_text_ends_in_anything_but_a_value_or_unread(text):
    for read in (sh.amount, sh.structure, sh.variant, sh.setting, sh.street, sh.stakes, sh.game, sh.seat, sh.players,
                 sh.chips, sh.actions):
        try:
            read(text)
        except Unread as exc:
            assert exc.message


NINE = [1, 2, 3, 4, 5, 6, 7, 8, 9]


@pytest.mark.parametrize("text, value", [
    # a full nine-handed table with the button on seat 9: SB 1, BB 2, UTG 3, UTG+1 4, ... LJ 6, HJ 7, CO 8
    ("UTG raises to 60, UTG+1 calls, the button calls", [{"seat": 3, "action": "raise", "to": 60},
                                                         {"seat": 4, "action": "call"}, {"seat": 9, "action": "call"}]),
    ("sb folds, BB calls", [{"seat": 1, "action": "fold"}, {"seat": 2, "action": "call"}]),
    ("small blind folds. big blind checks", [{"seat": 1, "action": "fold"}, {"seat": 2, "action": "check"}]),
    ("co raises to 15, hj folds, lj folds", [{"seat": 8, "action": "raise", "to": 15}, {"seat": 7, "action": "fold"},
                                             {"seat": 6, "action": "fold"}]),
    ("utg + 2 calls 5, seat 6 folds", [{"seat": 5, "action": "call", "to": 5}, {"seat": 6, "action": "fold"}]),
    ("btn raise 20 cutoff folds", [{"seat": 9, "action": "raise", "to": 20}, {"seat": 8, "action": "fold"}]),
])
def test_positions_name_seats_by_the_button(text, value):
    assert sh.actions(text, button=9, seats=NINE) == value


def test_positions_follow_the_button_round_the_seats_dealt_in():
    # the button on seat 4 of seats 2, 4, 6, 7, 9: SB 6, BB 7, UTG 9, then 2 (the cutoff), the button 4
    seats = [2, 4, 6, 7, 9]
    assert [sh.position_seat(p, 4, seats) for p in ("sb", "bb", "utg", "utg+1", "co", "btn")] == [6, 7, 9, 2, 2, 4]
    # heads-up the button is the small blind and there is no UTG
    assert sh.position_seat("sb", 3, [3, 8]) == 3 and sh.position_seat("bb", 3, [3, 8]) == 8
    with pytest.raises(Unread, match="heads-up"):
        sh.position_seat("utg", 3, [3, 8])
    # three-handed the button acts first preflop: he is UTG; no seat is UTG+1 (the blinds follow) or the cutoff
    assert sh.position_seat("utg", 3, [1, 2, 3]) == 3 and sh.position_seat("under the gun", 7, [2, 5, 7]) == 7
    assert sh.actions("UTG raises to 6, SB calls, BB folds", button=3, seats=[1, 2, 3]) == [
        {"seat": 3, "action": "raise", "to": 6}, {"seat": 1, "action": "call"}, {"seat": 2, "action": "fold"}]
    with pytest.raises(Unread, match=r"three-handed the button \(seat 3\) is UTG and the blinds come next; say SB"):
        sh.position_seat("utg+1", 3, [1, 2, 3])
    with pytest.raises(Unread, match="with 3 seats dealt in and the button on 3 there is no CO; give the seat"):
        sh.position_seat("co", 3, [1, 2, 3])
    # the button's seat not dealt in (a dead button on seat 4): the third seat after the blinds is UTG
    assert sh.position_seat("utg", 4, [1, 2, 3]) == 3
    assert sh.position_seat("utg+3", 9, NINE) == 6 and sh.position_seat("utg+5", 9, NINE) == 8
    with pytest.raises(Unread):
        sh.position_seat("utg+6", 9, NINE)   # that would be the button


@pytest.mark.parametrize("text, button, seats, says", [
    ("UTG raises to 60", None, NINE, "give the button and the seats"),
    ("the button calls", 5, [1, 2, 3, 4], "not dealt in"),
    ("mp calls", 9, NINE, "start with the seat or its position"),
])
def test_a_position_that_names_no_seat_is_said(text, button, seats, says):
    with pytest.raises(Unread, match=says):
        sh.actions(text, button=button, seats=seats)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40), st.one_of(st.none(), st.integers(-3, 40)), st.lists(st.integers(-3, 40), max_size=12))
def test_no_position_text_ends_in_anything_but_seats_or_unread(text, button, seats):
    try:
        got = sh.actions(text, button=button, seats=seats)
    except Unread as exc:
        assert exc.message
    else:
        assert all(isinstance(a["seat"], int) for a in got)
