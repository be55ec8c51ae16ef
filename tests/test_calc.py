"""`rulings calc`: the sources' numbers through the command line, PHH input, and refusals with index and seat."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.main import main

SAMPLE = Path(__file__).resolve().parent / "data" / "phh-sample" / "data"
WSOP = SAMPLE / "wsop" / "2019" / "42" / "3" / "00-01-07.phh"


def calc(capsys, tmp_path, text: str | None, *args: str, path: Path | None = None):
    if text is not None:
        path = tmp_path / "hand.yaml"
        path.write_text(text)
    code = main(["calc", str(path), "--format", "json", *args])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, (json.loads(out.out) if code == 0 else None), out.err


NL_100_200 = """\
game: {structure: no-limit, blinds: [100, 200], setting: tournament}
button: 6
players: {1: 100000, 2: 100000, 3: 100000, 4: 100000, 5: 100000, 6: 100000}
street: preflop
"""


def test_tda_2024_43a_ex1_min_raise_is_largest_increment(capsys, tmp_path):
    text = NL_100_200 + "actions: [{seat: 3, action: raise, to: 600}, {seat: 4, action: raise, to: 1600}, " \
                        "{seat: 5, action: raise, to: 3600}]\n"
    code, data, _ = calc(capsys, tmp_path, text)
    assert code == 0 and data["actor"] == 6
    assert (data["current_bet"], data["last_full_raise"], data["min_raise_to"]) == (3600, 2000, 5600)


def test_olr_pl_1_range_after_raise_to_7_is_12_to_24(capsys, tmp_path):
    text = ("game: {structure: pot-limit, blinds: [1, 2]}\nbutton: 4\nplayers: {1: 500, 2: 500, 3: 500, 4: 500}\n"
            "street: preflop\nactions: [{seat: 3, action: raise, to: 7}]\n")
    code, data, _ = calc(capsys, tmp_path, text)
    assert (data["pot"], data["to_call"], data["min_raise_to"], data["max_raise_to"]) == (10, 7, 12, 24)


def test_wiki_sidepot_1_main_and_side_pot(capsys, tmp_path):
    text = ("game: {structure: no-limit, blinds: [1, 2]}\nbutton: 3\nplayers: {1: 100, 2: 5, 3: 100}\n"
            "street: flop\nactions: [{seat: 1, action: bet, to: 20}, {seat: 2, action: call, to: 5}, "
            "{seat: 3, action: call, to: 20}]\n")
    code, data, _ = calc(capsys, tmp_path, text)
    assert code == 0 and data["actor"] is None
    assert data["side_pots"] == [{"amount": 15, "eligible": [1, 2, 3]}, {"amount": 30, "eligible": [1, 3]}]


def test_phh_wsop_after_counts_every_line(capsys, tmp_path):
    # lines 0-7 deal the cards, 8-11 fold, 12 raises to 1,150,000: p1 (SB) is next, the button's fold filled in
    code, data, _ = calc(capsys, tmp_path, None, "--after", "13", path=WSOP)
    assert code == 0 and data["actor"] == 1
    assert (data["current_bet"], data["to_call"]) == (1150000, 900000)
    assert data["filled"] and "p8" in data["filled"][0]


@pytest.mark.parametrize("actions,index,seat", [
    ("[{seat: 4, action: raise, to: 600}]", 0, 4),                                        # wrong seat
    ("[{seat: 3, action: raise, to: 300}]", 0, 3),                                        # below the minimum
    ("[{seat: 3, action: raise, to: 200000}]", 0, 3),                                     # more than the stack
    ("[{seat: 3, action: fold}, {seat: 4, action: check}]", 1, 4),                        # check facing a bet
    ("[{seat: 3, action: fold}, {seat: 4, action: fold}, {seat: 5, action: fold}, "
     "{seat: 6, action: fold}, {seat: 1, action: call}, {seat: 2, action: check}, {seat: 3, action: call}]", 6, 3),
])
def test_bad_action_refused_with_index_seat_and_expected(capsys, tmp_path, actions, index, seat):
    code, _, err = calc(capsys, tmp_path, NL_100_200 + f"actions: {actions}\n")
    assert code == 2
    assert f"actions[{index}]" in err and f"seat {seat}" in err and "expected" in err


def test_stated_pot_contradicting_actions_refused(capsys, tmp_path):
    code, _, err = calc(capsys, tmp_path, NL_100_200 + "actions: [{seat: 3, action: raise, to: 600}]\npot_now: 700\n")
    assert code == 2 and "pot_now" in err and "900" in err


def test_malformed_phh_refused_with_line(capsys, tmp_path):
    bad = tmp_path / "bad.phh"
    bad.write_text('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
                   'starting_stacks = [100, 100]\nactions = ["d dh p1 ????", "d dh p2 ????", "p9 cbr 7"]\n')
    code, _, err = calc(capsys, tmp_path, None, path=bad)
    assert code == 2 and "actions[2]" in err and "p9" in err


def test_incident_params_apply_to_calc(capsys, tmp_path):
    """WIKI-REOPEN-1: $20 round, all-in to $25 (under half a bet on top): the opener may not re-raise
    under the full-bet rule; an all-in to $30 reopens only under the half-bet rule."""
    text = ("game: {structure: fixed-limit, blinds: [10, 20], bet_sizes: [20, 40]}\nbutton: 3\n"
            "players: {1: 500, 2: 30, 3: 500}\nstreet: flop\npot: 60\n"
            "actions: [{seat: 1, action: bet, to: 20}, {seat: 2, action: raise, to: 30}, {seat: 3, action: call, to: 30}]\n")
    code, half, _ = calc(capsys, tmp_path, text)
    assert code == 0 and half["actor"] == 1 and half["can_raise"] is True
    code, full, _ = calc(capsys, tmp_path, text + "params: {reopen.limit_rule: full_bet}\n")
    assert code == 0 and full["actor"] == 1 and full["can_raise"] is False


def test_seat_option_names_the_seat_its_numbers_are_for(capsys, tmp_path):
    # $1/$2 PL, a raise to $7: seat 4 is to act; the big blind (seat 2) would face $5 more and may make it $22
    # (inventory §18). The text must not say "seat to act: 4" over seat 2's numbers.
    path = tmp_path / "hand.yaml"
    path.write_text("game: {structure: pot-limit, blinds: [1, 2]}\nbutton: 4\nplayers: {1: 500, 2: 500, 3: 500, 4: 500}\n"
                    "street: preflop\nactions: [{seat: 3, action: raise, to: 7}]\n")
    assert main(["calc", str(path), "--seat", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "numbers for seat 2 (seat to act: 4)"
    assert "to call:         $5" in lines and "raise to:        $12 .. $22" in lines
    assert main(["calc", str(path), "--seat", "4"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "seat to act: 4"


ONE_TWO_FOUR_SEATS = ("game: {structure: no-limit, blinds: [1, 2]}\nbutton: 4\n"
                      "players: {1: 300, 2: 300, 3: 300, 4: 300}\nstreet: preflop\n"
                      "actions: [{seat: 3, action: call}, {seat: 4, action: raise, to: 5}, "
                      "{seat: 1, action: fold}, {seat: 2, action: call}]\n")


def test_a_round_still_bet_is_one_pot_until_someone_is_all_in(capsys, tmp_path):
    # $1/$2: blinds and a call of $2 make $5, and nobody is all in: one pot, the button still to act in it
    # (the levels of seats with chips behind are no cuts: they may still call).
    code, data, _ = calc(capsys, tmp_path, ONE_TWO_FOUR_SEATS, "--after", "1")
    assert code == 0 and data["actor"] == 4 and data["pot"] == 5
    assert data["side_pots"] == [{"amount": 5, "eligible": [1, 2, 3, 4]}]
    # The small blind folded his $1 and the big blind called the raise to $5: $13, one pot for 2, 3 and 4,
    # seat 3 (in for $2) still to act.
    code, data, _ = calc(capsys, tmp_path, ONE_TWO_FOUR_SEATS)
    assert code == 0 and data["actor"] == 3 and data["pot"] == 13
    assert data["side_pots"] == [{"amount": 13, "eligible": [2, 3, 4]}]


def test_a_raise_not_called_yet_is_shown_beside_the_pots(capsys, tmp_path):
    # The button's raise to $5 over $2: $3 of it is called by nobody yet; the pot line says where the $10 is.
    path = tmp_path / "hand.yaml"
    path.write_text(ONE_TWO_FOUR_SEATS)
    assert main(["calc", str(path), "--after", "2"]) == 0
    out = capsys.readouterr().out
    assert "main pot: $7 — seats 1, 2, 3, 4" in out and "not called yet:  $3" in out and "side pot" not in out


def test_stud_first_round_before_the_bring_in_is_not_complete(capsys, tmp_path):
    # Stud $5/$10, $1 ante, $2 bring-in, four players, no action yet: $4 of antes and the round waits for the bring-in.
    path = tmp_path / "hand.yaml"
    path.write_text("game: {variant: stud, structure: fixed-limit, ante: 1, bring_in: 2, bet_sizes: [5, 10]}\n"
                    "button: 1\nplayers: {1: 300, 2: 300, 3: 300, 4: 300}\n"
                    "streets: [{street: third, upcards: {1: Kd, 2: 2c, 3: 2s, 4: 9h}, actions: []}]\n")
    assert main(["calc", str(path)]) == 0
    out = capsys.readouterr().out
    # WIKI-BRINGIN-1 and RRP-TIE-SUITS: the 2c (clubs below spades) brings in $2 or completes to $5
    assert out.startswith("seat to act: 2 (the bring-in: brings it in for $2 or completes to $5)")
    assert "street complete" not in out and "pot:             $4" in out


STUD_NO_ACTION = ("game: {variant: stud, structure: fixed-limit, ante: 1, bring_in: 2, bet_sizes: [5, 10]}\n"
                  "button: 4\nplayers: {1: 100, 2: 100, 3: 100, 4: 100}\nstreet: third\n")


def test_calc_names_the_low_upcard_by_suit_before_the_bring_in(capsys, tmp_path):
    # Upcards Kd, 2d, 2c, 9s: two deuces, and the 2c is the lower by suit (RRP-TIE-SUITS), so seat 3 is due.
    text = STUD_NO_ACTION + 'upcards: {1: Kd, 2: "2d", 3: "2c", 4: "9s"}\ndisputed: {seat: 4, said: complete}\n'
    code, data, _ = calc(capsys, tmp_path, text)
    assert code == 0 and data["actor"] == 3 and data["pot"] == 4
    assert data["bring_in"] == {"seat": 3, "amount": 2, "bet_from": 5, "bet_to": 5}
    assert main(["calc", str(tmp_path / "hand.yaml"), "--seat", "4"]) == 0
    assert capsys.readouterr().out.startswith(
        "numbers for seat 4 (seat to act: 3 (the bring-in: brings it in for $2 or completes to $5))")


def test_calc_before_the_bring_in_skips_a_low_card_all_in_for_the_ante(capsys, tmp_path):
    # TDA-2024-RP10: 50 ante, seat 3's 2c had only the ante; the action starts on his left, seat 4, for 100 or 400.
    text = ("game: {variant: stud, structure: fixed-limit, setting: tournament, ante: 50, bring_in: 100, "
            "bet_sizes: [400, 800]}\nbutton: 4\nplayers: {1: 10000, 2: 10000, 3: 50, 4: 10000}\nstreet: third\n"
            'upcards: {1: Kd, 2: "5d", 3: "2c", 4: "9s"}\n')
    code, data, _ = calc(capsys, tmp_path, text)
    assert code == 0 and data["actor"] == 4 and data["bring_in"]["amount"] == 100
    assert data["bring_in"]["bet_from"] == 400


def test_calc_once_the_bring_in_is_made_names_the_next_seat(capsys, tmp_path):
    # After the 2c's $2 bring-in the replay itself names seat 3, facing $2 with a completion to $5.
    text = STUD_NO_ACTION + ('upcards: {1: Kd, 2: "2c", 3: "2s", 4: "9h"}\n'
                             "actions: [{seat: 2, action: bring-in, to: 2}]\n")
    code, data, _ = calc(capsys, tmp_path, text)
    assert code == 0 and data["actor"] == 3 and data["to_call"] == 2 and data["min_raise_to"] == 5
    assert "bring_in" not in data


STUD_FOURTH = ("game: {variant: stud, structure: fixed-limit, ante: 1, bring_in: 2, bet_sizes: [5, 10]}\n"
               "players: {1: 100, 2: 100, 3: 100, 4: 100}\nstreets:\n"
               '  - {street: third, upcards: {1: Kd, 2: "2c", 3: 9h, 4: Qs}, actions: [{seat: 2, action: bring-in, '
               "to: 2}, {seat: 3, action: call}, {seat: 4, action: complete, to: 5}, {seat: 1, action: call}, "
               "{seat: 2, action: call}, {seat: 3, action: call}]}\n"
               "  - {street: fourth, upcards: {1: 3s, 2: 4h, 3: %s, 4: As}, actions: %s}\n")


def test_calc_offers_the_big_bet_on_fourth_street_with_an_open_pair(capsys, tmp_path):
    # TDA-2024-RP10's cash custom: seat 3's 9h-9d on fourth street; $5/$10 stud, seat 3 has bet $5
    code, data, _ = calc(capsys, tmp_path, STUD_FOURTH % ("9d", "[{seat: 3, action: bet, to: 5}]"))
    assert code == 0 and data["actor"] == 4 and (data["min_raise_to"], data["max_raise_to"]) == (10, 15)
    assert main(["calc", str(tmp_path / "hand.yaml")]) == 0
    assert "raise to:        $10 or $15" in capsys.readouterr().out
    # the big bet itself is a legal opening, and the raise over it is a big bet
    code, data, _ = calc(capsys, tmp_path, STUD_FOURTH % ("9d", "[{seat: 3, action: bet, to: 10}]"))
    assert code == 0 and (data["to_call"], data["min_raise_to"], data["max_raise_to"]) == (10, 20, 20)
    # a tournament plays no doubling, and with no pair showing $10 is above the limit
    code2, _, err2 = calc(capsys, tmp_path, STUD_FOURTH % ("Qd", "[{seat: 3, action: bet, to: 10}]"))
    assert code2 == 2 and "a bet to 10 is above the maximum of 5" in err2
    text = STUD_FOURTH.replace("ante: 1,", "setting: tournament, ante: 1,") % ("9d", "[{seat: 3, action: bet, to: 10}]")
    code3, _, err3 = calc(capsys, tmp_path, text)
    assert code3 == 2 and "above the maximum of 5" in err3
