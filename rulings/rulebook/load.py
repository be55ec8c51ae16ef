"""Loading the standard rulebook from its topic files, checking everything and reporting all problems."""
from __future__ import annotations

import re
from pathlib import Path
from collections.abc import Sequence
from typing import Any, TypeGuard

from rulings.betting.model import PARAM_NAMES
from rulings.rulebook.catalogue import citations, did_you_mean, facts
from jinja2 import nodes

from rulings.rulebook.expressions import ENGINE_MAX, bound_of, check_expression, check_template, parse_expression, value_type
from rulings.money import MoneyError, to_minor
from rulings.problems import Problem, ProblemsError
from rulings.rulebook.bounds import MAX_ALTERNATIVES, MAX_CITES, MAX_CONDITIONS, MAX_EXAMPLES, alternatives, bound, conditions, type_of
from rulings.rulebook.model import NOWHERE, AnyOf, Discretion, Example, Origin, Outcome, Parameter, Rule, Rulebook
from rulings.yamlsrc import Located, load_file


def _books_root() -> Path:
    """rulebooks/ at the top of the repository, installed as the package rulings.rulebooks (a plain folder
    with an __init__.py: its folder is what importlib.resources would give, without importing it and zipfile
    on every start)."""
    try:
        import rulings.rulebooks as books
        return Path(books.__file__).parent
    except ModuleNotFoundError:   # an editable install made before the mapping: the checkout's own folder
        return Path(__file__).resolve().parents[2] / "rulebooks"


ROOT = _books_root()
RULE_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*\.[a-z0-9]+(?:-[a-z0-9]+)*$")
PARAM_NAME = re.compile(r"^[a-z0-9_]+\.[a-z0-9_]+$")
MAX_RULES = 2500  # the engine splits a book into rulesets of at most 20 rules (durable-rules hangs past ~515 in one)


def origin(doc: Located, path: tuple) -> Origin:
    line, col, _ = doc.at(path)
    return Origin(doc.file, line, col)


def rule_digest(doc: Located, raw: Any, path: tuple, topic: Any, defaults: Any) -> str:
    """What parsing a rule's entry depends on inside its file (besides the book's parameters, the catalogues
    and the code): the entry as read, the file's topic and example defaults, the entry's column and where its
    examples sit from its first line. Two entries with one digest parse to one rule but for the lines."""
    import hashlib
    line, col, _ = doc.at(path)
    layout: list = [col]
    examples = raw.get("examples") if isinstance(raw, dict) else None
    for j in range(len(examples) if isinstance(examples, list) else 0):
        at_line, at_col, _ = doc.at(path + ("examples", j))
        layout.append((at_line - line, at_col))
    return hashlib.sha256(repr((topic, defaults, raw, layout)).encode()).hexdigest()


def parse_parameter(doc: Located, name: str, raw: dict, problems: list[Problem]) -> Parameter | None:
    path = ("parameters", name)
    if not PARAM_NAME.match(str(name)):
        problems.append(doc.problem(path, "R110", f"parameter name '{name}' must be topic.name "
                                    "(lowercase, digits and underscores)", key=True))
        return None
    ptype = raw["type"]
    values = tuple(raw.get("values", ()))
    if ptype == "bool":
        values = (True, False)
    elif ptype == "enum" and not values:
        problems.append(doc.problem(path, "R102", "an enum parameter needs its allowed values"))
        return None

    def conv(v: Any, at: tuple) -> Any:
        if ptype in ("enum", "bool"):
            if v not in values:
                close = did_you_mean(v, values)
                problems.append(doc.problem(at, "R205", f"default {v!r} is not an allowed value of {name}",
                                            f"did you mean '{close}'?" if close else None))
            return v
        try:
            return to_minor(v) if ptype == "money" else int(v)
        except (MoneyError, ValueError, TypeError) as exc:
            problems.append(doc.problem(at, "R205", f"default of {name}: {exc}"))
            return None

    default = raw["default"]
    if isinstance(default, dict):
        if set(default) != {"cash", "tournament"}:
            problems.append(doc.problem(path + ("default",), "R106",
                                        "a default that depends on the setting names exactly cash and tournament"))
            return None
        default = {k: conv(v, path + ("default", k)) for k, v in default.items()}
    else:
        default = conv(default, path + ("default",))
    check_cites(doc, path, raw["cites"], problems)
    also = tuple(str(a) for a in raw.get("also_named") or ())
    for i, alias in enumerate(also):
        if not PARAM_NAME.match(alias) or alias == name:
            problems.append(doc.problem(path + ("also_named", i), "R110", f"'{alias}' is no other name for {name} "
                                        "(topic.name: lowercase, digits and underscores, not the name itself)"))
    return Parameter(str(name), ptype, raw["description"], values, default, tuple(raw["cites"]),
                     origin(doc, path), raw.get("minimum"), raw.get("maximum"), dict(raw.get("words", {})),
                     raw.get("arithmetic") or arithmetic_by_name(str(name)), also)


