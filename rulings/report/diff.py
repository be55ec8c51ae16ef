"""`rulings diff`: what a house book changes in the book it is compared with — parameters, rules, rulings."""
from __future__ import annotations

import copy
import threading
import weakref
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable

from rulings.engine.rulesets import Engine, EngineError
from rulings.ruling.examples import Outcome, _shown, judged
from rulings.incident import incident_from_data
from rulings.money import show
from rulings.problems import ProblemsError
from rulings.rulebook.model import NOWHERE, Example, Parameter, Rule, Rulebook, shown
from rulings.ruling.decide import Report, rule_on

SETTINGS = ("cash", "tournament")


@dataclass(frozen=True)
class ParamChange:
    name: str
    description: str
    before: dict[str, str]     # setting -> the value in plain words
    after: dict[str, str]
    values: dict[str, list]    # setting -> [before, after] as written in a book


@dataclass(frozen=True)
class RuleChange:
    change: str                # added | exception | replaced | disabled | changed
    rule: str
    title: str
    detail: str                # the reason, the rule modified, or what replaces it
    origin: str


@dataclass(frozen=True)
class ExampleChange:
    rule: str
    example: str
    origin: str
    before: list[str]
    after: list[str]
    book: str = ""             # whose example it is: the compared book's, or the house's own
    causes: list[str] = field(default_factory=list)   # the house changes that made it differ
    found: str = ""            # how: but-for | each alone | together (see example_changes)


@dataclass
class Diff:
    book: str
    title: str
    against: str
    params: list[ParamChange] = field(default_factory=list)
    rules: list[RuleChange] = field(default_factory=list)
    examples: list[ExampleChange] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"contract": "rulings.diff/1", "book": self.book, "title": self.title, "against": self.against,
                "parameters": [asdict(p) for p in self.params],
                "rules": [asdict(r) | {"origin": shown(r.origin)} for r in self.rules],
                "examples": [asdict(e) | {"origin": shown(e.origin)} for e in self.examples]}


def value_words(p: Parameter, value: Any, setting: str) -> str:
    """A parameter's value as the posted rulebook says it."""
    for key, words in p.words.items():
        if key == value and type(key) is type(value):
            return str(words)
    if p.type == "money":
        return show(value, setting)
    if p.type == "bool":
        return "yes" if value else "no"
    return str(value)


def _written(p: Parameter, value: Any) -> Any:
    return show(value, "cash") if p.type == "money" else value


def param_changes(book: Rulebook, against: Rulebook) -> list[ParamChange]:
    out = []
    for name, p in sorted(book.parameters.items()):
        old = {s: against.param_values(s).get(name) for s in SETTINGS}
        new = {s: book.param_values(s).get(name) for s in SETTINGS}
        if old == new:
            continue
        out.append(ParamChange(
            name, p.description,
            {s: value_words(p, old[s], s) for s in SETTINGS}, {s: value_words(p, new[s], s) for s in SETTINGS},
            {s: [_written(p, old[s]), _written(p, new[s])] for s in SETTINGS}))
    return out


def rule_changes(book: Rulebook, against: Rulebook) -> list[RuleChange]:
    out = []
    replacing = {r.replaces: r for r in book.rules.values() if r.replaces}
    for rid, r in book.rules.items():
        if rid not in against.rules and not r.replaces:
            if r.exception_to:
                out.append(RuleChange("exception", rid, r.title, f"an exception to {r.exception_to}", str(r.origin)))
            else:
                out.append(RuleChange("added", rid, r.title, "", str(r.origin)))
        elif rid in against.rules and not same_rule(against.rules[rid], r) and rid not in replacing:
            out.append(RuleChange("changed", rid, r.title, f"was {against.rules[rid].origin.shown()}", str(r.origin)))
    for rid, r in against.rules.items():
        if rid in book.rules and rid not in replacing:
            continue
        if rid in replacing:
            new = replacing[rid]
            out.append(RuleChange("replaced", rid, r.title, f"replaced by {new.id}: {new.title}", str(new.origin)))
        else:
            out.append(RuleChange("disabled", rid, r.title, book.disabled.get(rid, "not in this book"),
                                  str(r.origin)))
    order = {"added": 0, "exception": 1, "replaced": 2, "disabled": 3, "changed": 4}
    return sorted(out, key=lambda c: (order[c.change], c.rule))


