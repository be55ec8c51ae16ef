"""A diff or a house check reuses the rulings already worked out for the same books and engines
(rulings.report.diff._kept), and the podium answers a draft it has checked from the check it kept: the same
answers as working them out again, and never a book or an engine kept alive by it."""
from __future__ import annotations

import gc
import weakref

import pytest

import rulings.report.diff as diff_module
from rulings.ruling import books
from rulings.report.diff import diff, example_changes, house_outcomes
from rulings.engine.rulesets import Engine
from rulings.rulebook.house import load_house
from rulings.rulebook.load import standard_book

ROOM = ("rulebook: room\nextends: standard\ntitle: A room with four raises\n"
        "parameters:\n  raise_cap.max_raises: 4\n")


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    path = tmp_path_factory.mktemp("room") / "room.yaml"
    path.write_text(ROOM, encoding="utf-8")
    book = load_house(path, standard_book())
    engine = Engine(book)
    yield book, engine
    engine.close()


@pytest.fixture
def counted(monkeypatch):
    """How many examples are ruled on (the real example_result, counted)."""
    calls = []
    real = diff_module.example_result

    def counting(*args, **kwargs):
        calls.append(args[2])
        return real(*args, **kwargs)
    monkeypatch.setattr(diff_module, "example_result", counting)
    return calls


def test_the_same_diff_twice_rules_on_nothing_the_second_time_and_says_the_same(room, counted):
    book, engine = room
    base, base_engine = books.load()
    first = diff(book, engine, base, base_engine)
    ruled = len(counted)
    examples = sum(len(r.examples) for r in book.rules.values())
    assert ruled >= examples > 800              # every example under the room (and, unless kept, under standard)
    again = diff(book, engine, base, base_engine)
    assert len(counted) == ruled                 # nothing ruled on again
    assert again.to_json() == first.to_json()
    assert again.examples is not first.examples and again.examples[0] is not first.examples[0]   # a copy each
    changed = [e.example for e in first.examples]
    assert changed and all(e.causes == ["parameter raise_cap.max_raises (3 -> 4)"] for e in first.examples)
    outcomes = house_outcomes(book, engine, base, base_engine)   # the check's half: the same rulings again
    assert len(counted) == ruled
    assert sum(1 for o in outcomes if o.changed_by_house) == len(changed) and all(o.ok for o in outcomes)


def test_what_is_kept_is_what_working_it_out_afresh_gives(room):
    book, engine = room
    base, base_engine = books.load()
    reports: dict = {}
    kept = example_changes(book, engine, base, base_engine, reports)
    for key in [k for k in diff_module._KEPT if id(book) in k[1:]]:    # the room's: worked out again
        del diff_module._KEPT[key]
    fresh_reports: dict = {}
    fresh = example_changes(book, engine, base, base_engine, fresh_reports)
    assert kept == fresh and reports.keys() == fresh_reports.keys()
    assert all(repr(reports[k]) == repr(fresh_reports[k]) for k in reports)


def test_a_book_whose_settings_change_is_ruled_on_again_and_a_book_gone_is_forgotten(tmp_path, counted):
    path = tmp_path / "room.yaml"
    path.write_text(ROOM, encoding="utf-8")
    book = load_house(path, standard_book())
    engine = Engine(book)
    base, base_engine = books.load()
    four = diff(book, engine, base, base_engine)
    ruled = len(counted)
    book.settings["raise_cap.max_raises"] = 5           # the same object, other settings: not the same book
    five = diff(book, engine, base, base_engine)
    assert len(counted) > ruled
    assert {e.causes[0] for e in five.examples} == {"parameter raise_cap.max_raises (3 -> 5)"}
    assert four.examples and five.examples != four.examples
    mine = id(book)
    assert any(mine in key[1:] for key in diff_module._KEPT)
    gone = weakref.ref(book), weakref.ref(engine)
    engine.close()
    del book, engine
    gc.collect()
    assert gone[0]() is None and gone[1]() is None      # nothing kept holds them
    assert not any(mine in key[1:] for key in diff_module._KEPT)


