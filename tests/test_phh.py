"""The PHH reader: the sample files, filled actions, exact money, and every malformed case refused with its line."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from pokerkit import HandHistory

from cash_params import CASH
from rulings.betting import position, positions
from rulings.incident.phh_hand import PhhError, PhhHand, loads_phh, read_phh

SAMPLE = Path(__file__).resolve().parent / "data" / "phh-sample" / "data"
WSOP = SAMPLE / "wsop/2019/42/3/00-01-07.phh"
HANDHQ = next((SAMPLE / "handhq").rglob("*.phhs"))

M = 100  # minor units per chip


@pytest.fixture(scope="module")
def wsop() -> PhhHand:
    [hand] = read_phh(WSOP)
    return hand


@pytest.fixture(scope="module")
def handhq() -> list[PhhHand]:
    return read_phh(HANDHQ)


# -- the WSOP hand -------------------------------------------------------------------------------

def test_wsop_hand_is_read_in_minor_units(wsop: PhhHand) -> None:
    game = wsop.hand.game
    assert (game.structure, game.small_blind, game.big_blind) == ("no-limit", 250000 * M, 500000 * M)
    assert [p.seat for p in wsop.hand.players] == list(range(1, 9))
    # the big-blind ante is dead money in the middle; the big blind's stack is net of it
    assert wsop.hand.pot_before == 500000 * M
    assert wsop.hand.players[1].stack == (9525000 - 500000) * M
    assert wsop.hand.players[0].stack == 13050000 * M
    assert len(wsop.hand.streets) == 4


def test_wsop_hand_fills_the_button_fold(wsop: PhhHand) -> None:
    assert wsop.filled == ("p8 (seat 8) folded before actions[13] 'p1 cc'; "
                           "the log leaves the fold out.",)
    filled = [a for a in wsop.actions if a.filled]
    assert [(a.line, a.street, a.action.seat, a.action.kind) for a in filled] == [(None, 0, 8, "fold")]


def test_wsop_hand_ante_trimming_quirk_is_noted(wsop: PhhHand) -> None:
    assert any("ante_trimming_status = true is read as false" in note for note in wsop.notes)


def test_wsop_hand_lines_map_to_actions(wsop: PhhHand) -> None:
    kinds = [(a.line, a.action.seat, a.action.kind, a.action.to) for a in wsop.actions]
    assert kinds[:2] == [(None, 1, "post", 250000 * M), (None, 2, "post", 500000 * M)]
    assert kinds[6] == (12, 7, "raise", 1150000 * M)          # 'p7 cbr 1150000'
    assert kinds[8] == (13, 1, "call", None)                  # 'p1 cc' facing the raise
    assert kinds[10] == (16, 1, "check", None)                # 'p1 cc' on the flop, after 'd db'
    assert kinds[17] == (25, 2, "bet", 2250000 * M)           # 'p2 cbr 2250000' on the river
    assert wsop.line_of(19) == 27 and len(wsop.actions) == 20


def test_wsop_hand_pot_and_positions(wsop: PhhHand) -> None:
    by_index = {index: pos for index, _action, pos in positions(wsop.hand, CASH)}
    before_raise = by_index[6]                                # p7 opens for a raise
    assert before_raise.actor == 7
    assert before_raise.pot == (250000 + 500000 + 500000) * M
    assert before_raise.to_call == 500000 * M
    assert before_raise.min_raise_to == 1000000 * M
    assert before_raise.max_raise_to == 14100000 * M
    before_call = by_index[8]                                 # p1 (small blind) faces 1,150,000
    assert before_call.actor == 1
    assert before_call.pot == (250000 + 500000 + 500000 + 1150000) * M
    assert before_call.to_call == 900000 * M
    assert before_call.min_raise_to == 1800000 * M
    river = by_index[18]                                      # p7 faces the 2,250,000 river bet
    assert river.actor == 7 and river.street == 3
    assert river.pot == (3950000 + 2250000) * M
    assert river.to_call == 2250000 * M and river.min_raise_to == 4500000 * M
    end = position(wsop.hand, CASH)
    assert end.actor is None
    assert [(p.amount, p.eligible) for p in end.side_pots] == [(8450000 * M, (1, 2))]


def test_wsop_hand_matches_finishing_stacks(wsop: PhhHand) -> None:
    """p1 wins the 8,450,000 pot: 13,050,000 - 3,400,000 + 8,450,000 = 18,100,000."""
    end = position(wsop.hand, CASH)
    assert wsop.finishing_stacks is not None
    assert end.stacks[1] + sum(p.amount for p in end.side_pots) == wsop.finishing_stacks[0]


def test_wsop_ante_trimming_flag_honoured_by_pokerkit_misses_finishing_stacks() -> None:
    """The README's quirk, checked: pokerkit honouring the flag refunds the big-blind ante."""
    with WSOP.open("rb") as file:
        history = HandHistory.load(file)
    *_, trimmed = iter(history)
    history.ante_trimming_status = False
    *_, untrimmed = iter(history)
    assert history.finishing_stacks is not None
    assert trimmed.stacks[0] == history.finishing_stacks[0] - 500000
    assert list(untrimmed.stacks) == history.finishing_stacks