# --- Which house change made an example's ruling differ ---------------------------------------------
#
# An example's ruling is what the floor is told (each ruling in force with its effects, the open
# questions, or the refusal of the incident) and what the example's own rule decided (the facts it
# derived, the rule that overrode it): what an example can expect. It changes when it comes out
# differently under the compared book and under the house. Every example is compared: the compared
# book's, run under the house, and the house's own.
#
# The causes are found by undoing the house's changes one at a time (a parameter set back to the
# compared book's value for the example's setting; an added rule or exception taken out; a replaced,
# disabled or changed rule put back) and ruling on the example again: a change is a cause when undoing
# it alone changes the house's ruling ("but for" it, the ruling would differ). When no single undoing
# does, two or more changes each give the house's ruling on their own; the causes are then the changes
# that, made alone in the compared book, change its ruling ("each alone"). When neither test finds
# one, every change is named as working only together. (A rule change whose variant book does not
# compile cannot be tried alone; it is named only in that last case.) `rulings diff` and
# `rulings test --house` both take their changed examples and causes from `example_changes`.


@dataclass(frozen=True)
class Change:
    """One thing the house changes that can be undone on its own: a parameter, or a rule."""
    kind: str          # parameter | added | exception | replaced | disabled | changed
    name: str          # the parameter's name, or the rule's id (in the compared book, or the one added)


def house_changes(book: Rulebook, against: Rulebook) -> list[Change]:
    """The house's changes to the compared book: parameters (by name), then rules, in the diff's order."""
    return ([Change("parameter", p.name) for p in param_changes(book, against)]
            + [Change(r.change, r.rule) for r in rule_changes(book, against)])


def cause_text(change: Change, book: Rulebook, setting: str, values: tuple[Any, Any] | None = None) -> str:
    """How both commands name a cause: a parameter with its two values in the example's setting, or a rule."""
    if change.kind == "parameter":
        p = book.parameters[change.name]
        old, new = values if values is not None else (None, None)
        return f"parameter {change.name} ({_plain(p, old, setting)} -> {_plain(p, new, setting)})"
    if change.kind == "added":
        return f"added rule {change.name}"
    if change.kind == "exception":
        return f"house exception {change.name} (to {book.rules[change.name].exception_to})"
    if change.kind == "replaced":
        return f"rule {change.name} replaced by {_replacer(book, change.name)}"
    return f"rule {change.name} {change.kind}"   # disabled | changed


def _plain(p: Parameter, value: Any, setting: str) -> str:
    if p.type == "money":
        return show(value, setting)
    if p.type == "percent":
        return f"{value}%"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _replacer(book: Rulebook, rid: str) -> str:
    return next(r.id for r in book.rules.values() if r.replaces == rid)


@dataclass(frozen=True)
class Result:
    """An example's ruling under one book: the lines shown, and everything compared."""
    shown: tuple[str, ...]
    own: tuple[str, ...]        # what the example's own rule derived, or who overrode it


def example_result(book: Rulebook, engine: Engine, rule_id: str, ex: Example,
                   params: dict[str, Any] | None = None, keep: dict | None = None) -> Result:
    """The example's ruling under a book (with some parameters set otherwise, when given).

    ``keep`` receives the report (or the refusal) under (rule id, example name),
    for a caller that also checks the example's expectation.
    """
    if params:
        book = replace(book, settings={**book.settings, **params})
    try:
        report = rule_on(incident_from_data(ex.incident, file=str(ex.origin), book=book), book, engine)
    except (ProblemsError, EngineError) as exc:
        if keep is not None:
            keep[(rule_id, ex.name)] = exc
        if isinstance(exc, ProblemsError):
            return Result(("refused: " + "; ".join(p.message for p in exc.problems),), ())
        return Result((f"engine failed: {exc}",), ())
    if keep is not None:
        keep[(rule_id, ex.name)] = report
    lines = []
    for r in report.rulings:
        effects = ", ".join(f"{k} {_shown(k, v, report.setting)}" for k, v in r.effects.items())
        lines.append(f"{r.rule}: {r.ruling}" + (f" ({effects})" if effects else ""))
    lines.sort()
    lines += sorted(f"asks {q['fact']}" for q in report.questions if q.get("fact"))
    own = [f"{rule_id} derives {d['fact']} = {_shown(d['fact'], d['value'], report.setting)}"
           for d in report.derived if d["by"] == rule_id]
    own += [f"{rule_id} overridden by {o.overridden_by}" for o in report.overridden if o.rule == rule_id]
    return Result(tuple(lines), tuple(sorted(own)))


