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
from pathlib import Path
from dataclasses import dataclass, field
from typing import Any

import durable_rules_engine
from durable import engine as durable

from jinja2 import UndefinedError, nodes
from jinja2.exceptions import SecurityError

from rulings.expressions import (compile_expression, compile_template, names_in, param_names_in,
                                 parse_expression, parse_template, to_durable)
from rulings.rulebook.model import AnyOf, Condition, Rule, Rulebook

SENTINEL = "__seen__"
BUCKET = 32      # rules per bucket: well under durable-rules' 64 tests per node
MAX_FIELDS = 240  # durable-rules refuses a fact of more than about 254 fields (error 302)
PART_RULES = 250  # rules per ruleset: durable-rules hangs past ~515 sharing a prefix, aborts at 1,088
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


class _Actions(dict):
    """A ruleset's actions for durable-rules' own host, each made when first asked for: ``Engine.run`` reads
    the actions' names and never calls them (benchmarks and tests drive the host itself)."""

    def __init__(self, make, seen) -> None:
        super().__init__()
        self._make, self._seen = make, seen

    def __missing__(self, name: str):
        fn = self._seen if name == SENTINEL else self._make(int(name[1:]))
        self[name] = action = durable.Promise(fn)
        return action


FORM = "rulings.engine-form/2"   # the compiled form's layout: a change here is a new key


def _read_form(path: Path, rules: int) -> dict | None:
    """A compiled form from the cache, if one is there for this key and has one entry per rule."""
    from rulings import bookcache
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
_PY_CMP = {"above": lambda a, b: a > b, "below": lambda a, b: a < b,
           "at_least": lambda a, b: a >= b, "at_most": lambda a, b: a <= b}


def _atoms(conditions) -> tuple:
    """A rule's conditions as the cheap checks ``_may_match`` runs (``ruled:`` left out: it may hold)."""
    out: list[tuple] = []
    for c in conditions:
        if isinstance(c, AnyOf):
            out.append((None, tuple(_atoms(g) for g in c.groups), None))
        elif c.fact != "ruled":
            out.append((field_name(c.fact), "present" if c.is_expr else c.op, c.value))
    return tuple(out)


def _may_match(atoms: tuple, fact: dict) -> bool:
    """False only when durable-rules certainly would not match the fact: a tested field absent (or present,
    for ``missing``), or a literal test that fails between values of the same plain type (durable-rules
    compares values of different types its own way, so those are left to it)."""
    for field_, op, value in atoms:
        if field_ is None:   # any_of: one of the groups
            if not any(_may_match(g, fact) for g in op):
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
        if op == "present" or t not in (str, int, bool):
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
        elif t is int and type(value) is int and not _PY_CMP[op](v, value):
            return False
    return True


def required(rule: Rule) -> set[str]:
    """The facts a rule's effects, derived facts and sentence read: absent, the rule cannot apply.

    A name read only through ``default(...)`` is optional.
    """
    out: set[str] = set()

    def walk(node: nodes.Node, guarded: bool) -> None:
        if isinstance(node, nodes.Name) and not guarded:
            out.add(node.name)
        if isinstance(node, nodes.Filter) and node.name == "default":
            walk(node.node, True)
            for child in node.args:
                walk(child, guarded)
            return
        for child in node.iter_child_nodes():
            walk(child, guarded)
    for _, text in rule.then.effects + rule.then.derive:
        walk(parse_expression(str(text)), False)
    if rule.then.say:
        walk(parse_template(rule.then.say), False)
    return out - {"param", "effect", "rule", "seat", "true", "false", "none", "True", "False", "None"}


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


def _form_path(book: Rulebook, rules: list[Rule], part_rules: int) -> Path | None:
    """Where the compiled form of a book is kept, keyed by content only: the book cache's key when the book
    came from it (it covers the book's files and all of the package's code and catalogues), else a digest of
    everything the form is made from -- the rules, the parameters' names, the package's code and catalogues."""
    from rulings import bookcache
    where = bookcache.folder()
    if where is None:
        return None
    book_key = bookcache.key_of(book)
    h = hashlib.sha256(f"{FORM}\0{part_rules}\0".encode())
    if book_key is not None:
        h.update(book_key.encode())
    else:
        for f in bookcache.code_files():
            h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
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


