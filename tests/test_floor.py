"""A ruling the floor can act on (issue 8): right numbers whatever route decided the wager, one decision
per matter, never silent, facts given but not weighed are named, and a podium-first text report."""
from __future__ import annotations

import collections
import re
from pathlib import Path

import pytest
import yaml

from cli.main import main
from rulings.incident import incident_from_data
from rulings.problems import ProblemsError
from rulings.report.render import escape, floor_quote, report_json, report_text
from rulings.ruling.decide import rule_on

ROOT = Path(__file__).resolve().parents[1]
PLO = {"game": {"structure": "pot-limit", "variant": "omaha", "blinds": [1, 2]}, "button": 3,
       "players": {1: 1000, 2: 1000, 3: 1000}, "street": "flop"}


def rule(standard, **incident):
    book, engine = standard
    return rule_on(incident_from_data(incident), book, engine)


def wager(report):
    (w,) = [r for r in report.rulings if r.decides == "wager"]
    return w


def one_per_matter(report):
    counts = collections.Counter(r.decides for r in report.rulings)
    return [m for m, n in counts.items() if n > 1]


# --- right numbers: every route to a pot-limit wager meets the same maximum ----------------------------------

def test_raise_said_with_three_100_chips_facing_40_into_60_is_cut_to_180(standard):
    """The issue's incident: was "a raise to $300"; `rulings calc` gives $80..$180."""
    r = rule(standard, **PLO, pot=60, actions=[{"seat": 1, "action": "bet", "to": 40}],
             disputed={"seat": 2, "said": "raise", "chips": [100, 100, 100], "words_first": "together"})
    w = wager(r)   # the words-with-chips rule (here its several-chips exception) caps the raise itself (RRP PL r.1)
    assert (w.ruling, w.effects["wager_to"], w.effects["returned"]) == ("raise-by-chips", 18000, 12000)
    assert w.rule == "misdeclared-calls.declared-raise-with-several-chips" and "RRP-PL-1" in w.cites
    assert r.now[0] == "Seat 2 raises to $180: $120 goes back to him."
    assert r.now[1] == ("Seat 3 is next to act and faces $180 to call: he may fold, call $180 or raise to at least "
                        "$320 and at most $640.")   # a raise of $140 more; the pot-size raise $180 + $460


def test_silent_multiple_chips_over_the_pot_are_cut(standard):
    r = rule(standard, **PLO, pot=60, actions=[{"seat": 1, "action": "bet", "to": 40}],
             disputed={"seat": 2, "chips": [100, 100, 100]}, noticed="before_next_action")
    assert (wager(r).effects["wager_to"], wager(r).effects["returned"]) == (18000, 12000)


def test_bet_with_chips_over_the_pot_is_cut_to_the_pot(standard):
    r = rule(standard, **PLO, pot=60, disputed={"seat": 1, "said": "bet", "chips": [100, 100, 100]},
             noticed="before_next_action")
    assert (wager(r).ruling, wager(r).effects["wager_to"], wager(r).effects["returned"]) == ("wager-reduced", 6000, 24000)


def test_all_in_over_the_pot_limit_maximum_is_cut(standard):
    """RRP NLPL preamble: a $50 bet into $100 allows $250; "all in" for $1,000 is cut to it."""
    r = rule(standard, **PLO, pot=100, actions=[{"seat": 1, "action": "bet", "to": 50}],
             disputed={"seat": 2, "said": "all in"}, noticed="before_next_action")
    # words only: no chip of his went in, so nothing goes back; he puts in the $250
    assert (wager(r).effects["wager_to"], wager(r).effects["returned"], wager(r).effects["owed"]) == (25000, 0, 25000)
    assert r.now[0] == "Seat 2 raises to $250: he puts in $250."


def test_words_only_oversize_raise_sends_nothing_back(standard):
    """The trial's incident: "raise to four hundred" facing $50 into $100, no chips: cut to $250, he puts in $250."""
    r = rule(standard, **PLO, pot=100, actions=[{"seat": 1, "action": "bet", "to": 50}],
             disputed={"seat": 2, "said": "raise to four hundred"}, noticed="before_next_action")
    assert (wager(r).effects["wager_to"], wager(r).effects["returned"]) == (25000, 0)
    assert r.now == ["Seat 2 raises to $250: he puts in $250.",
                     "Seat 3 is next to act and faces $250 to call: he may fold, call $250 or raise to at least $450 "
                     "and at most $900.",
                     # the numbers panel (rulings/ruling/panel.py): $100 + $50, his $50 call, his $200 raise
                     "Before his act the pot was $150.", "With a call from him the pot is $200.",
                     "After his act as ruled the pot is $400.",
                     "Each seat still to act now owes: seat 1 $200, seat 3 $250."]
    assert not any("goes back" in line for line in r.now + [x.sentence for x in r.rulings])


