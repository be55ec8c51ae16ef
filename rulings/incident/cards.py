"""Card notation in one place: how a card is written, and the two readings of it.

Pure: no I/O, no engine, no rulebooks. A card is written rank then suit:
``Ah``, ``Td``, ``10d`` (the same card as ``Td``), ``7c``; ranks
``2 3 4 5 6 7 8 9 T J Q K A`` (``RANKS``) in either case, suits ``c d h s``
(``SUITS``). Two readings share it, each as its callers have always read
cards (they are not one parser, and a card one accepts the other may refuse):

- The incident's own fields keep cards as text (``card``, ``split_cards``):
  ``Td`` from ``Td``, ``10d`` or ``td``; a group as a list, spaced or
  comma-separated, or run together (``AhKd``); no suit symbols. The reader
  (rulings/incident/reader.py) reports what is wrong by line and column.
- Hand strength (rulings/facts/strength.py) takes ``Card`` values
  (``read_cards``, ``read_deal``), which also read the suit symbols
  ``♣ ♦ ♥ ♠``. Every problem names the field it was found in and says what
  would be legal, and all of them come back at once
  (``CardsError.problems``); no card may be there twice.

>>> card("10d"), split_cards("Ah, 7c")
('Td', ['Ah', '7c'])
>>> deal = read_deal(board="Ah Kh Qh 7c 2d", hands={1: "Jh Th", 2: "As Ad"})
>>> [str(c) for c in deal.board], [str(c) for c in deal.hands[1]]
(['Ah', 'Kh', 'Qh', '7c', '2d'], ['Jh', 'Th'])
"""
from __future__ import annotations

import re
from dataclasses import field
from typing import Any, Iterable, Mapping

from rulings.records import LazyFrozen, record

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_SYMBOLS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
_TOKEN = re.compile(r"10|[^\s,]")   # "10" is one rank; everything else is one character


# -- the incident's own fields: cards kept as text ----------------------------------------------------------

CARD_HINT = "a rank (2-9, T, J, Q, K, A) and a suit (c, d, h, s), e.g. Td or 2c"


def card(text: Any) -> str | None:
    """One card in our notation ('Td'), from 'Td', '10d' or 'td'; None when it is not a card."""
    t = str(text).strip()
    t = "T" + t[2:] if t[:2] == "10" else t
    if len(t) != 2 or t[0].upper() not in RANKS or t[1].lower() not in SUITS:
        return None
    return t[0].upper() + t[1].lower()


def split_cards(value: Any) -> list[str] | None:
    """Cards given as a list (['Ah', '7c']) or as text ('Ah 7c', 'Ah7c'); None when the shape is wrong."""
    if isinstance(value, list):
        return [str(v) for v in value]
    if isinstance(value, str):
        text = value.replace(",", " ").split()
        if len(text) == 1 and len(text[0]) > 3:
            return [text[0][i:i + 2] for i in range(0, len(text[0]), 2)]
        return text
    return None


# -- hand strength's cards: Card values, every problem by field --------------------------------------------

@record(frozen=True, order=True)
class Card(LazyFrozen):
    """One card: ``rank`` one of RANKS, ``suit`` one of SUITS.

    >>> Card("A", "h"), str(Card("T", "d"))
    (Card(rank='A', suit='h'), 'Td')
    """

    rank: str
    suit: str

    def __str__(self) -> str:
        return self.rank + self.suit


@record(frozen=True)
class CardProblem(LazyFrozen):
    """One thing wrong with the cards: the field it is in, what is wrong, what would be legal."""

    field: str
    message: str
    hint: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message} ({self.hint})"


class CardsError(ValueError):
    """Cards that cannot be read or cannot all be in one deck; ``problems`` lists every one."""

    def __init__(self, problems: list[CardProblem]):
        super().__init__("; ".join(map(str, problems)))
        self.problems = problems


def _card(text: str, where: str) -> Card | CardProblem:
    """One card from its notation, or the problem with it."""
    raw = text.strip()
    if len(raw) < 2:
        return CardProblem(where, f"'{raw}' is not a card", "a rank and a suit, e.g. Ah, Td, 10d")
    rank, suit = raw[:-1].upper(), raw[-1]
    suit = SUIT_SYMBOLS.get(suit, suit.lower())
    if rank == "10":
        rank = "T"
    if rank not in RANKS or len(rank) != 1:
        return CardProblem(where, f"'{raw}' has no rank '{raw[:-1]}'", "ranks: 2-9, T (or 10), J, Q, K, A")
    if suit not in SUITS:
        return CardProblem(where, f"'{raw}' has no suit '{raw[-1]}'", "suits: c, d, h, s")
    return Card(rank, suit)


