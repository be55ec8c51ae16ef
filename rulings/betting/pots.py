"""Main and side pots from what each seat put in, with uncalled chips handed back."""
from __future__ import annotations

from rulings.betting.model import Money, SidePot


def uncalled(contributions: dict[int, Money]) -> tuple[int | None, Money]:
    """The seat whose chips nobody matched and how many, or ``(None, 0)``.

    Only the single largest contributor can have an uncalled excess: it is
    what he put in beyond the next largest amount, folded seats included
    (folded money was a call up to its level).

    >>> uncalled({1: 2000, 2: 500, 3: 2000})
    (None, 0)
    >>> uncalled({1: 8450, 2: 3500})
    (1, 4950)
    """
    amounts = list(contributions.values())
    if not amounts:
        return None, 0
    top = max(amounts)
    at = amounts.index(top)      # the first seat with the most, as a stable sort would rank it
    second = max(amounts[:at] + amounts[at + 1:], default=0)
    if top <= second:
        return None, 0
    return list(contributions)[at], top - second


def side_pots(contributions: dict[int, Money], folded: set[int] | frozenset[int],
              behind: dict[int, Money | None] | None = None) -> tuple[SidePot, ...]:
    """The main pot then each side pot, with the seats that may win it.

    Pots are cut at every level a live seat stopped at; folded money stays
    in the pots it reached but its seat is eligible for none; an uncalled
    excess is returned first and is in no pot. WIKI-SIDEPOT-1: a $20 open, a
    $5 all-in and a $20 call make a $15 main pot and a $30 side pot.

    >>> side_pots({1: 2000, 2: 500, 3: 2000}, set())
    (SidePot(amount=1500, eligible=(1, 2, 3)), SidePot(amount=3000, eligible=(1, 3)))

    ``behind`` (each seat's chips behind) is for a round still being bet: only
    an all-in seat's level is a cut, a live seat with chips left contests every
    pot (it may still call). At $1/$2 with the blinds in and a call of $2, one $5
    pot for all four seats, the one still to act included:

    >>> side_pots({1: 100, 2: 200, 3: 200, 4: 0}, set(), {1: 29900, 2: 29800, 3: 29800, 4: 30000})
    (SidePot(amount=500, eligible=(1, 2, 3, 4)),)
    """
    if behind is not None:
        return _open_pots(contributions, folded, behind)
    seat, excess = uncalled(contributions)
    paid = dict(contributions)
    if seat is not None:
        paid[seat] -= excess
    # Every pot's contenders are among the live seats that put chips in; sorted once, filtered per level.
    contenders = sorted(s for s, put in paid.items() if s not in folded and put > 0)
    levels = sorted({paid[s] for s in contenders})
    puts = list(paid.values())
    pots: list[SidePot] = []
    floor = 0
    for level in levels:
        # What each seat put in between floor and level (nothing from a seat that stopped at or below floor).
        amount = sum([(put if put < level else level) - floor for put in puts if put > floor])
        eligible = tuple([s for s in contenders if paid[s] >= level])
        if pots and pots[-1].eligible == eligible:
            # Two cuts with the same contenders are one pot: keep the listing minimal.
            pots[-1] = SidePot(pots[-1].amount + amount, eligible)
        else:
            pots.append(SidePot(amount, eligible))
        floor = level
    # Folded money above every live level (a folded raiser's chips) goes to the top pot.
    above = sum([put - floor for put in puts if put > floor])
    if above:
        if pots:
            pots[-1] = SidePot(pots[-1].amount + above, pots[-1].eligible)
        else:
            pots.append(SidePot(above, ()))
    return tuple(pots)


def _open_pots(contributions: dict[int, Money], folded: set[int] | frozenset[int],
               behind: dict[int, Money | None]) -> tuple[SidePot, ...]:
    """``side_pots`` while seats may still put chips in: cut only where a live seat is all in."""
    live = sorted(s for s in contributions if s not in folded)
    able = [s for s in live if behind.get(s) != 0]          # chips behind (or an unknown stack)
    seat, excess = uncalled(contributions)                  # not called yet: in no pot, as above
    paid = dict(contributions)
    if seat is not None:
        paid[seat] -= excess
    top = max(paid.values(), default=0)
    levels = sorted({paid[s] for s in live if s not in able and paid[s] < top} | {top})
    puts = list(paid.values())
    pots: list[SidePot] = []
    floor = 0
    for level in levels:
        amount = sum([(put if put < level else level) - floor for put in puts if put > floor])
        eligible = tuple([s for s in live if s in able or paid[s] >= level])
        if pots and pots[-1].eligible == eligible:
            pots[-1] = SidePot(pots[-1].amount + amount, eligible)
        elif amount or not pots:
            pots.append(SidePot(amount, eligible))
        floor = level
    return tuple(pots) if top else ()


def big_blind_ante_split(stack: Money, big_blind: Money, ante: Money, order: str) -> tuple[Money, Money]:
    """What a big blind with ``stack`` chips posts as his blind and as the big blind ante (``ante``), in the
    ``order`` the room takes them (``Params.bba_short_order``): ``big_blind_first`` (TDA 2024 RP-11) fills the
    blind first and the ante gets the rest; ``ante_first`` fills the ante first. A stack that covers both
    posts both in full.

    >>> big_blind_ante_split(300000, 200000, 200000, "big_blind_first")
    (200000, 100000)
    >>> big_blind_ante_split(300000, 200000, 200000, "ante_first")
    (100000, 200000)
    >>> big_blind_ante_split(900000, 200000, 200000, "ante_first")
    (200000, 200000)
    """
    if order == "ante_first":
        ante_posted = min(ante, stack)
        return min(big_blind, stack - ante_posted), ante_posted
    blind = min(big_blind, stack)
    return blind, min(ante, stack - blind)
