"""House rulebooks: merging over the standard book, provenance, bad house books, and `rulings test --house`."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from cli.main import main
from rulings.ruling import books
from rulings.problems import ProblemsError
from rulings.rulebook.house import load_house
from rulings.rulebook.load import standard_book

ROOT = Path(__file__).resolve().parents[1]
HEAD = "rulebook: trial\nextends: standard\ntitle: Trial room\n"
CAPPED_RAISE = """\
game: {structure: fixed-limit, setting: tournament, blinds: [100, 200], bet_sizes: [200, 400]}
button: 3
players: {1: 20000, 2: 20000, 3: 20000}
street: flop
pot: 600
actions: [{seat: 1, action: bet, to: 200}, {seat: 2, action: raise, to: 400}, {seat: 3, action: raise, to: 600},
          {seat: 1, action: raise, to: 800}, {seat: 2, action: raise, to: 1000}]
disputed: {seat: 3, said: raise}
"""


def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out, out.err


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return p


def test_tda_2024_48_house_ruling_cites_house_rule_and_the_rule_it_modifies(tmp_path, capsys):
    incident = write(tmp_path, "capped.yaml", CAPPED_RAISE)
    code, out, _ = run(["rule", str(incident), "--house", "tda-series", "--verbose"], capsys)
    assert code == 0
    assert "RULING  The round was capped at five bets, so the raise is a call to 1,000." in out
    assert "HOUSE-HARBOR-14 — House rule" in out and "TDA-2024-48" in out
    assert "house:   tda-series (modifies raise-caps.raise-at-cap-is-call)" in out
    code, out, _ = run(["rule", str(incident), "--house", "tda-series", "--format", "json"], capsys)
    ruling = next(r for r in json.loads(out)["rulings"] if r["decides"] == "wager")
    assert (ruling["rule"], ruling["house"], ruling["modifies"]) == (
        "tda-series.raise-at-cap-is-call", "tda-series", "raise-caps.raise-at-cap-is-call")
    assert ruling["effects"] == {"wager_to": 1000}
    assert ruling["origin"]["file"].endswith("rulebooks/houses/tda-series.yaml")


def test_rrp_br_3_the_standard_book_gives_its_own_ruling_with_discretion(tmp_path, capsys):
    """Under the standard four-bet cap the raise to 800 caps the round; 'raise' after it is the standard rule's case."""
    capped_at_four = CAPPED_RAISE.replace(", {seat: 2, action: raise, to: 1000}]", "]").replace("seat: 3, said", "seat: 2, said")
    incident = write(tmp_path, "capped.yaml", capped_at_four)
    code, out, _ = run(["rule", str(incident), "--format", "json"], capsys)
    ruling = next(r for r in json.loads(out)["rulings"] if r["decides"] == "wager")
    assert (ruling["rule"], ruling["house"], ruling["modifies"]) == ("raise-caps.raise-at-cap-is-call", None, None)
    assert ruling["discretion"] is not None


def test_setting_defaults_apply_where_the_house_sets_nothing(tmp_path):
    house = write(tmp_path, "trial.yaml", HEAD + "parameters:\n  raise_cap.max_raises: 4\n")
    book = load_house(house, standard_book())
    cash, tournament = book.param_values("cash"), book.param_values("tournament")
    assert cash["raise_cap.max_raises"] == tournament["raise_cap.max_raises"] == 4
    assert (cash["raise_cap.heads_up_exception"], tournament["raise_cap.heads_up_exception"]) == ("before_cap", "none")
    assert (cash["pot_limit.oversize_correction"], tournament["pot_limit.oversize_correction"]) == (
        "until_all_acted", "until_next_card")


def test_a_house_over_a_house_inherits_settings_and_disabled_rules(tmp_path):
    write(tmp_path, "parent.yaml", HEAD.replace("trial", "parent") + textwrap.dedent("""\
        parameters: {raise_cap.max_raises: 4, reopen.limit_rule: full_bet}
        disable: [{rule: raise-caps.no-cap-in-big-bet-games, reason: a limit room}]
        """))
    child = write(tmp_path, "child.yaml", "rulebook: child\nextends: parent\ntitle: Child room\n"
                  "parameters: {raise_cap.max_raises: 5}\n")
    book = load_house(child, standard_book())
    assert (book.name, book.extends) == ("child", "parent")
    assert book.settings == {"raise_cap.max_raises": 5, "reopen.limit_rule": "full_bet"}
    assert book.disabled == {"raise-caps.no-cap-in-big-bet-games": "a limit room"}


