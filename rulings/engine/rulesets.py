"""The only module that talks to durable-rules: compile a rulebook into rulesets, run one incident per session.

The envelope (see docs/engine-notes.md): a host without
background threads; every incident in its own session, deleted afterwards;
a sentinel rule so that no fact is ever unhandled; conditions on one fact
only (no cross-fact joins, which crash the C core); every rule guarded by a
discriminator and a fired flag so nothing loops.

Forward chaining on one evolving "situation" fact per incident and ruleset.
durable-rules matches: each rule's action only records that the rule
matched. The agenda is ours: the matched rule that comes first (durable's
own order: priority, then book order) fires in Python, and the situation
in durable-rules is replaced (retract, then assert) only when the firing
changed a field some condition tests -- a derived fact, or the flag of a
rule whose ruling another rule waits for. Most incidents take one assert.
A rule whose action fails is reported and the others still rule.

A book is split into rulesets inside durable-rules' measured limits (rules,
fields per fact, tests per node: see docs/engine-notes.md); a ruleset whose
rules all require a structure, setting or street the incident does not have
is not run. Matches from every ruleset that runs go on the one agenda, so a
split book rules exactly as one ruleset would.
"""
from __future__ import annotations

import hashlib
import heapq
import itertools
import json
import threading
import weakref
from pathlib import Path
from dataclasses import dataclass, field
from collections.abc import Callable, Set as AbstractSet
from typing import Any

from rulings._durable import durable_rules_engine
from rulings._durable import engine as durable

from jinja2 import UndefinedError, nodes
from jinja2.exceptions import SecurityError

from rulings.rulebook.expressions import (compile_expression, compile_template, names_in, param_names_in,
                                 parse_expression, parse_template, to_durable)
from rulings.money import show
from rulings.problems import control_character
from rulings.rulebook.kinds import Checker as KindChecker
from rulings.rulebook.model import AnyOf, Condition, Rule, Rulebook, per_book

SENTINEL = "__seen__"
BUCKET = 32      # rules per bucket: well under durable-rules' 64 tests per node
MAX_FIELDS = 240  # durable-rules refuses a fact of more than about 254 fields (error 302)
PART_RULES = 20   # rules per ruleset: an assert costs about the rules of its ruleset, and the pre-check skips
                  # the rulesets that cannot match (durable-rules hangs past ~515 sharing a prefix, aborts at 1,088)
MIN_PART = 8      # rules: smaller groups join the ruleset every incident runs (an assert costs more than they save)
PART_FIELDS = 160  # fields conditions test, per ruleset: leaves room under MAX_FIELDS for fired flags
GATES = ("structure", "setting", "street")   # input facts that decide which rulesets run
_OPS = {"above": "$gt", "at_least": "$gte", "below": "$lt", "at_most": "$lte"}


class EngineError(RuntimeError):
    """A rule's action failed, or the engine refused a rulebook."""


class _Unhandled(EngineError):
    """durable-rules did not take the fact: its session is half built, and deleting it would crash."""


def field_name(name: str) -> str:
    """A fact or parameter name as a durable-rules field (dots are paths there, so they are replaced)."""
    if name.startswith("param."):
        return "p__" + name[6:].replace(".", "__")
    return name



class _SyncHost(durable.Host):
    def _run(self):  # no background dispatcher threads: they steal actions
        pass


class _Ruleset(durable.Ruleset):
    """A ruleset given to the C core as the JSON text the compiled form keeps (durable-rules' own constructor
    takes the definition as a dict and writes that text itself)."""

    def __init__(self, name: str, host: durable.Host, text: str, actions: dict):
        self._name, self._host, self._actions, self._definition = name, host, actions, None
        self._handle = durable_rules_engine.create_ruleset(name, text)


def _seen(c) -> None:
    """The sentinel rule's action: nothing (the rule only keeps a fact from going unhandled)."""


class _Actions(dict):
    """A ruleset's actions for durable-rules' own host, each made when first asked for: ``Engine.run`` reads
    the actions' names and never calls them (benchmarks and tests drive the host itself)."""

    def __init__(self, make, seen) -> None:
        super().__init__()
        self._make, self._seen = make, seen

    def __missing__(self, name: str):
        make = self._make()   # a weak reference to the engine's method: see Engine._register
        if make is None:
            raise EngineError("this engine was closed")
        fn = self._seen if name == SENTINEL else make(int(name[1:]))
        self[name] = action = durable.Promise(fn)
        return action


FORM = "rulings.engine-form/4"   # the compiled form's layout: a change here is a new key


def _read_form(path: Path, rules: int) -> dict | None:
    """A compiled form from the cache, if one is there for this key and has one entry per rule."""
    from rulings.rulebook import cache as bookcache
    form = bookcache.read_data(path, FORM)
    if isinstance(form, dict) and isinstance(form.get("rules"), list) and len(form["rules"]) == rules:
        return form
    return None


def compile_condition(c: Condition | AnyOf, ruled: dict[str, list[str]] | None = None) -> dict:
    """One condition in durable-rules' form; ``ruled`` maps a ruling to the fired flags of the rules giving it."""
    if isinstance(c, AnyOf):
        return {"$or": [{"$and": [compile_condition(x, ruled) for x in g]} if len(g) != 1
                        else compile_condition(g[0], ruled) for g in c.groups]}
    if c.fact == "ruled":
        flags = (ruled or {}).get(c.value) or ["f__none"]
        tests = [{"$ex": {f: 1}} for f in flags]
        return tests[0] if len(tests) == 1 else {"$or": tests}
    f = field_name(c.fact)
    if c.op == "missing":
        return {"$nex": {f: 1}}
    if c.op == "present":
        return {"$ex": {f: 1}}
    if c.op == "eq":
        return {f: c.value}
    if c.op == "not":
        return {"$neq": {f: c.value}}
    if c.op == "in":
        return {"$or": [{f: v} for v in c.value]}
    if c.op == "not_in":
        return {"$and": [{"$neq": {f: v}} for v in c.value]}
    rhs = to_durable(c.value, field_name) if c.is_expr else c.value
    return {_OPS[c.op]: {f: rhs}}


_REF_KEYS = {"$m", "$l", "$r", "$add", "$sub", "$mul", "$div"}
_COMPARE = {"$gt", "$gte", "$lt", "$lte", "$neq"}


def _same_fact(rhs: Any) -> bool:
    if isinstance(rhs, dict):   # only this fact's own fields ($m) and arithmetic on them
        return set(rhs) <= _REF_KEYS and all(_same_fact(v) for v in rhs.values())
    return not isinstance(rhs, list)


def single_fact(cond: dict) -> None:
    """Refuse any condition that reaches another fact: correlated joins crash durable-rules' C core."""
    for key, value in cond.items():
        if key in ("$and", "$or"):
            for c in value:
                single_fact(c)
        elif key in ("$ex", "$nex"):
            continue
        elif key in _COMPARE:
            if not all(_same_fact(rhs) for rhs in value.values()):
                raise EngineError(f"a condition refers to another fact: {cond}")
        elif not _same_fact(value):
            raise EngineError(f"a condition refers to another fact: {cond}")


def reads(conditions, ruled: dict[str, list[str]] | None = None) -> set[str]:
    """The fields a rule's conditions read, for the chain of rules behind a ruling."""
    out: set[str] = set()
    for c in conditions:
        if isinstance(c, AnyOf):
            for g in c.groups:
                out |= reads(g, ruled)
        elif c.fact == "ruled":
            out |= set((ruled or {}).get(c.value, ()))
        else:
            out.add(field_name(c.fact))
            if c.is_expr:
                out |= {field_name(n) for n in names_in(c.value)}
                out |= {field_name("param." + p) for p in param_names_in(c.value)}
    return out


_READS: dict[int, tuple[Any, frozenset]] = {}


def rule_reads(rule: Rule) -> frozenset:
    """``reads(rule.when)``, worked out once per rule (the report reads it for every rule behind a ruling)."""
    got = _READS.get(id(rule.when))
    if got is not None and got[0] is rule.when:
        return got[1]
    out = frozenset(reads(rule.when))
    if len(_READS) >= 4096:   # bounded: the books of a long process come and go
        _READS.clear()
    _READS[id(rule.when)] = (rule.when, out)
    return out