def test_a_discretionary_wager_is_the_usual_answer_and_the_floor_decides(standard):
    """TDA addendum 51: 2,000 opened, raised to 8,000, a silent 2,000 from seat 3 is the floor's choice."""
    r = rule(standard, game={"structure": "no-limit", "setting": "tournament", "blinds": [500, 1000]}, button=4,
             players={1: 50000, 2: 50000, 3: 50000, 4: 50000}, street="flop", pot=4000,
             actions=[{"seat": 1, "action": "bet", "to": 2000}, {"seat": 2, "action": "raise", "to": 8000}],
             disputed={"seat": 3, "chips": [1000, 1000]})
    assert wager(r).ruling == "undercall-floor-choice"
    # the numbers panel gives the pot before and with his call; what follows the wager waits for the floor
    assert r.now == ["The floor decides (see FLOOR DISCRETION); the usual answer: seat 3 calls 8,000: "
                     "he puts in 6,000 more.", "Before his act the pot was 14,000.",
                     "With a call from him the pot is 22,000."]


def test_what_happens_now_at_a_misread_showdown_gives_the_pot_to_the_best_hand_first(standard):
    """examples/incidents/showdown-misread.yaml: the dealer read A-K; seat 5's trip queens win the pot."""
    r = rule(standard, game={"variant": "holdem", "structure": "no-limit", "setting": "cash", "blinds": [1, 2]},
             button=1, players={1: 200, 2: 200, 3: 150, 4: 200, 5: 260}, street="river",
             procedure={"showdown": {"last_aggressor": 3, "river_checked": False, "in_showdown": [3, 5],
                                     "hands": {3: "AsKd", 5: "QhQc"}, "board": "Qd7c2s9hTd", "dealer_read": 3}})
    assert r.now[0].startswith("Cards speak: the dealer read seat 3 as the winner, but seat 5")
    assert "wins the pot" in r.now[0]
    assert r.now[1] == "Seat 3 made the last bet or raise on the final round: he shows first."


def test_the_misread_pot_is_the_ruling_and_who_shows_first_comes_after_it(standard):
    """examples/incidents/showdown-misread.yaml: the dispute is the pot the dealer misread, so the report's
    RULING gives it to seat 5 (TDA 12) and seat 3 showing first (he bet the river) is ALSO, as in WHAT HAPPENS NOW."""
    book, engine = standard
    path = ROOT / "examples" / "incidents" / "showdown-misread.yaml"
    r = rule_on(incident_from_data(yaml.safe_load(path.read_text())), book, engine)
    assert [(x.rule, x.decides, x.effects) for x in r.rulings] == [
        ("showdown.cards-speak-misread", "pot", {"pot_winner": 5}),
        ("showdown.last-aggressor-first", "show-order", {"shows_first": 3})]
    assert r.now == [x.sentence for x in r.rulings]
    text = report_text(r)
    assert text.index("RULING  Cards speak: the dealer read seat 3 as the winner, but seat 5") \
        < text.index("ALSO    Seat 3 made the last bet or raise on the final round: he shows first.")
    assert "RULING  Seat 3" not in text
    data = report_json(r)
    assert [x["rule"] for x in data["rulings"]] == ["showdown.cards-speak-misread", "showdown.last-aggressor-first"]
    assert data["rulings"][0]["effects"] == {"pot_winner": 5} and data["now"][0] == data["rulings"][0]["sentence"]


@pytest.mark.parametrize("rid, i, first, second", [
    # the kill pot's underpaid player takes back his $20 before the killer's place is said
    ("kill-pots.underpaid-must-make-up", 1, "kill-pots.underpaid-may-take-back", "kill-pots.killer-acts-in-turn"),
    # seat 3's question at an all-in: the pots he plays for (2,100 + 2,000) before every hand is tabled
    ("side-pots.who-plays-for-which-pot", 2, "side-pots.who-plays-for-which-pot", "side-pots.all-in-hands-tabled"),
    # the mucked hand's uncalled 200 goes back: that, not the all-in showdown, is what was disputed
    ("side-pots.mucked-hand-gets-uncalled-chips-back", 0, "side-pots.mucked-hand-gets-uncalled-chips-back",
     "side-pots.all-in-hands-tabled"),
    # chips put in unaware of the raise: he may take them back, facing $300; what he may do comes after
    ("wagers.missed-raise-chips-stay", 1, "declarations.missed-raise-take-back", "options.fold-call-or-raise"),
])
def test_the_ruling_leads_with_what_happens_now(standard, rid, i, first, second):
    """Book examples with several rulings in force: the main RULING is the one WHAT HAPPENS NOW starts with."""
    book, engine = standard
    r = rule_on(incident_from_data(book.rules[rid].examples[i].incident), book, engine)
    assert [x.rule for x in r.rulings[:2]] == [first, second]
    assert r.now[0].endswith(r.rulings[0].sentence[1:])