def arithmetic_by_name(name: str) -> str | None:
    """The arithmetic's attribute for a parameter that does not name one: its name after the topic.

    A stopgap for declarations written before the ``arithmetic:`` field
    (pot-limit.yaml's three); a declaration that names it explicitly wins,
    and ``build_book`` refuses two parameters supplying one attribute.
    """
    tail = name.partition(".")[2]
    return tail if tail in PARAM_NAMES else None


def check_arithmetic(params: dict[str, Parameter], docs: dict[str, Located]) -> list[Problem]:
    """One parameter per attribute of the arithmetic, and one parameter per name (``also_named:`` included)."""
    problems: list[Problem] = []
    named: dict[str, Parameter] = dict(params)
    for p in params.values():
        for i, alias in enumerate(p.also_named):
            first = named.setdefault(alias, p)
            doc = docs.get(p.origin.file)
            if first is not p and doc is not None:
                problems.append(doc.problem(("parameters", p.name, "also_named", i), "R108",
                                            f"'{alias}' already names {first.name} ({first.origin})"))
    seen: dict[str, Parameter] = {}
    for p in params.values():
        if not p.arithmetic:
            continue
        doc = docs.get(p.origin.file)
        first = seen.setdefault(p.arithmetic, p)
        if first is not p and doc is not None:
            problems.append(doc.problem(("parameters", p.name), "R111",
                                        f"the arithmetic's {p.arithmetic} is already supplied by {first.name} "
                                        f"({first.origin})", "name another attribute, or none", key=True))
    return problems


def check_cites(doc: Located, path: tuple, cites: list, problems: list[Problem],
                described: dict[str, str] | None = None) -> None:
    """Every key cited is one the citation catalogue has (R105, with did-you-mean); a room's own key
    (HOUSE-...) the catalogue lacks is a warning (R607) unless the house book describes it under
    ``citations:`` (``described``: the keys this book and the books it extends describe; None for a
    topic file of the standard book, where only the catalogue describes keys)."""
    if not cites:
        problems.append(doc.problem(path + ("cites",), "R105", "at least one citation key is required"))
    if len(cites) > MAX_CITES:
        problems.append(doc.problem(path + ("cites",), "R502", f"{len(cites):,} citation keys; the limit is "
                                    f"{MAX_CITES}", "cite the keys the rule rests on"))
        return
    known = citations()
    for i, key in enumerate(cites):
        if key not in known and str(key).startswith("HOUSE-"):
            if described is None or key not in described:
                problems.append(house_key_warning(doc, path + ("cites", i), str(key), described))
        elif key not in known:
            close = did_you_mean(key, known)
            problems.append(doc.problem(path + ("cites", i), "R105", f"unknown citation key '{key}'",
                                        f"did you mean '{close}'?" if close else
                                        "keys come from the rules inventory (rulings/citations.yaml)"))


def house_key_warning(doc: Located, at: tuple, key: str, described: dict[str, str] | None) -> Problem:
    """R607: a room's own citation key that nothing describes, with the keys the book does describe."""
    import dataclasses

    def nearest(pool: list[str]) -> str | None:   # by what follows HOUSE-, which every key shares
        close = did_you_mean(key[6:], [k[6:] for k in pool])
        if close is None:
            return None
        (room, _, n), (other, _, m) = key.rpartition("-"), ("HOUSE-" + close).rpartition("-")
        return None if room == other and n.isdigit() and m.isdigit() else "HOUSE-" + close   # another rule
    if described is None:   # a topic file: the catalogue is the only place a key is described
        catalogue = sorted(k for k in citations() if k.startswith("HOUSE-"))
        close = nearest(catalogue)
        message = f"house citation key '{key}' is not in the citation catalogue (rulings/citations.yaml)"
        listed = "the catalogue has " + ", ".join(catalogue)
    else:
        own = sorted(described)
        close = nearest(own)
        message = (f"house citation key '{key}' is described nowhere: neither the citation catalogue nor the "
                   "citations: of this book (or of a book it extends) has it")
        listed = ("this book describes " + ", ".join(own) if own else "this book describes no house keys") + \
            f"; to keep it, add under citations: '{key}: where the room's posted rules say it'"
    problem = doc.problem(at, "R607", message, (f"did you mean '{close}'? " if close else "") + listed)
    return dataclasses.replace(problem, severity="warning")


def undescribed_keys(book: Rulebook) -> list[Problem]:
    """R607 for the standard book as loaded (from the cache, which keeps no warnings): each room's own key
    a rule or parameter cites that the catalogue lacks, at the key. Files are read only when one is found."""
    known = citations()
    found = [(part.origin.file, kind, name, key) for kind, parts in (("rules", book.rules), ("parameters", book.parameters))
             for name, part in parts.items() for key in part.cites
             if str(key).startswith("HOUSE-") and key not in known]
    out: list[Problem] = []
    for file, kind, name, key in found:
        doc, _ = load_file(Path(file))
        if doc is None or not isinstance(doc.data, dict):
            continue
        if kind == "rules":
            rule = book.rules[name]
            at: tuple = _rule_path(doc, rule)
            cites = rule.cites
        else:
            at, cites = ("parameters", name), book.parameters[name].cites
        out.append(house_key_warning(doc, at + ("cites", list(cites).index(key)), str(key), None))
    return out


