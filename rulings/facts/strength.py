"""Hand strength at showdown: how good each seat's cards are, and whose are best (cards speak).

Pure: no I/O, no engine, no rulebooks. The cards come read and checked by
rulings/incident/cards.py (``Card``; its ``CardsError`` for too few cards or a
card there twice). Hand strength is pokerkit's evaluator (the field's
well-kept one; it is not written again here): the best five cards for high
hands, Omaha's exactly two of the seat's cards with three of the board,
ace-to-five lowball (aces low, straights and flushes do not count) and
deuce-to-seven lowball (aces high, straights and flushes count against the
hand). What the cards *mean* for a ruling (who may win, cards speak, a fouled
hand) is the rulebook's business, not this module's.

>>> board = read_cards("Ah Kh Qh 7c 2d")
>>> winners({1: read_cards("Jh Th"), 2: read_cards("As Ad")}, board, "high")
[1]
>>> strength(read_cards("As Ad"), board, "high").label
'Three of a kind'
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import total_ordering
from typing import Any, Iterable, Iterator, Mapping

from rulings.incident.cards import RANKS, Card, CardProblem, CardsError, cards_twice, placed_cards, read_cards

GAMES = ("high", "omaha", "ace-to-five", "deuce-to-seven", "eight-or-better", "omaha-eight-or-better")
LOW_HALF = {"omaha": "omaha-eight-or-better"}      # the low half of a high-low game: Omaha's, else any five cards


@total_ordering
@dataclass(frozen=True, eq=False)
class Strength:
    """How good a hand is at showdown in one game; a stronger hand compares greater.

    ``label`` is the hand's class as pokerkit names it (``Full house``;
    ``High card`` for most low hands), ``cards`` the five that play, highest
    rank first (aces low in ace-to-five).
    """

    game: str
    label: str
    cards: tuple[Card, ...]
    _hand: Any = field(repr=False)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Strength) or other.game != self.game:
            return NotImplemented
        return not (self._hand > other._hand or other._hand > self._hand)

    def __lt__(self, other: Strength) -> bool:
        if other.game != self.game:
            return NotImplemented
        return bool(other._hand > self._hand)

    def __hash__(self) -> int:
        return hash((self.game, self.label))

    def __str__(self) -> str:
        return f"{self.label} ({''.join(map(str, self.cards))})"


def _hands_module() -> Any:
    """pokerkit's hand evaluator (``pokerkit.hands``, with the lookups and card types it reads) without the
    rest of the package: ``import pokerkit`` also builds its game state machine, notation and analysis
    modules (about a fifth of its import), which a ruling never uses.

    The package's folder is entered without running its ``__init__`` for the length of this import, then
    forgotten, so a later ``import pokerkit`` runs it as usual and finds these very modules (the same
    classes) already loaded.
    """
    import importlib
    import importlib.util
    import sys
    if "pokerkit.hands" in sys.modules:
        return sys.modules["pokerkit.hands"]
    if "pokerkit" in sys.modules:
        return importlib.import_module("pokerkit.hands")
    spec = importlib.util.find_spec("pokerkit")
    if spec is None or not spec.submodule_search_locations:
        return importlib.import_module("pokerkit.hands")
    sys.modules["pokerkit"] = importlib.util.module_from_spec(spec)    # the package, its __init__ not run
    try:
        lookups = importlib.import_module("pokerkit.lookups")
        build = lookups.Lookup.__post_init__
        lookups.Lookup.__post_init__ = _not_yet     # the hand classes' tables, made empty at their import ...
        try:
            hands = importlib.import_module("pokerkit.hands")
        finally:
            lookups.Lookup.__post_init__ = build
        for kind in vars(hands).values():           # ... and each built on its first use
            shell = vars(kind).get("lookup") if isinstance(kind, type) else None
            if isinstance(shell, lookups.Lookup):
                kind.lookup = _OnFirstUse(kind, shell, build)
        return hands
    finally:
        del sys.modules["pokerkit"]


def _not_yet(self: Any) -> None:
    """A lookup's table not built at its making (``_OnFirstUse`` builds it)."""


