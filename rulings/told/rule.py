"""A told dispute ruled: read (rulings/told/reader.py), checked by the one incident reader, ruled as any incident.

Every front end (the command line, the API, the consultation) calls ``told_incident``; the report leads with
the incident as read ("Read as: ..."), so a misreading is seen before the ruling is acted on.
"""
from __future__ import annotations

from typing import Any

from rulings.incident import incident_from_data
from rulings.problems import ProblemsError
from rulings.told.lexicon import Lexicon
from rulings.told.reader import FILE, Told, _p, read_told


def told_incident(text: str, book: Any = None, lexicon: Lexicon | None = None) -> tuple[Told, Any]:
    """The told text read, then the incident through the one reader. Raises ProblemsError with what was not read,
    or what the incident reader refused (each problem led by what was read, so the floor sees why)."""
    told = read_told(text, lexicon)
    try:
        incident = incident_from_data(told.incident, FILE, book)
    except ProblemsError as exc:
        lead = _p(1, 1, "I102", told.read_as_line(), "the incident as read is refused below; "
                       "say the part it names in other words")
        raise ProblemsError([lead, *exc.problems]) from None
    return told, incident


def house_lexicon(house: str | None) -> Lexicon:
    """The words a house's told disputes are read by: the standard lexicon and the house's NAME.told.yaml beside
    its book, if it has one (rulings/told/lexicon.py). A lexicon that cannot be used is refused, not skipped."""
    from rulings.told.lexicon import LexiconError, for_house
    if not house:
        return for_house(None)
    from rulings.ruling.books import house_path
    try:
        return for_house(house_path(house))
    except LexiconError as exc:
        raise ProblemsError([_p(1, 1, "I104", f"the house's told lexicon cannot be used: {exc}",
                                "run rulings lint on the house book's folder")]) from None


def read_as_text(told: Told) -> str:
    """The lines put before a told dispute's report."""
    lines = [told.read_as_line()]
    for typo in told.typos:
        lines.append(f"  ({typo})")
    for q in told.unanswered:
        lines.append(f"  not answered here (the first question is; ask this one on its own): {q}")
    for c in told.claims:
        lines.append(f"  a claim, not read as a fact: {c}")
    for u in told.unread:
        lines.append(f"  not read (does not change what was read): {u.words} at {u.line}:{u.col}")
    return "\n".join(lines)


def rule_told_text(text: str, house: str | None = None, fmt: str = "text", verbose: bool = False) -> tuple[str, int]:
    """A told dispute read and ruled, as the command line prints it: (the output, the exit code: 0 ruled,
    2 not read or refused, 3 not covered). JSON: the report (one act) or the list of reports, each with
    ``told`` (the text, the read-as line, what was not read); a refusal: ``problems`` and ``told``."""
    from rulings.incident import each_act
    from rulings.report.render import dumps, report_json, report_text
    from rulings.ruling import books
    from rulings.ruling.decide import rule_on
    from rulings.problems import render_text
    book, engine = books.load(house)
    try:
        told, incident = told_incident(text, book, house_lexicon(house))
        reports = [rule_on(one, book, engine) for one in each_act(incident)]
    except ProblemsError as exc:
        if fmt == "json":
            return dumps({"problems": [p.to_json() for p in exc.problems], "told": {"text": text}}), 2
        return render_text(exc.problems), 2
    code = 3 if any(r.outcome == "not_covered" for r in reports) else 0
    if fmt == "json":
        docs = [report_json(r) | {"told": told.to_json()} for r in reports]
        return dumps(docs[0] if len(docs) == 1 else docs), code
    return read_as_text(told) + "\n\n" + "\n\n".join(report_text(r, verbose=verbose) for r in reports), code
