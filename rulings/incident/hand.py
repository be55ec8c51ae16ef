"""The whole hand as the incident: every street's actions and board, stud upcards, showdown, who won which pot.

``streets:`` lists the streets in order, each with its actions (the same
``{seat, action, to}`` as the one-street form, ``to`` the seat's street total),
its new board cards and, in stud, each seat's new upcards. ``showdown:`` lists
what each seat did at showdown, in order; ``pots_won:`` who won which pot.
Every problem goes to the reader; the checks that need the betting replayed
are in rulings/incident/checks.py.
"""
from __future__ import annotations

from typing import Any

from rulings.betting import Action
from rulings.incident.model import Award, ShowdownEvent, Told
from rulings.incident.reader import Reader, read_cards, seat_key, twice_keyed

STREET_KEYS = ("street", "actions", "board", "upcards", "left", "pot", "pots")
TOLD_KEYS = ("left", "pot", "pots")      # a street told by who is left and the pot, not action by action
POT_KEYS = ("amount", "seats")
SHOWDOWN_KINDS = ("shows", "mucks", "tables", "declares")
SHOWDOWN_KEYS = ("seat",) + SHOWDOWN_KINDS
DECLARATIONS = ("high", "low", "both")
AWARD_KEYS = ("pot", "winners")
AT_KEYS = ("street", "after")
MAX_STREET_LIST = 10


def pair_showing(order: Any, upcards: dict[str, dict[int, tuple[str, ...]]], folded: set[int]) -> int | None:
    """Stud's fourth street: the first seat of ``order`` not in ``folded`` whose third- and fourth-street upcards
    are a pair (a definition of what shows; what it lets a player bet is the book's and the house's)."""
    third, fourth = upcards.get("third", {}), upcards.get("fourth", {})
    for seat in order:
        cards = third.get(seat, ()) + fourth.get(seat, ())
        if seat not in folded and len(cards) == 2 and cards[0][0] == cards[1][0]:
            return seat
    return None


def read_streets(r: Reader, raw: Any, family: tuple[str, ...], seats: set[int], read_actions,
                 told: list | None = None) -> \
        tuple[list[tuple[str, list[Action], list[tuple]]], tuple[str, ...], dict[str, dict[int, tuple[str, ...]]]]:
    """The streets in order: (name, actions, where each action is written); the board; upcards by street.

    A street told only by who is left and the pot (``{street: preflop, left: [2, 3], pot: 450}``, or the pots
    by amount with the seats in each) is not among them: it goes to ``told`` as a ``Told``, and must come
    before every street told action by action; the seats not left are out of the hand after it."""
    out: list[tuple[str, list[Action], list[tuple]]] = []
    told = [] if told is None else told
    board: list[str] = []
    upcards: dict[str, dict[int, tuple[str, ...]]] = {}
    if not isinstance(raw, list) or not raw or len(raw) > MAX_STREET_LIST:
        r.bad(("streets",), "I103", "streets is a list, one entry per street in order, e.g. "
              "[{street: preflop, actions: [...]}, {street: flop, board: 'Ah 7c 2d', actions: [...]}]")
        return out, (), upcards
    expected = 0
    for k, entry in enumerate(raw):
        here = ("streets", k)
        if not isinstance(entry, dict):
            r.bad(here, "I103", "a street is a mapping: {street: flop, board: 'Ah 7c 2d', actions: [...]}")
            return [], tuple(board), upcards
        r.keys(entry, STREET_KEYS, here)
        name = entry.get("street", family[expected] if expected < len(family) else None)
        if not isinstance(name, str) or name not in family:
            r.choice(name, family, here + ("street",))
            return [], tuple(board), upcards
        if not out and any(k in entry for k in TOLD_KEYS) and family.index(name) > expected:
            expected = family.index(name)      # told by who is left: the streets before it need not be given
        if family.index(name) != expected:
            r.bad(here + ("street",), "I105", f"{name} comes out of order: the streets are "
                  f"{', '.join(family)}, each once", f"this entry should be {family[expected]}"
                  if expected < len(family) else "the hand has no further street")
            return [], tuple(board), upcards
        expected += 1
        if entry.get("board") is not None:
            cards = read_cards(r, entry["board"], here + ("board",))
            if cards is not None:
                board.extend(cards)
        if entry.get("upcards") is not None:
            up = r.mapping(entry["upcards"], here + ("upcards",))
            skip = twice_keyed(r, up or {}, here + ("upcards",))
            for key, value in (up or {}).items():
                seat = seat_key(key)
                if key in skip or r.whole(seat, here + ("upcards", key)) is None:
                    continue
                if seats and seat not in seats:
                    r.bad(here + ("upcards", key), "I105", f"seat {seat} is not in the hand")
                    continue
                cards = read_cards(r, value, here + ("upcards", key))
                if cards:
                    upcards.setdefault(name, {})[seat] = cards
        if any(k in entry for k in TOLD_KEYS):
            if out:
                r.bad(here, "I105", f"the {name} is told by who is left and the pot after streets told action by "
                      "action", "tell the streets before it the same way, or list this street's actions")
                return [], tuple(board), upcards
            one = _told(r, entry, here, name, seats)
            if one is None:
                return [], tuple(board), upcards
            told.append(one)
            seats = set(one.left)
            continue
        actions, paths = read_actions(r, entry.get("actions"), here + ("actions",), seats)
        out.append((name, actions, paths))
    return out, tuple(board), upcards