# -- the handhq hands ----------------------------------------------------------------------------

def test_handhq_sample_reads_ten_hands_with_their_seats(handhq: list[PhhHand]) -> None:
    assert [h.name for h in handhq] == [str(k) for k in range(1, 11)]
    assert handhq[2].seats == (3, 4, 5, 6, 7, 8, 9, 1, 2)
    assert handhq[2].hand.players[0].stack == 2870         # 28.70
    assert handhq[0].hand.game.small_blind == 50 and handhq[0].hand.game.big_blind == 100
    assert handhq[5].hand.game.ante == 25                    # 0.25 from every player


def test_handhq_cents_survive_exactly(handhq: list[PhhHand]) -> None:
    assert handhq[3].hand.players[1].stack == 24816          # 248.16
    assert handhq[4].actions[3].action.to == 350             # 'p4 cbr 3.50'


def test_handhq_logs_are_complete_so_nothing_is_filled(handhq: list[PhhHand]) -> None:
    assert all(h.filled == () for h in handhq)


def test_handhq_hands_replay_through_the_arithmetic(handhq: list[PhhHand]) -> None:
    for phh in handhq:
        count = sum(len(street) for street in phh.hand.streets)
        assert [i for i, _a, _p in positions(phh.hand, CASH)] == list(range(count))


def test_handhq_with_lines_removed_reports_each_filled_action(handhq: list[PhhHand]) -> None:
    text = HANDHQ.read_text().split("\n\n")[2]              # hand [3], nine-handed
    # the log without p6's and p9's preflop folds and p8's flop fold
    for line in ("'p6 f', ", "'p9 f', ", "'p8 f', "):
        text = text.replace(line, "", 1)
    [hand] = loads_phh(text, many=True)
    assert hand.filled == (
        "p6 (seat 8) folded before actions[12] 'p7 cc'; the log leaves the fold out.",
        "p9 (seat 2) folded before actions[14] 'p1 cc'; the log leaves the fold out.",
        "p8 (seat 1) folded before actions[21] 'p1 f'; the log leaves the fold out.",
    )
    original = handhq[2]
    assert [a.action for a in hand.actions] == [a.action for a in original.actions]


def test_missing_checks_are_filled_before_the_next_card() -> None:
    text = SIMPLE.replace("'p1 cbr 4', 'p2 f', 'p3 cc'", "'p3 cbr 4', 'p1 f', 'p2 cc'")
    [hand] = loads_phh(text)
    assert hand.filled == (
        "p1 (seat 1) checked before actions[7] 'p3 cbr 4'; the log leaves the check out.",
        "p2 (seat 2) checked before actions[7] 'p3 cbr 4'; the log leaves the check out.",
    )
    assert [a.action.kind for a in hand.actions if a.street == 1] == [
        "check", "check", "bet", "fold", "call"]


