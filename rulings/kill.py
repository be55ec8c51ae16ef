"""The table's recent history for kill pots: read and checked by field, then turned into arithmetic facts.

Whether a kill is due, who posts it and where he acts is decided in
rulebooks/standard/kill-pots.yaml. Here we only read the `table:` section and
compute facts that are definitions: who won the last pot alone, how much of it
was not blind money, whether the button holder is among the winners, the kill
blind and limits for a full and a half kill.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulings.betting import BettingError, kill_limits
from rulings.money import show
from rulings.problems import Problem, ProblemsError

if TYPE_CHECKING:
    from rulings.incident import Incident

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


@dataclass(frozen=True)
class Pot:
    """One finished pot: who won it, its size, how much was blinds, whether it saw a flop, its kill."""

    winners: tuple[int, ...]
    amount: int
    blind_money: int
    flop: bool | None = None
    kill_seat: int | None = None
    kill_blind: int | None = None


@dataclass(frozen=True)
class Table:
    """The table's kill-pot state as the floor describes it before the hand about to be dealt."""

    pots: tuple[Pot, ...] = ()                      # oldest first; the last is the pot just finished
    split_game: bool = False
    new_game: bool = False
    button: tuple[int, int] | None = None           # (seat, legs) entering the last pot
    button_neutral: bool = False                    # the floor said the button was in the middle
    left: tuple[int, ...] = ()
    returned: tuple[int, ...] = ()
    new_players: tuple[int, ...] = ()
    voluntary: dict[str, Any] | None = None
    kill_posted: dict[str, Any] | None = None
    face_up: bool | None = None
    underpaid: dict[str, Any] | None = None
    blind_passed: dict[str, Any] | None = None
    broken_game: dict[str, bool] | None = None
    variant: str = "holdem"


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
    if not isinstance(raw, dict):
        r.bad(path, "I103", "a pot is a mapping like {winners: [3], amount: 220, blind_money: 30, flop: true}")
        return None
    r.keys(raw, POT, path)
    winners = _seats(r, raw.get("winners"), path + ("winners",), known)
    if not winners and raw.get("winners") is None:
        r.bad(path + ("winners",), "I102", "who won this pot?", "winners: [3] (two seats for a split pot)")
    if len(set(winners)) != len(winners):
        r.bad(path + ("winners",), "I124", "a seat is listed twice among the winners")
    amount = r.money(raw.get("amount"), path + ("amount",))
    blinds = r.money(raw.get("blind_money", 0), path + ("blind_money",))
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
    if amount is None or blinds is None:
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


def _refuse(incident: Incident, path: tuple, code: str, message: str, hint: str | None = None) -> ProblemsError:
    where = ".".join(str(p) if not isinstance(p, int) else f"[{p}]" for p in path).replace(".[", "[")
    text = f"{where}: {message}"
    if incident.source is None:
        return ProblemsError([Problem("<incident>", 0, 0, code, text, hint=hint)])
    return ProblemsError([incident.source.problem(path, code, text, hint)])


def kill_facts(incident: Incident, params: dict[str, Any]) -> dict[str, Any]:
    """The kill-pot facts of an incident with a `table:` section (empty without one)."""
    t: Table | None = incident.table
    if t is None:
        return {}
    game = incident.hand.game
    setting = game.setting
    if game.structure not in ("fixed-limit", "spread-limit"):
        raise _refuse(incident, ("game", "structure"), "I123", f"kill pots raise the limits of a limit game, "
                      f"not of a {game.structure} game", "structure: fixed-limit, with bet_sizes")
    sizes = {}
    for size in ("full", "half"):
        try:
            sizes[size] = kill_limits(game, size)
        except BettingError:
            sizes[size] = None           # a half kill of odd limits; refused below only if it is in force
    size = params["kill.size"]
    limits = sizes[size]
    if limits is None:
        raise _refuse(incident, ("game", "bet_sizes"), "I123", f"a {size} kill of these limits is not a whole "
                      "amount", "use a full kill (params: {kill.size: full}) or limits that divide evenly")
    f: dict[str, Any] = {"variant": t.variant, "kill_split_game": t.split_game, "kill_new_game": t.new_game,
                         "kill_pots_listed": len(t.pots)}
    for name, lim in sizes.items():
        if lim is not None:
            f.update({f"kill_{name}_blind": lim.kill_blind, f"kill_{name}_small_bet": lim.small_bet,
                      f"kill_{name}_big_bet": lim.big_bet})
    for i, pot in enumerate(t.pots):
        if pot.kill_blind is not None and pot.kill_blind != limits.kill_blind:
            raise _refuse(incident, ("table", "pots", i, "kill", "amount"), "I122",
                          f"a {size} kill here is {show(limits.kill_blind, setting)}, not "
                          f"{show(pot.kill_blind, setting)}", "check the kill blind or the kill.size parameter")
    _last_pots(t, f, game.bet_sizes[0] if game.bet_sizes else game.big_blind, limits.small_bet)
    _button(t, f)
    _people(t, f)
    _this_hand(incident, t, f, limits.kill_blind, size, setting)
    return f


