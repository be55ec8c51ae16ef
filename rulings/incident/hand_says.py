"""What the hand's own actions say about a procedure dispute, so the floor need not state it.

When the incident gives the hand (the whole-hand `streets:` or the one-street
form's actions), the showdown and button facts a floor would otherwise be
asked for follow from the actions: who made the last bet or raise on the final
round, whether that round was checked through, who is still in, who is all in,
whether the betting is over, whether the claimant folded, whether the asker
called the final bet, whether there has been substantial action on the hand
(TDA 36: two actions in turn of which one put chips in, or any three; posted
blinds do not count), and, for a clock called on the seat to act, whether it
faces a bet. This is arithmetic over the actions, never a ruling: the rules
that read these facts stay in rulebooks/standard/showdown.yaml and button.yaml.

``hand_says`` returns, for each field of the `procedure:` section the hand
decides, its value; a field the hand does not settle (a round not finished, a
stack not given) is left out and stays the floor's to state or to be asked.
The reader (rulings/incident/checks.py) refuses a field the floor states that
the hand contradicts (I145); the fact builders (rulings/facts/situation.py) take the
hand's value for a field the floor left out. Nothing here refuses or raises.
"""
from __future__ import annotations

from typing import Any

from rulings.betting import BettingError, Params, position
from rulings.incident.model import Incident, Procedure
from rulings.records import evolve

AGGRESSIVE = ("bet", "raise", "complete")
CHIP_KINDS = ("call", "bet", "raise", "complete", "bring-in")
FINAL = {"board": "river", "stud": "seventh", "draw": "after-draw"}

# the fields the hand can decide, by section, and the words a refusal uses for each
SAYS = {
    "showdown": {"last_aggressor": "the last bet or raise of the final round",
                 "river_checked": "whether the final round was checked through",
                 "river_bet": "whether there was a bet on the final round",
                 "in_showdown": "who is still in at the showdown",
                 "player_all_in": "whether a player in the showdown is all in",
                 "betting_done": "whether the betting is over",
                 "claimant_folded": "whether the claimant folded",
                 "asker_called": "whether the asker called the final bet"},
    "button": {"actions_in_turn": "how many actions were taken in turn", "chip_actions": "how many of them put "
               "chips in"},
    "clock": {"facing_bet": "whether the seat on the clock faces a bet"},
}


def _final_street(incident: Incident) -> str:
    """The game's last betting round (as rulings/incident/fields.py's STREETS end)."""
    variant = incident.procedure.variant if incident.procedure else "holdem"
    return FINAL["stud" if variant in ("stud", "razz") else "draw" if variant in ("draw", "lowball") else "board"]


def hand_says(incident: Incident, params: Params) -> dict[str, dict[str, Any]]:
    """Each procedure field the hand's actions decide, by section: ``{"showdown": {"last_aggressor": 4}}``.

    Empty without a `procedure:` section or when the betting does not replay (the reader reports that)."""
    p = incident.procedure
    if p is None or not any(name in p.raw for name in SAYS) or not _hand_given(incident):
        return {}
    hand = incident.whole_hand or incident.hand
    names = incident.log.streets if incident.log is not None else (incident.street,)
    try:
        end = position(hand, params)
    except BettingError:
        return {}
    stacks = dict(end.stacks) if not incident.unsized else {s: None for s in end.stacks}   # a stand-in sizes them
    actions = [a for street in hand.streets for a in street]
    folded = {a.seat for a in actions if a.kind == "fold"}
    seats = [pl.seat for pl in hand.players]
    live = [s for s in seats if s not in folded]
    # the betting is over: no one left to act, and either the final round is reached or at most one live
    # seat still has chips (the rest are all in: the board is run out with no more betting)
    with_chips = [s for s in live if (chips_behind := stacks.get(s)) is None or chips_behind > 0]
    final = _final_street(incident)
    on_final = bool(names) and names[-1] == final and len(hand.streets) == len(names)
    over = end.actor is None and (on_final or len(with_chips) <= 1 or len(live) <= 1)
    told = incident.log.told if incident.log is not None else ()
    if told and told[-1].street == final and not any(hand.streets):
        over = True          # the final street told by who was left: the betting is over, the showdown is next
        on_final = False     # ... and whether it was checked is not told
    out: dict[str, dict[str, Any]] = {}
    if "showdown" in p.raw:
        sd: dict[str, Any] = {}
        s = p.raw["showdown"]
        last_round = list(hand.streets[-1]) if on_final else []
        raised = [a for a in last_round if a.kind in AGGRESSIVE]
        if on_final and (raised or end.actor is None):
            sd["river_bet"] = bool(raised)
            sd["river_checked"] = not raised
            if raised and end.actor is None:
                sd["last_aggressor"] = raised[-1].seat
        if over:
            sd["betting_done"] = True
            mucked = {ev.seat for ev in (incident.log.showdown if incident.log else ()) if ev.kind == "mucks"}
            sd["in_showdown"] = tuple(x for x in live if x not in mucked)
            left = [stacks.get(x) for x in live]
            if any(st == 0 for st in left):
                sd["player_all_in"] = True
            elif None not in left:
                sd["player_all_in"] = False
        claimant = s.get("claimant")
        if claimant is not None and (claimant in folded or over):
            sd["claimant_folded"] = claimant in folded
        asker = s.get("asker")
        if asker is not None and raised and end.actor is None and asker in live:
            mine = [a for a in last_round if a.seat == asker]
            sd["asker_called"] = bool(mine) and mine[-1].kind == "call"
        out["showdown"] = sd
    if "button" in p.raw:
        # the counts only: what is substantial action is the one rule's to say (pot-limit.substantial-action)
        voluntary = [a for a in actions if a.kind != "post"]
        chips = sum(1 for a in voluntary if a.kind in CHIP_KINDS)
        if hand.first_street == 0:
            out["button"] = {"actions_in_turn": len(voluntary), "chip_actions": chips}
        elif final == "river":
            # told from a later street of a flop game: the first round, not listed, took at least a call and
            # a check (or a second call) to reach it
            out["button"] = {"actions_in_turn": len(voluntary) + 2, "chip_actions": chips + 1}
    if "clock" in p.raw:
        c = p.raw["clock"]
        if c.get("seat") is not None and end.actor is not None and c["seat"] == end.actor:
            out["clock"] = {"facing_bet": end.to_call > 0}
    return {k: v for k, v in out.items() if v}


