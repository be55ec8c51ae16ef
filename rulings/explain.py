"""`rulings explain`: a rule, a parameter or a citation key, with everything a floorperson needs to read."""
from __future__ import annotations

from rulings.catalogue import citations
from rulings.rulebook.model import Rulebook
from rulings.ruling import citation


def _rule(book: Rulebook, rid: str) -> str:
    r = book.rules[rid]
    out = [f"{r.id} — {r.title}", f"  topic: {r.topic}   from: {r.origin}"]
    if r.house:
        out.append(f"  house: {r.house}" + (f" (modifies {r.modifies})" if r.modifies else ""))
    if r.exception_to:
        out.append(f"  exception to: {r.exception_to}")
    out += ["", "  " + r.text, ""]
    for key in r.cites:
        c = citation(key)
        out.append(f"  cites: {key} — {c['source']}, {c['section']}")
    params = sorted({c.fact[6:] for c in _flat(r.when) if c.fact.startswith("param.")})
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


def _flat(when):
    from rulings.rulebook.model import AnyOf
    for c in when:
        if isinstance(c, AnyOf):
            for g in c.groups:
                yield from _flat(g)
        else:
            yield c


def explain(book: Rulebook, what: str) -> str | None:
    if what in book.rules:
        return _rule(book, what)
    if what in book.parameters:
        p = book.parameters[what]
        lines = [f"{p.name} ({p.type}) — {p.description}", f"  from: {p.origin}",
                 f"  default: {p.default!r}", f"  allowed: {', '.join(map(str, p.values)) or 'any number'}",
                 f"  cites: {', '.join(p.cites)}"]
        if what in book.settings:
            lines.append(f"  this house sets it to {book.settings[what]!r}")
        return "\n".join(lines)
    if what in citations():
        c = citation(what)
        users = [r.id for r in book.rules.values() if what in r.cites]
        lines = [f"{what} — {c['source']}, {c['section']}"]
        lines += [f"  cited by: {u}" for u in users] or ["  cited by no rule of this book"]
        return "\n".join(lines)
    return None