@pytest.mark.filterwarnings("ignore:The field 'time_zone_abbreviation'")
def test_filling_agrees_with_pokerkits_repair(handhq: list[PhhHand], wsop: PhhHand) -> None:
    """pokerkit's reader fills omitted actions too; both must end with the same betting actions."""
    for path, hands in ((WSOP, [wsop]), (HANDHQ, handhq)):
        with path.open("rb") as file:
            histories = (list(HandHistory.load_all(file)) if path.suffix == ".phhs"
                         else [HandHistory.load(file)])
        for history, ours in zip(histories, hands):
            *_, state = iter(history)
            theirs = [type(op).__name__ for op in state.operations
                      if type(op).__name__ in ("Folding", "CheckingOrCalling",
                                               "CompletionBettingOrRaisingTo")]
            mine = [a.action.kind for a in ours.actions if a.action.kind != "post"]
            assert len(theirs) == len(mine), (ours.name, theirs, mine)
            assert [k == "fold" for k in mine] == [t == "Folding" for t in theirs]


# -- money ---------------------------------------------------------------------------------------

SIMPLE = """
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cc', 'p1 cc', 'p2 cc', 'd db Jc3d5c', 'p1 cbr 4', 'p2 f', 'p3 cc']
"""


def test_heads_up_blinds_follow_phh_order() -> None:
    text = SIMPLE.replace("[0, 0, 0]", "[0, 0]").replace("[1, 2, 0]", "[1, 2]").replace(
        "[200, 200, 200]", "[200, 150]").replace(
        "['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cc', 'p1 cc', 'p2 cc', 'd db Jc3d5c', 'p1 cbr 4', 'p2 f', 'p3 cc']",
        "['p2 cbr 6', 'p1 cc']")
    [hand] = loads_phh(text)
    assert [(a.action.seat, a.action.kind, a.action.to) for a in hand.actions] == [
        (2, "post", 100), (1, "post", 200), (2, "raise", 600), (1, "call", None)]
    assert (hand.hand.game.small_blind, hand.hand.game.big_blind) == (100, 200)


def test_pot_limit_holdem_by_structure_override() -> None:
    [hand] = loads_phh(SIMPLE, structure="pot-limit")
    assert hand.hand.game.structure == "pot-limit"
    first = next(pos for i, _a, pos in positions(hand.hand, CASH) if i == 2)
    assert (first.min_raise_to, first.max_raise_to) == (400, 700)


def test_fixed_limit_holdem_bet_sizes() -> None:
    text = SIMPLE.replace("variant = 'NT'", "variant = 'FT'").replace(
        "min_bet = 2", "small_bet = 2\nbig_bet = 4")
    [hand] = loads_phh(text)
    assert hand.hand.game.bet_sizes == (200, 200, 400, 400)


@pytest.mark.parametrize("amount, minor", [("6.01", 601), ("12.3", 1230), ("7", 700),
                                           ("1150000", 115000000), ("250.50", 25050)])
def test_amounts_convert_exactly(amount: str, minor: int) -> None:
    text = SIMPLE.replace("starting_stacks = [200, 200, 200]",
                          f"starting_stacks = [200, 200, {amount}]")
    assert loads_phh(text)[0].hand.players[2].stack == minor


# -- malformed input -----------------------------------------------------------------------------

def refused(text: str, **kwargs) -> PhhError:
    with pytest.raises(PhhError) as caught:
        loads_phh(text, **kwargs)
    return caught.value


def test_bad_toml_is_refused() -> None:
    error = refused(SIMPLE.replace("min_bet = 2", "min_bet = "))
    assert error.line is None and "not valid TOML" in str(error)


@pytest.mark.parametrize("field", ["variant", "antes", "blinds_or_straddles", "min_bet",
                                   "starting_stacks", "actions"])
def test_missing_required_field_is_refused(field: str) -> None:
    text = "\n".join(line for line in SIMPLE.splitlines() if not line.startswith(field + " "))
    error = refused(text)
    assert error.field == field and error.line is None
    assert f"the required field {field!r} is missing" in str(error)


def test_fixed_limit_needs_its_bet_sizes() -> None:
    assert refused(SIMPLE.replace("variant = 'NT'", "variant = 'FT'")).field == "small_bet"


def test_unknown_variant_is_refused() -> None:
    error = refused(SIMPLE.replace("'NT'", "'XX'"))
    assert error.field == "variant" and "unknown variant 'XX'" in str(error)