class _Undoing:
    """The house with one change undone, or the compared book with one change made; engines built once."""

    def __init__(self, book: Rulebook, engine: Engine, against: Rulebook, base: Engine):
        self.book, self.engine, self.against, self.base = book, engine, against, base
        self._books: dict[tuple[str, Change], tuple[Rulebook, Engine]] = {}
        self._failed: set[tuple[str, Change]] = set()

    def _compiled(self, key: tuple[str, Change], rules: dict[str, Rule],
                  like: Rulebook) -> tuple[Rulebook, Engine] | None:
        """The variant book and its engine; None when it does not compile (that change cannot be tried alone)."""
        if key not in self._books:
            variant = replace(like, rules=rules)
            try:
                self._books[key] = (variant, Engine(variant))
            except EngineError:
                self._failed.add(key)
        return self._books.get(key)

    def undone(self, c: Change) -> tuple[Rulebook, Engine] | None:
        """The house without this one rule change. A rule the house adds (with the house exceptions to it) is
        taken out of the house engine's runs, not compiled out: the same rulings, without a ruleset built."""
        rules = dict(self.book.rules)
        if c.kind in ("added", "exception"):
            return self.book, self.engine.without(_with_exceptions(self.book, c.name))  # type: ignore[return-value]
        if c.kind == "replaced":
            rules = {(c.name if r.replaces == c.name else k): (self.against.rules[c.name] if r.replaces == c.name
                                                             else r) for k, r in rules.items()}
        elif c.kind == "disabled":
            rules[c.name] = self.against.rules[c.name]
        else:
            rules[c.name] = self.against.rules[c.name]
        return self._compiled(("undone", c), rules, self.book)

    def made(self, c: Change) -> tuple[Rulebook, Engine] | None:
        """The compared book with only this one rule change of the house."""
        rules = dict(self.against.rules)
        if c.kind in ("added", "exception"):
            new = self.book.rules[c.name]
            while new.exception_to and new.exception_to not in rules:   # an exception needs its rule
                new = self.book.rules[new.exception_to]
                rules[new.id] = new
            rules[c.name] = self.book.rules[c.name]
        elif c.kind == "replaced":
            by = self.book.rules[_replacer(self.book, c.name)]
            rules = {(by.id if k == c.name else k): (by if k == c.name else r) for k, r in rules.items()}
        elif c.kind == "disabled":
            del rules[c.name]
        else:
            rules[c.name] = self.book.rules[c.name]
        return self._compiled(("made", c), rules, self.against)

    def close(self) -> None:
        for _, engine in self._books.values():
            engine.close()


class _Recording:
    """An engine that notes every rule that fired (or failed) in any of its runs: the ruling's own runs, its
    second stratum and every trial of a question alike. Everything else is the engine's."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self.fired: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def run(self, *args: Any, **kwargs: Any) -> Any:
        run = self._engine.run(*args, **kwargs)
        self.fired.update(f.rule.id for f in run.fired)
        self.fired.update(rule for rule, _ in run.failures)
        return run


def _with_exceptions(book: Rulebook, name: str) -> set[str]:
    """A house rule and the house exceptions to it, in turn: what undoing it takes out (``_Undoing.undone``)."""
    gone = {name}
    while True:
        more = {r.id for r in book.rules.values() if r.exception_to in gone} - gone
        if not more:
            return gone
        gone |= more


def _causes(u: _Undoing, changes: list[Change], rule_id: str, ex: Example, setting: str,
            params: dict[str, tuple[Any, Any]], before: Result, after: Result) -> tuple[list[Change], str]:
    """The changes that made this example's ruling differ, and how they were found (but-for, each alone, together).

    A rule the house adds that fired in none of the house's runs of this example (nor did an exception to it)
    changed nothing in them: ruling without it gives the same runs, so it is not tried but-for. Only the
    rules that fired are (with a house of a hundred rules, one or two trials an example instead of a hundred)."""
    relevant = [c for c in changes if c.kind != "parameter" or c.name in params]
    added = [c for c in relevant if c.kind in ("added", "exception")]
    if len(added) > 1:
        rec = _Recording(u.engine)
        example_result(u.book, rec, rule_id, ex)  # type: ignore[arg-type]
        idle = {id(c) for c in added if not (_with_exceptions(u.book, c.name) & rec.fired)}
    else:
        idle = set()
    tried = [c for c in relevant if id(c) not in idle]

    def undone(c: Change) -> Result | None:
        if c.kind == "parameter":
            return example_result(u.book, u.engine, rule_id, ex, {c.name: params[c.name][0]})
        variant = u.undone(c)
        return example_result(*variant, rule_id, ex) if variant else None

    def made(c: Change) -> Result | None:
        if c.kind == "parameter":
            return example_result(u.against, u.base, rule_id, ex, {c.name: params[c.name][1]})
        variant = u.made(c)
        return example_result(*variant, rule_id, ex) if variant else None

    found = [c for c in tried if (r := undone(c)) is not None and r != after]
    if found:
        return found, "but-for"
    found = [c for c in relevant if (r := made(c)) is not None and r != before]
    if found:
        return found, "each alone"
    return relevant, "together"


def _setting_and_params(book: Rulebook, against: Rulebook, ex: Example) -> tuple[str, dict[str, tuple[Any, Any]]]:
    """The example's setting, and the parameters whose value for it differs (those its incident does not set)."""
    # read under either book: an incident one of them refuses (a kill the house sizes otherwise) still has
    # a setting and parameters, and a refusal under one book is what a changed parameter may explain
    incident = None
    for under in (against, book):
        try:
            incident = incident_from_data(ex.incident, file=str(ex.origin), book=under)
            break
        except ProblemsError:
            continue
    if incident is None:
        return "cash", {}
    setting = incident.hand.game.setting
    overrides = {p.name: v for k, v in incident.params.items() if (p := book.parameter(k)) is not None}
    old, new = against.param_values(setting, overrides), book.param_values(setting, overrides)
    return setting, {n: (old.get(n), new[n]) for n in sorted(new) if old.get(n) != new[n]}