def parse_outcome(doc: Located, raw: dict, path: tuple, params: dict[str, Parameter],
                  problems: list[Problem], faults: frozenset | set = frozenset()) -> Outcome:
    """The ``then:`` of a rule, checked. ``faults`` are the paths the shape check set aside (schema.py
    ``check_shape``): a part of ``then:`` among them is read as absent, and what it alone could have
    supplied (the ruling, what it decides) is not asked for again."""
    from rulings.rulebook.conditions import expression_names
    from rulings.rulebook.schema import faulted_parts
    aside = faulted_parts(faults, path)
    if aside:
        raw = {k: v for k, v in raw.items() if k not in aside}
        for part in ("effects", "derive"):
            bad = faulted_parts(faults, path + (part,))
            if bad and isinstance(raw.get(part), dict):
                raw[part] = {k: v for k, v in raw[part].items() if k not in bad}
        bad = faulted_parts(faults, path + ("ask",))
        if bad and isinstance(raw.get("ask"), list):
            raw["ask"] = [a for i, a in enumerate(raw["ask"]) if i not in bad]
    cat = facts()
    given = {"effects": dict(raw.get("effects") or {}), "derive": raw.get("derive", {})}
    if raw.get("change_from") is not None and not aside & {"change_from", "effects"}:
        given["effects"] = _with_change(doc, raw["change_from"], given["effects"], path, params, problems)
    for part in ("effects", "derive"):
        values = given[part]
        for name, expr in list(values.items()):
            at = path + (part, name)
            f = cat.get(name)
            if isinstance(expr, bool):       # true/false are YAML's booleans: the expression is that value
                expr = values[name] = "true" if expr else "false"
            elif f is not None and f.type == "enum" and expr in f.values and expr not in cat:
                expr = values[name] = repr(expr)   # one of the fact's values, written plainly: that value
            elif isinstance(expr, str) and expr.strip().lower() in ("true", "false"):
                word = expr.strip().lower()
                problems.append(doc.problem(at, "R208", f"'{expr}' in quotes is text; {name} is set to true or "
                                            "false", f"write {name}: {word} (no quotes, as in when:)"))
                continue
            f = cat.get(name)
            if f is None:
                close = did_you_mean(name, cat)
                problems.append(doc.problem(at, "R201", f"unknown fact '{name}'",
                                            f"did you mean '{close}'?" if close else None, key=True))
                continue
            if part == "derive" and f.kind != "derived":
                problems.append(doc.problem(at, "R207", f"'{name}' is {f.kind}, and only derived facts "
                                            "may be set by a rule", key=True))
            issues = check_expression(expr)
            for msg in issues:
                problems.append(doc.problem(at, "R301", f"expression '{_clip(expr)}': {msg}"))
            if not issues:
                before = len(problems)
                expression_names(doc, at, str(expr), params, problems, numeric_only=False)
                if len(problems) == before:
                    check_effect(doc, at, f, str(expr), params, problems)
    if raw.get("ruling") and not raw.get("decides") and "decides" not in aside:
        problems.append(doc.problem(path, "R102", "a ruling needs 'decides:' (the question it answers)"))
    if not (raw.get("ruling") or raw.get("derive") or raw.get("ask")) and not aside & {"ruling", "derive", "ask"}:
        problems.append(doc.problem(path, "R102", "then: needs a ruling, a derive or an ask"))
    say = raw.get("say")
    if say is not None:
        issues = check_template(say)
        for msg in issues:
            problems.append(doc.problem(path + ("say",), "R302", f"sentence template: {msg}"))
        if not issues:
            expression_names(doc, path + ("say",), say, params, problems, numeric_only=False,
                             extra={"rule", "effect"}, template=True)
            named = set(given["effects"])
            unread = "effects" in aside or bool(faulted_parts(faults, path + ("effects",)))   # not known
            for name in [] if unread else sorted(effects_named(say) - named):
                close = did_you_mean(name, named) if named else None
                problems.append(doc.problem(path + ("say",), "R209", f"the sentence names effect.{name}, but this "
                                            "ruling has no effect of that name",
                                            f"did you mean 'effect.{close}'?" if close else
                                            "effects: " + ", ".join(sorted(named)) if named else
                                            "name a fact instead, or add the number to effects:"))
    for i, name in enumerate(raw.get("ask", [])):
        if name not in cat:
            close = did_you_mean(name, cat)
            problems.append(doc.problem(path + ("ask", i), "R201", f"unknown fact '{name}'",
                                        f"did you mean '{close}'?" if close else None))
    disc = raw.get("discretion")
    return Outcome(
        ruling=raw.get("ruling"), decides=raw.get("decides"),
        effects=tuple((k, str(v)) for k, v in given["effects"].items()),
        derive=tuple((k, str(v)) for k, v in given["derive"].items()),
        say=say, discretion=Discretion(disc["usual"], tuple(disc["weigh"])) if disc else None,
        ask=tuple(raw.get("ask", ())), convention=raw.get("convention"))


CHANGE = ("returned", "owed")


