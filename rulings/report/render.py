"""Reports for people (text) and for programs (JSON, contract rulings.report/1).

The text report is for the podium: what happens now first (who puts in or
gets back what, whose turn it is and what he faces), then each ruling with its
numbers, one or two primary citations quoted as a floorperson would quote
them (source, rule number, the rule in our words) and any discretion.
``verbose`` adds the chain of rules, where each rule is written, every
citation key, the derived facts and the rulings overridden. Control
characters from the incident are escaped, never printed raw.
"""
from __future__ import annotations

import json
import re
import unicodedata
from decimal import Decimal
from typing import Any

from rulings.rulebook.catalogue import citations, facts, fit
from rulings.money import major, show
from rulings.ruling.decide import Report, Ruling, citation
from rulings.ruling.panel import as_data
from rulings.facts.wagers import NAMED_ONLY
from rulings.rulebook.model import shown

CONTRACT = "rulings.report/1"
PRIMARY = ("RRP-", "TDA-", "BARGE-")   # the published rulebooks; the rest are commentary and house pages
_NOTE = re.compile(r"\s*\((?!\d{4}\))[^()]*\)")   # our notes in parentheses; a year, "(2007)", stays
_SEED = re.compile(r"^(?:S\d{3}\s*/?\s*)+")            # the seed documents' numbers
_RULES = re.compile(r"^rule ([\w/-]+)((?:, (?:rule )?\d[\w/-]*)+)$")   # "rule 15-B, rule 65-A"


_MONEY: list[frozenset] = []


def _money_facts() -> frozenset:
    """The names of the facts that hold money (the catalogue does not change while the process runs)."""
    if not _MONEY:
        _MONEY.append(frozenset(name for name, f in facts().items() if f.type == "money"))
    return _MONEY[0]


def _is_money(name: str) -> bool:
    return name in _money_facts()


def _value(name: str, value: Any, money: frozenset | None = None) -> Any:
    if name in (money or _money_facts()) and isinstance(value, int) and not isinstance(value, bool):
        return major(value)
    return value


def _shown(name: str, value: Any, setting: str) -> str:
    if _is_money(name) and isinstance(value, int) and not isinstance(value, bool):
        return show(value, setting)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def escape(text: str) -> str:
    """Text safe for a terminal: control and bidirectional-override characters written as escapes."""
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if cat == "Cc" or (cat == "Cf" and ch not in "\u200d"):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def quote_parts(key: str, house: dict[str, str] | None = None) -> tuple[str, str]:
    """A citation's source and the place in it, as a floorperson quotes them: no internal notes (ours in
    parentheses, the seed documents' numbers, addenda after "+"), "r." written "rule", titles in quotes.
    A room's own key is quoted with what its house book says of it (``house``: key -> the book's text)."""
    c = citations().get(key)
    if c is None:
        return f"house rule {key}", (house or {}).get(key, "")
    source = _NOTE.sub("", c.source).strip()
    place = _SEED.sub("", _NOTE.sub("", c.section.split(" + ")[0])).strip()
    place = re.sub(r"^RRP-PG\s+", "", place)
    place = _unsaid(source, place)
    place = re.sub(r"\br\.\s*", "rule ", place)
    if (many := _RULES.match(place)):
        numbers = [n.removeprefix("rule ") for n in [many.group(1), *many.group(2).split(", ")[1:]]]
        place = "rules " + ", ".join(numbers[:-1]) + " and " + numbers[-1]
    place = re.sub(r'"([^"]*)"', "\u201c\\1\u201d", place.replace("*", ""))
    place = place.replace("\u201d/\u201c", "\u201d, \u201c")
    if not place or place.lower() in source.lower() or place.lower().startswith("derived"):
        return source, ""
    return source, place


def _unsaid(source: str, place: str) -> str:
    """The place without the source's own name in front ("BARGE Limit" in the BARGE rulebook: "Limit")."""
    words = place.split(" ")
    for n in range(len(words) - 1, 0, -1):
        said = " ".join(words[:n]).rstrip(",")
        if source.startswith(said + " "):
            return " ".join(words[n:])
    return place


def floor_quote(key: str) -> str:
    """A citation as a floorperson would quote it: the source and its rule number, no internal notes."""
    source, place = quote_parts(key)
    return f"{source}, {place}" if place else source


