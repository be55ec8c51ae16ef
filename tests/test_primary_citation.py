"""The citation a report leads with belongs to the rule whose conditions decided the matter (issue 25).

For every example of the standard book and of each house book that expects a rule to give a ruling, the
example's incident is ruled on through the whole path and read as the JSON report gives it:

- the report's first citation (its leading ruling's first) is one of that rule's own citations: what the
  floor reads out is the rule that decided, not a neighbouring rule with the same number;
- the rule's own ruling lists its own citations first (those written for the incident's game and setting
  first, then those its setting adopts, then the rest, each group in the book's order: ``by_fit``), and only
  after them the citations of the derive-only rules its chain stood on, each marked with the rule it came
  through.

Where another ruling in force leads, the example is listed in OTHERS with the reason, and expected to fail
(strictly: once it passes the test says so, and the entry must go). The standard book and one house book run
by default; RULINGS_ALL_BOOKS=1 runs every house book.
"""
from __future__ import annotations

import os

import pytest

from rulings.ruling import books
from rulings.incident import incident_from_data
from rulings.problems import ProblemsError
from rulings.report.render import report_json
from rulings.rulebook.catalogue import by_fit
from rulings.ruling.decide import rule_on

# Every example of every rule, over the standard book and one house book (the one whose own rules change the
# most leads: a half kill that says where the killer acts); RULINGS_ALL_BOOKS=1 runs all four books
# (docs/rulebooks.md). Each book keeps its own expected failures below.
ALL_BOOKS = (None, "east-coast-limit", "pnw-lowball", "tda-series")
HOUSES = ALL_BOOKS if os.environ.get("RULINGS_ALL_BOOKS") == "1" else (None, "pnw-lowball")

# Examples (rule:example index) whose report leads, by the order rulings/ruling/now.py `lead` gives every report, with
# another ruling in force than the example's own, and the books where it does; each with why the lead is right
# or why nothing in the incident tells the two apart (the same situation is another rule's example). Expected
# to fail, strictly: an entry that starts passing must be taken out.
ALL = ("standard", "east-coast-limit", "pnw-lowball", "tda-series")
OTHERS = {
    # the words are the whole act: the wager they declare leads; the term read from the same words follows
    # (counting the nonstandard word as a particular would put "a tap facing a bet" behind the term rule)
    "declarations.nonstandard-term:0": ALL,
    # the later words ("... no, three") are the whole act: the wager they declare leads (counting the later
    # words as a particular puts "I call ... and raise" behind the first-declaration rule, which is wrong there)
    "declarations.first-declaration-binds:0": ALL,
    # words and chips are both the act; the first-motion wager stands on the same string bet and leads
    "declarations.declared-raise-string-forbidden:0": ALL,
    # one silent chip short of a call: the same act is the undercall rules' example; the call it makes leads
    "misdeclared-calls.tiny-chip:0": ALL,
    "misdeclared-calls.tiny-chip:1": ALL,   # the same, a 1,000 chip against 5,000
    # the big blind ante's price, dead money and pot-limit pot only follow (matters.yaml follows:): the
    # disputed call or "pot" the example is told with leads
    "antes.short-big-blind-full-call:0": ALL,
    # once the betting is over the chips going back lead what happens now; the split follows with its numbers
    "antes.short-big-blind-blind-first:0": ALL,
    "antes.short-big-blind-blind-first:1": ALL,
    "antes.short-big-blind-blind-first:2": ALL,
    "antes.big-blind-ante-is-dead:0": ALL,
    "antes.big-blind-ante-is-dead:1": ALL,
    "antes.pot-limit-pot-counts-the-ante:0": ALL,
    "antes.pot-limit-pot-counts-the-ante:1": ALL,
    # a raise short of the minimum over a straddle: the wager it is brought up to leads; why the minimum is one
    # straddle more (minimum, matters.yaml follows:) is said beside it
    "straddles.raise-short-of-the-straddle-minimum:0": ALL,
    # the same short raise made with chips after "raise": the rule for a declared raise whose chips fall short
    # of the minimum decides what the wager becomes and leads; the straddle's minimum is said beside it
    "straddles.raise-short-of-the-straddle-minimum:3": ALL,
}


def _cases():
    out = []
    for house in HOUSES:
        book, _ = books.load(house, compile=False)
        for rule in book.rules.values():
            if not rule.then.ruling:
                continue
            for i, ex in enumerate(rule.examples):
                expect = ex.expect
                if expect.get("fires", True) is False or not ("ruling" in expect or "effects" in expect):
                    continue
                out.append(pytest.param(house, rule.id, i, id=f"{house or 'standard'}:{rule.id}:{i}"))
    return out


def _report(house, rule_id, i):
    book, engine = books.load(house)
    rule = book.rules[rule_id]
    ex = rule.examples[i]
    try:
        report = rule_on(incident_from_data(ex.incident, file=str(ex.origin), book=book), book, engine)
    except ProblemsError:
        pytest.skip("the house refuses this example's incident (rulings test --house says how)")
    return rule, report_json(report)


