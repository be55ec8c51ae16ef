"""Declarations and misdeclared calls: refusals, inventory coverage, parameters, and the example incidents."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rulings.ruling import books
from rulings.rulebook.catalogue import citations
from rulings.incident import incident_from_text
from rulings.problems import ProblemsError

ROOT = Path(__file__).resolve().parents[1]
HEAD = """game: {structure: no-limit, blinds: [1, 2]}
button: 3
players: {1: 1000, 2: 1000, 3: 1000}
street: flop
pot: 100
actions: [{seat: 1, action: bet, to: 100}]
"""


def refused(disputed: str) -> list:
    with pytest.raises(ProblemsError) as exc:
        incident_from_text(HEAD + disputed, "bad.yaml")
    return exc.value.problems


def test_i108_chips_per_motion_that_do_not_add_up():
    problems = refused("disputed: {seat: 2, motions: [[100], [100]], chips_total: 300}\n")
    assert [(p.code, p.line) for p in problems] == [("I108", 7)]
    assert "add up to 200, not 300" in problems[0].message


def test_i108_count_answer_without_a_count_asked():
    problems = refused("disputed: {seat: 2, said: call, count_answer: 50}\n")
    assert [p.code for p in problems] == ["I108"] and "disputed.count_answer" in problems[0].message


def test_i108_prior_pulled_without_prior_chips():
    assert [p.code for p in refused("disputed: {seat: 2, chips: [100], prior_pulled: all}\n")] == ["I108"]


def test_unreadable_declaration_is_a_question_not_a_guess(standard):
    from rulings.ruling.decide import rule_on
    book, engine = standard
    report = rule_on(incident_from_text(HEAD + "disputed: {seat: 2, said: 'if you bet I raise'}\n"), book, engine)
    assert any(q["fact"] == "said_kind" for q in report.questions)


def test_every_section_2_and_4_key_is_cited_or_explained():
    book, _ = books.load(compile=False)
    cited = {k for r in book.rules.values() for k in r.cites} | {k for p in book.parameters.values() for k in p.cites}
    keys = {k for k, c in citations().items() if c.topic.startswith(("String", "Misdeclared"))}
    readme = (ROOT / "docs" / "rulebooks.md").read_text(encoding="utf-8")   # moved from the README
    assert sorted(k for k in keys - cited if k not in readme) == []


PARAMS = ["string.cash_declared_raise_multi_motion", "string.penalty", "string.enforced_by", "declaration.precedence",
          "silent_raise.threshold", "silent_underraise.policy", "overchip.facing_bet", "overchip.opening",
          "misunderstood_call.policy", "misunderstood_call.threshold", "undercall.policy"]


@pytest.mark.parametrize("name", PARAMS)
def test_each_parameter_value_has_an_example_that_changes_a_ruling(name):
    book, _ = books.load(compile=False)
    param = book.parameters[name]
    seen = set()
    for rule in book.rules.values():
        for ex in rule.examples:
            setting = ex.incident.get("game", {}).get("setting", "cash")
            value = ex.incident.get("params", {}).get(name, param.default_for(setting))
            if any(name in str(c) for c in rule.when):
                seen.add(value)
    wanted = set(param.values) if param.values else {param.default_for("cash")}
    assert wanted <= seen, f"{name}: no example with {wanted - seen}"


def rule_json(name: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "cli.main", "rule", f"examples/incidents/{name}.yaml",
                          "--format", "json"], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_rrp_br_string_example_incident_is_a_call_with_200_back():
    report = rule_json("string-raise-two-trips")
    ruling = next(r for r in report["rulings"] if r["decides"] == "wager")
    assert ruling["rule"] == "declarations.string-raise-is-call"
    assert ruling["effects"] == {"wager_to": 100, "returned": 200}
    assert {c["key"] for c in ruling["citations"] if not c.get("via")} == {"RRP-BR-STRING", "CP-ODP-2007"}
    assert ruling["convention"].startswith("Robert's Rules")


def test_rrp_nl_10_example_incident_is_discretionary():
    report = rule_json("misdeclared-gross-misunderstanding")
    ruling = next(r for r in report["rulings"] if r["decides"] == "wager")
    assert ruling["rule"] == "misdeclared-calls.gross-misunderstanding"
    assert ruling["effects"] == {"returned": 100}
    assert ruling["discretion"]["usual"] and len(ruling["discretion"]["weigh"]) == 3


def test_tda_2024_45_example_incident_forces_1700():
    report = rule_json("misdeclared-multi-chip")
    ruling = next(r for r in report["rulings"] if r["decides"] == "wager")
    assert ruling["effects"] == {"wager_to": 1700, "owed": 200}
    assert "TDA-2024-45" in {c["key"] for c in ruling["citations"]}


def test_a_seat_asked_about_with_no_act_has_acted_out_of_turn_in_nothing(standard):
    # $1/$2, $60 in the pot, seat 2 first to act on the flop: asking what seat 4 may do describes no act, so
    # TDA 2024 rule 53 has nothing to hold him to; his options are the ruling. With "bet 40" said, it binds.
    from rulings.ruling.decide import rule_on
    book, engine = standard
    head = ("game: {structure: no-limit, blinds: [1, 2]}\nbutton: 1\nplayers: {1: 300, 2: 300, 3: 300, 4: 300}\n"
            "street: flop\npot: 60\n")
    report = rule_on(incident_from_text(head + "disputed: {seat: 4}\n"), book, engine)
    assert report.facts["in_turn"] is False and "out_of_turn_changed" not in report.facts
    assert [r.rule for r in report.rulings] == ["options.check-or-bet"]
    report = rule_on(incident_from_text(head + "disputed: {seat: 4, said: 'bet 40'}\n"), book, engine)
    assert report.facts["out_of_turn_changed"] is False
    assert "declarations.out-of-turn-binds" in [r.rule for r in report.rulings]


def test_out_of_turn_bet_given_back_faces_the_bet_made_after_it(standard):
    # $1/$2, $60 in the pot: seat 2 checks, seat 4 bets $40 out of turn, then seat 3 (skipped) bets $25.
    # TDA 2024 rule 53: the action changed, so the $40 goes back and seat 4 faces the $25, not the $0 before it.
    # Only chips that moved go back: said alone, "bet 40" put nothing in, and nothing is handed back.
    from rulings.ruling.now import now
    from rulings.ruling.decide import rule_on
    book, engine = standard
    text = ("game: {structure: no-limit, blinds: [1, 2]}\nbutton: 1\nplayers: {1: 300, 2: 300, 3: 300, 4: 300}\n"
            "street: flop\npot: 60\nactions: [{seat: 2, action: check}]\n"
            "after: [{seat: 3, action: bet, to: 25}]\n")
    incident = incident_from_text(text + "disputed: {seat: 4, said: 'bet 40', chips: [20, 20]}\n")
    report = rule_on(incident, book, engine)
    ruling = next(r for r in report.rulings if r.decides == "out-of-turn")
    assert ruling.rule == "declarations.out-of-turn-action-changed"
    assert ruling.effects == {"to_call": 2500, "returned": 4000}
    assert "$40 is void and goes back to him" in ruling.sentence and "$25 to call" in ruling.sentence
    assert "Seat 4 gets $40 back and faces $25 to call." in now(incident, report)
    incident = incident_from_text(text + "disputed: {seat: 4, said: 'bet 40'}\n")
    report = rule_on(incident, book, engine)
    ruling = next(r for r in report.rulings if r.decides == "out-of-turn")
    assert ruling.effects == {"to_call": 2500, "returned": 0}
    assert "action is void" in ruling.sentence and "goes back" not in ruling.sentence
    assert "Seat 4 faces $25 to call." in now(incident, report)


HOLDEM_6 = ("game: {structure: no-limit, blinds: [1, 2]}\nbutton: 6\n"
            "players: {1: 300, 2: 300, 3: 300, 4: 300, 5: 300, 6: 300}\nstreet: preflop\n")


def _out_of_turn(standard, text: str):
    from rulings.ruling.decide import rule_on
    book, engine = standard
    report = rule_on(incident_from_text(HOLDEM_6 + text), book, engine)
    derived = {d["fact"]: d["value"] for d in report.derived}
    return report, derived, next(r for r in report.rulings if r.decides == "out-of-turn")


def test_skipped_seats_catching_up_are_not_substantial_action_to_their_left(standard):
    # $1/$2, six seats, button 6: seat 3 is first to act preflop. Seat 5 says "raise to 6" out of turn; the action
    # goes back and the skipped seats 3 and 4 each call the $2 big blind. Their calls are play resumed in turn,
    # not action to the skipped players' left before they spoke (TDA-2024-53): no substantial action (TDA-2024-36)
    # went by, nobody in between bet or raised, so the $6 raise binds.
    report, derived, ruling = _out_of_turn(standard, "disputed: {seat: 5, said: 'raise to 6'}\n"
                                  "after: [{seat: 3, action: call, to: 2}, {seat: 4, action: call, to: 2}]\n")
    assert (report.facts["actions_since"], report.facts["chip_actions_since"]) == (0, 0)
    assert derived["substantial_action"] is False and report.facts["out_of_turn_changed"] is False
    assert ruling.rule == "declarations.out-of-turn-binds"
    assert report.rulings[0] is ruling   # the dispute is the act out of turn: that it binds leads
    assert next(r for r in report.rulings if r.decides == "wager").effects["wager_to"] == 600


def test_seats_left_of_the_out_of_turn_raise_acting_before_the_skipped_seat_speaks_are_substantial(standard):
    # Seat 4 says "raise to 6" while seat 3 is due; seats 5 and 6 each call $6 before seat 3 acts: two actions
    # with chips to seat 3's left (TDA-2024-36), so the raise stands and the floor decides (TDA-2024-53). Seat 3's
    # own fold afterwards is not counted: the count is the two calls.
    report, derived, ruling = _out_of_turn(standard, "disputed: {seat: 4, said: 'raise to 6'}\n"
                                  "after: [{seat: 5, action: call, to: 6}, {seat: 6, action: call, to: 6},"
                                  " {seat: 3, action: fold}]\n")
    assert (report.facts["actions_since"], report.facts["chip_actions_since"]) == (2, 2)
    assert ruling.rule == "declarations.skipped-player-too-late"
    # The raise out of turn counts itself (TDA 2024 rules 53-B and 36): with seat 5's call before seat 3 speaks
    # that is two actions with chips, substantial action, and the raise stands.
    report, derived, ruling = _out_of_turn(standard, "disputed: {seat: 4, said: 'raise to 6'}\n"
                                  "after: [{seat: 5, action: call, to: 6}, {seat: 3, action: call, to: 6},"
                                  " {seat: 6, action: call, to: 6}]\n")
    assert (report.facts["out_of_turn_actions"], report.facts["out_of_turn_chip_actions"]) == (2, 2)
    assert ruling.rule == "declarations.skipped-player-too-late"
    # Seat 3 speaking up at once: the raise out of turn alone is one action, not substantial, and it binds.
    report, derived, ruling = _out_of_turn(standard, "disputed: {seat: 4, said: 'raise to 6'}\n"
                                  "after: [{seat: 3, action: call, to: 6}, {seat: 5, action: call, to: 6}]\n")
    assert report.facts["out_of_turn_actions"] == 1
    assert ruling.rule == "declarations.out-of-turn-binds"


def test_a_skipped_seat_that_raises_still_changes_the_action(standard):
    # Seat 5 says "raise to 6" out of turn; skipped seat 3 calls $2 and seat 4 raises to $8: the action seat 5
    # faced changed (TDA-2024-53), so his raise is void (said only, nothing went in to go back) and he faces $8
    # to call, with every option: a raise now goes to at least $14 (seat 4's $6 raise on top of $8).
    report, derived, ruling = _out_of_turn(standard, "disputed: {seat: 5, said: 'raise to 6'}\n"
                                  "after: [{seat: 3, action: call, to: 2}, {seat: 4, action: raise, to: 8}]\n")
    assert report.facts["actions_since"] == 0
    assert ruling.rule == "declarations.out-of-turn-action-changed"
    assert ruling.effects == {"to_call": 800, "returned": 0}
    assert report.facts["out_of_turn_min_raise_to"] == 1400 and "raise to at least $14" in ruling.sentence
