"""A big blind ante (TDA 2024 RP-11, inventory §31): a short big blind's chips split between his blind and the
ante in the room's order, and the pots, prices and pot-limit maximum that follow (the numbers of §28)."""
from __future__ import annotations

import pytest

from rulings.betting.pots import big_blind_ante_split
from rulings.facts.situation import build
from rulings.incident import incident_from_text
from rulings.ruling import books

# 500/1,000 with a 1,000 big blind ante; seat 3 is the big blind with 800; seat 4 calls, both others fold.
SHORT = """\
game: {variant: holdem, structure: no-limit, setting: tournament, blinds: [500, 1000], big_blind_ante: 1000}
button: 1
players: {1: 50000, 2: 50000, 3: 800, 4: 50000}
street: preflop
actions: [{seat: 4, action: call}, {seat: 1, action: fold}, {seat: 2, action: fold}]
disputed: {seat: 3}
"""


def facts_of(text: str) -> dict:
    incident = incident_from_text(text, "hand.yaml")
    book = books.load(None, compile=False)[0]
    return build(incident, book.param_values(incident.hand.game.setting, dict(incident.params))).facts


@pytest.mark.parametrize("stack, order, split", [
    (800, "big_blind_first", (800, 0)),        # Card Player's 800 case
    (800, "ante_first", (0, 800)),
    (1100, "big_blind_first", (1000, 100)),    # the thepokerdude case
    (1100, "ante_first", (100, 1000)),
    (1000, "big_blind_first", (1000, 0)),      # exactly a blind: nothing left for the ante
    (1000, "ante_first", (0, 1000)),
    (2000, "ante_first", (1000, 1000)),        # both covered: the order does not matter
    (2000, "big_blind_first", (1000, 1000)),
    (0, "big_blind_first", (0, 0)),
])
def test_the_split_follows_the_rooms_order(stack, order, split):
    assert big_blind_ante_split(stack, 1000, 1000, order) == split


def test_blind_first_the_800_is_a_live_blind_and_the_callers_extra_200_returns():
    f = facts_of(SHORT)
    assert (f["bba_blind_posted"], f["bba_ante_posted"], f["bba_short"]) == (80000, 0, True)
    assert f["main_pot"] == (500 + 800 + 800) * 100
    assert f.get("side_pot_count", 0) == 0
    assert (f["uncalled_seat"], f["uncalled_amount"]) == (4, 200 * 100)


def test_ante_first_the_800_is_dead_and_the_rest_is_the_callers_alone():
    f = facts_of(SHORT + "params: {ante.bba_short_order: ante_first}\n")
    assert (f["bba_blind_posted"], f["bba_ante_posted"]) == (0, 80000)
    assert f["main_pot"] == 800 * 100                       # all the big blind can win
    # the small blind's 500 and the caller's 1,000 go back to the caller: 1,000 in a pot only he is in, 500 uncalled
    assert f["side_pots_total"] + f["uncalled_amount"] == 1500 * 100 and f["uncalled_seat"] == 4
    assert "side pot 1 1,000 (seat 4)" in f["pots_listed"]


def test_a_short_big_blind_does_not_lower_the_price_to_call():
    f = facts_of(SHORT.replace("actions: [{seat: 4, action: call}, {seat: 1, action: fold}, {seat: 2, action: fold}]\n",
                               "").replace("disputed: {seat: 3}", "disputed: {seat: 4, said: call}"))
    assert (f["to_call"], f["min_raise_to"]) == (1000 * 100, 2000 * 100)


def test_full_stacks_the_ante_is_dead_money_under_the_live_blind():
    f = facts_of("""\
game: {variant: holdem, structure: no-limit, setting: tournament, blinds: [1000, 2000], big_blind_ante: 2000}
button: 1
players: {1: 90000, 2: 90000, 3: 90000, 4: 90000}
street: preflop
disputed: {seat: 4, said: call}
""")
    assert (f["pot"], f["to_call"], f["min_raise_to"], f["bba_short"]) == (500000, 200000, 400000, False)


@pytest.mark.parametrize("bba, bb_stack, pot_raise", [
    (", big_blind_ante: 200", 9000, 900),
    ("", 9000, 700),
    (", big_blind_ante: 200", 250, 750),      # blind first: 200 blind, 50 ante, the 50 posted is what counts
])
def test_the_pot_limit_pot_counts_the_ante(bba, bb_stack, pot_raise):
    f = facts_of(f"""\
game: {{variant: omaha, structure: pot-limit, setting: tournament, blinds: [100, 200]{bba}}}
button: 1
players: {{1: 9000, 2: 9000, 3: {bb_stack}, 4: 9000}}
street: preflop
disputed: {{seat: 4, said: pot}}
""")
    assert f["max_raise_to"] == pot_raise * 100


def test_the_whole_hand_form_keeps_the_ante_due_not_the_part_posted():
    f = facts_of(SHORT.replace("players: {1: 50000, 2: 50000, 3: 800, 4: 50000}", "players: {1: 50000, 2: 50000, 3: 1100, 4: 50000}")
                 .replace("street: preflop\nactions:", "streets:\n  - street: preflop\n    actions:"))
    assert (f["big_blind_ante"], f["bba_blind_posted"], f["bba_ante_posted"]) == (100000, 100000, 10000)
    assert f["main_pot"] == 2600 * 100
