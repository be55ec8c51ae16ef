"""Cards: notation read and checked, every problem by field (rulings/incident/cards.py); showdown strength with real
hands (rulings/facts/strength.py)."""
from __future__ import annotations

import pytest

from rulings.facts.strength import strength, winners
from rulings.incident.cards import Card, CardsError, read_cards, read_deal


def cards(text: str) -> tuple[Card, ...]:
    return read_cards(text)


def test_notation_forms_read_alike():
    want = (Card("A", "h"), Card("T", "d"), Card("2", "c"))
    assert read_cards("AhTd2c") == read_cards("Ah Td 2c") == read_cards("ah, 10d, 2C") == want
    assert read_cards(["Ah", "10d", "2c"]) == read_cards("A♥ T♦ 2♣") == want


def test_every_problem_is_named_by_field_at_once():
    with pytest.raises(CardsError) as exc:
        read_deal(board="Ah Kh Qh Jh Th 9h", hands={1: "Ah 1d", 2: "Zs Kh", 3: 7})
    got = [(p.field, p.message) for p in exc.value.problems]
    assert got == [
        ("board", "6 cards on the board"),
        ("hands.1[1]", "'1d' has no rank '1'"),
        ("hands.2[0]", "'Zs' has no rank 'Z'"),
        ("hands.3", "7 is not a list of cards"),
        ("hands.1[0]", "Ah is already at board[0]"),
        ("hands.2[1]", "Kh is already at board[1]"),
    ]
    assert exc.value.problems[1].hint == "ranks: 2-9, T (or 10), J, Q, K, A"


def test_a_card_twice_in_one_hand_and_odd_text_are_refused():
    with pytest.raises(CardsError, match=r"cards\[2\]: Ah is already at cards\[0\]"):
        read_cards("Ah Kd Ah")
    with pytest.raises(CardsError, match="does not split into cards"):
        read_cards("AhK")
    with pytest.raises(CardsError, match="suits: c, d, h, s"):
        read_cards("Ax")


def test_high_hands_in_order_of_strength():
    # each beats the next: royal flush down to high card
    ladder = ["AhKhQhJhTh", "9c9d9h9s2d", "KsKdKc4h4d", "Qd9d6d4d2d", "5c6d7h8s9c",
              "7h7d7cKsQd", "JhJdTsTc2s", "8h8dAsKcQd", "AsQd9c6h3d"]
    rated = [strength(cards(h)) for h in ladder]
    assert [r.label for r in rated] == ["Straight flush", "Four of a kind", "Full house", "Flush", "Straight",
                                        "Three of a kind", "Two pair", "One pair", "High card"]
    assert all(a > b for a, b in zip(rated, rated[1:]))


def test_holdem_best_five_of_seven_and_the_board_plays():
    board = cards("Ts Js Qs Kd 2c")
    assert str(strength(cards("As 3h"), board)) == "Straight (AsKdQsJsTs)"
    assert winners({1: cards("As3h"), 2: cards("9s9h"), 3: cards("AhAd")}, board) == [1, 3]
    # a board straight flush plays for everyone
    royal = cards("As Ks Qs Js Ts")
    assert winners({1: cards("2c3d"), 2: cards("AhAd")}, royal) == [1, 2]
    # kicker: AK beats AQ on an ace-high board
    assert winners({4: cards("AcKh"), 7: cards("AdQh")}, cards("Ah 8s 5d 3c 2h")) == [4]


def test_omaha_plays_exactly_two_from_the_hand():
    board = cards("2s 3s 4s 5s 9h")
    aces = strength(cards("AsAhKdKc"), board, "omaha")
    assert str(aces) == "One pair (AsAh9h5s4s)"              # one spade in hand: no flush, no wheel of five
    assert str(strength(cards("AsAhKdKc"), board, "high")) == "Straight flush (5s4s3s2sAs)"
    assert winners({1: cards("AsAhKdKc"), 2: cards("6s7d8c9c")}, board, "omaha") == [2]   # 76 makes a straight
    with pytest.raises(CardsError, match="two from the hand and three from the board"):
        strength(cards("AsAhKdKc"), cards("2s3s"), "omaha")


