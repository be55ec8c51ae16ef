"""The betting-round topics (options, minimum raise, side pots, straddles, bring-in, table stakes):
the round facts they read, with the sources' numbers, and how much of the inventory they cite."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulings.ruling import books
from rulings.rulebook.catalogue import citations
from rulings.incident import incident_from_text
from rulings.ruling.decide import rule_on
from rulings.facts.situation import build

ROOT = Path(__file__).resolve().parents[1]
TDA47 = """game: {structure: no-limit, setting: tournament, blinds: [50, 100]}
button: 6
players: {1: 10000, 2: 125, 3: 10000, 4: 200, 5: 10000, 6: 10000}
street: flop
pot: 300
actions: [{seat: 1, action: bet, to: 100}, {seat: 2, action: raise, to: 125}, {seat: 3, action: call},
          {seat: 4, action: raise, to: 200}, {seat: 5, action: call}, {seat: 6, action: fold}]
"""


def facts_of(text: str) -> dict:
    book, _ = books.load(compile=False)
    incident = incident_from_text(text)
    return build(incident, book.param_values(incident.hand.game.setting, {})).facts


def test_tda_47_illustration_1_reopens_for_a_but_not_for_c_after_a_calls():
    a = facts_of(TDA47 + "disputed: {seat: 1}\n")
    assert (a["acted_this_round"], a["reopened"], a["raised_since"], a["min_raise_to"]) == (True, True, 10000, 30000)
    assert a["options"] == "fold, call 100 (to 200) or raise to 300 up to 10,000 (all-in)"
    assert a["next_seat"] == 3          # seat 2 is all-in and is skipped
    c = facts_of(TDA47.replace("{seat: 6, action: fold}]", "{seat: 6, action: fold}, {seat: 1, action: call}]")
                 + "disputed: {seat: 3}\n")
    assert (c["reopened"], c["raised_since"], c["raise_barred_by"], c["to_call"]) == (False, 7500, "not_reopened", 7500)
    assert c["options"] == "fold or call 75 (to 200)"


def test_a_call_is_stated_as_the_total_it_makes_where_the_seat_has_chips_in(standard):
    """Issue 43, class 2: the floor says "call to 200" as well as "call 75". TDA 47 illustration 1: C called 125
    and faces D's 200; A, who bet 100, faces 200 too. A seat with nothing in yet is told his call alone."""
    book, engine = standard
    c = rule_on(incident_from_text(TDA47.replace("{seat: 6, action: fold}]",
                                                 "{seat: 6, action: fold}, {seat: 1, action: call}]")
                                   + "disputed: {seat: 3}\n"), book, engine)
    top = next(r for r in c.rulings if "to_call" in r.effects)
    assert (top.effects["to_call"], top.effects["call_to"]) == (7500, 20000)
    assert "call 75 (to 200)" in top.sentence
    a = rule_on(incident_from_text(TDA47 + "disputed: {seat: 1}\n"), book, engine)
    assert next(r for r in a.rulings if "to_call" in r.effects).effects["call_to"] == 20000
    fresh = rule_on(incident_from_text(TDA47.split("actions:")[0] + "actions: [{seat: 1, action: bet, to: 100}]\n"
                                       + "disputed: {seat: 2}\n"), book, engine)
    said = [r for r in fresh.rulings if "to_call" in r.effects]
    assert said and all("call_to" not in r.effects for r in said)   # nothing in yet: "call 100" is the total


def test_side_pots_of_tda_47_as_they_stand():
    a = facts_of(TDA47 + "disputed: {seat: 5}\n")
    # 300 from the flop, then cut only at the all-ins (B at 125, D at 200): main 300 + 100 + 4 x 125 = 900 for
    # all five (A has 100 in but chips behind: he may still call); side 2 x 75 = 150 for all but B
    assert (a["main_pot"], a["side_pot_count"], a["side_pots_total"]) == (90000, 1, 15000)
    assert (a["seat_pot_count"], a["seat_can_win"]) == (2, 105000)
    assert a["pots_listed"] == "main pot 900 (seats 1, 2, 3, 4, 5); side pot 1 150 (seats 1, 3, 4, 5)"