BAD = {
    "R601 extends a missing book": (HEAD.replace("extends: standard", "extends: riverside"), "R601"),
    "R602 extends itself": (HEAD.replace("extends: standard", "extends: trial.yaml"), "R602"),
    "Y006 empty": ("\n\n", "Y006"),
    "R106 not a mapping": ("- rulebook: trial\n- extends: standard\n", "R106"),
    "R301 code hidden in an expression": (HEAD + textwrap.dedent("""\
        rules:
          - id: trial.sneaky
            title: Sneaky
            cites: [HOUSE-TRIAL-1]
            text: A rule that tries to reach Python.
            when: {structure: fixed-limit}
            then:
              ruling: sneaky
              decides: limits
              effects: {to_call: "to_call.__class__.__mro__[1].__subclasses__()"}
            examples:
              - {name: a, incident: {}, expect: {ruling: sneaky}}
              - {name: b, incident: {}, expect: {fires: false}}
        """), "R301"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_house_book_is_refused_whole(case, tmp_path, capsys):
    text, code = BAD[case]
    house = write(tmp_path, "trial.yaml", text)
    with pytest.raises(ProblemsError) as err:
        books.load(str(house))
    assert code in {p.code for p in err.value.problems}
    assert str(house.resolve()) not in books._CACHE      # nothing half-loaded, nothing cached
    exit_code, _, stderr = run(["rules", "--house", str(house)], capsys)
    assert exit_code == 1 and f"error {code}:" in stderr


def test_house_books_extending_each_other_in_a_loop_are_refused(tmp_path):
    a = write(tmp_path, "a.yaml", "rulebook: a\nextends: b\ntitle: A\n")
    write(tmp_path, "b.yaml", "rulebook: b\nextends: a\ntitle: B\n")
    with pytest.raises(ProblemsError) as err:
        load_house(a, standard_book())
    assert [p.code for p in err.value.problems] == ["R602"]
    assert "a -> b -> a" in err.value.problems[0].message


def test_not_utf8_and_50_mb_house_books_are_refused(tmp_path):
    latin = tmp_path / "latin.yaml"
    latin.write_bytes((HEAD + "# Café\n").encode("latin-1"))
    huge = tmp_path / "huge.yaml"
    with huge.open("wb") as f:
        f.truncate(50 * 1024 * 1024)
    for path, code in ((latin, "Y009"), (huge, "Y007")):
        with pytest.raises(ProblemsError) as err:
            load_house(path, standard_book())
        assert [p.code for p in err.value.problems] == [code]


def test_a_failed_house_leaves_the_standard_book_untouched(tmp_path):
    house = write(tmp_path, "trial.yaml", HEAD + textwrap.dedent("""\
        parameters: {raise_cap.max_raises: 4}
        disable: [{rule: raise-caps.cap-reached, reason: test}]
        rules:
          - {id: trial.broken, exception_to: raise-caps.nope}
        """))
    standard = standard_book()
    before = (dict(standard.rules), dict(standard.settings), dict(standard.disabled))
    with pytest.raises(ProblemsError):
        load_house(house, standard)
    assert (dict(standard.rules), dict(standard.settings), dict(standard.disabled)) == before


def test_r109_a_house_exception_claiming_a_standard_exceptions_case(tmp_path):
    """The standard small-blind rule already claims its case as an exception to pot-limit.maximum."""
    std = standard_book().rules["pot-limit.small-blind-as-big-blind"]
    house = write(tmp_path, "trial.yaml", HEAD + textwrap.dedent("""\
        rules:
          - id: trial.small-blind
            exception_to: pot-limit.maximum
            title: Same case
            cites: [RRP-PL-5]
            text: The same case again.
            when:
              structure: pot-limit
              street: preflop
              param.pot_limit.sb_counts_as_bb: true
              preflop_bb_acted: false
              said: false
              chips_put_out: false
              min_raise_to: {present: true}
            then: {ruling: pot-limit-range, decides: limits}
            examples:
              - {name: a, incident: {}, expect: {ruling: pot-limit-range}}
              - {name: b, incident: {}, expect: {fires: false}}
        """))
    assert std.exception_to == "pot-limit.maximum"
    with pytest.raises(ProblemsError) as err:
        load_house(house, standard_book())
    assert [p.code for p in err.value.problems] == ["R109"]


def test_test_house_reports_changes_by_the_house_not_failures(capsys):
    code, out, _ = run(["test", "--house", "tda-series"], capsys)
    assert code == 0
    assert ("CHANGED BY THE HOUSE pot-limit.small-blind-as-big-blind: $5/$10 with the small blind counted as a big "
            "blind, the first raise can go to $40\n    changed by: rule pot-limit.small-blind-as-big-blind disabled") in out
    assert ("CHANGED BY THE HOUSE raise-caps.cap-reached: $20/$40, A bets, B raises, C re-raises, A caps at $80; "
            "B owes two more bets, $40\n    changed by: parameter raise_cap.max_raises (3 -> 4)\n") in out
    # the house's own example: the standard book refuses a fifth bet; the house allows it and holds 'raise' to a call
    assert ("CHANGED BY THE HOUSE tda-series.raise-at-cap-is-call: 'raise' at 1,000 on a capped 200-400 flop is a "
            "call to 1,000\n    changed by: parameter raise_cap.max_raises (3 -> 4); rule raise-caps.raise-at-cap-is-call"
            " replaced by tda-series.raise-at-cap-is-call") in out
    assert out.splitlines()[-1].endswith("changed by the house, 0 failed")


def test_test_house_fails_a_change_the_house_did_not_declare(tmp_path, capsys):
    """A house rule that wins over a standard rule only by being narrower was not declared an exception."""
    house = write(tmp_path, "trial.yaml", HEAD + textwrap.dedent("""\
        rules:
          - id: trial.cap-is-four-bets
            title: Four bets cap a flop
            cites: [HOUSE-TRIAL-1]
            text: Four bets cap a flop.
            when:
              structure: fixed-limit
              street: flop
              players_dealt: {at_least: 3}
              facing_bet: true
              can_raise: false
              said: false
              chips_put_out: false
              current_bet: {at_least: "small_bet * 4"}
            then: {ruling: capped-here, decides: limits, effects: {to_call: to_call}}
            examples:
              - name: four bets on a $20 flop
                incident: {game: {structure: fixed-limit, blinds: [10, 20], bet_sizes: [20, 40]}, button: 3,
                           players: {1: 1000, 2: 1000, 3: 1000}, street: flop, pot: 60,
                           actions: [{seat: 1, action: bet, to: 20}, {seat: 2, action: raise, to: 40},
                                     {seat: 3, action: raise, to: 60}, {seat: 1, action: raise, to: 80}],
                           disputed: {seat: 2}}
                expect: {ruling: capped-here, effects: {to_call: 40}}
              - name: three bets
                incident: {game: {structure: fixed-limit, blinds: [10, 20], bet_sizes: [20, 40]}, button: 3,
                           players: {1: 1000, 2: 1000, 3: 1000}, street: flop, pot: 60,
                           actions: [{seat: 1, action: bet, to: 20}, {seat: 2, action: raise, to: 40},
                                     {seat: 3, action: raise, to: 60}],
                           disputed: {seat: 1}}
                expect: {fires: false}
        """))
    code, out, _ = run(["test", "--house", str(house)], capsys)
    assert code == 1
    assert "FAIL raise-caps.cap-reached" in out and "overridden by trial.cap-is-four-bets" in out
    assert ("changed by: added rule trial.cap-is-four-bets, which is not declared an exception to "
            "raise-caps.cap-reached nor its replacement") in out
    # `rulings diff` lists the same six examples (two failed, four changed) with the same cause; the
    # standard exception capped-before-heads-up-stays-capped inherits cap-reached's tests, so it is
    # narrower than the trial rule and keeps its own ruling
    from tests.test_house_changes_agree import changed_in_test_output, words
    assert main(["diff", str(house), "--format", "json"]) == 0
    from_diff = {(e["rule"], e["example"]): words(e) for e in json.loads(capsys.readouterr().out)["examples"]}
    assert changed_in_test_output(out) == from_diff and len(from_diff) == 6
    assert set(from_diff.values()) == {"changed by: added rule trial.cap-is-four-bets"}


def test_r402_a_house_example_refused_for_missing_fields_points_at_example_defaults(tmp_path, capsys):
    # A manager copies a standard clock example into his house book: in clock.yaml the file's
    # example_defaults gave it the game and the button, here nothing does. The hint used to say
    # "fix the example's expectation or the rule", which is not what is wrong.
    book = write(tmp_path, "clock-house.yaml", HEAD + textwrap.dedent("""\
        parameters: {clock.seconds: 30}
        rules:
          - id: trial.expired-facing-bet
            replaces: clock.expired-facing-bet
            title: Out of time facing a bet, the hand is dead
            cites: [TDA-2024-29]
            text: Out of time facing a bet, the hand is dead.
            when:
              clock_facing_bet: true
              clock_seconds_taken: {above: param.clock.seconds + param.clock.countdown_seconds}
            then: {ruling: hand-dead, decides: clock, say: "His hand is dead."}
            examples:
              - name: cash, 41 seconds facing a bet (30 + 10 allowed)
                incident: {players: {1: 500, 2: 500, 3: 500, 4: 500},
                           procedure: {clock: {seat: 4, called_by: floor, facing_bet: true, seconds_taken: 41}}}
                expect: {ruling: hand-dead}
              - name: cash, 40 seconds is in time
                incident: {players: {1: 500, 2: 500, 3: 500, 4: 500},
                           procedure: {clock: {seat: 4, called_by: floor, facing_bet: true, seconds_taken: 40}}}
                expect: {fires: false}
        """))
    code, out, err = run(["lint", str(book)], capsys)
    assert code == 1
    assert err.count("error R402") == 2 and "button: which seat has the button?" in err
    assert err.count("hint: complete the example's incident, or give what the book's examples share once in "
                     "example_defaults:") == 2
    assert "fix the example's expectation" not in err
    fixed = book.read_text().replace("rules:\n", "example_defaults:\n  game: {structure: no-limit, blinds: [1, 2]}\n"
                                     "  button: 1\nrules:\n", 1)
    book.write_text(fixed)
    code, out, err = run(["lint", str(book)], capsys)
    assert code == 0, err
