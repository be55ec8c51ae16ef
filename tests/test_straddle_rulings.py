"""Rulings on a button (Mississippi) straddle: the post itself, and the act after a straddle sent back.

WIKI-STRADDLE-MS: "With $10-$25 blinds and a $50 button straddle, the SB acts first, then the BB,
and so on; the straddler gets the option." HOUSE-SEVENMILE-STR lets the seat left of the big blind
or the button straddle (straddle.positions: utg_or_button); Robert's Rules (RRP-NL-14, the standard
book) only the seat left of the big blind. The minimum raise over a straddle is one straddle
(RRP-NL-2-STR): $50 + $50 = $100. Six seats, seat 1 the small blind, seat 6 the button.

A house manager's tryout found the button's post ruled out of turn (as a $50 chip put out before the
small blind acted), no ruling that the straddle stands, and WHAT HAPPENS NOW saying "check or raise"
without naming who acts; and, under the standard book, a straddle sent back while the next player's
"call" was still sized by it ($50 to call: two contradicting rulings in force).
"""
from __future__ import annotations

import textwrap

import pytest

from rulings.ruling import books
from rulings.incident import load_incident
from rulings.report.render import report_text
from rulings.ruling.decide import rule_on

BUTTON_HOUSE = """\
rulebook: button-straddle-room
extends: standard
title: A room where the button may straddle
parameters:
  straddle.positions: utg_or_button
"""

HEAD = """\
incident: button-straddle
game: {variant: holdem, structure: no-limit, setting: cash, blinds: [10, 25]}
button: 6
players: {1: 2000, 2: 2000, 3: 2000, 4: 2000, 5: 2000, 6: 2000}
"""
POSTS = "[{seat: 1, action: post, to: 10}, {seat: 2, action: post, to: 25}, {seat: 6, action: post, to: 50}]"

# the post asked about in the one-street form, and as the act the whole hand records at its point
ONE_STREET = HEAD + f"street: preflop\nactions: {POSTS}\ndisputed: {{seat: 6}}\n"
WHOLE_HAND = HEAD + textwrap.dedent(f"""\
    streets:
      - {{street: preflop, actions: {POSTS}}}
    disputed: {{seat: 6, chips: [50], at: {{street: preflop, after: 2}}}}
    """)


def _rule(tmp_path, text: str, house: bool):
    path = tmp_path / "incident.yaml"
    path.write_text(text)
    if house:
        (tmp_path / "room.yaml").write_text(BUTTON_HOUSE)
        book, engine = books.load(str(tmp_path / "room.yaml"))
    else:
        book, engine = books.load()
    return rule_on(load_incident(path, book), book, engine)


@pytest.mark.parametrize("form", [ONE_STREET, WHOLE_HAND], ids=["one-street", "whole-hand"])
def test_a_button_straddle_the_house_allows_stands_and_the_small_blind_acts_first(tmp_path, form):
    report = _rule(tmp_path, form, house=True)
    assert [r.rule for r in report.rulings] == ["straddles.straddle-stands"]
    stands = report.rulings[0]
    assert stands.effects == {"min_raise_to": 100_00}
    assert {"WIKI-STRADDLE-MS", "HOUSE-SEVENMILE-STR"} <= set(stands.cites)
    # the seat due is named with what it faces: $40 more to call the $50 (it has $10 in), raise to $100
    assert (report.facts["straddle_due_seat"], report.facts["straddle_due_to_call"]) == (1, 40_00)
    assert report.now == ["The $50 straddle from seat 6 stands. Seat 1 (the small blind) acts first and faces $40 "
                          "more: fold, call, or raise to at least $100; seat 6 acts last this round and may raise."]
    text = report_text(report)
    assert "out-of-turn" not in text and "check or raise" not in text and "calls $25" not in text


@pytest.mark.parametrize("form", [ONE_STREET, WHOLE_HAND], ids=["one-street", "whole-hand"])
def test_the_same_post_under_the_standard_book_is_sent_back_and_nothing_else_is_ruled(tmp_path, form):
    report = _rule(tmp_path, form, house=False)
    assert [(r.rule, r.effects) for r in report.rulings] == [("straddles.seat-not-allowed", {"returned": 50_00})]
    assert report.now == ["A straddle from seat 6 (button) is not allowed here: the $50 goes back."]