def test_a_question_about_a_seat_leads_with_what_he_may_do(standard):
    """options.nobody-left-to-raise: seat 2 may only call $49.50 (to $84.50: he bet $35) or fold. The question asked is seat 2's, so that
    is the RULING and the first thing said; seat 3's last $49.50 does not go back while seat 2 may still call it
    (chips nobody called are returned only once everyone has acted on the bet)."""
    book, engine = standard
    r = rule_on(incident_from_data(book.rules["options.nobody-left-to-raise"].examples[0].incident), book, engine)
    assert [x.decides for x in r.rulings] == ["seat-options"]
    assert r.now == ["Every other player is all-in, so there is nobody to call a raise: the player may call "
                     "$49.50 (to $84.50) or fold.",
                     # the numbers panel: the pot his call makes ($194.50 + $49.50)
                     "Before his act the pot was $194.50.", "With a call from him the pot is $244."]
    # once seat 2 has folded, nobody matched seat 3's last $49.50: it goes back to him
    data = dict(book.rules["options.nobody-left-to-raise"].examples[0].incident)
    data["actions"] = list(data["actions"]) + [{"seat": 2, "action": "fold"}]
    data["disputed"] = {"seat": 3}
    r = rule_on(incident_from_data(data), book, engine)
    assert [x.effects.get("returned") for x in r.rulings if x.decides == "uncalled"] == [4950]


def test_a_sized_wager_keeps_the_most_specific_ruling_on_the_act_first(standard):
    """declarations.first-declaration-binds: 'check' said first binds; the act is a check (WHAT HAPPENS NOW)."""
    book, engine = standard
    r = rule_on(incident_from_data(book.rules["declarations.first-declaration-binds"].examples[1].incident),
                book, engine)
    assert [x.rule for x in r.rulings] == ["declarations.first-declaration-binds", "declarations.tap-is-check"]
    assert r.now == ["Seat 1 checks.", "Seat 2 is next to act and faces no bet: he may check or bet to at least $2 "
                                       "and at most $1,000 (all-in).", "Before his act the pot was $100."]


def test_every_example_without_a_sized_wager_says_its_ruling_first(standard):
    """Over the whole book: when no ruling sizes the wager, WHAT HAPPENS NOW starts with the report's RULING."""
    book, engine = standard
    checked = 0
    for rule in book.rules.values():
        for ex in rule.examples:
            try:
                r = rule_on(incident_from_data(ex.incident), book, engine)
            except ProblemsError:
                continue
            for one in [r] + r.more_acts:
                if len(one.rulings) > 1 and not any(x.decides == "wager" and "wager_to" in x.effects
                                                    for x in one.rulings):
                    assert one.now[0].endswith(one.rulings[0].sentence[1:]), (rule.id, one.now, one.rulings[0])
                    checked += 1
    assert checked > 100


def test_pot_said_in_pot_limit_is_the_maximum(standard):
    """BARGE PLO 100/200: the first player in may make it 700."""
    r = rule(standard, game={"structure": "pot-limit", "variant": "omaha", "setting": "tournament",
                             "blinds": [100, 200]}, button=4, players={1: 20000, 2: 20000, 3: 20000, 4: 20000},
             street="preflop", disputed={"seat": 3, "said": "pot"})
    assert (wager(r).ruling, wager(r).effects["wager_to"]) == ("pot-size-wager", 70000)


def test_a_number_said_facing_150_in_a_310_pot_is_never_above_pot_or_stack(standard):
    """TDA 2024 r.57: never above the pot; the issue saw 'raise 2' read as $2,000 here."""
    r = rule(standard, **PLO, pot=160, actions=[{"seat": 1, "action": "bet", "to": 150}],
             disputed={"seat": 2, "said": "raise 2"})
    pot_max = r.facts["max_raise_to"]
    for x in r.rulings:
        assert x.effects.get("wager_to", 0) <= pot_max, x
    assert one_per_matter(r) == []