def same_rule(a: Rule, b: Rule) -> bool:
    """Two rules equal but for where they were written (a draft read from another file changes no rule)."""
    def bare(r: Rule) -> Rule:
        return replace(r, origin=NOWHERE, examples=tuple(replace(e, origin=NOWHERE) for e in r.examples))
    return bare(a) == bare(b)


# --- Work kept per process, for the books it was done with ------------------------------------------
#
# A diff or a house check rules on every example twice: under the compared book and under the house.
# The compared book is nearly always the standard book, loaded once per process (rulings.ruling.books), so its
# rulings of its own examples are kept with it and every later diff or check against it reuses them; and
# `rulings test --house` and `rulings diff` of the same books (the podium's check does both) share one
# `example_changes`. Both are kept while every book and engine they were worked out with is alive and the
# books' rules, parameters and settings are those they had (as rulebook.model.per_book does for one book),
# and never keep a book or an engine alive themselves.

_KEPT: dict[tuple, tuple] = {}
_KEPT_LOCK = threading.RLock()   # a book collected while it is held forgets its entry
_KEPT_MOST = 32


def _stamp(objects: tuple) -> tuple:
    return tuple((o.rules, o.parameters, dict(o.settings)) if isinstance(o, Rulebook) else None for o in objects)


def _same_stamp(a: tuple, b: tuple) -> bool:
    return all(x is y or (x[0] is y[0] and x[1] is y[1] and x[2] == y[2]) for x, y in zip(a, b))


def _kept(what: str, objects: tuple, make: Callable[[], Any]) -> Any:
    """``make()`` worked out once for these objects (books and engines, by identity) and kept while they live."""
    key = (what,) + tuple(id(o) for o in objects)
    stamp = _stamp(objects)
    with _KEPT_LOCK:
        got = _KEPT.pop(key, None)     # put back last: the least recently used goes first
        if got is not None:
            _KEPT[key] = got
    if (got is not None and all(ref() is o for ref, o in zip(got[0], objects))
            and _same_stamp(got[1], stamp)):
        return got[2]
    value = make()

    def forget(_: weakref.ref) -> None:
        with _KEPT_LOCK:
            _KEPT.pop(key, None)
    refs = tuple(weakref.ref(o, forget) for o in objects)
    with _KEPT_LOCK:
        if len(_KEPT) >= _KEPT_MOST:
            _KEPT.pop(next(iter(_KEPT)))
        _KEPT[key] = (refs, stamp, value)
    return value