def test_ace_to_five_lowball():
    wheel, six, pair = (strength(cards(h), game="ace-to-five") for h in ("As2s3s4s5s", "6d4c3h2dAs", "AsAd2c3h4d"))
    assert wheel > six > pair          # a wheel is the best low even suited; a pair is worse than any no-pair
    assert wheel.label == "High card" and pair.label == "One pair"
    assert strength(cards("7c5d4h3s2c"), game="ace-to-five") < strength(cards("6c5d4h3s2c"), game="ace-to-five")
    # draw lowball with more than five cards: the best five count
    assert str(strength(cards("KsQs"), cards("As2d3c4h5dJh"), "ace-to-five")) == "High card (5d4h3c2dAs)"


def test_deuce_to_seven_lowball():
    number_one = strength(cards("7s5d4c3h2d"), game="deuce-to-seven")
    eight = strength(cards("8s5d4c3h2d"), game="deuce-to-seven")
    wheel = strength(cards("As2d3c4h5d"), game="deuce-to-seven")       # ace high there, not a straight
    straight = strength(cards("6s5d4c3h2d"), game="deuce-to-seven")
    flush = strength(cards("7d5d4d3d2d"), game="deuce-to-seven")
    assert number_one > eight > wheel > straight
    assert number_one > flush and flush.label == "Flush" and straight.label == "Straight"
    assert winners({1: cards("7s5d4c3h2d"), 2: cards("7h5c4d3s2c")}, game="deuce-to-seven") == [1, 2]


def test_strength_refuses_too_few_cards_a_repeat_and_an_unknown_game():
    with pytest.raises(CardsError, match="at least five"):
        strength(cards("AhKh"), cards("Qh"))
    with pytest.raises(CardsError, match=r"board\[0\]: Ah is already at hole\[0\]"):
        strength(cards("AhKh"), cards("AhQhJh2c"))
    with pytest.raises(CardsError, match="one of: high, omaha, ace-to-five, deuce-to-seven"):
        strength(cards("AhKhQhJhTh"), game="badugi")


def test_the_evaluator_is_loaded_without_the_rest_of_pokerkit_and_a_later_import_shares_its_classes():
    import subprocess
    import sys
    code = ("import sys\n"
            "from rulings.incident.cards import read_cards\n"
            "from rulings.facts.strength import strength, _evaluator\n"
            "s = strength(read_cards('AhKh'), read_cards('QhJhTh2c3d'))\n"
            "assert s.label == 'Straight flush', s.label\n"
            "assert 'pokerkit.hands' in sys.modules and 'pokerkit.state' not in sys.modules\n"
            "assert 'pokerkit' not in sys.modules\n"
            "import pokerkit\n"
            "assert pokerkit.StandardHighHand is _evaluator('high')\n"
            "assert pokerkit.NoLimitTexasHoldem is not None\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "ok", out.stderr


def test_the_hand_tables_built_on_first_use_are_pokerkits_own():
    """rulings/facts/strength.py builds each of pokerkit's hand tables the first time a hand class reads it,
    not all fourteen at import: in a fresh interpreter none is built by the import; every table a game of ours
    reads is then entry for entry the table pokerkit makes itself; a hand class no game of ours uses still
    evaluates (its table built when first read), and so does pokerkit imported whole afterwards."""
    import subprocess
    import sys
    code = """
from rulings.facts.strength import GAMES, _OnFirstUse, _evaluator, _hands_module, strength
from rulings.incident.cards import read_cards
hands = _hands_module()
lazy = [k.__name__ for k in vars(hands).values() if isinstance(k, type) and isinstance(vars(k).get("lookup"), _OnFirstUse)]
assert len(lazy) == 14, lazy
for game in GAMES:
    if game.startswith("omaha"):
        strength(read_cards("As 2d 7c Kh"), read_cards("3d 4c 8h"), game)
    else:
        strength(read_cards("As 2d 3c 4h 7d"), (), game)
    table = _evaluator(game).lookup
    assert table._Lookup__entries and table._Lookup__entries == type(table)()._Lookup__entries, game
import pokerkit
assert str(pokerkit.ShortDeckHoldemHand.from_game("AsKsQsJsTs").entry.label) == "Straight flush"
assert pokerkit.StandardHighHand is hands.StandardHighHand
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "ok", done.stderr[-2000:]