def quote_all(keys: list[str], with_keys: bool = False, house: dict[str, str] | None = None) -> str:
    """Several citations quoted together, each source named once ("Robert's Rules of Poker, card-room
    edition, §14 PL rule 1 and §14 PL rule 6; Poker TDA Rules 2024, rule 44"); ``with_keys`` puts each
    place's citation keys after it in parentheses, for staff who look a key up; ``house``: what the house
    book says of its own keys, quoted after each."""
    by_source: dict[str, dict[str, list[str]]] = {}
    for key in keys:
        source, place = quote_parts(key, house)
        by_source.setdefault(source, {}).setdefault(place, []).append(key)
    known = citations()

    def marked(text: str, ks: list[str]) -> str:
        ks = [k for k in ks if k in known]   # a house rule's key is already in its quote
        return f"{text} ({', '.join(ks)})" if with_keys and ks else text
    out = []
    for source, places in by_source.items():
        head = marked(source, places.pop("", []))
        parts = [marked(place, ks) for place, ks in places.items()]
        if len(parts) > 1:
            parts = [", ".join(parts[:-1]) + " and " + parts[-1]]
        out.append(", ".join([head, *parts]))
    return "; ".join(out)


def primary(cites: list[str], n: int = 2, fit=None) -> list[str]:
    """The one or two citations to quote: the published rulebooks first, in the ruling's own order. ``fit``
    (key -> 0, 1 or 2, ``catalogue.fit`` for the incident's game): only the keys that fit the game best
    are quoted, so a source written for another structure, game or setting is never quoted before one
    written for this one."""
    if fit is not None and cites:
        best = min(fit(k) for k in cites)
        cites = [k for k in cites if fit(k) == best]
    first = [k for k in cites if k.startswith(PRIMARY)]
    rest = [k for k in cites if not k.startswith(PRIMARY)]
    return (first + rest)[:n] if first else rest[:1]


NEXT_MONEY = ("to_call", "call_to", "min_raise_to", "max_raise_to")


def _next_json(data: dict | None) -> dict | None:
    """The seat to act after the ruling and his options (rulings/ruling/now.py ``options``), money in the
    game's units."""
    if data is None:
        return None
    return {k: major(v) if k in NEXT_MONEY else v for k, v in data.items()}


FACED = ("to_call", "min_raise_to", "max_raise_to", "can_raise")


def _faced(r: Ruling, facts: dict | None) -> dict | None:
    """For a ruling that sizes the disputed wager, what the seat faced when he made it: his call, his smallest
    and largest raise-to, whether raising was open (the facts the wager was measured against; one not
    known is left out)."""
    if facts is None or r.decides != "wager" or "wager_to" not in r.effects or "to_call" not in facts:
        return None
    return {k: (major(facts[k]) if k != "can_raise" else facts[k]) for k in FACED if facts.get(k) is not None}


def _ruling_json(r: Ruling, nxt: dict | None = None, facts: dict | None = None) -> dict:
    file, _, line = shown(str(r.origin)).rpartition(":")   # as the text report's "from:" (never absolute)
    out = {
        "rule": r.rule, "ruling": r.ruling, "decides": r.decides, "title": r.title, "sentence": r.sentence,
        "text": r.text, "effects": {k: _value(k, v) for k, v in r.effects.items()},
        "discretion": {"usual": r.discretion.usual, "weigh": list(r.discretion.weigh)} if r.discretion else None,
        "convention": r.convention, "citations": [citation(c, r.house_cites) for c in r.cites]
        + [citation(c, r.house_cites) | {"via": rid} for c, rid in getattr(r, "derived_cites", ())],
        "origin": {"file": file, "line": int(line)}, "chain": r.chain, "house": r.house, "modifies": r.modifies,
    }
    if (faced := _faced(r, facts)) is not None:
        out["faced"] = faced
    if r.numbers:   # the numbers the floor needs to act on it (rulings/ruling/panel.py), and their sentences
        out["numbers"] = as_data(r.numbers, major)
        out["say"] = " ".join(r.say)
    if nxt is not None and nxt.get("after") == r.rule:   # what this ruling leaves the next seat
        out["next"] = nxt
    if r.overridden_by:
        out.update(overridden_by=r.overridden_by, reason=r.reason)
    return out


def report_json(report: Report) -> dict:
    money = _money_facts()
    return {
        "contract": CONTRACT,
        "incident": report.incident,
        "rulebook": report.book,
        "setting": report.setting,
        "outcome": report.outcome,
        "now": list(report.now),
        "next": (nxt := _next_json(report.next)),
        "rulings": [_ruling_json(r, nxt, report.facts) for r in report.rulings],
        "overridden": [_ruling_json(r) for r in report.overridden],
        "derived": [{"fact": d["fact"], "value": _value(d["fact"], d["value"]), "by": d["by"], "chain": d["chain"]}
                    for d in report.derived],
        "questions": report.questions,
        "not_considered": list(report.not_considered),
        "not_covered": list(report.not_covered),
        "facts": {k: major(v) if k in money and isinstance(v, int) and v.__class__ is not bool else v
                  for k, v in sorted(report.facts.items()) if k not in NAMED_ONLY},
        "problems": report.problems,
    } | ({"more_acts": [report_json(r) for r in report.more_acts]} if report.more_acts else {})


_DEC = re.compile(r'"__dec__(-?[0-9.]+)__"')


