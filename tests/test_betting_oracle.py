"""Property test: our betting arithmetic against pokerkit on random no-limit and pot-limit hold'em hands.

Every hand is generated and played in pokerkit by ``tests/oracle.py`` (seeded
``random.Random``; 2-9 players, short and deep stacks, all-ins, folds, up to
four streets). At every decision point the test compares, with
``rulings.betting.positions``:

- the seat to act;
- the pot, the bets in front included;
- the amount to call (pokerkit caps it at the actor's chips, so ours is capped too);
- the minimum and maximum raise-to (pokerkit caps both at the actor's all-in
  total and says None when no raise is allowed; ours are capped the same way
  and None must mean ``can_raise`` is False);

and at the end of the hand the pots with the seats eligible for each, in
card-room terms (uncalled chips returned; pokerkit's fold-win quirk is
corrected in ``oracle._end_pots``). Half the hands give the blinds as ``post``
actions and half leave them to the ``Game``; a quarter have antes. One
decision point per hand is also asked of ``position(hand, after=index)``,
which must give the same Position as ``positions``. Where nobody is all-in
yet, the hand is also told from a later street (``first_street`` with the
middle as ``pot_before``), as a floor incident usually is, and the decisions
from there on are compared again.

Where pokerkit's conventions are not the card room's the generator stays out
(no limit games, straddles, uneven antes or short all-in blinds). Two
departures about short all-ins it cannot avoid without losing short stacks
(see ``tests/oracle.py``; both are in ``test_betting_departures.py``): on a
street where one happened the test does not compare *whether* a raise is
allowed, only the amounts when both sides allow one.

``ORACLE_HANDS`` overrides the number of hands (default 2,000);
``ORACLE_SEED`` the first seed. A mismatch prints the whole hand.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from oracle import Decision, OracleHand, generate, merge  # noqa: E402

from cash_params import cash_params  # noqa: E402
from rulings.betting import Position, position, positions  # noqa: E402

HANDS = int(os.environ.get("ORACLE_HANDS", "2000"))
FIRST_SEED = int(os.environ.get("ORACLE_SEED", "20250601"))
SHOWN = 5  # mismatching hands printed in full


def compare_decision(ours: Position, oracle: Decision) -> list[str]:
    """The fields where our answer and pokerkit's differ at one decision point."""
    wrong = []
    all_in = oracle.committed + oracle.behind
    if ours.actor != oracle.seat:
        wrong.append(f"actor: ours {ours.actor}, pokerkit {oracle.seat}")
    if ours.pot != oracle.pot:
        wrong.append(f"pot: ours {ours.pot}, pokerkit {oracle.pot}")
    if min(ours.to_call, oracle.behind) != oracle.to_call:
        wrong.append(f"to_call: ours {ours.to_call}, pokerkit {oracle.to_call}")
    pk_can_raise = oracle.min_to is not None
    if ours.can_raise != pk_can_raise and not oracle.tainted:
        wrong.append(f"can_raise: ours {ours.can_raise} ({ours.reason}), pokerkit {pk_can_raise}")
    if ours.can_raise and pk_can_raise:
        low = None if ours.min_raise_to is None else min(ours.min_raise_to, all_in)
        high = None if ours.max_raise_to is None else min(ours.max_raise_to, all_in)
        if low != oracle.min_to:
            wrong.append(f"min_raise_to: ours {ours.min_raise_to}, pokerkit {oracle.min_to}")
        if high != oracle.max_to:
            wrong.append(f"max_raise_to: ours {ours.max_raise_to}, pokerkit {oracle.max_to}")
    return wrong


def check_hand(generated: OracleHand) -> tuple[int, list[str]]:
    """Replay one hand through ``positions``; return the decision points compared and the mismatches."""
    wanted = {d.index: d for d in generated.decisions}
    probe = generated.decisions[generated.number % len(generated.decisions)].index
    compared = 0
    problems: list[str] = []
    try:
        for index, action, ours in positions(generated.hand, cash_params()):
            oracle = wanted.get(index)
            if oracle is None:
                continue
            compared += 1
            problems.extend(f"[{index}] {action}: {w}" for w in compare_decision(ours, oracle))
            if index == probe and position(generated.hand, cash_params(), after=index) != ours:
                problems.append(f"[{index}] position(after={index}) differs from positions: "
                                f"{position(generated.hand, cash_params(), after=index)} vs {ours}")
        final = position(generated.hand, cash_params())
    except Exception as error:  # a refusal of a legal hand is a mismatch too
        return compared, problems + [f"raised {type(error).__name__}: {error} "
                                     f"(index={getattr(error, 'index', None)}, "
                                     f"expected={getattr(error, 'expected', None)})"]
    if compared != len(wanted):
        problems.append(f"positions yielded {compared} of {len(wanted)} decision points")
    ours_pots = merge([(p.amount, frozenset(p.eligible)) for p in final.side_pots])
    if ours_pots != generated.pots:
        problems.append(f"end pots: ours {ours_pots}, pokerkit {generated.pots}")
    return compared, problems


def check_from_street(generated: OracleHand) -> tuple[int, list[str]]:
    """The same hand told from a later street (``first_street``, ``pot_before``), as a floor
    incident usually is: the decisions of that street on must not change."""
    later = sorted(s for s in generated.street_starts if s > 0)
    told = generated.from_street(later[generated.number % len(later)]) if later else None
    if told is None:
        return 0, []
    hand, skipped = told
    wanted = {d.index - skipped: d for d in generated.decisions if d.index >= skipped}
    compared = 0
    problems: list[str] = []
    try:
        for index, action, ours in positions(hand, cash_params()):
            if index in wanted:
                compared += 1
                problems.extend(f"from street {hand.first_street}, [{index}] {action}: {w}"
                                for w in compare_decision(ours, wanted[index]))
    except Exception as error:
        problems.append(f"from street {hand.first_street}: raised {type(error).__name__}: {error}")
    return compared, problems + ([f"told as {hand!r}"] if problems else [])


def test_betting_arithmetic_agrees_with_pokerkit() -> None:
    hands = decisions = told_later = later_decisions = 0
    failures: list[str] = []
    failed_hands = 0
    for number in range(HANDS):
        generated = generate(number, FIRST_SEED + number)
        compared, problems = check_hand(generated)
        later, more = check_from_street(generated)
        problems += more
        hands += 1
        decisions += compared
        told_later += later > 0
        later_decisions += later
        if problems:
            failed_hands += 1
            if failed_hands <= SHOWN:
                failures.append("\n".join(problems) + "\n" + generated.describe())
    print(f"\noracle: {hands} hands, {decisions} decision points compared, "
          f"{failed_hands} hands with mismatches; {told_later} hands also told from a later "
          f"street, {later_decisions} decision points compared there")
    assert not failures, (f"{failed_hands} of {hands} hands disagree with pokerkit; "
                          f"the first {len(failures)}:\n\n" + "\n\n".join(failures))
