"""`rulings schema`: the committed JSON Schema is current, describes every field, and accepts the real rulebooks."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from cli.main import main
from rulings.report.schema_json import rulebook_schema

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "schemas" / "rulebook.schema.json"
BOOKS = sorted((ROOT / "rulebooks").glob("*/*.yaml"))


def test_committed_schema_is_current(capsys):
    """Regenerate with: rulings schema > schemas/rulebook.schema.json"""
    assert main(["schema"]) == 0
    printed = capsys.readouterr().out
    assert json.loads(printed) == rulebook_schema()
    assert COMMITTED.read_text(encoding="utf-8") == printed


def _nodes(node: Any, path: str = "$"):
    if isinstance(node, dict):
        yield path, node
        for key, sub in node.get("properties", {}).items():
            yield from _nodes(sub, f"{path}.{key}")
        for key in ("items", "additionalProperties"):
            if isinstance(node.get(key), dict):
                yield from _nodes(node[key], f"{path}[{key}]")
        for name, sub in node.get("$defs", {}).items():
            yield from _nodes(sub, f"#{name}")


def test_every_field_has_a_description():
    missing = [path for path, node in _nodes(rulebook_schema()) if "$ref" not in node and "oneOf" not in node
               and not node.get("description")]
    assert missing == []


def _errors(schema: dict, node: dict, value: Any, path: str = "$") -> list[str]:
    """A small validator for the keywords the generated schema uses (no extra dependency)."""
    if "$ref" in node:
        node = schema["$defs"][node["$ref"].rsplit("/", 1)[1]]
    if "oneOf" in node:
        passing = [alt for alt in node["oneOf"] if not _errors(schema, alt, value, path)]
        return [] if len(passing) == 1 else [f"{path}: matches {len(passing)} of the alternatives"]
    kind = node.get("type")
    py = {"object": dict, "array": list, "string": str, "boolean": bool, "integer": int,
          "number": (int, float)}.get(kind)
    if py and (not isinstance(value, py) or (py is int and isinstance(value, bool))):
        return [f"{path}: not {kind}"]
    if "enum" in node and value not in node["enum"]:
        return [f"{path}: {value!r} not in {node['enum']}"]
    if "anyOf" in node and all(_errors(schema, alt, value, path) for alt in node["anyOf"]):
        return [f"{path}: {value!r} matches none of the alternatives"]
    if "pattern" in node and isinstance(value, str) and not re.search(node["pattern"], value):
        return [f"{path}: {value!r} is not of the form {node['pattern']}"]
    if isinstance(value, (int, float)) and not isinstance(value, bool) and (
            value < node.get("minimum", value) or value > node.get("maximum", value)):
        return [f"{path}: {value!r} out of range"]
    errs = []
    if kind == "object":
        props = node.get("properties", {})
        errs += [f"{path}: missing {k}" for k in node.get("required", []) if k not in value]
        names = node.get("propertyNames", {}).get("enum")
        errs += [f"{path}: unknown name {k}" for k in value if names is not None and k not in names]
        for k, v in value.items():
            sub = props.get(k, node.get("additionalProperties", True))
            if sub is False:
                errs.append(f"{path}: unknown key {k}")
            elif isinstance(sub, dict):
                errs += _errors(schema, sub, v, f"{path}.{k}")
    if kind == "array":
        for i, item in enumerate(value):
            errs += _errors(schema, node["items"], item, f"{path}[{i}]")
    return errs


@pytest.mark.parametrize("path", BOOKS, ids=lambda p: p.name)
def test_every_rulebook_file_validates(path):
    schema = rulebook_schema()
    data = json.loads(json.dumps(yaml.safe_load(path.read_text(encoding="utf-8")), default=str))
    assert _errors(schema, schema, data) == []


def test_a_misspelt_key_does_not_validate():
    schema = rulebook_schema()
    data = {"rulebook": "x", "extends": "standard", "title": "X", "disabel": []}
    assert _errors(schema, schema, data) == ["$: matches 0 of the alternatives"]
    assert "$: unknown key disabel" in _errors(schema, schema["$defs"]["house_file"], data)


def _house(parameters: dict, when: dict | None = None) -> dict:
    rule = {"id": "h.r", "title": "t", "cites": ["RRP-PL-1"], "text": "t", "when": when or {"pot": 5},
            "then": {"ruling": "r", "decides": "q"}, "examples": []}
    return {"rulebook": "h", "extends": "standard", "title": "H", "parameters": parameters, "rules": [rule]}


def test_the_schema_names_every_parameter_and_its_values():
    """What an editor shows as the manager types: a misspelt parameter, a value it does not take, a bad fact."""
    schema = rulebook_schema()
    assert _errors(schema, schema, _house({"kill.size": "half", "raise_cap.max_raises": 4,
                                           "pot_limit.rounding_unit": "$5"})) == []
    assert "unknown key kill.sise" in " ".join(_errors(schema, schema["$defs"]["house_file"], _house({"kill.sise": "half"})))
    # a house value is one value or one per setting ({cash: v, tournament: v}): a bad one matches neither form
    assert "kill.size: 'quarter' matches none of the alternatives" in " ".join(
        _errors(schema, schema["$defs"]["house_file"], _house({"kill.size": "quarter"})))
    assert "max_raises: 11 matches none of the alternatives" in " ".join(
        _errors(schema, schema["$defs"]["house_file"], _house({"raise_cap.max_raises": 11})))
    assert _errors(schema, schema, _house({"clock.seconds": {"cash": 45, "tournament": 30},
                                           "clock.countdown_seconds": {"tournament": 10}})) == []
    for bad in ({"cash": 45, "tourney": 30}, {"cash": 450}):
        assert "matches none of the alternatives" in " ".join(
            _errors(schema, schema["$defs"]["house_file"], _house({"clock.seconds": bad}))), bad
    assert "unknown name pott" in " ".join(
        _errors(schema, schema["$defs"]["house_file"], _house({}, {"pott": 5})))
    assert "unknown name param.kill.sise" in " ".join(
        _errors(schema, schema["$defs"]["house_file"], _house({}, {"any_of": [{"param.kill.sise": "half"}]})))
    house = schema["$defs"]["house_file"]
    assert "'quarter' matches none of the alternatives" in " ".join(
        _errors(schema, house, _house({}, {"param.kill.size": "quarter"})))
    assert "{'in': ['required', 'voluntry']} matches none of the alternatives" in " ".join(
        _errors(schema, house, _house({}, {"param.kill.mode": {"in": ["required", "voluntry"]}})))
    assert "'flopp' matches none of the alternatives" in " ".join(_errors(schema, house, _house({}, {"street": "flopp"})))
    assert _errors(schema, house, _house({}, {"street": {"not_in": ["river"]}, "param.kill.size": "half",
                                              "param.straddle.allowed": True})) == []
    derive = _house({})
    derive["rules"][0]["then"] = {"derive": {"pot": "5"}}
    assert "unknown name pot" in " ".join(_errors(schema, schema["$defs"]["house_file"], derive))