def _decimal_marked(o: Any) -> str:
    if isinstance(o, Decimal):
        return f"__dec__{o.normalize():f}__"
    raise TypeError(f"cannot write {type(o).__name__} as JSON")


# one encoder per layout, made once (json.dumps with a ``default`` builds a new encoder on every call)
_ENCODERS: dict[int | None, json.JSONEncoder] = {}


def dumps(data: Any, indent: int | None = 2) -> str:
    """JSON with exact decimal money: 84.50 is written as the number 84.5, never through a float."""
    encoder = _ENCODERS.get(indent)
    if encoder is None:
        encoder = _ENCODERS.setdefault(indent, json.JSONEncoder(
            default=_decimal_marked, ensure_ascii=False, indent=indent,
            separators=None if indent else (",", ":")))
    text = encoder.encode(data)
    return _DEC.sub(r"\1", text) if "__dec__" in text else text   # no marker: nothing to take out


def _numbers(r: Ruling, setting: str) -> str:
    shown = [f"{k.replace('_', ' ')} {_shown(k, v, setting)}" for k, v in r.effects.items()
             if not (k in ("returned", "owed", "callers_get_back") and v == 0)]
    return ", ".join(shown)


def _ruling_text(r: Ruling, setting: str, verbose: bool, label: str, facts: dict | None = None) -> list[str]:
    lines = ["", f"{label}  {r.sentence}"]
    if r.effects and (numbers := _numbers(r, setting)):
        lines.append(f"  numbers: {numbers}")
    options = (facts or {}).get("options")
    if isinstance(options, str) and _faced(r, facts) is not None:
        lines.append(f"  faced:   he could {options}")
    game = [(facts or {}).get(name) for name in ("structure", "variant", "setting")]
    quoted = quote_all(primary(r.cites, fit=lambda k: fit(k, *game)), house=r.house_cites)
    lines.append(f"  rule:    {quoted}" if quoted else f"  rule:    {r.title}")
    lines.append(f"           {r.text}")
    if r.discretion:
        lines.append(f"  FLOOR DISCRETION: usually, {r.discretion.usual}")
        lines += [f"    weigh: {w}" for w in r.discretion.weigh]
    if r.house:
        lines.append(f"  house:   {r.house}" + (f" (modifies {r.modifies})" if r.modifies else ""))
    if verbose:
        if r.convention:
            lines.append(f"  convention: {r.convention}")
        lines.append(f"  id:      {r.rule} — {r.title}")
        for key in r.cites:
            c = citation(key, r.house_cites)
            lines.append(f"  cites:   {key} — {c['source']}, {c['section']}")
        for key, rid in getattr(r, "derived_cites", ()):
            c = citation(key, r.house_cites)
            lines.append(f"  cites:   {key} — {c['source']}, {c['section']} (through {rid}, which worked out a fact)")
        lines.append(f"  from:    {shown(str(r.origin))}")
        lines.append(f"  chain:   {' -> '.join(r.chain)}")
    return lines


def report_text(report: Report, verbose: bool = False) -> str:
    outcome = {"ruled": "ruled", "questions": "questions to ask first (the answer depends on them)",
               "not_covered": "NOT COVERED by this rulebook"}[report.outcome]
    lines = [f"Incident {report.incident} — {report.book} rulebook, {report.setting} game", f"Outcome: {outcome}"]
    if report.now:
        lines += ["", "WHAT HAPPENS NOW"] + [f"  {line}" for line in report.now]
    if report.questions:
        lines += ["", "ASK FIRST (the answer could change the ruling):"]
        for q in report.questions:
            lines.append(f"  - {q['question']}")
            if q.get("why"):
                lines.append(f"    why: {q['why']}")
            lines += [f"    {line}" for line in q.get("under_each") or ()]
    if report.outcome == "not_covered":
        lines += ["", "No rule of this book decides this incident. Not understood:"]
        lines += [f"  - {part}" for part in report.not_covered]
    for i, r in enumerate(report.rulings):
        lines += _ruling_text(r, report.setting, verbose, "RULING" if i == 0 else "ALSO  ", report.facts)
    if report.not_considered:
        lines += ["", "NOT CONSIDERED (given, but no rule weighed it): " + ", ".join(report.not_considered)]
    if report.problems:
        lines += ["", "PROBLEMS (these rules could not be applied; the rulings above stand without them):"]
        lines += [f"  - {p['rule']}: {p['problem']}" for p in report.problems]
    if verbose:
        for r in report.overridden:
            lines += ["", f"overridden: {r.rule} ({r.ruling}) — {r.reason}"]
        if report.derived:
            lines += ["", "derived facts:"]
            lines += [f"  {d['fact']} = {_shown(d['fact'], d['value'], report.setting)}  (by {d['by']})"
                      for d in report.derived]
    text = "\n".join(escape(line) for line in lines)
    return "\n\n".join([text] + [report_text(r, verbose) for r in report.more_acts])   # every act, in hand order
