"""The numbers panel: after a ruling, the numbers the floor needs to act on it (issue #43, class 2).

Which numbers go with which ruling, and the sentences that say them, are data (rulings/ruling/numbers.yaml);
the arithmetic is here, one function per panel (``WORK``), each reading the report's facts, the ruling's
effects and the betting replay. A function returns only the numbers whose facts are known: a number that
would need a fact the floor did not give is left out, never guessed, and a sentence naming it is not said.
Nothing here decides anything: the ruling is the rules'; the panel only works out what follows from it.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from rulings.betting import BettingError
from rulings.betting.arithmetic import position
from rulings.betting.limits import raise_cap, street_bet
from rulings.betting.model import Action
from rulings.betting.pots import uncalled
from rulings.incident import Incident
from rulings.incident.checks import betting_params
from rulings.money import show
from rulings.records import evolve
from rulings.yamlsrc import load_catalogue

Numbers = dict[str, Any]


@lru_cache(maxsize=1)
def panels() -> tuple[dict[str, Any], ...]:
    """The panels of rulings/ruling/numbers.yaml, read once per process."""
    from rulings.rulebook.cache import yaml_data
    raw = yaml_data([Path(__file__).resolve().parent / "numbers.yaml"], load_catalogue)[0]
    return tuple(raw.get("panels") or ())


def _money(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# --- the arithmetic, one function per panel: (incident, report, ruling, panel) -> numbers (only the known) ---

def pot_around_the_act(incident: Incident, report: Any, r: Any, spec: dict) -> Numbers:
    """The pot before the disputed act, with his call in, and after the act as ruled (the pot-limit pot is
    the one with his call in; after the act only where a ruling sizes it). Only in turn and with the pot of
    this street known."""
    f = report.facts
    pot, to_call, mine, to = f.get("pot"), f.get("to_call"), f.get("committed"), r.effects.get("wager_to")
    if incident.pot_unknown or incident.unsized or incident.blinds_unknown or not _money(pot) \
            or f.get("in_turn") is False or incident.disputed is None:
        return {}
    out: Numbers = {"pot_before": pot}
    if _money(to_call) and to_call > 0:
        out["pot_after_call"] = pot + to_call
    if _money(to) and _money(mine) and to >= mine and to - mine != to_call and r.discretion is None:
        out["pot_after"] = pot + to - mine
    return out


def _replay(hand: Any, report: Any) -> tuple[Any, Any] | None:
    """The hand replayed under the book's betting parameters: where the action stands and the last street's
    table, or None where the replay refuses the hand (no number is worked from it)."""
    tables: list[Any] = []
    try:
        pos = position(hand, betting_params(report.params), tables=tables)  # type: ignore[arg-type]
    except BettingError:
        return None
    return pos, tables[0]


def round_after_the_act(incident: Incident, report: Any, r: Any, spec: dict) -> Numbers:
    """With the act as ruled, what each seat still to act owes on this street and, in fixed limit, the
    raises counted toward the cap, the cap in chips and the raises left (RRP-BR-3). Only when nothing
    was told after the act, the act in turn, and every amount before it told."""
    f = report.facts
    to, seat = r.effects.get("wager_to"), incident.disputed.seat if incident.disputed else None
    # a wager the floor decides (the usual answer, not a settled one): what follows it waits for his decision
    if seat is None or not _money(to) or incident.after or f.get("in_turn") is False or incident.unsized \
            or r.discretion is not None \
            or incident.limits_unknown or incident.blinds_unknown:
        return {}
    bet, mine = f.get("current_bet"), f.get("committed")
    if not _money(bet) or not _money(mine):
        return {}
    kind = "raise" if to > bet else "call" if to == bet and bet > mine else "check" if to == bet else None
    if kind is None:
        return {}
    hand = incident.hand
    act = Action(seat, kind, to if kind == "raise" else None)
    hand = evolve(hand, streets=hand.streets[:-1] + (hand.streets[-1] + (act,),))
    replayed = _replay(hand, report)
    if replayed is None:
        return {}
    pos, table = replayed
    street = hand.first_street + len(hand.streets) - 1
    out: Numbers = {}
    if pos.actor is not None and table.street == street:
        owes = {s: table.current_bet - table.committed.get(s, 0) for s in table.order
                if s not in table.folded and table.behind.get(s) != 0
                and table.current_bet > table.committed.get(s, 0)}
        owes = {s: min(v, table.behind[s]) if table.behind.get(s) is not None else v for s, v in owes.items()}
        if owes:
            out["to_call_by_seat"] = owes
    if f.get("structure") == "fixed-limit" and table.street == street and not table.doubled and table.bets >= 1:
        out["raises_counted"] = table.bets - 1
        if table.bets >= table.cap and not table.uncapped:
            out["capped_at"] = table.full_level
        elif not table.uncapped:
            out["cap_to"] = table.full_level + (table.cap - table.bets) * street_bet(hand.game, street)
            out["raises_left"] = table.cap - table.bets
    return out


def killed_limits(incident: Incident, report: Any, r: Any, spec: dict) -> Numbers:
    """The killed hand's limits and each round's cap in chips (a bet and the raises the cap allows, RRP-BR-3,
    at the killed sizes: RRP-KILL-INTRO). From the kill the ruling sets, else the killed sizes this hand is
    played at."""
    f = report.facts
    small, big = r.effects.get("kill_small_bet"), r.effects.get("kill_big_bet")
    if not (_money(small) and _money(big)):
        if not f.get("kill_limits_played"):
            return {}
        small, big = f.get("small_bet"), f.get("big_bet")
    if not (_money(small) and _money(big)) or f.get("structure") != "fixed-limit":
        return {}
    bets = raise_cap(incident.hand.game, betting_params(report.params))  # type: ignore[arg-type]
    return {"kill_small_bet": small, "kill_big_bet": big, "kill_cap_small": small * bets, "kill_cap_big": big * bets}


def _seat(report: Any, spec: dict) -> int | None:
    for name in spec.get("seat") or ():
        v = report.facts.get(name)
        if isinstance(v, int) and not isinstance(v, bool):
            return v
    return None


def _stack(incident: Incident, seat: int | None) -> int | None:
    """The seat's chips as the floor told them (the big blind ante comes out of the big blind's before the
    hand's stacks are read: his chips before posting are kept with it)."""
    if seat is None:
        return None
    posts = incident.bba_posts
    if posts and posts[0] == seat and _money(posts[1]):
        return posts[1]
    player = next((p for p in incident.hand.players if p.seat == seat), None)
    return player.stack if player is not None and _money(player.stack) else None


