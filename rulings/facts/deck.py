"""The deck's order in a deal, by arithmetic: which card off the deck went, or goes, where.

Cards are counted as the floor counts them: card 1 is the first card off the deck after the cut, and every
card that leaves the deck takes the next number (holecards, boxed cards set aside, burns, board cards). Two
parts:

- ``as_dealt``: the deal as the incident tells it (the seats in the deal order, the cards each gets, the
  cards each holds, the boxed cards found, the board dealt so far) laid out card by card: the last card of
  the starting hands, each seat's cards when the deal went round evenly, the board's cards, and the top card
  of the deck now.
- ``draw_walk``: the draw's cards by their numbers under a delivery (four in a row, or five), for the rule
  that chooses the delivery to read.

Nothing here decides what a card is for: which card becomes a burn, whether a street is dealt again and from
what, and the numbers of the cards still to come off the deck are said by the rules themselves
(rulebooks/standard/deal.yaml), from the top card of the deck (``deal_top_card``). Pure: no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass, field

BOARD = {"flop": 3, "turn": 1, "river": 1}   # a flop game's streets and their cards, in order
STREETS = tuple(BOARD)


@dataclass
class Dealt:
    """The deck as dealt so far."""
    holecards_last: int                        # the last card of the starting hands (boxed cards set aside counted)
    seat_cards: dict[int, list[int]] = field(default_factory=dict)   # each seat's cards, when the deal went round evenly
    boxed_in_deal: list[int] = field(default_factory=list)            # boxed cards found among the starting hands
    board: list[tuple[str, int | None, list[int]]] = field(default_factory=list)   # (street, its burn, its cards)
    top: int = 1                               # the top card of the deck now: the next one off it
    next_street: str | None = None             # the first street not dealt yet (a flop game), else None


def _take(pos: int, boxed: set[int]) -> int:
    """The next card off the deck after ``pos`` that is not a boxed card (a boxed card is set aside)."""
    pos += 1
    while pos in boxed:
        pos += 1
    return pos


def as_dealt(order: list[int], each: int, held: dict[int, int], boxed: set[int], board: list[tuple[str, bool, int]],
             flop_game: bool, known_order: bool = True) -> Dealt:
    """The deal laid out card by card. ``order``: the seats in the order the deal went round; ``each``: the
    cards the game deals each; ``held``: the cards a seat holds when the floor told it (the others hold
    ``each``: a deal still going on is taken to its end); ``boxed``: the cards found face up in the deck;
    ``board``: the streets dealt so far, in order, each with whether it was burned and how many cards it got.
    Each seat's cards are given only when ``known_order`` (the first card's seat or the button was told)."""
    total = sum(held.get(seat, each) for seat in order)
    even = known_order and all(held.get(seat, each) == each for seat in order)
    seat_cards: dict[int, list[int]] = {seat: [] for seat in order} if even else {}
    pos, found = 0, []
    for n in range(total):
        nxt = _take(pos, boxed)
        found += [p for p in range(pos + 1, nxt)]
        pos = nxt
        if even:
            seat_cards[order[n % len(order)]].append(pos)
    out = Dealt(holecards_last=pos, seat_cards=seat_cards, boxed_in_deal=found)
    streets = [s for s, _, _ in board]
    for street, burned, cards in board:
        burn = None
        if burned:
            pos = burn = _take(pos, boxed)
        got = []
        for _ in range(cards):
            pos = _take(pos, boxed)
            got.append(pos)
        out.board.append((street, burn, got))
    out.top = _take(pos, boxed)
    if flop_game:
        out.next_street = next((s for s in STREETS if s not in streets), None)
    return out


def _listed(cards: list[int]) -> str:
    if len(cards) == 1:
        return f"card {cards[0]}"
    return "cards " + ", ".join(map(str, cards[:-1])) + f" and {cards[-1]}"


def draw_walk(order: list[int], draws: dict[int, int], in_a_row: int) -> str:
    """The draw's cards, counted from 1 (the first card after the burn before the draw), seat by seat in the
    drawing order: no player gets more than ``in_a_row`` cards in a row; one who draws more gets the rest
    after everyone else has drawn, and if he is the last to draw, a card is burned before the rest."""
    pos, parts, owed = 0, [], []
    drawing = [seat for seat in order if draws.get(seat)]
    for seat in drawing:
        n = draws[seat]
        now = min(n, in_a_row)
        got = list(range(pos + 1, pos + now + 1))
        pos += now
        part = f"seat {seat} {_listed(got)}"
        if now < n:
            part += f" ({now} of his {n})"
            owed.append((seat, n - now))
        parts.append(part)
    for seat, rest in owed:
        if seat == drawing[-1]:     # the last to draw: a card is burned before the rest of his draw
            pos += 1
            parts.append(f"a burn, card {pos}")
        got = list(range(pos + 1, pos + rest + 1))
        pos += rest
        parts.append(f"then seat {seat} the rest of his draw, {_listed(got)}")
    return "The draw, its cards counted from the first after the burn: " + "; ".join(parts) + "."
