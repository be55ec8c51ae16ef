"""The deck's order in a deal (rulings/facts/deck.py): which card off the deck went where, counted by
arithmetic from the deal's facts (the top card of the deck now), and which card goes where from here, said by
the deal's rules themselves in their sentences (rulebooks/standard/deal.yaml): no sentence about the deck is
composed in Python. The numbers are the sources' worked ones (the rules
inventory §28: nine-handed hold'em, card 1 to the small blind, card 18 to the button)."""
from __future__ import annotations

from rulings.facts.deck import as_dealt
from rulings.incident import incident_from_data
from rulings.ruling.decide import rule_on

NINE = list(range(1, 10))


def test_a_normal_nine_handed_deal_ends_with_card_18_to_the_button():
    laid = as_dealt(NINE, 2, {}, set(), [], True)
    assert laid.holecards_last == 18 and laid.top == 19 and laid.next_street == "flop"
    assert laid.seat_cards[1] == [1, 10] and laid.seat_cards[9] == [9, 18]


def test_a_boxed_card_is_set_aside_and_every_later_card_moves_down_one(standard):
    """Inventory §28: one boxed card at position 10 of an 18-card deal: the next card takes its place."""
    laid = as_dealt(NINE, 2, {}, {10}, [], True)
    assert laid.boxed_in_deal == [10] and laid.seat_cards[1] == [1, 11] and laid.holecards_last == 19
    # a boxed card past the starting hands is met on the board: not one of the deal's; the rule's sentence
    # numbers every card from it on one place further down
    laid = as_dealt(NINE, 2, {}, {22}, [], True)
    assert laid.boxed_in_deal == [] and laid.top == 19
    said = _sentence(standard, {"first_card_seat": 1, "cards": [{"position": 22, "how": "boxed"}],
                                "noticed": "after_action"})
    assert "burn 19, then the flop cards 20, 21 and 23; the turn: burn 24, card 25" in said


def test_a_card_to_a_seat_comes_first_and_a_card_already_out_can_be_the_burn(standard):
    """Inventory §28: card 7 alone exposed, RRP: after card 18 that player gets the top card (19) and card 7 is
    the flop burn, so the flop is 20, 21 and 22 with no burn off the deck."""
    said = _sentence(standard, {"first_card_seat": 1, "cards": [{"position": 7, "how": "exposed", "by": "dealer"}],
                                "noticed": "during_deal"})
    assert ("Cards off the deck: card 19 to seat 7; no burn off the deck (the exposed card is the burn), then the "
            "flop cards 20, 21 and 22; the turn: burn 23, card 24; the river: burn 25, card 26.") in said
    # the button short one card after a 17-card deal gets card 18; the flop's burn is 19
    laid = as_dealt(NINE, 2, {9: 1}, set(), [], True)
    assert laid.top == 18 and laid.seat_cards == {}
    said = _sentence(standard, {"hands": {9: 1}, "noticed": "before_any_action"}, setting="tournament")
    assert "Cards off the deck: card 18 to seat 9; burn 19, then the flop cards 20, 21 and 22" in said


def test_the_board_as_dealt_and_the_stub_from_there(standard):
    """Inventory §28 (D29): a premature turn after a normal flop: burn 23, turn 24. RRP sets 24 aside and turns
    the next card after a burn (25, then 26); the river comes from the reshuffled stub with no burn."""
    laid = as_dealt(NINE, 2, {}, set(), [("flop", True, 3), ("turn", True, 1)], True)
    assert laid.board == [("flop", 19, [20, 21, 22]), ("turn", 23, [24])] and laid.top == 25
    said = _sentence(standard, {"first_card_seat": 1, "premature": "turn", "noticed": "before_any_action"})
    assert ("Cards off the deck: the turn: burn 25, card 26; the river from the stub shuffled again, with no burn "
            "(0 burned).") in said
    # TDA 39-B: a flop of 19, 20 and 21 with no burn, put right before any action: one of them is drawn as the
    # burn and card 22 completes the flop; the turn's burn is 23
    laid = as_dealt(NINE, 2, {}, set(), [("flop", False, 3)], True)
    assert laid.board == [("flop", None, [19, 20, 21])] and laid.top == 22
    said = _sentence(standard, {"first_card_seat": 1, "no_burn": "flop", "noticed": "before_any_action"},
                     setting="tournament")
    assert "Cards off the deck: the flop's third card is card 22; the turn: burn 23, card 24" in said
    # TDA 39-A: a four-card flop (burn 19, cards 20-23): one of the four is the turn's burn, the turn is card 24
    laid = as_dealt(NINE, 2, {}, set(), [("flop", True, 4)], True)
    assert laid.top == 24
    said = _sentence(standard, {"first_card_seat": 1, "flop_cards": 4, "noticed": "before_any_action"},
                     setting="tournament")
    assert "Cards off the deck: no burn off the deck, then the turn card 24; the river: burn 25, card 26." in said