def test_no_limit_words_over_the_stack_are_all_in_for_the_stack(standard):
    r = rule(standard, game={"structure": "no-limit", "blinds": [1, 2]}, button=3,
             players={1: 3000, 2: 1000, 3: 3000}, street="flop", pot=100,
             actions=[{"seat": 1, "action": "bet", "to": 100}], disputed={"seat": 2, "said": "raise to 2000"})
    assert (wager(r).ruling, wager(r).effects["wager_to"]) == ("all-in-for-stack", 100000)


def test_a_cut_wager_already_called_returns_the_callers_surplus(standard):
    """TDA 2024 r.52-B: 11,500 into 10,500, called twice, is cut to 10,500 for everyone before the turn."""
    r = rule(standard, game={"structure": "pot-limit", "variant": "omaha", "setting": "tournament",
                             "blinds": [500, 1000]}, button=3, players={1: 50000, 2: 50000, 3: 50000},
             street="flop", pot=10500, disputed={"seat": 1, "said": "bet eleven thousand five hundred"},
             after=[{"seat": 2, "action": "call", "to": 11500}, {"seat": 3, "action": "call", "to": 11500}],
             noticed="after_all_acted")
    assert wager(r).effects["callers_get_back"] == 1000 * 100
    assert "Each player who called it gets 1,000 back." in r.now


# --- one decision per matter -------------------------------------------------------------------------------

def test_out_of_turn_call_is_not_both_void_and_binding(standard):
    r = rule(standard, game={"structure": "no-limit", "setting": "tournament", "blinds": [100, 200]}, button=3,
             players={1: 20000, 2: 20000, 3: 20000}, street="flop", pot=1200,
             actions=[{"seat": 1, "action": "bet", "to": 300}],
             disputed={"seat": 3, "said": "call", "chips": [100, 100, 100]},
             after=[{"seat": 2, "action": "raise", "to": 900}])
    assert [x.ruling for x in r.rulings] == ["out-of-turn-returned"]
    assert {o.rule for o in r.overridden} >= {"declarations.call-commits-full-amount"}


def test_missed_raise_is_not_he_adds_beside_he_may_take_back_beside_floor_decides(standard):
    r = rule(standard, game={"structure": "no-limit", "blinds": [1, 2]}, button=4,
             players={1: 1000, 2: 1000, 3: 1000, 4: 1000}, street="flop", pot=100,
             actions=[{"seat": 1, "action": "bet", "to": 20}, {"seat": 2, "action": "raise", "to": 40}],
             disputed={"seat": 3, "chips": [20], "released": True, "unaware_of_raise": True})
    assert [x.ruling for x in r.rulings] == ["may-take-back"]
    reasons = {o.rule: o.reason for o in r.overridden}
    assert "undoes the act" in reasons["misdeclared-calls.undercall-always-corrected"]
    # a $20 chip against the $40 he faced is half of it, not a chip tiny next to the bet (TDA 41): no
    # non-standard-call ruling at all, printed or overridden
    assert "misdeclared-calls.tiny-chip" not in reasons and "misdeclared-calls.tiny-chip" not in r.trace


def test_generic_declaration_binds_is_shown_only_when_nothing_specific_decides(standard):
    specific = rule(standard, **PLO, pot=100, actions=[{"seat": 1, "action": "bet", "to": 50}],
                    disputed={"seat": 2, "said": "raise to 400"}, noticed="before_next_action")
    assert "declaration-binds" not in [x.ruling for x in specific.rulings]
    alone = rule(standard, **PLO, pot=100, actions=[{"seat": 1, "action": "bet", "to": 50}],
                 disputed={"seat": 2, "said": "fold"})
    assert [x.ruling for x in alone.rulings] == ["declaration-binds"]


# --- never silent --------------------------------------------------------------------------------------------

# a seat named alone is now a question about its options (rulebooks/standard/options.yaml); with no
# disputed act and no table history, no rule of the book decides anything
NOTHING = {"game": {"structure": "no-limit", "blinds": [1, 2]}, "button": 3, "players": {1: 1000, 2: 1000, 3: 1000},
           "street": "flop", "pot": 100}


def test_an_incident_no_rule_decides_is_not_covered_and_says_what(standard):
    r = rule(standard, **NOTHING)
    assert r.outcome == "not_covered" and not r.rulings
    assert any("no disputed act" in p for p in r.not_covered)
    assert report_json(r)["outcome"] == "not_covered"


def test_not_covered_exits_3(tmp_path, capsys):
    import yaml
    f = tmp_path / "nothing.yaml"
    f.write_text(yaml.safe_dump(NOTHING))
    assert main(["rule", str(f)]) == 3
    assert "NOT COVERED" in capsys.readouterr().out
    assert main(["rule", str(f), "--format", "json"]) == 3


