"""Told disputes (rulings/told/): a dispute told in the floor's words, read through the one incident reader and
ruled. The disputes here were written for these tests, in several voices; the floor bench's descriptions are a
bench (benchmarks/told_bench.py), not test data."""
from __future__ import annotations

import json

import pytest

from rulings.problems import ProblemsError
from rulings.told import LexiconError, extended, read_told
from rulings.told.rule import rule_told_text


def _json(text: str, house: str | None = None) -> tuple[dict, int]:
    out, code = rule_told_text(text, house, "json")
    return json.loads(out), code


def _effects(report: dict) -> dict:
    return report["rulings"][0]["effects"]


# ---- several voices, each ruled as its incident would be

def test_pot_limit_words_then_three_black_chips():
    rep, code = _json("PLO 2/5, flop, about sixty in the middle. Seat 1 bets forty, seat 2 says raise and puts "
                      "out three black chips.")
    assert code == 0
    assert rep["told"]["read_as"].startswith("Read as: pot-limit Omaha 2/5; flop; pot 60; button read as seat 2; seat 1 bet 40; "
                                             "seat 2 said 'raise' and put out 3 black")
    assert rep["told"]["incident"]["disputed"] == {"seat": 2, "said": "raise", "chips": [100, 100, 100],
                                                   "words_first": "words"}
    assert _effects(rep)["wager_to"] == 180


def test_a_single_oversized_chip_in_slang():
    rep, _ = _json("2-5 no limit, turn, 400 in the pot. Seat 3 bets 100, seat 7 silently tosses in a single "
                   "500 chip.")
    assert _effects(rep) == {"wager_to": 100, "returned": 400}


def test_positions_and_a_chip_colour_preflop():
    rep, _ = _json('NLHE 1/2. UTG limps, the button raises to 12, the small blind folds, the big blind calls, '
                   'UTG says "call" and puts out a red chip.')
    assert "UTG is seat 3" in rep["told"]["read_as"] and rep["told"]["incident"]["street"] == "preflop"
    assert _effects(rep)["wager_to"] == 12 and _effects(rep)["owed"] == 5


def test_a_phone_s_typos_are_read_and_said():
    told = read_told("plo 1/2 flop 100 in the middle. seat 4 bets 50, seat 6 sez pot")
    assert told.incident["disputed"] == {"seat": 6, "said": "pot"}
    told = read_told("NL 2/5 flop pot 60. Seat 1 bets 40. Seat 2 rasies to 100. What can seat 1 do?")
    assert told.typos == ["read 'rasies' as 'raises'"]
    assert told.incident["actions"][-1] == {"seat": 2, "action": "raise", "to": 100}


def test_letters_are_seats_kept_apart_and_a_short_all_in_does_not_reopen():
    rep, _ = _json("NL 1/2 flop pot 30. A bets 20, B is all-in for 25, C calls 25. Can A raise?")
    assert "A is seat 1, B is seat 2, C is seat 3" in rep["told"]["read_as"]
    assert rep["rulings"][0]["effects"]["to_call"] == 5
    assert "not reopened" in rep["rulings"][0]["sentence"]


def test_words_then_a_correction_are_the_declaration_reader_s():
    rep, _ = _json('NL 1/3 cash, river, 250 in the pot. Seat 5 bets 50, seat 8 says "all in"... "no, call"')
    assert rep["told"]["incident"]["disputed"]["said"] == "all in... no, call"
    assert "'all-in' first" in rep["rulings"][0]["sentence"]


def test_limit_chips_silently_are_a_raise_of_one_bet():
    rep, _ = _json("Limit holdem 10/20 flop. Seat 2 bets 10, seat 4 silently puts in $30.")
    assert _effects(rep)["wager_to"] == 20


def test_a_stack_told_and_pot_said():
    rep, _ = _json("PLO 5/10 flop, 300 in the middle. Seat 2 checks, seat 5 has 1,200 and says all in.")
    assert rep["told"]["incident"]["players"]["5"] == 1200
    assert _effects(rep)["wager_to"] == 300