def change_effects(put_out: str, wager: str) -> dict[str, str]:
    """The change between the chips a seat put out and the wager in force, as the ruling's two numbers: what
    goes back to him (chips above the wager) and what he adds (chips short of it); the one not due is 0.
    The one place the change is written: a rule names only what was put out (``change_from:``)."""
    b, w = _grouped(put_out), _grouped(wager)
    return {"returned": f"{b} - {w} if {b} > {w} else 0", "owed": f"{w} - {b} if {w} > {b} else 0"}


def _grouped(expr: str) -> str:
    text = str(expr).strip()
    return text if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+", text) else f"({text})"


def _with_change(doc: Located, put_out: Any, effects: dict, path: tuple, params: dict[str, Parameter],
                 problems: list[Problem]) -> dict:
    """The rule's effects with the change (``change_from:``) worked out against its ``wager_to``, placed
    right after it, as a rule that wrote both numbers out would have them; unchanged, with the problems
    said, when the change cannot be worked out."""
    from rulings.rulebook.conditions import expression_names
    at = path + ("change_from",)
    if "wager_to" not in effects:
        problems.append(doc.problem(at, "R210", "change_from: works out the change against the wager, and this "
                                    "ruling has no effects: wager_to", "add the wager in force to effects:"))
        return effects
    both = [k for k in CHANGE if k in effects]
    if both:
        problems.append(doc.problem(at, "R210", f"change_from: gives returned and owed, and effects: gives "
                                    f"{' and '.join(both)} too", f"leave {' and '.join(both)} out of effects:"))
        return effects
    issues = check_expression(put_out)
    for msg in issues:
        problems.append(doc.problem(at, "R301", f"expression '{_clip(put_out)}': {msg}"))
    if issues:
        return effects
    before = len(problems)
    expression_names(doc, at, str(put_out), params, problems)
    made = change_effects(str(put_out), str(effects["wager_to"]))
    for msg in sorted({m for expr in made.values() for m in check_expression(expr)}):
        problems.append(doc.problem(at, "R301", f"the change worked out from '{_clip(put_out)}': {msg}"))
    if len(problems) != before:
        return effects
    out: dict = {}
    for k, v in effects.items():
        out[k] = v
        if k == "wager_to":
            out.update(made)
    return out


def effects_named(template: str) -> set[str]:
    """The names a sentence reads as effect.NAME: the ruling's own numbers."""
    from rulings.rulebook.expressions import parse_template   # the tree check_template parsed: once per process
    return {n.attr for n in parse_template(template).find_all(nodes.Getattr)
            if isinstance(n.node, nodes.Name) and n.node.name == "effect"}


def _clip(text, limit: int = 60) -> str:
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "..."


def check_effect(doc: Located, at: tuple, fact, expr: str, params: dict[str, Parameter],
                 problems: list[Problem]) -> None:
    """An effect or derived value must fit its fact: money is a number and not negative, an enum one of
    its values, a flag true or false; and what it computes must stay within the engine's range."""
    got = value_type(expr, type_of(params))
    want = {"money": "number", "count": "number", "percent": "number", "seat": "number",
            "bool": "bool", "enum": "text", "text": "text"}[fact.type]
    if got not in (want, "any", "none"):
        problems.append(doc.problem(at, "R202", f"'{fact.name}' is {fact.type}, but '{_clip(expr)}' gives "
                                    f"{'a number' if got == 'number' else 'true or false' if got == 'bool' else got}",
                                    "docs/facts.md gives each fact's type"))
        return
    before = len(problems)
    tree = parse_expression(expr)
    if fact.type == "enum" and isinstance(tree, nodes.Const) and tree.value not in fact.values:
        close = did_you_mean(tree.value, fact.values)
        problems.append(doc.problem(at, "R203", f"'{tree.value}' is not a value of {fact.name} "
                                    f"({', '.join(fact.values)})", f"did you mean '{close}'?" if close else None))
    if want == "number":
        negative = (isinstance(tree, nodes.Const) and isinstance(tree.value, int) and tree.value < 0) or (
            isinstance(tree, nodes.Neg) and isinstance(tree.node, (nodes.Const, nodes.Name, nodes.Getattr)))
        if negative:
            problems.append(doc.problem(at, "R202", f"'{fact.name}' cannot be negative, and '{_clip(expr)}' is",
                                        "an amount put in or given back is never negative; test the case in when: "
                                        "or write 'a - b if a > b else 0'"))
        elif bound_of(expr, bound(params)) > ENGINE_MAX:
            problems.append(doc.problem(at, "R202", f"'{_clip(expr)}' can grow past the largest amount the "
                                        "engine holds exactly; multiply by small whole numbers only"))
    if len(problems) == before:
        from rulings.rulebook.kinds import kind_problem, kinds_for
        wrong = kind_problem(kinds_for(params), fact, expr)   # an amount from amounts, a seat from a seat fact
        if wrong is not None:
            problems.append(doc.problem(at, "R202", *wrong))


