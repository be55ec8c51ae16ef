"""`rulings explain` and `rulings params`: a rule, a parameter or a citation key, in words a manager reads."""
from __future__ import annotations

import textwrap
from typing import Any

from rulings.betting import SETTINGS
from rulings.rulebook.catalogue import citations
from rulings.money import show
from rulings.problems import ProblemsError
from rulings.rulebook.model import Parameter, Rulebook, leaves, setting_value
from rulings.ruling.decide import citation


def _rule(book: Rulebook, rid: str) -> str:
    r = book.rules[rid]
    out = [f"{r.id} — {r.title}", f"  topic: {r.topic}   from: {r.origin.shown()}"]
    if r.house:
        out.append(f"  house: {r.house}" + (f" (modifies {r.modifies})" if r.modifies else ""))
    if r.exception_to:
        out.append(f"  exception to: {r.exception_to}")
    out += ["", "  " + r.text, ""]
    for key in r.cites:
        c = citation(key)
        out.append(f"  cites: {key} — {c['source']}, {c['section']}")
    params = sorted({c.fact[6:] for c in leaves(r.when) if c.fact.startswith("param.")})
    for name in params:
        p = book.parameters[name]
        out.append(f"  parameter: {name} = {book.param_values('cash').get(name)!r} in cash games, "
                   f"{book.param_values('tournament').get(name)!r} in tournaments — {p.description}")
    if r.then.discretion:
        out.append(f"  floor discretion: usually {r.then.discretion.usual}")
        out += [f"    weigh: {w}" for w in r.then.discretion.weigh]
    out.append("  examples:")
    for ex in r.examples:
        verdict = "does not apply" if ex.expect.get("fires", True) is False else \
            f"{ex.expect.get('ruling', 'derives')} {ex.expect.get('effects', ex.expect.get('derives', ''))}"
        out.append(f"    - {ex.name}: {verdict}")
    return "\n".join(out)


def in_words(p: Parameter, value: Any, setting: str) -> str:
    """A parameter's value as the posted rulebook says it.

    >>> from rulings.rulebook.model import Origin
    >>> unit = Parameter("pot_limit.rounding_unit", "money", "Round the pot up.", (), 0, (), Origin("f", 1, 1))
    >>> in_words(unit, 500, "cash"), in_words(unit, 500, "tournament"), in_words(unit, 0, "cash")
    ('$5', '5', '$0')
    """
    said = p.words.get(value)
    return f"{plain(p, value, setting)} — {said}" if said else plain(p, value, setting)


def plain(p: Parameter, value: Any, setting: str) -> str:
    """A parameter's value written as it is set: $5, 50%, true, half_bet."""
    if value is None:
        return "not set"
    return show(value, setting) if p.type == "money" else f"{value}%" if p.type == "percent" else \
        str(value).lower() if isinstance(value, bool) else str(value)


def parameter_text(book: Rulebook, p: Parameter) -> str:
    """One parameter: what it does, its value in force by setting in plain words, and its defaults."""
    lines = [f"{p.name} — {p.description}"]
    if p.also_named:
        lines.append(f"  {'also named:':12} {', '.join(p.also_named)}")
    for setting in SETTINGS:
        value = book.param_values(setting).get(p.name)
        lines.append(f"  {setting + ':':12} {in_words(p, value, setting)}")
    # each value written as the lines above write it in its setting (tournament money is chips: '0', not '$0')
    defaults = {s: plain(p, p.default_for(s), s) for s in SETTINGS}
    if len(set(defaults.values())) == 1:
        lines.append(f"  {'default:':12} {defaults['cash']} in both settings")
    else:
        lines.append(f"  {'default:':12} " + ", ".join(f"{v} in {s}" for s, v in defaults.items()))
    if p.name in book.settings:
        house = {s: plain(p, setting_value(book.settings[p.name], s), s) for s in SETTINGS}
        lines.append(f"  {'':12} this house sets it to " + (house["cash"] if len(set(house.values())) == 1 else
                                                            ", ".join(f"{v} in {s}" for s, v in house.items())))
    lines.append(f"  {'allowed:':12} " + (", ".join(plain(p, v, "cash") for v in p.values) or p.allowed_words()))
    lines.append(f"  {'cites:':12} {', '.join(p.cites)}   declared at {p.origin.shown()}")
    return "\n".join(lines)


def params_text(book: Rulebook, text: str | None = None) -> str | None:
    """Every parameter (or those whose name, description or words mention ``text``), in plain words."""
    needle = (text or "").lower()
    found = [p for name, p in sorted(book.parameters.items())
             if needle in " ".join([name, *p.also_named, p.description, *map(str, p.words.values())]).lower()]
    if not found:
        return None
    return "\n\n".join(parameter_text(book, p) for p in found)