def test_outcomes_ruled_and_questions(standard):
    ruled = rule(standard, **PLO, pot=80, disputed={"seat": 1, "chips": [500]})
    assert ruled.outcome == "ruled"
    asks = rule(standard, **PLO, pot=100, actions=[{"seat": 1, "action": "bet", "to": 50}],
                disputed={"seat": 2, "said": "raise to 400"})
    assert asks.outcome == "questions" and asks.questions[0]["fact"] == "noticed"


# --- facts given are weighed or named ----------------------------------------------------------------------

def test_unaware_of_raise_with_a_spoken_call_is_considered(standard):
    r = rule(standard, game={"structure": "fixed-limit", "blinds": [1, 3], "bet_sizes": [3, 6]}, button=4,
             players={1: 200, 2: 200, 3: 200, 4: 200}, street="flop", pot=12,
             actions=[{"seat": 1, "action": "bet", "to": 3}, {"seat": 2, "action": "raise", "to": 6}],
             disputed={"seat": 3, "said": "call", "chips": [1, 1, 1], "unaware_of_raise": True})
    assert "unaware_of_raise" not in r.not_considered
    assert (wager(r).ruling, wager(r).effects["owed"]) == ("full-call", 300)


def test_unaware_of_raise_after_someone_acted_is_weighed(standard):
    r = rule(standard, game={"structure": "no-limit", "blinds": [1, 2]}, button=4,
             players={1: 1000, 2: 1000, 3: 1000, 4: 1000}, street="flop", pot=100,
             actions=[{"seat": 1, "action": "bet", "to": 100}, {"seat": 2, "action": "raise", "to": 300}],
             disputed={"seat": 3, "chips": [100], "released": True, "unaware_of_raise": True},
             after=[{"seat": 4, "action": "fold"}])
    assert "unaware_of_raise" not in r.not_considered


def test_a_fact_no_rule_weighed_is_named(standard):
    r = rule(standard, **PLO, pot=80, disputed={"seat": 1, "chips": [500], "bettor_showed": True})
    assert r.not_considered == ["bettor_showed"]
    assert "NOT CONSIDERED (given, but no rule weighed it): bettor_showed" in report_text(r)


# --- the text report ------------------------------------------------------------------------------------------

def test_text_report_starts_with_what_happens_now_and_quotes_like_a_floorperson(standard):
    r = rule(standard, **PLO, pot=80, disputed={"seat": 1, "chips": [500]})
    text = report_text(r)
    lines = text.splitlines()
    assert lines[3] == "WHAT HAPPENS NOW" and lines[4] == "  Seat 1 bets $80: $420 goes back to him."
    assert "Robert's Rules of Poker, card-room edition, §14 PL rule 6" in text
    for internal in ("seed documents", "unverified", "chain:", "RRP-PL-6", "S00"):
        assert internal not in text
    verbose = report_text(r, verbose=True)
    assert "chain:   wagers.silent-single-chip-bet -> pot-limit.silent-overchip-is-pot-bet" in verbose
    assert "overridden: wagers.silent-single-chip-bet" in verbose


@pytest.mark.parametrize("key,quoted", [
    ("RRP-BR-VERBAL", "Robert's Rules of Poker, card-room edition, §3 Betting & Raising"),
    ("TDA-2024-52B", "Poker TDA Rules 2024, rule 52-B"),
    ("WIKI-DECL-1", "Encyclopedia text on betting, \u201cbetting rules\u201d, \u201cCall\u201d"),
])
def test_citations_without_internal_notes(key, quoted):
    assert floor_quote(key) == quoted


@pytest.mark.parametrize("key,quoted", [
    # Robert's Rules numbers its rules within sections: the blinds rules sit in §4, the big-bet rules in §14
    ("RRP-BB-10", "Robert's Rules of Poker, card-room edition, §4 Button & Blind Use rule 10"),
    ("RRP-BB-7", "Robert's Rules of Poker, card-room edition, §4 Button & Blind Use rule 7"),
    ("RRP-NL-10", "Robert's Rules of Poker, card-room edition, §14 NL rule 10"),
    ("RRP-SD-7", "Robert's Rules of Poker, card-room edition, §3 Showdown rule 7"),
    # the inventory's "see §5" points at its own topic 5, where the rule is RRP §3 B&R rule 6
    ("RRP-BR-6-COMPLETE", "Robert's Rules of Poker, card-room edition, §3 Betting & Raising rule 6"),
])
def test_a_robert_rules_number_is_quoted_with_its_section(key, quoted):
    assert floor_quote(key) == quoted