def test_after_a_refused_button_straddle_the_next_call_is_read_against_the_blinds(tmp_path):
    # Standard book: the $50 button straddle goes back, so seat 3 (under the gun) is first to act and
    # faces the $25 big blind. He says "call" and puts out two $25 chips: a call of $25 (RRP-NL-8, the
    # words decide), $25 back - not a $50 call, and not out of turn (seat 1 was due only behind the straddle).
    text = HEAD + f"street: preflop\nactions: {POSTS}\ndisputed: {{seat: 3, said: call, chips: [25, 25]}}\n"
    report = _rule(tmp_path, text, house=False)
    got = {r.rule: r.effects for r in report.rulings}
    assert got["straddles.seat-not-allowed"] == {"returned": 50_00}
    wager = [r for r in report.rulings if r.decides == "wager"]
    assert [(r.effects["wager_to"], r.effects["returned"]) for r in wager] == [(25_00, 25_00)]
    assert not any(r.decides == "out-of-turn" for r in report.rulings)
    assert (report.facts["to_call"], report.facts["min_raise_to"], report.facts["in_turn"]) == (25_00, 50_00, True)
    # the dealer also hands the refused $50 back: said in WHAT HAPPENS NOW after the call that leads it
    assert report.now == ["Seat 3 calls $25: $25 goes back to him.",
                          "Seat 4 is next to act and faces $25 to call: he may fold, call $25 or raise to at least "
                          "$50 and at most $2,000 (all-in).",
                          "A straddle from seat 6 (button) is not allowed here: the $50 goes back."] + report.now[3:]
    assert report.now[3:5] == ["Before his act the pot was $35.", "With a call from him the pot is $60."]   # the panel
    assert "$50 in all" not in report_text(report)


def test_where_the_button_may_straddle_the_same_call_is_read_against_the_straddle(tmp_path):
    # The control: the straddle plays, seat 1 (the small blind) is due, so seat 3's "call" is out of
    # turn and a call of the $50 straddle (TDA 2024 rule 53: nothing changed, it binds).
    text = HEAD + f"street: preflop\nactions: {POSTS}\ndisputed: {{seat: 3, said: call, chips: [25, 25]}}\n"
    report = _rule(tmp_path, text, house=True)
    assert "straddles.seat-not-allowed" not in {r.rule for r in report.rulings}
    assert report.facts["to_call"] == 50_00 and report.facts["in_turn"] is False
    assert any(r.decides == "out-of-turn" for r in report.rulings)


def test_when_the_hand_does_not_replay_without_the_refused_straddle_the_report_asks(tmp_path):
    # The small blind called the $50 button straddle, then the big blind says "call" with two $25 chips.
    # With the straddle sent back, the small blind's call came out of turn (under the gun was due on the
    # blinds): what each meant is not in the book. Only the refusal is in force, and the report asks;
    # no wager sized by the $50 straddle ("calls $50") is ruled beside it.
    text = HEAD + ("street: preflop\nactions: [{seat: 1, action: post, to: 10}, {seat: 2, action: post, to: 25}, "
                   "{seat: 6, action: post, to: 50}, {seat: 1, action: call}]\n"
                   "disputed: {seat: 2, said: call, chips: [25, 25]}\n")
    report = _rule(tmp_path, text, house=False)
    assert [(r.rule, r.effects) for r in report.rulings] == [("straddles.seat-not-allowed", {"returned": 50_00})]
    assert report.outcome == "questions"
    assert any("facing the blinds" in q["question"] for q in report.questions)
    assert report.now == ["A straddle from seat 6 (button) is not allowed here: the $50 goes back."]


# --- a straddle said, not recorded as a post -------------------------------------------------------------
# The blinds are posted and nobody has acted; the seat asked about says "straddle" (and puts out $50, or
# nothing). The words declare the straddle post: the book's straddle rules then decide, as for a post.
BLINDS = "[{seat: 1, action: post, to: 10}, {seat: 2, action: post, to: 25}]"
SAID = ["straddle", "I straddle", "straddle fifty", "I'll straddle $50", "Straddle."]


