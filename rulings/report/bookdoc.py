"""`rulings book`: the effective rulebook as a document for players and staff (HTML or Markdown, jinja2).

It leads with what the room changed (its own rules, and the settings it chose that differ from the book it
extends, in plain words), then every other rule in force in this room, by topic. A rule the house disables
or replaces, or one that cannot apply with the room's settings (``in_force``), is not printed; the last
section names them for staff."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Set as AbstractSet
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from rulings.report.diff import SETTINGS, value_words
from rulings.rulebook.model import AnyOf, Condition, Parameter, Rule, Rulebook, leaves
from rulings.report.render import quote_all
from rulings.yamlsrc import load_file

TEMPLATES = Path(__file__).resolve().parent / "templates"


@dataclass
class Section:
    topic: str
    title: str
    summary: str = ""
    params: list[dict] = field(default_factory=list)
    rules: list[dict] = field(default_factory=list)


def _topic_titles(book: Rulebook) -> tuple[dict[str, str], dict[str, str]]:
    """Each topic's title, and which topic each topic file holds (parameters are grouped by their file)."""
    titles, by_file = {}, {}
    for f in book.files:
        doc, _ = load_file(f)
        if doc is not None and isinstance(doc.data, dict) and "topic" in doc.data:
            titles[str(doc.data["topic"])] = str(doc.data.get("title", doc.data["topic"]))
            by_file[doc.file] = str(doc.data["topic"])
    return titles, by_file


def _param(book: Rulebook, name: str) -> dict:
    p = book.parameters[name]
    values = {s: book.param_values(s).get(name) for s in SETTINGS}
    words = {s: _plain(p, values[s], s) for s in SETTINGS}
    text = words["cash"] if values["cash"] == values["tournament"] else \
        f"in cash games, {words['cash']}; in tournaments, {words['tournament']}"
    return {"name": name, "description": p.description, "words": text, "house": name in book.settings,
            "cites": list(p.cites)}


def _plain(p: Parameter, value: Any, setting: str) -> str:
    """The value in the parameter's own words; a bare number is put after what it measures."""
    words = value_words(p, value, setting)
    if any(k == value and type(k) is type(value) for k in p.words):
        return words
    return f"{p.description.rstrip('.').lower()}: {words}"


def _rule(book: Rulebook, r: Rule) -> dict:
    return {"id": r.id, "title": r.title, "text": r.text, "house": r.house, "modifies": r.modifies,
            "replaces": r.replaces, "exception_to": r.exception_to,
            "sources": quote_all(list(r.cites), with_keys=True, house=book.citations),   # as a ruling quotes them
            "discretion": {"usual": r.then.discretion.usual, "weigh": list(r.then.discretion.weigh)}
            if r.then.discretion else None}


# --- Which rules are in force in this room ---------------------------------------------------------
#
# A rule whose condition tests a parameter (``param.kill.trigger: consecutive_wins``) can apply only where
# the parameter has that value. A rule is out of force in this room when, in every setting it can apply
# in (cash games, tournaments; one when it tests ``setting``), one of its tests of a parameter fails with
# the room's value (an ``any_of`` fails when each of its groups does). Tests of the hand's facts are not
# judged here: any hand may meet them. Rules the house disables or replaces are not in the book at all.

def _holds(c: Condition, values: dict) -> bool | None:
    """Whether a test of a parameter holds with these values; None: not a parameter test, or not judged."""
    if not c.fact.startswith("param.") or c.is_expr or c.fact[6:] not in values:
        return None
    v, want = values[c.fact[6:]], c.value
    try:
        if c.op == "eq":
            return v == want
        if c.op == "not":
            return v != want
        if c.op == "in":
            return v in want
        if c.op == "not_in":
            return v not in want
        if c.op in ("above", "at_least", "below", "at_most") and not isinstance(v, bool) \
                and isinstance(v, (int, float)) and isinstance(want, (int, float)):
            return {"above": v > want, "at_least": v >= want, "below": v < want, "at_most": v <= want}[c.op]
    except TypeError:
        return None
    return None