def _present_fields(rule: Rule, needs: list[str]) -> frozenset:
    """Fields that must be in the fact for the rule to match: its needs, and each top-level test other
    than ``missing`` (durable-rules: a test on an absent field does not match). Left out, to stay on the
    safe side: ``any_of`` groups, ``ruled:`` and the fields on a comparison's right-hand side."""
    out = {field_name(n) for n in needs}
    for c in rule.when:
        if isinstance(c, Condition) and c.fact != "ruled" and c.op != "missing":
            out.add(field_name(c.fact))
    return frozenset(out)


_ABSENT = object()


def _unencodable(o: Any) -> Any:
    raise TypeError(f"Object of type {o.__class__.__name__} is not JSON serializable")


def _encoder() -> Callable[[Any], str]:
    """``json.dumps(x, ensure_ascii=False)``, the very text, without building an encoder per call: the C
    encoder is made once (no circular check: a fact is flat, its values numbers, text and flags)."""
    import json.encoder as stdlib_encoder
    c_make_encoder = getattr(stdlib_encoder, "c_make_encoder", None)   # private to json: not in the stubs
    encode_basestring = stdlib_encoder.encode_basestring
    if c_make_encoder is None:   # a Python without the C accelerator
        return json.JSONEncoder(ensure_ascii=False).encode
    chunks = c_make_encoder(None, _unencodable, encode_basestring, None, ": ", ", ", False, False, True)
    join = "".join
    return lambda o: join(chunks(o, 0))


_encode = _encoder()
_PLAIN = (str, int, bool)
COMPILE_AFTER = 64   # pre-checks of a ruleset before it is compiled to Python (a cold start never pays for it)
_PY_CMP = {"above": lambda a, b: a > b, "below": lambda a, b: a < b,
           "at_least": lambda a, b: a >= b, "at_most": lambda a, b: a <= b}
_PY_OPS = {"above": ">", "below": "<", "at_least": ">=", "at_most": "<="}
_EXACT = 2 ** 53   # whole numbers below this are exact as int64 and as double: durable-rules and Python agree
_ARITH = {"$add": lambda a, b: a + b, "$sub": lambda a, b: a - b, "$mul": lambda a, b: a * b}


def _rhs(tree: Any, fact: dict) -> int | None:
    """A comparison's right-hand side (durable-rules' ``$m`` arithmetic, as ``to_durable`` writes it) over
    the fact, or None when it is anything but whole numbers well inside the range where durable-rules
    and Python agree (an absent field, another type, a division: left to durable-rules)."""
    if tree.__class__ is int:
        return tree if -_EXACT < tree < _EXACT else None
    if tree.__class__ is not dict or len(tree) != 1:
        return None
    (op, arg), = tree.items()
    if op == "$m":
        v = fact.get(arg)
        return v if v.__class__ is int and -_EXACT < v < _EXACT else None
    fn = _ARITH.get(op)
    if fn is None or arg.__class__ is not dict:
        return None
    left, right = _rhs(arg.get("$l"), fact), _rhs(arg.get("$r"), fact)
    if left is None or right is None:
        return None
    out = fn(left, right)
    return out if -_EXACT < out < _EXACT else None


def _expr_may(v: Any, op: str, tree: Any, fact: dict) -> bool:
    """A comparison with an expression: False only when both sides are whole numbers and it fails."""
    if v.__class__ is not int:
        return True
    rhs = _rhs(tree, fact)
    return rhs is None or _PY_CMP[op](v, rhs)


def _atoms(conditions, compiled: list | None = None, flags: dict[str, list[tuple[str, int]]] | None = None) -> tuple:
    """A rule's conditions as the cheap checks of the pre-check. With the compiled conditions (top level only),
    a comparison with an expression carries its durable-rules right-hand side, and ``ruled:`` the flags that
    satisfy it with their rules; inside ``any_of`` they are only a field's presence and nothing."""
    out: list[tuple] = []
    for k, c in enumerate(conditions):
        if isinstance(c, AnyOf):
            out.append((None, tuple(_atoms(g) for g in c.groups), None))
        elif c.fact == "ruled":
            if flags is not None:
                out.append((None, "ruled", tuple(flags.get(c.value) or [("f__none", -1)])))
        elif c.is_expr:
            tree = None
            if compiled is not None and c.op in _OPS:
                tree = compiled[k].get(_OPS[c.op], {}).get(field_name(c.fact))
            out.append((field_name(c.fact), "expr", (c.op, tree)) if tree is not None
                       else (field_name(c.fact), "present", None))
        else:
            out.append((field_name(c.fact), c.op, c.value))
    return tuple(out)


_ATOM_OPS = frozenset(("eq", "not", "in", "not_in", "missing", "present", "expr", *_PY_CMP))


def _valid_atoms(atoms: Any) -> tuple:
    """A rule's pre-check tests as ``_atoms`` writes them, read from a kept compiled form: TypeError for
    anything else (the Python generated from them names every constant, and its ruleset numbers must be ints)."""
    if type(atoms) is not tuple:
        raise TypeError("a pre-check's tests")
    for atom in atoms:
        if type(atom) is not tuple or len(atom) != 3:
            raise TypeError("a pre-check's test")
        field_, op, value = atom
        if field_ is None:
            if op == "ruled":
                if type(value) is not tuple or not all(type(x) is tuple and len(x) == 2 and type(x[0]) is str
                                                       and type(x[1]) is int for x in value):
                    raise TypeError("a pre-check's ruled: flags")
            elif type(op) is tuple:
                for group in op:
                    _valid_atoms(group)
            else:
                raise TypeError("a pre-check's any_of")
        elif type(field_) is not str or op not in _ATOM_OPS:
            raise TypeError("a pre-check's test")
        elif op in ("in", "not_in") and not isinstance(value, (list, tuple)):
            raise TypeError("a pre-check's list of values")
        elif op == "expr" and not (type(value) is tuple and len(value) == 2 and value[0] in _PY_CMP):
            raise TypeError("a pre-check's comparison")
    return atoms


def _may_match(atoms: tuple, fact: dict, done: Any = ()) -> bool:
    """False only when durable-rules certainly would not match the fact: a tested field absent (or present,
    for ``missing``), a literal test that fails between values of the same plain type (durable-rules
    compares values of different types its own way, so those are left to it), a comparison with an
    expression that fails between whole numbers, or a ``ruled:`` whose flags are all absent (a flag of a
    rule in ``done`` counts as present: the fact posted carries it)."""
    for field_, op, value in atoms:
        if field_ is None:
            if op == "ruled":   # any_of the flags; a rule already done has its flag in the fact posted
                if not any(flag in fact or j in done for flag, j in value):
                    return False
            elif not any(_may_match(g, fact) for g in op):   # any_of: one of the groups
                return False
            continue
        v = fact.get(field_, _ABSENT)
        if op == "missing":
            if v is not _ABSENT:
                return False
            continue
        if v is _ABSENT:
            return False
        t = type(v)
        if op == "present" or t not in _PLAIN:
            continue
        if op == "eq":
            if type(value) is t and v != value:
                return False
        elif op == "not":
            if type(value) is t and v == value:
                return False
        elif op == "in":
            if all(type(x) is t for x in value) and v not in value:
                return False
        elif op == "not_in":
            if any(type(x) is t and x == v for x in value):
                return False
        elif op == "expr":
            if not _expr_may(v, value[0], value[1], fact):
                return False
        elif t is int and type(value) is int and not _PY_CMP[op](v, value):
            return False
    return True


def _atom_source(atom: tuple, const) -> str | None:
    """One check of ``_may_match`` as a Python expression over ``f`` (None: it always holds). ``const(value)``
    names a constant in the generated function's namespace."""
    field_, op, value = atom
    if field_ is None:
        if op == "ruled":
            return "(" + " or ".join(f"{const(flag)} in f" + (f" or {j} in done" if j >= 0 else "")
                                     for flag, j in value) + ")"
        groups = [" and ".join(s for s in (_atom_source(a, const) for a in g) if s) or "True" for g in op]
        return "(" + " or ".join(f"({g})" for g in groups) + ")"
    name = const(field_)
    if op == "missing":
        return f"{name} not in f"
    if op == "present":
        return f"{name} in f"
    got = f"(_v := g({name}, A)) is not A"
    if op in ("eq", "not"):
        if type(value) not in _PLAIN:
            return f"{name} in f"
        test = "==" if op == "eq" else "!="
        return f"({got} and (_v.__class__ is not {type(value).__name__} or _v {test} {const(value)}))"
    if op == "in":
        kinds = {type(x) for x in value}
        if not value:
            return f"({got} and _v.__class__ not in PLAIN)"
        if len(kinds) != 1 or next(iter(kinds)) not in _PLAIN:
            return f"{name} in f"
        kind = next(iter(kinds)).__name__
        return f"({got} and (_v.__class__ is not {kind} or _v in {const(frozenset(value))}))"
    if op == "not_in":
        tests = [f"(_v.__class__ is not {t.__name__} or _v not in {const(frozenset(x for x in value if type(x) is t))})"
                 for t in _PLAIN if any(type(x) is t for x in value)]
        return f"({got} and " + " and ".join(tests) + ")" if tests else f"{name} in f"
    if op == "expr":
        return f"({got} and expr_may(_v, {const(value[0])}, {const(value[1])}, f))"
    if type(value) is not int:
        return f"{name} in f"
    return f"({got} and (_v.__class__ is not int or _v {_PY_OPS[op]} {const(value)}))"


