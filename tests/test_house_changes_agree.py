"""`rulings test --house` and `rulings diff` name the same changed examples and the same house change behind each."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cli.main import main

ROOT = Path(__file__).resolve().parents[1]
HOUSES = sorted(p.stem for p in (ROOT / "rulebooks" / "houses").glob("*.yaml"))
HEAD = re.compile(r"^(?P<origin>\S+): (?P<verdict>CHANGED BY THE HOUSE|FAIL) (?P<rule>\S+): (?P<example>.*)$")


def run(argv: list[str], capsys) -> tuple[int, str]:
    code = main(argv)
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out


def changed_in_test_output(out: str) -> dict[tuple[str, str], str]:
    """(rule, example) -> the 'changed by' words of each example `rulings test --house` says the house changed."""
    lines = out.splitlines()
    found = {}
    for head, detail in zip(lines, lines[1:]):
        m = HEAD.match(head)
        if m and "changed by" in detail:
            found[(m["rule"], m["example"])] = detail[detail.index("changed by"):].split(", which is not declared")[0]
    return found


def diff_examples(house: str, capsys) -> dict[tuple[str, str], dict]:
    code, out = run(["diff", house, "--format", "json"], capsys)
    assert code == 0
    return {(e["rule"], e["example"]): e for e in json.loads(out)["examples"]}


def words(e: dict) -> str:
    how = {"but-for": "", "each alone": " (each alone gives this ruling)", "together": " (only together)"}[e["found"]]
    return f"changed by{how}: " + "; ".join(e["causes"])


@pytest.mark.parametrize("house", HOUSES)
def test_test_and_diff_name_the_same_examples_and_causes(house, capsys):
    code, out = run(["test", "--house", house], capsys)
    assert code == 0, out
    from_test = changed_in_test_output(out)
    from_diff = diff_examples(house, capsys)
    assert from_test.keys() == from_diff.keys()
    assert from_test == {k: words(e) for k, e in from_diff.items()}
    assert all(e["causes"] for e in from_diff.values())          # every changed example names what changed it
    assert f"{len(from_test)} changed by the house, 0 failed" in out.splitlines()[-1]


def test_tda_series_the_five_bet_cap_turns_a_capped_round_into_one_raise_more(capsys):
    e = diff_examples("tda-series", capsys)[("raise-caps.cap-reached", "$20/$40, A bets, B raises, C re-raises, "
                                                                       "A caps at $80; B owes two more bets, $40")]
    assert e["before"] == ["raise-caps.cap-reached: capped (to_call $40, call_to $80)"]
    assert e["after"] == ["options.reopened-by-full-raise: options-reopened (to_call $40, min_raise_to $100, call_to $80)",
                          "raise-caps.last-raise-caps-the-round: last-raise (to_call $40, min_raise_to $100, call_to $80)"]
    assert (e["causes"], e["found"], e["book"]) == (["parameter raise_cap.max_raises (3 -> 4)"], "but-for", "standard")


def test_tda_series_either_shorter_clock_alone_puts_70_seconds_out_of_time(capsys):
    # 70 seconds against 60 + 10 is in time; the house's 25 + 5 is not, nor 60 + 5, nor 25 + 10
    e = diff_examples("tda-series", capsys)[("clock.acted-in-time", "cash, 70 seconds is still within one minute "
                                                                    "and the 10-second warning")]
    assert (e["before"], e["after"]) == (["clock.acted-in-time: action-in-time"],
                                         ["clock.expired-facing-bet: hand-dead"])
    assert e["found"] == "each alone"
    assert e["causes"] == ["parameter clock.countdown_seconds (10 -> 5)", "parameter clock.seconds (60 -> 25)"]


def test_tda_series_a_disabled_rule_and_a_house_example_are_named(capsys):
    found = diff_examples("tda-series", capsys)
    sb = found[("pot-limit.small-blind-as-big-blind", "$5/$10 with the small blind counted as a big blind, "
                                                       "the first raise can go to $40")]
    assert sb["causes"] == ["rule pot-limit.small-blind-as-big-blind disabled"]
    own = found[("tda-series.cap-reached", "heads-up on a 200-400 turn, five bets cap it at 2,000")]
    assert own["book"] == "tda-series" and own["after"] == ["tda-series.cap-reached: capped (to_call 400, call_to 2,000)"]
    assert own["before"][0].startswith("refused: ")            # the standard book's cap forbids the fifth bet
    assert own["causes"] == ["parameter raise_cap.max_raises (3 -> 4)",
                             "house exception tda-series.cap-reached (to raise-caps.cap-reached)"]


def test_pnw_lowball_half_kill_makes_the_401_dollar_pot_kill_30_not_40(capsys):
    e = diff_examples("pnw-lowball", capsys)[("kill-pots.pot-size-trigger",
                                              "a $401 pot in $20/$40 forces its winner to kill for $40")]
    assert e["before"] == ["kill-pots.killer-acts-in-turn: killer-in-turn",
                           "kill-pots.pot-size-trigger: kill-required (killer 6, kill_blind $40, kill_small_bet $40, "
                           "kill_big_bet $80)"]
    assert e["after"] == ["kill-pots.killer-acts-last: killer-acts-last",
                          "kill-pots.pot-size-trigger: kill-required (killer 6, kill_blind $30, kill_small_bet $30, "
                          "kill_big_bet $60)"]
    assert e["causes"] == ["parameter kill.killer_acts (in_turn -> last_on_first_round)",
                           "parameter kill.size (full -> half)"]


def test_pnw_lowball_a_derive_only_example_changes_by_what_its_rule_derives(capsys):
    e = diff_examples("pnw-lowball", capsys)[("kill-pots.full-kill",
                                              "a full kill in $20/$40 is a $40 blind and the hand plays $40/$80")]
    assert "kill-pots.full-kill derives kill_blind = $40" in e["before"]
    assert not any("derives" in line for line in e["after"])
    assert e["causes"] == ["parameter kill.size (full -> half)"]


def test_east_coast_limit_split_pot_exception_alone_changes_a_split_500_dollar_pot(capsys):
    # the example sets the pot-size trigger itself, so the house's kill.trigger is no cause here: only its exception
    split = diff_examples("east-coast-limit", capsys)[("kill-pots.pot-size-split",
                                                       "seats 2 and 6 split a $500 pot in $20/$40")]
    assert split["before"] == ["kill-pots.pot-size-split: kill-unclear"]
    assert split["after"] == ["east-coast-limit.split-big-pot-no-kill: no-kill",
                              "kill-pots.pot-size-split overridden by east-coast-limit.split-big-pot-no-kill"]
    assert split["causes"] == ["house exception east-coast-limit.split-big-pot-no-kill (to kill-pots.pot-size-split)"]