def _result(book: Rulebook, engine: Engine, rule_id: str, ex: Example, keep: dict | None = None) -> Result:
    """example_result, kept with the book and engine: the standard book's rulings of its examples are
    worked out once per process for every house compared with it, and a draft's once for its check and
    its diff. An example is known by its rule, name and place and checked to be the same incident."""
    known: dict = _kept("results", (book, engine), dict)
    key = (rule_id, ex.name, str(ex.origin))
    got = known.get(key)
    if got is not None and got[0] == ex.incident and (keep is None or got[2] is not None):
        if keep is not None:
            keep[(rule_id, ex.name)] = got[2]
        return got[1]
    mine: dict = {}
    result = example_result(book, engine, rule_id, ex, keep=mine if keep is not None else None)
    report = mine.get((rule_id, ex.name))
    if keep is not None:
        keep[(rule_id, ex.name)] = report
    known[key] = (ex.incident, result, report)
    return result


def example_changes(book: Rulebook, engine: Engine, against: Rulebook, base: Engine,
                    reports: dict | None = None) -> list[ExampleChange]:
    """Every example whose ruling differs between the compared book and the house, with the causes.

    The compared book's examples come first (in its order), then the house's own (rules it adds).
    ``reports``, when given, receives each example's report under the house (see example_result).
    Worked out once for the same books and engines (see _kept), each caller given its own copy.
    """
    changes = house_changes(book, against)
    if not changes and reports is None:
        return []
    out, kept = _kept("changes", (book, engine, against, base),
                      lambda: _example_changes(book, engine, against, base, changes))
    if reports is not None:
        reports.update(kept)
    return copy.deepcopy(out)


def _example_changes(book: Rulebook, engine: Engine, against: Rulebook, base: Engine,
                     changes: list[Change]) -> tuple[list[ExampleChange], dict]:
    reports: dict = {}
    owned = [(r, against.name) for r in against.rules.values()]
    owned += [(r, book.name) for r in book.rules.values()
              if r.id not in against.rules and r.examples]
    u = _Undoing(book, engine, against, base)
    out = []
    try:
        for rule, of in owned:
            for ex in rule.examples:
                after = _result(book, engine, rule.id, ex, keep=reports)
                if not changes:
                    continue
                before = _result(against, base, rule.id, ex)
                if before == after:
                    continue
                setting, params = _setting_and_params(book, against, ex)
                found, how = _causes(u, changes, rule.id, ex, setting, params, before, after)
                out.append(ExampleChange(rule.id, ex.name, str(ex.origin), _lines(before, after),
                                         _lines(after, before), of,
                                         [cause_text(c, book, setting, params.get(c.name)) for c in found], how))
    finally:
        u.close()
    return out, reports


def _lines(mine: Result, other: Result) -> list[str]:
    """The lines shown for one side: its rulings and questions, and what its own rule did where that differs."""
    return list(mine.shown) + [x for x in mine.own if x not in other.own]


def diff(book: Rulebook, engine: Engine, against: Rulebook, base: Engine) -> Diff:
    return Diff(book.name, book.title, against.name, param_changes(book, against), rule_changes(book, against),
                example_changes(book, engine, against, base))


def diff_text(d: Diff) -> str:
    lines = [f"{d.book} — {d.title}", f"compared with: {d.against}", ""]
    lines.append(f"Parameters changed ({len(d.params)}):" if d.params else "Parameters changed: none")
    for p in d.params:
        lines.append(f"  {p.name} — {p.description}")
        same = p.before["cash"] == p.before["tournament"] and p.after["cash"] == p.after["tournament"]
        for label, setting in ([("", "cash")] if same else [("cash games: ", "cash"), ("tournaments: ", "tournament")]):
            old, new = p.before[setting], p.after[setting]
            if old == new:
                continue
            lines.append(f"    {label}{old}")
            lines.append(f"    {' ' * len(label)}-> {new}")
    heads = {"added": "Rules added", "exception": "Exceptions added", "replaced": "Rules replaced",
             "disabled": "Rules disabled", "changed": "Rules changed"}
    for kind, head in heads.items():
        items = [r for r in d.rules if r.change == kind]
        if not items:
            continue
        lines += ["", f"{head} ({len(items)}):"]
        for r in items:
            lines.append(f"  {r.rule} — {r.title}")
            if r.detail:
                lines.append(f"    {'reason: ' if kind == 'disabled' else ''}{r.detail}")
            lines.append(f"    at {shown(r.origin)}")
    lines += ["", f"Examples whose ruling changes ({len(d.examples)}):" if d.examples
              else "Examples whose ruling changes: none"]
    width = max(len(d.against), len(d.book))
    for e in d.examples:
        lines.append(f"  {e.rule}: {e.example}")
        lines.append(f"    ({'an example of this house, ' if e.book == d.book else ''}{shown(e.origin)})")
        lines.append(f"    {d.against:<{width}} | " + ("; ".join(e.before) or "no ruling"))
        lines.append(f"    {d.book:<{width}} | " + ("; ".join(e.after) or "no ruling"))
        lines.append(f"    {because(e)}")
    return "\n".join(lines)


