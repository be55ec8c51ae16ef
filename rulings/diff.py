"""`rulings diff`: what a house book changes in the book it is compared with — parameters, rules, rulings."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from rulings.engine import Engine
from rulings.examples import example_rulings
from rulings.money import show
from rulings.rulebook.model import Parameter, Rulebook

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
                "parameters": [asdict(p) for p in self.params], "rules": [asdict(r) for r in self.rules],
                "examples": [asdict(e) for e in self.examples]}


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
        elif rid in against.rules and against.rules[rid] != r and rid not in replacing:
            out.append(RuleChange("changed", rid, r.title, f"was {against.rules[rid].origin}", str(r.origin)))
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


def example_changes(book: Rulebook, engine: Engine, against: Rulebook, base: Engine) -> list[ExampleChange]:
    """Every example of the other book whose rulings come out differently under this one."""
    out = []
    for rule in against.rules.values():
        for ex in rule.examples:
            before = example_rulings(against, base, ex)
            after = example_rulings(book, engine, ex)
            if before != after:
                out.append(ExampleChange(rule.id, ex.name, str(ex.origin), before, after))
    return out


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
            lines.append(f"    at {r.origin}")
    lines += ["", f"Examples of {d.against} whose ruling changes ({len(d.examples)}):" if d.examples
              else f"Examples of {d.against} whose ruling changes: none"]
    width = max(len(d.against), len(d.book))
    for e in d.examples:
        lines.append(f"  {e.rule}: {e.example}")
        lines.append(f"    ({e.origin})")
        lines.append(f"    {d.against:<{width}} | " + ("; ".join(e.before) or "no ruling"))
        lines.append(f"    {d.book:<{width}} | " + ("; ".join(e.after) or "no ruling"))
    return "\n".join(lines)