def test_unreadable_structure_override_is_refused() -> None:
    assert refused(SIMPLE, structure="fixed-limit").field == "structure"


def test_action_for_a_player_not_in_the_hand_is_refused() -> None:
    error = refused(SIMPLE.replace("'p1 cbr 4'", "'p9 cbr 4'"))
    assert (error.field, error.line) == ("actions", 7)
    assert "names p9 but the hand has 3 players" in str(error)


@pytest.mark.parametrize("line", ["p1 raise 4", "p1 cbr", "p1 cbr four", "x1 cc", "p0 cc",
                                  "p1 cbr -4", "d dh", "p1 cc extra"])
def test_unparseable_action_line_is_refused(line: str) -> None:
    error = refused(SIMPLE.replace("'p1 cbr 4'", repr(line)))
    assert (error.field, error.line) == ("actions", 7)


def test_amount_with_more_than_two_decimals_is_refused() -> None:
    error = refused(SIMPLE.replace("'p1 cbr 4'", "'p1 cbr 4.005'"))
    assert (error.field, error.line) == ("actions", 7) and "more than 2 decimals" in str(error)
    error = refused(SIMPLE.replace("min_bet = 2", "min_bet = 2.001"))
    assert (error.field, error.line) == ("min_bet", None)


@pytest.mark.parametrize("old, new, field", [
    ("antes = [0, 0, 0]", "antes = [0, 0]", "antes"),
    ("starting_stacks = [200, 200, 200]", "starting_stacks = [200, 'x', 200]", "starting_stacks"),
    ("starting_stacks = [200, 200, 200]", "starting_stacks = [200]", "starting_stacks"),
    ("min_bet = 2", "min_bet = 2\nseats = [1, 1, 2]", "seats"),
    ("min_bet = 2", "min_bet = 2\nplayers = ['a']", "players"),
    ("actions = [", "actions = 'p1 cc'\n_x = [", "actions"),
])
def test_wrong_field_values_are_refused(old: str, new: str, field: str) -> None:
    assert refused(SIMPLE.replace(old, new)).field == field


def test_a_board_after_the_river_is_refused() -> None:
    error = refused(SIMPLE.replace("'p3 cc']", "'p3 cc', 'd db 2c', 'd db 3c', 'd db 4c']"))
    assert error.line == 12 and "after the river" in str(error)


def test_betting_after_the_hand_is_won_is_refused() -> None:
    error = refused(SIMPLE.replace("'p2 f', 'p3 cc'", "'p2 f', 'p3 f', 'p2 cc'"))
    assert error.line == 10 and "the hand is over" in str(error)


def test_phhs_error_names_the_hand() -> None:
    text = "[1]\n" + SIMPLE + "\n[2]\n" + SIMPLE.replace("'p1 cbr 4'", "'p4 cbr 4'")
    error = refused(text, many=True)
    assert (error.hand, error.line) == ("2", 7) and str(error).startswith("[2] actions[7]:")


def test_phhs_with_a_stray_value_is_refused() -> None:
    assert refused("x = 1\n[1]\n" + SIMPLE, many=True).field == "x"


def test_unreadable_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PhhError):
        read_phh(tmp_path / "missing.phh")


def test_damaged_files_never_raise_anything_but_phh_error() -> None:
    """Random damage to the samples: each result is a list of hands or a PhhError, never a traceback."""
    rng = random.Random(7)
    texts = [WSOP.read_text(), HANDHQ.read_text()]
    for trial in range(300):
        text = rng.choice(texts)
        cut = rng.randrange(len(text))
        kind = trial % 3
        if kind == 0:
            damaged = text[:cut] + text[cut + rng.randint(1, 20):]
        elif kind == 1:
            damaged = text[:cut] + rng.choice("[]'\",=.p0123456789 \n") + text[cut:]
        else:
            damaged = text.replace(rng.choice(["'p1 ", "'p2 ", "'d db "]), rng.choice(["'p7 ", "'pX ", "'"]), 1)
        try:
            loads_phh(damaged, many=text is texts[1])
        except PhhError:
            pass