def _can_hold(when: tuple, values: dict) -> bool:
    for c in when:
        if isinstance(c, AnyOf):
            if not any(_can_hold(g, values) for g in c.groups):
                return False
        elif _holds(c, values) is False:
            return False
    return True


def in_force(book: Rulebook, r: Rule) -> bool:
    """Whether the rule can apply in this room with the room's parameter values (see above)."""
    settings = [c.value for c in r.when if isinstance(c, Condition) and c.fact == "setting" and c.op == "eq"]
    return any(_can_hold(r.when, book.param_values(s)) for s in (settings or SETTINGS) if s in SETTINGS)


def out_of_force(book: Rulebook) -> list[dict]:
    """The rules of the book that cannot apply in this room, with the parameter tests that keep them out."""
    out = []
    for r in book.rules.values():
        if not in_force(book, r):
            tests = sorted({c.fact[6:] for c in leaves(r.when) if _holds(c, book.param_values("cash")) is False
                            or _holds(c, book.param_values("tournament")) is False})
            out.append({"id": r.id, "title": r.title, "because": tests})
    return out


def changes(book: Rulebook) -> dict:
    """What the room changed in the book it extends, for the book's first section: its own rules (added,
    replacing a rule, an exception to one) in force, and its parameters whose value differs, in plain words."""
    if not book.extends:
        return {"rules": [], "params": []}
    from rulings.ruling import books
    try:
        base = books.load(None if book.extends == "standard" else book.extends, compile=False)[0]
    except Exception:     # the extended book is not at hand by name: the house's own settings stand alone
        base = None
    params = []
    for name in book.settings:
        if name not in book.parameters:
            continue
        if base is not None and name in base.parameters and all(
                base.param_values(s).get(name) == book.param_values(s).get(name) for s in SETTINGS):
            continue
        p = _param(book, name)
        if base is not None and name in base.parameters:
            p["was"] = _param(base, name)["words"]
        params.append(p)
    rules = [_rule(book, r) for r in book.rules.values()
             if r.house == book.name and (base is None or r.id not in base.rules) and in_force(book, r)]
    return {"rules": rules, "params": params}


def sections(book: Rulebook, skip: AbstractSet[str] = frozenset()) -> list[Section]:
    """The book grouped by topic: parameters in plain words, then every rule in force in this room (but
    those in ``skip``: the room's own rules, which the book leads with)."""
    titles, by_file = _topic_titles(book)
    out: dict[str, Section] = {t: Section(t, title) for t, title in titles.items()}
    for name in sorted(book.parameters):
        topic = by_file.get(book.parameters[name].origin.file, name.split(".")[0])
        out.setdefault(topic, Section(topic, topic)).params.append(_param(book, name))
    for r in book.rules.values():
        if r.id in skip or not in_force(book, r):
            continue
        title = f"House rules — {book.title}" if r.topic not in titles else r.topic
        out.setdefault(r.topic, Section(r.topic, title)).rules.append(_rule(book, r))
    order = list(book.settings)   # the summary says what the house chose, in the order the house wrote it
    for s in out.values():
        chosen = sorted((p for p in s.params if p["house"]), key=lambda p: order.index(p["name"]))
        s.summary = "; ".join(p["words"] for p in chosen)
    return [s for s in out.values() if s.params or s.rules]


def _env() -> Environment:
    return Environment(loader=FileSystemLoader(str(TEMPLATES)), undefined=StrictUndefined,
                       autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True,
                       keep_trailing_newline=True)


def render_book(book: Rulebook, fmt: str = "html") -> str:
    template = _env().get_template("book.html" if fmt == "html" else "book.md")
    disabled = [{"id": rid, "reason": reason} for rid, reason in sorted(book.disabled.items())]
    lead = changes(book)
    shown = sections(book, {r["id"] for r in lead["rules"]})
    return template.render(book=book, sections=shown, disabled=disabled, changes=lead, idle=out_of_force(book),
                           rule_count=len(lead["rules"]) + sum(len(s.rules) for s in shown))