def _told(r: Reader, entry: dict, here: tuple, name: str, seats: set[int]) -> Told | None:
    """One street told by who is left at its end and the pot then: ``left`` and ``pot``, or ``pots`` (the main
    pot first, then each side pot, by amount with the seats in each: a seat of an earlier pot missing from a
    later one is all in)."""
    if entry.get("actions"):
        r.bad(here + ("actions",), "I105", f"the {name} is told by who is left and the pot, and by its actions",
              "give one: left and pot (or pots), or the actions")
        return None
    left_raw = entry.get("left")
    pots_raw = entry.get("pots")
    left: list[int] = []
    if left_raw is not None:
        if not isinstance(left_raw, list) or len(left_raw) < 1:
            r.bad(here + ("left",), "I103", "the seats still in at the end of the street, e.g. [2, 3]")
            return None
        for j, s in enumerate(left_raw):
            if r.whole(s, here + ("left", j)) is None:
                return None
            if seats and s not in seats:
                r.bad(here + ("left", j), "I105", f"seat {s} is not in the hand (or out of it already)",
                      "seats: " + ", ".join(map(str, sorted(seats))))
                return None
            if s in left:
                r.bad(here + ("left", j), "I105", f"seat {s} is listed twice")
                return None
            left.append(s)
    pots: list[tuple[int, tuple[int, ...]]] = []
    if pots_raw is not None:
        if not isinstance(pots_raw, list) or not pots_raw or len(pots_raw) > 20:
            r.bad(here + ("pots",), "I103", "the pots by amount, main pot first, each with its seats: "
                  "[{amount: 900, seats: [1, 2, 3]}, {amount: 400, seats: [2, 3]}]")
            return None
        for j, p in enumerate(pots_raw):
            where = here + ("pots", j)
            if not isinstance(p, dict):
                r.bad(where, "I103", "a pot is {amount: 900, seats: [1, 2, 3]}")
                return None
            r.keys(p, POT_KEYS, where)
            amount = r.money(p.get("amount"), where + ("amount",))
            in_it = p.get("seats")
            if not isinstance(in_it, list) or not in_it:
                r.bad(where + ("seats",), "I103", "the seats in this pot, e.g. [2, 3]")
                return None
            if amount is None or any(r.whole(s, where + ("seats", k)) is None for k, s in enumerate(in_it)):
                return None
            outside = [s for s in in_it if (pots and s not in pots[-1][1]) or (seats and s not in seats)]
            if outside:
                r.bad(where + ("seats",), "I105", f"seat {outside[0]} is in this pot but not in "
                      + ("the pot before it" if pots else "the hand"),
                      "each side pot's seats are some of the seats of the pot before it")
                return None
            if len(set(in_it)) != len(in_it):
                r.bad(where + ("seats",), "I105", "a seat is listed twice")
                return None
            pots.append((amount, tuple(in_it)))
        if left and set(left) != set(pots[0][1]):
            r.bad(here + ("pots", 0, "seats"), "I105", "the main pot's seats are the seats left: "
                  + ", ".join(map(str, left)), "give the same seats, or leave left out")
            return None
        left = left or list(pots[0][1])
    if not left:
        r.bad(here, "I102", f"who was left at the end of the {name}?", "left: [2, 3], and pot: 450")
        return None
    pot = r.money(entry.get("pot"), here + ("pot",), required=False)
    if pot is not None and pots and pot != sum(a for a, _ in pots):
        r.bad(here + ("pot",), "I105", f"the pots add up to {sum(a for a, _ in pots) / 100:g}, not "
              f"{pot / 100:g}", "give pot or pots, or make them agree")
        return None
    if pot is None and pots:
        pot = sum(a for a, _ in pots)
    return Told(name, tuple(left), pot, tuple(pots), here)


