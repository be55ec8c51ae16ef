"""`rulings schema`: a JSON Schema for rulebook files, generated from the specs the loader checks against."""
from __future__ import annotations

from typing import Any

from rulings.rulebook.catalogue import facts
from rulings.rulebook.conditions import COMPARE, TESTS
from rulings.rulebook.house import HOUSE_FILE
from rulings.rulebook.model import Parameter
from rulings.rulebook.schema import EXAMPLE, PARAMETER, RULE, TOPIC_FILE, WHEN, Spec

SCHEMA_ID = "https://rulings.example/schemas/rulebook.schema.json"
# Specs used in more than one place become shared definitions, so editors show one name for them.
_NAMED = {id(RULE): "rule", id(PARAMETER): "parameter", id(EXAMPLE): "example", id(WHEN): "when"}
# A money amount as people write it: 400, 2.50, "$400", "$1,000.50".
MONEY = r"^\$?[0-9][0-9,]*(\.[0-9]{1,2})?$"


def _scalar() -> list[dict]:
    return [{"type": "string"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}]


def _node(spec: Spec, defs: dict[str, Any]) -> dict[str, Any]:
    name = _NAMED.get(id(spec))
    if name is not None:
        if name not in defs:
            defs[name] = {}   # reserve first: a spec may (indirectly) contain itself
            defs[name] = _body(spec, defs)
        return {"$ref": f"#/$defs/{name}", "description": spec.description}
    return _body(spec, defs)


def _body(spec: Spec, defs: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"description": spec.description}
    if spec.kind == "map":
        out.update(type="object", additionalProperties=False,
                   properties={k: _node(sub, defs) for k, (sub, _) in spec.fields.items()},
                   required=[k for k, (_, req) in spec.fields.items() if req])
    elif spec.kind == "dict":
        out.update(type="object", additionalProperties=_node(spec.item, defs) if spec.item else True)
    elif spec.kind == "list":
        out.update(type="array", items=_node(spec.item, defs) if spec.item else {})
    elif spec.kind == "str":
        out["type"] = "string"
    elif spec.kind == "bool":
        out["type"] = "boolean"
    elif spec.kind == "int":
        out["type"] = "integer"
    elif spec.kind == "scalar":
        out["anyOf"] = _scalar()
    elif spec.kind == "per_setting":
        out["anyOf"] = _scalar() + [{"type": "object", "additionalProperties": False, "minProperties": 1,
                                     "properties": {"cash": {"anyOf": _scalar()},
                                                    "tournament": {"anyOf": _scalar()}}}]
    if spec.enum:
        out["enum"] = list(spec.enum)
    return out


def parameter_value(p: Parameter) -> dict[str, Any]:
    """What a value of this parameter may be, with its description and the plain words of each value."""
    words = "; ".join(f"{v}: {w}" for v, w in p.words.items())
    out: dict[str, Any] = {"description": p.description + (f" ({words})" if words else "")}
    if p.type in ("enum", "bool"):
        out["enum"] = list(p.values)
    elif p.type == "money":
        out["anyOf"] = [{"type": "number", "minimum": 0}, {"type": "string", "pattern": MONEY}]
    else:
        out["type"] = "integer"
        for key, bound in (("minimum", p.minimum), ("maximum", p.upper())):
            if bound is not None:
                out[key] = bound
    return out


def _per_setting(value: dict[str, Any]) -> dict[str, Any]:
    """One value for both settings, or a value per setting ({cash: v, tournament: v}, either left out)."""
    one = {k: v for k, v in value.items() if k != "description"}
    return {"description": value["description"],
            "anyOf": [one, {"type": "object", "additionalProperties": False, "minProperties": 1,
                            "properties": {"cash": one, "tournament": one}}]}