def test_the_minimum_raise_asked_about_a_letter():
    rep, _ = _json("NL 100-200 flop. A bets 600, B raises to 1,600, C re-raises to 3,600. "
                   "What is the minimum D can raise to?")
    assert rep["told"]["incident"]["disputed"] == {"seat": 4}
    assert rep["rulings"][0]["effects"]["min_raise_to"] == 5600


def test_a_fact_not_told_stays_unknown():
    """No stacks told: none filled in; no street told: said so in the read-as line, the pot not guessed."""
    told = read_told("NL 1/3. A bets $100. B says call and pushes $100.")
    assert told.incident["players"] == {1: None, 2: None}
    assert "pot" not in told.incident
    assert "the street was not told" in told.read_as_line()


# ---- what it cannot read, it names

def test_a_sentence_not_read_is_named_word_for_word_with_its_place():
    with pytest.raises(ProblemsError) as exc:
        read_told("NL 2/5 flop.\nSeat 1 bets 40, seat 2 flibbers the chips.")
    p = exc.value.problems[0]
    assert (p.line, p.col) == (2, 24) and "'flibbers'" in p.message


@pytest.mark.parametrize("text, says", [
    ("", "nothing was told"),
    ("   \n  ", "nothing was told"),
    ("x" * 100_000, "100,000 characters"),
    ("NL 2/5 flop. Seat 1 bets 40\x07, seat 2 calls.", "control character"),
    ("Seat 1 went to the bar and ordered a beer.", "not read"),
    ("NL 2/5 flop, pot 100. Seat 1 bets 40, seat 2 calls.", "no dispute was told"),
    ("NL 2/5 and PLO 1/2. Seat 1 bets 40, seat 2 says call.", "two games at once"),
])
def test_bad_text_gets_a_clear_answer(text, says):
    with pytest.raises(ProblemsError) as exc:
        read_told(text)
    assert any(says in p.message for p in exc.value.problems)
    out, code = rule_told_text(text, None, "json")
    assert code == 2 and "problems" in json.loads(out)


def test_the_lexicon_is_data_a_house_extends():
    lex = extended("chip_colours: {pink: 2.5, black: 100}\nterms:\n  SAYS:\n    says: [hollers]\n", "house.yaml")
    told = read_told("NL 1/2 flop pot 20. Seat 1 bets 5, seat 2 hollers call and puts out two pink chips.", lex)
    assert told.incident["disputed"] == {"seat": 2, "said": "call", "chips": ["2.5", "2.5"], "words_first": "words"}
    with pytest.raises(LexiconError, match="both"):
        extended("terms:\n  VERB:\n    call: [raises]\n", "house.yaml")


# ---- the front ends