_RANK = {"eq": 0, "in": 0, "not": 1, "not_in": 1, "above": 1, "below": 1, "at_least": 1, "at_most": 1,
         "missing": 2, "present": 2, "expr": 4}


def _check_source(rules: list[tuple[int, frozenset, tuple]], const) -> str:
    """The pre-check of one ruleset as the source of ``check(f, done)``: one test per rule, its cheapest and
    most selective tests first (a conjunction: the order changes nothing but the time). Rules whose first
    test is a field equal to a plain constant are filed under that field, read once: a value of the
    constant's type goes straight to the rules of that value; another type passes the test (left to
    durable-rules) and every rule filed there is tried."""
    lines = ["def check(f, done):", "    g = f.get"]
    filed: dict[tuple[str, type], dict[Any, list[str]]] = {}

    def rule_test(i: int, present: frozenset, atoms: tuple, lead: bool) -> str:
        tested = {a[0] for a in atoms if a[0] is not None and a[1] != "missing"}
        ordered = sorted(atoms, key=lambda a: 3 if a[0] is None else _RANK.get(a[1], 1))
        if lead:   # its field is read and present where this test stands
            ordered = ordered[1:]
        parts = [f"{i} not in done"]
        parts += [s for s in (_atom_source(a, const) for a in ordered[:1]) if s]
        parts += [f"{const(n)} in f" for n in sorted(present - tested)]
        parts += [s for s in (_atom_source(a, const) for a in ordered[1:]) if s]
        return " and ".join(parts)

    for i, present, atoms in rules:
        ordered = sorted(atoms, key=lambda a: 3 if a[0] is None else _RANK.get(a[1], 1))
        first = ordered[0] if ordered else None
        if first is not None and first[0] is not None and first[1] == "eq" and type(first[2]) in _PLAIN:
            by_value = filed.setdefault((first[0], type(first[2])), {})
            by_value.setdefault(first[2], []).append(rule_test(i, present, atoms, True))
            continue
        lines += [f"    if {rule_test(i, present, atoms, False)}:", "        return True"]
    for (name, kind), by_value in filed.items():
        lines += [f"    _d = g({const(name)}, A)", "    if _d is not A:", f"        if _d.__class__ is {kind.__name__}:"]
        for n, (value, tests) in enumerate(by_value.items()):
            lines.append(f"            {'if' if n == 0 else 'elif'} _d == {const(value)}:")
            for test in tests:
                lines += [f"                if {test}:", "                    return True"]
        lines.append("        else:")
        for tests in by_value.values():
            for test in tests:
                lines += [f"            if {test}:", "                return True"]
    lines.append("    return False")
    return "\n".join(lines) + "\n"


def required(rule: Rule) -> set[str]:
    """The facts a rule's effects, derived facts and sentence read: absent, the rule cannot apply.

    A name read only through ``default(...)`` is optional, and so is a name read inside a sentence's
    ``{% if NAME | default(0) %}`` block (a default that is false: the block is left out when NAME is).
    """
    out: set[str] = set()
    optional: set[str] = set()

    def walk(node: nodes.Node, guarded: bool) -> None:
        if isinstance(node, nodes.Name) and not guarded and node.name not in optional:
            out.add(node.name)
        if isinstance(node, nodes.If):
            walk(node.test, guarded)
            shown = _false_without(node.test) - optional
            optional.update(shown)
            for child in node.body:
                walk(child, guarded)
            optional.difference_update(shown)
            for child in list(node.elif_) + list(node.else_):
                walk(child, guarded)
            return
        if isinstance(node, nodes.Filter) and node.name == "default":
            if node.node is not None:   # None only in a filter block, which an expression has not
                walk(node.node, True)
            for arg in node.args:
                walk(arg, guarded)
            return
        for child in node.iter_child_nodes():
            walk(child, guarded)
    for _, text in rule.then.effects + rule.then.derive:
        walk(parse_expression(str(text)), False)
    if rule.then.say:
        walk(parse_template(rule.then.say), False)
    return out - {"param", "effect", "rule", "seat", "true", "false", "none", "True", "False", "None"}


def _false_without(test: nodes.Node) -> set[str]:
    """The facts without which a block's test is false: those it reads as ``NAME | default(<false>)``, alone
    or joined by ``and``."""
    if isinstance(test, nodes.And):
        return _false_without(test.left) | _false_without(test.right)
    if isinstance(test, nodes.Filter) and test.name == "default" and isinstance(test.node, nodes.Name) \
            and len(test.args) == 1 and isinstance(test.args[0], nodes.Const) and not test.args[0].value:
        return {test.node.name}
    return set()


def uses(rule: Rule) -> list[str]:
    """Every fact a rule's effects, derived facts and sentence name (defaulted or not), and ``setting``
    (the ``money`` filter reads it): what its firing gives is a function of these and the parameters."""
    out = {"setting"}
    for _, text in rule.then.effects + rule.then.derive:
        expr = parse_expression(str(text))
        out |= {n.name for n in [expr, *expr.find_all(nodes.Name)] if isinstance(n, nodes.Name)}
    if rule.then.say:
        out |= {n.name for n in parse_template(rule.then.say).find_all(nodes.Name)}
    return sorted(out - {"param", "effect", "rule"})


def uses_of(book: Rulebook) -> Callable[[Rule], list[str]]:
    """``uses`` for the rules of ``book``: what an engine of the book has already (from its compiled form, the
    shipped copy's for the standard book), else worked out (each sentence parsed)."""
    known = per_book(book, "rule uses", dict)
    return lambda rule: known.get(rule.id) or uses(rule)


def _form_path(book: Rulebook, rules: list[Rule], part_rules: int) -> Path | None:
    """Where the compiled form of a book is kept, keyed by content only: the book cache's key when the book
    came from it (it covers the book's files and the code and catalogues that check and compile it), else a
    digest of everything the form is made from -- the rules, the parameters' names, that code and catalogues."""
    from rulings.rulebook import cache as bookcache
    where = bookcache.folder()
    if where is None:
        return None
    book_key = bookcache.key_of(book)
    h = hashlib.sha256(f"{FORM}\0{part_rules}\0".encode())
    if book_key is not None:
        h.update(book_key.encode())
    else:   # the code and catalogues that compile a book (bookcache.SHIP_CODE; a test checks it covers them)
        h.update(bookcache.code_key().encode())
        h.update(repr(sorted(book.parameters)).encode())
        for r in rules:
            h.update(repr((r.id, r.when, r.then.effects, r.then.derive, r.then.say, r.then.ruling,
                           r.exception_to)).encode())
    return where / f"compiled-{h.hexdigest()[:40]}.bin"


def ruled_flags(rules: list[Rule]) -> dict[str, list[str]]:
    """Each ruling some rule gives, and the flags of the rules giving it (in book order)."""
    ruled: dict[str, list[str]] = {}
    for i, rule in enumerate(rules):
        if rule.then.ruling:
            ruled.setdefault(rule.then.ruling, []).append(f"f__{i}")
    return ruled


def ruled_tested(conditions) -> set[str]:
    """The rulings a rule's conditions ask about (``ruled:``)."""
    out: set[str] = set()
    for c in conditions:
        if isinstance(c, AnyOf):
            for g in c.groups:
                out |= ruled_tested(g)
        elif c.fact == "ruled":
            out |= set(c.value) if isinstance(c.value, (list, tuple)) else {c.value}
    return out


