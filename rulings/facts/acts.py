"""Arithmetic facts about the disputed act: chip sizes, percentages of a call or a raise, and what came after.

Nothing here decides a ruling. It measures the act so that the rules in
rulebooks/standard/declarations.yaml and misdeclared-calls.yaml can decide:
percentages are whole numbers rounded down (TDA-2024-43A's 50% and RRP-NL-10's
80% are compared as whole percents, since the engine compares numbers as
doubles), money is in minor units.
"""
from __future__ import annotations

from typing import Any

from rulings.betting import Action
from rulings.incident.model import Incident, act_of

WAGERS = ("bet", "raise", "complete")


def percent(part: int, whole: int) -> int:
    """``part`` as a whole percent of ``whole``, rounded down.

    >>> percent(400, 600), percent(200, 600), percent(300, 600)
    (66, 33, 50)
    """
    return part * 100 // whole


def act_facts(incident: Incident, f: dict[str, Any], actor: int | None) -> dict[str, Any]:
    """Every arithmetic fact of the disputed act that the two topics' rules read."""
    d = act_of(incident)
    out: dict[str, Any] = {}
    out.update(_table(incident, actor, f))
    out.update(_chips(incident, f))
    out.update(_words(f))
    out.update(_prior(incident, f))
    out.update(d.flags)
    if d.words_first is not None:
        out["words_first"] = d.words_first
    if d.prior_pulled is not None:
        out["prior_pulled"] = d.prior_pulled
    if d.count_answer is not None:
        out["count_answer"] = d.count_answer
        out["count_wrong"] = d.count_answer != f["current_bet"]
    if d.hidden_chips is not None:
        out["hidden_chips"] = d.hidden_chips
    if d.dealer_took is not None:     # the dealer's record, kept apart from the player's words and chips
        out["dealer_took"] = d.dealer_took[0]
        if d.dealer_took[1] is not None:
            out["dealer_took_to"] = d.dealer_took[1]
    if "said_to" in f and "chips_to" in f:   # said_to: rulings/facts/said.py
        out["words_chips_differ"] = f["said_to"] != f["chips_to"]
        out["acted_on_chips"] = any(a.kind == "call" and a.to == f["chips_to"] for a in incident.after)
    return out


def skipped_seats(incident: Incident, actor: int | None) -> set[int]:
    """For an act out of turn, the seats still in whose turn came before it: from the seat due up to his own.

    Empty for an act in turn, for no act (no words, no chips) and when the seat due is unknown.
    """
    d = act_of(incident)
    hand, seat = incident.hand, d.seat
    folded = {a.seat for st in hand.streets for a in st if a.kind == "fold"}
    order = [p.seat for p in hand.players if p.seat not in folded]
    acted = d.said is not None or bool(d.motions)   # no words, no chips: no act
    if not acted or actor is None or actor == seat or actor not in order or seat not in order:
        return set()
    start, stop = order.index(actor), order.index(seat)
    return set(order[start:stop] if start < stop else order[start:] + order[:stop])


def before_noticed(incident: Incident, actor: int | None) -> list[Action]:
    """The actions after the disputed act that happened before it was noticed.

    For an act out of turn the action comes back to the skipped seats (TDA-2024-53): the first act by a skipped
    seat is where the mistake was caught, so it and everything after it are play that resumed in turn, not action
    to the skipped player's left that he let go by without objecting. For an act in turn: every action after it.
    """
    skipped = skipped_seats(incident, actor)
    out: list[Action] = []
    for a in incident.after:
        if a.seat in skipped:
            break
        out.append(a)
    return out


