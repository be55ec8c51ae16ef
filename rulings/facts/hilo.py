"""A high-low split game's showdown turned into facts: who has the best high, who the best low of eight or
better, and, where the pot is known, what each half holds and what each winner takes.

Pure arithmetic over the tabled cards (rulings/facts/strength.py ranks them) and the pot; whether the pot
is split, scooped or quartered is for rulebooks/standard/showdown.yaml. The halves are cut in whole smallest
chips, the odd chip of the cut on the high side (``split.odd_chip.hilo_total``, the only value the sources
give), and each half is shared among its tied winners the same way, an odd chip to each winner in turn from
the button's left. In stud a tie inside a half is settled by the cards, which the facts do not rank: its
shares are left out. Nothing here refuses.
"""
from __future__ import annotations

from typing import Any, Mapping

from rulings.incident.model import Incident
from rulings.money import SCALE, show


def hilo_facts(incident: Incident, facts: Mapping[str, Any], pots: int, setting: str) -> dict[str, Any]:
    """``facts``: those built so far, whose ``pot`` is the whole pot at the showdown (None when not known);
    ``pots``: how many pots there are (a side pot is halved on its own, among its own players: its shares are
    not worked out here)."""
    if not incident.inputs.get("high_low"):
        return {}
    pot = facts.get("pot")
    hands, board, variant = _tabled(incident)
    if not hands:
        return {}
    from rulings.facts.strength import best_halves    # pokerkit's evaluator, loaded only when hands are shown
    ranked = best_halves(hands, board, variant)
    if ranked is None:
        return {}
    (high, high_hand), low = ranked
    out: dict[str, Any] = {"hilo_high_seats": _seats(high), "hilo_high_hand": high_hand,
                           "hilo_low_qualifies": low is not None,
                           "hilo_low_seats": _seats(low[0]) if low else "no seat"}
    if low:
        out["hilo_low_hand"] = low[1]
    if not low and len(high) == 1:
        out["hilo_scoop_seat"] = high[0]
    if pot is None or pots > 1:
        return out
    order = [p.seat for p in incident.hand.players]        # from the button's left: the odd chips' order
    chip = _chip(incident, pot)
    if low:
        low_half = pot // chip // 2 * chip
        halves = [(pot - low_half, high), (low_half, low[0])]
        out.update(hilo_pot=pot, hilo_high_half=pot - low_half, hilo_low_half=low_half)
    else:
        halves = [(pot, high)]
    if variant in ("stud", "razz") and any(len(seats) > 1 for _, seats in halves):
        return out
    takes: dict[int, int] = {}
    for amount, seats in halves:
        for seat, share in _shares(amount, [s for s in order if s in seats], chip).items():
            takes[seat] = takes.get(seat, 0) + share
    out["hilo_shares_listed"] = ", ".join(f"seat {s} {show(takes[s], setting)}" for s in order if s in takes)
    return out


def _tabled(incident: Incident) -> tuple[dict[int, tuple[str, ...]], tuple[str, ...], str]:
    """The hands tabled and the board: the procedure's showdown, else the whole hand's."""
    p = incident.procedure
    variant = incident.inputs.get("variant", "holdem")
    if p is not None and "showdown" in p.raw and p.raw["showdown"].get("hands"):
        s = p.raw["showdown"]
        return dict(s["hands"]), tuple(s.get("board") or ()), variant
    log = incident.log
    if log is None:
        return {}, (), variant
    hands = {e.seat: tuple(e.cards) for e in log.showdown if e.kind in ("shows", "tables") and e.cards}
    if variant not in ("stud", "razz") and len(log.board) != 5:
        return {}, (), variant
    return hands, tuple(log.board), variant


def _chip(incident: Incident, pot: int) -> int:
    """The smallest chip the pot is cut in: as the floor gives it (``split.smallest_chip``), else the small blind
    (the bring-in in stud); one unit of money where that chip does not divide the pot."""
    game = incident.hand.game
    chip = (incident.split or {}).get("smallest_chip") or game.small_blind or game.bring_in or SCALE
    if pot % chip:
        chip = SCALE if pot % SCALE == 0 else 1
    return chip


def _shares(amount: int, seats: list[int], chip: int) -> dict[int, int]:
    """``amount`` shared equally in whole chips among ``seats`` (in order from the button's left), one odd chip
    each to the first ones; what is less than a chip goes with the first odd chip."""
    units = amount // chip
    each, odd = divmod(units, len(seats))
    out = {s: each * chip + (chip if i < odd else 0) for i, s in enumerate(seats)}
    out[seats[0]] += amount - units * chip
    return out


def _seats(seats: tuple[int, ...]) -> str:
    return ("seat " if len(seats) == 1 else "seats ") + " and ".join(map(str, seats))