def shipped_entries(rules: list[Rule], got: tuple[list[tuple], list[str], list]) -> list:
    """For a book just compiled, given the shipped copy's rules and compiled entries (``bookcache.shipped_seed``):
    the entry (``rule_compiled``) of each rule that is the copy's rule of the same id with the same conditions
    and outcome -- and, when it asks whether a ruling was given, the same rules give that ruling at the same
    places (its flags are by place) -- None for the others."""
    theirs, _, data = got
    at = {rid: i for i, (rid, _, _, _) in enumerate(theirs)}
    mine_flags = ruled_flags(rules)
    their_flags: dict[str, list[str]] = {}
    for i, (_, _, _, then) in enumerate(theirs):
        if then.ruling:
            their_flags.setdefault(then.ruling, []).append(f"f__{i}")
    out: list = []
    for r in rules:
        k = at.get(r.id)
        if k is not None:
            _, _, when, then = theirs[k]
            if ((r.when is when or r.when == when) and (r.then is then or r.then == then)
                    and all(mine_flags.get(t) == their_flags.get(t) for t in ruled_tested(r.when))):
                out.append(data[k])
                continue
        out.append(None)
    return out


def rule_compiled(rule: Rule, ruled: dict[str, list[str]]) -> list:
    """One rule compiled, as plain data: the facts it needs, the fields it reads, what it uses, its fast
    expressions, its durable-rules conditions and its sentence's plan (the shipped copy keeps one per rule:
    rulings/rulebook/cache.py)."""
    return [sorted(required(rule)), sorted(reads(rule.when, ruled)), uses(rule),
            [expression_tree(v) for _, v in rule.then.effects + rule.then.derive],
            [compile_condition(c, ruled) for c in rule.when],
            sentence_tree(rule.then.say) if rule.then.say else None]


@dataclass
class Fired:
    """One rule that fired, with what it gave."""

    rule: Rule
    chain: list[str]
    effects: dict[str, Any]
    derived: dict[str, Any]
    sentence: str | None


@dataclass
class Run:
    """One incident's run: the whole situation lives here; durable-rules holds only what conditions test."""

    facts: dict[str, Any] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    fired: list[Fired] = field(default_factory=list)
    chains: dict[str, list[str]] = field(default_factory=dict)
    failures: list[tuple[str, str]] = field(default_factory=list)   # (rule id, what went wrong)
    asserts: int = 0


class Memo:
    """What one incident's runs found, shared by its two strata: the rules each posted fact matched, keyed by
    ruleset and the fact's text, and what each firing gave, keyed by the rule and the facts it reads."""

    __slots__ = ("matches", "fires", "param_fields")

    def __init__(self) -> None:
        self.param_fields: tuple[object, dict[str, Any]] | None = None   # (params, its tested fields): both strata
        self.matches: dict[tuple[str, str], list[int] | None] = {}   # None: the pre-check found no rule
        self.fires: dict[tuple, tuple[dict, dict, str | None]] = {}


class _Nested(dict):
    """Parameters as param.topic.name for expressions and sentences, each topic gathered when first read."""

    __slots__ = ("_flat",)

    def __init__(self, flat: dict):
        super().__init__()
        self._flat = flat

    def __missing__(self, topic: str) -> dict:
        prefix = topic + "."
        found = {k[len(prefix):]: v for k, v in self._flat.items() if k.startswith(prefix)}
        if not found:
            raise KeyError(topic)
        self[topic] = found
        return found


def _nested(params: dict) -> dict:
    return _Nested(params)


def _gate(conditions, fact: str, values: tuple) -> frozenset | None:
    """The values of ``fact`` a rule's top-level conditions allow, None standing for its absence
    (None as the result: anything)."""
    anything = set(values) | {None}
    allowed = set(anything)
    for c in conditions:
        if isinstance(c, Condition) and c.fact == fact:
            if c.op == "eq":
                allowed &= {c.value}
            elif c.op == "in":
                allowed &= set(c.value)
            elif c.op == "not":        # durable-rules: a test on an absent field does not match
                allowed -= {c.value, None}
            elif c.op == "not_in":
                allowed -= set(c.value) | {None}
            elif c.op == "missing":
                allowed &= {None}
            elif c.op == "present":
                allowed -= {None}
            else:
                return None
    return None if allowed == anything else frozenset(allowed)


@dataclass
class _Part:
    """One durable-rules ruleset: some of the book's rules, the fields they test, the incidents it can apply to."""

    name: str
    members: list[int]
    fields: set[str]
    gates: dict[str, frozenset | None]
    _handle: int = 0
    text: str = ""   # the ruleset as durable-rules takes it (JSON)
    make: Any = None   # registers the ruleset with durable-rules: a weakref.WeakMethod of Engine._register
    index: dict[str, int] = field(default_factory=dict)   # action name -> rule index
    member_set: frozenset = field(default=frozenset(), init=False)
    field_order: tuple = field(default=(), init=False)
    is_open: bool = field(default=False, init=False)
    checks: list[tuple[int, frozenset, tuple]] = field(default_factory=list)   # per rule: index, needed, tests
    check: Any = None   # the pre-check compiled to Python, once the ruleset has been asked COMPILE_AFTER times
    asked: int = 0

    def __post_init__(self) -> None:
        self.index = {f"r{i}": i for i in self.members}
        self.member_set = frozenset(self.members)
        self.field_order = tuple(sorted(self.fields))   # the fact's fields in an order that is the same every run
        self.is_open = all(allowed is None for allowed in self.gates.values())   # every incident runs it

    @property
    def handle(self) -> int:
        """The C core's handle: from a kept compiled form, the ruleset is registered when first posted to
        (a ruling posts to a few of the standard book's sixteen)."""
        if not self._handle:
            register = self.make() if self.make is not None else None
            if register is None:
                raise EngineError("this engine was closed")
            register(self)
        return self._handle

    def may_match(self, fact: dict, done: Any = ()) -> bool:
        """False only when no rule of the ruleset that is not ``done`` can match the fact (see ``_may_match``):
        no post needed. ``fact`` may hold fields of other rulesets: only this one's are read."""
        check = self.check
        if check is not None:
            return check(fact, done)
        self.asked += 1
        if self.asked > COMPILE_AFTER:   # a warm process: the generated code is several times faster
            self.check = self.compiled_check()
            return self.check(fact, done)
        keys = fact.keys()
        for i, present, atoms in self.checks:
            if i not in done and present <= keys and _may_match(atoms, fact, done):
                return True
        return False

    def compiled_check(self) -> Callable[..., bool]:
        """``may_match`` as generated Python: one line per rule, every constant (field names included) a
        name in the function's own namespace, never text in its source."""
        names: dict[tuple[type, Any], str] = {}
        space: dict[str, Any] = {"A": _ABSENT, "PLAIN": _PLAIN, "expr_may": _expr_may, "__builtins__": {},
                                 "str": str, "int": int, "bool": bool}

        def const(value: Any) -> str:
            key = (type(value), value if not isinstance(value, (dict, list)) else id(value))
            name = names.get(key)
            if name is None:
                name = names[key] = f"_k{len(names)}"
                space[name] = value
            return name
        source = _check_source(self.checks, const)
        exec(compile(source, f"<pre-check of {self.name}>", "exec"), space)   # noqa: S102 (our own source)
        return space["check"]

    def admits(self, facts: dict) -> bool:
        for fact, allowed in self.gates.items():
            if allowed is not None and facts.get(fact) not in allowed:
                return False
        return True


class _Slow(Exception):
    """An expression the fast path does not take: jinja2 evaluates it."""


_CMP = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "gt": lambda a, b: a > b,
        "gteq": lambda a, b: a >= b, "lt": lambda a, b: a < b, "lteq": lambda a, b: a <= b}


def _number(v: Any) -> Any:
    if isinstance(v, (str, list, tuple, dict)):   # the sandbox's refusal of text or list repetition
        raise SecurityError("repetition of text or lists is not allowed")
    return v


_BIN_NODES: dict[type, str] = {nodes.Add: "+", nodes.Sub: "-", nodes.FloorDiv: "//", nodes.Mul: "*"}