def _sentence(standard, d: dict, setting: str = "cash", params: dict | None = None, players=NINE, button=9,
              variant: str = "holdem", game: dict | None = None) -> str:
    book, engine = standard
    data = {"game": {"variant": variant, "setting": setting, **(game or {})}, "players": players, "button": button,
            "procedure": {"deal": d}, "params": params or {}}
    rep = rule_on(incident_from_data(data), book, engine)
    return " ".join(r.sentence for r in rep.rulings)


def test_the_rulings_say_which_card_goes_where(standard):
    # RRP-EXPOSED-1: card 7 exposed in a nine-handed deal: card 19 to seat 7, the flop 20 to 22
    said = _sentence(standard, {"first_card_seat": 1, "cards": [{"position": 7, "how": "exposed", "by": "dealer"}],
                                "noticed": "during_deal"})
    assert "seat 7's cards in the deal: 7 and 16" in said and "card 19 to seat 7" in said and \
        "no burn off the deck (the exposed card is the burn), then the flop cards 20, 21 and 22" in said
    # the same under a room that leaves it to the floor: no deck line (the floor decides which card plays)
    said = _sentence(standard, {"first_card_seat": 1, "cards": [{"position": 7, "how": "exposed", "by": "dealer"}],
                                "noticed": "during_deal"}, params={"exposed_downcard.single": "floor_decides"})
    assert "Cards off the deck" not in said
    # RRP-IRR-7: one boxed card at position 10: card 11 takes its place, the starting hands end with 19
    said = _sentence(standard, {"cards": [{"position": 10, "how": "boxed"}], "noticed": "during_deal"})
    assert "card 11" in said and "end with card 19" in said and "burn 20, then the flop cards 21, 22 and 23" in said
    # TDA-2024-38: a hand of three cards killed after substantial action (eight-handed, 17 cards out): one burn,
    # card 18, and the flop 19 to 21 (never none on the idea that the extra card was the burn)
    said = _sentence(standard, {"hands": {6: 3}, "noticed": "after_action", "actions": [
        {"seat": 3, "action": "raise"}, {"seat": 4, "action": "fold"}, {"seat": 5, "action": "call"}]},
        setting="tournament", players=list(range(1, 9)), button=8)
    assert "burn 18, then the flop cards 19, 20 and 21" in said


def test_a_premature_street_is_dealt_again_with_no_burn(standard):
    # TDA RP-5-B: the turn goes back and the stub is reshuffled: 0 burns before the turn dealt again
    said = _sentence(standard, {"first_card_seat": 1, "premature": "turn", "noticed": "before_any_action"},
                     setting="tournament")
    assert "deals the turn again with no new burn" in said and "Cards off the deck" not in said
    # RRP r.4: card 24 set aside, burn 25, turn 26, the river from the reshuffled stub with no burn
    said = _sentence(standard, {"first_card_seat": 1, "premature": "turn", "noticed": "before_any_action"})
    assert "the turn: burn 25, card 26; the river from the stub shuffled again, with no burn" in said


def test_the_draw_in_order_with_a_five_card_draw():
    """Inventory §28 (RRP-DRAW-IRR-LB10): draw order A, B, C; A draws 5, B 2, C 3: A gets 4, B 2, C 3, then A his
    fifth. If C, the last to draw, takes 5: C gets 4, a card is burned, then C's fifth. WSOP: five in a row."""
    from rulings.facts.deck import draw_walk
    assert draw_walk([1, 2, 3], {1: 5, 2: 2, 3: 3}, 4) == (
        "The draw, its cards counted from the first after the burn: seat 1 cards 1, 2, 3 and 4 (4 of his 5); seat 2 "
        "cards 5 and 6; seat 3 cards 7, 8 and 9; then seat 1 the rest of his draw, card 10.")
    assert draw_walk([1, 2, 3], {1: 2, 2: 3, 3: 5}, 4).endswith(
        "seat 3 cards 6, 7, 8 and 9 (4 of his 5); a burn, card 10; then seat 3 the rest of his draw, card 11.")
    assert "seat 1 cards 1, 2, 3, 4 and 5; seat 2 cards 6 and 7" in draw_walk([1, 2, 3], {1: 5, 2: 2, 3: 3}, 5)