def read_showdown(r: Reader, raw: Any, seats: set[int], folded: set[int]) -> tuple[ShowdownEvent, ...]:
    """``showdown: [{seat: 2, shows: 'As Kd'}, {seat: 3, mucks: true}, {seat: 1, declares: high}]``, in order."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        r.bad(("showdown",), "I103", "showdown is a list of events in order, e.g. [{seat: 2, shows: 'As Kd'}, "
              "{seat: 3, mucks: true}]")
        return ()
    out = []
    for i, ev in enumerate(raw[:50]):
        here = ("showdown", i)
        if not isinstance(ev, dict):
            r.bad(here, "I103", "an event is a mapping: {seat: 2, shows: 'As Kd'}", "one of: " + ", ".join(SHOWDOWN_KINDS))
            continue
        r.keys(ev, SHOWDOWN_KEYS, here)
        seat = r.whole(ev.get("seat"), here + ("seat",))
        kinds = [k for k in SHOWDOWN_KINDS if k in ev]
        if len(kinds) != 1:
            r.bad(here, "I102" if not kinds else "I105", "an event is one of: " + ", ".join(SHOWDOWN_KINDS),
                  "e.g. {seat: 2, shows: 'As Kd'} or {seat: 3, mucks: true}")
            continue
        if seat is not None and seats and seat not in seats:
            r.bad(here + ("seat",), "I105", f"seat {seat} is not in the hand",
                  "seats: " + ", ".join(map(str, sorted(seats))))
            continue
        kind = kinds[0]
        if seat in folded and kind != "mucks":
            r.bad(here + ("seat",), "I141", f"seat {seat} {kind} at showdown, but folded earlier in the hand",
                  "a seat that folded has no hand at showdown; check the seat or the fold")
            continue
        cards: tuple[str, ...] = ()
        declared = None
        if kind in ("shows", "tables"):
            cards = read_cards(r, ev[kind], here + (kind,)) or ()
        elif kind == "mucks" and ev[kind] is not True:
            if ev[kind] is False:
                r.bad(here + (kind,), "I104", "mucks: false is no event", "leave it out, or mucks: true")
                continue
            cards = read_cards(r, ev[kind], here + (kind,)) or ()   # the cards he mucked, when they are known
        elif kind == "declares":
            declared = r.choice(ev[kind], DECLARATIONS, here + (kind,))
        if seat is not None:
            out.append(ShowdownEvent(seat, kind, cards, declared, here))
    return tuple(out)


def read_awards(r: Reader, raw: Any, seats: set[int], folded: set[int]) -> tuple[Award, ...]:
    """``pots_won: [{pot: 0, winners: [2]}, {pot: 1, winners: [3]}]``: 0 is the main pot, then side pots in order."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        r.bad(("pots_won",), "I103", "pots_won is a list: [{pot: 0, winners: [2]}] (pot 0 is the main pot)")
        return ()
    out, pots = [], set()
    for i, a in enumerate(raw[:20]):
        here = ("pots_won", i)
        if not isinstance(a, dict):
            r.bad(here, "I103", "an award is a mapping: {pot: 0, winners: [2]}")
            continue
        r.keys(a, AWARD_KEYS, here)
        pot = r.whole(a.get("pot", 0), here + ("pot",), low=0, high=30)
        winners = a.get("winners")
        if not isinstance(winners, list) or not winners:
            r.bad(here + ("winners",), "I103", "the seats that won this pot, e.g. [2] (two or more for a split)")
            continue
        seen: list[int] = []
        for j, s in enumerate(winners):
            if r.whole(s, here + ("winners", j)) is None:
                continue
            if seats and s not in seats:
                r.bad(here + ("winners", j), "I142", f"pot {pot} is awarded to seat {s}, which is not in the hand",
                      "seats: " + ", ".join(map(str, sorted(seats))))
            elif s in folded:
                r.bad(here + ("winners", j), "I142", f"pot {pot} is awarded to seat {s}, which folded",
                      "a seat that folded is in no pot")
            elif s in seen:
                r.bad(here + ("winners", j), "I105", f"seat {s} is listed twice")
            else:
                seen.append(s)
        if pot is not None and pot in pots:
            r.bad(here + ("pot",), "I105", f"pot {pot} is awarded twice", "list each pot once, with all its winners")
        elif pot is not None and seen:
            pots.add(pot)
            out.append(Award(pot, tuple(seen), here))
    return tuple(out)


def read_at(r: Reader, raw: Any, path: tuple, log: list[tuple[str, list[Action], list[tuple]]],
            default_street: str | None) -> tuple[str, int] | None:
    """Where a disputed act happened: ``at: {street: flop, after: 2}`` - on the flop, after its first two actions.

    Without ``at`` the act comes after the last action listed (the one-street form's meaning).
    """
    listed = {name: len(actions) for name, actions, _ in log}
    if raw is None:
        if not log:
            return None
        street = default_street if default_street in listed else log[-1][0]
        return street, listed[street]
    d = r.mapping(raw, path)
    if d is None:
        return None
    r.keys(d, AT_KEYS, path)
    name = d.get("street", default_street if default_street in listed else (log[-1][0] if log else None))
    if not isinstance(name, str) or name not in listed:
        r.bad(path + ("street",), "I143", f"the act is placed on the {name}, which the hand does not reach",
              "streets in the hand: " + ", ".join(listed))
        return None
    after = d.get("after", listed[name])
    if r.whole(after, path + ("after",), low=0, high=10_000) is None:
        return None
    if after > listed[name]:
        r.bad(path + ("after",), "I143", f"the act is placed after action {after} of the {name}, which has only "
              f"{listed[name]} action(s) listed", f"after: 0 to {listed[name]} (0: before the street's first action)")
        return None
    return name, after
