"""Disputes written blind from the rule texts (issue 43): the project's own measure of rulings it was not tuned on.

Each folder under tests/disputes/ holds a batch written by someone who had read the sources (the inventory, the
TDA 2024 rules and addendum, Robert's Rules) and not the rulebooks or the code: ``cases.yaml`` (each dispute as
told, its facts, and the answer worked by hand: the numbers, the citation keys with the deciding one first, and
whether the floor has discretion) and ``incidents/`` (each written in the incident format, ``<ID>.yaml`` and
``<ID>.v<N>.yaml`` for a house-setting variant).

A run is right when every expected number is among the numbers the report's rulings and its WHAT HAPPENS NOW
state, the deciding citation is cited by a ruling in force, and a discretionary dispute has a ruling that says
so; a refusal dispute is right when the reader refuses it. ``known.yaml`` lists each run that is not right today
with the reason; those are expected to fail, strictly, so the list stays true as rulings improve.
"""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from pathlib import Path

import pytest
import yaml

from rulings.incident import each_act, load_incident
from rulings.problems import ProblemsError
from rulings.report.render import report_json
from rulings.ruling import books
from rulings.ruling.decide import rule_on

HERE = Path(__file__).parent / "disputes"


def _runs():
    out = []
    for cases in sorted(HERE.glob("*/cases.yaml")):
        batch = cases.parent.name
        known = yaml.safe_load((cases.parent / "known.yaml").read_text()) if (cases.parent / "known.yaml").exists() \
            else {}
        for case in yaml.safe_load(cases.read_text())["cases"]:
            runs = [(case["id"], case.get("expected") or {}, case.get("discretion", False), case.get("refusal", False))]
            for n, variant in enumerate(case.get("variants") or []):
                exp = variant.get("expected") or variant
                runs.append((f"{case['id']}.v{n}", exp, variant.get("discretion", case.get("discretion", False)),
                             variant.get("refusal", False)))
            for run_id, expected, discretion, refusal in runs:
                path = cases.parent / "incidents" / f"{run_id}.yaml"
                if not path.exists():
                    continue
                marks = []
                if run_id in (known or {}):
                    marks.append(pytest.mark.xfail(strict=True, reason=str(known[run_id])))
                out.append(pytest.param(path, expected, bool(discretion), bool(refusal), marks=marks,
                                        id=f"{batch}:{run_id}"))
    return out


def _numbers(value, into: set[Decimal]) -> None:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, (int, Decimal)):
        into.add(Decimal(value))
    elif isinstance(value, str):
        for m in re.finditer(r"-?\$?\d[\d,]*(?:\.\d+)?", value):
            try:
                into.add(Decimal(m.group().replace("$", "").replace(",", "")))
            except InvalidOperation:
                pass
    elif isinstance(value, dict):
        for v in value.values():
            _numbers(v, into)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _numbers(v, into)


def _expected_numbers(expected: dict) -> dict[str, Decimal]:
    out = {}
    for name, value in (expected.get("numbers") or {}).items():
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            continue
        try:
            out[name] = Decimal(str(value).replace("$", "").replace(",", ""))
        except InvalidOperation:
            continue
    return out


@pytest.mark.parametrize("path,expected,discretion,refusal", _runs())
def test_a_blind_written_dispute_is_ruled_as_the_sources_answer(path, expected, discretion, refusal):
    book, engine = books.load()
    try:    # as `rulings rule` reads and rules it: under the house the incident names, one report per act
        incident = load_incident(path, book)
        ruled_by = books.book_for(incident, None)
        if ruled_by is not None:
            book, engine = books.load(ruled_by)
        reports = [report_json(rule_on(one, book, engine)) for one in each_act(incident)]
    except ProblemsError as err:
        assert refusal, f"refused: {err}"
        return
    assert not refusal, "a dispute the sources refuse was ruled"
    rulings = [r for report in reports for r in report["rulings"]]
    stated: set[Decimal] = set()
    _numbers(rulings, stated)
    _numbers([report.get("now") for report in reports], stated)
    missing = {k: v for k, v in _expected_numbers(expected).items() if v not in stated}
    assert not missing, f"numbers not stated: {missing}; what happens now: {[r['now'] for r in reports]}"
    cites = expected.get("citations") or []
    if cites:
        keys = {c["key"] for r in rulings for c in r["citations"]}
        assert cites[0] in keys, f"{cites[0]} not cited (cited: {sorted(keys)})"
    if discretion:
        assert any(r.get("discretion") for r in rulings), "no ruling says the floor has discretion"
