"""The only module that talks to durable-rules: compile a rulebook into one ruleset, run one incident per session.

The envelope (see ../shared/docs/durable-rules-notes.md): a host without
background threads; every incident in its own session, deleted afterwards;
a sentinel rule so that no fact is ever unhandled; conditions on one fact
only (no cross-fact joins, which crash the C core); every rule guarded by a
discriminator and a fired flag so nothing loops; exceptions raised inside
actions caught and raised again after the run instead of being swallowed.

Forward chaining works on one evolving "situation" fact per incident: a rule
that derives facts retracts the situation and asserts it again with the new
facts added, so rules that read them fire next. Each rule fires at most once.
"""
from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field
from typing import Any

import durable_rules_engine
from durable import engine as durable

from rulings.expressions import compile_expression, compile_template, names_in, param_names_in, to_durable
from rulings.rulebook.model import AnyOf, Condition, Rule, Rulebook

SENTINEL = "__seen__"
BUCKET = 32      # rules per bucket: well under durable-rules' 64 tests per node
MAX_FIELDS = 240  # durable-rules refuses a fact of more than about 254 fields (error 302)
_OPS = {"above": "$gt", "at_least": "$gte", "below": "$lt", "at_most": "$lte"}


class EngineError(RuntimeError):
    """A rule's action failed, or the engine refused a rulebook."""


def field_name(name: str) -> str:
    """A fact or parameter name as a durable-rules field (dots are paths there, so they are replaced)."""
    if name.startswith("param."):
        return "p__" + name[6:].replace(".", "__")
    return name



class _SyncHost(durable.Host):
    def _run(self):  # no background dispatcher threads: they steal actions
        pass


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
    error: BaseException | None = None
    error_rule: str | None = None


def _nested(params: dict) -> dict:
    """Parameters as param.topic.name for expressions and sentences."""
    nested: dict = {}
    for name, value in params.items():
        topic, _, rest = name.partition(".")
        nested.setdefault(topic, {})[rest] = value
    return nested