def _split(value: Any, where: str) -> list[tuple[str, str]] | CardProblem:
    """The cards of a group as (notation, field) pairs: from a list, or from text run together or spaced."""
    if isinstance(value, (list, tuple)):
        items = []
        for i, item in enumerate(value):
            if not isinstance(item, str):
                return CardProblem(f"{where}[{i}]", f"{item!r} is not a card", "a card as text, e.g. Ah")
            items.append((item, f"{where}[{i}]"))
        return items
    if not isinstance(value, str):
        return CardProblem(where, f"{value!r} is not a list of cards", "cards as text (AhKd) or a list")
    tokens = _TOKEN.findall(value)
    # Run together, each card is a rank token then a suit character.
    if len(tokens) % 2:
        return CardProblem(where, f"'{value}' does not split into cards", "a rank and a suit per card, e.g. Ah Kd")
    cards = ["".join(tokens[i:i + 2]) for i in range(0, len(tokens), 2)]
    return [(c, f"{where}[{i}]") for i, c in enumerate(cards)]


def read_cards(value: Any, where: str = "cards") -> tuple[Card, ...]:
    """A group of cards (a board, a hand) read and checked; ``CardsError`` lists every problem.

    >>> [str(c) for c in read_cards("10d Jd, qd")]
    ['Td', 'Jd', 'Qd']
    >>> read_cards("AhKx", "board")
    Traceback (most recent call last):
    ...
    rulings.incident.cards.CardsError: board[1]: 'Kx' has no suit 'x' (suits: c, d, h, s)
    """
    cards, problems = _read(value, where)
    problems += cards_twice(cards)
    if problems:
        raise CardsError(problems)
    return tuple(card for card, _ in cards)


def _read(value: Any, where: str) -> tuple[list[tuple[Card, str]], list[CardProblem]]:
    """The cards of a group, each with the field it was read from, and the problems found."""
    split = _split(value, where)
    if isinstance(split, CardProblem):
        return [], [split]
    cards: list[tuple[Card, str]] = []
    problems: list[CardProblem] = []
    for text, at in split:
        card = _card(text, at)
        (problems.append(card) if isinstance(card, CardProblem) else cards.append((card, at)))
    return cards, problems


def placed_cards(where: str, cards: Iterable[Card]) -> list[tuple[Card, str]]:
    """Each card with where it stands in its field (``board[2]``), for ``cards_twice``."""
    return [(card, f"{where}[{i}]") for i, card in enumerate(cards)]


def cards_twice(cards: Iterable[tuple[Card, str]]) -> list[CardProblem]:
    """Every card that appears twice, naming both places."""
    seen: dict[Card, str] = {}
    problems = []
    for card, at in cards:
        if card in seen:
            problems.append(CardProblem(at, f"{card} is already at {seen[card]}", "a deck has one of each card"))
        else:
            seen[card] = at
    return problems


@record(frozen=True)
class Deal(LazyFrozen):
    """The cards of one hand: the board and each seat's cards (seat -> cards), none twice."""

    board: tuple[Card, ...] = ()
    hands: dict[int, tuple[Card, ...]] = field(default_factory=dict)


def read_deal(board: Any = (), hands: Mapping[int, Any] | None = None, *, board_field: str = "board",
              hands_field: str = "hands", max_board: int = 5) -> Deal:
    """A board and the seats' cards, read and checked together: every problem at once.

    >>> read_deal(board="Ah Kh Qh", hands={1: "AhKd", 2: "Q"})
    Traceback (most recent call last):
    ...
    rulings.incident.cards.CardsError: hands.2: 'Q' does not split into cards (a rank and a suit per card, e.g. Ah Kd); hands.1[0]: Ah is already at board[0] (a deck has one of each card)
    """
    board_cards, problems = _read(board, board_field)
    placed = list(board_cards)
    if len(board_cards) > max_board:
        problems.append(CardProblem(board_field, f"{len(board_cards)} cards on the board", f"at most {max_board}"))
    seats: dict[int, tuple[Card, ...]] = {}
    for seat, value in (hands or {}).items():
        cards, found = _read(value, f"{hands_field}.{seat}")
        problems += found
        placed += cards
        seats[seat] = tuple(card for card, _ in cards)
    problems += cards_twice(placed)
    if problems:
        raise CardsError(problems)
    return Deal(tuple(card for card, _ in board_cards), seats)
