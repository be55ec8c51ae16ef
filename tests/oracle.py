"""pokerkit as an independent oracle: random no-limit and pot-limit hold'em hands and its numbers.

Each generated hand is played in pokerkit 0.7.7. Before every decision the
oracle records what pokerkit says (actor, pot with the bets in front, amount
to call, min and max raise-to); at the end it records the pots in card-room
terms. The hand is also written in the betting model's terms (``Hand``), so a
test can replay it through ``rulings.betting`` and compare.

The generator keeps to the cases where pokerkit's conventions are the card
room's (pokerkit's departures from card-room practice, listed here):

- no limit games (half-bet rule, cap counting), no straddles, and an ante only when everyone pays the same one;
- every blind poster has more than his blind and ante, so no short all-in blind;
- heads-up blinds are never equal (pokerkit then takes the button for the big blind);
- two departures about short all-ins cannot be avoided without losing short
  stacks, so the street is marked ``tainted`` from there on and a test must
  not compare *whether* a raise is allowed there (the amounts still agree):
  a short all-in wager made before anyone made a full bet on the street is
  counted as a full raise by pokerkit (it starts each street's raise size at
  0), while the card room measures it against the big blind (RRP-NL-3,
  TDA-2024-47A); and once several short all-ins have added up to a full
  raise, pokerkit starts counting again from zero, so after one more short
  all-in it refuses a raise to a player who faces more than a full raise in
  all (RRP-NL-5, TDA-2024-47A let him raise). On a tainted street the
  generator lets only a player who has not acted yet raise.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from pokerkit import (Automation, BetCollection, BettingStructure, Deck, Mode, NoLimitTexasHoldem, Opening,
                      StandardHighHand, State, Street)

from rulings.betting.model import Action, Game, Hand, Money, Player

AUTOMATIONS = (
    Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
)  # no showdown automation: the hand stops before any hand is evaluated, which is most of the cost
BLINDS: tuple[tuple[Money, Money], ...] = ((50, 100), (100, 200), (200, 500), (25, 50),
                                          (500, 1000), (100, 100), (1, 2))


def pot_limit_holdem(blinds: tuple[Money, Money], stacks: list[Money], ante: Money = 0) -> State:
    """A pokerkit state for pot-limit hold'em, which pokerkit has no class for.

    The streets are those of its no-limit hold'em with the big blind as every
    street's minimum bet; only the betting structure differs.

    >>> state = pot_limit_holdem((100, 200), [20000] * 4)
    >>> state.min_completion_betting_or_raising_to_amount, state.max_completion_betting_or_raising_to_amount
    (400, 700)
    """
    big = blinds[1]
    streets = (
        Street(False, (False, False), 0, False, Opening.POSITION, big, None),
        Street(True, (), 3, False, Opening.POSITION, big, None),
        Street(True, (), 1, False, Opening.POSITION, big, None),
        Street(True, (), 1, False, Opening.POSITION, big, None),
    )
    return State(AUTOMATIONS, Deck.STANDARD, (StandardHighHand,), streets,
                 BettingStructure.POT_LIMIT, True, ante, blinds, 0, stacks, len(stacks),
                 mode=Mode.CASH_GAME)


def no_limit_holdem(blinds: tuple[Money, Money], stacks: list[Money], ante: Money = 0) -> State:
    """A pokerkit state for no-limit hold'em with the big blind as the minimum bet."""
    return NoLimitTexasHoldem.create_state(AUTOMATIONS, True, ante, blinds, blinds[1], stacks,
                                           len(stacks), mode=Mode.CASH_GAME)


@dataclass(frozen=True)
class Decision:
    """What pokerkit says just before the action at ``index`` of the hand (posts counted)."""

    index: int
    seat: int
    street: int
    pot: Money
    to_call: Money           # pokerkit caps it at the actor's chips
    min_to: Money | None     # None: pokerkit allows no raise; capped at the actor's all-in total
    max_to: Money | None
    behind: Money            # the actor's chips behind
    committed: Money         # the actor's street total so far
    tainted: bool            # see the module docstring