def stack_after_forfeit(incident: Incident, report: Any, r: Any, spec: dict) -> Numbers:
    """What the seat forfeits, by kind where the facts give the kinds, and his stack after it when his stack
    is known (TDA 30, 71-C: what his seat posts is lost with his killed hand)."""
    f, lost = report.facts, r.effects.get("forfeited")
    if not _money(lost) or lost <= 0:
        return {}
    out: Numbers = {"forfeited": lost}
    kinds = {"small_blinds_forfeited": f.get("penalty_small_blinds_owed"),
             "big_blinds_forfeited": f.get("penalty_big_blinds_owed"),
             "bb_antes_forfeited": f.get("penalty_bb_antes_owed"),
             "antes_forfeited": f.get("penalty_antes_owed")}
    if f.get("penalty_forfeit") == lost and all(_money(v) for v in kinds.values()) \
            and sum(kinds.values()) == lost:   # every chip of it named by its kind (no bring-in left over)
        out.update({k: v for k, v in kinds.items() if v})
        named = {"small blinds": kinds["small_blinds_forfeited"], "big blinds": kinds["big_blinds_forfeited"],
                 "big blind antes": kinds["bb_antes_forfeited"], "antes": kinds["antes_forfeited"]}
        out["forfeited_by_kind"] = {k: v for k, v in named.items() if v}
        if kinds["small_blinds_forfeited"] and kinds["big_blinds_forfeited"]:
            out["blinds_forfeited"] = kinds["small_blinds_forfeited"] + kinds["big_blinds_forfeited"]
    seat = _seat(report, spec)
    stack = _stack(incident, seat)
    if seat is not None and stack is not None and stack >= lost:
        out.update(seat=seat, stack_before=stack, stack_after=stack - lost)
    return out


def hidden_chips_forfeited(incident: Incident, report: Any, r: Any, spec: dict) -> Numbers:
    """The hidden chips forfeited and the stack he plays on with (TDA 63), where both are counted."""
    f = report.facts
    gone = (f.get("chips_out_of_view_value") or 0) + (f.get("chips_hidden_value") or 0)
    left, seat = f.get("chips_in_view_value"), f.get("chips_seat")
    if not gone or not _money(left) or not left or not isinstance(seat, int):   # nothing in view told: unknown
        return {}
    return {"chips_forfeited": gone, "stack_after": left, "seat": seat}


def big_blind_ante_split(incident: Incident, report: Any, r: Any, spec: dict) -> Numbers:
    """A big blind too short for blind and ante: his chips split as the house order says (TDA 2024 RP-11)."""
    f = report.facts
    if not f.get("bba_short"):
        return {}
    blind, ante, stack = f.get("bba_blind_posted"), f.get("bba_ante_posted"), f.get("bba_stack")
    if not (_money(blind) and _money(ante) and _money(stack)):
        return {}
    return {"bba_stack": stack, "bba_live_blind": blind, "bba_ante": ante}