def _tree(node: nodes.Node) -> list:
    """A whitelisted expression as plain data (kept in the compiled cache, so a cold start parses nothing):
    ["const", v], ["name", n], ["param", topic, name], [op, left, right] for + - // * and the comparisons,
    ["neg", x], ["not", x], ["and", a, b], ["or", a, b], ["if", test, yes, no]. _Slow for anything else."""
    if isinstance(node, nodes.Const):
        if not (node.value is None or isinstance(node.value, (bool, int, str))):
            raise _Slow
        return ["const", node.value]
    if isinstance(node, nodes.Name):
        return ["name", node.name]
    if isinstance(node, nodes.Getattr):
        path: list[str] = []
        root: nodes.Node = node
        while isinstance(root, nodes.Getattr):
            path.append(root.attr)
            root = root.node
        if not (isinstance(root, nodes.Name) and root.name == "param" and len(path) == 2):
            raise _Slow
        return ["param", path[1], path[0]]
    if isinstance(node, nodes.BinExpr) and type(node) in _BIN_NODES:
        return [_BIN_NODES[type(node)], _tree(node.left), _tree(node.right)]
    if isinstance(node, nodes.Neg):
        return ["neg", _tree(node.node)]
    if isinstance(node, nodes.Not):
        return ["not", _tree(node.node)]
    if isinstance(node, nodes.And):
        return ["and", _tree(node.left), _tree(node.right)]
    if isinstance(node, nodes.Or):
        return ["or", _tree(node.left), _tree(node.right)]
    if isinstance(node, nodes.CondExpr) and node.expr2 is not None:
        return ["if", _tree(node.test), _tree(node.expr1), _tree(node.expr2)]
    if isinstance(node, nodes.Compare) and len(node.ops) == 1 and node.ops[0].op in _CMP:
        return [node.ops[0].op, _tree(node.expr), _tree(node.ops[0].expr)]
    raise _Slow


_TREE_BIN = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "//": lambda a, b: a // b, **_CMP}


def _from_tree(t: list):
    """The callable over a dict of facts for a ``_tree`` (the same results as jinja2, without its context)."""
    op = t[0]
    if op == "const":
        value = t[1]
        return lambda f: value
    if op == "name":
        name = t[1]

        def read(f):
            try:
                return f[name]
            except KeyError:
                raise UndefinedError(f"'{name}' is undefined") from None
        return read
    if op == "param":
        topic, name = t[1], t[2]
        return lambda f: f["param"][topic][name]
    if op == "*":
        left, right = _from_tree(t[1]), _from_tree(t[2])
        return lambda f: _number(left(f)) * _number(right(f))
    if op in _TREE_BIN:   # as jinja2's sandbox: only '*' is intercepted
        fn, left, right = _TREE_BIN[op], _from_tree(t[1]), _from_tree(t[2])
        return lambda f: fn(left(f), right(f))
    if op == "neg":
        inner = _from_tree(t[1])
        return lambda f: -inner(f)
    if op == "not":
        inner = _from_tree(t[1])
        return lambda f: not inner(f)
    if op == "and":
        left, right = _from_tree(t[1]), _from_tree(t[2])
        return lambda f: left(f) and right(f)
    if op == "or":
        left, right = _from_tree(t[1]), _from_tree(t[2])
        return lambda f: left(f) or right(f)
    if op == "if":
        test, yes, no = _from_tree(t[1]), _from_tree(t[2]), _from_tree(t[3])
        return lambda f: yes(f) if test(f) else no(f)
    raise _Slow


def _fast(node: nodes.Node):
    """A whitelisted expression as plain Python over the facts (the same results as jinja2, without its context)."""
    return _from_tree(_tree(node))


def expression_tree(text: str) -> list | None:
    """``_tree`` of an expression's text, or None when jinja2 must evaluate it."""
    try:
        return _tree(parse_expression(str(text)))
    except _Slow:
        return None


def fast_expression(text: str):
    """The expression as a Python callable over a dict of facts, or None when jinja2 must evaluate it."""
    try:
        fn = _fast(parse_expression(str(text)))
    except _Slow:
        return None
    return fn


def _callable(text: str):
    fn = fast_expression(text)
    if fn is not None:
        return fn
    slow = compile_expression(text)
    expr = parse_expression(str(text))   # jinja2 builds its context from every name given: give it those it reads
    names = {n.name for n in [expr, *expr.find_all(nodes.Name)] if isinstance(n, nodes.Name)}
    return lambda f: slow(**{n: f[n] for n in names if n in f})


def _value_tree(node: nodes.Node) -> list:
    """A value a sentence prints: a fact, a constant, a parameter (``_tree``) or an effect (``effect.x``)."""
    if isinstance(node, nodes.Getattr) and isinstance(node.node, nodes.Name) and node.node.name == "effect":
        if hasattr(dict, node.attr):   # jinja2 reads a dict's own attribute (a method) before its item
            raise _Slow
        return ["effect", node.attr]
    if isinstance(node, (nodes.Name, nodes.Const, nodes.Getattr)):
        t = _tree(node)
        if t[0] == "param" and (hasattr(dict, t[1]) or hasattr(dict, t[2])):
            raise _Slow
        return t
    raise _Slow


def sentence_tree(text: str) -> list | None:
    """A sentence template that is only text and values -- facts, constants, parameters and effects, each as
    it is or through ``| money`` -- as plain data: ["text", s], ["out", value] or ["money", value] for each
    part in order (kept in the compiled form, so a ruling's sentence needs no template compiled); None when
    jinja2 must render it (a block, a test, arithmetic, another filter)."""
    try:
        template = parse_template(text)
    except Exception:   # jinja2's own refusal, said when the template is compiled
        return None
    plan: list = []
    for out in template.body:
        if not isinstance(out, nodes.Output):
            return None
        for node in out.nodes:
            if isinstance(node, nodes.TemplateData):
                plan.append(["text", node.data])
                continue
            try:
                if isinstance(node, nodes.Filter):
                    if (node.name != "money" or node.node is None or node.args or node.kwargs
                            or node.dyn_args is not None or node.dyn_kwargs is not None):
                        return None
                    plan.append(["money", _value_tree(node.node)])
                else:
                    plan.append(["out", _value_tree(node)])
            except _Slow:
                return None
    return plan


def _tree_names(t: list) -> set[str]:
    """The names an expression's ``_tree`` reads, as ``names_in`` finds them in its text (a parameter's
    root ``param`` among them)."""
    op = t[0]
    if op == "name":
        return {t[1]}
    if op == "param":
        return {"param"}
    if op == "const":
        return set()
    return set().union(*(_tree_names(x) for x in t[1:] if isinstance(x, list)))


def _plan_value(t: list):
    if t[0] == "effect":
        name = t[1]
        return lambda ctx: ctx["effect"][name]
    if t[0] in ("const", "name", "param"):
        return _from_tree(t)
    raise _Slow


class _Sentence:
    """A rule's sentence: from its plan when it has one (text and values joined as jinja2 joins them: each
    value as ``str`` gives it, ``money`` as the template's filter shows it), else jinja2's template. Whenever
    the plan meets anything unusual (a name missing, a value ``money`` cannot show), jinja2 renders it, so
    what it says or raises is jinja2's own."""

    __slots__ = ("text", "parts", "template")

    def __init__(self, text: str, plan: list | None):
        self.text, self.template = text, None
        self.parts: list | None = None
        if isinstance(plan, list):
            try:
                self.parts = [(0, p[1]) if p[0] == "text" and isinstance(p[1], str) else
                              ({"out": 1, "money": 2}[p[0]], _plan_value(p[1])) for p in plan]
            except (_Slow, KeyError, IndexError, TypeError):   # not a plan this engine wrote
                self.parts = None
        if self.parts is None:
            self.template = compile_template(text)

    def render(self, ctx: dict) -> str:
        if self.parts is not None:
            try:
                out = []
                for kind, part in self.parts:
                    if kind == 0:
                        out.append(part)
                    elif kind == 1:
                        out.append(str(part(ctx)))
                    else:
                        out.append(show(int(part(ctx)), ctx.get("setting", "cash")))
                return "".join(out)
            except Exception:   # jinja2 says it (or raises it) in its own words
                pass
        if self.template is None:
            self.template = compile_template(self.text)
        return self.template.render(ctx)