def rule_compiled(rule: Rule, ruled: dict[str, list[str]]) -> list:
    """One rule compiled, as plain data: the facts it needs, the fields it reads, what it uses, its fast
    expressions and its durable-rules conditions (the shipped copy keeps one per rule: rulings/bookcache.py)."""
    return [sorted(required(rule)), sorted(reads(rule.when, ruled)), uses(rule),
            [expression_tree(v) for _, v in rule.then.effects + rule.then.derive],
            [compile_condition(c, ruled) for c in rule.when]]


def _kind(name: str) -> type:
    return {"str": str, "int": int, "bool": bool}[name]


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

    __slots__ = ("matches", "fires")

    def __init__(self) -> None:
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
    make: Any = None   # registers the ruleset with durable-rules (Engine._register)
    index: dict[str, int] = field(default_factory=dict)   # action name -> rule index
    present: list[frozenset] = field(default_factory=list)   # per rule: fields it needs in the fact
    unkeyed: list[tuple[str, tuple]] = field(default_factory=list)   # per rule: its flag and its cheap tests
    keyed: list[tuple[str, type, dict, list]] = field(default_factory=list)   # the same, filed by one test

    def __post_init__(self) -> None:
        self.index = {f"r{i}": i for i in self.members}

    @property
    def handle(self) -> int:
        """The C core's handle: from a kept compiled form, the ruleset is registered when first posted to
        (one ruling posts to two or three of the standard book's seven)."""
        if not self._handle:
            self.make(self)
        return self._handle

    def can_match(self, fields) -> bool:
        """Whether some rule of the ruleset has every field it needs in the fact (else it matches nothing)."""
        return any(need <= fields for need in self.present)

    def index_checks(self, checks: list[tuple[str, tuple]]) -> None:
        """Sort the rules' checks by one literal test each (``eq`` / ``in`` on values of one plain type), so
        that ``may_match`` looks only at the rules whose test the fact's value passes."""
        by_field: dict[str, list[tuple]] = {}
        for flag, atoms in checks:
            key = None
            for f, op, value in atoms:
                values = (value,) if op == "eq" else tuple(value) if op == "in" else ()
                if f is None or not values or not all(type(v) in (str, int, bool) for v in values):
                    continue
                if key is None or (len(values), type(values[0]) is bool) < (len(key[1]), type(key[1][0]) is bool):
                    key = (f, values)
            if key is None:
                self.unkeyed.append((flag, atoms))
            else:
                by_field.setdefault(key[0], []).append((key[1], flag, atoms))
        for f, entries in by_field.items():
            kinds = {type(v) for values, _, _ in entries for v in values}
            if len(kinds) != 1:   # values of several types under one field: no index for it
                self.unkeyed += [(flag, atoms) for _, flag, atoms in entries]
                continue
            table: dict[Any, list[tuple[str, tuple]]] = {}
            for values, flag, atoms in entries:
                for v in dict.fromkeys(values):
                    table.setdefault(v, []).append((flag, atoms))
            self.keyed.append((f, kinds.pop(), table, [(flag, atoms) for _, flag, atoms in entries]))

    def may_match(self, fact: dict) -> bool:
        """False only when no rule of the ruleset can match the fact (see ``_may_match``): no post needed."""
        if not self.can_match(fact.keys()):
            return False
        for flag, atoms in self.unkeyed:
            if flag not in fact and _may_match(atoms, fact):
                return True
        for f, kind, table, every in self.keyed:
            v = fact.get(f, _ABSENT)
            if v is _ABSENT:   # the test needs the field
                continue
            # a value of the index's type passes only the rules filed under it; durable-rules compares
            # other types its own way, so then every rule filed under the field is checked
            for flag, atoms in (table.get(v, ()) if type(v) is kind else every):
                if flag not in fact and _may_match(atoms, fact):
                    return True
        return False

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
        path, root = [], node
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
    return lambda f: slow(**f)


