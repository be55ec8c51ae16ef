"""`rulings ask`: the consultation in the terminal — the ruling so far, then the question that matters most."""
from __future__ import annotations

import sys
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable

import yaml

from rulings.problems import ProblemsError, render_text

# what to ask for when no incident file is given: (field path, prompt)
ESSENTIALS = (
    (("game", "structure"), "Structure (no-limit, pot-limit, fixed-limit, spread-limit)"),
    (("game", "variant"), "Game (holdem, omaha, stud, razz, draw, lowball) [holdem]"),
    (("game", "setting"), "cash or tournament [cash]"),
    (("game", "blinds"), "Blinds, e.g. [1, 2]"),
    (("game", "bet_sizes"), "Limit games: bet sizes, e.g. [20, 40] [none]"),
    (("players",), "Seats and stacks, e.g. {1: 1000, 2: 640, 3: 815}"),
    (("button",), "Button seat"),
    (("street",), "Street (preflop, flop, turn, river, ...)"),
    (("pot",), "Pot before this street [0]"),
    (("actions",), "Actions this street, e.g. [{seat: 1, action: bet, to: 50}] [none]"),
    (("disputed", "seat"), "Seat of the disputed act [none: a kill question]"),
    (("disputed", "said"), "What the player said [nothing]"),
    (("disputed", "chips"), "Chips put out in one motion, e.g. [500] [none]"),
)


def _scalar(text: str) -> Any:
    """A typed value read as the incident reader reads YAML (amounts as exact decimals)."""
    from rulings.yamlsrc import load_text
    doc, _ = load_text(text, "<typed>")
    return text if doc is None else doc.data


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(Decimal, lambda d, v: d.represent_scalar("tag:yaml.org,2002:float", f"{v:f}"))


def _put(data: dict, path: tuple[str, ...], value: Any) -> None:
    node = data
    for p in path[:-1]:
        node = node.setdefault(p, {})
    node[path[-1]] = value


def _words(value: Any) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value).replace("_", " ")


# the essentials with no default: a blank answer is asked again
REQUIRED = {("game", "structure"), ("game", "blinds"), ("players",), ("button",), ("street",)}
TRIES = 5   # a misspelt or blank answer is asked again this many times, then the typing stops (never a hang)


class GaveUp(Exception):
    """The same essential was answered wrongly TRIES times."""


def _wrong(path: tuple[str, ...], value: Any) -> str | None:
    """What is wrong with a typed value, with the legal answers; None when it will do."""
    from rulings.catalogue import did_you_mean, facts
    fact = facts().get(path[-1]) if path[-1] in ("structure", "variant", "setting", "street") else None
    if fact is not None and value not in fact.values:
        close = did_you_mean(str(value), list(fact.values))
        return (f"did you mean '{close}'? " if close else "") + "one of: " + ", ".join(fact.values)
    if path == ("game", "blinds") and not (isinstance(value, list) and value):
        return "the blinds as a list of amounts, e.g. [1, 2]"
    if path == ("players",) and not (isinstance(value, dict) and value):
        return "each seat and its stack, e.g. {1: 1000, 2: 640, 3: 815}"
    if path in (("button",), ("disputed", "seat")) and (isinstance(value, bool) or not isinstance(value, int)):
        return "a seat number, e.g. 3"
    return None


def gather(read: Callable[[str], str], out) -> dict:
    """An incident typed in answer to the essential questions (blank keeps the default; an essential
    with no default, or a misspelt answer, is asked again with the legal answers)."""
    data: dict = {}
    for path, prompt in ESSENTIALS:
        if path[:1] == ("disputed",) and path[1:] != ("seat",) and "disputed" not in data:
            continue
        for _ in range(TRIES):
            text = read(f"{prompt}: ").strip()
            if not text:
                if path not in REQUIRED:
                    break
                print(f"  {'.'.join(path)} is needed: there is no default", file=out)
                continue
            value = _scalar(text)
            wrong = _wrong(path, value)
            if wrong is None:
                _put(data, path, value)
                break
            print(f"  '{text}' will not do for {'.'.join(path)}: {wrong}", file=out)
        else:
            raise GaveUp(".".join(path))
    return data