def merged(defaults: dict | None, incident: Any) -> Any:
    """An example's incident over the file's example_defaults, the example winning.

    Mappings of fields (game, disputed, params, ...) merge key by key; a
    mapping keyed by seat number (players) or anything else is replaced whole.
    An example that gives the whole hand (``streets:``) takes none of the
    one-street form's fields (street, pot, actions) from the defaults.
    """
    if not _fields(defaults) or not _fields(incident):
        return incident
    out = dict(defaults)
    if "streets" in incident:
        for key in ("street", "pot", "actions"):
            out.pop(key, None)
    for key, value in incident.items():
        out[key] = merged(defaults[key], value) if key in defaults else value
    return out


def _fields(value: Any) -> TypeGuard[dict]:
    return isinstance(value, dict) and all(isinstance(k, str) for k in value)


def parse_rule(doc: Located, raw: dict, path: tuple, topic: str, params: dict[str, Parameter],
               problems: list[Problem], house: str | None = None, defaults: dict | None = None,
               faults: frozenset | set = frozenset(), described: dict[str, str] | None = None) -> Rule | None:
    """One rule's entry, every check of it made; None when it cannot enter the book.

    ``faults`` are the paths the shape check set aside (schema.py ``check_shape``). A part among them
    (a missing ``examples:``, a ``then:`` that is not a mapping, one malformed example) is left out and
    every check that does not need it is still made, so one mistake in an entry does not hide another.
    The rule enters the book (for the checks across rules: an exception to an unknown rule, a ruling
    no rule gives, a duplicate id) unless its id or its conditions are set aside; the book is refused
    all the same, since every fault was reported.
    """
    from rulings.rulebook.conditions import parse_when
    from rulings.rulebook.schema import faulted_parts
    aside = faulted_parts(faults, path)
    rid = raw.get("id") if "id" not in aside else None
    if rid is not None and not RULE_ID.match(str(rid)):
        problems.append(doc.problem(path + ("id",), "R110", f"rule id '{rid}' must be topic.kebab-name"))
    if "cites" not in aside:
        check_cites(doc, path, raw["cites"], problems, described)
    link_aside = bool(aside & {"exception_to", "overrides"})
    before = len(problems)
    if "when" in aside:
        when: tuple = ()    # not a mapping: reported, its tests are not read
    elif raw.get("exception_to") and not raw.get("when"):
        when = ()    # an exception that adds no test: it applies exactly where its rule does
    elif "when" not in raw:
        if not link_aside:   # a misspelt exception_to: the rule may well inherit its conditions
            problems.append(doc.problem(path, "R102", "missing required key 'when'",
                                        "only an exception_to rule may leave it out (it inherits its rule's)"))
        when = ()
    else:
        when = parse_when(doc, raw["when"], path + ("when",), params, None, problems)
    if len(problems) == before and conditions(when) > MAX_CONDITIONS:
        problems.append(doc.problem(path + ("when",), "R502", f"{conditions(when)} tests in one rule; the limit "
                                    f"is {MAX_CONDITIONS}", "split the rule, or derive a fact that sums tests up"))
    elif len(problems) == before and alternatives(when) > MAX_ALTERNATIVES:
        problems.append(doc.problem(path + ("when",), "R502", f"the conditions can match in "
                                    f"{alternatives(when):,} ways (in: values times any_of groups); the limit "
                                    f"is {MAX_ALTERNATIVES}", "split the rule into several"))
    raw_examples = raw["examples"] if "examples" not in aside or isinstance(raw.get("examples"), list) else []
    if len(raw_examples) > MAX_EXAMPLES:
        problems.append(doc.problem(path + ("examples",), "R502", f"{len(raw_examples)} examples; the limit "
                                    f"is {MAX_EXAMPLES}", "keep the examples that mark the rule's edges"))
    then = Outcome() if "then" in aside and not isinstance(raw.get("then"), dict) else \
        parse_outcome(doc, raw["then"], path + ("then",), params, problems, faults)
    bad_examples = faulted_parts(faults, path + ("examples",))
    examples = tuple(Example(str(e["name"]), merged(defaults, e["incident"]), e["expect"],
                             origin(doc, path + ("examples", i)))
                     for i, e in enumerate(raw_examples) if i not in bad_examples)
    one_sided = not any(e.expect.get("fires", True) for e in examples) or \
        all(e.expect.get("fires", True) for e in examples)
    if one_sided and "examples" not in aside and not bad_examples:   # a missing or broken one: said already
        problems.append(doc.problem(path + ("examples",), "R401",
                                    "a rule needs an example where it fires and one where it does not",
                                    "add an example with expect: {fires: false} on the other side of the condition"))
    if raw.get("exception_to") and raw.get("overrides") and not link_aside:
        problems.append(doc.problem(path + ("overrides",), "R106", f"'{rid}' is both an exception to "
                                    f"'{raw['exception_to']}' and overrides '{raw['overrides']}'",
                                    "exception_to: inherits the rule's conditions, overrides: does not; "
                                    "write one of them", key=True))
    if rid is None or "when" in aside:
        return None
    link = (raw.get("exception_to") if "exception_to" not in aside else None) or \
        (raw.get("overrides") if "overrides" not in aside else None)
    text = {k: raw[k] if k not in aside else "" for k in ("title", "text")}
    return Rule(str(rid), text["title"], topic, tuple(raw["cites"]) if "cites" not in aside else (),
                text["text"], when, then, examples, origin(doc, path), link,
                raw.get("replaces") if "replaces" not in aside else None, house,
                written=when if raw.get("exception_to") and "exception_to" not in aside else None)