@dataclass
class OracleHand:
    """One generated hand: the model's ``Hand``, pokerkit's decisions and its end pots."""

    number: int
    seed: int
    hand: Hand
    decisions: list[Decision] = field(default_factory=list)
    pots: list[tuple[Money, frozenset[int]]] = field(default_factory=list)  # card-room terms
    fold_win: bool = False
    # street -> (pot in the middle, chips behind of each live seat) when its betting begins
    street_starts: dict[int, tuple[Money, dict[int, Money]]] = field(default_factory=dict)

    def from_street(self, street: int) -> tuple[Hand, int] | None:
        """The hand told from ``street`` on (dead money in ``pot_before``), and how many actions
        came before; None when someone is already all-in, since the middle then holds pots that
        are not all dead money."""
        if street not in self.street_starts:
            return None
        pot, behind = self.street_starts[street]
        if len(behind) < 2 or not all(behind.values()):
            return None
        players = tuple(Player(p.seat, behind[p.seat]) for p in self.hand.players
                        if p.seat in behind)
        streets = self.hand.streets[street:]   # streets[0] is first_street's round
        skipped = sum(len(s) for s in self.hand.streets[:street])
        return Hand(game=self.hand.game, players=players, streets=streets, first_street=street,
                    pot_before=pot), skipped

    def describe(self) -> str:
        """Everything needed to replay the hand by hand."""
        game = self.hand.game
        lines = [f"hand #{self.number} (seed {self.seed}): {game.structure} "
                 f"{game.small_blind}/{game.big_blind} ante {game.ante}, "
                 "players in postflop order:",
                 "  " + ", ".join(f"seat {p.seat}: {p.stack}" for p in self.hand.players)]
        index = 0
        for street, actions in enumerate(self.hand.streets):
            lines.append(f"  street {street}:")
            for action in actions:
                lines.append(f"    [{index}] {action}")
                index += 1
        lines.append("  pokerkit decisions:")
        lines.extend(f"    {d}" for d in self.decisions)
        lines.append(f"  pokerkit pots (card-room terms): {self.pots}")
        lines.append(f"  Hand repr: {self.hand!r}")
        return "\n".join(lines)


def _stacks(rng: random.Random, n: int, big: Money, small: Money, ante: Money) -> list[Money]:
    stacks = []
    for _ in range(n):
        kind = rng.random()
        if kind < 0.3:
            stack = rng.randint(ante + big + 1, 6 * big)    # short: all-ins for less
        elif kind < 0.7:
            stack = rng.randint(10 * big, 60 * big)
        else:
            stack = rng.randint(80 * big, 300 * big)
        stacks.append(stack)
    # every blind poster keeps chips behind: pokerkit's short all-in blind is a departure
    for i in (0, 1):
        stacks[i] = max(stacks[i], ante + big + small + 1)
    return stacks


def _seats(rng: random.Random, n: int) -> list[int]:
    """Seat numbers as a real table has them: clockwise from the small blind, wrapping past 10."""
    seats = sorted(rng.sample(range(1, 11), n))
    turn = rng.randrange(n)
    return seats[turn:] + seats[:turn]


def _choose(rng: random.Random, state: State, may_raise: bool) -> tuple[str, Money | None]:
    """A random legal action, biased toward all-ins and short stacks going in."""
    to_call = state.checking_or_calling_amount or 0
    low = state.min_completion_betting_or_raising_to_amount
    high = state.max_completion_betting_or_raising_to_amount
    roll = rng.random()
    if to_call and roll < 0.16:
        return "fold", None
    if may_raise and low is not None and high is not None and roll > 0.7:
        pick = rng.random()
        if pick < 0.3:
            return "raise", low
        if pick < 0.55:
            return "raise", high
        return "raise", rng.randint(low, high)
    return "call", None


