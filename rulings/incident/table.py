"""The `table:` section (kill pots: the table's recent history), read and checked by field.

Every problem goes to the incident's reader; nothing here raises. The kill-pot
facts are worked out from the checked values in rulings/facts/kill.py.
"""
from __future__ import annotations

from typing import Any

from rulings.incident.model import Pot, Table
from rulings.money import show

TABLE = ("pots", "split_game", "new_game", "kill_button", "left", "returned", "new_players", "voluntary",
         "kill_posted", "kill_button_face_up", "underpaid", "blind_passed", "broken_game")
POT = ("winners", "amount", "blind_money", "split", "scooped", "flop", "kill")
KILL = ("seat", "amount")
BUTTON = ("seat", "legs")
VOLUNTARY = ("seat", "cards_seen", "stack", "third_card_out")
POSTED = ("seat", "amount", "required")
UNDERPAID = ("seat", "amount")
PASSED = ("seat", "took_all_blinds")
BROKEN = ("same_limit", "same_game", "required_kill")



def _flag(r, raw: dict, key: str, path: tuple) -> bool | None:
    value = raw.get(key)
    if value is None:
        return None
    if not isinstance(value, bool):
        r.bad(path + (key,), "I103", "expected true or false")
        return None
    return value


def _seats(r, raw: Any, path: tuple, known: set[int]) -> tuple[int, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        r.bad(path, "I103", "expected a list of seats, e.g. [3, 5]")
        return ()
    out = []
    for i, seat in enumerate(raw):
        s = r.whole(seat, path + (i,))
        if s is not None and s not in known:
            r.bad(path + (i,), "I121", f"seat {s} is not at the table",
                  "seats: " + ", ".join(map(str, sorted(known))))
        elif s is not None:
            out.append(s)
    return tuple(out)


def _seat(r, raw: dict, path: tuple, known: set[int]) -> int | None:
    seat = r.whole(raw.get("seat"), path + ("seat",))
    if seat is not None and seat not in known:
        r.bad(path + ("seat",), "I121", f"seat {seat} is not at the table",
              "seats: " + ", ".join(map(str, sorted(known))))
        return None
    return seat


def _pot(r, raw: Any, path: tuple, known: set[int], split_game: bool) -> Pot | None:
    """One pot of the history. Only the last pot's size and blind money are read, and only where a rule needs
    them (whether it makes a second leg, or triggers a kill by its size; kill-pots.ask-last-pot-size asks for
    it then): any pot may be told by its winners alone."""
    if not isinstance(raw, dict):
        r.bad(path, "I103", "a pot is a mapping like {winners: [3], amount: 220, blind_money: 30, flop: true}")
        return None
    r.keys(raw, POT, path)
    winners = _seats(r, raw.get("winners"), path + ("winners",), known)
    if not winners and raw.get("winners") is None:
        r.bad(path + ("winners",), "I102", "who won this pot?", "winners: [3] (two seats for a split pot)")
    if len(set(winners)) != len(winners):
        r.bad(path + ("winners",), "I124", "a seat is listed twice among the winners")
    sized = raw.get("amount") is not None
    amount = r.money(raw.get("amount"), path + ("amount",)) if sized else None
    blinds = r.money(raw.get("blind_money", 0), path + ("blind_money",)) if sized else None
    if amount is not None and blinds is not None and amount < blinds:
        r.bad(path + ("blind_money",), "I120", f"{show(blinds)} of blind money is more than the "
              f"{show(amount)} pot", "blind_money is the part of the pot that came from blinds")
    split, scooped = _flag(r, raw, "split", path), _flag(r, raw, "scooped", path)
    if winners and split is not None and split != (len(winners) > 1):
        r.bad(path + ("split",), "I124", f"split: {str(split).lower()} does not match "
              f"{len(winners)} winner(s)", "a split pot lists every seat that shared it")
    if winners and scooped is not None and scooped != (split_game and len(winners) == 1):
        r.bad(path + ("scooped",), "I124", "a scoop is one winner taking the whole pot of a split game",
              "set table.split_game: true for a high-low game")
    kill_seat = kill_blind = None
    if raw.get("kill") is not None:
        k = r.mapping(raw["kill"], path + ("kill",))
        if k is not None:
            r.keys(k, KILL, path + ("kill",))
            kill_seat = _seat(r, k, path + ("kill",), known)
            kill_blind = r.money(k.get("amount"), path + ("kill", "amount"))
    if sized and (amount is None or blinds is None):
        return None
    return Pot(winners, amount, blinds, _flag(r, raw, "flop", path), kill_seat, kill_blind)


def _sub(r, raw: dict, key: str, fields: tuple) -> dict | None:
    if raw.get(key) is None:
        return None
    d = r.mapping(raw[key], ("table", key))
    if d is not None:
        r.keys(d, fields, ("table", key))
    return d


def read_table(r, raw: Any, players: set[int], variant: str | None = None) -> Table | None:
    """Read the `table:` section with the incident's reader ``r``; every problem is reported by field."""
    if raw is None:
        return None
    data = r.mapping(raw, ("table",))
    if data is None:
        return None
    r.keys(data, TABLE, ("table",))
    left = _seats(r, data.get("left"), ("table", "left"), players | _loose(data.get("left")))
    known = players | set(left)          # a winner who has since quit was at the table when he won
    split_game = _flag(r, data, "split_game", ("table",)) or False
    pots_raw = data.get("pots") or []
    if not isinstance(pots_raw, list):
        r.bad(("table", "pots"), "I103", "expected a list of pots, oldest first")
        pots_raw = []
    read = [_pot(r, raw_pot, ("table", "pots", i), known, split_game) for i, raw_pot in enumerate(pots_raw)]
    pots = tuple(p for p in read if p is not None)
    new_game = _flag(r, data, "new_game", ("table",)) or False
    if new_game and pots_raw:
        r.bad(("table", "new_game"), "I124", "the first hand of a new game has no earlier pots at this table",
              "drop the pots, or set new_game: false")
    button, neutral = None, False
    if "kill_button" in data:
        b = data["kill_button"]
        if b is None or (isinstance(b, dict) and b.get("seat") is None):
            neutral = True
        elif (b := r.mapping(b, ("table", "kill_button"))) is not None:
            r.keys(b, BUTTON, ("table", "kill_button"))
            seat = _seat(r, b, ("table", "kill_button"), known)
            legs = r.whole(b.get("legs", 1), ("table", "kill_button", "legs"))
            if legs is not None and legs > 2:
                r.bad(("table", "kill_button", "legs"), "I104", f"{legs} legs: a button holds one leg, "
                      "or two when its holder is killing", "legs: 1 or 2")
            elif seat is not None and legs is not None:
                button = (seat, legs)
    if button and button[1] == 2 and pots and pots[-1].kill_seat != button[0]:
        r.bad(("table", "kill_button", "legs"), "I124", f"two legs means seat {button[0]} killed the last "
              "pot, but the last pot shows no kill by that seat", "add kill: {seat, amount} to the last pot")
    returned = _seats(r, data.get("returned"), ("table", "returned"), players)
    for s in set(left) & set(returned):
        r.bad(("table", "returned"), "I124", f"seat {s} is listed as both gone and back")
    table = Table(pots, split_game, new_game, button, neutral, left, returned,
                  _seats(r, data.get("new_players"), ("table", "new_players"), players),
                  _read_voluntary(r, data, players), _read_posted(r, data, players),
                  _flag(r, data, "kill_button_face_up", ("table",)), _read_underpaid(r, data, players),
                  _read_passed(r, data, players), _read_broken(r, data), variant or "holdem")
    return table


def _loose(raw: Any) -> set[int]:
    """Seats listed as gone are known seats even though they are no longer dealt in."""
    return {s for s in raw if isinstance(s, int) and not isinstance(s, bool)} if isinstance(raw, list) else set()


def _read_voluntary(r, data: dict, players: set[int]) -> dict | None:
    v = _sub(r, data, "voluntary", VOLUNTARY)
    if v is None:
        return None
    path = ("table", "voluntary")
    cards = v.get("cards_seen", 0)
    if isinstance(cards, bool) or not isinstance(cards, int) or cards < 0:
        r.bad(path + ("cards_seen",), "I103", f"expected how many of his cards the player had seen, found {cards!r}")
        cards = None
    out = {"seat": _seat(r, v, path, players), "cards_seen": cards,
           "stack": r.money(v.get("stack"), path + ("stack",), required=False),
           "third_card_out": _flag(r, v, "third_card_out", path)}
    return out if out["seat"] is not None and cards is not None else None


def _read_posted(r, data: dict, players: set[int]) -> dict | None:
    k = _sub(r, data, "kill_posted", POSTED)
    if k is None:
        return None
    path = ("table", "kill_posted")
    out = {"seat": _seat(r, k, path, players), "amount": r.money(k.get("amount"), path + ("amount",)),
           "required": _flag(r, k, "required", path)}
    return out if out["seat"] is not None and out["amount"] is not None else None


def _read_underpaid(r, data: dict, players: set[int]) -> dict | None:
    u = _sub(r, data, "underpaid", UNDERPAID)
    if u is None:
        return None
    path = ("table", "underpaid")
    out = {"seat": _seat(r, u, path, players), "amount": r.money(u.get("amount"), path + ("amount",))}
    if data.get("kill_posted") is None:
        r.bad(path, "I124", "an underpayment to a killed pot needs the kill posted this hand",
              "add table.kill_posted: {seat, amount}")
    return out if out["seat"] is not None and out["amount"] is not None else None


def _read_passed(r, data: dict, players: set[int]) -> dict | None:
    p = _sub(r, data, "blind_passed", PASSED)
    if p is None:
        return None
    path = ("table", "blind_passed")
    out = {"seat": _seat(r, p, path, players), "took_all_blinds": _flag(r, p, "took_all_blinds", path)}
    return out if out["seat"] is not None else None


def _read_broken(r, data: dict) -> dict | None:
    b = _sub(r, data, "broken_game", BROKEN)
    if b is None:
        return None
    path = ("table", "broken_game")
    return {k: v for k in BROKEN if (v := _flag(r, b, k, path)) is not None}