def read_topic_files(files: list[Path], faults: dict[str, set[tuple]] | None = None
                     ) -> tuple[list[tuple[Located, dict]], list[Problem]]:
    """The topic files read and their shape checked: the sound ones, and every problem.

    With ``faults``, a file whose shape is wrong is kept too, as far as it can be read: its malformed
    parts set aside (``faults[file]``: schema.py ``check_shape``), a missing ``topic:`` taken from the
    file's name and a ``rules:`` or ``parameters:`` that is not a list or mapping read as empty, so the
    rest of it is checked with the book (``build_book``)."""
    from rulings.rulebook.schema import TOPIC_FILE, check_shape, faulted_parts, text_problems   # only to read
    docs, problems = [], []
    for f in files:
        doc, probs = load_file(f)
        problems += probs
        if doc is None:
            continue
        problems += text_problems(doc)   # a NUL or a control in any text the book would publish (R115)
        if not isinstance(doc.data, dict):
            problems.append(doc.problem((), "R106", "a rulebook file must be a mapping"))
            continue
        mine: set[tuple] = set()
        if check_shape(doc, doc.data, TOPIC_FILE, (), problems, mine):
            docs.append((doc, doc.data))
        elif faults is not None:
            top = faulted_parts(mine, ())
            data = {k: v for k, v in doc.data.items() if k not in top or k in ("parameters", "rules")}
            if "topic" in top:
                data["topic"] = Path(f).stem
            for part, empty in (("parameters", {}), ("rules", [])):
                if (part,) in mine:
                    data[part] = empty
            data.setdefault("rules", [])
            bad = faulted_parts(mine, ("parameters",))
            data["parameters"] = {k: v for k, v in (data.get("parameters") or {}).items() if k not in bad}
            data["rules"] = [None if ("rules", i) in mine else raw for i, raw in enumerate(data["rules"])]
            faults[doc.file] = mine
            docs.append((doc, data))
    return docs, problems


def build_book(name: str, title: str, files: list[Path], warnings: list[Problem] | None = None) -> Rulebook:
    """Load and check topic files into one book; raise ProblemsError with every problem. A book with
    only warnings (R607) loads; they are added to ``warnings`` when it is given (lint reports them)."""
    from rulings.rulebook.inherit import fact_defaults, inherit_all
    faults: dict[str, set[tuple]] = {}
    docs, problems = read_topic_files(files, faults)
    total = sum(len(data["rules"]) for _, data in docs)
    if total > MAX_RULES:   # before checking any of them: each rule costs lint time
        raise ProblemsError(problems + [Problem(str(files[-1]) if files else name, 0, 0, "R501",
                                                f"{total} rules is over the limit of {MAX_RULES} for one book")])
    params: dict[str, Parameter] = {}
    for doc, data in docs:
        for pname, raw in (data.get("parameters") or {}).items():
            p = parse_parameter(doc, pname, raw, problems)
            if p is None:
                continue
            if p.name in params:
                problems.append(doc.problem(("parameters", pname), "R108",
                                            f"parameter '{p.name}' is already declared at {params[p.name].origin}",
                                            key=True))
            params[p.name] = p
    problems += check_arithmetic(params, {d.file: d for d, _ in docs})
    rules: dict[str, Rule] = {}
    for doc, data in docs:
        for i, raw in enumerate(data["rules"]):
            if raw is None:   # not a mapping: reported, nothing of it to read
                continue
            rule = parse_rule(doc, raw, ("rules", i), data["topic"], params, problems,
                              defaults=data.get("example_defaults"), faults=faults.get(doc.file, frozenset()))
            if rule is None:
                continue
            if rule.id in rules:
                problems.append(doc.problem(("rules", i, "id"), "R103",
                                            f"duplicate rule id '{rule.id}'",
                                            f"it is first defined at {rules[rule.id].origin}"))
                continue
            rules[rule.id] = rule
    by_file = {d.file: d for d, _ in docs}
    problems += inherit_all(rules, lambda r: at_rule(by_file, r))
    from rulings.rulebook.conditions import citations_fit
    problems += citations_fit(rules, lambda r: at_rule(by_file, r))
    book = Rulebook(name, title, [str(f) for f in files], params, rules)
    book.defaults = fact_defaults(rules, lambda r: at_rule(by_file, r), problems)
    problems += cross_check(book, by_file, any(rulings_unread(f) for f in faults.values()))
    if len(rules) > MAX_RULES:
        problems.append(Problem(str(files[0]) if files else name, 0, 0, "R501",
                                f"{len(rules)} rules is over the limit of {MAX_RULES} for one book"))
    if any(p.severity != "warning" for p in problems):
        raise ProblemsError(problems)   # the warnings too: every problem at once
    if warnings is not None:
        warnings += problems
    return book


class _Checked:
    """Stands for a topic file taken from the shipped checked copy (not read here): its rules are checked
    again with the whole book, and a problem found with it is only a signal to read and check every file."""

    data: dict = {}

    def __init__(self, file: str):
        self.file = file

    def problem(self, path: tuple, code: str, message: str, hint: str | None = None, key: bool = False) -> Problem:
        return Problem(self.file, 0, 0, code, message)


