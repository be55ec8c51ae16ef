"""Several requests to see hands in one showdown dispute (procedure.showdown.requests), each ruled on by itself.

TDA 2024 rule 18 with its Illustration Addendum's second example: after a river bet and raise, the callers who
kept or tabled their cards may insist on seeing the last aggressor's hand; a caller who mucked unshown has lost
the right; any other request is the TD's call. Written from the rule, with our own seats and chips.
"""
from __future__ import annotations

import pytest

from rulings.ruling import books
from rulings.incident import incident_from_text
from rulings.problems import ProblemsError
from rulings.report.render import report_json
from rulings.ruling.decide import rule_on

HAND = """\
game: {variant: holdem, structure: no-limit, setting: tournament, blinds: [200, 400]}
button: 5
players: {1: 30000, 2: 30000, 3: 30000, 5: 30000}
street: river
pot: 6000
actions:
  - {seat: 1, action: bet, to: 2000}
  - {seat: 2, action: call, to: 2000}
  - {seat: 3, action: raise, to: 7000}
  - {seat: 5, action: call, to: 7000}
  - {seat: 1, action: call, to: 7000}
  - {seat: 2, action: call, to: 7000}
procedure:
  showdown:
    last_aggressor: 3
    river_checked: false
    river_bet: true
    in_showdown: [1, 2, 3]
"""

REQUESTS = """\
    requests:
      - {asker: 1, asker_called: true, asker_kept_cards: true, asked_to_see: 3}
      - {asker: 2, asker_called: true, asker_kept_cards: true, asked_to_see: 3}
      - {asker: 5, asker_called: true, asker_kept_cards: false, asked_to_see: 3}
      - {asker: 2, asker_called: true, asker_kept_cards: true, asked_to_see: 1}
"""


def _rule(text: str):
    book, engine = books.load()
    return rule_on(incident_from_text(text, book=book), book, engine)


def _ask(report) -> str:
    return next(r.ruling for r in report.rulings if r.decides == "ask-to-see")


def test_each_request_is_ruled_on_by_itself_and_leads_its_report():
    report = _rule(HAND + REQUESTS)
    reports = [report] + report.more_acts
    assert [_ask(r) for r in reports] == ["must-show", "must-show", "no-right-to-see", "floor-decides"]
    assert [r.rulings[0].decides for r in reports] == ["ask-to-see"] * 4   # the request leads, not the show order
    assert reports[2].incident.endswith("request 3 of 4 (seat 5)")
    assert [r["incident"] for r in report_json(report)["more_acts"]][0].endswith("request 2 of 4 (seat 2)")
    assert reports[3].rulings[0].discretion is not None


def test_one_request_under_requests_is_the_single_request():
    one = HAND + "    requests:\n      - {asker: 1, asker_called: true, asker_kept_cards: true, asked_to_see: 3}\n"
    single = HAND + "    asker: 1\n    asker_called: true\n    asker_kept_cards: true\n    asked_to_see: 3\n"
    a, b = _rule(one), _rule(single)
    assert not a.more_acts and _ask(a) == _ask(b) == "must-show"


@pytest.mark.parametrize("extra,code", [
    ("    asker: 1\n" + REQUESTS, "I130"),                                     # both forms at once
    ("    requests: []\n", "I103"),
    ("    requests:\n      - {asker: 1}\n", "I102"),                          # whose hand?
    ("    requests:\n      - {asker: 4, asked_to_see: 3}\n", "I105"),         # seat 4 is not in the hand
    ("    requests:\n      - {asker: 1, asked_to_see: 3, shouted: true}\n", None),
])
def test_bad_requests_are_refused_by_field(extra, code):
    book, _ = books.load()
    with pytest.raises(ProblemsError) as exc:
        incident_from_text(HAND + extra, book=book)
    codes = {p.code for p in exc.value.problems}
    assert code in codes if code else codes
    assert all("requests" in ".".join(map(str, p.path)) or p.code == "I130" for p in exc.value.problems)
