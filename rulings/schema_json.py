"""`rulings schema`: a JSON Schema for rulebook files, generated from the specs the loader checks against."""
from __future__ import annotations

from typing import Any

from rulings.catalogue import facts
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
        for key, bound in (("minimum", p.minimum), ("maximum", p.maximum)):
            if bound is not None:
                out[key] = bound
    return out


def _book_names(defs: dict[str, Any]) -> None:
    """Name every parameter of the standard book and every fact, so an editor flags a misspelt one."""
    from rulings import books
    book, _ = books.load(None, compile=False)
    defs["parameter_values"] = {
        "description": "Parameter values: name -> one of its allowed values (see rulings params).",
        "type": "object", "additionalProperties": False,
        "properties": {name: parameter_value(p) for name, p in sorted(book.parameters.items())}}
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
    house["parameters"] = {"$ref": "#/$defs/parameter_values", "description": house["parameters"]["description"]}
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