class _Rule:
    """A rule as the agenda sees it: its order, flag, what it reads, its compiled parts (jinja2 at first use)."""

    __slots__ = ("rule", "index", "order", "flag", "reads", "compiled", "costly", "trees", "plan")

    def __init__(self, rule: Rule, index: int, pri: int, flag: str, reads_: set[str], trees: list | None = None,
                 plan: list | None = None):
        self.rule, self.index, self.order, self.flag, self.reads = rule, index, (pri, index), flag, reads_
        self.trees = trees   # the compiled cache's plain-data form of its fast expressions
        self.plan = plan     # and of its sentence, when it is only text and values (``sentence_tree``)
        self.compiled: list | None = None
        self.costly = False   # a sentence or an expression jinja2 evaluates: worth keeping in a Memo

    def parts(self) -> list:
        if self.compiled is None:
            then = self.rule.then
            fns = {}
            exprs = then.effects + then.derive
            trees = self.trees if self.trees is not None and len(self.trees) == len(exprs) else [None] * len(exprs)
            for (_, v), tree in zip(exprs, trees):
                try:
                    fn = _from_tree(tree) if isinstance(tree, list) and tree else fast_expression(v)
                except (_Slow, IndexError, TypeError, KeyError):   # not a tree this engine wrote
                    fn = fast_expression(v)
                if fn is None:   # jinja2 evaluates it
                    self.costly = True
                    fn = _callable(v)
                fns[v] = fn
            self.costly = self.costly or bool(then.say)
            self.compiled = [[(k, fns[v]) for k, v in then.effects], [(k, fns[v]) for k, v in then.derive],
                             _Sentence(then.say, self.plan) if then.say else None]
        return self.compiled


