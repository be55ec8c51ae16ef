"""Conclusions come from the hand: when the actions are given, the last aggressor, a checked final round,
who is in and who is all in, the end of the betting, substantial action and whether the seat on the clock
faces a bet are worked out from them (rulings/incident/hand_says.py); the floor is asked only where the hand does not
say, and a statement the hand contradicts is refused (I145), every one at once."""
from __future__ import annotations

import pytest

from rulings.ruling.consult import Consultation
from rulings.incident import incident_from_data
from rulings.problems import ProblemsError
from rulings.ruling.decide import rule_on

# TDA 2024 rule 16, additional example 3: seat 1 is all in for 700 preflop and called by two players; 1,000
# is bet and called on the turn; the river is checked, so a 2,000 side pot is awarded first.
EX3 = {"game": {"structure": "no-limit", "setting": "tournament", "blinds": [100, 200]}, "button": 3,
       "players": {1: 700, 2: 5000, 3: 5000},
       "streets": [
           {"street": "preflop", "actions": [{"seat": 3, "action": "call"}, {"seat": 1, "action": "raise", "to": 700},
                                             {"seat": 2, "action": "call"}, {"seat": 3, "action": "call"}]},
           {"street": "flop", "board": "Ah 7c 2d", "actions": [{"seat": 2, "action": "check"},
                                                              {"seat": 3, "action": "check"}]},
           {"street": "turn", "board": "Ks", "actions": [{"seat": 2, "action": "bet", "to": 1000},
                                                        {"seat": 3, "action": "call"}]},
           {"street": "river", "board": "5s", "actions": [{"seat": 2, "action": "check"},
                                                         {"seat": 3, "action": "check"}]}],
       "procedure": {"showdown": {}}}


def _with_river(actions, **showdown):
    """EX3 with another river, in a cash game (no face-up rule: the show order is the ruling)."""
    streets = [*EX3["streets"][:3], {"street": "river", "board": "5s", "actions": actions}]
    return {**EX3, "game": {**EX3["game"], "setting": "cash"}, "streets": streets,
            "procedure": {"showdown": showdown}}


def _rule(standard, data):
    book, engine = standard
    return rule_on(incident_from_data(data), book, engine)


def _refused(data):
    with pytest.raises(ProblemsError) as got:
        incident_from_data(data)
    return got.value.problems


def test_the_all_in_showdown_is_worked_out_from_the_hand(standard):
    report = _rule(standard, EX3)
    facts = report.facts
    assert facts["sd_river_checked"] is True and facts["sd_player_all_in"] is True and facts["sd_betting_done"] is True
    assert facts["sd_main_pot_only_seats"] == "1" and facts["sd_side_pot_seats"] == "2 and 3"
    # the river was checked: of the side pot's players the first left of the button (seat 2), then 3, then 1
    assert facts["sd_side_first_to_act"] == 2 and facts["sd_show_order"] == "2, 3, 1"
    face_up = next(r for r in report.rulings if r.decides == "face-up")
    assert face_up.rule == "showdown.all-in-face-up-side-pot-first" and "seat 1" in face_up.sentence
    # in a cash game (no face-up rule) the side pot's order is the ruling
    cash = _rule(standard, {**EX3, "game": {**EX3["game"], "setting": "cash"}})
    show = next(r for r in cash.rulings if r.decides == "show-order")
    assert show.effects["shows_first"] == 2 and show.effects["show_order"] == "2, 3, 1"
    assert not [q for q in report.questions if q.get("fact", "").startswith("sd_")]


def test_a_bet_and_raise_on_the_river_make_the_raiser_the_last_aggressor(standard):
    # the river bet 1,000 by seat 2, raised to 3,000 by seat 3 and called: seat 3 shows first (TDA-2024-17)
    river = [{"seat": 2, "action": "bet", "to": 1000}, {"seat": 3, "action": "raise", "to": 3000},
             {"seat": 2, "action": "call"}]
    report = _rule(standard, _with_river(river))
    assert report.facts["sd_last_aggressor"] == 3 and report.facts["sd_river_checked"] is False
    assert report.facts["sd_river_bet"] is True
    assert next(r for r in report.rulings if r.decides == "show-order").effects["shows_first"] == 3
    # the other side: the bet called without a raise leaves the bettor the last aggressor
    called = _rule(standard, _with_river(river[:1] + [{"seat": 3, "action": "call"}]))
    assert called.facts["sd_last_aggressor"] == 2
    assert next(r for r in called.rulings if r.decides == "show-order").effects["shows_first"] == 2
    # the floor may still state what the hand says
    agreed = _rule(standard, _with_river(river, last_aggressor=3, river_checked=False))
    assert next(r for r in agreed.rulings if r.decides == "show-order").effects["shows_first"] == 3


def test_what_the_hand_contradicts_is_refused_every_problem_at_once():
    river = [{"seat": 2, "action": "bet", "to": 1000}, {"seat": 3, "action": "raise", "to": 3000},
             {"seat": 2, "action": "call"}]
    problems = _refused(_with_river(river, last_aggressor=2, river_checked=True, player_all_in=False))
    by_field = {p.path[-1]: p for p in problems}
    assert {p.code for p in problems} == {"I145"} and set(by_field) == {"last_aggressor", "river_checked",
                                                                          "player_all_in"}
    assert "seat 2" in by_field["last_aggressor"].message and "seat 3" in by_field["last_aggressor"].message
    assert by_field["last_aggressor"].line > 0 and by_field["last_aggressor"].hint
    # a seat that folded named in the showdown
    folded = {**EX3, "streets": [{"street": "preflop", "actions": [
        {"seat": 3, "action": "fold"}, {"seat": 1, "action": "raise", "to": 700}, {"seat": 2, "action": "call"}]},
        *EX3["streets"][1:2]], "procedure": {"showdown": {"in_showdown": [1, 2, 3]}}}
    folded["streets"][1] = {"street": "flop", "board": "Ah 7c 2d", "actions": []}
    (p,) = _refused(folded)
    assert p.code == "I145" and "seat 3" in p.message and p.path[-1] == "in_showdown"