def test_every_printed_citation_of_a_sectioned_source_names_its_section():
    """Robert's Rules (card-room and private-games editions) restart their numbering in each section, so a
    printed citation without its section cannot be looked up; TDA numbers its rules straight through."""
    from rulings.rulebook.catalogue import citations
    unfindable = [(k, floor_quote(k)) for k, c in citations().items()
                  if c.source.startswith("Robert's Rules") and "§" not in floor_quote(k)
                  and not floor_quote(k).endswith("private-games edition, Betting & Raising")]
    assert unfindable == []
    assert all("see §" not in floor_quote(k) for k in citations())


# what the catalogue keeps for us and a player must never read: our notes on how sure a number is, the
# private-games edition's numbering, the seed documents' numbers, the inventory's own shorthand and keys
INTERNAL = re.compile(r"number confirmed|cross-reference|RRP-PG|\(cardroom\)|cardroom number|unverified|"
                      r"seed documents|low confidence|low authority|\bS\d{3}\b|#\d|\br\.\s?\d|"
                      r"\bRRP\b|TDA 2024|TDA-\d{4}|see §|\+|\*|\"|\(\s*\)")


def test_every_citation_key_is_quoted_without_internal_notes():
    """Every key of the catalogue, quoted the one way reports and the printed book quote it."""
    from rulings.rulebook.catalogue import citations
    leaked = {k: floor_quote(k) for k in citations() if INTERNAL.search(floor_quote(k))}
    assert leaked == {}
    quoted = {k: floor_quote(k) for k in citations()}
    assert quoted["RRP-PL-6"] == "Robert's Rules of Poker, card-room edition, §14 PL rule 6"
    # one form for every rule of a section, however the inventory wrote it ("RRP §14 NL r.3", "§14 NL r.5")
    assert quoted["RRP-NL-3"] == "Robert's Rules of Poker, card-room edition, §14 NL rule 3"
    assert quoted["RRP-NL-5"] == "Robert's Rules of Poker, card-room edition, §14 NL rule 5"
    # "RRP §4 r.1 (number confirmed by cross-reference) + §16 Explanations #1", "§4 r.8", "r.9"
    assert quoted["RRP-BB-1"] == "Robert's Rules of Poker, card-room edition, §4 Button & Blind Use rule 1"
    assert quoted["RRP-BB-8"] == "Robert's Rules of Poker, card-room edition, §4 Button & Blind Use rule 8"
    assert quoted["RRP-BB-9"] == "Robert's Rules of Poker, card-room edition, §4 Button & Blind Use rule 9"
    # "RRP §3 Ties r.1 (RRP-PG)", "RRP §3 B&R (#14 in RRP-PG)", "§13 r.2", "RRP §15"
    assert quoted["RRP-TIE-SUITS"] == "Robert's Rules of Poker, card-room edition, §3 Ties rule 1"
    assert quoted["RRP-BR-STRING"] == "Robert's Rules of Poker, card-room edition, §3 Betting & Raising"
    assert quoted["RRP-KILL-2"] == "Robert's Rules of Poker, card-room edition, §13 Kill Pots rule 2"
    assert quoted["RRP-TRN-TIME"] == "Robert's Rules of Poker, card-room edition, §15 Tournaments"
    # "TDA 2024 r.1", "r.15-B, r.65-A", "r.60, 62, 63", "r.47-A, TDA-2024-ADD47-EX2"
    assert quoted["TDA-2024-1"] == "Poker TDA Rules 2024, rule 1"
    assert quoted["TDA-2024-15B"] == "Poker TDA Rules 2024, rules 15-B and 65-A"
    assert quoted["TDA-2024-60/62/63"] == "Poker TDA Rules 2024, rules 60, 62 and 63"
    assert quoted["TDA-2024-47-MIN"] == "Poker TDA Rules 2024, rule 47-A"
    # the seed text has no section of its own: its entry's title when the inventory gives one, no S-number
    assert quoted["WIKI-BRINGIN-1"] == "Encyclopedia text on betting, \u201cBring-in\u201d"
    assert quoted["WIKI-TS-1"] == "Encyclopedia text on betting"
    assert quoted["BARGE-PL-1"] == "BARGE tournament rulebook, Pot-Limit"
    assert quoted["CP-MULHOLLAND-2007"] == "Card Player commentary, \u201cString Theory\u201d (2007)"
    assert floor_quote("HOUSE-HARBOR-14") == "house rule HOUSE-HARBOR-14"   # a house's own number


