"""The podium's hand form, read into an incident (plain data, the incident format of the README).

The form is flat (one field per input, so it also works without JavaScript):
``variant structure setting sb bb ante bb_ante small_bet big_bet`` for the game (``kill_seat kill``: a kill posted
in a limit game, told from the flop on), ``in-N`` and
``stack-N`` for seat N, ``button``, ``street``, ``pot``, ``actions`` as a line such as
``1 bet 50, 2 call, 3 raise 150`` (amounts are the seat's street total, as in the
incident format), ``d_seat d_said d_chips`` for the disputed act, ``after`` for the actions after it (a line as ``actions``), ``noticed`` and
``pointed_out_by``; ``sd_asker`` and ``sd_asked`` for a request at the showdown to see a hand; ``dl_card``,
``dl_how`` and ``dl_noticed`` for a card of the deal that went wrong (a misdeal, an exposed or boxed card); ``stakes`` ("2/5", "$1/$2") gives the blinds (the bet sizes in a
limit game) in one field. Every typed field takes the floor shorthand of
rulings/incident/shorthand.py, as `rulings ask` does ("nl", "pre", "seat 3 raises to 60",
"1.5k", "2x100 25"). Anything the form cannot read becomes a message on that field
and the page keeps what was typed; nothing is guessed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Mapping

from rulings.incident import shorthand as sh

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
STRUCTURE_SHORT = {"no-limit": "NL", "pot-limit": "PL", "fixed-limit": "Limit", "spread-limit": "Spread"}
CHIPS = ("1", "5", "25", "100", "500", "1000", "5000")
# what a player says most often in a dispute, one tap each (the reader of rulings/facts/said.py reads them)
SAID = ("pot", "call", "raise", "all in", "check")
# a card of the deal that went wrong, one tap each: how it was seen, and by whose doing (procedure.deal.cards)
DEAL_HOW = {"dealer_exposed": ("exposed", "dealer", "exposed by the dealer"),
            "dealer_flashed": ("flashed", "dealer", "flashed by the dealer"),
            "boxed": ("boxed", None, "boxed (face up in the deck)"),
            "off_table": ("off_table", "dealer", "dealt off the table"),
            "player_exposed": ("exposed", "player", "shown by the player himself")}
DEAL_NOTICED = {"during_deal": "during the deal", "before_any_action": "after the deal, before anyone acted",
                "after_action": "after some action"}
STREET_WORDS = {"preflop": "Preflop", "flop": "Flop", "turn": "Turn", "river": "River", "third": "3rd street",
                "fourth": "4th street", "fifth": "5th street", "sixth": "6th street", "seventh": "7th street",
                "before-draw": "Before the draw", "after-draw": "After the draw"}


@dataclass
class FormRead:
    incident: dict[str, Any]
    errors: dict[str, str] = field(default_factory=dict)   # field name -> what is wrong
    shown: dict[str, str] = field(default_factory=dict)    # a list's value as read ('nl' -> 'no-limit'), to show


def _get(form: Mapping[str, Any], name: str) -> str:
    value = form.get(name, "")
    if isinstance(value, (list, tuple)):
        value = value[0] if value else ""
    return str(value or "").strip()


def amount(text: str) -> int | Decimal | None:
    """A typed amount ('1,000', '$84.50', '1.5k') as an exact number; None when it is not one."""
    return sh.money_or_none(text) if isinstance(text, str) else None


def read_actions(text: str, seats: Mapping | None = None, button: int | None = None) -> tuple[list[dict], str | None]:
    """``1 bet 50, 2 call`` or ``seat 1 bets 50, seat 2 calls`` -> [{seat: 1, action: bet, to: 50}, ...]; a seat
    not among ``seats`` (when given) is said. With the button and the seats, positions name seats ("UTG raises
    to 60, the button calls")."""
    try:
        acts = sh.actions(text, button, seats or ())
    except sh.Unread as exc:
        return [], exc.message
    for n, act in enumerate(acts, 1):
        if seats and act["seat"] not in seats:
            return acts, (f"action {n}: seat {act['seat']} is not in the hand (the seats in it: "
                          f"{', '.join(map(str, seats))}; tap the seat above if he is in it)")
    return acts, None


def read_chips(text: str) -> tuple[list, str | None]:
    if not text.strip():
        return [], None
    try:
        return sh.chips(text), None
    except sh.Unread as exc:
        return [], exc.message


def _pick(form: Mapping[str, Any], name: str, read, default: str, message: str, errors: dict, shown: dict) -> str:
    raw = _get(form, name)
    if not raw:
        return default
    try:
        value = read(raw)
    except sh.Unread:
        errors[name] = message
        return default
    if value != raw:
        shown[name] = value
    return value


def read_form(form: Mapping[str, Any]) -> FormRead:
    """The incident the form describes, and a message for each field it could not read."""
    errors: dict[str, str] = {}
    shown: dict[str, str] = {}
    variant = _pick(form, "variant", sh.variant, "holdem", "pick a game from the list", errors, shown)
    structure = _pick(form, "structure", sh.structure, "no-limit", "pick a betting structure from the list (or "
                      "nl, pl, fl, spread)", errors, shown)
    setting = _pick(form, "setting", sh.setting, "cash", "cash game or tournament", errors, shown)
    game: dict[str, Any] = {"variant": variant, "structure": structure, "setting": setting}
    stakes: list = []
    if _get(form, "stakes"):
        try:
            stakes = sh.stakes(_get(form, "stakes"))
        except sh.Unread as exc:
            errors["stakes"] = exc.message
    blinds = []
    for name in ("sb", "bb"):
        raw = _get(form, name)
        if raw:
            v = amount(raw)
            if v is None:
                errors[name] = f"'{raw}' is not an amount"
            else:
                blinds.append(v)
    limit = structure in ("fixed-limit", "spread-limit")
    if stakes and not limit:         # '2/5': the blinds (a third amount: a straddle)
        if blinds and blinds != stakes[:2]:
            errors["stakes"] = (f"the stakes say {'/'.join(map(str, stakes[:2]))} but the blinds say "
                                f"{'/'.join(map(str, blinds))}: give one of them")
        blinds = stakes[:2]
        if len(stakes) == 3:
            game["straddles"] = stakes[2:]
    if blinds:
        game["blinds"] = blinds
    if _get(form, "ante"):
        v = amount(_get(form, "ante"))
        if v is None:
            errors["ante"] = "not an amount"
        else:
            game["ante"] = v
    if _get(form, "bb_ante"):        # the big blind pays one ante for the table
        v = amount(_get(form, "bb_ante"))
        if v is None:
            errors["bb_ante"] = "not an amount"
        elif "ante" in game:
            errors["bb_ante"] = "a big blind ante replaces every player's ante: give one of them"
        else:
            game["big_blind_ante"] = v
    if limit:                        # '10/20': the bet sizes
        sizes = [amount(_get(form, n)) for n in ("small_bet", "big_bet") if _get(form, n)]
        if any(s is None for s in sizes):
            errors["small_bet"] = "the bet sizes are amounts, like 20 and 40"
        elif stakes and len(stakes) != 2:
            errors["stakes"] = "a limit game's stakes are its two bet sizes, e.g. 10/20"
        elif stakes and sizes and sizes != stakes:
            errors["stakes"] = (f"the stakes say {'/'.join(map(str, stakes))} but the bet sizes say "
                                f"{'/'.join(map(str, sizes))}: give one of them")
        elif sizes or stakes:
            game["bet_sizes"] = sizes or stakes
    incident: dict[str, Any] = {"incident": "podium", "game": game}
    kill_seat, kill = _get(form, "kill_seat"), _get(form, "kill")
    if (kill_seat or kill) and limit:      # the kill posted this hand (a limit game): table.kill_posted
        v = amount(kill) if kill else None
        try:
            seat_no = sh.seat(kill_seat, max(SEATS))
        except sh.Unread:
            errors["kill_seat"] = "which seat posted the kill?"
            seat_no = None
        if v is None:
            errors["kill"] = "the kill blind he posted, e.g. 20 at $5/$10" if not kill else f"'{kill}' is not an amount"
        elif seat_no is not None:
            incident["table"] = {"kill_posted": {"seat": seat_no, "amount": v, "required": True}}

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
    try:
        incident["button"] = sh.seat(button, max(SEATS))
    except sh.Unread:
        if players:
            errors["button"] = "which seat has the button?"
    street = _get(form, "street")
    try:
        incident["street"] = sh.street(street, variant) if street else STREETS[variant][0]
        if street and incident["street"] != street:
            shown["street"] = incident["street"]
    except sh.Unread:
        errors["street"] = f"a {VARIANT_WORDS[variant]} street: {', '.join(STREETS[variant])}"
    if "table" in incident and incident.get("street") == STREETS[variant][0]:
        errors["kill_seat"] = ("a killed hand is ruled from the flop on (its killed limits): on the first street the "
                               "kill is not replayed yet; tell it from the flop, or leave the kill out")
    pot = _get(form, "pot")
    if pot:
        v = amount(pot)
        if v is None:
            errors["pot"] = f"'{pot}' is not an amount"
        else:
            incident["pot"] = v
    actions, problem = read_actions(_get(form, "actions"), players, incident.get("button"))
    if problem:
        errors["actions"] = problem
    incident["actions"] = actions
    if _get(form, "after"):          # what the players did after the disputed act, in order
        after, problem = read_actions(_get(form, "after"), players)
        if problem:
            errors["after"] = problem
        else:
            incident["after"] = after
    d_seat = _get(form, "d_seat")
    said = _get(form, "d_said")
    chips, problem = read_chips(_get(form, "d_chips"))
    if problem:
        errors["d_chips"] = problem
    act_seat: int | None = None
    if d_seat:
        try:
            act_seat = sh.seat(d_seat, max(SEATS))
        except sh.Unread as exc:
            errors["d_seat"] = exc.message
    if d_seat and act_seat is not None:
        disputed: dict[str, Any] = {"seat": act_seat}
        if said:
            disputed["said"] = said
        if chips:
            disputed["chips"] = chips
        incident["disputed"] = disputed
    elif (said or chips) and "d_seat" not in errors:
        errors["d_seat"] = "whose act is disputed? tap the seat"
    asker, asked = _get(form, "sd_asker"), _get(form, "sd_asked")
    if asker or asked:               # a request at the showdown to see a hand: who asks, whose hand
        request: dict[str, Any] = {}
        for name, key, words in (("sd_asker", "asker", "who asks to see a hand"),
                                 ("sd_asked", "asked_to_see", "whose hand he asks to see")):
            try:
                request[key] = sh.seat(_get(form, name), max(SEATS))
            except sh.Unread:
                errors[name] = f"tap the seat: {words}"
        if len(request) == 2:
            incident["procedure"] = {"showdown": request}
    deal = _deal(form, errors)
    if deal:
        incident["procedure"] = {**incident.get("procedure", {}), "deal": deal}
    for name, body in _sections(form, errors).items():     # the sections picked, each with its declared fields
        proc = incident.setdefault("procedure", {})
        proc[name] = {**body, **proc.get(name, {})}        # the deal box's card and moment lead
    for name, allowed in (("noticed", NOTICED), ("pointed_out_by", POINTED_OUT_BY)):
        value = _get(form, name)
        if value and value in allowed:
            incident[name] = value
        elif value:
            errors[name] = "pick one from the list"
    return FormRead(incident, errors, shown)


# A section's field kind as the form types it (the reader checks the value after): "3, 5" for seats, "2: 3, 5: 1"
# for counts by seat, "2: AsKd, 5: Qh" for cards by seat; a list of entries (items) is not a form field.
FORM_KINDS = {"bool": "yes or no", "count": "a whole number", "money": "an amount", "seat": "a seat number",
              "hand_seat": "a seat number", "seats": "seats, e.g. 3, 5", "table_seats": "seats, e.g. 3, 5",
              "seat_or_seats": "a seat, or seats: 3, 5", "seat_counts": "by seat, e.g. 2: 3, 5: 1",
              "cards": "cards by seat, e.g. 2: AsKd, 5: Qh", "board": "cards, e.g. AhKd7c", "choice": "one of the list"}


def sections() -> list[dict[str, Any]]:
    """The declared sections of an incident's ``procedure:`` part (rulings/facts/*.yaml ``sections:``) as the
    floor form's section picker shows them: each with its title and its fields (``p.SECTION.FIELD``), their
    kind, choices and question; a field the form cannot hold (a list of entries) is named, not offered."""
    from rulings.rulebook.catalogue import sections as declared
    out = []
    for name, decl in declared().items():
        fields, not_here = [], []
        for key, d in decl["fields"].items():
            if d["kind"] not in FORM_KINDS:
                not_here.append(key)
                continue
            fields.append({"name": f"p.{name}.{key}", "key": key, "kind": d["kind"], "values": d.get("values") or [],
                           "label": d.get("question") or key, "hint": FORM_KINDS[d["kind"]],
                           "needed": key in decl["needs"]})
        not_here += list(decl["repeats"])          # several entries (requests, offenders): one at a time here
        out.append({"name": name, "title": decl["title"], "fields": fields, "not_here": not_here})
    return out


def _seat_map(text: str, value) -> dict[int, Any]:
    out: dict[int, Any] = {}
    for part in filter(None, (p.strip() for p in text.replace(";", ",").split(","))):
        seat, sep, v = part.partition(":")
        if not sep or not seat.strip().isdigit() or not v.strip():
            raise ValueError(part)
        out[int(seat)] = value(v.strip())
    return out


def _section_value(kind: str, raw: str, values: list) -> Any:
    """One section field as typed, in the incident format's form; ValueError when it cannot be read."""
    low = raw.lower()
    if kind == "bool":
        if low in ("yes", "y", "true"):
            return True
        if low in ("no", "n", "false"):
            return False
        raise ValueError(raw)
    if kind in ("count", "seat", "hand_seat"):
        return int(sh.seat(raw, 10_000)) if kind != "count" else int(raw.replace(",", ""))
    if kind == "money":
        v = amount(raw)
        if v is None:
            raise ValueError(raw)
        return v
    if kind == "choice":
        if raw not in values:
            raise ValueError(raw)
        return raw
    if kind in ("seats", "table_seats", "seat_or_seats"):
        parts = [p for p in raw.replace(";", ",").replace(" ", ",").split(",") if p]
        if not parts or not all(p.isdigit() for p in parts):
            raise ValueError(raw)
        return [int(p) for p in parts]
    if kind == "seat_counts":
        return _seat_map(raw, lambda v: int(v.replace(",", "")) if v.replace(",", "").isdigit() else _bad(v))
    if kind == "cards":
        return _seat_map(raw, lambda v: v.replace(" ", ""))
    return raw.replace(" ", "")          # a board


def _bad(v: str) -> Any:
    raise ValueError(v)


def _sections(form: Mapping[str, Any], errors: dict[str, str]) -> dict[str, dict[str, Any]]:
    """The sections picked on the form (``sec.SECTION``), each with the fields typed in it (``p.SECTION.FIELD``);
    a picked section with nothing typed is not sent, a field that cannot be read is said beside it."""
    out: dict[str, dict[str, Any]] = {}
    for sec in sections():
        if not _get(form, f"sec.{sec['name']}"):
            continue
        body: dict[str, Any] = {}
        for fld in sec["fields"]:
            raw = _get(form, fld["name"])
            if not raw:
                continue
            try:
                body[fld["key"]] = _section_value(fld["kind"], raw, fld["values"])
            except (ValueError, sh.Unread):
                errors[fld["name"]] = f"'{raw}' is not {fld['hint']}"
        if body:
            out[sec["name"]] = body
    return out


def _deal(form: Mapping[str, Any], errors: dict[str, str]) -> dict[str, Any]:
    """The deal in dispute (``dl_card``, ``dl_how``, ``dl_noticed``): one card of the deal by its place in the
    deal order (1: the first card off the deck), how it was seen, and when it was noticed. Empty when none is
    given; what is given and not enough is said on its field."""
    card, how, noticed = _get(form, "dl_card"), _get(form, "dl_how"), _get(form, "dl_noticed")
    if not (card or how or noticed):
        return {}
    deal: dict[str, Any] = {}
    if card or how:
        if not card.isdigit() or not 1 <= int(card) <= 100:
            errors["dl_card"] = "which card of the deal: its number, 1 for the first card off the deck"
        elif how not in DEAL_HOW:
            errors["dl_how"] = "how was the card seen? tap one"
        else:
            kind, by, _words = DEAL_HOW[how]
            deal["cards"] = [{"position": int(card), "how": kind, **({"by": by} if by else {})}]
    if noticed:
        if noticed in DEAL_NOTICED:
            deal["noticed"] = noticed
        else:
            errors["dl_noticed"] = "pick one from the list"
    return deal


def game_label(game: Mapping[str, Any]) -> str:
    """'PL Hold'em $1/$2' — how a recent game is shown on its button (short, as floors say it)."""
    blinds = game.get("blinds") or []
    stakes = "/".join(f"${b}" for b in (game.get("bet_sizes") or blinds))
    structure, variant = game.get("structure") or "", game.get("variant") or ""
    words = f"{STRUCTURE_SHORT.get(structure, '')} {VARIANT_WORDS.get(variant, '')}"
    tail = " tourn." if game.get("setting") == "tournament" else ""
    return f"{words.strip()} {stakes}{tail}".strip()


def _text(value: Any) -> str:
    """An amount or seat of an incident as the form's field shows it ('1000', '84.50')."""
    if isinstance(value, Decimal):
        return format(value.normalize(), "f") if value == value.to_integral() else format(value, "f")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _line(actions: Any) -> str | None:
    """Actions as the form's line ('1 bet 50, 2 call'); None when one holds more than seat, action and amount."""
    if not isinstance(actions, list):
        return None
    out = []
    for a in actions:
        if not isinstance(a, dict) or set(a) - {"seat", "action", "to"} or a.get("action") not in ACTIONS:
            return None
        out.append(f"{a['seat']} {a['action']}" + (f" {_text(a['to'])}" if a.get("to") is not None else ""))
    return ", ".join(out)


def _answer_fields() -> dict[str, str]:
    """The disputed act's and the showdown request's fields that a consultation answer fills (the fact catalogue's
    ``from``), by field: what the form has no field of its own for is carried as that answer."""
    from rulings.rulebook.catalogue import facts
    from rulings.ruling.consult import askable
    return {fact.source: name for name, fact in facts().items() if askable(fact) and fact.source}


@dataclass
class Filled:
    """An incident (a told dispute as read) as the floor form's fields: ``fields`` (name -> text), ``answers``
    (a fact the form has no field for, carried as the consultation's answer: ``a.FACT``), ``left_out`` (what
    the form cannot hold, in words: the ruling is then made on the incident as read)."""
    fields: dict[str, str] = field(default_factory=dict)
    answers: dict[str, str] = field(default_factory=dict)
    left_out: list[str] = field(default_factory=list)


def _value(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else _text(v)


def fields_of(incident: Mapping[str, Any]) -> Filled:
    """The form's fields for an incident in the one-street form (the inverse of ``read_form``), so a told dispute
    read by rulings/told/ fills the form, each field still editable."""
    out = Filled()
    f, left = out.fields, out.left_out
    by_field = _answer_fields()
    table = incident.get("table")
    kill = table.get("kill_posted") if isinstance(table, dict) and set(table) == {"kill_posted"} else None
    if isinstance(kill, dict) and set(kill) <= {"seat", "amount", "required"} and kill.get("required", True):
        f["kill_seat"], f["kill"] = _text(kill.get("seat", "")), _text(kill.get("amount", ""))
    elif table is not None:
        left.append("table")
    for key in set(incident) - {"incident", "note", "game", "button", "players", "street", "pot", "actions",
                                "after", "disputed", "noticed", "pointed_out_by", "procedure", "table"}:
        left.append(key)
    game = incident.get("game") or {}
    f["variant"] = str(game.get("variant", "holdem"))
    f["structure"] = str(game.get("structure", "no-limit"))
    f["setting"] = str(game.get("setting", "cash"))
    limit = f["structure"] in ("fixed-limit", "spread-limit")
    blinds, sizes = list(game.get("blinds") or []), list(game.get("bet_sizes") or [])
    if limit:
        if sizes:
            f["stakes"] = "/".join(_text(x) for x in sizes[:2])
        if blinds:
            f["sb"], f["bb"] = _text(blinds[0]), _text(blinds[-1])
    elif blinds:
        f["stakes"] = "/".join(_text(x) for x in [*blinds[:2], *(game.get("straddles") or [])[:1]])
        if len(game.get("straddles") or []) > 1:
            left.append("game.straddles")
    if game.get("ante") is not None:
        f["ante"] = _text(game["ante"])
    if game.get("big_blind_ante") is not None:
        f["bb_ante"] = _text(game["big_blind_ante"])
    for key in set(game) - {"variant", "structure", "setting", "blinds", "bet_sizes", "straddles", "ante",
                            "big_blind_ante"}:
        left.append(f"game.{key}")
    players = incident.get("players") or {}
    for seat, stack in (players.items() if isinstance(players, dict) else ()):
        f[f"in-{seat}"] = "1"
        if stack is not None:
            f[f"stack-{seat}"] = _text(stack)
    for key in ("button", "street", "pot", "noticed", "pointed_out_by"):
        if incident.get(key) is not None:
            f[key] = _text(incident[key])
    for key in ("actions", "after"):
        if incident.get(key):
            line = _line(incident[key])
            if line is None:
                left.append(key)
            else:
                f[key] = line
    d = incident.get("disputed")
    if isinstance(d, dict):
        f["d_seat"] = _text(d.get("seat", ""))
        if d.get("said") is not None:
            f["d_said"] = str(d["said"])
        if d.get("chips"):
            f["d_chips"] = " ".join(_text(c) for c in d["chips"])
        for key, v in d.items():
            if key in ("seat", "said", "chips"):
                continue
            fact = by_field.get(f"disputed.{key}")
            if fact and isinstance(v, (bool, str)):
                out.answers[fact] = _value(v)
            else:
                left.append(f"disputed.{key}")
    elif d is not None:
        left.append("disputed")
    proc = incident.get("procedure")
    if isinstance(proc, dict):
        for section, body in proc.items():
            if section == "showdown" and isinstance(body, dict) and {"asker", "asked_to_see"} <= set(body):
                f["sd_asker"], f["sd_asked"] = _text(body["asker"]), _text(body["asked_to_see"])
                for key, v in body.items():
                    fact = by_field.get(f"procedure.showdown.{key}")
                    if key in ("asker", "asked_to_see"):
                        continue
                    if fact and isinstance(v, (bool, str)):
                        out.answers[fact] = _value(v)
                    else:
                        left.append(f"procedure.showdown.{key}")
            elif not _section_fields(section, body, f, left):
                left.append(f"procedure.{section}")
    return out


def _section_fields(name: str, body: Any, f: dict[str, str], left: list[str]) -> bool:
    """A declared section of the incident as the form's picked section and its fields; False when the form
    holds none of it (a section not declared, or not a mapping)."""
    sec = next((s for s in sections() if s["name"] == name), None)
    if sec is None or not isinstance(body, dict):
        return False
    kinds = {fld["key"]: fld["kind"] for fld in sec["fields"]}
    f[f"sec.{name}"] = "1"
    for key, v in body.items():
        kind = kinds.get(key)
        if kind is None:
            left.append(f"procedure.{name}.{key}")
        elif kind == "bool":
            f[f"p.{name}.{key}"] = "yes" if v else "no"
        elif isinstance(v, dict):
            f[f"p.{name}.{key}"] = ", ".join(f"{k}: {_text(x)}" for k, x in v.items())
        elif isinstance(v, (list, tuple)):
            f[f"p.{name}.{key}"] = ", ".join(_text(x) for x in v)
        else:
            f[f"p.{name}.{key}"] = _text(v)
    return True
