"""Property tests: random legal hands keep the chips, the pot-limit formula and the side pots consistent."""
import random

from cash_params import CASH
from rulings.betting import Action, Game, Hand, Player, pot_limit_max, position, side_pots
from rulings.betting.pots import uncalled

HANDS = 300


def random_action(rng: random.Random, p, seat: int) -> Action:
    """A legal action for the seat, drawn from the Position's own numbers."""
    choices = ["fold"] + ["call"] * 4 + ["raise"] * 2 * p.can_raise
    kind = rng.choice(choices)
    if kind == "fold" and p.to_call == 0:
        kind = "call"
    if kind == "raise":
        high = p.max_raise_to if p.max_raise_to is not None else p.min_raise_to * 4
        return Action(seat, "raise", rng.randint(p.min_raise_to, high))
    return Action(seat, kind)


def play(rng: random.Random, structure: str) -> tuple[Hand, list]:
    """Play one hand to the end with random legal actions; return it and the Position before each action."""
    n = rng.randint(2, 6)
    players = tuple(Player(seat, rng.choice([None, rng.randint(1, 60) * 100])) for seat in range(1, n + 1))
    game = Game(structure, small_blind=50, big_blind=100, ante=rng.choice([0, 0, 10]))
    streets: list[list[Action]] = [[]]
    seen = []
    while True:
        hand = Hand(game, players, tuple(tuple(s) for s in streets))
        p = position(hand, CASH)
        if p.actor is None:
            if p.reason is not None or len(streets) == game.betting_rounds:
                return hand, seen
            streets.append([])
            continue
        seen.append(p)
        streets[-1].append(random_action(rng, p, p.actor))


def test_random_hands_keep_chips_and_formulas():
    rng = random.Random(20241009)
    for _ in range(HANDS):
        hand, seen = play(rng, rng.choice(["no-limit", "pot-limit"]))
        known = {pl.seat: pl.stack for pl in hand.players}
        for p in seen:
            # Chips are neither made nor lost: behind plus in the pot is what the seats started with.
            if all(stack is not None for stack in known.values()):
                assert sum(p.stacks.values()) + p.pot == sum(known.values())
            assert p.pot == p.pot_in_middle + sum(p.committed.values())
            assert p.to_call <= (p.stacks[p.actor] if p.stacks[p.actor] is not None else p.to_call)
            if p.can_raise:
                assert p.min_raise_to <= (p.max_raise_to if p.max_raise_to is not None else p.min_raise_to)
            if hand.game.structure == "pot-limit" and p.can_raise and p.street > 0:
                all_in = p.committed[p.actor] + (p.stacks[p.actor] or 0)
                formula = pot_limit_max(p.current_bet, p.pot, p.current_bet - p.committed[p.actor])
                assert p.max_raise_to in (formula, all_in, p.min_raise_to)


def test_side_pots_hold_every_called_chip():
    rng = random.Random(7)
    for _ in range(500):
        contributions = {seat: rng.randint(0, 20) * 25 for seat in range(rng.randint(2, 7))}
        folded = {seat for seat in contributions if rng.random() < 0.3}
        pots = side_pots(contributions, folded)
        _seat, back = uncalled(contributions)
        assert sum(pot.amount for pot in pots) + back == sum(contributions.values())
        # Each later pot has no more contenders than the one before, and never a folded seat.
        for earlier, later in zip(pots, pots[1:]):
            assert set(later.eligible) < set(earlier.eligible)
        assert all(not set(pot.eligible) & folded for pot in pots)