class Engine:
    """A compiled rulebook, ready to rule on incidents one session at a time."""

    _names = itertools.count(1)

    def __init__(self, book: Rulebook, part_rules: int = PART_RULES):
        self.book = book
        self.name = f"book{next(self._names)}"
        self._lock = threading.Lock()
        self._registering = threading.Lock()
        self._runs: dict[str, Run] = {}
        self._sids = itertools.count(1)
        self._host = _SyncHost()
        self._closed = False
        self._matched: list[int] = []
        rules = list(book.rules.values())
        from rulings.rulebook import cache as bookcache
        path = None
        try:
            path = _form_path(book, rules, part_rules)
        except OSError:   # a package file that cannot be read: no cache
            pass
        form = _read_form(path, len(rules)) if path is not None else None
        if form is None:   # the standard book served from the package's shipped copy: its form is there too
            form = bookcache.shipped_form(bookcache.key_of(book), part_rules, len(rules))
        if form is not None:
            try:
                self._apply(rules, form, eager=False)
                return
            except (EngineError, ValueError, TypeError, KeyError, IndexError, AttributeError):
                self._drop()   # not a form this engine wrote: compiled again below
        # a miss (the standard book changed, or a house book): the shipped copy's compiled entries for the rules
        # it holds unchanged
        got = bookcache.shipped_seed()   # None when no book was taken from the copy in this process
        seed = shipped_entries(rules, got) if got is not None else None
        form = None
        if got is not None and seed is not None and all(s is not None for s in seed):
            whole = bookcache.shipped_whole_form(book, got, part_rules)
            if whole is not None:   # what compiling would give again: durable-rules took it when shipped
                try:
                    self._apply(rules, whole, eager=False)
                    form = whole
                except (EngineError, ValueError, TypeError, KeyError, IndexError, AttributeError):
                    self._drop()   # not a form this engine wrote: made from the rules' entries below
        if seed is not None and form is None:
            try:   # the rulesets durable-rules took when the copy was written are registered when first used
                form = self._form(rules, part_rules, seed)
                self._apply(rules, form, eager=True, taken=bookcache.shipped_texts())
            except (EngineError, ValueError, TypeError, KeyError, IndexError, AttributeError):
                self._drop()   # not entries this compiler wrote: every rule compiled below
                form = None
        if form is None:
            form = self._form(rules, part_rules)
            self._apply(rules, form, eager=True)
        if path is not None:   # kept only once durable-rules has taken every ruleset of it
            bookcache.store_data(path, FORM, form)

    def _form(self, rules: list[Rule], part_rules: int, seed: list | None = None) -> dict:
        """The compiled book as plain data: per rule what it needs, reads and uses, its fast expressions and
        priority; the rulesets with their rules, fields, gates, pre-checks and durable-rules' own JSON text.
        ``seed``: a compiled entry (``rule_compiled``) or None for each rule; only the others are compiled."""
        from rulings.rulebook.catalogue import facts as catalogue
        ruled = ruled_flags(rules)
        per_rule = [s if seed is not None and type(s := seed[i]) is list and len(s) == 6
                    else rule_compiled(r, ruled) for i, r in enumerate(rules)]
        needs = [c[0] for c in per_rule]
        rule_reads = [c[1] for c in per_rule]
        conds = [c[4] for c in per_rule]
        rule_fields = [set(rr) | {field_name(n) for n in need} for rr, need in zip(rule_reads, needs)]
        fields = set().union(*rule_fields) if rules else set()
        derived = {k for r in rules for k, _ in r.then.derive}
        cat = catalogue()
        gates = [g for g in GATES if g not in derived and g in cat]
        pri = [10 - self._depth(r) for r in rules]
        parts = []
        for p in self._split(rules, rule_fields, gates, cat, part_rules):
            # the pre-check's data (its Python is generated in-process, never kept): per rule its index, the
            # fields it needs and its tests; a flag of the ruleset's own rule is in its fact once that rule is done
            flags = {ruling: [(f, int(f[3:]) if int(f[3:]) in p.member_set else -1) for f in fs]
                     for ruling, fs in ruled.items()}
            checks = [(i, _present_fields(rules[i], needs[i]), _atoms(rules[i].when, conds[i], flags))
                      for i in p.members]
            ruleset = {f"r{i}": self._compile(i, k, pri[i], needs[i], conds[i]) for k, i in enumerate(p.members)}
            ruleset[SENTINEL] = {"pri": 1000, "all": [{"m": {"$ex": {"t": 1}}}]}
            parts.append({"members": p.members, "fields": sorted(p.fields), "gates": p.gates,
                          "checks": checks,
                          "text": json.dumps(ruleset, ensure_ascii=False, separators=(",", ":"))})
        return {"rules": [(needs[i], rule_reads[i], per_rule[i][2], per_rule[i][3], pri[i], per_rule[i][5])
                          for i in range(len(rules))],
                "fields": sorted(fields),
                "param_field": {k: f for k in self.book.parameters if (f := field_name("param." + k)) in fields},
                "parts": parts}

    def _apply(self, rules: list[Rule], form: dict, eager: bool, taken: AbstractSet[str] = frozenset()) -> None:
        """The engine from its compiled form: the agenda's rules and the rulesets, registered with durable-rules
        now (``eager``: a form just compiled, kept only once durable-rules has taken all of it; but for a
        ruleset whose document is in ``taken``, which it took before) or when first posted to (a kept form,
        which it took when it was compiled)."""
        self._fields = set(form["fields"])
        self._kind = KindChecker()   # each effect held to its fact's kind as it fires (rulings/rulebook/kinds.py)
        self._tested_flags = {f for f in self._fields if f.startswith("f__")}
        self._param_field = form["param_field"]
        per_rule = form["rules"]
        self._uses = [r[2] for r in per_rule]
        if len(rules) == len(self.book.rules):   # what each rule uses, for the book's other readers (``uses_of``)
            per_book(self.book, "rule uses", dict).update((r.id, u) for r, u in zip(rules, self._uses))
        self._rules = [_Rule(r, i, pri, f"f__{i}", set(reads_), trees, plan)
                       for i, (r, (_, reads_, _, trees, pri, plan)) in enumerate(zip(rules, per_rule, strict=True))]
        self._parts = []
        for k, d in enumerate(form["parts"]):
            p = _Part(f"{self.name}p{k}", d["members"], set(d["fields"]), d["gates"])
            p.checks = [(i, present, _valid_atoms(atoms)) for i, present, atoms in d["checks"]]
            if not all(type(i) is int and isinstance(needed, frozenset) for i, needed, _ in p.checks):
                raise TypeError("a pre-check's rule")
            p.text = d["text"]
            if not isinstance(p.text, str):
                raise TypeError("a ruleset's text")
            # weakly: an engine its parts point back to is a reference cycle, freed only by the collector, and
            # a replaced book waits for it (Python 3.13 runs it a third as often as 3.11: a house book reloaded
            # 200 times left 14 MB more of Python's arenas in use there)
            p.make = weakref.WeakMethod(self._register)
            self._parts.append(p)
        self._part_of = {i: p for p in self._parts for i in p.members}
        self._gated: dict[tuple, list[_Part]] = {}   # the rulesets an incident's gate facts admit, per their values
        self._by_id = {r.rule.id: r for r in self._rules}
        if eager:
            for p in self._parts:
                if p.text not in taken:
                    self._register(p)

    def condition_reads(self, rule: Rule) -> frozenset[str]:
        """The fields a rule's conditions read, from the compiled form when the rule is this book's (as
        ``rule_reads`` works them out from its conditions, with the flags its ``ruled:`` tests wait for)."""
        r = self._by_id.get(rule.id)
        return frozenset(r.reads) if r is not None and r.rule is rule else rule_reads(rule)

    def considered(self, rule_id: str) -> frozenset[str] | None:
        """The facts a rule of this book reads to decide (its conditions) and to work out its effects, from its
        compiled form (the report names the facts given that no rule behind a ruling read); None for a rule
        the book does not hold."""
        r = self._by_id.get(rule_id)
        if r is None:
            return None
        effects = r.rule.then.effects
        trees = r.trees if r.trees is not None and len(r.trees) == len(effects) + len(r.rule.then.derive) else None
        out = set(r.reads)
        for k, (_, expr) in enumerate(effects):
            tree = trees[k] if trees is not None else None
            out |= _tree_names(tree) if isinstance(tree, list) and tree else names_in(str(expr))
        return frozenset(out)

    def _register(self, p: _Part) -> None:
        """Give one ruleset to durable-rules (its C core, and the host's directory as its own host would)."""
        with self._registering:
            if p._handle:
                return
            if self._closed:
                raise EngineError("this engine was closed")
            try:
                ruleset = _Ruleset(p.name, self._host, p.text, _Actions(weakref.WeakMethod(self._action), _seen))
            except Exception as exc:  # the C core's refusals come back as plain exceptions
                raise EngineError(f"durable-rules refused the compiled rulebook: {exc}") from exc
            self._host._ruleset_directory[p.name] = ruleset
            self._host._ruleset_list.append(ruleset)
            p._handle = ruleset._handle

    def _split(self, rules: list[Rule], rule_fields: list[set[str]], gates: list[str], cat: dict,
               part_rules: int) -> list[_Part]:
        """Rules in rulesets of at most ``part_rules`` rules and PART_FIELDS tested fields, grouped by gate."""
        every = set().union(*rule_fields) if rules else set()
        if len(rules) <= part_rules and len(every) <= PART_FIELDS:
            return [_Part(f"{self.name}p0", list(range(len(rules))), every, {g: None for g in gates})]
        keyed: dict[str, list[int]] = {}
        for i, r in enumerate(rules):
            key = tuple(_gate(r.when, g, tuple(cat[g].values)) for g in gates)
            keyed.setdefault(repr(tuple(sorted(k, key=str) if k is not None else ["*"] for k in key)), []).append(i)
        general = [i for members in keyed.values() if len(members) < MIN_PART for i in members]
        keyed = {k: v for k, v in keyed.items() if len(v) >= MIN_PART}
        anywhere = repr(tuple(["*"] for _ in gates))
        keyed[""] = sorted(general + keyed.pop(anywhere, []))   # first: the ruleset every incident runs
        parts: list[_Part] = []
        for gate_key in sorted(keyed):
            members = keyed[gate_key]
            chunk: list[int] = []
            fields: set[str] = set()
            for one in members + [None]:
                if one is not None and len(chunk) < part_rules and len(fields | rule_fields[one]) <= PART_FIELDS:
                    chunk.append(one)
                    fields |= rule_fields[one]
                    continue
                if chunk:
                    g: dict[str, Any] = {gate: None for gate in gates}
                    for j in chunk:
                        for gate in gates:
                            allowed = _gate(rules[j].when, gate, tuple(cat[gate].values))
                            g[gate] = None if allowed is None else allowed | (g[gate] or frozenset())
                        break
                    for j in chunk[1:]:
                        for gate in gates:
                            allowed = _gate(rules[j].when, gate, tuple(cat[gate].values))
                            g[gate] = None if allowed is None or g[gate] is None else g[gate] | allowed
                    parts.append(_Part(f"{self.name}p{len(parts)}", sorted(chunk), fields, g))
                if one is not None:
                    if len(rule_fields[one]) > PART_FIELDS:
                        raise EngineError(f"rule {rules[one].id} tests {len(rule_fields[one])} fields; "
                                          f"the engine holds at most {PART_FIELDS}")
                    chunk, fields = [one], set(rule_fields[one])
        return parts

    def _depth(self, rule: Rule) -> int:
        depth, seen = 0, set()
        while rule.exception_to and rule.exception_to in self.book.rules and rule.id not in seen:
            seen.add(rule.id)
            rule = self.book.rules[rule.exception_to]
            depth += 1
        return depth

    def _compile(self, i: int, k: int, pri: int, needs: list[str], when: list[dict]) -> dict:
        """One rule as durable-rules takes it (its action only records the match: see ``_action``)."""
        # durable-rules crashes when more than 64 tests hang off one node; every rule shares the
        # `t` test, so rules are spread over buckets (an always-true test on a field never set)
        bucket = {"$nex": {f"b__{k // BUCKET}": 1}}
        conds = [{"t": "situation"}, bucket, {"$nex": {f"f__{i}": 1}}]
        conds += [{"$ex": {field_name(n): 1}} for n in needs]
        conds += when
        single_fact({"$and": conds})
        return {"pri": pri, "all": [{"m": {"$and": conds}}]}

    def _action(self, i: int):
        """The action of rule ``i`` for durable-rules' own host (``run`` reads the action names instead)."""
        matched = self._matched

        def action(c):  # exactly one parameter: durable-rules treats two as async
            matched.append(i)
        return action

    def _fire(self, run: Run, r: _Rule, memo: Memo | None = None) -> dict[str, Any]:
        """Fire one rule in Python; the tested fields it changed (derived facts, a flag another rule waits for)."""
        chains = run.chains
        chain: list[str] = []
        for key in sorted(r.reads & chains.keys(), key=lambda k: (len(chains[k]), k)):
            chain += [x for x in chains[key] if x not in chain]
        chain.append(r.rule.id)
        facts = run.facts
        memo_key: tuple | None = None
        effects, derive, template = r.parts()
        if memo is not None and r.costly:   # what a firing gives depends only on the facts its expressions name
            uses = self._uses[r.index]
            if uses is not None:
                memo_key = (r.index,) + tuple((v.__class__, v) for v in (facts.get(n, memo) for n in uses))
                try:
                    hash(memo_key)
                except TypeError:
                    memo_key = None
        got = memo.fires.get(memo_key) if memo is not None and memo_key is not None else None
        if got is not None:
            values, derived, sentence = dict(got[0]), dict(got[1]), got[2]
        else:
            values = {k: fn(facts) for k, fn in effects}
            derived = {k: fn(facts) for k, fn in derive}
            for k, v in (*values.items(), *derived.items()):   # never read out a value out of its kind
                bad = self._kind.why(k, v)
                if bad is not None:
                    raise ValueError(f"{bad}; the ruling is not read out")
            sentence = None
            if template:   # the sentence sees the facts it names (jinja2 copies its whole context per render)
                uses = self._uses[r.index]
                ctx = {n: facts[n] for n in uses if n in facts} if uses is not None else dict(facts)
                ctx.update(param=facts["param"], effect=values, rule=r.rule.id)
                sentence = template.render(ctx)
                bad = control_character(sentence)
                if bad is not None:   # never printed nor logged (PostgreSQL stores no NUL): the rule fails instead
                    raise ValueError(f"the sentence would hold a control character ('{bad}'); not read out")
            if memo is not None and memo_key is not None:
                memo.fires[memo_key] = (dict(values), dict(derived), sentence)
        run.fired.append(Fired(r.rule, chain, values, derived, sentence))
        changed: dict[str, Any] = {}
        for k, v in derived.items():
            chains[k] = chain
            if v is not None:
                if k in self._fields and facts.get(k, changed) != v:
                    changed[k] = v
                facts[k] = v
        chains[r.flag] = chain
        if r.flag in self._tested_flags:
            changed[r.flag] = 1
        return changed

    def _default(self, run: Run, name: str) -> dict[str, Any]:
        """A derived fact no rule derived takes the catalogue's default (once every rule that could has fired)."""
        if name in run.facts:
            return {}
        run.facts[name] = value = self.book.defaults[name]
        return {name: value} if name in self._fields else {}

    def _post(self, part: _Part, text: str, call=durable_rules_engine.assert_fact) -> None:
        """Post a fact (JSON text) straight to the C core, then take every action it starts, completing each.

        This is the protocol of durable-rules' own Python host (``Ruleset._flush_actions``) without its
        per-action ``update_state`` (the state document never changes here) and JSON round trips: an
        action only records which rule matched, so it needs nothing but the action's name. Every
        action is completed before the run goes on, so no action is pending when the state is deleted.
        """
        handle = part.handle
        code, offset = call(handle, text)
        if code in (1, 2):   # not handled / already observed: the sentinel and fresh sids prevent both
            raise _Unhandled(f"durable-rules refused the situation (code {code})")
        if code != 0 or not offset:
            return
        started = durable_rules_engine.start_action_for_state(handle, offset)
        message = started[1] if started else None
        matched, index = self._matched, part.index
        try:
            while message:
                name = message[2:message.index('"', 2)]   # {"r12": {...}}: one action, named by its rule
                if name in index:
                    matched.append(index[name])
                message = durable_rules_engine.complete_and_start_action(handle, offset)
        except BaseException:   # as durable-rules' own host does: give the action back before going on
            durable_rules_engine.abandon_action(handle, offset)
            raise

    def _assert(self, run: Run, part: _Part, fact: dict, call=durable_rules_engine.assert_fact) -> None:
        run.asserts += 1
        self._post(part, _encode(fact), call)

    def _match(self, run: Run, part: _Part, base: dict, done: set[int], sid: str, live: dict, states: set,
               memo: Memo | None) -> None:
        """The rules of ``part`` that match its fact (the fields of ``base`` it tests, and the flags of its
        rules already done), appended to ``self._matched``: none when the pre-check finds no rule that
        could match (durable-rules would match nothing: its old fact can stay); taken from the memo when
        this very fact was matched before in the incident (matching one fact is a function of the fact
        alone); else by replacing the part's fact in durable-rules."""
        check = part.check
        if not (check(base, done) if check is not None else part.may_match(base, done)):
            return
        body = {k: base[k] for k in part.field_order if k in base}
        if done:   # rules already fired stay quiet: their flags go in
            rules = self._rules
            for j in sorted(done & part.member_set):
                if len(body) < MAX_FIELDS - 2:
                    body[rules[j].flag] = 1
        text = _encode(body)
        key = (part.name, text)
        got = memo.matches.get(key) if memo is not None else None
        if got is not None:
            old = live.get(part.name)
            if old is not None:
                run.asserts += 1
                self._post(part, old, durable_rules_engine.retract_fact)
            live[part.name] = None
            self._matched += got
            return
        full = f'{{"t": "situation", "sid": "{sid}"' + (", " + text[1:] if len(text) > 2 else "}")
        old = live.get(part.name)
        if old is not None:
            run.asserts += 1
            self._post(part, old, durable_rules_engine.retract_fact)
        start = len(self._matched)
        run.asserts += 1
        states.add(part.name)
        try:
            self._post(part, full)
        except _Unhandled:
            states.discard(part.name)   # never delete a half-built session (durable-rules-notes, section 2)
            live.pop(part.name, None)
            raise
        live[part.name] = full
        if memo is not None:
            memo.matches[key] = self._matched[start:]

    def _gated_parts(self, facts: dict[str, Any]) -> list[_Part]:
        """The rulesets whose gates admit the facts: a function of the gate facts' values alone, kept per value."""
        key = tuple(facts.get(g) for g in GATES)
        got = self._gated.get(key) if all(type(v) is str or v is None for v in key) else None
        if got is None:
            got = [p for p in self._parts if p.is_open or p.admits(facts)]
            if len(self._gated) < 256 and all(type(v) is str or v is None for v in key):
                self._gated[key] = got
        return got

    def without(self, rule_ids: set[str] | frozenset[str]) -> "Without":
        """This engine with the rules named taken out of every run (see ``Without``)."""
        return Without(self, frozenset(self._by_id[r].index for r in rule_ids if r in self._by_id))

    def run(self, situation: dict[str, Any], params: dict[str, Any], memo: Memo | None = None,
            off: frozenset[int] = frozenset()) -> Run:
        """Rule on one incident's facts in a fresh session; the session is deleted afterwards.

        ``memo``, shared by the runs of one incident (the two strata), keeps what each fact posted to a
        ruleset matched and what each firing gave, so a second run does again only what differs.
        ``off``: rules (by index) that never fire in this run, as if the book did not have them.
        """
        if self._closed:
            raise EngineError("this engine was closed")
        facts = {k: v for k, v in situation.items() if v is not None}
        # durable-rules gets only the fields some condition tests: it serialises every field on
        # every assert, and refuses a fact of more than about 254 fields
        base = {k: v for k, v in facts.items() if k in self._fields}
        kept = memo.param_fields if memo is not None else None
        if kept is None or kept[0] is not params:
            kept = (params, {f: params[k] for k, f in self._param_field.items() if params.get(k) is not None})
            if memo is not None:
                memo.param_fields = kept
        base.update(kept[1])
        facts["param"] = _nested(params)
        gated = self._gated_parts(facts)
        run = Run(facts, params)
        with self._lock:
            sid = f"s{next(self._sids)}"
            self._runs[sid] = run
            live: dict[str, str | None] = {}   # part -> the fact text in durable-rules (None: from the memo)
            states: set[str] = set()           # parts with a session state to delete
            matched = self._matched
            rules = self._rules
            done: set[int] = set(off)   # a rule taken out is as one already fired: never matched, never fired
            try:
                del matched[:]
                for p in gated:
                    self._match(run, p, base, done, sid, live, states, memo)
                agenda = [rules[i].order for i in matched]
                heapq.heapify(agenda)
                pending = [k for k in self.book.defaults if k not in facts]   # rulebook/model.py: defaults
                while agenda or pending:
                    if not agenda:   # nothing left to fire: the next fact no rule derived takes its default
                        changed = self._default(run, pending.pop(0))
                    else:
                        _, i = heapq.heappop(agenda)
                        if i in done:
                            continue
                        done.add(i)
                        r = rules[i]
                        try:
                            changed = self._fire(run, r, memo)
                        except Exception as exc:   # one failing rule is reported; the others still rule
                            run.failures.append((r.rule.id, f"{type(exc).__name__}: {exc}" if not str(exc)
                                                 else str(exc)))
                            continue
                    if not changed:
                        continue
                    base.update(changed)
                    stale = [p for p in gated if not p.fields.isdisjoint(changed)]
                    if not stale:
                        continue
                    for p in stale:
                        members = p.member_set
                        agenda = [o for o in agenda if o[1] not in members]
                    heapq.heapify(agenda)
                    del matched[:]
                    for p in stale:
                        self._match(run, p, base, done, sid, live, states, memo)
                    for j in matched:
                        if j not in done:
                            heapq.heappush(agenda, rules[j].order)
            finally:
                del matched[:]
                for p in gated:   # straight to the C core, as the host's own delete_state does
                    if p.name in states and p._handle:   # a ruleset never registered holds no state
                        try:
                            durable_rules_engine.delete_state(p._handle, sid)
                        except durable_rules_engine.error:   # no state to delete (the run stopped before
                            pass                             # its first fact): never hide why it stopped
                del self._runs[sid]
        return run

    def close(self) -> None:
        """Free the compiled rulesets (durable-rules has no public delete; see the notes, section 3)."""
        if self._closed:
            return
        with self._lock:
            self._drop()
            self._closed = True

    def _drop(self) -> None:
        """Free every ruleset this engine registered with its host."""
        host = self._host
        for rs in list(host._ruleset_list):
            host._ruleset_directory.pop(rs._name, None)
            host._ruleset_list.remove(rs)
            durable_rules_engine.delete_ruleset(rs._handle)


class Without:
    """An engine with some rules taken out of every run, sharing the engine's compiled rulesets: what a book
    without those rules would rule, with no ruleset compiled again. A rule taken out is marked as already
    fired before the run starts, so it is neither matched (its flag is posted with the facts, as for a rule
    that fired) nor put on the agenda; a fact only it derives takes its default, as in a book without it.
    Used by the house diff to undo one added rule at a time (rulings/report/diff.py)."""

    def __init__(self, engine: Engine, off: frozenset[int]) -> None:
        self._engine, self._off = engine, off

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def run(self, situation: dict[str, Any], params: dict[str, Any], memo: Memo | None = None) -> Run:
        return self._engine.run(situation, params, memo, off=self._off)

    def close(self) -> None:
        """The engine is not this view's to close."""
