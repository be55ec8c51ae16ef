"""High-low split games (issue 43, inventory §30): the best high and the best low of eight or better share the
pot, the odd chip of the cut to the high half, each half shared by its tied winners from the button's left.

Numbers from the inventory's worked split pots (SPLIT-QUARTER: a 120-unit pot quartered 90/30; 123 units,
62 high and 61 low, 92/31 when the low's odd unit falls to the quartered player; no qualifying low, all 123 to
the high hand), ruled through the whole path from the incident's text.
"""
from __future__ import annotations

import pytest

from rulings.incident import incident_from_text
from rulings.problems import ProblemsError
from rulings.report.render import report_json
from rulings.ruling import books
from rulings.ruling.decide import rule_on

OMAHA8 = """\
game: {variant: omaha, structure: pot-limit, blinds: [1, 2], high_low: true}
button: BUTTON
players: {3: 500, 5: 500}
street: river
POT
procedure: {showdown: {in_showdown: [3, 5], hands: {3: JdQsAc2c, 5: As2d9c9s}, board: BOARD}}
"""


def _rule(text: str) -> dict:
    book, engine = books.load()
    return report_json(rule_on(incident_from_text(text), book, engine))


def _omaha8(pot: int | None, button: int = 1, board: str = "Jc7d5s3hJh") -> dict:
    return _rule(OMAHA8.replace("BUTTON", str(button)).replace("BOARD", board)
                 .replace("POT", f"pot: {pot}" if pot is not None else ""))


def _pot_ruling(report: dict) -> dict:
    return next(r for r in report["rulings"] if r["decides"] == "pot")


def test_a_hand_that_ties_for_low_alone_is_quartered():
    ruling = _pot_ruling(_omaha8(120))
    assert ruling["ruling"] == "high-low-split"
    assert ruling["effects"] == {"high_half": 60, "low_half": 60}
    assert "seat 3 $90" in ruling["sentence"] and "seat 5 $30" in ruling["sentence"]
    keys = [c["key"] for c in ruling["citations"]]
    assert keys[0] == "RRP-TIE-5C" and "TDA-2024-20C" in keys     # a cash game: Robert's Rules first


@pytest.mark.parametrize("button,takes", [(4, ("seat 5 $31", "seat 3 $92")), (2, ("seat 3 $93", "seat 5 $30"))])
def test_the_odd_chip_of_the_cut_goes_high_and_the_lows_to_the_first_winner_left_of_the_button(button, takes):
    ruling = _pot_ruling(_omaha8(123, button=button))
    assert ruling["effects"] == {"high_half": 62, "low_half": 61}
    assert all(t in ruling["sentence"] for t in takes)


def test_with_no_low_of_eight_or_better_the_high_hand_scoops():
    ruling = _pot_ruling(_omaha8(123, board="JcKd5s3hJh"))
    assert ruling["ruling"] == "high-takes-all" and ruling["effects"] == {"pot_winner": 3}
    assert "seat 3 $123" in ruling["sentence"] and ruling["citations"][0]["key"] == "RRP-O8-2"


def test_the_pot_not_given_names_each_halfs_winners_and_asks_the_pot():
    report = _omaha8(None)
    ruling = _pot_ruling(report)
    assert ruling["ruling"] == "high-low-split-winners" and not ruling["effects"]
    assert "seat 3" in ruling["sentence"] and "seats 3 and 5" in ruling["sentence"]
    assert report["outcome"] == "questions"


def test_a_game_played_for_high_only_gives_the_pot_to_the_best_high_hand():
    report = _rule(OMAHA8.replace(", high_low: true", "").replace("BUTTON", "1").replace("BOARD", "Jc7d5s3hJh")
                   .replace("POT", "pot: 120"))
    assert _pot_ruling(report)["effects"] == {"pot_winner": 3}


def test_the_whole_hand_told_street_by_street_is_split_from_its_boards_and_the_cards_shown():
    text = """\
game: {variant: omaha, structure: pot-limit, blinds: [1, 2], high_low: true}
button: 4
players: {1: 500, 3: 500, 5: 500}
streets:
  - street: preflop
    actions: [{seat: 3, action: call}, {seat: 5, action: call}, {seat: 1, action: check}]
  - street: flop
    board: Jc 7d 5s
    actions: [{seat: 5, action: check}, {seat: 1, action: check}, {seat: 3, action: check}]
  - street: turn
    board: 3h
    actions: [{seat: 5, action: bet, to: 6}, {seat: 1, action: fold}, {seat: 3, action: call}]
  - street: river
    board: Jh
    actions: [{seat: 5, action: check}, {seat: 3, action: check}]
showdown:
  - {seat: 5, shows: As 2d 9c 9s}
  - {seat: 3, shows: Jd Qs Ac 2c}
"""
    ruling = _pot_ruling(_rule(text))
    # $6 of blinds and calls, $12 on the turn: $18, $9 a half; the low's odd $1 to seat 5, first left of the button
    assert ruling["effects"] == {"high_half": 9, "low_half": 9}
    assert "seat 5 $5" in ruling["sentence"] and "seat 3 $13" in ruling["sentence"]


def test_stud_high_low_picks_any_five_for_each_half():
    text = """\
game: {variant: stud, structure: fixed-limit, ante: 1, bring_in: 2, bet_sizes: [5, 10], high_low: true}
players: {1: 300, 4: 300}
street: seventh
pot: 85
actions: [{seat: 1, action: check}, {seat: 4, action: check}]
procedure: {showdown: {in_showdown: [1, 4], hands: {1: HAND1, 4: 4h5h6h8cKdKhQs}, board: ""}}
"""
    scoop = _pot_ruling(_rule(text.replace("HAND1", "As2s3d9h9c9dKc")))     # three nines; A-2-3 is no low
    assert scoop["ruling"] == "high-takes-all" and scoop["effects"] == {"pot_winner": 1}
    split = _pot_ruling(_rule(text.replace("HAND1", "As2s3d7c8h9dKc")))     # 8-7-3-2-A low; kings are high
    # no small blind and a $2 bring-in that does not divide $85: cut in $1, the odd $1 high
    assert split["effects"] == {"high_half": 43, "low_half": 42}
    assert "seat 4 $43" in split["sentence"] and "seat 1 $42" in split["sentence"]


@pytest.mark.parametrize("game,message", [
    ("{variant: razz, structure: fixed-limit, ante: 1, bring_in: 2, bet_sizes: [5, 10], high_low: true}",
     "played for low only"),
    ("{variant: omaha, structure: pot-limit, blinds: [1, 2], high_low: sometimes}", "true or false")])
def test_a_high_low_flag_that_cannot_be_is_refused(game, message):
    with pytest.raises(ProblemsError) as err:
        incident_from_text(f"game: {game}\nbutton: 1\nplayers: {{1: 100, 2: 100}}\nstreet: river\npot: 10\n")
    assert any(message in p.message and p.code in ("I103", "I105") for p in err.value.problems)
