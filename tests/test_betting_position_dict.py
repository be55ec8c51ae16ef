"""A replay writes each Position's __dict__ itself (arithmetic._position): it must be the one the
dataclass would make, so the Position equals one built by its constructor."""
from dataclasses import fields

from rulings.betting import Action, Game, Hand, Params, Player, Position, positions
from rulings.betting.model import STORED

PARAMS = Params(False, False, 0, "half_bet", 3, 4, "before_cap", False, True, "big_blind_first")


def test_a_replayed_position_is_the_dataclass_position():
    # $1/$2 pot-limit, three players: seat 3 raises the pot to $7 (OLR-PL-1); the small blind may then raise to $23 (pot $10, plus his $6 call), the big blind to $28.
    hand = Hand(Game("pot-limit", small_blind=100, big_blind=200), tuple(Player(s, 10000) for s in (1, 2, 3)),
                ((Action(3, "raise", 700), Action(1, "call"), Action(2, "fold")),))
    seen = [p for _, _, p in positions(hand, PARAMS)]
    assert [(p.actor, p.pot, p.to_call, p.min_raise_to, p.max_raise_to) for p in seen] == [
        (3, 300, 200, 400, 700), (1, 1000, 600, 1200, 2300), (2, 1600, 500, 1200, 2800)]
    for position in seen:
        assert tuple(position.__dict__) == STORED
        assert position == Position(**{f.name: getattr(position, f.name) for f in fields(Position)})