def pots_at_the_end(incident: Incident, report: Any, r: Any, spec: dict) -> Numbers:
    """With the betting of the whole hand over and nothing in dispute left to act: each pot's amount and the
    seats in it, and the chips nobody called that go back (WIKI-SIDEPOT-1)."""
    if incident.disputed is not None or incident.pot_unknown or incident.unsized or incident.blinds_unknown:
        return {}
    replayed = _replay(incident.whole_hand or incident.hand, report)
    if replayed is None:
        return {}
    pos, table = replayed
    if pos.actor is not None or not (table.over or table.able <= 1):
        return {}
    pots = [{"amount": p.amount, "seats": list(p.eligible)} for p in pos.side_pots if p.amount]
    if not pots:
        return {}
    out: Numbers = {"pots": pots}
    who, excess = uncalled(dict(table.total))
    if who is not None and excess > 0:
        out.update(returned=excess, returned_to=who)
    return out


@lru_cache(maxsize=1)
def counts() -> frozenset[str]:
    """The panel numbers that are not money (a count, a seat), over every panel."""
    return frozenset(n for spec in panels() for n in spec.get("counts") or ())


def as_data(numbers: Numbers, major: Callable[[int], Any]) -> Numbers:
    """A ruling's panel numbers for the report's data: money in the game's units (``major``), per-seat
    numbers keyed by the seat, each pot with its amount and seats."""
    plain = counts()

    def one(name: str, v: Any) -> Any:
        if isinstance(v, dict):
            return {str(s): major(x) for s, x in v.items()}
        if isinstance(v, list):
            return [{"amount": major(p["amount"]), "seats": list(p["seats"])} for p in v]
        return v if name in plain else major(v)
    return {k: one(k, v) for k, v in numbers.items()}


WORK: dict[str, Callable[[Incident, Any, Any, dict], Numbers]] = {
    f.__name__: f for f in (pot_around_the_act, round_after_the_act, killed_limits, stack_after_forfeit,
                            hidden_chips_forfeited, big_blind_ante_split, pots_at_the_end)}


# --- the panel laid on the rulings ---

_NAME = re.compile(r"\{(\w+)\}")


def _said(name: str, v: Any, counts: frozenset[str], setting: str) -> str:
    if isinstance(v, dict):   # per seat, or per kind
        return ", ".join(f"{'seat ' if isinstance(s, int) else ''}{s} {show(x, setting)}" for s, x in v.items())
    if isinstance(v, list):   # the pots
        return "; ".join(f"{'main pot' if i == 0 else f'side pot {i}'} {show(p['amount'], setting)} "
                         f"(seat{'s' if len(p['seats']) != 1 else ''} {', '.join(map(str, p['seats']))})"
                         for i, p in enumerate(v))
    return str(v) if name in counts else show(v, setting)


def _applies(spec: dict, r: Any) -> bool:
    matters = spec.get("for") or ()
    if "any" not in matters and r.decides not in matters:
        return False
    if spec.get("rulings") and r.ruling not in spec["rulings"]:
        return False
    return not spec.get("effects") or any(e in r.effects for e in spec["effects"])


def lay(incident: Incident, report: Any) -> list[str]:
    """Work out every panel for every ruling in force (in the report's order), keep the numbers on each
    ruling (``numbers``, ``say``) and return the sentences, once each, for WHAT HAPPENS NOW."""
    lines: list[str] = []
    given: set[str] = set()
    for r in report.rulings:
        for spec in panels():
            if (spec.get("once") and spec["name"] in given) or not _applies(spec, r):
                continue
            try:
                got = WORK[spec["work"]](incident, report, r, spec)
            except (BettingError, KeyError, TypeError, ValueError):   # a panel never stops a ruling
                got = {}
            if not got:
                continue
            given.add(spec["name"])
            counts = frozenset(spec.get("counts") or ())
            r.numbers.update(got)
            for line in _sentences(spec, got, counts, report.setting):
                r.say.append(line)
                if line not in lines:
                    lines.append(line)
    return lines


def _sentences(spec: dict, got: Numbers, counts: frozenset[str], setting: str) -> list[str]:
    """The panel's sentences whose every number is known, with the numbers written in."""
    return [_NAME.sub(lambda m: _said(m[1], got[m[1]], counts, setting), template)
            for template in spec.get("say") or () if all(n in got for n in _NAME.findall(template))]