def _book_names(defs: dict[str, Any]) -> None:
    """Name every parameter of the standard book and every fact, so an editor flags a misspelt one."""
    from rulings.ruling import books
    book, _ = books.load(None, compile=False)
    defs["parameter_values"] = {
        "description": "Parameter values: name -> one of its allowed values (see rulings params).",
        "type": "object", "additionalProperties": False,
        "properties": {name: parameter_value(p) for name, p in sorted(book.parameters.items())}}
    defs["house_parameter_values"] = {
        "description": "A house book's parameter values: name -> one of its allowed values, used in cash games and "
                       "tournaments alike, or {cash: value, tournament: value} (see rulings params).",
        "type": "object", "additionalProperties": False,
        "properties": {name: _per_setting(parameter_value(p)) for name, p in sorted(book.parameters.items())}}
    names = sorted(facts()) + sorted("param." + n for n in book.parameters) + ["any_of", "ruled"]
    defs["when"]["propertyNames"] = {"enum": names}
    defs["when"]["properties"] = {"any_of": {"description": "One of these condition mappings must hold.",
                                             "type": "array", "items": {"$ref": "#/$defs/when"}}}
    choices = {n: (f.description, f.values if f.type == "enum" else (True, False))
               for n, f in facts().items() if f.type in ("enum", "bool")}
    choices.update({"param." + n: (p.description, p.values) for n, p in book.parameters.items()
                    if p.type in ("enum", "bool")})
    for name, (description, values) in sorted(choices.items()):
        defs["when"]["properties"][name] = _choice_test(description, list(values))
    house = defs["house_file"]["properties"]
    house["parameters"] = {"$ref": "#/$defs/house_parameter_values",
                           "description": house["parameters"]["description"]}
    incident = defs["example"]["properties"]["incident"]
    incident["properties"] = {"params": {"$ref": "#/$defs/parameter_values",
                                         "description": "Parameter values for this example only."}}
    then = defs["rule"]["properties"]["then"]["properties"]
    then["ask"]["items"]["enum"] = sorted(facts())
    then["derive"]["propertyNames"] = {"enum": sorted(n for n, f in facts().items() if f.kind == "derived")}


def _choice_test(description: str, values: list) -> dict[str, Any]:
    """A condition on a fact or parameter with a fixed set of values: one of them, or a test of them."""
    one = {"description": "One of: " + ", ".join(str(v).lower() if isinstance(v, bool) else str(v)
                                                  for v in values) + ".", "enum": values}
    many = {"description": "A list of its values.", "type": "array", "items": one}
    tests = {"not": one, "in": many, "not_in": many,
             "missing": {"description": "The fact is not known (write true).", "enum": [True]},
             "present": {"description": "The fact is known (write true).", "enum": [True]}}
    assert set(tests) == set(TESTS) - set(COMPARE)   # the loader's tests for a value that is not a number
    return {"description": description, "anyOf": [
        one, {"description": "A test of its value.", "type": "object", "additionalProperties": False,
              "properties": tests}]}


def rulebook_schema() -> dict[str, Any]:
    """One schema for both kinds of rulebook file: a standard topic file or a house book."""
    defs: dict[str, Any] = {}
    topic = _node(TOPIC_FILE, defs)
    house = _node(HOUSE_FILE, defs)
    defs["topic_file"], defs["house_file"] = topic, house
    _book_names(defs)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "rulings rulebook file",
        "description": "A standard topic file (topic:, title:, parameters:, rules:) or a house rulebook "
                       "(rulebook:, extends:, title:, parameters:, rules:, disable:). Generated by "
                       "`rulings schema` from the definitions the loader checks against, the standard "
                       "book's parameters and the fact catalogue.",
        "oneOf": [{"$ref": "#/$defs/topic_file"}, {"$ref": "#/$defs/house_file"}],
        "$defs": dict(sorted(defs.items())),
    }


INCIDENT_ID = "https://rulings.example/schemas/incident.schema.json"
_MONEY = {"description": "an amount in the game's units (dollars or tournament chips), cents allowed",
          "anyOf": [{"type": "number", "minimum": 0}, {"type": "string", "pattern": MONEY}]}
_SEAT = {"type": "integer", "minimum": 1, "maximum": 1_000_000}
_BOOL = {"type": "boolean"}
_CARDS = {"description": "cards: a list ['Ah', '7c'] or text 'Ah 7c' (rank 2-9 T J Q K A, suit c d h s)",
          "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string", "pattern": "^(10|[2-9TJQKAtjqka])[cdhsCDHS]$"}}]}


def _obj(props: dict[str, Any], description: str, required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "object", "description": description, "additionalProperties": False,
            "properties": props, **({"required": list(required)} if required else {})}


def _enum(name: str) -> dict[str, Any]:
    return {"enum": list(facts()[name].values)}