def run(incident: str | None, house: str | None, save: str | None, read: Callable[[str], str] = input,
        out=sys.stdout) -> int:
    from rulings import books
    from rulings.consult import Consultation
    from rulings.render import report_text
    try:
        consultation = None
        if incident:
            from rulings.yamlsrc import load_file
            doc, problems = load_file(incident)
            if doc is None:
                print(render_text(problems), file=sys.stderr)
                return 2
            data = doc.data
        else:
            try:
                data = gather(read, out)
            except EOFError:   # Ctrl-D, or a pipe that ran dry: the typing stopped, nothing is wrong in rulings
                print("\nrulings ask: the input ended before the incident was typed; nothing was ruled "
                      "(give a partial incident file instead: rulings ask FILE)", file=sys.stderr)
                return 2
            except GaveUp as exc:
                print(f"\nrulings ask: no usable answer for {exc} after {TRIES} tries; nothing was ruled "
                      "(give a partial incident file instead: rulings ask FILE)", file=sys.stderr)
                return 2
        named = data.get("house") if isinstance(data, dict) and isinstance(data.get("house"), str) else None
        book, engine = books.load(house or named)
        consultation = Consultation(book, engine, incident or "<typed>")
        if incident:
            data = doc
        answers: dict[str, Any] = {}
        skipped: list[str] = []
        while True:
            try:
                step = consultation.step(data, answers, tuple(skipped))
            except ProblemsError as exc:
                print(render_text(exc.problems), file=sys.stderr)
                return 2
            if not step.questions:
                break
            print(f"\nso far ({step.outcome}):", file=out)
            acts = [step.report, *step.report.more_acts]     # every disputed act, in hand order
            for report in acts:
                if len(acts) > 1:
                    print(f"  {report.incident}:", file=out)
                for r in report.rulings:
                    print(f"  RULING  {r.sentence}  [{r.rule}]", file=out)
            q = step.questions[0]
            print(f"\nQUESTION ({len(step.questions)} left that could change the ruling; asked by {q['asked_by']}):",
                  file=out)
            print(f"  {q['question']}" + (f"  (act {q['act']})" if q.get("act") else ""), file=out)
            for i, v in enumerate(q["values"], 1):
                leads = "; ".join(x["ruling"] for x in v["leads_to"]) or "no ruling"
                print(f"  {i}. {_words(v['value'])}   -> {leads}", file=out)
            if q.get("type") == "enum":   # the listed answers may all be wrong: leave the fact out, as now
                now = "; ".join(r.ruling for r in step.report.rulings) or "no ruling"
                print(f"  0. none of these   -> {now}", file=out)
            try:
                choice = read("answer (number, s to skip, q to finish): ").strip().lower()
            except EOFError:
                break
            if choice in ("q", "quit", ""):
                break
            if choice in ("s", "skip") or (q.get("type") == "enum" and choice in ("0", "none", "none of these")):
                skipped.append(q["key"])
                continue
            picked = None
            if choice.isdigit() and 1 <= int(choice) <= len(q["values"]):
                picked = q["values"][int(choice) - 1]["value"]
            else:
                for v in q["values"]:
                    if choice in (str(v["value"]).lower(), _words(v["value"])):
                        picked = v["value"]
            if picked is None:
                print(f"  '{choice}' is not one of the answers; give its number", file=out)
                continue
            answers[q["key"]] = picked      # FACT, or FACT@N for act N of several
        print("", file=out)
        print(report_text(step.report), file=out)
        print(f"\noutcome: {step.outcome}", file=out)
        target = save
        if target is None and sys.stdin.isatty():
            try:
                target = read("save the incident to (blank: do not save): ").strip() or None
            except EOFError:
                target = None
        if target:
            text = yaml.dump(step.data, Dumper=_Dumper, sort_keys=False, allow_unicode=True)
            Path(target).write_text(text, encoding="utf-8")
            print(f"saved {target}", file=out)
        return 0
    except KeyboardInterrupt:
        return 2