def test_a_question_about_a_seat_is_answered_with_its_options(standard):
    book, engine = standard
    report = rule_on(incident_from_text(TDA47 + "disputed: {seat: 1}\n"), book, engine)
    top = report.rulings[0]
    assert top.rule == "options.reopened-by-full-raise"
    assert "raise to 300 up to 10,000" in top.sentence


def test_money_in_the_middle_is_a_pot_for_everyone_still_in_even_an_earlier_all_in():
    """TDA 16 illustration 3: the preflop all-in plays for the 2,100 from before the turn, not the 2,000 after."""
    f = facts_of("""game: {structure: no-limit, setting: tournament, blinds: [100, 200]}
button: 3
players: {1: 0, 2: 5000, 3: 5000}
street: turn
pot: 2100
actions: [{seat: 2, action: bet, to: 1000}, {seat: 3, action: call}]
disputed: {seat: 1}
""")
    assert (f["main_pot"], f["side_pots_total"], f["seat_can_win"], f["betting_done"]) == (210000, 200000, 210000, True)
    assert f["pots_listed"] == "main pot 2,100 (seats 1, 2, 3); side pot 1 2,000 (seats 2, 3)"


def test_uncalled_chips_are_known_only_once_nobody_can_match_them():
    head = """game: {structure: no-limit, blinds: [1, 2]}
button: 2
players: {1: 500, 2: 35}
street: flop
pot: 40
"""
    done = facts_of(head + "actions: [{seat: 1, action: bet, to: 84.50}, {seat: 2, action: call}]\ndisputed: {seat: 1}\n")
    assert (done["uncalled_seat"], done["uncalled_amount"], done["seat_uncalled"]) == (1, 4950, 4950)
    pending = facts_of(head + "actions: [{seat: 1, action: bet, to: 84.50}]\ndisputed: {seat: 2}\n")
    assert "uncalled_amount" not in pending and pending["call_short_of_bet"] == 4950


def test_the_new_incident_flags_are_read_and_checked(standard):
    from rulings.problems import ProblemsError
    base = TDA47 + "disputed: {seat: 1, from_pocket: %s}\n"
    assert facts_of(base % "true")["from_pocket"] is True
    with pytest.raises(ProblemsError) as exc:
        incident_from_text(base % "'yes'")
    assert [p.code for p in exc.value.problems] == ["I103"]


SECTIONS = {   # inventory section -> the topic name the citation catalogue gives it
    5: "All-in raises", 6: "Minimum raise", 7: "Raise caps", 8: "Side pots", 11: "Straddles",
    12: "Bring-in", 15: "Table stakes",
}


# Keys the inventory added to these sections after their rules were written, not yet cited by a rule that fires,
# each with why; docs/rulebooks.md lists them too. Taken out once a rule cites them (the test then says so).
NOT_YET = {
    "TDA-2024-RP1": "all-in markers: a dealing procedure, no ruling on a dispute",
}


def coverage() -> dict[int, tuple[int, int]]:
    """Per section: keys cited by a rule with an example that fires (a parameter's citation does not count),
    and all keys but NOT_YET's."""
    book, _ = books.load(compile=False)
    fired = {k for r in book.rules.values() if any(e.expect.get("fires", True) for e in r.examples) for k in r.cites}
    assert not fired & NOT_YET.keys(), "a key is cited now: take it out of NOT_YET"
    out = {}
    for n, prefix in SECTIONS.items():
        keys = {k for k, c in citations().items() if c.topic.startswith(prefix)} - NOT_YET.keys()
        out[n] = (len(keys & fired), len(keys))
    return out


