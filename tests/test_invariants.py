"""Invariants on every report (rulings/ruling/invariants.py): the book's own examples, and generated incidents over
every structure, the whole standard book and every house book.

CI runs 1,500 generated incidents; set PROPERTY_INCIDENTS (e.g. 20000) for a longer run.
"""
from __future__ import annotations

import os
import random

import pytest

from examples_ruled import examples_ruled
from rulings.ruling import books
from rulings.incident import incident_from_data
from rulings.ruling.invariants import violations
from rulings.problems import ProblemsError
from rulings.rulebook.house import house_names
from rulings.ruling.decide import rule_on

BOOKS = [None] + sorted(house_names())
INCIDENTS = int(os.environ.get("PROPERTY_INCIDENTS", "1500"))
SAID = [None, None, "call", "raise", "bet", "raise to 400", "raise to one hundred", "pot", "all in", "check",
        "fold", "I call and raise 100", "four hundred", "bet five", "raise 2", "complete", "make it 300",
        "raise by 50", "bet two thousand", "call three hundred", "raise, eight thousand", "one thousand",
        "fifteen hundred", "tap", "maybe raise?"]
CHIPS = [1, 5, 25, 100, 500, 1000, 5000]


def generate(rng: random.Random) -> dict:
    """One incident: structure, setting, stacks, a street with a bet or two, a disputed act, what came after."""
    structure = rng.choice(["no-limit", "pot-limit", "fixed-limit", "spread-limit"])
    limit = structure in ("fixed-limit", "spread-limit")
    n = rng.randint(2, 6)
    sb, bb = rng.choice([(1, 2), (5, 10), (100, 200), (500, 1000)])
    game = {"structure": structure, "setting": rng.choice(["cash", "tournament"]), "blinds": [sb, bb],
            "variant": rng.choice(["holdem", "omaha"])}
    if limit:
        game["bet_sizes"] = [bb, 2 * bb]
    inc = {"game": game, "button": n, "street": rng.choice(["preflop", "flop", "turn", "river"]),
           "players": {s: rng.choice([None, rng.randint(1, 300) * bb]) for s in range(1, n + 1)},
           "pot": 0}
    if inc["street"] != "preflop":
        inc["pot"] = rng.randint(1, 40) * bb
    seat = 1
    if inc["street"] != "preflop" and rng.random() < 0.6:
        first = bb if limit else rng.choice([bb, 2 * bb, 5 * bb, inc["pot"]])
        inc["actions"] = [{"seat": 1, "action": "bet", "to": first}]
        seat = 2
        if n > 2 and rng.random() < 0.4:
            inc["actions"].append({"seat": 2, "action": "raise", "to": first * 2 if limit else first * 3})
            seat = 3
    elif inc["street"] == "preflop":
        seat = 3 if n > 2 else 1
    if rng.random() < 0.1:
        seat = min(n, seat + 1)   # out of turn now and then
    d: dict = {"seat": seat}
    said = rng.choice(SAID)
    if said is not None:
        d["said"] = said
    if rng.random() < 0.6:
        chips = [rng.choice(CHIPS) * max(1, bb // 2) for _ in range(rng.randint(1, 4))]
        if rng.random() < 0.15:
            d["motions"] = [chips[:1], chips[1:]] if len(chips) > 1 else [chips]
        else:
            d["chips"] = chips
        if said is not None:
            d["words_first"] = rng.choice(["words", "chips", "together"])
    for flag in ("released", "unaware_of_raise", "misunderstood", "bettor_showed"):
        if rng.random() < 0.1:
            d[flag] = rng.random() < 0.7
    inc["disputed"] = d
    if seat < n and rng.random() < 0.3:
        nxt = seat + 1
        inc["after"] = [{"seat": nxt, "action": rng.choice(["fold", "call"])}]
    if rng.random() < 0.5:
        inc["noticed"] = rng.choice(["before_next_action", "after_some_action", "after_all_acted", "after_next_card"])
    if rng.random() < 0.2:
        inc["deliberated"] = rng.random() < 0.5
    if rng.random() < 0.2:
        inc["pointed_out_by"] = rng.choice(["dealer", "player_in_hand", "player_not_in_hand", "bettor", "floor"])
    return inc


def test_generated_incidents_hold_every_invariant_under_every_book():
    rng = random.Random(8)
    loaded = [books.load(h) for h in BOOKS]
    ruled, broken = 0, []
    outcomes = {"ruled": 0, "questions": 0, "not_covered": 0}
    for i in range(INCIDENTS):
        inc = generate(rng)
        book, engine = loaded[i % len(loaded)]
        try:
            report = rule_on(incident_from_data(inc), book, engine)
        except ProblemsError:
            continue   # refused by field: bad input is never a ruling
        ruled += 1
        outcomes[report.outcome] += 1
        broken += [(book.name, inc, v) for v in violations(report)]
    assert not broken, "\n".join(f"{b}: {v}\n    {inc}" for b, inc, v in broken[:10])
    # the generated acts reach a ruling and open questions; since #43 every one of them is covered (silent
    # chips with the stack not told were the generator's last "not covered" acts: ruled or asked now)
    assert ruled > INCIDENTS // 2 and outcomes["ruled"] and outcomes["questions"], (ruled, outcomes)


@pytest.mark.parametrize("house", BOOKS)
def test_every_example_of_the_book_holds_every_invariant(house):
    broken = []
    for r in examples_ruled(house):
        if not r.refused:
            broken += [f"{r.example.origin} {r.example.name}: {v}" for v in violations(r.report)]
    assert not broken, "\n".join(broken[:20])