class Engine:
    """A compiled rulebook, ready to rule on incidents one session at a time."""

    _names = itertools.count(1)

    def __init__(self, book: Rulebook):
        self.book = book
        self.name = f"book{next(self._names)}"
        self._lock = threading.Lock()
        self._runs: dict[str, Run] = {}
        self._sids = itertools.count(1)
        self._host = _SyncHost()
        ruleset = {}
        self._flags: dict[str, str] = {}
        self._index: dict[str, int] = {}
        self._ruled: dict[str, list[str]] = {}
        for i, rule in enumerate(book.rules.values()):
            self._flags[rule.id] = f"f__{i}"
            self._index[rule.id] = i
            if rule.then.ruling:
                self._ruled.setdefault(rule.then.ruling, []).append(f"f__{i}")
        self._fields = {f for r in book.rules.values() for f in reads(r.when)}
        self._param_field = {k: f for k in book.parameters if (f := field_name("param." + k)) in self._fields}
        for i, rule in enumerate(book.rules.values()):
            ruleset[f"r{i}"] = self._compile(rule)
        ruleset[SENTINEL] = {"pri": 1000, "all": [{"m": {"$ex": {"t": 1}}}], "run": lambda c: None}
        try:
            self._host.set_rulesets({self.name: ruleset})
        except Exception as exc:  # the C core's refusals come back as plain exceptions
            raise EngineError(f"durable-rules refused the compiled rulebook: {exc}") from exc
        self._closed = False

    def _depth(self, rule: Rule) -> int:
        depth, seen = 0, set()
        while rule.exception_to and rule.exception_to in self.book.rules and rule.id not in seen:
            seen.add(rule.id)
            rule = self.book.rules[rule.exception_to]
            depth += 1
        return depth

    def _compile(self, rule: Rule) -> dict:
        flag = self._flags[rule.id]
        # durable-rules crashes when more than 64 tests hang off one node; every rule shares the
        # `t` test, so rules are spread over buckets (an always-true test on a field never set)
        bucket = {"$nex": {f"b__{self._index[rule.id] // BUCKET}": 1}}
        conds = [{"t": "situation"}, bucket, {"$nex": {flag: 1}}] + [compile_condition(c, self._ruled) for c in rule.when]
        single_fact({"$and": conds})
        compiled: list = []   # jinja2 work is done the first time the rule fires, not at start-up

        def parts():
            if not compiled:
                compiled.extend([[(k, compile_expression(v)) for k, v in rule.then.effects],
                                 [(k, compile_expression(v)) for k, v in rule.then.derive],
                                 compile_template(rule.then.say) if rule.then.say else None])
            return compiled
        rule_reads = reads(rule.when, self._ruled)
        runs, fields = self._runs, self._fields

        def action(c):  # exactly one parameter: durable-rules treats two as async
            m = c.m._d
            run = runs[m["sid"]]
            if run.error is not None:
                return
            try:
                chain: list[str] = []
                for key in sorted(rule_reads & run.chains.keys(), key=lambda k: len(run.chains[k])):
                    chain += [r for r in run.chains[key] if r not in chain]
                chain.append(rule.id)
                ctx = dict(run.facts)
                effects, derive, template = parts()
                values = {k: fn(**ctx) for k, fn in effects}
                derived = {k: fn(**ctx) for k, fn in derive}
                sentence = template.render({**ctx, "effect": values, "rule": rule.id}) if template else None
                run.fired.append(Fired(rule, chain, values, derived, sentence))
                new = {k: v for k, v in m.items() if k not in ("id", "$s", "sid")}
                for k, v in derived.items():
                    run.chains[k] = chain
                    if v is not None:
                        run.facts[k] = v
                        if k in fields:
                            new[k] = v
                new[flag] = 1
                run.chains[flag] = chain
                if len(new) > MAX_FIELDS:
                    raise EngineError(f"the incident's facts grew past {MAX_FIELDS} fields; "
                                      "too many rules fired for the engine to hold")
                c.retract_fact(m)
                c.assert_fact(new)
            except Exception as exc:  # surfaced after the run, never swallowed
                run.error, run.error_rule = exc, rule.id

        return {"pri": 10 - self._depth(rule), "all": [{"m": {"$and": conds}}], "run": action}

    def run(self, situation: dict[str, Any], params: dict[str, Any]) -> Run:
        """Rule on one incident's facts in a fresh session; the session is deleted afterwards."""
        if self._closed:
            raise EngineError("this engine was closed")
        facts = {k: v for k, v in situation.items() if v is not None}
        # durable-rules gets only the fields some condition tests: it serialises every field on
        # every assert, and refuses a fact of more than about 254 fields
        fact = {k: v for k, v in facts.items() if k in self._fields}
        fact.update({f: params[k] for k, f in self._param_field.items() if params.get(k) is not None})
        fact["t"] = "situation"
        facts["param"] = _nested(params)
        with self._lock:
            sid = f"s{next(self._sids)}"
            run = Run(facts, params)
            self._runs[sid] = run
            try:
                state = self._host.assert_fact(self.name, dict(fact, sid=sid))
                if isinstance(state, dict) and state.get("exception") and run.error is None:
                    raise EngineError(f"durable-rules reported: {state['exception']}")
            finally:
                self._host.delete_state(self.name, sid)
                del self._runs[sid]
        if run.error is not None:
            raise EngineError(f"rule {run.error_rule} failed: {run.error}") from run.error
        return run

    def close(self) -> None:
        """Free the compiled ruleset (durable-rules has no public delete; see the notes, section 3)."""
        if self._closed:
            return
        with self._lock:
            rs = self._host._ruleset_directory.pop(self.name, None)
            if rs is not None:
                self._host._ruleset_list.remove(rs)
                durable_rules_engine.delete_ruleset(rs._handle)
            self._closed = True