def _citing(book: Rulebook, key: str) -> list[str]:
    """The rules that cite a key, each with its text in our words, and the parameters that do."""
    out: list[str] = []
    for r in book.rules.values():
        if key in r.cites:
            out.append(f"  {r.id} — {r.title}" + (f" (house: {r.house})" if r.house else ""))
            out += textwrap.wrap(r.text, 88, initial_indent="      ", subsequent_indent="      ")
    out += [f"  parameter {p.name} — {p.description}" for p in book.parameters.values() if key in p.cites]
    return out


def _houses(book: Rulebook) -> list[Rulebook]:
    """This book if it is a house book, then the house books under rulebooks/houses/ (each loaded once)."""
    from rulings.ruling import books
    from rulings.rulebook.house import house_names
    out = [book] if book.extends else []
    for name in house_names():
        if name != book.name:
            try:
                out.append(books.load(name, compile=False)[0])
            except ProblemsError:   # a broken house book is lint's to report, not explain's
                continue
    return out


def _house_key(book: Rulebook, key: str) -> str | None:
    """A house's own citation key, explained from the house book that cites it (this one, or an example house)."""
    for house in _houses(book):
        users = _citing(house, key)
        if users:
            head = f"{key} — a house rule of {house.title} (rulebook {house.name}, {house.files[-1]})"
            said = [f"  {house.citations[key]}"] if key in house.citations else []
            return "\n".join([head, *said, "  the house's rules that cite it:"] + users)
    return None


def explain(book: Rulebook, what: str) -> str | None:
    if what in book.rules:
        return _rule(book, what)
    if (param := book.parameter(what)) is not None:   # its name, or another name rooms use (also_named:)
        return parameter_text(book, param)
    if what in citations():
        c = citations()[what]
        lines = [f"{what} — {c.source}, {c.section}", f"  about: {c.topic}",
                 "  written for: " + " / ".join([", ".join(c.structures) or "every structure",
                                                 ", ".join(c.games) or "every game", ", ".join(c.settings)])
                 + (f"; adopted in {', '.join(c.also_in)} games beside their own source" if c.also_in else "")]
        users = _citing(book, what)
        lines += (["  cited by:"] + users) if users else ["  cited by no rule or parameter of this book"]
        for house in _houses(book):
            if house is not book:
                added = [r for r in house.rules.values() if what in r.cites and r.id not in book.rules]
                lines += [f"  also cited in house book {house.name} by:"] if added else []
                lines += [f"  {r.id} — {r.title}" for r in added]
        return "\n".join(lines)
    if what.upper().startswith("HOUSE-"):
        return _house_key(book, what)
    for house in _houses(book):
        if what in house.rules:
            return f"{_rule(house, what)}\n  (a rule of house book {house.name}: add --house {house.name})"
    return None


def matches(book: Rulebook, part: str) -> list[str]:
    """Rule ids, parameter names and citation keys containing ``part`` (any case), each with a short label."""
    needle = part.lower()
    keys = set(citations()) | {k for r in book.rules.values() for k in r.cites}
    out = [f"rule       {r.id} — {r.title}" for r in book.rules.values() if needle in r.id.lower()]
    out += [f"parameter  {n} — {p.description}" for n, p in sorted(book.parameters.items()) if needle in n.lower()]
    out += [f"citation   {k} — {citation(k)['source']}, {citation(k)['section']}"
            for k in sorted(keys) if needle in k.lower()]
    seen = set(book.rules) | keys
    for house in _houses(book):   # what other house books add, with the option that shows it
        if house is book:
            continue
        for r in house.rules.values():
            if r.id not in seen and needle in r.id.lower():
                seen.add(r.id)
                out.append(f"rule       {r.id} — {r.title} (rulings explain {r.id} --house {house.name})")
            for k in r.cites:
                if k not in seen and k not in citations() and needle in k.lower():
                    seen.add(k)
                    out.append(f"citation   {k} — a house rule of {house.title} (rulebook {house.name})")
    return out


def not_found(book: Rulebook, what: str) -> str:
    """The refusal for a name nothing matches, with the nearest name when one is close."""
    from rulings.rulebook.catalogue import did_you_mean
    names = list(book.rules) + list(book.parameters) + list(citations())
    close = did_you_mean(what, names)
    return (f"no rule, parameter or citation key '{what}' or containing it"
            + (f"; did you mean '{close}'?" if close else ""))