def incident_schema() -> dict[str, Any]:
    """The incident format (one-street shorthand and whole hand) as JSON Schema, from the reader's own field lists."""
    from rulings.incident import fields as f
    from rulings.incident import hand, procedure, table
    action = _obj({"seat": _SEAT, "action": {"enum": list(f.ACTIONS) + list(f.PHH_ACTIONS) + list(f.ACTION_WORDS)},
                   "to": _MONEY},
                  "one action; `to` is the seat's street total after it. A fold, check or call needs none; a bet, "
                  "raise or complete without it is sized by the limits in fixed-limit, and otherwise unknown "
                  "(asked when a disputed act after it depends on it)", ("seat", "action"))
    actions = {"type": "array", "items": action, "maxItems": f.MAX_LIST}
    streets = [s for fam in f.STREETS.values() for s in fam]
    chips = {"type": "array", "items": _MONEY}
    disputed_props: dict[str, Any] = {k: _BOOL for k in f.DISPUTED_FLAGS}
    disputed_props.update(seat=_SEAT, said={"type": "string", "maxLength": f.MAX_SAID}, chips=chips,
                          motions={"type": "array", "items": chips}, words_first=_enum("words_first"),
                          based_on_count=_MONEY, chips_total=_MONEY, prior_chips=chips,
                          prior_pulled={"enum": ["none", "part", "all"]}, count_answer=_MONEY, hidden_chips=_MONEY,
                          side_deal={"enum": ["insurance", "proposition", "run_twice"]}, buy_in=_MONEY,
                          cashed_out=_MONEY, minutes_away={"type": "integer", "minimum": 0, "maximum": 1_000_000},
                          dealer_took=_obj({"action": {"enum": list(f.ACTIONS[1:]) + list(f.ACTION_WORDS)},
                                            "to": _MONEY},
                                           "the act as the dealer took it (his record, e.g. raised to 1,000), kept "
                                           "apart from what the player said or did", ("action",)),
                          at=_obj({"street": {"enum": streets}, "after": {"type": "integer", "minimum": 0}},
                                  "where the act happened: on this street, after its first `after` actions"))
    timing = {"noticed": _enum("noticed"), "pointed_out_by": _enum("pointed_out_by"),
              "deliberated": _BOOL, "count_requested": _BOOL,
              "skipped_had_time": _BOOL}
    assert set(disputed_props) == set(f.DISPUTED) | {"at"}
    one_act = _obj(disputed_props, "the disputed act", ("seat",))
    listed_act = _obj({**disputed_props, "after": actions, **timing},
                      "one of several disputed acts, placed `at` a point, with its own timing", ("seat", "at"))
    game = _obj({"variant": _enum("variant"), "structure": _enum("structure"), "setting": _enum("setting"),
                 "blinds": {"type": "array", "items": _MONEY, "maxItems": 2}, "ante": _MONEY,
                 "big_blind_ante": _MONEY, "straddles": {"type": "array", "items": _MONEY},
                 "bet_sizes": {"type": "array", "items": _MONEY}, "spread": {"type": "array", "items": _MONEY},
                 "betting_unit": _MONEY, "bring_in": _MONEY, "players_left": {"type": "integer", "minimum": 2},
                 "high_low": {"type": "boolean"}},
                "the game and its stakes", ("structure",))
    assert set(game["properties"]) == set(f.GAME)
    told_pot = _obj({"amount": _MONEY, "seats": {"type": "array", "items": _SEAT, "minItems": 1}},
                    "one pot by amount, with the seats in it", ("amount", "seats"))
    street = _obj({"street": {"enum": streets}, "actions": actions, "board": _CARDS,
                   "upcards": {"type": "object", "additionalProperties": _CARDS, "description": "stud: seat -> new upcards"},
                   "left": {"type": "array", "items": _SEAT, "minItems": 1,
                            "description": "a street told without its actions: the seats still in at its end"},
                   "pot": {**_MONEY, "description": "a street told without its actions: the pot at its end "
                           "(left out: not known)"},
                   "pots": {"type": "array", "items": told_pot, "minItems": 1, "maxItems": 20,
                            "description": "a street told without its actions: the pots at its end by amount, main "
                            "pot first, each with its seats (a seat missing from a later pot is all in)"}},
                  "one betting round: its new board cards (or stud upcards) and its actions in order; or, before "
                  "the streets told action by action, told only by who is left and the pot")
    assert set(street["properties"]) == set(hand.STREET_KEYS)
    event = _obj({"seat": _SEAT, "shows": _CARDS, "tables": _CARDS,
                  "mucks": {"anyOf": [{"const": True}, _CARDS]}, "declares": {"enum": list(hand.DECLARATIONS)}},
                 "one showdown event: exactly one of shows, mucks, tables, declares", ("seat",))
    award = _obj({"pot": {"type": "integer", "minimum": 0}, "winners": {"type": "array", "items": _SEAT, "minItems": 1}},
                 "who won one pot (0: the main pot, then side pots in order)", ("winners",))
    seats_or_map = {"anyOf": [{"type": "object", "additionalProperties": {"anyOf": [_MONEY, {"type": "null"}]}},
                              {"type": "array", "items": _SEAT}]}
    kinds: dict[str, Any] = {"bool": _BOOL, "count": {"type": "integer", "minimum": 0}, "money": _MONEY, "seat": _SEAT,
             "hand_seat": _SEAT, "seats": {"type": "array", "items": _SEAT},
             "seat_or_seats": {"anyOf": [_SEAT, {"type": "array", "items": _SEAT}]}, "board": _CARDS,
             "cards": {"type": "object", "additionalProperties": _CARDS}, "table_seats": {"type": "array", "items": _SEAT},
             "seat_counts": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}}

    def field(kind: Any, decl: dict) -> dict[str, Any]:   # a declared field of a section (facts/*.yaml sections:)
        out: dict[str, Any]
        if isinstance(kind, tuple) or kind == "choice":
            out = {"enum": list(kind if isinstance(kind, tuple) else decl["values"])}
        elif kind == "items":
            out = {"type": "array", "maxItems": decl.get("maximum", 100), "items": _obj(
                {k: field(d["kind"], d) for k, d in decl["items"].items()}, "one entry",
                tuple(k for k, d in decl["items"].items() if d.get("needed")))}
        else:
            out = dict(kinds[kind])
        if decl.get("description"):
            out["description"] = decl["description"]
        return out
    declared = procedure.declared()
    fields = {name: {k: field(kind, declared[name]["fields"][k]) for k, (kind, _) in spec.items()}
              for name, spec in procedure.SPEC.items()}
    request = _obj({k: fields["showdown"][k] for k in procedure.REQUEST}, "one request to see a hand",
                   ("asker", "asked_to_see"))
    fields["showdown"]["requests"] = {"type": "array", "minItems": 1, "items": request,
                                      "description": "several requests to see hands, each ruled on by itself"}
    for name, decl in declared.items():      # another section's list of entries (penalty.offenders)
        for rep, keys in decl["repeats"].items():
            if name != "showdown":
                entry = _obj({k: fields[name][k] for k in keys}, f"one of {rep}",
                             tuple(k for k in decl["needs"] if k in keys))
                fields[name][rep] = {"type": "array", "minItems": 1, "items": entry,
                                     "description": f"several {rep}, each ruled on by itself"}
    proc = _obj({name: _obj(spec, f"procedure: {name}") for name, spec in fields.items()},
                "a table procedure in dispute (no disputed act needed)")
    tbl = {"type": "object", "description": "kill pots: the table's recent history (fields: "
           + ", ".join(table.TABLE) + ")", "propertyNames": {"enum": list(table.TABLE)}}
    props: dict[str, Any] = {
        "incident": {"type": "string"}, "house": {"type": "string"}, "note": {"type": "string"}, "game": game,
        "button": _SEAT, "players": seats_or_map,
        "street": {"enum": streets}, "pot": _MONEY, "actions": actions, "pot_now": _MONEY,
        "streets": {"type": "array", "items": street, "minItems": 1, "maxItems": hand.MAX_STREET_LIST},
        "showdown": {"type": "array", "items": event}, "pots_won": {"type": "array", "items": award},
        "disputed": {"anyOf": [one_act, {"type": "array", "items": listed_act, "minItems": 1, "maxItems": f.MAX_ACTS}]},
        "after": actions, **timing, "params": {"type": "object", "maxProperties": f.MAX_PARAMS},
        "table": tbl, "procedure": proc,
        "upcards": {"type": "object", "additionalProperties": {"type": "string"}}, "exposed_downcard": _SEAT,
        "split": _obj({"winners": {"type": "array", "items": _SEAT, "minItems": 2}, "pot": {"type": "integer", "minimum": 0},
                       "smallest_chip": _MONEY}, "a tied pot", ("winners",)),
    }
    assert set(props) == set(f.TOP), set(props) ^ set(f.TOP)
    # A later street's pot left out is unknown, never refused: the report asks for it when it changes the ruling.
    props["pot"] = {**_MONEY, "description": "the chips in the middle when the street began; leave it out when "
                    "it is not known (the first street's follows from the blinds and antes; on a later street the "
                    "report asks for it only where it changes the ruling)"}
    studs = [v for v, fam in f.VARIANT_STREETS.items() if fam == "stud"]
    return {**_obj(props, "an incident", ("game", "players")),
            "$schema": "https://json-schema.org/draft/2020-12/schema", "$id": INCIDENT_ID,
            "title": "rulings incident",
            "description": "A disputed poker incident: the one-street form (street, pot, actions, one disputed act) "
                           "or the whole hand (streets, showdown, pots_won, one or more disputed acts placed `at` "
                           "a point). Amounts are in the game's units; see docs/incident-format.md.",
            "not": {"anyOf": [{"required": ["streets", "street"]}, {"required": ["streets", "actions"]},
                              {"required": ["streets", "pot"]}]},
            "if": {"description": "a stud game has no button (the upcards say who acts); every other game names it",
                   "required": ["game"],
                   "properties": {"game": {"required": ["variant"], "properties": {"variant": {"enum": studs}}}}},
            "then": {}, "else": {"required": ["button"]}}