@pytest.mark.parametrize("section,least", [(5, 1.0), (6, 1.0), (7, 1.0), (8, 1.0), (11, 1.0), (12, 1.0), (15, 1.0)])
def test_inventory_sections_cited_by_rules_that_fire(section, least):
    cited, total = coverage()[section]
    assert cited / total >= least, f"section {section}: {cited} of {total} keys cited"


PARAMS = ["straddle.allowed", "straddle.limit_games", "straddle.positions", "straddle.size", "straddle.restraddle",
          "showdown.all_in_face_up", "reopen.limit_rule", "buy_in.min_max_bets", "buy_in.short_allowed", "buy_in.max",
          "table_stakes.small_chips"]


@pytest.mark.parametrize("name", PARAMS)
def test_each_parameter_value_has_an_example_in_a_rule_that_reads_it(name):
    book, _ = books.load(compile=False)
    param = book.parameters[name]
    seen = set()
    for rule in book.rules.values():
        if not any(name in str(c) for c in rule.when):
            continue
        for ex in rule.examples:
            setting = ex.incident.get("game", {}).get("setting", "cash")
            seen.add(ex.incident.get("params", {}).get(name, param.default_for(setting)))
    if param.type == "enum" or param.type == "bool":
        wanted = set(param.values) if param.values else {True, False}
        assert wanted <= seen, f"{name}: no example with {wanted - seen}"
    else:   # a number: the default and at least one other value
        assert param.default_for("cash") in seen and len(seen) >= 2, f"{name}: only {seen}"


STUD = """game: {variant: stud, structure: fixed-limit, bring_in: 2, ante: 1, bet_sizes: [5, 10]}
button: 4
players: {1: 100, 2: 100, 3: 100, 4: 100}
street: third
"""


def test_upcards_name_the_lowest_and_highest_card_by_rank_then_suit():
    f = facts_of(STUD + "upcards: {1: Kd, 2: 2d, 3: 2c, 4: 10s}\ndisputed: {seat: 3}\n")
    assert (f["low_card_seat"], f["low_card"], f["high_card_seat"], f["high_card"]) == (3, "2c", 1, "Kd")
    razz = facts_of(STUD + "upcards: {1: Kd, 2: Ks, 3: Ac}\ndisputed: {seat: 3}\n")
    assert (razz["high_card_seat"], razz["low_card_seat"]) == (2, 1)   # the ace counts low for the high card, high for the low


def test_bad_upcards_are_refused_by_field_all_at_once():
    from rulings.problems import ProblemsError
    with pytest.raises(ProblemsError) as exc:
        incident_from_text(STUD + "upcards: {1: Kd, 2: 1x, 3: Kd, 9: 2c}\nexposed_downcard: 4\n")
    got = sorted((p.code, p.message.split(":")[0]) for p in exc.value.problems)
    assert got == [("I104", "upcards[2]"), ("I105", "exposed_downcard"), ("I105", "upcards[3]"), ("I105", "upcards[9]")]


WIKI = """game: {structure: no-limit, blinds: [1, 2]}
button: 3
players: {1: 500, 2: 5, 3: 500}
street: flop
pot: 0
actions: [{seat: 1, action: bet, to: 20}, {seat: 2, action: call}, {seat: 3, action: call}]
disputed: {seat: 2}
"""


def test_a_tied_pot_shares_whole_chips_and_the_odd_ones_go_left_of_the_button():
    f = facts_of(WIKI + "split: {winners: [3, 2], pot: 0}\n")
    assert (f["split_pot"], f["split_share"], f["odd_chips"], f["odd_chip_seats"]) == (1500, 700, 1, "2")
    quarters = facts_of(WIKI + "split: {winners: [1, 2, 3], pot: 0, smallest_chip: 0.25}\n")
    assert (quarters["split_share"], quarters["odd_chips"], "odd_chip_seats" in quarters) == (500, 0, False)
    side = facts_of(WIKI + "split: {winners: [2, 3], pot: 1}\n")
    assert side["split_winner_not_in_pot"] is True