def generate(number: int, seed: int) -> OracleHand:
    """Generate and play one hand; ``seed`` alone reproduces it."""
    rng = random.Random(seed)
    n = rng.randint(2, 9)
    small, big = rng.choice(BLINDS)
    if n == 2 and small == big:
        # pokerkit finds the big blind by size, so with equal blinds heads-up it lets the
        # big blind act first preflop; the button acts first in a card room (TDA-2024-34).
        small = big // 2
    structure = rng.choice(("no-limit", "pot-limit"))
    # a quarter of the hands have an ante from everyone (dead money, in the pot from the start)
    ante = max(1, big // rng.choice((10, 8, 5, 4))) if rng.random() < 0.25 else 0
    stacks = _stacks(rng, n, big, small, ante)
    seats = _seats(rng, n)
    maker = no_limit_holdem if structure == "no-limit" else pot_limit_holdem
    state = maker((small, big), stacks, ante)
    streets: list[list[Action]] = [[]]
    # half the hands give the blinds as explicit posts (heads-up the button posts the small
    # blind first); the others leave them to be posted from the Game
    if rng.random() < 0.5:
        for i in (1, 0) if n == 2 else (0, 1):
            streets[0].append(Action(seats[i], "post", to=state.bets[i]))
    index = len(streets[0])
    decisions: list[Decision] = []
    starts: dict[int, tuple[Money, dict[int, Money]]] = {}
    tainted = summed = False  # summed: short all-ins have added up to a full raise on the street
    acted: set[int] = set()   # who has acted on this street (posting a blind is not acting)
    street = 0
    while state.actor_index is not None:
        if state.street_index != street:
            street = state.street_index
            streets.extend([] for _ in range(street + 1 - len(streets)))
            tainted = summed = False
            acted = set()
            starts[street] = (state.total_pot_amount, {seats[j]: state.stacks[j]
                                                       for j in range(n) if state.statuses[j]})
        i = state.actor_index
        decisions.append(Decision(
            index=index, seat=seats[i], street=street, pot=state.total_pot_amount,
            to_call=state.checking_or_calling_amount,
            min_to=state.min_completion_betting_or_raising_to_amount,
            max_to=state.max_completion_betting_or_raising_to_amount,
            behind=state.stacks[i], committed=state.bets[i], tainted=tainted))
        # On a tainted street only a player who has not acted yet may raise in both conventions.
        verb, to = _choose(rng, state, may_raise=not tainted or i not in acted)
        acted.add(i)
        if verb == "fold":
            state.fold()
            action = Action(seats[i], "fold")
        elif verb == "call":
            amount = state.checking_or_calling_amount
            action = (Action(seats[i], "call", to=state.bets[i] + amount) if amount
                      else Action(seats[i], "check"))
            state.check_or_call()
        else:
            assert to is not None
            increment = to - max(state.bets)
            all_in = to == state.stacks[i] + state.bets[i]
            full = state.completion_betting_or_raising_amount
            if all_in and full <= increment < big:
                tainted = True
            if all_in and increment < full:
                tainted = tainted or summed
                summed = summed or sum(state.consecutive_short_all_in_amounts) + increment >= full
            else:
                summed = False
            kind = "raise" if max(state.bets) else "bet"
            state.complete_bet_or_raise_to(to)
            action = Action(seats[i], kind, to=to)
        streets[street].append(action)
        index += 1
    hand = Hand(game=Game(structure=structure, small_blind=small, big_blind=big, ante=ante),
                players=tuple(Player(seat, stack) for seat, stack in zip(seats, stacks)),
                streets=tuple(tuple(s) for s in streets))
    result = OracleHand(number, seed, hand, decisions, street_starts=starts)
    result.fold_win, result.pots = _end_pots(state, seats)
    return result


def _end_pots(state: State, seats: list[int]) -> tuple[bool, list[tuple[Money, frozenset[int]]]]:
    """pokerkit's pots once betting is over, in card-room terms.

    pokerkit's fold-win quirk: when everyone else folds, the winner's own bet
    for that round never enters ``pots``. The card room puts the part of it
    that was called into the pot (the rest goes back to him), so it is added
    back here.
    """
    pots = [(pot.amount, frozenset(seats[i] for i in pot.player_indices)) for pot in state.pots]
    live = [i for i in range(state.player_count) if state.statuses[i]]
    if len(live) != 1:
        return False, merge(pots)
    winner = live[0]
    # the losers' bets of the last round are in the last collection; the winner's are still out
    collections = [op for op in state.operations if isinstance(op, BetCollection)]
    others = max(collections[-1].bets) if collections else 0
    called = min(state.bets[winner], others)
    pots.append((called, frozenset({seats[winner]})))
    return True, merge(pots)


def merge(pots: list[tuple[Money, frozenset[int]]]) -> list[tuple[Money, frozenset[int]]]:
    """Join pots with the same players (pokerkit joins neighbours; a room would call them one pot).

    >>> merge([(300, frozenset({1, 2})), (0, frozenset({2})), (50, frozenset({1, 2}))])
    [(350, frozenset({1, 2}))]
    """
    joined: dict[frozenset[int], Money] = {}
    for amount, players in pots:
        if amount:
            joined[players] = joined.get(players, 0) + amount
    return sorted(((a, p) for p, a in joined.items()), key=lambda pot: (-len(pot[1]), pot[0]))
