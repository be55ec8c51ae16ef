"""Ace-to-five lowball's sevens rule: the facts it reads, worked out from the hand as told.

Pure arithmetic on the hand, no rule's condition or verdict (rulebooks/standard/showdown.yaml decides): the
seat that checked after the draw holding a seven-low or better (read from the cards it tabled, ace-to-five:
aces low, straights and flushes do not count), whether that hand is the best low tabled, the pot as it stood
before the betting after the draw, and what each seat put in after the draw.
"""
from __future__ import annotations

from typing import Any

from rulings.betting import BettingError
from rulings.betting.arithmetic import position
from rulings.incident.model import Incident
from rulings.money import show
from rulings.records import evolve

AFTER = "after-draw"
SEVEN_OR_BETTER = frozenset("A234567")


def sevens_facts(incident: Incident, params: Any, facts: Any) -> dict[str, Any]:
    """The sevens rule's facts; none when the game is not lowball, the betting after the draw is not told, or no
    seat that checked after the draw tabled its cards."""
    log, whole = incident.log, incident.whole_hand or incident.hand
    if incident.inputs.get("variant") != "lowball" or log is None or AFTER not in log.streets:
        return {}
    i = log.streets.index(AFTER)
    if i >= len(whole.streets):
        return {}
    acts = whole.streets[i]
    shown = {e.seat: e.cards for e in log.showdown if e.kind in ("shows", "tables") and len(e.cards) == 5}
    checked = [a.seat for a in acts if a.kind == "check"]
    from rulings.facts.strength import strength   # pokerkit's evaluator, loaded only when hands are shown
    from rulings.incident.cards import CardsError, read_cards
    rated = {}
    for seat, cards in shown.items():
        try:
            rated[seat] = strength(read_cards("".join(cards), f"showdown.{seat}"), (), "ace-to-five")
        except CardsError:
            continue
    seven = next((s for s in dict.fromkeys(checked) if s in rated and rated[s].label == "High card"
                  and rated[s].cards[0].rank in SEVEN_OR_BETTER), None)
    if seven is None:
        return {}
    put: dict[int, int] = {}
    level = 0
    for a in acts:
        if a.kind in ("bet", "raise", "complete", "post") and a.to is not None:
            put[a.seat] = a.to
            level = max(level, a.to)
        elif a.kind in ("call", "all-in"):
            put[a.seat] = a.to if a.to is not None else level
    setting = incident.hand.game.setting
    out: dict[str, Any] = {
        "sevens_checked_seat": seven,
        "sevens_checked_hand": "-".join(c.rank for c in rated[seven].cards),
        "sevens_checker_best": all(rated[seven] >= v for v in rated.values()),
        "sevens_post_draw_total": sum(put.values()),
        "sevens_post_draw_players": len(put),
    }
    if put:
        out["sevens_post_draw_listed"] = ", ".join(f"seat {s} {show(v, setting)}" for s, v in put.items())
    if facts.get("pot") is not None:   # the pot before the draw's betting: the hand replayed up to that street
        try:
            pos = position(evolve(whole, streets=whole.streets[:i] + ((),)), params)
            out["sevens_pot_before_draw"] = pos.pot
        except BettingError:
            pass
    return out