def test_a_bad_split_is_refused_by_field():
    from rulings.problems import ProblemsError
    with pytest.raises(ProblemsError) as exc:
        incident_from_text(WIKI + "split: {winners: [2, 2, 7], smallest_chip: 0}\n")
    got = sorted((p.code, p.message.split(":")[0]) for p in exc.value.problems)
    assert got == [("I103", "split.smallest_chip"), ("I105", "split.winners[1]"), ("I105", "split.winners[2]")]


def test_tda_47_illustration_1_raise_not_reopened_is_a_call_cited_by_its_reason(standard):
    # A bets 100, B all in 125, C calls, D all in 200, E calls, A calls; C says "raise to 600": C has been raised
    # only 75 since he acted, so it is a call of 200, under TDA 47-A and Robert's NL rules 3 and 5, not the raise caps.
    book, engine = standard
    text = TDA47.replace("{seat: 6, action: fold}]", "{seat: 6, action: fold}, {seat: 1, action: call}]")
    report = rule_on(incident_from_text(text + "disputed: {seat: 3, said: 'raise to 600'}\n"), book, engine)
    wager = next(r for r in report.rulings if r.decides == "wager")
    assert wager.rule == "wagers.not-reopened-raise-is-call"
    assert (wager.effects["wager_to"], wager.effects["returned"]) == (20000, 0)   # words alone put nothing out
    assert set(wager.cites) == {"TDA-2024-47A", "RRP-NL-3", "RRP-NL-5"}
    # with the chips for 600 put out (475 on top of the 125 he called), the 400 over the call goes back
    report = rule_on(incident_from_text(text + "disputed: {seat: 3, said: 'raise to 600', chips: [475]}\n"),
                     book, engine)
    wager = next(r for r in report.rulings if r.decides == "wager")
    assert (wager.rule, wager.effects["wager_to"], wager.effects["returned"]) == \
        ("wagers.not-reopened-raise-is-call", 20000, 40000)
    assert "raised only 75, less than a full raise of 100" in wager.sentence and "all in" not in wager.sentence
    # With nobody left to call a raise the reason, the sentence and the sources are the all-in ones.
    heads_up = ("game: {structure: pot-limit, blinds: [100, 200]}\nbutton: 2\nplayers: {1: 20000, 2: 200}\n"
                "street: preflop\ndisputed: {seat: 1, chips: [10000]}\n")
    wager = next(r for r in rule_on(incident_from_text(heads_up), book, engine).rulings if r.decides == "wager")
    assert wager.rule == "wagers.nobody-to-call-raise-is-call" and wager.effects["wager_to"] == 20000
    assert "Every other player is all in" in wager.sentence and "TDA-2024-48" not in wager.cites


STUD_THIRD = """game: {variant: stud, structure: fixed-limit, setting: cash, ante: 1, bring_in: 2, bet_sizes: [5, 10]}
button: 1
players: {1: 300, 2: 300, 3: 300, 4: 300}
"""


def test_stud_bring_in_may_not_check_and_the_others_wait(standard):
    # WIKI-BRINGIN-1, RRP-TIE-SUITS: upcards Kd, 2c, 2s, 9h; the 2c (clubs lowest) must bring in $2 or complete
    # to $5. His "check" before any action was ruled a check; it does not stand.
    from rulings.ruling.now import now
    book, engine = standard
    whole = STUD_THIRD + ("streets: [{street: third, upcards: {1: Kd, 2: 2c, 3: 2s, 4: 9h}, actions: []}]\n"
                          "disputed: {seat: 2, said: check, at: {street: third, after: 0}}\n")
    incident = incident_from_text(whole)
    report = rule_on(incident, book, engine)
    assert report.facts["bring_in_due"] is True and report.facts["betting_done"] is False
    assert [r.rule for r in report.rulings] == ["bring-in.bring-in-may-not-check", "bring-in.lowest-upcard-brings-in"]
    assert report.rulings[0].effects == {"bring_in": 200, "complete_to": 500}
    assert "declarations.tap-is-check" in [r.rule for r in report.overridden]
    assert not any("checks" in line for line in now(incident, report))
    # The one-street form, asked about seat 3 (the 2s): he waits for the bring-in, then calls $2 or completes to $5.
    one = STUD_THIRD + "street: third\nupcards: {1: Kd, 2: 2c, 3: 2s, 4: 9h}\ndisputed: {seat: 3}\n"
    asked = rule_on(incident_from_text(one), book, engine)
    # who brings it in leads; what seat 3 may do only follows from it (rulings/ruling/now.py `lead`)
    assert [r.rule for r in asked.rulings] == ["bring-in.lowest-upcard-brings-in", "bring-in.others-wait-for-the-bring-in"]
    top = asked.rulings[1]
    assert top.effects == {"to_call": 200, "complete_to": 500}
    assert "check" not in top.sentence and "seat 2 (2c) brings it in first" in top.sentence


