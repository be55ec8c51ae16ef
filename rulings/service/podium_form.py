"""The podium's hand form, read into an incident (plain data, the incident format of the README).

The form is flat (one field per input, so it also works without JavaScript):
``variant structure setting sb bb ante small_bet big_bet`` for the game, ``in-N`` and
``stack-N`` for seat N, ``button``, ``street``, ``pot``, ``actions`` as a line such as
``1 bet 50, 2 call, 3 raise 150`` (amounts are the seat's street total, as in the
incident format), ``d_seat d_said d_chips`` for the disputed act, ``noticed`` and
``pointed_out_by``. Anything the form cannot read becomes a message on that field;
nothing is guessed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Mapping

SEATS = range(1, 11)
VARIANTS = ("holdem", "omaha", "stud", "razz", "draw", "lowball", "other")
STRUCTURES = ("no-limit", "pot-limit", "fixed-limit", "spread-limit")
SETTINGS = ("cash", "tournament")
ACTIONS = ("fold", "check", "call", "bet", "raise", "complete", "post", "bring-in")
STREETS = {"holdem": ("preflop", "flop", "turn", "river"), "omaha": ("preflop", "flop", "turn", "river"),
           "other": ("preflop", "flop", "turn", "river"),
           "stud": ("third", "fourth", "fifth", "sixth", "seventh"),
           "razz": ("third", "fourth", "fifth", "sixth", "seventh"),
           "draw": ("before-draw", "after-draw"), "lowball": ("before-draw", "after-draw")}
NOTICED = {"before_next_action": "before anyone acted on it",
           "after_some_action": "after some players acted on it",
           "after_all_acted": "after every player acted",
           "after_next_card": "after the next card was dealt"}
POINTED_OUT_BY = {"dealer": "the dealer", "player_in_hand": "a player in the hand",
                  "player_not_in_hand": "a player not in the hand", "bettor": "the bettor himself",
                  "floor": "the floor"}
VARIANT_WORDS = {"holdem": "Hold'em", "omaha": "Omaha", "stud": "Stud", "razz": "Razz", "draw": "Draw",
                 "lowball": "Lowball", "other": "Other"}
STRUCTURE_WORDS = {"no-limit": "No-limit", "pot-limit": "Pot-limit", "fixed-limit": "Limit",
                   "spread-limit": "Spread-limit"}
CHIPS = ("1", "5", "25", "100", "500", "1000", "5000")
_ACTION = re.compile(r"^\s*(\d{1,2})\s+([a-z-]+)(?:\s+(?:to\s+)?\$?([0-9][0-9,]*(?:\.[0-9]{1,2})?))?\s*$")


@dataclass
class FormRead:
    incident: dict[str, Any]
    errors: dict[str, str] = field(default_factory=dict)   # field name -> what is wrong


def _get(form: Mapping[str, Any], name: str) -> str:
    value = form.get(name, "")
    if isinstance(value, (list, tuple)):
        value = value[0] if value else ""
    return str(value or "").strip()


def amount(text: str) -> int | Decimal | None:
    """A typed amount ('1,000', '$84.50') as an exact number; None when it is not one."""
    text = text.replace(",", "").replace("$", "").strip()
    if not re.fullmatch(r"[0-9]{1,12}(\.[0-9]{1,2})?", text):
        return None
    try:
        d = Decimal(text)
    except InvalidOperation:
        return None
    return int(d) if d == d.to_integral_value() else d


def read_actions(text: str) -> tuple[list[dict], str | None]:
    """``1 bet 50, 2 call`` -> [{seat: 1, action: bet, to: 50}, {seat: 2, action: call}]."""
    out: list[dict] = []
    for i, part in enumerate(p for p in re.split(r"[,;\n]", text) if p.strip()):
        m = _ACTION.match(part.lower())
        if not m or m.group(2) not in ACTIONS:
            return out, (f"action {i + 1} ('{part.strip()}') should read like '3 raise 150': "
                         f"a seat, one of {', '.join(ACTIONS)}, and for a bet or raise the seat's total")
        item: dict[str, Any] = {"seat": int(m.group(1)), "action": m.group(2)}
        if m.group(3):
            item["to"] = amount(m.group(3))
        elif m.group(2) in ("bet", "raise", "complete", "post", "bring-in"):
            return out, f"action {i + 1} ('{part.strip()}'): how much? e.g. '{m.group(1)} {m.group(2)} 100'"
        out.append(item)
    return out, None


def read_chips(text: str) -> tuple[list, str | None]:
    chips = []
    for word in text.replace(",", " ").split():
        v = amount(word)
        if v is None or v == 0:
            return chips, f"'{word}' is not a chip value; list chips like '500' or '100 100 25'"
        chips.append(v)
    return chips, None


def read_form(form: Mapping[str, Any]) -> FormRead:
    """The incident the form describes, and a message for each field it could not read."""
    errors: dict[str, str] = {}
    variant = _get(form, "variant") or "holdem"
    structure = _get(form, "structure") or "no-limit"
    setting = _get(form, "setting") or "cash"
    if variant not in VARIANTS:
        errors["variant"], variant = "pick a game from the list", "holdem"
    if structure not in STRUCTURES:
        errors["structure"], structure = "pick a betting structure from the list", "no-limit"
    if setting not in SETTINGS:
        errors["setting"], setting = "cash game or tournament", "cash"
    game: dict[str, Any] = {"variant": variant, "structure": structure, "setting": setting}
    blinds = []
    for name in ("sb", "bb"):
        raw = _get(form, name)
        if raw:
            v = amount(raw)
            if v is None:
                errors[name] = f"'{raw}' is not an amount"
            else:
                blinds.append(v)
    if blinds:
        game["blinds"] = blinds
    if _get(form, "ante"):
        v = amount(_get(form, "ante"))
        if v is None:
            errors["ante"] = "not an amount"
        else:
            game["ante"] = v
    if structure in ("fixed-limit", "spread-limit"):
        sizes = [amount(_get(form, n)) for n in ("small_bet", "big_bet") if _get(form, n)]
        if any(s is None for s in sizes):
            errors["small_bet"] = "the bet sizes are amounts, like 20 and 40"
        elif sizes:
            game["bet_sizes"] = sizes
    incident: dict[str, Any] = {"incident": "podium", "game": game}
    players: dict[int, Any] = {}
    for seat in SEATS:
        if _get(form, f"in-{seat}"):
            raw = _get(form, f"stack-{seat}")
            if not raw:
                players[seat] = None
            elif (v := amount(raw)) is None:
                errors[f"stack-{seat}"] = f"seat {seat}'s stack '{raw}' is not an amount"
            else:
                players[seat] = v
    incident["players"] = players
    if len(players) < 2:
        errors["seats"] = "tap at least two seats that are in the hand"
    button = _get(form, "button")
    if button.isdigit():
        incident["button"] = int(button)
    elif players:
        errors["button"] = "which seat has the button?"
    street = _get(form, "street") or STREETS[variant][0]
    if street not in STREETS[variant]:
        errors["street"] = f"a {VARIANT_WORDS[variant]} street: {', '.join(STREETS[variant])}"
    else:
        incident["street"] = street
    pot = _get(form, "pot")
    if pot:
        v = amount(pot)
        if v is None:
            errors["pot"] = f"'{pot}' is not an amount"
        else:
            incident["pot"] = v
    actions, problem = read_actions(_get(form, "actions"))
    if problem:
        errors["actions"] = problem
    incident["actions"] = actions
    d_seat = _get(form, "d_seat")
    said = _get(form, "d_said")
    chips, problem = read_chips(_get(form, "d_chips"))
    if problem:
        errors["d_chips"] = problem
    if d_seat.isdigit():
        disputed: dict[str, Any] = {"seat": int(d_seat)}
        if said:
            disputed["said"] = said
        if chips:
            disputed["chips"] = chips
        incident["disputed"] = disputed
    elif said or chips:
        errors["d_seat"] = "whose act is disputed? tap the seat"
    for name, allowed in (("noticed", NOTICED), ("pointed_out_by", POINTED_OUT_BY)):
        value = _get(form, name)
        if value and value in allowed:
            incident[name] = value
        elif value:
            errors[name] = "pick one from the list"
    return FormRead(incident, errors)


def game_label(game: Mapping[str, Any]) -> str:
    """'Pot-limit Hold'em $1/$2' — how a recent game is shown on its button."""
    blinds = game.get("blinds") or []
    stakes = "/".join(f"${b}" for b in (game.get("bet_sizes") or blinds))
    words = f"{STRUCTURE_WORDS.get(game.get('structure'), '')} {VARIANT_WORDS.get(game.get('variant'), '')}"
    tail = " (tournament)" if game.get("setting") == "tournament" else ""
    return f"{words.strip()} {stakes}{tail}".strip()