class _Rule:
    """A rule as the agenda sees it: its order, flag, what it reads, its compiled parts (jinja2 at first use)."""

    __slots__ = ("rule", "index", "order", "flag", "reads", "compiled", "costly", "trees")

    def __init__(self, rule: Rule, index: int, pri: int, flag: str, reads_: set[str], trees: list | None = None):
        self.rule, self.index, self.order, self.flag, self.reads = rule, index, (pri, index), flag, reads_
        self.trees = trees   # the compiled cache's plain-data form of its fast expressions
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
                             compile_template(then.say) if then.say else None]
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
        from rulings import bookcache
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
        # a true miss of the standard book: the shipped copy's compiled entries for the rules it holds unchanged
        seed = bookcache.shipped_compiled(rules) if bookcache.key_of(book) is not None else None
        form = None
        if seed is not None:
            try:
                form = self._form(rules, part_rules, seed)
                self._apply(rules, form, eager=True)
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
        from rulings.catalogue import facts as catalogue
        ruled = ruled_flags(rules)
        per_rule = [s if seed is not None and type(s := seed[i]) is list and len(s) == 5
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
            present = [_present_fields(rules[i], needs[i]) for i in p.members]
            p.index_checks([(f"f__{i}", _atoms(rules[i].when)) for i in p.members])
            ruleset = {f"r{i}": self._compile(i, k, pri[i], needs[i], conds[i]) for k, i in enumerate(p.members)}
            ruleset[SENTINEL] = {"pri": 1000, "all": [{"m": {"$ex": {"t": 1}}}]}
            parts.append({"members": p.members, "fields": sorted(p.fields), "gates": p.gates,
                          "present": sorted(set(present), key=len), "unkeyed": p.unkeyed,
                          "keyed": [(f, kind.__name__, table, every) for f, kind, table, every in p.keyed],
                          "text": json.dumps(ruleset, ensure_ascii=False, separators=(",", ":"))})
        return {"rules": [(needs[i], rule_reads[i], per_rule[i][2], per_rule[i][3], pri[i])
                          for i in range(len(rules))],
                "fields": sorted(fields),
                "param_field": {k: f for k in self.book.parameters if (f := field_name("param." + k)) in fields},
                "parts": parts}

    def _apply(self, rules: list[Rule], form: dict, eager: bool) -> None:
        """The engine from its compiled form: the agenda's rules and the rulesets, registered with durable-rules
        now (``eager``: a form just compiled, kept only once durable-rules has taken all of it) or when first
        posted to (a kept form, which it took when it was compiled)."""
        self._fields = set(form["fields"])
        self._tested_flags = {f for f in self._fields if f.startswith("f__")}
        self._param_field = form["param_field"]
        per_rule = form["rules"]
        self._uses = [r[2] for r in per_rule]
        self._rules = [_Rule(r, i, pri, f"f__{i}", set(reads_), trees)
                       for i, (r, (_, reads_, _, trees, pri)) in enumerate(zip(rules, per_rule, strict=True))]
        self._parts = []
        for k, d in enumerate(form["parts"]):
            p = _Part(f"{self.name}p{k}", d["members"], set(d["fields"]), d["gates"])
            p.present = d["present"]
            p.unkeyed = d["unkeyed"]
            p.keyed = [(f, _kind(kind), table, every) for f, kind, table, every in d["keyed"]]
            p.text = d["text"]
            if not isinstance(p.text, str):
                raise TypeError("a ruleset's text")
            p.make = self._register
            self._parts.append(p)
        self._part_of = {i: p for p in self._parts for i in p.members}
        if eager:
            for p in self._parts:
                self._register(p)

    def _register(self, p: _Part) -> None:
        """Give one ruleset to durable-rules (its C core, and the host's directory as its own host would)."""
        with self._registering:
            if p._handle:
                return
            if self._closed:
                raise EngineError("this engine was closed")
            try:
                ruleset = _Ruleset(p.name, self._host, p.text, _Actions(self._action, self._seen))
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
            for i in members + [None]:
                if i is not None and len(chunk) < part_rules and len(fields | rule_fields[i]) <= PART_FIELDS:
                    chunk.append(i)
                    fields |= rule_fields[i]
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
                if i is not None:
                    if len(rule_fields[i]) > PART_FIELDS:
                        raise EngineError(f"rule {rules[i].id} tests {len(rule_fields[i])} fields; "
                                          f"the engine holds at most {PART_FIELDS}")
                    chunk, fields = [i], set(rule_fields[i])
        return parts

    def _depth(self, rule: Rule) -> int:
        depth, seen = 0, set()
        while rule.exception_to and rule.exception_to in self.book.rules and rule.id not in seen:
            seen.add(rule.id)
            rule = self.book.rules[rule.exception_to]
            depth += 1
        return depth

    def _seen(self, c) -> None:
        pass

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
        key = None
        effects, derive, template = r.parts()
        if memo is not None and r.costly:   # what a firing gives depends only on the facts its expressions name
            uses = self._uses[r.index]
            if uses is not None:
                key = (r.index,) + tuple((v.__class__, v) for v in (facts.get(n, memo) for n in uses))
                try:
                    hash(key)
                except TypeError:
                    key = None
        got = memo.fires.get(key) if key is not None else None   # type: ignore[union-attr]
        if got is not None:
            values, derived, sentence = dict(got[0]), dict(got[1]), got[2]
        else:
            values = {k: fn(facts) for k, fn in effects}
            derived = {k: fn(facts) for k, fn in derive}
            sentence = template.render({**facts, "effect": values, "rule": r.rule.id}) if template else None
            if key is not None:
                memo.fires[key] = (dict(values), dict(derived), sentence)   # type: ignore[union-attr]
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
        self._post(part, json.dumps(fact, ensure_ascii=False), call)

    def _match(self, run: Run, part: _Part, body: dict, sid: str, live: dict, states: set,
               memo: Memo | None) -> None:
        """The rules of ``part`` that match ``body``, appended to ``self._matched``: taken from the memo when
        this very fact was matched before in the incident (matching one fact is a function of the fact
        alone), else by replacing the part's fact in durable-rules."""
        if memo is None:
            if not part.may_match(body):   # durable-rules would match nothing: its old fact can stay
                return
            text = json.dumps(body, ensure_ascii=False)
        else:   # the second stratum asks again of most parts' very facts: the pre-check's answer is kept too
            text = json.dumps(body, ensure_ascii=False)
            got = memo.matches.get((part.name, text), _ABSENT)
            if got is None:
                return
            if got is _ABSENT and not part.may_match(body):
                memo.matches[(part.name, text)] = None
                return
        key = (part.name, text)
        if memo is not None and key in memo.matches:
            old = live.get(part.name)
            if old is not None:
                run.asserts += 1
                self._post(part, old, durable_rules_engine.retract_fact)
            live[part.name] = None
            self._matched += memo.matches[key] or ()
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

    def run(self, situation: dict[str, Any], params: dict[str, Any], memo: Memo | None = None) -> Run:
        """Rule on one incident's facts in a fresh session; the session is deleted afterwards.

        ``memo``, shared by the runs of one incident (the two strata), keeps what each fact posted to a
        ruleset matched and what each firing gave, so a second run does again only what differs.
        """
        if self._closed:
            raise EngineError("this engine was closed")
        facts = {k: v for k, v in situation.items() if v is not None}
        # durable-rules gets only the fields some condition tests: it serialises every field on
        # every assert, and refuses a fact of more than about 254 fields
        base = {k: v for k, v in facts.items() if k in self._fields}
        base.update({f: params[k] for k, f in self._param_field.items() if params.get(k) is not None})
        facts["param"] = _nested(params)
        gated = [p for p in self._parts if p.admits(facts)]
        run = Run(facts, params)
        with self._lock:
            sid = f"s{next(self._sids)}"
            self._runs[sid] = run
            live: dict[str, str | None] = {}   # part -> the fact text in durable-rules (None: from the memo)
            states: set[str] = set()           # parts with a session state to delete
            matched = self._matched
            rules = self._rules
            done: set[int] = set()
            try:
                del matched[:]
                for p in gated:
                    self._match(run, p, {k: v for k, v in base.items() if k in p.fields}, sid, live, states, memo)
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
                        members = set(p.members)
                        agenda = [o for o in agenda if o[1] not in members]
                    heapq.heapify(agenda)
                    del matched[:]
                    for p in stale:
                        fact = {k: v for k, v in base.items() if k in p.fields}
                        for j in p.members:   # rules already fired stay quiet: their flags go in
                            if j in done and len(fact) < MAX_FIELDS - 2:
                                fact[rules[j].flag] = 1
                        self._match(run, p, fact, sid, live, states, memo)
                    for j in matched:
                        if j not in done:
                            heapq.heappush(agenda, rules[j].order)
            finally:
                del matched[:]
                for p in gated:   # straight to the C core, as the host's own delete_state does
                    if p.name in states:
                        durable_rules_engine.delete_state(p.handle, sid)
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
