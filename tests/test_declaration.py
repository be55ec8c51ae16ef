"""Tests for reading spoken declarations (rulings.facts.declaration)."""
from __future__ import annotations

import random
import string

import pytest

from rulings.facts.declaration import Declaration, Unclear, parse_declaration


def declared(text: str) -> Declaration:
    result = parse_declaration(text)
    assert isinstance(result, Declaration), result
    return result


def asked(text: str) -> str:
    result = parse_declaration(text)
    assert isinstance(result, Unclear), result
    assert result.text == text
    assert result.question.strip()
    return result.question


# --- the worked examples in the sources --------------------------------------------------------

def test_tda_40a_forty_two_thousand_is_an_amount_alone():
    d = declared("forty-two thousand")
    assert (d.kind, d.amount, d.amount_means, d.bare_number) == ("amount", 4_200_000, "to", False)


def test_rrp_nl_10_four_hundred():
    d = declared("four hundred")
    assert (d.kind, d.amount, d.amount_means) == ("amount", 40_000, "to")


def test_wiki_decl_1_call_and_raise_is_a_call_then_a_raise():
    d = declared("I call and raise $100")
    assert (d.kind, d.amount, d.call_then_raise, d.call_amount) == ("call", None, True, None)
    (r,) = d.later
    assert (r.kind, r.amount, r.amount_means, r.said_as) == ("raise", 10_000, "by", "plain")
    assert not d.nonstandard and not d.bare_number


def test_tda_43b_raise_eight_thousand_means_the_total():
    d = declared("raise, eight thousand")
    assert (d.kind, d.amount, d.amount_means, d.call_then_raise) == ("raise", 800_000, "to", False)


def test_tda_57_i_bet_five_is_a_bare_number():
    d = declared("I bet five")
    assert (d.kind, d.amount, d.amount_means, d.bare_number) == ("bet", 500, "to", True)


def test_tda_51a_general_call_has_no_amount():
    d = declared("call")
    assert (d.kind, d.amount, d.amount_means, d.call_amount) == ("call", None, None, None)


def test_tda_54d_i_bet_the_pot():
    assert declared("I bet the pot").kind == "pot"


def test_call_your_hundred_and_raise_two_carries_the_hundreds():
    d = declared("I call your hundred and raise two")
    assert (d.kind, d.amount, d.call_amount, d.call_then_raise) == ("call", 10_000, 10_000, True)
    assert d.bare_number            # "two" only became 200 by borrowing the earlier "hundred"
    assert (d.later[0].amount, d.later[0].amount_means) == (20_000, "by")


def test_carry_from_thousands_and_from_k():
    assert declared("call two thousand and raise five").later[0].amount == 500_000
    assert declared("call 2k, raise 5").later[0].amount == 500_000


def test_no_carry_without_an_earlier_magnitude_word():
    d = declared("raise two")
    assert (d.amount, d.bare_number) == (200, True)


def test_see_and_raise_is_call_then_raise_in_nonstandard_words():
    d = declared("I see your hundred and raise you two")
    assert (d.call_then_raise, d.call_amount, d.later[0].amount, d.nonstandard) == (True, 10_000, 20_000, True)


# --- number words ------------------------------------------------------------------------------

@pytest.mark.parametrize("text, minor", [
    ("one", 100), ("nine", 900), ("thirteen", 1_300), ("twenty", 2_000), ("ninety-nine", 9_900),
    ("forty two", 4_200), ("a hundred", 10_000), ("hundred", 10_000), ("one hundred", 10_000),
    ("a hundred and fifty", 15_000), ("three hundred twenty five", 32_500),
    ("twelve hundred", 120_000), ("twenty-five hundred", 250_000),
    ("a thousand", 100_000), ("two thousand five hundred", 250_000), ("two thousand and fifty", 205_000),
    ("forty-two thousand", 4_200_000), ("a million", 100_000_000), ("two hundred thousand", 20_000_000),
    ("two fifty", 25_000), ("one twenty-five", 12_500), ("one twenty five", 12_500),
    ("two fifty thousand", 25_000_000),
    ("five grand", 500_000), ("a grand", 100_000), ("fourty", 4_000),
])
def test_number_words(text, minor):
    assert declared(text).amount == minor
    assert declared(f"bet {text}").amount == minor


