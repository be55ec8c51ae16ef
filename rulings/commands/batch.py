"""Many incidents in one run: `rulings rule FILE...` and `rulings rule --jsonl SRC` (one incident per line).

Every input gives one output, in input order: a report, or a refusal that
carries its problems (a JSON line ``{"contract", "incident", "refused": true,
"problems": [...]}``). The book is loaded once per process; ``--jobs N``
spreads the lines over N worker processes in chunks, keeping the order.
"""
from __future__ import annotations

import itertools
import sys
from pathlib import Path
from typing import Iterable, Iterator

from rulings.problems import Problem, ProblemsError

OK, RULEBOOK, INPUT = 0, 1, 2
CHUNK = 250


def _compact(data) -> str:
    from rulings.report.render import dumps
    return dumps(data, indent=None)


def _refusal(name: str, problems: list[Problem]) -> dict:
    from rulings.report.render import CONTRACT
    return {"contract": CONTRACT, "incident": name, "refused": True, "problems": [p.to_json() for p in problems]}


def _house_book(house: str | None):
    """The book --house names (else the standard book), for the reader to check each incident under;
    an incident naming its own house is checked again under it when ruled."""
    from rulings.ruling import books
    return books.load(house)[0]


def _rule(incident, house: str | None):
    from rulings.ruling import books
    from rulings.ruling.decide import rule_on
    book, engine = books.load(books.book_for(incident, house))     # --house, else the incident's house
    return rule_on(incident, book, engine)


def rule_line(line: str, where: str, house: str | None, unread: str = "") -> tuple[int, str]:
    """One JSONL line to (exit code, one output line). The line is read with ``json.loads``, held to the
    rules the YAML reader holds an incident file to, with the same problems at the same line and column
    (``rulings.incident.fields.json_line_document``). ``unread``: the code of a line that was not read (Y007,
    longer than an incident may be; Y009, not UTF-8), refused as such."""
    from rulings.incident import read_incident
    from rulings.incident.fields import json_line_document, unread_line
    from rulings.report.render import report_json
    from rulings.yamlsrc import Located
    file, _, lineno = where.rpartition(":")
    if unread:
        return INPUT, _compact(_refusal(where, [unread_line(unread, file, int(lineno))]))
    try:
        doc = json_line_document(line, file, int(lineno))
    except ProblemsError as exc:
        return INPUT, _compact(_refusal(where, exc.problems))
    data = doc.data
    if not isinstance(data, dict):
        return INPUT, _compact(_refusal(where, [Problem(file, int(lineno), 1, "Y001", "a line must hold one JSON object")]))
    if "incident" not in data:   # each line's report names its line
        data = dict(data, incident=f"{file.rsplit('/', 1)[-1]}:{lineno}")
    name = data["incident"] if isinstance(data["incident"], str) else where
    try:
        incident = read_incident(Located(file, data, doc.marks), _house_book(house))
        report = _rule(incident, house)
    except ProblemsError as exc:
        return INPUT, _compact(_refusal(name, exc.problems))
    return OK, _compact(report_json(report))


def _chunk(args: tuple[list[tuple[str, str, str]], str | None]) -> list[tuple[int, str]]:
    lines, house = args
    return [rule_line(text, where, house, unread) for text, where, unread in lines]


def _lines(src: str) -> Iterator[tuple[str, str, str]]:
    """Each line that is not blank: (its text, where it is, "" or the code it is refused with unread). The
    file is read as every file is (``bounded_lines``: a regular file, or standard input for '-'), a line at
    most an incident's size held, so a FIFO or one endless line never hangs or fills memory."""
    from rulings.incident.fields import incident_lines
    name = "<stdin>" if src == "-" else src
    for n, text, unread in incident_lines(None if src == "-" else src):
        if text is None or text.strip():
            yield text or "", f"{name}:{n}", unread


def _batches(items: Iterable, size: int) -> Iterator[list]:
    batch: list = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def rule_jsonl(src: str, house: str | None, jobs: int, out=None) -> int:
    """Rule on every line of ``src`` ('-': standard input); print one line per incident, in order."""
    from rulings.problems import LimitError, render_text
    out = out or sys.stdout
    code = OK
    try:
        lines = _lines(src)
        first = next(lines, None)   # a path that is no regular file is refused before anything is ruled
    except LimitError as exc:
        print(render_text([exc.problem]), file=sys.stderr)
        return INPUT
    if first is not None:
        lines = itertools.chain([first], lines)
    if jobs <= 1:
        results: Iterable[tuple[int, str]] = (rule_line(t, w, house, u) for t, w, u in lines)
    else:
        from rulings.workers import pool as start
        pool = start(jobs)
        chunks = pool.map(_chunk, ((b, house) for b in _batches(lines, CHUNK)))
        results = (r for chunk in chunks for r in chunk)
    try:
        for rc, text in results:
            code = max(code, rc)
            out.write(text + "\n")
    finally:
        if jobs > 1:
            pool.shutdown(cancel_futures=True)
    return code


def rule_files(paths: list[str], house: str | None, fmt: str, out=None) -> int:
    """Rule on several incident files: text reports one after another, or one JSON line each."""
    from rulings.incident import load_incident
    from rulings.problems import render_text
    from rulings.report.render import report_json, report_text
    out = out or sys.stdout
    code = OK
    for i, path in enumerate(paths):
        try:
            report = _rule(load_incident(path, _house_book(house)), house)
        except ProblemsError as exc:
            code = max(code, INPUT)
            if fmt == "json":
                out.write(_compact(_refusal(Path(path).stem, exc.problems)) + "\n")
            else:
                print(render_text(exc.problems), file=sys.stderr)
            continue
        if fmt == "json":
            out.write(_compact(report_json(report)) + "\n")
        else:
            out.write(("\n" if i else "") + report_text(report) + "\n")
    return code