def _last_pots(t: Table, f: dict, small_bet: int, killed_small_bet: int) -> None:
    if not t.pots:
        return
    last = t.pots[-1]
    f.update(kill_last_split=len(last.winners) > 1, kill_last_pot=last.amount,
             kill_last_blind_money=last.blind_money, kill_last_live_money=last.amount - last.blind_money,
             kill_last_full_bet=killed_small_bet if last.kill_seat is not None else small_bet,
             kill_last_killed=last.kill_seat is not None,
             kill_last_killer_won=last.kill_seat is not None and last.winners == (last.kill_seat,),
             kill_last_killer_in_split=len(last.winners) > 1 and last.kill_seat in last.winners)
    if len(last.winners) == 1:
        f["kill_last_winner"] = last.winners[0]
    if last.flop is not None:
        f["kill_last_flop"] = last.flop
    if last.kill_seat is not None:
        f["kill_last_killer"] = last.kill_seat
    if len(t.pots) >= 2:
        prev = t.pots[-2]
        f["kill_same_winner_twice"] = len(prev.winners) == 1 and prev.winners == last.winners
        f["kill_prev_split"] = len(prev.winners) > 1
        if prev.flop is not None:
            f["kill_prev_flop"] = prev.flop


def _button(t: Table, f: dict) -> None:
    f["kill_button_given"] = t.button is not None or t.button_neutral
    if t.button is None:
        if t.button_neutral and t.pots:
            f.update(kill_last_winner_had_button=False, kill_button_in_last_split=False)
        return
    seat, legs = t.button
    f.update(kill_button_seat=seat, kill_button_legs=legs)
    if t.pots:
        winners = t.pots[-1].winners
        f["kill_last_winner_had_button"] = winners == (seat,)
        f["kill_button_in_last_split"] = len(winners) > 1 and seat in winners


def _people(t: Table, f: dict) -> None:
    winner = f.get("kill_last_winner")
    if winner is not None:
        f["kill_last_winner_left"] = winner in t.left
        f["kill_last_winner_returned"] = winner in t.returned
    f["kill_new_players"] = len(t.new_players)
    if t.new_players:
        f["kill_new_player_seats"] = " and ".join(map(str, t.new_players))


def _this_hand(incident: Incident, t: Table, f: dict, blind: int, size: str, setting: str) -> None:
    if t.kill_posted:
        k = t.kill_posted
        if k["amount"] != blind:
            raise _refuse(incident, ("table", "kill_posted", "amount"), "I122",
                          f"a {size} kill here is {show(blind, setting)}, not {show(k['amount'], setting)}",
                          "check the kill blind or the kill.size parameter")
        f.update(kill_posted_seat=k["seat"], kill_posted_amount=k["amount"])
        if k["required"] is not None:
            f["kill_posted_required"] = k["required"]
    if t.face_up is not None:
        f["kill_button_face_up"] = t.face_up
    if t.underpaid:
        u = t.underpaid
        if t.kill_posted and u["amount"] >= t.kill_posted["amount"]:
            raise _refuse(incident, ("table", "underpaid", "amount"), "I120",
                          f"{show(u['amount'], setting)} is not less than the {show(blind, setting)} kill",
                          "underpaid.amount is what the player put in, short of the kill")
        f.update(kill_underpaid_seat=u["seat"], kill_underpaid_amount=u["amount"],
                 kill_underpaid_short=blind - u["amount"])
    if t.voluntary:
        v = t.voluntary
        f.update(kill_voluntary_seat=v["seat"], kill_voluntary_cards=v["cards_seen"])
        if v["stack"] is not None:
            f["kill_voluntary_stack"] = v["stack"]
        if v["third_card_out"] is not None:
            f["kill_voluntary_third_card"] = v["third_card_out"]
    if t.blind_passed:
        f["kill_blind_passed_seat"] = t.blind_passed["seat"]
        if t.blind_passed["took_all_blinds"] is not None:
            f["kill_took_all_blinds"] = t.blind_passed["took_all_blinds"]
    for key, value in (t.broken_game or {}).items():
        f[f"kill_broken_{key}"] = value