class _OnFirstUse:
    """A hand class's lookup, built (by pokerkit's own ``__post_init__``) the first time the class reads it:
    importing ``pokerkit.hands`` builds all fourteen of its tables (about 0.23 s CPU), and a ruling uses at
    most the few its games need. Once built, the table replaces this on the class."""

    _lock = __import__("threading").Lock()

    def __init__(self, kind: type, shell: Any, build: Any):
        self.kind, self.shell, self.build = kind, shell, build

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        with self._lock:
            if vars(self.kind).get("lookup") is self:
                self.build(self.shell)
                self.kind.lookup = self.shell
        return self.shell


def _evaluator(game: str) -> Any:
    hands = _hands_module()
    return {"high": hands.StandardHighHand, "omaha": hands.OmahaHoldemHand, "ace-to-five": hands.RegularLowHand,
            "deuce-to-seven": hands.StandardLowHand, "eight-or-better": hands.EightOrBetterLowHand,
            "omaha-eight-or-better": hands.OmahaEightOrBetterLowHand}[game]


def strength(hole: Iterable[Card], board: Iterable[Card] = (), game: str = "high") -> Strength:
    """The strength of a seat's best five cards from its own cards and the board.

    ``game`` is one of GAMES. Raises ``CardsError`` when fewer than five
    cards are given (in Omaha: two in the hand, three on the board) or a card
    is there twice.

    >>> five = read_cards
    >>> strength(five("As2d3c4h5d"), game="ace-to-five") > strength(five("6d4c3h2dAs"), game="ace-to-five")
    True
    >>> str(strength(five("7s5d4c3h2d"), game="deuce-to-seven"))
    'High card (7s5d4c3h2d)'
    """
    if game not in GAMES:
        raise CardsError([CardProblem("game", f"no evaluator for '{game}'", "one of: " + ", ".join(GAMES))])
    hole, board = tuple(hole), tuple(board)
    problems = cards_twice(placed_cards("hole", hole) + placed_cards("board", board))
    if game.startswith("omaha") and (len(hole) < 2 or len(board) < 3):
        problems.append(CardProblem("hole" if len(hole) < 2 else "board", f"{len(hole)} cards in hand and "
                                    f"{len(board)} on the board", "Omaha plays two from the hand and three "
                                    "from the board"))
    elif len(hole) + len(board) < 5:
        problems.append(CardProblem("hole", f"{len(hole) + len(board)} cards", "at least five to make a hand"))
    if problems:
        raise CardsError(problems)
    try:
        hand = _evaluator(game).from_game("".join(map(str, hole)), "".join(map(str, board)))
    except ValueError:     # an eight-or-better low game: these cards make no low of eight or better
        raise CardsError([CardProblem("hole", "no five cards of eight or lower", "no low qualifies")]) from None
    order = "A23456789TJQK" if game in ("ace-to-five", *LOW_HALF.values(), "eight-or-better") else RANKS   # aces low
    cards = tuple(sorted((Card(c.rank.value, c.suit.value) for c in hand.cards),
                         key=lambda c: (order.index(c.rank), c.suit), reverse=True))
    if {c.rank for c in cards} == set("A2345") and "Straight" in hand.entry.label.value:
        cards = cards[1:] + cards[:1]      # a five-high straight: the ace plays low
    return Strength(game, hand.entry.label.value, cards, hand)


def board_plays_for_all(board: Iterable[str]) -> bool | None:
    """Hold'em: whether the five cards on the board are a hand that no two hole cards can beat, so that every
    player still in plays the board (a royal flush; four aces with a king): None when the board is not five
    cards. Each two cards left in the deck is tried (at most 1,081), stopping at the first that beats it.

    >>> board_plays_for_all("As Ks Qs Js Ts".split()), board_plays_for_all("Ah Kd 7c 4s 2h".split())
    (True, False)
    """
    from itertools import combinations
    cards = read_cards(" ".join(board))
    if len(cards) != 5:
        return None
    own = strength((), cards)
    deck = [c for c in read_cards(" ".join(r + s for r in RANKS for s in "shdc")) if c not in cards]
    return not any(strength(two, cards) > own for two in combinations(deck, 2))


def winners(hands: Mapping[int, Iterable[Card]], board: Iterable[Card] = (), game: str = "high") -> list[int]:
    """The seats whose hands are best (more than one on a tie), in seat order.

    Only the cards decide: which seats may win (who folded, who showed, a
    fouled hand) is for the rulebook to say before asking.

    >>> board = read_cards("Ks Qd 7h 4c 2s")
    >>> winners({1: read_cards("AhJc"), 2: read_cards("AdJs"), 3: read_cards("Kd3c")}, board)
    [3]
    >>> winners({1: read_cards("AhJc"), 2: read_cards("AdJs")}, board)
    [1, 2]
    """
    board = tuple(board)
    rated = {seat: strength(cards, board, game) for seat, cards in sorted(hands.items())}
    if not rated:
        return []
    best = max(rated.values())
    return [seat for seat, s in rated.items() if s == best]