@pytest.mark.parametrize("text, bare", [
    ("five", True), ("fifty five", True), ("5", True), ("50", True),
    ("a hundred", False), ("two fifty", False), ("100", False), ("$5", False), ("five dollars", False),
    ("84.50", False), ("1k", False), ("five grand", False),
])
def test_bare_number_flag(text, bare):
    assert declared(f"raise {text}").bare_number is bare


@pytest.mark.parametrize("text, shown", [
    ("eighty-four fifty", "$84.50 or 8,450"),
    ("twelve fifty", "$12.50 or 1,250"),
    ("bet ten oh five", None),
])
def test_two_two_digit_pieces_are_ambiguous(text, shown):
    question = asked(text)
    if shown:
        assert shown in question


@pytest.mark.parametrize("text", ["two five", "five six hundred", "hundred hundred", "thousand thousand",
                                  "three thousand two thousand", "twenty thirty forty"])
def test_number_words_that_are_not_one_number(text):
    assert "amount" in asked(text)


# --- digits --------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, minor", [
    ("300", 30_000), ("$1,000", 100_000), ("1,000,000", 100_000_000), ("84.50", 8_450), ("$84.50", 8_450),
    ("84.5", 8_450), (".50", 50), ("$ 20", 2_000), ("1k", 100_000), ("1K", 100_000), ("2.5k", 250_000), ("5 k", 500_000),
    ("3 hundred", 30_000), ("1.5 million", 150_000_000), ("300 dollars", 30_000), ("20 bucks", 2_000),
])
def test_digits(text, minor):
    assert declared(text).amount == minor
    assert declared(f"raise {text}").amount == minor


@pytest.mark.parametrize("text", ["bet 84.505", "raise 12345678901234567", "bet 1,00"])
def test_digits_that_are_not_money(text):
    asked(text)


# --- the verbs ----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, kind, nonstandard", [
    ("fold", "fold", False), ("Folding.", "fold", False), ("I fold", "fold", False), ("muck it", "fold", True),
    ("I'm out", "fold", True),
    ("check", "check", False), ("checking", "check", False), ("I check", "check", False),
    ("knock", "check", True), ("tap tap", "check", True),
    ("call", "call", False), ("calling", "call", False), ("I call", "call", False), ("I'm in", "call", True),
    ("I'll play", "call", True), ("I'll go", "call", True),
    ("bet", "bet", False), ("betting", "bet", False),
    ("raise", "raise", False), ("raising", "raise", False), ("re-raise", "raise", False),
    ("reraise", "raise", False), ("Re raise!", "raise", False), ("bump it", "raise", True),
    ("all in", "all-in", False), ("all-in", "all-in", False), ("I'm all in", "all-in", False),
    ("allin", "all-in", False), ("ALL IN!!", "all-in", False), ("I'll go all in", "all-in", False),
    ("shove", "all-in", True), ("ship it", "all-in", True), ("jam", "all-in", True),
    ("pot", "pot", False), ("I bet the pot", "pot", False), ("pot it", "pot", False), ("raise pot", "pot", False),
    ("repot", "pot", False), ("complete", "complete", False), ("I complete", "complete", False),
])
def test_verbs(text, kind, nonstandard):
    d = declared(text)
    assert (d.kind, d.nonstandard, d.amount, d.amount_means) == (kind, nonstandard, None, None)
    assert d.text == text and not d.call_then_raise


def test_raise_without_an_amount():
    d = declared("Raise.")
    assert (d.kind, d.amount, d.amount_means) == ("raise", None, None)


def test_call_with_an_amount():
    d = declared("call 400")
    assert (d.kind, d.amount, d.amount_means, d.call_amount) == ("call", 40_000, "to", 40_000)


