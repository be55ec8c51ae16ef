"""positions() takes the usual actions by a shorter road than position(): both must give the same
Positions, and the same refusal at the same action, in every structure."""
import random

import pytest

from cash_params import CASH, cash_params
from rulings.betting import Action, BettingError, Game, Hand, Player, position, positions

GAMES = (
    Game("no-limit", small_blind=50, big_blind=100, ante=10),
    Game("pot-limit", small_blind=100, big_blind=200),
    Game("fixed-limit", small_blind=100, big_blind=200, bet_sizes=(200, 200, 400, 400)),
    Game("spread-limit", small_blind=100, big_blind=200, spread_min=100, bet_sizes=(600, 600, 1200, 1200)),
)


def legal_hand(rng: random.Random, game: Game, posts: bool) -> Hand:
    """A hand played to the end with legal actions drawn from position()'s own numbers, short stacks included."""
    seats = rng.sample(range(1, 11), rng.randint(2, 6))
    players = tuple(Player(seat, rng.choice([None, rng.randint(3, 12) * 100, rng.randint(20, 80) * 100]))
                    for seat in seats)
    streets: list[list[Action]] = [[]]
    if posts:
        sb, bb = (seats[1], seats[0]) if len(seats) == 2 else (seats[0], seats[1])
        streets[0] += [Action(sb, "post", game.small_blind), Action(bb, "post", game.big_blind)]
    while True:
        hand = Hand(game, players, tuple(map(tuple, streets)))
        p = position(hand, CASH)
        if p.actor is None:
            if p.reason is not None or len(streets) == game.betting_rounds:
                return hand
            streets.append([])
            continue
        roll = rng.random()
        if p.can_raise and roll < 0.3:
            high = p.max_raise_to if p.max_raise_to is not None else 4 * p.min_raise_to
            action = Action(p.actor, "raise", rng.randint(p.min_raise_to, high))
        elif p.to_call and roll < 0.45:
            action = Action(p.actor, "fold")
        else:
            action = Action(p.actor, rng.choice(["call", "check"]) if not p.to_call else "call")
        streets[-1].append(action)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.structure)
def test_one_pass_gives_the_positions_of_position_after_k(game: Game):
    rng = random.Random(game.structure)
    for number in range(40):
        hand = legal_hand(rng, game, posts=number % 2 == 0)
        seen = list(positions(hand, CASH))
        assert [index for index, _, _ in seen] == list(range(sum(map(len, hand.streets))))
        for index, _action, at in seen:
            assert position(hand, CASH, after=index) == at


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.structure)
def test_one_pass_refuses_what_position_refuses(game: Game):
    # The same hands with one action spoiled: a raise below the minimum or above the maximum, a call to
    # the wrong total, a check facing a bet, a post after the blinds: each refused alike both ways.
    rng = random.Random(f"spoiled {game.structure}")
    refused = 0
    for number in range(40):
        hand = legal_hand(rng, game, posts=number % 2 == 0)
        actions = [a for street in hand.streets for a in street]
        k = rng.randrange(len(actions))
        p = position(hand, CASH, after=k)
        seat = actions[k].seat
        spoiled = rng.choice([Action(seat, "raise", (p.min_raise_to or 200) - 1),
                              Action(seat, "raise", (p.max_raise_to or 10 ** 6) + 1),
                              Action(seat, "call", p.committed[seat] + p.to_call + 1),
                              Action(seat, "check"), Action(seat, "post", 500)])
        streets, at = [], 0
        for street in hand.streets:
            streets.append(tuple(spoiled if at + i == k else a for i, a in enumerate(street)))
            at += len(street)
        bad = Hand(game, hand.players, tuple(streets))
        try:
            list(positions(bad, cash_params()))
        except BettingError as one_pass:
            refused += 1
            with pytest.raises(BettingError) as replay:
                position(bad, cash_params(), after=one_pass.index + 1)
            assert (str(one_pass), one_pass.index, one_pass.seat, one_pass.field, one_pass.expected) == (
                str(replay.value), replay.value.index, replay.value.seat, replay.value.field, replay.value.expected)
        else:   # the spoiled action happened to be legal: then both ways agree on every Position
            assert all(position(bad, CASH, after=i) == at for i, _, at in positions(bad, CASH))
    assert refused >= 25