STUD_UP = STUD_THIRD + "street: third\nupcards: {1: Kd, 2: 2c, 3: 2s, 4: 9h}\n"


def _rule(standard, text: str):
    from rulings.ruling.now import now
    book, engine = standard
    incident = incident_from_text(text)
    report = rule_on(incident, book, engine)
    return report, {r.rule: r for r in report.rulings}, now(incident, report)


def test_before_the_bring_in_the_low_upcard_is_in_turn_and_a_completion_by_another_seat_is_not(standard):
    # Stud $5/$10, $1 ante, $2 bring-in; upcards Kd, 2c, 2s, 9h: the 2c (clubs below spades, RRP-TIE-SUITS) is due.
    # Seat 4 (9h) completes to $5 before the bring-in (TDA-2024-53): the action goes back to seat 2, who must
    # bring it in for $2 or complete to $5 (WIKI-BRINGIN-1); nothing changed yet, so the $5 completion binds.
    report, ruled, lines = _rule(standard, STUD_UP + "disputed: {seat: 4, said: complete, chips: [5]}\n")
    assert (report.facts["in_turn"], report.facts["bring_in_turn_seat"]) == (False, 2)
    back = ruled["bring-in.act-before-the-bring-in-goes-back"]
    assert back.effects == {"bring_in_seat": 2, "bring_in": 200, "complete_to": 500}
    assert "declarations.out-of-turn-binds" in ruled
    assert "The action goes back to seat 2, who must bring it in for $2 or complete to $5." in " ".join(lines)
    # The 2c completing to $5 himself is in turn: no out-of-turn ruling at all.
    report, ruled, _ = _rule(standard, STUD_UP + "disputed: {seat: 2, said: complete, chips: [5]}\n")
    assert report.facts["in_turn"] is True
    assert not any(r.startswith("declarations.out-of-turn") or r.startswith("bring-in.act-before") for r in ruled)


def test_an_early_completion_goes_back_when_the_bring_in_completes(standard):
    # TDA-2024-53: the skipped 2c then completes to $5 himself: the action seat 4 faced changed, his $5 goes back
    # and he faces $5 with every option. Had the 2c only brought it in for $2 the completion would bind.
    report, ruled, lines = _rule(standard, STUD_UP + "disputed: {seat: 4, said: complete, chips: [5]}\n"
                                 "after: [{seat: 2, action: complete, to: 5}]\n")
    assert ruled["declarations.out-of-turn-action-changed"].effects == {"to_call": 500, "returned": 500}
    assert "bring-in.act-before-the-bring-in-goes-back" not in ruled     # play went on; nothing goes back to him
    assert "Seat 4 gets $5 back and faces $5 to call." in lines
    report, ruled, _ = _rule(standard, STUD_UP + "disputed: {seat: 4, said: complete, chips: [5]}\n"
                             "after: [{seat: 2, action: bring-in, to: 2}]\n")
    assert report.facts["out_of_turn_changed"] is False and "declarations.out-of-turn-binds" in ruled