def _hand_given(incident: Incident) -> bool:
    """The floor listed the hand's actions (``streets:``, or the one-street form's ``actions:``): without them
    the hand says nothing (an incident with no actions is not a hand in which no one acted)."""
    data = incident.source.data if incident.source is not None else None
    if not isinstance(data, dict):
        return bool(incident.log and incident.log.streets) or any(incident.hand.streets)
    return bool(data.get("streets")) or bool(data.get("actions"))


def contradictions(incident: Incident, params: Params) -> list[tuple[tuple, str, str]]:
    """Each field the floor states that the hand's actions say otherwise: (path, message, hint)."""
    p = incident.procedure
    out: list[tuple[tuple, str, str]] = []
    if p is None:
        return out
    says = hand_says(incident, params)
    for section, fields in says.items():
        given = p.raw.get(section, {})
        for key, value in fields.items():
            stated = given.get(key)
            if stated is None:
                continue
            if stated == value or key == "in_showdown":   # fewer named: a hand thrown away unlisted; see below
                continue
            out.append((("procedure", section, key),
                        f"the floor says {_word(stated)}, but the hand's actions say {_word(value)} "
                        f"({SAYS[section][key]})",
                        f"leave {key} out (the hand decides it), or check the actions listed"))
    if "button" in says and p.raw["button"].get("substantial_action") is not None:
        out.append((("procedure", "button", "substantial_action"),
                    "the hand's actions are listed, and they decide whether there has been substantial action",
                    "leave substantial_action out (the hand decides it), or leave the actions out"))
    if "showdown" in p.raw:   # a seat said to be in the showdown that folded: wrong whatever the rest
        hand = incident.whole_hand or incident.hand
        folded = {a.seat for street in hand.streets for a in street if a.kind == "fold"}
        stated = p.raw["showdown"].get("in_showdown") or ()
        gone = [x for x in stated if x in folded]
        if gone and not any(path[-1] == "in_showdown" for path, _, _ in out):
            out.append((("procedure", "showdown", "in_showdown"),
                        f"seat {gone[0]} is named in the showdown, but folded in the hand's actions",
                        "a seat that folded is not in the showdown; check the seats or the actions"))
    return out


def _word(value: Any) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, tuple):
        return "seats " + ", ".join(map(str, value))
    return f"seat {value}" if isinstance(value, int) else str(value)


def completed(incident: Incident, params: Params) -> Incident:
    """The incident with each procedure field the floor left out and the hand decides filled in from the hand
    (its raw value and its fact), and ``derived`` naming them; the incident itself when the hand adds nothing."""
    p = incident.procedure
    says = hand_says(incident, params)
    if p is None or not says:
        return incident
    from rulings.incident.procedure import SPEC
    raw = {name: dict(values) for name, values in p.raw.items()}
    facts = dict(p.facts)
    derived = []
    for section, fields in says.items():
        for key, value in fields.items():
            if raw[section].get(key) is not None:
                continue
            raw[section][key] = value
            fact = SPEC[section][key][1]
            if fact is not None:
                facts[fact] = value
            derived.append(f"{section}.{key}")
    if not derived:
        return incident
    return evolve(incident, procedure=Procedure(facts, raw, p.variant, tuple(derived)))