def test_a_lowball_card_exposed_before_the_draw(standard):
    """RRP lowball: limit ace-to-five keeps an exposed card of seven or lower; a nine is replaced after the
    35-card deal of seven players by card 36 and is the burn, so the draw starts at card 37."""
    d = {"first_card_seat": 1, "lowball_form": "ace_to_five", "noticed": "before_any_action",
         "cards": [{"position": 11, "how": "face_up", "by": "dealer", "card": "9c"}]}
    said = _sentence(standard, d, players=[1, 2, 3, 4, 5, 6, 7], button=7, variant="lowball",
                     game={"structure": "fixed-limit", "bet_sizes": [10, 20]})
    assert ("card 36 to seat 4; no burn off the deck (the exposed card is the burn), then the draw's first card is "
            "card 37") in said
    said = _sentence(standard, {**d, "cards": [{"position": 11, "how": "face_up", "by": "dealer", "card": "6s"}]},
                     players=[1, 2, 3, 4, 5, 6, 7], button=7, variant="lowball",
                     game={"structure": "fixed-limit", "bet_sizes": [10, 20]})
    assert "must take the exposed card (card 11)" in said and "card 36" not in said


def test_seventh_street_with_a_short_stub(standard):
    """Inventory §28 (TDA-2024-RP10H): seven players reach seventh: 42 cards and 3 burns used, stub 7; 9 needed;
    with the burns 10: scramble, burn one, deal seven, 2 left. Eight players: stub 1, 10 needed, 4 with the burns:
    scramble, burn, one common card, 2 left. Six players with a stub of 4: 8 needed, 7 with the burns, and the
    stub has three or more: burn the top card and turn the next as the common card."""
    said = _sentence(standard, {"seventh_players": 7, "noticed": "before_any_action"}, setting="tournament",
                     players=list(range(1, 8)), button=None, variant="stud")
    assert "The stub has 7 cards and seventh street needs 9" in said and "(10 cards)" in said and "2 are left" in said
    said = _sentence(standard, {"seventh_players": 8, "noticed": "before_any_action"}, setting="tournament",
                     players=list(range(1, 9)), button=None, variant="stud")
    assert "The stub has 1 cards and seventh street needs 10" in said and "(4)" in said and "2 are left" in said
    said = _sentence(standard, {"seventh_players": 6, "stub_cards": 4, "noticed": "before_any_action"},
                     setting="tournament", players=list(range(1, 9)), button=None, variant="stud")
    assert "burns the top card of the stub" in said and "needs 8" in said


def test_a_fact_read_only_inside_its_own_guard_does_not_stop_a_rule(standard):
    """A sentence may number the cards inside ``{% if deal_top_card | default(0) %}``: the rule still applies
    where the top card is not known (a deal told without the game's count of cards: no numbers, same ruling);
    a fact read outside such a block is still required."""
    from rulings.engine.rulesets import required
    book, _ = standard
    rule = book.rules["deal.one-exposed-card-replaced"]
    need = required(rule)
    assert "deal_top_card" not in need and {"deal_dealer_shown_seat", "deal_dealer_shown_first"} <= need
    # a game whose count of cards is not known ("other"): no top card, the same ruling with no numbers
    said = _sentence(standard, {"cards": [{"position": 3, "how": "flashed", "by": "player"}],
                                "noticed": "during_deal"}, variant="other")
    assert "stays in his hand and plays" in said and "Cards off the deck" not in said
    said = _sentence(standard, {"first_card_seat": 1, "cards": [{"position": 3, "how": "flashed", "by": "player"}],
                                "noticed": "during_deal"})
    assert "Cards off the deck: burn 19, then the flop cards 20, 21 and 22" in said