@pytest.mark.parametrize("text, means", [
    ("raise 300", "to"), ("raise to 300", "to"), ("bet 300", "to"), ("make it 300", "to"),
    ("raise by 100", "by"), ("raise another 100", "by"), ("I raise 100 more", "by"),
    ("raise 100 on top", "by"), ("raise up to 300", "to"),
])
def test_to_and_by(text, means):
    assert declared(text).amount_means == means


def test_to_and_by_after_a_call():
    assert declared("I call 100 and raise to 300").later[0].amount_means == "to"
    assert declared("I call 100 and raise 300").later[0].amount_means == "by"


def test_make_it_is_a_nonstandard_raise_unless_an_official_word_came_with_it():
    assert (declared("make it 300").kind, declared("make it 300").nonstandard) == ("raise", True)
    assert declared("raise, make it 900").nonstandard is False
    assert declared("bet, make it 300").kind == "bet"
    assert "how much" in asked("make it")


def test_go_with_an_amount_is_a_nonstandard_amount():
    d = declared("I'll go three hundred")
    assert (d.kind, d.amount, d.amount_means, d.nonstandard) == ("amount", 30_000, "to", True)


def test_amounts_with_other_actions():
    assert declared("all in for 3,000").amount == 300_000
    assert declared("complete to 200").amount == 20_000
    assert declared("raise all in").kind == "all-in"


def test_case_and_punctuation_do_not_matter():
    assert declared("RAISE... 300!!").amount == declared("raise 300").amount == 30_000


# --- what must become a question ---------------------------------------------------------------

@pytest.mark.parametrize("text, words", [
    ("check raise 100", ("'check'", "'raise'")), ("fold call", ("'fold'", "'call'")),
    ("raise, call", ("'raise'", "'call'")), ("bet raise 300", ("'bet'", "'raise'")),
    ("pot, all in", ("'pot'", "'all in'")), ("complete, raise", ("'complete'", "'raise'")),
])
def test_contradictions_name_both_words(text, words):
    question = asked(text)
    assert all(w in question for w in words)


@pytest.mark.parametrize("text", ["call all in", "call the pot"])
def test_call_then_all_in_or_pot_without_raise_is_asked(text):
    assert "call followed by a raise" in asked(text)


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_empty(text):
    assert "Nothing" in asked(text)


@pytest.mark.parametrize("text", ["hello there", "what time is it", "the river was a brick", "k", "!!!"])
def test_no_poker_meaning(text):
    asked(text)


@pytest.mark.parametrize("text", ["bet 0", "raise zero", "bet -100", "raise minus 50", "bet $-20"])
def test_zero_or_negative_amounts(text):
    assert "zero" in asked(text) or "negative" in asked(text)


@pytest.mark.parametrize("text, fragment", [
    ("no, raise", "negation"), ("I don't call", "negation"), ("wait, call", "correction"),
    ("sorry, raise 400", "correction"), ("maybe I raise", "thinking"), ("if you bet I raise", "conditional statement"),
    ("let's see... call", "thinking"), ("pass", "check in some rooms and fold"), ("I checked", "past"), ("pot?", "question mark"),
    ("call 100 200", "Two amounts"), ("raise 300 400", "Two amounts"), ("raise blah 300", "'blah'"),
    ("three hundred, raise", "came before 'raise'"), ("call 100, 200 raise", "came before"),
    ("check 100", "amount"), ("fold 50", "amount"), ("raise by", "how much"),
    ("another hundred", "more than what"), ("raise to 300 more", "'to' and 'by'"),
])
def test_unclear_questions_say_what_is_wrong(text, fragment):
    assert fragment in asked(text)


# --- robustness ------------------------------------------------------------------------------------

_VOCAB = ("raise call fold check bet pot all in all-in make it to by more another and your the a hundred "
          "thousand grand k two fifty five forty-two eighty-four 300 $1,000 84.50 2.5k 0 -5 ? , . ! I'm "
          "shove see go knock no wait million zero twelve").split()


