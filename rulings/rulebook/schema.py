"""The shape of rulebook files, as data: the loader checks against it and `rulings schema` prints it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import AbstractSet, Any

from rulings.betting.model import PARAM_NAMES
from rulings.rulebook.catalogue import did_you_mean
from rulings.problems import Problem, control_character
from rulings.yamlsrc import Located


@dataclass(frozen=True)
class Spec:
    """The shape one value of a rulebook file must have."""

    kind: str                  # map | dict | list | str | bool | int | scalar | per_setting | any
    description: str
    fields: dict[str, tuple["Spec", bool]] = field(default_factory=dict)   # map: name -> (spec, required)
    item: "Spec | None" = None  # list items, dict values
    enum: tuple[str, ...] = ()


SETTINGS = ("cash", "tournament")     # the settings a house value may differ by ({cash: ..., tournament: ...})


def _f(spec: Spec, required: bool = False) -> tuple[Spec, bool]:
    return (spec, required)


TEXT = Spec("str", "Plain text in our own words.")
CITES = Spec("list", "Citation keys from the rules inventory (e.g. RRP-PL-1, TDA-2024-45).",
             item=Spec("str", "A citation key."))
CONDITION = Spec("any", "A value the fact must equal, or a mapping of tests: not, in, not_in, above, "
                        "at_least, below, at_most (a number, a money amount like '$400', or an expression "
                        "over other facts), missing: true, present: true.")
WHEN = Spec("dict", "Conditions on facts of the incident (names from the fact catalogue) or on parameters "
                    "(param.topic.name); all must hold. The key any_of takes a list of such mappings, one of "
                    "which must hold. The key ruled names a ruling another rule must already have given.",
            item=CONDITION)
DISCRETION = Spec("map", "The floor has discretion here: the usual answer and what to weigh.", {
    "usual": _f(Spec("str", "The answer most floors give."), True),
    "weigh": _f(Spec("list", "The factors to weigh.", item=TEXT), True),
})
THEN = Spec("map", "What the rule does when it fires.", {
    "ruling": _f(Spec("str", "The ruling's name (kebab-case), e.g. wager-reduced.")),
    "decides": _f(Spec("str", "The question the ruling answers (e.g. wager, may-raise); two rulings on "
                              "the same question conflict and the more specific or the exception wins.")),
    "convention": _f(Spec("str", "Which source's convention this ruling applies, said in the ruling.")),
    "effects": _f(Spec("dict", "The ruling's numbers: fact name -> expression over the incident's facts.",
                       item=Spec("scalar", "An expression."))),
    "change_from": _f(Spec("scalar", "The chips the seat has put out (an expression): the ruling then carries "
                                     "returned and owed, the change between them and its wager_to.")),
    "derive": _f(Spec("dict", "Facts this rule sets for other rules to use: fact name -> expression.",
                      item=Spec("scalar", "An expression."))),
    "say": _f(Spec("str", "The ruling as a sentence: a jinja2 template over facts and effects.")),
    "discretion": _f(DISCRETION),
    "ask": _f(Spec("list", "Facts whose answer would change the ruling; their questions are reported.",
                   item=Spec("str", "A fact name."))),
})
EXAMPLE = Spec("map", "A worked case: an incident and what the rule must (or must not) rule.", {
    "name": _f(TEXT, True),
    "incident": _f(Spec("dict", "An incident, in the incident format, with optional params overrides.",
                        item=Spec("any", "One field of the incident format (game, players, actions, ...).")), True),
    "expect": _f(Spec("map", "What must come out.", {
        "ruling": _f(Spec("str", "The ruling this rule must give.")),
        "effects": _f(Spec("dict", "Numbers the ruling must carry (money in the game's units).",
                           item=Spec("scalar", "A value."))),
        "fires": _f(Spec("bool", "false: this rule must give no ruling (not fire, or be overridden).")),
        "derives": _f(Spec("dict", "Facts this rule must derive.", item=Spec("scalar", "A value."))),
        "asks": _f(Spec("list", "Questions (fact names) that must be open.", item=Spec("str", "A fact."))),
        "overridden_by": _f(Spec("str", "The rule that must override this one.")),
    }), True),
})
RULE = Spec("map", "One card-room rule.", {
    "id": _f(Spec("str", "topic.kebab-name; never changes once published."), True),
    "title": _f(TEXT, True),
    "cites": _f(CITES, True),
    "text": _f(Spec("str", "The rule in our own words."), True),
    "when": _f(WHEN),
    "then": _f(THEN, True),
    "examples": _f(Spec("list", "Worked cases; at least one where the rule fires and one where it does not.",
                        item=EXAMPLE), True),
    "exception_to": _f(Spec("str", "The rule this one is an exception to: it applies where that rule applies "
                                   "and its own `when` holds (it inherits that rule's conditions, so state "
                                   "only what it adds), and it wins over that rule.")),
    "overrides": _f(Spec("str", "The rule this one wins over where both apply, without inheriting its "
                                "conditions (state every condition); prefer exception_to.")),
    "replaces": _f(Spec("str", "House books: the standard rule this one replaces.")),
})
PARAMETER = Spec("map", "A house parameter.", {
    "type": _f(Spec("str", "enum, bool, money, count or percent.", enum=("enum", "bool", "money", "count", "percent")), True),
    "description": _f(TEXT, True),
    "values": _f(Spec("list", "The allowed values (enum).", item=Spec("scalar", "A value."))),
    "words": _f(Spec("dict", "Each value in plain words, for the posted rulebook.", item=TEXT)),
    "default": _f(Spec("any", "The default, or {cash: v, tournament: v} when it depends on the setting."), True),
    "minimum": _f(Spec("int", "The smallest allowed number.")),
    "maximum": _f(Spec("int", "The largest allowed number.")),
    "cites": _f(CITES, True),
    "arithmetic": _f(Spec("str", "The betting arithmetic reads this parameter as this attribute.",
                          enum=PARAM_NAMES)),
    "also_named": _f(Spec("list", "Other names rooms write this setting under (topic.name): an incident's "
                                  "params: or a house book's parameters: may use any of them.",
                          item=Spec("str", "A name."))),
})
EXAMPLE_DEFAULTS = Spec("dict", "The setting every example of this file shares (game, button, players, ...): "
                                "merged under each example's incident, the example's own values winning "
                                "(mappings merge key by key, a list or value replaces).")
TOPIC_FILE = Spec("map", "A standard rulebook topic file.", {
    "topic": _f(Spec("str", "The topic's short name, e.g. pot-limit."), True),
    "title": _f(TEXT, True),
    "parameters": _f(Spec("dict", "Parameters this topic declares: name -> definition.", item=PARAMETER)),
    "rules": _f(Spec("list", "The topic's rules.", item=RULE), True),
    "example_defaults": _f(EXAMPLE_DEFAULTS),
})

_PY: dict[str, type] = {"str": str, "bool": bool, "int": int, "list": list, "map": dict, "dict": dict}


def check_shape(doc: Located, value: Any, spec: Spec, path: tuple, problems: list[Problem],
                faults: set[tuple] | None = None) -> bool:
    """Check types, required and unknown keys; report every problem; True when the shape is sound.

    Every part is checked whatever is wrong beside it. ``faults``, when given, collects the paths of the
    parts that cannot be read as the language says, so the checks that follow set those parts aside and
    check everything else: a value of the wrong kind or outside its set (its own path), a required key
    that is missing (the path it would have), and a key that is misspelt for one the entry may have and
    does not (the path of the key it was surely meant to be: ``exeption_to:`` makes ``exception_to`` a
    fault, so the rule is not also told it lacks its ``when:``). An unknown key like no other is only
    reported: the entry is read without it.
    """
    ok = True
    faults = set() if faults is None else faults
    want: Any = _PY.get(spec.kind)
    if spec.kind == "per_setting":     # one value, or {cash: value, tournament: value} (either may be left out)
        if isinstance(value, dict) and value and set(value) <= set(SETTINGS) and \
                not any(isinstance(v, (dict, list)) for v in value.values()):
            return True
        if isinstance(value, dict):
            bad = sorted(str(k) for k in value if k not in SETTINGS)
            problems.append(doc.problem(path, "R106", "a value per setting is a mapping of cash: and tournament: "
                                        "to one value each" + (f", not {', '.join(bad)}" if bad else ""),
                                        "e.g. {cash: 60, tournament: 30}, or one value for both"))
            faults.add(path)
            return False
    if spec.kind in ("scalar", "per_setting"):
        if isinstance(value, (dict, list)):
            problems.append(doc.problem(path, "R106", "expected a single value here, not a list or mapping"))
            faults.add(path)
            return False
        return True
    if want is None:
        return True
    if not isinstance(value, want) or (want is int and isinstance(value, bool)):
        problems.append(doc.problem(path, "R106", f"expected {_describe(spec.kind)}, found {_describe_value(value)}"))
        faults.add(path)
        return False
    if spec.enum and value not in spec.enum:
        hint = did_you_mean(value, spec.enum)
        problems.append(doc.problem(path, "R107", f"'{value}' is not one of: {', '.join(spec.enum)}",
                                    f"did you mean '{hint}'?" if hint else None))
        faults.add(path)
        return False
    if spec.kind == "map":
        for key in value:
            if key not in spec.fields:
                hint = did_you_mean(key, spec.fields)
                problems.append(doc.problem(path + (key,), "R101", f"unknown key '{key}'",
                                            f"did you mean '{hint}'?" if hint else
                                            "allowed here: " + ", ".join(spec.fields), key=True))
                if hint is not None and hint not in value:
                    faults.add(path + (hint,))
                ok = False
        for key, (sub, required) in spec.fields.items():
            if key in value:
                ok = check_shape(doc, value[key], sub, path + (key,), problems, faults) and ok
            elif required:
                problems.append(doc.problem(path, "R102", f"missing required key '{key}'",
                                            f"add '{key}:' ({sub.description})", key=bool(path)))
                faults.add(path + (key,))
                ok = False
    elif spec.kind == "list" and spec.item:
        for i, item in enumerate(value):
            ok = check_shape(doc, item, spec.item, path + (i,), problems, faults) and ok
    elif spec.kind == "dict" and spec.item:
        for key, item in value.items():
            ok = check_shape(doc, item, spec.item, path + (key,), problems, faults) and ok
    return ok


def text_problems(doc: Located, code: str = "R115") -> list[Problem]:
    """Every key and text of a book file holding a NUL or a control character (``control_character``): a
    sentence, a citation's text, a name, a title, an example's words. Each is said at its own line, once;
    the walk keeps a stack of its own (the reader bounded the nesting already)."""
    out: list[Problem] = []
    stack: list[tuple[Any, tuple]] = [(doc.data, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            bad = control_character(value)
            if bad is not None:
                out.append(doc.problem(path, code, f"the text holds a control character ('{bad}'); a book's "
                                       "texts are plain words", "delete it (a NUL, an escape sequence or a "
                                       "direction override cannot be stored, printed or read as written)"))
        elif isinstance(value, dict):
            for key, item in value.items():
                bad = control_character(key) if isinstance(key, str) else None
                if bad is not None:
                    out.append(doc.problem(path + (key,), code, f"the key holds a control character ('{bad}')",
                                           "delete it", key=True))
                else:
                    stack.append((item, path + (key,)))
        elif isinstance(value, list):
            stack.extend((item, path + (i,)) for i, item in enumerate(value))
    return sorted(out)


def faulted_parts(faults: "AbstractSet[tuple]", path: tuple) -> set:
    """The keys (or indices) directly under ``path`` that are set aside, or hold a part that is."""
    n = len(path)
    return {f[n] for f in faults if len(f) > n and f[:n] == path}


def _describe(kind: str) -> str:
    return {"str": "text", "bool": "true or false", "int": "a whole number", "list": "a list",
            "map": "a mapping", "dict": "a mapping"}.get(kind, kind)


def _describe_value(value: Any) -> str:
    if value is None:
        return "nothing"
    return {bool: "true/false", int: "a number", str: f"text '{value}'", list: "a list",
            dict: "a mapping"}.get(type(value), type(value).__name__)