def _said(seat: int, words: str, chips: str = ", chips: [50]") -> str:
    return HEAD + f'street: preflop\nactions: {BLINDS}\ndisputed: {{seat: {seat}, said: "{words}"{chips}}}\n'


@pytest.mark.parametrize("words", SAID)
def test_a_straddle_said_under_the_gun_is_the_straddle_post_and_stands(tmp_path, words):
    # RRP-NL-14: the seat left of the big blind (seat 3) may post $50, two $25 big blinds. Seat 4 acts first,
    # facing $50; the minimum raise is one straddle more, to $100 (RRP-NL-2-STR). Not a bet out of turn.
    report = _rule(tmp_path, _said(3, words), house=False)
    assert [(r.rule, r.effects) for r in report.rulings] == [("straddles.straddle-stands", {"min_raise_to": 100_00})]
    assert (report.facts["straddle_seat"], report.facts["straddle_to"]) == (3, 50_00)
    assert (report.facts["straddle_due_seat"], report.facts["straddle_due_to_call"]) == (4, 50_00)
    assert report.outcome == "ruled" and not report.questions
    assert report.now == ["The $50 straddle from seat 3 stands. Seat 4 acts first and faces $50 more: fold, call, "
                          "or raise to at least $100; seat 3 acts last this round and may raise."]


@pytest.mark.parametrize("words", SAID)
def test_a_straddle_said_on_the_button_is_refused_by_the_standard_book_and_stands_where_the_house_allows(
        tmp_path, words):
    refused = _rule(tmp_path, _said(6, words), house=False)
    assert [(r.rule, r.effects) for r in refused.rulings] == [("straddles.seat-not-allowed", {"returned": 50_00})]
    assert refused.now == ["A straddle from seat 6 (button) is not allowed here: the $50 goes back."]
    assert not any(r.decides == "out-of-turn" for r in refused.rulings) and not refused.questions
    stands = _rule(tmp_path, _said(6, words), house=True)
    assert [(r.rule, r.effects) for r in stands.rulings] == [("straddles.straddle-stands", {"min_raise_to": 100_00})]
    assert (stands.facts["straddle_due_seat"], stands.facts["straddle_due_to_call"]) == (1, 40_00)


def test_a_straddle_said_with_no_chips_is_the_standard_two_big_blinds(tmp_path):
    # Nothing put out yet: "straddle" is the $50 straddle (twice the $25 big blind) the book's sizes allow.
    report = _rule(tmp_path, _said(3, "straddle", chips=""), house=False)
    assert report.facts["straddle_to"] == 50_00
    assert [r.rule for r in report.rulings] == ["straddles.straddle-stands"]


def test_a_straddle_said_for_another_size_is_judged_by_the_size_rule(tmp_path):
    # "straddle a hundred": a $100 straddle at $10/$25 is not exactly two big blinds: it goes back (RRP-NL-14).
    report = _rule(tmp_path, _said(3, "straddle a hundred", chips=""), house=False)
    assert [(r.rule, r.effects) for r in report.rulings] == [("straddles.wrong-size", {"returned": 100_00, "straddle_least": 50_00})]


def test_a_straddle_said_in_the_whole_hand_form_is_read_the_same_way(tmp_path):
    text = HEAD + textwrap.dedent(f"""\
        streets:
          - {{street: preflop, actions: {BLINDS}}}
        disputed: {{seat: 3, said: straddle, chips: [50], at: {{street: preflop, after: 2}}}}
        """)
    report = _rule(tmp_path, text, house=False)
    assert [(r.rule, r.effects) for r in report.rulings] == [("straddles.straddle-stands", {"min_raise_to": 100_00})]


@pytest.mark.parametrize("seat, words, chips", [
    (3, "straddle sixty", ", chips: [50]"),    # the words and the chips name different amounts
    (1, "straddle", ", chips: [50]"),          # the small blind cannot straddle
    (3, "call straddle", ""),                  # other words with it
])
def test_a_straddle_said_that_cannot_be_a_straddle_post_is_asked_about(tmp_path, seat, words, chips):
    report = _rule(tmp_path, _said(seat, words, chips), house=False)
    assert report.outcome == "questions"
    assert any("declares a straddle" in q["question"] for q in report.questions)
    assert not any(r.rule.startswith("straddles.") for r in report.rulings)