def _table(incident: Incident, actor: int | None, f: dict[str, Any]) -> dict[str, Any]:
    """Who is still in, whether the bet faced is the street's opening bet, what skipped seats did."""
    hand = incident.hand
    street = hand.streets[-1] if hand.streets else ()      # the act's street: the last the hand gives
    folded = {a.seat for st in hand.streets for a in st if a.kind == "fold"}
    order = [p.seat for p in hand.players if p.seat not in folded]
    wagers = [a for a in street if a.kind in WAGERS]
    preflop = incident.street == "preflop"
    out: dict[str, Any] = {"players_in_hand": len(order), "facing_opening_bet": len(wagers) == (0 if preflop else 1)}
    opening = hand.game.big_blind if preflop and not wagers else (wagers[0].to if wagers else None)
    if opening:
        out["opening_bet"] = opening
    skipped = skipped_seats(incident, actor)
    if skipped:
        # TDA-2024-53: a check, call or fold by a skipped seat leaves the action unchanged; a wager changes it
        out["out_of_turn_changed"] = any(a.seat in skipped and a.kind in WAGERS for a in incident.after)
        # What he faces when his turn comes: the highest street total the skipped seats' wagers reached.
        level = max([f.get("current_bet", 0)] + [a.to for a in incident.after
                                                 if a.seat in skipped and a.kind in WAGERS and a.to is not None])
        owed = max(level - f.get("committed", 0), 0)
        out["out_of_turn_to_call"] = owed if f.get("stack") is None else min(owed, f["stack"])
    return out


def _chips(incident: Incident, f: dict[str, Any]) -> dict[str, Any]:
    motions = act_of(incident).motions
    chips = [c for m in motions for c in m]
    if not chips:   # nothing short of a call went in: the named form of chips_short's absence, for the rules
        return {"chips_short_of_call": False}
    to, bet = f["chips_to"], f["current_bet"]
    increment = f["min_raise_to"] - bet if f.get("min_raise_to") is not None else 0
    out: dict[str, Any] = {"chip_largest": max(chips), "chip_smallest": min(chips),
                           "first_motion_to": f["committed"] + sum(motions[0])}
    if f.get("stack") is not None:
        out["chips_behind"] = f["stack"] - f["chips_total"]
    if to >= bet:
        out["chips_over_call"] = to - bet
    else:
        out["chips_short"] = bet - to
    out["chips_short_of_call"] = to < bet   # rules test it, not chips_short's absence
    if to > bet and increment > 0:
        out["chips_raise_percent"] = percent(to - bet, increment)
    if f.get("to_call"):
        out["call_percent"] = percent(f["chips_total"], f["to_call"])
    return out


def _words(f: dict[str, Any]) -> dict[str, Any]:
    """The raise the words name as a percent of a minimum raise (said_to itself: rulings/facts/said.py)."""
    kind = f.get("said_kind")
    out: dict[str, Any] = {}
    if kind is None:
        return out
    increment = f["min_raise_to"] - f["current_bet"] if f.get("min_raise_to") is not None else 0
    if f.get("said_amount_to", 0) > f["current_bet"] and increment > 0:
        out["said_raise_percent"] = percent(f["said_amount_to"] - f["current_bet"], increment)
    return out


def _prior(incident: Incident, f: dict[str, Any]) -> dict[str, Any]:
    """TDA-2024-46: chips of an earlier bet still in front, and the act judged with them as one stack."""
    d = act_of(incident)
    prior = d.prior_chips
    if not prior or "chips_total" not in f:
        return {"prior_chips_total": 0, "prior_covers_call": False, "prior_pulled": "none"} if "chips_total" in f else {}
    new = [c for m in d.motions for c in m]
    together = list(prior) + new
    total, bet = sum(together), f["current_bet"]
    increment = f["min_raise_to"] - bet if f.get("min_raise_to") is not None else 0
    out: dict[str, Any] = {"prior_chips_total": sum(prior), "prior_covers_call": sum(prior) >= bet,
                           "prior_pulled": "none", "combined_to": total,
                           "combined_every_chip_needed": total - min(together) < bet}
    if total > bet and increment > 0:
        out["combined_raise_percent"] = percent(total - bet, increment)
    return out
