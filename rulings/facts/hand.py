"""Facts of the whole hand around the disputed act: the other acts, the board, stud boards, showdown, pot winners.

Nothing here decides a ruling or refuses: the reader (rulings/incident/) has
checked the hand. These are definitions the topic files may read: how many
acts are in dispute and whose, which stud board acts first on the street,
who showed, mucked, tabled or declared what, in order, and who won which pot.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from rulings.betting import Params
from rulings.incident.hand import pair_showing
from rulings.incident.model import Incident, ShowdownEvent


def _seats(seats: list[int]) -> str:
    return " and ".join(map(str, seats))


def showing_key(cards: tuple[str, ...], ace_low: bool) -> tuple:
    """The strength of the upcards showing (pairs and trips by rank, then the ranks), ace high or low.

    Four cards or fewer make no straight or flush for the order of action, so
    only the groups of equal rank and the ranks count.
    """
    order = "A23456789TJQK" if ace_low else "23456789TJQKA"
    counts = Counter(order.index(c[0]) for c in cards)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    return tuple(n for _, n in groups), tuple(v for v, _ in groups)


def _showing(incident: Incident, street: str) -> tuple[list[int], dict[int, tuple[str, ...]]]:
    """Stud after third street: the seats still in that show cards, in the hand's order, and each one's upcards
    up to this street (none before fourth street or without a told log)."""
    log = incident.log
    if log is None or street not in log.streets or log.streets.index(street) == 0:
        return [], {}
    upto = log.streets[:log.streets.index(street) + 1]
    folded = {a.seat for st in incident.hand.streets[:-1] for a in st if a.kind == "fold"}
    showing: dict[int, tuple[str, ...]] = {}
    for name in upto:
        for seat, cards in log.upcards.get(name, {}).items():
            showing[seat] = showing.get(seat, ()) + cards
    return [p.seat for p in incident.hand.players if p.seat in showing and p.seat not in folded], showing


def board_first_seat(incident: Incident, street: str) -> int | None:
    """Stud after third street: the seat whose showing cards act first (razz: the lowest; ties: nearest the
    dealer's left, i.e. first in the hand's order)."""
    order, showing = _showing(incident, street)
    if not order:
        return None
    razz = incident.inputs.get("variant") == "razz"
    keys = {s: showing_key(showing[s], ace_low=razz) for s in order}
    best = min(keys.values()) if razz else max(keys.values())
    return next(s for s in order if keys[s] == best)


def board_order(incident: Incident, street: str) -> dict[str, Any]:
    """Stud after third street, before anyone has acted on the street: the boards that tie for the first act.

    The facts a first-to-act rule reads when boards tie (TDA-2024-RP10D against RRP's position rule): the tied
    seats in the hand's order, the first of them by position (``board_first_seat``), and the one holding the
    highest card by rank then suit (ace low in razz; spades, hearts, diamonds, clubs, as ``card_order`` ranks
    them). Which of them acts is the book's parameter, decided in rulebooks/standard/bring-in.yaml."""
    from rulings.facts.round import card_order
    order, showing = _showing(incident, street)
    if len(order) < 2:
        return {}
    razz = incident.inputs.get("variant") == "razz"
    keys = {s: showing_key(showing[s], ace_low=razz) for s in order}
    best = min(keys.values()) if razz else max(keys.values())
    tied = [s for s in order if keys[s] == best]
    out: dict[str, Any] = {"board_tie": len(tied) > 1, "street_acts_before": len(incident.hand.streets[-1])}
    if incident.disputed is not None:
        out["board_first_disputed"] = incident.disputed.seat == tied[0]
    if len(tied) > 1:
        out["board_tied_seats"] = _seats(tied)
        out["board_first_by_suit"] = max(tied, key=lambda s: max(card_order(c, ace_low=razz) for c in showing[s]))
    return out


def showing_first(incident: Incident, seats: list[int]) -> int | None:
    """Stud at the showdown: of ``seats``, the one whose upcards (every street's the whole-hand form gives, or
    the first round's ``upcards:``) make the best hand showing (razz: the lowest); ties go to the first in the
    hand's order. None when a seat's upcards are not all given."""
    log = incident.log
    showing: dict[int, tuple[str, ...]] = {}
    if log is not None and log.upcards:
        for street in log.streets:
            for seat, cards in log.upcards.get(street, {}).items():
                showing[seat] = showing.get(seat, ()) + cards
    else:
        showing = {seat: (card,) for seat, card in incident.upcards.items()}
    order = [p.seat for p in incident.hand.players if p.seat in seats]
    if not order or any(seat not in showing for seat in order):
        return None
    razz = incident.inputs.get("variant") == "razz"
    keys = {s: showing_key(showing[s], ace_low=razz) for s in order}
    best = min(keys.values()) if razz else max(keys.values())
    return next(s for s in order if keys[s] == best)


def open_pair_seat(incident: Incident) -> int | None:
    """Stud's fourth street: the first seat still in (in the hand's order) whose two upcards are a pair, from the
    whole-hand form's third- and fourth-street upcards; None when none shows one or the upcards are not given."""
    log = incident.log
    if log is None or incident.street != "fourth" or not {"third", "fourth"} <= set(log.upcards):
        return None
    folded = {a.seat for st in incident.hand.streets[:-1] for a in st if a.kind == "fold"}
    return pair_showing([p.seat for p in incident.hand.players], log.upcards, folded)


def _showdown(events: tuple[ShowdownEvent, ...], board: tuple[str, ...], variant: str, high_low: bool) -> dict[str, Any]:
    if not events:
        return {}
    shown = [e.seat for e in events if e.kind in ("shows", "tables")]
    mucked = [e.seat for e in events if e.kind == "mucks"]
    out: dict[str, Any] = {"showdown_events": len(events),
                           "showdown_shown_seats": _seats(list(dict.fromkeys(shown))) or "none",
                           "showdown_mucked_seats": _seats(list(dict.fromkeys(mucked))) or "none"}
    if shown:
        out["showdown_first_seat"] = shown[0]
    declared = [f"{e.seat} {e.declares}" for e in events if e.kind == "declares"]
    if declared:
        out["showdown_declarations"] = ", ".join(declared)
    hands = {e.seat: e.cards for e in events if e.kind in ("shows", "tables") and e.cards}
    if hands and len(board) == 5 and not high_low:   # cards speak: the best high hand (high-low: rulings/facts/hilo.py)
        from rulings.facts.strength import best_high   # pokerkit's evaluator, loaded only when hands are shown
        ranked = best_high(hands, board, variant)
        if ranked is not None:
            out["showdown_best_seats"] = _seats(list(ranked[0]))
            out["showdown_best_hand"] = ranked[1]
    return out


def bba_facts(incident: Incident) -> dict[str, Any]:
    """A big blind ante's posts (the reader split a short big blind's chips in the room's order): who posted,
    his chips before posting, his blind and his ante as posted, and whether he was short of both."""
    if not incident.bba_posts:
        return {}
    seat, stack, blind, ante, _order, due = incident.bba_posts
    return {"big_blind_ante": due, "bba_seat": seat, "bba_stack": stack, "bba_blind_posted": blind,
            "bba_ante_posted": ante, "bba_short": stack < incident.hand.game.big_blind + due}


def hand_facts(incident: Incident, params: Params) -> dict[str, Any]:
    """The whole-hand facts (empty for a one-street incident with one act)."""
    out: dict[str, Any] = {}
    if len(incident.acts) > 1:
        out["disputed_acts"] = len(incident.acts)
        out["later_act_seats"] = _seats([a.disputed.seat for a in incident.acts[1:]])
    log = incident.log
    if log is None:
        return out
    out["streets_played"] = len(log.streets)
    if log.board:
        out["board_cards"] = len(log.board)
    if log.big_blind_ante:
        out["big_blind_ante"] = log.big_blind_ante
    first = board_first_seat(incident, incident.street)
    if first is not None:
        out["board_first_seat"] = first
        out.update(board_order(incident, incident.street))
    pair = open_pair_seat(incident)
    if pair is not None:
        out["open_pair_seat"] = pair
    if incident.inputs.get("variant") in ("stud", "razz") and incident.street == "fourth" \
            and {"third", "fourth"} <= set(log.upcards):
        out["open_pair_showing"] = pair is not None
    out.update(_showdown(log.showdown, log.board, incident.inputs.get("variant", "holdem"),
                         bool(incident.inputs.get("high_low"))))
    if log.awards:
        out["pots_awarded"] = len(log.awards)
        out["pot_winners"] = "; ".join(f"{'main pot' if a.pot == 0 else f'side pot {a.pot}'}: seat"
                                       f"{'s' if len(a.winners) > 1 else ''} {_seats(list(a.winners))}"
                                       for a in log.awards)
        main = next((a for a in log.awards if a.pot == 0), None)
        if main is not None and len(main.winners) == 1:
            out["main_pot_winner"] = main.winners[0]
    return out