def test_the_bring_in_and_a_call_after_an_early_completion_are_not_substantial_action(standard):
    # Stud $5/$10, $2 bring-in; upcards Kd, 2c, 2s, 9h. Seat 4 completes to $5 before the bring-in; the skipped 2c
    # brings it in for $2 and the skipped 2s calls $2. Those are the skipped seats catching up, not action to
    # their left before they spoke (TDA-2024-36 counts nothing here), and neither bet nor raised: the completion
    # binds (TDA-2024-53) rather than "stands, floor decides". Both forms of the incident agree.
    one = STUD_UP + ("disputed: {seat: 4, said: complete, chips: [5]}\n"
                     "after: [{seat: 2, action: bring-in, to: 2}, {seat: 3, action: call, to: 2}]\n")
    whole = STUD_THIRD + ("streets: [{street: third, upcards: {1: Kd, 2: 2c, 3: 2s, 4: 9h}, actions: ["
                          "{seat: 4, action: complete, to: 5}, {seat: 2, action: bring-in, to: 2},"
                          " {seat: 3, action: call, to: 2}]}]\n"
                          "disputed: {seat: 4, said: complete, chips: [5], at: {street: third, after: 0}}\n")
    for text in (one, whole):
        report, ruled, _ = _rule(standard, text)
        assert (report.facts["actions_since"], report.facts["out_of_turn_changed"]) == (0, False)
        assert "declarations.out-of-turn-binds" in ruled and "declarations.skipped-player-too-late" not in ruled


def test_a_complete_on_third_street_is_sized_to_the_small_bet(standard):
    # Stud $5/$10 ($2/$5 on third street's two sizes: bring-in $2, small bet $5); upcards Kd, 2c, 2s, 9h.
    # WIKI-BRINGIN-1: completing makes it the normal bet, $5 — after the bring-in, by the bring-in himself, and
    # by seat 4 out of turn before it (where TDA-2024-53 also holds him to it). The whole-hand form sized nothing.
    cases = (
        ("streets: [{street: third, upcards: {1: Kd, 2: 2c, 3: 2s, 4: 9h}, actions: [{seat: 2, action: bring-in, to: 2}]}]\n"
         "disputed: {seat: 3, said: complete}\n", []),
        ("streets: [{street: third, upcards: {1: Kd, 2: 2c, 3: 2s, 4: 9h}, actions: []}]\n"
         "disputed: {seat: 2, said: complete}\n", []),
        ("streets: [{street: third, upcards: {1: Kd, 2: 2c, 3: 2s, 4: 9h}, actions: ["
         "{seat: 4, action: complete, to: 5}, {seat: 2, action: bring-in, to: 2}, {seat: 3, action: call, to: 2}]}]\n"
         "disputed: {seat: 4, said: complete, chips: [5], at: {street: third, after: 0}}\n",
         ["declarations.out-of-turn-binds"]),
    )
    for text, also in cases:
        report, ruled, lines = _rule(standard, STUD_THIRD + text)
        complete = ruled["declarations.fixed-limit-complete"]
        assert complete.effects == {"wager_to": 500} and "$5 in all" in complete.sentence
        assert all(rule in ruled for rule in also)
    # A $2 bring-in called, then "complete" once it is already $5: nothing is left to complete; the rule is silent.
    report, ruled, _ = _rule(standard, STUD_UP + "actions: [{seat: 2, action: bring-in, to: 2},"
                             " {seat: 3, action: complete, to: 5}]\ndisputed: {seat: 4, said: complete}\n")
    assert "declarations.fixed-limit-complete" not in ruled