def test_rule_told_and_a_txt_file_on_the_command_line(tmp_path, capsys):
    from rulings.cli.main import main
    text = "NL 2/5, turn, $300 in the pot. Seat 1 bets $50, seat 2 says raise and puts in $80."
    assert main(["rule", "--told", text]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Read as: no-limit 2/5; turn; pot 300;") and "RULING" in out
    f = tmp_path / "dispute.txt"
    f.write_text(text, encoding="utf-8")
    assert main(["rule", str(f), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["told"]["text"] == text
    f.write_text("", encoding="utf-8")
    assert main(["rule", str(f)]) == 2
    assert "nothing was told" in capsys.readouterr().err


def test_the_api_rules_and_consults_a_told_dispute_and_keeps_the_text(client):
    from service_support import login
    floor = login(client, "fiona")
    text = "2-5 no limit, turn, 400 in the pot. Seat 3 bets 100, seat 7 silently tosses in a single 500 chip."
    r = client.post("/api/rule", json={"told": text, "table": "4"}, headers=floor)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["told"]["read_as"].startswith("Read as:")
    entry = client.get(f"/api/log/{out['entry']['id']}", headers=floor).json()
    assert entry["incident"]["note"] == text
    step = client.post("/api/consult", json={"told": text}, headers=floor).json()
    assert step["told"]["text"] == text and step["outcome"] == "ruled"
    bad = client.post("/api/consult", json={"told": ""}, headers=floor)
    assert bad.status_code == 422 and "nothing was told" in bad.text
    both = client.post("/api/rule", json={"told": text, "incident": {}}, headers=floor)
    assert both.status_code == 422
    long = client.post("/api/rule", json={"told": "a" * 20_000}, headers=floor)
    assert long.status_code == 422 and "at most" in long.text


def test_a_whole_hand_told_street_by_street_with_the_button_named():
    rep, code = _json("NL 1/2 cash. Seat 6 is the button, seat 1 the small blind, seat 2 the big blind. Preflop: "
                      "seat 4 raises to 8, seat 6 calls, seat 1 folds, seat 2 calls. Flop: seat 2 checks, seat 4 bets "
                      "20, seat 6 calls, seat 2 folds. Turn: seat 4 bets 50 and seat 6 says raise and puts out two "
                      "black chips.")
    inc = rep["told"]["incident"]
    assert [s["street"] for s in inc["streets"]] == ["preflop", "flop", "turn"] and inc["button"] == 6
    assert inc["disputed"]["at"] == {"street": "turn", "after": 1}
    assert _effects(rep)["wager_to"] == 200 and code == 0


def test_when_it_was_noticed_is_read_after_the_act():
    told = read_told("PLO 1/2 turn, 100 in the pot. Seat 1 bets 50, seat 2 says raise to four hundred. "
                     "Nobody has acted on it yet.")
    assert told.incident["noticed"] == "before_next_action"
    assert "noticed" not in read_told("PLO 1/2 turn, 100 in the pot. Seat 1 bets 50, seat 2 says raise to four "
                                      "hundred.").incident


def test_ask_told_continues_as_a_consultation(capsys):
    import io
    from rulings.commands.ask import run
    answers = iter(["3"])
    written = io.StringIO()
    code = run(None, None, None, read=lambda prompt: next(answers), out=written, told="PLO 1/2 turn, 100 in the "
               "pot. Seat 1 bets 50, seat 2 says raise to four hundred")
    out = written.getvalue()
    assert code == 0
    assert out.startswith("Read as: pot-limit Omaha 1/2; turn; pot 100;")
    assert "When was it pointed out" in out and "wager-stands" in out.split("outcome:")[0].split("so far")[-1]
    assert run(None, None, None, read=lambda prompt: "q", out=io.StringIO(), told="") == 2
    assert "nothing was told" in capsys.readouterr().err


def _told_cases():
    import yaml
    from pathlib import Path
    path = Path(__file__).parent / "data" / "told" / "cases.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", _told_cases(), ids=lambda c: c["id"])
def test_told_disputes_in_several_voices_are_ruled_as_answered(case):
    """tests/data/told/cases.yaml, in the floor bench's form (benchmarks/told_bench.py --cases scores it too): each
    dispute's answer, checked by hand against the rules, is among its rulings' numbers and citations."""
    rep, code = _json(case["description"])
    assert code == 0, rep
    rulings = rep["rulings"]
    have = {v for r in rulings for v in (r.get("effects") or {}).values() if isinstance(v, (int, float))}
    for name, value in case["expected"]["numbers"].items():
        assert value in have, (name, value, have)
    cited = {c["key"] for r in rulings for c in r.get("citations") or []}
    assert set(case["expected"]["citations"][:1]) <= cited


# ---- classes of phrasing (each dispute written for these tests from the rule texts)

def test_a_claim_is_kept_word_for_word_and_never_read_as_a_fact():
    # RRP NL 11 / TDA 44: one oversized chip put out silently facing a bet is a call; what the bettor thinks of it
    # is his claim, not a fact of the incident
    rep, code = _json("NL 1/2 cash, river, pot 80. Seat 2 bets 30. Seat 5 silently puts out one black chip. "
                      "Seat 2 thinks it's a raise to 100.")
    assert code == 0 and rep["told"]["claims"] == ["Seat 2 thinks it's a raise to 100"]
    assert rep["told"]["incident"]["disputed"] == {"seat": 5, "chips": [100]}
    assert _effects(rep) == {"wager_to": 30, "returned": 70}


def test_the_pot_and_a_bet_told_in_chip_colours():
    # pot-limit: facing 25 with 100 in the middle, a pot raise goes to 25 + (100 + 25 + 25) = 175
    told = read_told("PLO 1/2, four greens in the middle on the turn. Seat 3 bets one green, seat 6 says pot.")
    assert told.incident["pot"] == 100 and told.incident["actions"] == [{"seat": 3, "action": "bet", "to": 25}]
    rep, _ = _json("PLO 1/2, four greens in the middle on the turn. Seat 3 bets one green, seat 6 says pot.")
    assert _effects(rep)["wager_to"] == 175


def test_a_chips_total_that_does_not_add_up_is_not_read():
    told = read_told("NL 1/2, flop, pot 100. Seat 1 bets 20, seat 2 silently puts out two 25 chips (50).")
    assert told.incident["disputed"]["chips"] == [25, 25]
    with pytest.raises(ProblemsError) as exc:
        read_told("NL 1/2, flop, pot 100. Seat 1 bets 20, seat 2 silently puts out two 25 chips (60).")
    assert "the chips told make 50, not 60" in exc.value.problems[0].message


def test_there_is_not_a_typo_of_three():
    told = read_told("NL 1/2, flop. There is $30 in the pot. Seat 1 bets 10, seat 2 silently puts out a red chip.")
    assert told.incident["pot"] == 30 and not told.typos


def test_an_act_out_of_turn_then_the_skipped_seat_raises():
    # TDA 53: the skipped seat raised, so the action changed: the out-of-turn call does not bind
    rep, code = _json('NL 1/2, flop, pot 30. Seat 1 bets 10. With the action on seat 3, seat 5 says "call" out '
                      'of turn. Seat 3 raises to 40. What can seat 5 do?')
    inc = rep["told"]["incident"]
    assert inc["disputed"] == {"seat": 5, "said": "call"} and inc["after"] == [{"seat": 3, "action": "raise",
                                                                                 "to": 40}]
    assert code == 0 and _effects(rep)["to_call"] == 40


def test_who_shows_first_is_read_from_the_last_round_told():
    # TDA 16/17: with a bet on the final round, the last aggressor shows first
    rep, code = _json("NL 2/5 cash, river. Seat 3 bets 100, seat 8 raises to 300, seat 3 calls. Who shows first?")
    assert rep["told"]["incident"]["procedure"] == {"showdown": {}}
    assert code == 0 and _effects(rep) == {"shows_first": 8}


def test_a_position_told_with_its_seat_places_the_button_and_the_blinds():
    rep, code = _json("NLHE 100-200 tournament, preflop. UTG (seat 3) raises to 500, seat 5 shoves three purples "
                      "and a black, seat 6 has more than 10,000. What can seat 6 do?")
    inc = rep["told"]["incident"]
    assert inc["button"] == 7 and {1, 2, 3, 5, 6} <= {int(s) for s in inc["players"]}
    assert inc["players"]["5"] == 1600 and inc["players"]["6"] is None     # 'more than' is no amount
    assert code == 0 and _effects(rep)["min_raise_to"] == 2700


def test_a_person_told_only_by_a_stack_is_in_the_hand():
    # limit, half-bet rule not in force by default: a short all-in of 15 in a 20 round; C still to act has chips,
    # so B's options are not 'everyone else is all in'
    told = read_told("$20/$40 limit, flop. A opens by going all-in for $15. B, next, wants to raise. "
                     "C, with chips behind, is still to act.")
    assert set(told.incident["players"]) == {1, 2, 3}


def test_a_second_question_is_said_as_not_answered():
    told = read_told("NL 50-100, flop. A bets 100, B is all-in for 125, C calls 125. Back on A: can he raise? "
                     "Then what can C do?")
    assert told.incident["disputed"] == {"seat": 1} and told.unanswered == ["Then what can C do?"]


# ---- a house's words

def test_a_house_extends_the_told_words_beside_its_book_and_lint_checks_them(tmp_path):
    from rulings.ruling.books import lint_report
    from rulings.rulebook.house import house_names
    from rulings.told.lexicon import lexicon_problems
    book = tmp_path / "riverside.yaml"
    book.write_text("rulebook: riverside\nextends: standard\ntitle: Riverside card room\n", encoding="utf-8")
    (tmp_path / "riverside.told.yaml").write_text(
        "chip_colours: {pink: 2.5, blue: 10, black: 100}\nterms:\n  PUT:\n    put: [plops]\n", encoding="utf-8")
    text = "NL 1/2 flop pot 20. Seat 1 bets 5, seat 2 silently plops two blues."
    rep, code = _json(text, str(book))
    assert rep["told"]["incident"]["disputed"] == {"seat": 2, "chips": [10, 10]}
    assert code == 0
    out, code = rule_told_text(text, None, "json")          # the standard words know neither
    assert code == 2 and "plops" in out
    assert house_names(tmp_path) == ["riverside"]
    lexicons: list = []
    problems, checked = lint_report([str(tmp_path)], None, lexicons)
    assert checked.houses == 1 and lexicons == [tmp_path / "riverside.told.yaml"] and not lexicon_problems(lexicons[0])
    (tmp_path / "riverside.told.yaml").write_text("terms:\n  VERB:\n    call: [raises]\n", encoding="utf-8")
    assert [p.code for p in lexicon_problems(lexicons[0])] == ["R117"]
    out, code = rule_told_text(text, str(book), "json")
    assert code == 2 and "told lexicon cannot be used" in out


def test_stud_upcards_told_as_cards_decide_who_brings_it_in():
    # RRP stud: the lowest upcard brings it in, a tie of rank broken by suit (clubs lowest); 'limits' makes it limit
    rep, code = _json("Stud tournament, limits 400/800, ante 50, bring-in 100. Upcards: seat 1 the four of hearts, "
                      "seat 3 4c, seat 6 the jack of spades. What can seat 6 do?")
    inc = rep["told"]["incident"]
    assert inc["upcards"] == {"1": "4h", "3": "4c", "6": "Js"} and inc["street"] == "third"
    assert inc["game"]["structure"] == "fixed-limit" and "no-limit or pot-limit was not told" in rep["told"]["read_as"]
    assert code == 0 and {"bring_in_seat": 3} in [r["effects"] for r in rep["rulings"]]


def test_people_told_by_name_are_seats_in_the_order_told():
    told = read_told("NL 1/2, flop, pot 40. Alice bets 20, Bob silently puts out a black chip. What does Bob owe?")
    assert "Alice is seat 1, Bob is seat 2" in told.read_as_line()
    assert told.incident["disputed"] == {"seat": 2, "chips": [100]}
    with pytest.raises(ProblemsError):      # a capitalised word only at a sentence's start is not a name
        read_told("NL 1/2, flop. Dealing the turn, seat 2 bets 5.")


def test_a_check_raise_puts_the_check_first():
    # RRP NL 5: the button's all-in of $300 over a $70 raise is a full raise; the big blind may call or re-raise
    told = read_told("$1-$3 no limit. Flop. Pot's $45. Button bets $30, BB check-raises to $70, button shoves for "
                     "$300 total. What can BB do?")
    assert [a["action"] for a in told.incident["actions"]] == ["check", "bet", "raise", "raise"]
    assert told.incident["actions"][0]["seat"] == told.incident["actions"][2]["seat"]


def test_a_phone_s_run_on_sentence_is_cut_where_a_new_actor_is_named():
    # RRP NL 11-12: a red, a red and a green silently facing $20 on a pot of 60 is $35: a raise short of the $40
    # minimum but over half of it, so a cash game brings it up to the minimum when a raise was meant
    told = read_told("nl 1/2 turn pot 60 seat 4 bet 20 seat 7 put out 2 reds and a green no word spoken")
    assert told.incident["actions"] == [{"seat": 4, "action": "bet", "to": 20}]
    assert told.incident["disputed"] == {"seat": 7, "chips": [5, 5, 25]}


def test_seats_told_preflop_place_the_blinds_before_the_first_to_act():
    told = read_told('NLHE tourney, level 10, blinds 400/800, 800 bb ante. Seat 2 raises to 2,000 preflop, seat 6 '
                     'says "raise" and puts in 4,000.')
    assert "the small blind read as seat 8, the big blind read as seat 1, button read as seat 6" in \
        told.read_as_line()
    rep, code = _json('NLHE tourney, level 10, blinds 400/800, 800 bb ante. Seat 2 raises to 2,000 preflop, seat 6 '
                      'says "raise" and puts in 4,000.')
    assert code == 0 and _effects(rep)["wager_to"] == 4000


def test_words_said_after_the_chip_lands_come_second():
    # RRP NL 11: one oversized chip facing a bet with "raise" said only after it landed is a call
    rep, code = _json('NL 2/5. Flop. Seat 1 bets $25. Seat 3 throws in a $100 chip and says "raise" after it lands.')
    assert rep["told"]["incident"]["disputed"]["words_first"] == "chips"
    assert code == 0 and _effects(rep) == {"wager_to": 25, "returned": 75}


def test_a_limit_cap_told_in_slang():
    told = read_told("Limit 4/8, flop. seat 3 bets 4, seat 6 raises 8, seat 9 3-bets to 12, seat 1 caps it at 16. "
                     "seat 3 wants to raise again. can he?")
    assert [a.get("to") for a in told.incident["actions"]] == [4, 8, 12, 16] and not told.unanswered


def test_words_said_then_a_stack_and_chips_added_after_a_pause():
    told = read_told('NL 1/2 cash. On the river seat 3 checks and seat 7 bets 40. Seat 3 says "all in" and has 210 '
                     'behind.')
    assert told.incident["players"][3] == 210 and told.incident["disputed"] == {"seat": 3, "said": "all in"}
    told = read_told('$1/$2 NL, flop pot $40. Seat 6 bets $15. Seat 9 goes "raise" and then after a pause adds $30.')
    assert told.incident["disputed"]["said"] == "raise" and sum(told.incident["disputed"]["chips"]) == 30


def test_a_pot_told_before_its_word_and_a_possessive():
    told = read_told("2/5 NL cash, flop, $150 pot. Seat 2 bets $50. Seat 5 says 'make it 150' and puts out a single "
                     "$100 chip. What is seat 5's raise?")
    assert told.incident["pot"] == 150 and told.incident["disputed"]["seat"] == 5 and not told.unread


def test_a_kill_history_is_read_into_the_table_and_nothing_is_filled_in():
    # RRP kill pots rule 3: a leg up and a second pot won alone force a kill; the first pot's size, the blind money
    # and the button were not told and are not invented (the button is shown as read)
    told = read_told("15/30 limit, kill game. Seat 3 won the last pot. Seat 3 wins it again: a $210 pot. "
                     "Is the next hand killed?")
    assert told.incident["table"] == {"pots": [{"winners": [3]}, {"winners": [3], "amount": 210}]}
    assert "seat 3 won the pot before" in told.read_as_line()
    # a pot of only the blinds is the blinds: no flop, all of it blind money
    told = read_told("10/20 limit kill game. Seat 7 has a leg up. Seat 7 wins only the blinds. Who kills?")
    assert told.incident["table"]["pots"] == [{"winners": [7], "flop": False, "amount": 15, "blind_money": 15}]


def test_a_kill_told_beside_a_hands_betting_is_named_never_dropped():
    # whether this hand is killed changes its limits: the kill words are said as not read
    with pytest.raises(ProblemsError) as err:
        read_told("20/40 limit with a half kill, flop, pot 200. Seat 1 bets 20, seat 2 says raise.")
    assert "with a half kill" in err.value.problems[0].message
    with pytest.raises(ProblemsError) as err:
        read_told("20/40 limit. Seat 4 has a leg up. Flop, pot 200: seat 1 bets 20, seat 2 says raise.")
    assert "kill history" in err.value.problems[0].message


def test_an_action_while_another_seat_is_to_act_is_out_of_turn_and_he_was_first():
    # TDA 53: "before seat 1 acts, seat 6 folds" is a fold out of turn; seat 1 was to act, so the button is read
    # before him (never a reading that makes seat 6's fold in turn)
    told = read_told("NL 1/3 cash, flop, pot 90, three players: seat 1, seat 4, seat 6. Before seat 1 acts, "
                     "seat 6 mucks his cards. Does his fold stand?")
    assert told.incident["disputed"] == {"seat": 6, "said": "fold"} and told.incident["button"] == 6
    assert told.incident["actions"] == []


def test_noticed_at_once_after_later_actions_is_after_some_action():
    # the fold out of turn, then another fold, then "speaks up at once": noticed after some action on it
    told = read_told("NLHE tournament 200-400, preflop. UTG (seat 3) is skipped: seat 4 folds out of turn, then "
                     "seat 5 calls 400. Seat 3 speaks up at once, before anyone else acts.")
    assert told.incident["noticed"] == "after_some_action"
    assert told.incident["after"] == [{"seat": 5, "action": "call", "to": 400}]


@pytest.mark.parametrize("text, read", [
    ("5/10 stud, 4th street, pot 40. Seat 3 bets 10, seat 5 says raise.", "fourth; pot 40"),   # an ordinal street
    ("NL 1/2 cash, HU on the flop, pot 30. seat 1 bets 10, seat 2 is alin for 45. what can seat 1 do?",
     "seat 2 all in for 45"),
    ("NL 1/2 cash, flop, pot 30. seat 1 bets 10, seat 2 silently puts out two greens, doesnt say anything.",
     "seat 2 put out"),
])
def test_a_phones_words_are_read_as_the_floor_means_them(text, read):
    assert read in read_told(text).read_as_line()


def test_a_second_act_is_named_and_an_objection_kept_as_a_claim_never_dropped():
    # two pot-sized declarations: the incident holds one act, so the second is named (it was once dropped silently)
    with pytest.raises(ProblemsError) as err:
        read_told("PLO 1/2, flop, pot 10. Seat 1 bets pot. Seat 2 bets pot. What can seat 3 do?")
    assert "two acts told: seat 2's ('pot') after seat 1's" in err.value.problems[0].message
    # another player's words that declare no action are his objection: a claim, word for word
    told = read_told("$10/$20 limit hold'em, flop. A bets $10. B says nothing, puts in $10, pauses, then goes back "
                     "to his stack and adds another $10. C says \"string raise\".")
    assert told.claims == ["C says 'string raise'"] and told.incident["disputed"]["seat"] == 2


def test_the_bettor_is_the_seat_told_betting():
    # "the bettor" names the seat that bet, never a new seat of its own
    told = read_told('PLO 2/5, flop, 100 in the pot. Seat 2 bets 100. Seat 5 puts out a purple and says "pot". '
                     "The bettor says it's too much.")
    assert sorted(told.incident["players"]) == [2, 5]