def _garbage(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return " ".join(rng.choice(_VOCAB) for _ in range(rng.randint(1, 8)))
    alphabet = string.printable + "²٣€£—–’é\u0000\u200b"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))


def test_never_raises_on_random_strings():
    rng = random.Random(20240611)
    for _ in range(600):
        text = _garbage(rng)
        result = parse_declaration(text)
        assert isinstance(result, (Declaration, Unclear)), text
        assert result.text == text
        if isinstance(result, Unclear):
            assert "Internal reading error" not in result.question, text
        else:
            assert result.kind in {"fold", "check", "call", "bet", "raise", "all-in", "pot", "complete", "amount"}
            assert (result.amount is None) == (result.amount_means is None), text
            assert result.amount is None or (isinstance(result.amount, int) and result.amount > 0), text




# --- declarations in order, and numbers as floors say them ----------------------------------------------

@pytest.mark.parametrize("text, first, later", [
    ("bet two thousand... no, three", ("bet", 200_000), [("bet", 300_000, True)]),
    ("check \u2014 bet fifty", ("check", None), [("bet", 5_000, False)]),
    ("raise to 1,500\u2026 2,000", ("raise", 150_000), [("raise", 200_000, False)]),
    ("raise, wait, call", ("raise", None), [("call", None, True)]),
    ("raise 300 sorry 400", ("raise", 30_000), [("raise", 40_000, True)]),
    ("fold - no, I mean call", ("fold", None), [("call", None, True)]),
    ("bet 500, make that 600", ("bet", 50_000), [("bet", 60_000, True)]),
    ("I call... and raise", ("call", None), [("raise", None, False)]),
])
def test_later_declarations_are_kept_in_order(text, first, later):
    d = declared(text)
    assert (d.kind, d.amount) == first
    assert [(x.kind, x.amount, x.corrected) for x in d.later] == later


def test_a_pause_before_the_amount_only_completes_the_declaration():
    d = declared("raise... three hundred")
    assert (d.kind, d.amount, d.later) == ("raise", 30_000, ())


@pytest.mark.parametrize("text, minor", [
    ("two and a half thousand", 250_000), ("one and a half k", 150_000), ("half a thousand", 50_000),
    ("half a k", 50_000), ("2 thousand", 200_000), ("1.5k", 150_000), ("twelve hundred and fifty", 125_000),
    ("seventy five hundred", 750_000), ("two grand", 200_000), ("3 hundred", 30_000),
])
def test_floor_numbers(text, minor):
    if minor is None:
        asked(text)
    else:
        assert declared(f"bet {text}").amount == minor


def test_and_a_half_alone_is_a_bare_number():
    d = declared("raise two and a half")
    assert (d.amount, d.bare_number) == (250, True)


def test_no_cents_in_the_game_settles_two_two_digit_pieces():
    from rulings.facts.declaration import Context
    d = parse_declaration("twelve fifty", Context(cents=False))
    assert (d.kind, d.amount, d.bare_number) == ("amount", 125_000, False)
    assert "cents" in parse_declaration("bet 12.50", Context(cents=False)).question
    assert "$12.50 or 1,250" in asked("twelve fifty")


def test_room_slang_needs_the_house_book():
    from rulings.facts.declaration import Context
    assert "house book does not define" in asked("bet a dime")
    assert parse_declaration("bet a dime", Context(words=(("dime", 100_000),))).amount == 100_000


@pytest.mark.parametrize("text", ["half", "bet half", "no, raise", "nope", "I mean call"])
def test_half_alone_and_leading_corrections_are_asked(text):
    asked(text)


def test_amounts_off_the_betting_unit_are_asked_about():
    from rulings.facts.declaration import Context
    ctx = Context(cents=False, unit=2_500)
    assert parse_declaration("bet twelve twenty-five", ctx).amount == 122_500
    assert "betting unit" in parse_declaration("bet 1,230", ctx).question
    # $12.50 cannot be made in $5 chips, so "twelve fifty" can only be 1,250
    assert parse_declaration("twelve fifty", Context(cents=True, unit=500)).amount == 125_000