def test_a_fold_before_the_bring_in_binds_and_the_tied_deuce_by_suit_brings_it_in(standard):
    # Upcards Kd, 2d, 2c, 9s: the 2c is lower than the 2d by suit, so seat 3 is due; seat 2 (2d) folding first
    # folded out of turn (TDA-2024-58) and the action goes back to seat 3 for $2 or $5.
    text = STUD_THIRD + "street: third\nupcards: {1: Kd, 2: 2d, 3: 2c, 4: 9s}\ndisputed: {seat: 2, said: fold}\n"
    report, ruled, lines = _rule(standard, text)
    assert report.facts["bring_in_turn_seat"] == 3 and report.facts["in_turn"] is False
    assert "declarations.out-of-turn-fold-binds" in ruled
    assert ruled["bring-in.act-before-the-bring-in-goes-back"].effects["bring_in_seat"] == 3
    assert any("goes back to seat 3, who must bring it in for $2 or complete to $5" in line for line in lines)


def test_before_the_bring_in_without_upcards_whose_turn_it_is_is_unknown():
    # Stud $5/$10, $2 bring-in, no upcards given: the seat due cannot be named, so in_turn is not guessed (it was
    # false for every seat, the bring-in's own included); with the upcards Kd, 2c, 2s, 9h it is seat 2.
    blind = facts_of(STUD_THIRD + "street: third\ndisputed: {seat: 2, said: complete}\n")
    assert blind["pot"] == 400 and "in_turn" not in blind and "bring_in_turn_seat" not in blind
    seen = facts_of(STUD_UP + "disputed: {seat: 2, said: complete}\n")
    assert (seen["in_turn"], seen["bring_in_turn_seat"]) == (True, 2)


def test_pot_said_on_a_count_too_low_follows_tda_52b(standard):
    """Issue 43, class 1: "pot" said on a count that was too low is ruled by TDA 52-B, as a bet of the amount
    said would be. Rule 52-B's numbers: PLO 500-1000, 10,500 in the middle counted as 9,500. A fold since: the bet
    goes up to 10,500 (1,000 more). A fold and a call since (substantial action, rule 36): it stays 9,500."""
    book, engine = standard
    base = {"game": {"variant": "omaha", "structure": "pot-limit", "setting": "tournament", "blinds": [500, 1000]},
            "button": 3, "players": {1: 50000, 2: 50000, 3: 50000}, "street": "flop", "pot": 10500,
            "disputed": {"seat": 1, "said": "pot", "based_on_count": 9500}}
    from rulings.incident import incident_from_data
    fold = rule_on(incident_from_data({**base, "after": [{"seat": 2, "action": "fold"}]}), book, engine)
    up = next(r for r in fold.rulings if r.decides == "wager")
    assert (up.effects["wager_to"], up.effects["correction_adds"], up.cites[0]) == (1050000, 100000, "TDA-2024-52B")
    called = rule_on(incident_from_data({**base, "after": [{"seat": 2, "action": "fold"},
                                                           {"seat": 3, "action": "call", "to": 9500}]}), book, engine)
    kept = next(r for r in called.rulings if r.decides == "wager")
    assert (kept.rule, kept.effects["wager_to"]) == ("pot-limit.pot-on-a-low-count-stands", 950000)


def test_a_tied_pot_told_at_the_showdown_without_a_disputed_act_is_shared(standard):
    """Issue 43, class 2: who takes what after a tie, with no act in dispute. RRP's odd-chip rule: three winners of
    a $302 pot in $1 chips take $100 each and the two odd chips go one each to the first two winners from the
    button's left (button 3: seats 4 and 6), never two to one player."""
    book, engine = standard
    data = {"game": {"structure": "no-limit", "setting": "cash", "blinds": [1, 2]}, "button": 3,
            "players": {1: None, 4: None, 6: None}, "street": "river", "pot": 302,
            "actions": [{"seat": 4, "action": "check"}, {"seat": 6, "action": "check"}, {"seat": 1, "action": "check"}],
            "split": {"winners": [1, 4, 6], "pot": 0, "smallest_chip": 1}}
    report = rule_on(incident_from_text(__import__("json").dumps(data)), book, engine)
    split = next(r for r in report.rulings if r.decides == "split")
    assert split.effects["split_share"] == 10000
    assert "seats 4 and 6" in split.sentence and "seat 4 $101, seat 6 $101, seat 1 $100" in split.sentence