def test_a_publish_after_its_check_is_answered_from_the_check(tmp_path, monkeypatch):
    from rulings.service.store import housebook
    from rulings.service.store.housebook import HouseBooks, set_parameter
    checked = []
    real = housebook._checked

    def counting(*args):
        checked.append(args[2])          # with_diff
        return real(*args)
    monkeypatch.setattr(housebook, "_checked", counting)
    monkeypatch.setattr(housebook, "_CHECKS", {})       # none kept yet (another test may have checked this draft)
    hb = HouseBooks(tmp_path / "one")
    draft = set_parameter(hb.text("east-coast-limit"), "kill.size", "half")
    check = hb.check("east-coast-limit", draft)
    assert check.ok and check.diff["parameters"] and checked == [True]
    assert hb.check("east-coast-limit", draft) is check and checked == [True]      # the page shown again
    # another service's folder, the same draft against the same version in force: the same answer
    assert HouseBooks(tmp_path / "two").check("east-coast-limit", draft) is check and checked == [True]
    result, info = hb.publish("east-coast-limit", draft, "manny")
    assert checked == [True] and info["version"] == 1
    assert result.diff is None and (result.problems, result.failures) == (check.problems, check.failures)
    # now the version in force is the draft: the same text checked again is diffed against it, afresh
    again = hb.check("east-coast-limit", draft)
    assert checked == [True, True] and again.diff["parameters"] == [] and again.diff["examples"] == []
    bad = set_parameter(draft, "kill.size", "halve")
    assert not hb.check("east-coast-limit", bad).ok and checked == [True, True, True]


TRIAL = """\
rulebook: trial
extends: standard
title: A room that caps a flop at four bets without saying what it overrides
rules:
  - id: trial.four-bets-cap-a-flop
    title: Four bets cap a flop
    cites: [HOUSE-TRIAL-1]
    text: On the flop four bets are the cap.
    when:
      structure: fixed-limit
      street: flop
      players_dealt: {at_least: 3}
      facing_bet: true
      can_raise: false
      said: false
      chips_total: {missing: true}
      current_bet: {at_least: "small_bet * 4"}
    then: {ruling: capped-here, decides: limits, effects: {to_call: to_call}}
    examples:
      - name: a $20 flop bet, raised three times
        incident: {game: {structure: fixed-limit, blinds: [10, 20], bet_sizes: [20, 40]}, button: 3,
                   players: {1: 900, 2: 900, 3: 900}, street: flop, pot: 60,
                   actions: [{seat: 1, action: bet, to: 20}, {seat: 2, action: raise, to: 40},
                             {seat: 3, action: raise, to: 60}, {seat: 1, action: raise, to: 80}],
                   disputed: {seat: 2}}
        expect: {ruling: capped-here, effects: {to_call: 40}}
      - name: a $20 flop bet, raised twice
        incident: {game: {structure: fixed-limit, blinds: [10, 20], bet_sizes: [20, 40]}, button: 3,
                   players: {1: 900, 2: 900, 3: 900}, street: flop, pot: 60,
                   actions: [{seat: 1, action: bet, to: 20}, {seat: 2, action: raise, to: 40},
                             {seat: 3, action: raise, to: 60}],
                   disputed: {seat: 1}}
        expect: {fires: false}
citations:
  HOUSE-TRIAL-1: the room's posted limit rules, the cap
"""


def test_a_publish_s_failures_are_the_full_check_s_failing_outcomes(tmp_path):
    """Without the diff only the failing examples' causes are worked out: the same failures, in the same
    order with the same words, as the full outcomes' failing ones (here an undeclared override)."""
    path = tmp_path / "trial.yaml"
    path.write_text(TRIAL, encoding="utf-8")
    book = load_house(path, standard_book())
    engine = Engine(book)
    base, base_engine = books.load()
    try:
        failing = house_outcomes(book, engine, base, base_engine, only_failures=True)
        full = house_outcomes(book, engine, base, base_engine)
    finally:
        engine.close()
    assert failing == [o for o in full if not o.ok]
    assert failing and all("which is not declared an exception to raise-caps.cap-reached" in o.why
                           for o in failing)
    assert any(o.ok and o.changed_by_house for o in full)      # the changed ones that pass are no failure