def test_several_citations_name_each_source_once_and_can_show_their_keys():
    from rulings.report.render import quote_all
    keys = ["RRP-PL-1", "TDA-2024-44", "RRP-PL-6", "TDA-2024-44-PL", "HOUSE-HARBOR-14"]
    assert quote_all(keys) == ("Robert's Rules of Poker, card-room edition, §14 PL rule 1 and §14 PL rule 6; "
                               "Poker TDA Rules 2024, rule 44; house rule HOUSE-HARBOR-14")
    assert quote_all(keys, with_keys=True) == (
        "Robert's Rules of Poker, card-room edition, §14 PL rule 1 (RRP-PL-1) and §14 PL rule 6 (RRP-PL-6); "
        "Poker TDA Rules 2024, rule 44 (TDA-2024-44, TDA-2024-44-PL); house rule HOUSE-HARBOR-14")
    assert quote_all(["WIKI-TS-1", "WIKI-BRINGIN-1", "WIKI-SIDEPOT-1"], with_keys=True) == (
        "Encyclopedia text on betting (WIKI-TS-1, WIKI-SIDEPOT-1), \u201cBring-in\u201d (WIKI-BRINGIN-1)")


def test_control_characters_from_the_incident_are_escaped(standard):
    r = rule(standard, **PLO, pot=80, disputed={"seat": 1, "said": "bet \x1b[31mfifty\x07 \u202e"})
    text = report_text(r, verbose=True)
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert escape("a\x1bb") == "a\\x1bb"