def test_a_round_not_finished_says_nothing_of_the_last_aggressor(standard):
    # the river bet of 1,000 is listed but seat 3 has not acted: the bet was made (no check-through), and who
    # raises last is not known yet, so it is neither derived nor refused
    data = _with_river([{"seat": 2, "action": "bet", "to": 1000}], last_aggressor=3)
    incident = incident_from_data(data)
    report = _rule(standard, data)
    assert report.facts["sd_river_checked"] is False and report.facts["sd_last_aggressor"] == 3
    assert incident.procedure.raw["showdown"] == {"last_aggressor": 3}


def test_substantial_action_is_counted_from_the_hand(standard):
    # TDA 2024 rule 34-A's example: the button moved two seats; UTG raises and UTG+1 calls before it is found.
    # Two actions in turn, both with chips: substantial action (TDA-2024-36), the hand plays on. The hand gives
    # the counts; the one substantial-action rule (pot-limit.substantial-action) says what they are.
    six = {"game": {"structure": "no-limit", "setting": "tournament", "blinds": [100, 200]}, "button": 1,
           "players": {s: 20000 for s in range(1, 7)}, "street": "preflop",
           "procedure": {"button": {"wrong_move": True}}}
    raise_call = [{"seat": 4, "action": "raise", "to": 600}, {"seat": 5, "action": "call"}]

    def substantial(report):
        return next(d for d in report.derived if d["fact"] == "substantial_action")

    report = _rule(standard, {**six, "actions": raise_call})
    assert (report.facts["actions_since"], report.facts["chip_actions_since"]) == (2, 2)
    assert substantial(report) == {"fact": "substantial_action", "value": True, "by": "pot-limit.substantial-action",
                                   "chain": ["pot-limit.substantial-action"]}
    assert [r.rule for r in report.rulings] == ["button.wrong-move-stands"]
    # one action (the raise alone), or two folds (two actions, no chips): not yet; the button is put right
    for actions in (raise_call[:1], [{"seat": 4, "action": "fold"}, {"seat": 5, "action": "fold"}]):
        fixed = _rule(standard, {**six, "actions": actions})
        assert substantial(fixed)["value"] is False
        assert [r.rule for r in fixed.rulings] == ["button.wrong-move-corrected"]
    # three folds are three actions: substantial
    three = [{"seat": s, "action": "fold"} for s in (4, 5, 6)]
    assert substantial(_rule(standard, {**six, "actions": three}))["value"] is True
    # the floor saying whether there was any, with the actions listed, is refused: the hand decides it
    for told in (False, True):
        problems = _refused({**six, "actions": raise_call, "procedure": {"button": {"wrong_move": True,
                                                                                    "substantial_action": told}}})
        assert [p.code for p in problems] == ["I145"]
    # with no actions listed the hand says nothing: the floor's word stands
    told = _rule(standard, {**six, "procedure": {"button": {"wrong_move": True, "substantial_action": True}}})
    assert substantial(told)["by"] == "deal.substantial-action-as-told" and substantial(told)["value"] is True


def test_the_hand_is_not_asked_for_what_it_shows(standard):
    book, engine = standard
    river = [{"seat": 2, "action": "bet", "to": 1000}, {"seat": 3, "action": "call"}]
    step = Consultation(book, engine).step(_with_river(river))
    asked = {q["fact"] for q in step.questions} | {q["fact"] for q in step.also}
    assert not asked & {"sd_last_aggressor", "sd_river_checked", "sd_player_all_in", "sd_betting_done"}
    assert step.outcome == "ruled"
    # told without its actions, the same showdown does ask
    bare = {k: v for k, v in EX3.items() if k != "streets"}
    bare["street"] = "river"
    bare["pot"] = 2100
    asked_bare = Consultation(book, engine).step(bare)
    assert {q["fact"] for q in asked_bare.questions} & {"sd_river_checked", "sd_player_all_in", "sd_betting_done"}


def test_the_clock_on_the_seat_to_act_faces_the_bet_the_hand_shows(standard):
    # TDA-2024-30: the clock called on seat 3 facing seat 2's 1,000 on the river
    data = _with_river([{"seat": 2, "action": "bet", "to": 1000}])
    data["procedure"] = {"clock": {"seat": 3, "called_by": "floor"}}
    assert _rule(standard, data).facts["clock_facing_bet"] is True
    checked = _with_river([{"seat": 2, "action": "check"}])
    checked["procedure"] = {"clock": {"seat": 3, "called_by": "floor"}}
    assert _rule(standard, checked).facts["clock_facing_bet"] is False
    checked["procedure"]["clock"]["facing_bet"] = True
    assert [p.code for p in _refused(checked)] == ["I145"]


@pytest.mark.parametrize("showdown", [{"last_aggressor": "three"}, {"in_showdown": "all"}, {"river_checked": 1},
                                      {"in_showdown": [1, 9]}, {"claimant": 2, "claimant_folded": "no"}])
def test_hostile_showdown_fields_next_to_a_hand_are_refused_not_a_traceback(showdown):
    problems = _refused({**EX3, "procedure": {"showdown": showdown}})
    assert problems and all(p.code.startswith("I1") for p in problems)


def test_the_final_round_is_the_last_street_of_each_game_family():
    from rulings.incident.fields import STREETS
    from rulings.incident.hand_says import FINAL
    assert {family: FINAL[family] for family in STREETS} == {family: streets[-1] for family, streets in STREETS.items()}