def build_layered(name: str, title: str, files: list[Path]) -> Rulebook:
    """``build_book`` on a cache miss, reading and checking only the topic files whose bytes differ from
    those of the package's shipped checked copy (rulings/rulebook/cache.py) when the checking code is the same.

    The unchanged files' parameters and rules (as parsed, before exceptions inherit) come from that copy;
    the changed files are read and checked as ``build_book`` does; then every check that needs the whole
    book runs over all of them (inheritance, fact defaults, cross-references, limits). Unless every
    parameter is as the copy had it (the rules were checked against them), or if anything at all is found
    wrong, the whole book is read and checked by ``build_book``, so every problem is reported exactly
    as before. The result equals ``build_book``'s (tests/test_shipped_book.py).
    """
    from rulings.rulebook import cache as bookcache
    seed = bookcache.shipped_parts(files)
    book = _layered(name, title, files, *seed) if seed is not None else None
    return book if book is not None else build_book(name, title, files)


def _layered(name: str, title: str, files: list[Path], shipped: Rulebook, same: set[str]) -> Rulebook | None:
    from dataclasses import replace

    from rulings.rulebook import cache as bookcache
    from rulings.rulebook.inherit import fact_defaults, inherit_all
    from rulings.rulebook.cache import moved_examples
    from rulings.records import evolve
    from rulings.yamlsrc import _display
    shown = {f.name: _display(f) for f in files}
    changed = [f for f in files if f.name not in same]
    docs, problems = read_topic_files(changed)
    if problems or len(docs) != len(changed):
        return None
    by_file: dict[str, Any] = {d.file: d for d, _ in docs}
    data_of = {d.file: data for d, data in docs}
    by_file.update({shown[n]: _Checked(shown[n]) for n in same})
    kept_params: dict[str, list[Parameter]] = {}
    for p in shipped.parameters.values():
        kept_params.setdefault(p.origin.file, []).append(p)
    kept_rules: dict[str, list[Rule]] = {}
    for r in shipped.rules.values():
        kept_rules.setdefault(r.origin.file, []).append(r)
    total = sum(len(data["rules"]) for data in data_of.values()) + sum(len(kept_rules.get(n, ())) for n in same)
    if total > MAX_RULES:
        return None

    def here(origin: Origin) -> None:   # a frozen Origin just decoded from the copy, held by nothing else
        object.__setattr__(origin, "file", shown[origin.file])

    params: dict[str, Parameter] = {}
    for f in files:
        got: Sequence[Parameter | None]
        if f.name in same:
            got = kept_here = kept_params.get(f.name, [])
            for kept_param in kept_here:
                here(kept_param.origin)
        else:
            doc, data = by_file[shown[f.name]], data_of[shown[f.name]]
            got = [parse_parameter(doc, pname, raw, problems) for pname, raw in (data.get("parameters") or {}).items()]
        for param in got:
            if param is None or param.name in params:
                return None
            params[param.name] = param
    if problems or [replace(p, origin=NOWHERE) for p in params.values()] != [
            replace(p, origin=NOWHERE) for p in shipped.parameters.values()]:
        return None   # the kept rules were checked against the copy's parameters: read and check all
    if check_arithmetic(params, by_file):
        return None
    rules: dict[str, Rule] = {}
    digests = bookcache.shipped_rule_digests() or {}   # the copy's rules by the digest of their entries
    taken = {r.id for f in files if f.name in same for r in kept_rules.get(f.name, [])}
    for f in files:
        if f.name in same:
            parsed: list[Rule | None] = []
            for r in kept_rules.get(f.name, []):
                here(r.origin)
                moved_examples(r, {f.name: shown[f.name]})
                parsed.append(evolve(r, when=r.written) if r.written is not None else r)   # before inheriting
        else:
            doc, data = by_file[shown[f.name]], data_of[shown[f.name]]
            parsed = []
            for i, raw in enumerate(data["rules"]):
                path, defaults = ("rules", i), data.get("example_defaults")
                kept = shipped.rules.get(digests.get(rule_digest(doc, raw, path, data["topic"], defaults), ""))
                if kept is not None and kept.id not in taken:   # an entry the copy holds as it is: only moved
                    taken.add(kept.id)
                    at = origin(doc, path)
                    moved_examples(kept, {kept.origin.file: doc.file}, at.line - kept.origin.line)
                    parsed.append(evolve(kept, origin=at, when=kept.written if kept.written is not None
                                         else kept.when))
                    continue
                parsed.append(parse_rule(doc, raw, path, data["topic"], params, problems, defaults=defaults))
        for rule in parsed:
            if rule is None or rule.id in rules:
                return None
            rules[rule.id] = rule
    if problems:
        return None
    problems += inherit_all(rules, lambda r: at_rule(by_file, r))
    from rulings.rulebook.conditions import citations_fit
    problems += citations_fit(rules, lambda r: at_rule(by_file, r))
    book = Rulebook(name, title, [str(f) for f in files], params, rules)
    book.defaults = fact_defaults(rules, lambda r: at_rule(by_file, r), problems)
    problems += cross_check(book, by_file)
    return None if problems else book