EXAMPLES = sorted((__import__("pathlib").Path(__file__).resolve().parents[1] / "examples" / "incidents").iterdir())


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_incident_has_an_outcome_and_one_ruling_per_matter(path, capsys):
    import json
    code = main(["rule", str(path), "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert data["outcome"] in ("ruled", "questions", "not_covered") and code == (3 if data["outcome"] == "not_covered" else 0)
    decides = [r["decides"] for r in data["rulings"]]
    assert len(decides) == len(set(decides)), decides
    main(["rule", str(path)])
    text = capsys.readouterr().out.splitlines()
    assert text[1].startswith("Outcome:") and (text[3] == "WHAT HAPPENS NOW" or data["outcome"] == "not_covered")


def test_chips_that_give_the_surplus_back_are_not_listed_as_not_considered(standard):
    """'bet 300' with three $100 chips into a $60 pot: cut to $60 and $240 of those chips go back, so the
    chips were weighed (the surplus is worked out from them)."""
    r = rule(standard, **PLO, pot=60, disputed={"seat": 1, "said": "bet 300", "chips": [100, 100, 100]},
             noticed="before_next_action")
    assert (wager(r).effects["wager_to"], wager(r).effects["returned"]) == (6000, 24000)
    assert "chips" not in r.not_considered


def test_an_unset_amount_word_reads_not_set_in_the_book(standard):
    """`rulings book` printed '...rooms differ: some mean 1,000, others 10: $0' for amount_words.dime."""
    from rulings.report.bookdoc import render_book
    text = render_book(standard[0], "markdown")
    dime = next(line for line in text.splitlines() if 'What "a dime" means' in line)
    assert dime.endswith("| not set (the room does not use the word; a player who says it is asked what he meant) |")
    assert "others 10: $0" not in text


# --- after an act out of turn: whose turn it is and what he faces (TDA 2024 rule 53) -------------------------

SIX = {"game": {"structure": "no-limit", "blinds": [1, 2]}, "button": 1,
       "players": {1: 300, 2: 300, 3: 300, 4: 300, 5: 300, 6: 300}, "street": "flop", "pot": 60}
BACK = ("If seat 3 or seat 4 bets or raises, seat 5's act out of turn is void and his $40 goes back to him: he has "
        "every option when his turn comes. A check, call or fold leaves it binding.")


def test_a_bet_out_of_turn_sends_the_action_back_to_the_first_skipped_seat_facing_what_he_faced(standard):
    r = rule(standard, **SIX, actions=[{"seat": 2, "action": "check"}],
             disputed={"seat": 5, "said": "bet 40", "chips": [40]})
    assert r.now == ["Seat 5 bets $40.", "The action goes back to seat 3, who faces no bet. " + BACK
                     + " Seat 3 may check or bet to at least $2 and at most $300 (all-in)."]
    (back,) = [x for x in r.rulings if x.decides == "next-to-act"]
    assert back.effects == {"out_of_turn_back_to": 3, "out_of_turn_back_faces": 0}
    # the report leads with the rule that decides an act out of turn (TDA 53: it binds), its chips still first
    assert r.rulings[0].decides == "out-of-turn" and r.rulings[0].cites[0] == "TDA-2024-53"
    assert any(x.decides == "wager" for x in r.rulings[1:])


def test_facing_a_bet_the_skipped_seat_faces_the_bet_capped_at_his_stack(standard):
    r = rule(standard, **dict(SIX, players={1: 300, 2: 300, 3: 15, 4: 300, 5: 300, 6: 300}),
             actions=[{"seat": 2, "action": "bet", "to": 20}],
             disputed={"seat": 5, "said": "raise to 60", "chips": [20, 20, 20]})
    assert r.now[0] == "Seat 5 raises to $60."
    assert r.now[1].startswith("The action goes back to seat 3, who faces $15 to call. If seat 3 or seat 4 bets "
                               "or raises, seat 5's act out of turn is void and his $60 goes back to him")


def test_once_a_skipped_seat_checked_the_next_skipped_seat_is_due(standard):
    r = rule(standard, **SIX, actions=[{"seat": 2, "action": "check"}],
             disputed={"seat": 5, "said": "bet 40", "chips": [40]}, after=[{"seat": 3, "action": "check"}])
    assert r.now[1] == ("The action goes back to seat 4, who faces no bet. If seat 4 bets or raises, seat 5's act "
                        "out of turn is void and his $40 goes back to him: he has every option when his turn "
                        "comes. A check, call or fold leaves it binding. Seat 4 may check or bet to at least $2 "
                        "and at most $300 (all-in).")


def test_a_skipped_seat_that_bets_voids_the_act_and_the_next_skipped_seat_faces_his_bet(standard):
    r = rule(standard, **SIX, actions=[{"seat": 2, "action": "check"}],
             disputed={"seat": 5, "said": "bet 40", "chips": [40]}, after=[{"seat": 3, "action": "bet", "to": 25}])
    assert r.rulings[0].ruling == "out-of-turn-returned"
    assert r.now[1:] == ["Seat 5 gets $40 back and faces $25 to call.",
                         "The action goes back to seat 4, who faces $25 to call. Seat 5 acts when his turn comes, "
                         "on what he faces then. Seat 4 may fold, call $25 or raise to at least $50 and at most "
                         "$300 (all-in)."]


def test_preflop_the_skipped_first_seat_faces_the_big_blind_and_a_fold_out_of_turn_binds_whatever_he_does(standard):
    pre = dict(SIX, button=6, street="preflop")
    del pre["pot"]
    r = rule(standard, **pre, disputed={"seat": 5, "said": "fold"})
    assert r.now[-1] == ("The action goes back to seat 3, who faces $2 to call. Seat 5's fold out of turn binds "
                         "whatever seat 3 or seat 4 does. Seat 3 may fold, call $2 or raise to at least $4 and at "
                         "most $300 (all-in).")
    assert (r.next["seat"], r.next["to_call"], r.next["min_raise_to"]) == (3, 200, 400)
    r = rule(standard, **pre, disputed={"seat": 5, "said": "raise to 6"},
             after=[{"seat": 3, "action": "call", "to": 2}, {"seat": 4, "action": "call", "to": 2}])
    assert not [x for x in r.rulings if x.decides == "next-to-act"]    # every skipped seat has acted: none is due


def test_two_checks_out_of_turn_are_not_substantial_action_and_the_skipped_seat_keeps_every_option(standard):
    # flop, pot $60, seat 2 checked: seat 5 checks before seats 3 and 4, and seat 6 checks after him (both out
    # of turn, no chips: not substantial action, TDA 2024 rule 36); the action goes back to seat 3
    r = rule(standard, **SIX, actions=[{"seat": 2, "action": "check"}], disputed={"seat": 5, "said": "check"},
             after=[{"seat": 6, "action": "check"}])
    (back,) = [x for x in r.rulings if x.decides == "next-to-act"]
    assert back.effects == {"out_of_turn_back_to": 3, "out_of_turn_back_faces": 0}
    assert r.next is not None and (r.next["seat"], r.next["to_call"], r.next["min_raise_to"]) == (3, 0, 200)
    assert any(line.endswith("Seat 3 may check or bet to at least $2 and at most $300 (all-in).") for line in r.now)
    # a third action is substantial action: the checks stand and nothing goes back
    r = rule(standard, **SIX, actions=[{"seat": 2, "action": "check"}], disputed={"seat": 5, "said": "check"},
             after=[{"seat": 6, "action": "check"}, {"seat": 1, "action": "check"}])
    assert not [x for x in r.rulings if x.decides == "next-to-act"]