HIGH_VARIANTS = ("holdem", "omaha", "stud", "other")   # the incident's variants read high


def best_high(hands: Mapping[int, Iterable[str]], board: Iterable[str], variant: str) -> tuple[tuple[int, ...], str] | None:
    """The seats whose tabled cards make the best high hand, and that hand in words (cards speak).

    None for a game read low, or when the cards make no five-card hand. Who
    wins the pot, and what a misread means, is for rulebooks/standard/showdown.yaml.

    >>> best_high({1: ("Ah", "Jc"), 2: ("Kd", "3c")}, ("Ks", "Qd", "7h", "4c", "2s"), "holdem")
    ((2,), 'one pair (Kd Ks Qd 7h 4c)')
    """
    if variant not in HIGH_VARIANTS or not hands:
        return None
    board = tuple(board)
    memo = _ONE_RULING.get()
    if memo is None:
        return _best_high(hands, board, variant)
    key = (tuple((seat, tuple(cards)) for seat, cards in hands.items()), board, variant)
    if key not in memo:
        memo[key] = _best_high(hands, board, variant)
    return memo[key]


_ONE_RULING: ContextVar[dict | None] = ContextVar("one_ruling", default=None)


@contextmanager
def one_ruling() -> Iterator[None]:
    """Within one ruling (its acts, its trial answers), the same tabled cards are ranked once.

    Ranking seven cards through pokerkit costs milliseconds, and a ruling with the pot unknown rules again
    under ten pots (``rulings/ruling/unknowns.py``) on the very same cards. What is kept is the answer for these
    cards only, for the life of the outermost ruling: nothing carries from one ruling to the next.
    """
    if _ONE_RULING.get() is not None:
        yield
        return
    token = _ONE_RULING.set({})
    try:
        yield
    finally:
        _ONE_RULING.reset(token)


def best_halves(hands: Mapping[int, Iterable[str]], board: Iterable[str], variant: str
                ) -> tuple[tuple[tuple[int, ...], str], tuple[tuple[int, ...], str] | None] | None:
    """A high-low game's two winners: the best high hand, and the best low of eight or better (None when no
    hand tabled makes one), each as its seats and the hand in words. None when the cards make no high hand.

    >>> board = ("Ks", "7d", "4c", "3h", "Kd")
    >>> best_halves({2: ("As", "2s", "Kc", "Qh"), 7: ("Ah", "2d", "9c", "9h")}, board, "omaha")
    (((2,), 'three of a kind (As Kc Ks 7d Kd)'), ((2, 7), 'low 7-4-3-2-A'))
    >>> best_halves({2: ("Ac", "Ts", "Kc", "Qh"), 7: ("Ah", "Td", "9c", "9h")}, board, "omaha")[1] is None
    True
    """
    high = best_high(hands, board, variant)
    if high is None:
        return None
    game = LOW_HALF.get(variant, "eight-or-better")
    common = read_cards("".join(board), "board") if board else ()
    rated = {}
    for seat, cards in hands.items():
        try:
            rated[seat] = strength(read_cards("".join(cards), f"hands.{seat}"), common, game)
        except CardsError:
            continue      # no qualifying low in these cards
    if not rated:
        return high, None
    best = max(rated.values())
    seats = tuple(sorted(s for s, v in rated.items() if v == best))
    return high, (seats, "low " + "-".join(c.rank for c in best.cards))


def _best_high(hands: Mapping[int, Iterable[str]], board: tuple, variant: str) -> tuple[tuple[int, ...], str] | None:
    game = "omaha" if variant == "omaha" else "high"
    try:
        common = read_cards("".join(board), "board") if board else ()
        rated = {seat: strength(read_cards("".join(cards), f"hands.{seat}"), common, game)
                 for seat, cards in hands.items()}
    except CardsError:
        return None          # too few cards to make a five-card hand
    best = max(rated.values())
    seats = tuple(sorted(s for s, v in rated.items() if v == best))
    made = best._hand
    return seats, f"{made.entry.label.value.lower()} ({' '.join(map(repr, made.cards))})"
