"""Reports for people (text) and for programs (JSON, contract rulings.report/1)."""
from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any

from rulings.catalogue import facts
from rulings.money import major, show
from rulings.ruling import Report, Ruling, citation

CONTRACT = "rulings.report/1"


def _is_money(name: str) -> bool:
    f = facts().get(name)
    return f is not None and f.type == "money"


def _value(name: str, value: Any) -> Any:
    if _is_money(name) and isinstance(value, int) and not isinstance(value, bool):
        return major(value)
    return value


def _shown(name: str, value: Any, setting: str) -> str:
    if _is_money(name) and isinstance(value, int) and not isinstance(value, bool):
        return show(value, setting)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _ruling_json(r: Ruling) -> dict:
    file, _, line = r.origin.rpartition(":")
    out = {
        "rule": r.rule, "ruling": r.ruling, "decides": r.decides, "title": r.title, "sentence": r.sentence,
        "text": r.text, "effects": {k: _value(k, v) for k, v in r.effects.items()},
        "discretion": {"usual": r.discretion.usual, "weigh": list(r.discretion.weigh)} if r.discretion else None,
        "convention": r.convention, "citations": [citation(c) for c in r.cites],
        "origin": {"file": file, "line": int(line)}, "chain": r.chain, "house": r.house, "modifies": r.modifies,
    }
    if r.overridden_by:
        out.update(overridden_by=r.overridden_by, reason=r.reason)
    return out


def report_json(report: Report) -> dict:
    return {
        "contract": CONTRACT,
        "incident": report.incident,
        "rulebook": report.book,
        "setting": report.setting,
        "rulings": [_ruling_json(r) for r in report.rulings],
        "overridden": [_ruling_json(r) for r in report.overridden],
        "derived": [{"fact": d["fact"], "value": _value(d["fact"], d["value"]), "by": d["by"], "chain": d["chain"]}
                    for d in report.derived],
        "questions": report.questions,
        "facts": {k: _value(k, v) for k, v in sorted(report.facts.items())},
        "problems": report.problems,
    }


_DEC = re.compile(r'"__dec__(-?[0-9.]+)__"')


def dumps(data: Any, indent: int | None = 2) -> str:
    """JSON with exact decimal money: 84.50 is written as the number 84.5, never through a float."""
    def default(o):
        if isinstance(o, Decimal):
            return f"__dec__{o.normalize():f}__"
        raise TypeError(f"cannot write {type(o).__name__} as JSON")
    return _DEC.sub(r"\1", json.dumps(data, indent=indent, default=default, ensure_ascii=False,
                                       separators=None if indent else (",", ":")))


def report_text(report: Report) -> str:
    lines = [f"Incident {report.incident} — {report.book} rulebook, {report.setting} game"]
    if not report.rulings:
        lines.append("")
        lines.append("No rule of the book applies to this incident as described.")
    for r in report.rulings:
        lines += ["", f"RULING  {r.sentence}"]
        if r.effects:
            lines.append("  numbers: " + ", ".join(f"{k.replace('_', ' ')} {_shown(k, v, report.setting)}"
                                                  for k, v in r.effects.items()))
        lines.append(f"  rule:    {r.rule} — {r.title}")
        lines.append(f"           {r.text}")
        for key in r.cites:
            c = citation(key)
            lines.append(f"  cites:   {key} — {c['source']}, {c['section']}")
        if r.convention:
            lines.append(f"  convention: {r.convention}")
        if r.discretion:
            lines.append(f"  FLOOR DISCRETION: usually, {r.discretion.usual}")
            lines += [f"    weigh: {w}" for w in r.discretion.weigh]
        if r.house:
            lines.append(f"  house:   {r.house}" + (f" (modifies {r.modifies})" if r.modifies else ""))
        lines.append(f"  from:    {r.origin}")
        lines.append(f"  chain:   {' -> '.join(r.chain)}")
    for r in report.overridden:
        lines += ["", f"overridden: {r.rule} ({r.ruling}) — {r.reason}"]
    if report.derived:
        lines += ["", "derived facts:"]
        lines += [f"  {d['fact']} = {_shown(d['fact'], d['value'], report.setting)}  (by {d['by']})"
                  for d in report.derived]
    if report.problems:
        lines += ["", "PROBLEMS (these rules could not be applied; the rulings above stand without them):"]
        lines += [f"  - {p['rule']}: {p['problem']}" for p in report.problems]
    if report.questions:
        lines += ["", "OPEN QUESTIONS (the answer could change the ruling):"]
        lines += [f"  - {q['question']}" for q in report.questions]
    return "\n".join(lines)