def rulings_unread(faults: set[tuple]) -> bool:
    """Whether a rule entry set aside (schema.py ``check_shape``) may give a ruling the book does not see:
    its id, conditions or ``then:`` could not be read, so it is not in the book."""
    return any(f[:1] == ("rules",) and (len(f) == 2 or len(f) > 2 and f[2] in ("id", "when", "then"))
               for f in faults)


def cross_check(book: Rulebook, docs: dict[str, Located], unread: bool = False) -> list[Problem]:
    """Checks that need the whole book: exception targets, rulings named in `ruled`, two exceptions.

    ``unread``: some rule entry was set aside (``rulings_unread``), so a ruling named in `ruled` that no
    rule gives may be that entry's: not reported (the entry's own problem is)."""
    problems: list[Problem] = []
    rulings = book.rulings()
    claimed: dict[tuple, str] = {}
    for rule in book.rules.values():
        doc = docs.get(rule.origin.file)
        if doc is None:   # an already-checked rule (a house book's base) still claims its case
            if rule.exception_to:
                claimed[(rule.exception_to, repr(sorted(map(repr, rule.when))))] = rule.id
            continue
        path = _rule_path(doc, rule)
        if rule.exception_to and rule.exception_to not in book.rules:
            close = did_you_mean(rule.exception_to, book.rules)
            problems.append(doc.problem(path + ("exception_to",), "R104",
                                        f"unknown rule '{rule.exception_to}'",
                                        f"did you mean '{close}' ({book.rules[close].origin})?" if close else None))
        if rule.exception_to:
            key = (rule.exception_to, repr(sorted(map(repr, rule.when))))
            if key in claimed:
                problems.append(doc.problem(path + ("exception_to",), "R109",
                                            f"'{rule.id}' and '{claimed[key]}' are exceptions to "
                                            f"'{rule.exception_to}' for the same case",
                                            "narrow one of them or merge the two"))
            claimed[key] = rule.id
        if not unread:
            _check_ruled(doc, rule.when, path + ("when",), rulings, problems)
    problems += _kind_problems(book, docs)
    return problems


def _kind_problems(book: Rulebook, docs: dict[str, Located]) -> list[Problem]:
    """Every effect of the book's own rules held to its fact's kind, with each rule's conditions (inherited
    ones too): rulings/rulebook/kinds.py."""
    from rulings.rulebook.kinds import kind_problems

    def written(rule: Rule) -> dict:
        doc = docs.get(rule.origin.file)
        raw = doc.data.get("rules", []) if doc is not None and isinstance(doc.data, dict) else []
        path = _rule_path(doc, rule) if doc is not None else ()
        entry = raw[path[1]] if len(path) == 2 and isinstance(raw, list) and path[1] < len(raw) else {}
        then = entry.get("then") if isinstance(entry, dict) else None
        effects = then.get("effects") if isinstance(then, dict) else None
        return effects if isinstance(effects, dict) else {}
    return kind_problems(book.rules, lambda r: at_rule(docs, r), book.parameters, written)


def _check_ruled(doc, when, path, rulings, problems) -> None:

    for c in when:
        if isinstance(c, AnyOf):
            for g in c.groups:
                _check_ruled(doc, g, path, rulings, problems)
        elif c.fact == "ruled" and c.value not in rulings:
            close = did_you_mean(c.value, rulings)
            problems.append(doc.problem(path + ("ruled",), "R104", f"no rule gives the ruling '{c.value}'",
                                        f"did you mean '{close}'?" if close else None))


def at_rule(docs: dict[str, Located], rule: Rule):
    """A maker of problems at a path inside the rule's own entry, or None for a rule from another book."""
    doc = docs.get(rule.origin.file)
    if doc is None:
        return None
    base = _rule_path(doc, rule)

    def at(path: tuple, code: str, message: str, hint: str | None = None) -> Problem:
        return doc.problem(base + path, code, message, hint)
    return at


def _rule_path(doc: Located, rule: Rule) -> tuple:
    for i, raw in enumerate(doc.data.get("rules", [])):
        if isinstance(raw, dict) and raw.get("id") == rule.id:
            return ("rules", i)
    return ()


def standard_files(root: Path = ROOT) -> list[Path]:
    """The standard book's topic files, in book order."""
    return sorted((root / "standard").glob("*.yaml"))


def standard_book(root: Path = ROOT) -> Rulebook:
    """The standard book, checked; a checked copy is kept on disk (rulings/rulebook/cache.py).

    A missing or empty standard book is a load error, never a book with no rules.
    """
    files = standard_files(root)
    if not files:
        raise ProblemsError([Problem(str(root / "standard"), 0, 0, "R001",
                                     "the standard rulebook has no topic files",
                                     hint="the installation is incomplete: reinstall rulings")])
    from rulings.rulebook import cache as bookcache
    from rulings.yamlsrc import _display
    return bookcache.cached(files, [_display(f) for f in files],
                            lambda: build_layered("standard", "Standard card-room rulebook", files))