def because(e: ExampleChange) -> str:
    """The line naming what changed an example's ruling, the same in `rulings diff` and `rulings test --house`."""
    how = {"but-for": "", "each alone": " (each alone gives this ruling)", "together": " (only together)"}[e.found]
    return f"changed by{how}: " + "; ".join(e.causes)


def _changed_when_asked(book: Rulebook, engine: Engine, base: Rulebook, base_engine: Engine,
                        reports: dict) -> Callable[[Rule, Example], ExampleChange | None]:
    """Every example ruled on under the house (its report into ``reports``), and a function that says,
    for one example when asked, how the house changed it: example_changes's entry for it, worked out
    for that example alone (a publish needs the causes of the failing examples only)."""
    changes = house_changes(book, base)
    owned = [(r, base.name) for r in base.rules.values()]
    owned += [(r, book.name) for r in book.rules.values() if r.id not in base.rules and r.examples]
    for rule, _ in owned:
        for ex in rule.examples:
            _result(book, engine, rule.id, ex, keep=reports)
    whose = {rule.id: of for rule, of in owned}

    def changed_of(rule: Rule, ex: Example) -> ExampleChange | None:
        if not changes:
            return None
        after, before = _result(book, engine, rule.id, ex), _result(base, base_engine, rule.id, ex)
        if before == after:
            return None
        u = _Undoing(book, engine, base, base_engine)
        try:
            setting, params = _setting_and_params(book, base, ex)
            found, how = _causes(u, changes, rule.id, ex, setting, params, before, after)
        finally:
            u.close()
        return ExampleChange(rule.id, ex.name, str(ex.origin), _lines(before, after), _lines(after, before),
                             whose[rule.id], [cause_text(c, book, setting, params.get(c.name)) for c in found], how)
    return changed_of


def house_outcomes(book: Rulebook, engine: Engine, base: Rulebook, base_engine: Engine,
                   only_failures: bool = False) -> list[Outcome]:
    """The house's own examples, then the base book's examples re-run under the house
    (``only_failures``: only the outcomes that fail, with the causes worked out only for them).

    Which examples the house changes, and the changes that caused each, come
    from `rulings.report.diff.example_changes`, the same list `rulings diff` prints.
    A house example passes when its expectation is met (and is marked changed
    when its ruling differs from the base book's). A base example whose ruling
    the house changed is not a failure, but for one case: its expectation is
    no longer met and a cause is a rule the house added without declaring it
    an exception to (or a replacement of) anything, which changes the base
    rule's ruling only by being narrower. A base example the house did not
    change is checked against its expectation as usual.
    """
    reports: dict[tuple[str, str], Report | Exception] = {}
    if only_failures:
        changed_of = _changed_when_asked(book, engine, base, base_engine, reports)
    else:
        changed = {(e.rule, e.example): e for e in example_changes(book, engine, base, base_engine, reports)}
        changed_of = lambda rule, ex: changed.get((rule.id, ex.name))   # noqa: E731
    own = [r for r in book.rules.values() if r.house and r.id not in base.rules]
    undeclared = {f"added rule {r.id}" for r in own if not r.exception_to and not r.replaces}
    out = []
    for rule in own:
        for ex in rule.examples:
            result = judged(reports[(rule.id, ex.name)], rule, ex)
            if only_failures:
                if not result.ok:
                    out.append(result)
                continue
            e = changed_of(rule, ex)
            out.append(replace(result, changed_by_house=because(e)) if e and result.ok else result)
    for rule in base.rules.values():
        for ex in rule.examples:
            result = judged(reports[(rule.id, ex.name)], rule, ex)
            if only_failures and result.ok:
                continue
            e = changed_of(rule, ex)
            if e is None or result.ok:
                out.append(replace(result, changed_by_house=because(e)) if e else result)
            elif undeclared & set(e.causes):
                out.append(replace(result, why=result.why + "; " + because(e) + ", which is not declared an "
                                   f"exception to {rule.id} nor its replacement"))
            elif not only_failures:
                out.append(replace(result, ok=True, why="", changed_by_house=because(e)))
    return out