@pytest.mark.parametrize("house,rule_id,i", _cases())
def test_the_deciding_rule_is_cited_first(house, rule_id, i, request):
    rule, report = _report(house, rule_id, i)
    mine = next((r for r in report["rulings"] if r["rule"] == rule_id), None)
    if mine is None:
        pytest.skip("the house changed this rule's answer (rulings test --house reports it)")
    keys = [c["key"] for c in mine["citations"]]
    facts = report["facts"]
    own = by_fit(rule.cites, facts.get("structure"), facts.get("variant"), facts.get("setting"))
    assert keys[:len(rule.cites)] == own, ("the ruling's own citations come first: those written for the game "
                                           "first, each group in the book's order")
    assert all("via" in c for c in mine["citations"][len(rule.cites):])
    if (house or "standard") in OTHERS.get(f"{rule_id}:{i}", ()):
        request.applymarker(pytest.mark.xfail(strict=True, reason="another ruling in force leads (see OTHERS)"))
    first = report["rulings"][0]["citations"][0]["key"]
    assert first in rule.cites, (f"the report leads with {report['rulings'][0]['rule']} ({first}); "
                                 f"the example's rule {rule_id} cites {rule.cites}")


def test_a_derived_fact_brings_its_rule_citation_after_the_deciding_rule():
    """A new player coming in at a seat the blinds have not passed: the entry rule (RRP B&B r.7) only works
    out that the seat is open; the posting rule decides. Its citation follows the posting rule's own."""
    book, engine = books.load()
    incident = incident_from_data({
        "game": {"variant": "holdem", "structure": "no-limit", "blinds": [1, 2]}, "button": 1,
        "players": {s: 200 for s in range(1, 7)}, "street": "preflop",
        "procedure": {"posting": {"seat": 6, "player": "new", "choice": "post"}}}, book=book)
    report = report_json(rule_on(incident, book, engine))
    ruling = report["rulings"][0]
    own = list(book.rules[ruling["rule"]].cites)
    assert "posting.entry-open" in ruling["chain"]
    keys = [c["key"] for c in ruling["citations"]]
    assert keys[:len(own)] == own
    assert keys[len(own):] == ["RRP-BB-7"] and ruling["citations"][-1]["via"] == "posting.entry-open"
    # a house setting that opens every seat: the entry rule fires on the parameter, and is cited the same way
    opened = incident_from_data({
        "game": {"variant": "holdem", "structure": "no-limit", "blinds": [1, 2]}, "button": 1,
        "players": {s: 200 for s in range(1, 7)}, "street": "preflop",
        "procedure": {"posting": {"seat": 6, "player": "new", "choice": "post", "between_bb_and_button": True}},
        "params": {"posting.allow_between_bb_and_button": True}}, book=book)
    report = report_json(rule_on(opened, book, engine))
    assert any(c.get("via") == "posting.entry-open" for r in report["rulings"] for c in r["citations"])


def test_a_ruling_that_replaced_the_rule_it_stood_on_cites_it_after_its_own():
    """TDA 40-A: chips put out before "call" decide, read as silent chips; TDA 45 reads them (addendum 45's
    numbers: facing 1,100 at 250-500, 1,000 + 1,000 + 100 is a raise to 2,100). The chips' reading decides the
    wager in place of the 40-A ruling it stood on, and 40-A is cited after 45, through that rule."""
    book, engine = books.load()
    data = {"game": {"variant": "holdem", "structure": "no-limit", "setting": "tournament", "blinds": [250, 500]},
            "button": 4, "players": {s: 20000 for s in range(1, 5)}, "street": "preflop",
            "actions": [{"seat": 3, "action": "raise", "to": 1100}],
            "disputed": {"seat": 4, "said": "call", "chips": [1000, 1000, 100], "words_first": "chips"}}
    report = report_json(rule_on(incident_from_data(data, book=book), book, engine))
    ruling = report["rulings"][0]
    assert ruling["rule"] == "misdeclared-calls.chips-make-a-full-raise" and ruling["effects"]["wager_to"] == 2100
    keys = [c["key"] for c in ruling["citations"]]
    assert keys[:2] == ["TDA-2024-45", "HOUSE-JUMERS-8"]
    assert {"key": "TDA-2024-40A", "via": "misdeclared-calls.first-in-time-chips"}.items() <= \
        next(c for c in ruling["citations"] if c["key"] == "TDA-2024-40A").items()
    # said first, the words decide: no silent reading, and 40-A is the ruling's own
    data["disputed"]["words_first"] = "words"
    report = report_json(rule_on(incident_from_data(data, book=book), book, engine))
    assert not any(c.get("via") == "misdeclared-calls.first-in-time-chips"
                   for r in report["rulings"] for c in r["citations"])
