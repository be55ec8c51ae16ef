"""Random incidents over every structure, setting, words and chips: shared by the fuzz test, the report snapshot and benchmarks."""
from __future__ import annotations

import random

SAID = [None, "call", "raise", "raise to 400", "pot", "all in", "I call and raise 100", "four hundred", "bet five",
        "check", "fold", "complete", "make it 300", "raise by 50", "I call your hundred and raise two", "maybe raise?"]


def random_incident(rng: random.Random) -> dict:
    """One incident as data (it may be refused: the generator does not check the arithmetic)."""
    structure = rng.choice(["no-limit", "pot-limit", "fixed-limit", "spread-limit"])
    limit = structure in ("fixed-limit", "spread-limit")
    variant = rng.choice(["holdem", "omaha", "lowball"] if limit else ["holdem", "omaha"])
    n = rng.randint(2, 6)
    inc = {"game": {"structure": structure, "setting": rng.choice(["cash", "tournament"]), "blinds": [1, 2],
                    "variant": variant},
           "button": n, "players": {s: rng.choice([None, rng.randint(1, 2000)]) for s in range(1, n + 1)},
           "street": rng.choice(["preflop", "flop", "turn", "river"]), "pot": rng.randint(0, 500)}
    if limit:
        inc["game"]["bet_sizes"] = [2, 4]
    if variant == "lowball":
        inc["street"] = rng.choice(["before-draw", "after-draw"])
    if inc["street"] not in ("preflop", "before-draw") and rng.random() < 0.5:
        inc["actions"] = [{"seat": 1, "action": "bet", "to": rng.choice([2, 4, 10, 50])}]
    d = {"seat": 2 if "actions" in inc else 1}
    if (said := rng.choice(SAID)) is not None:
        d["said"] = said
    if rng.random() < 0.6:
        d["chips"] = [rng.choice([1, 5, 25, 100, 500]) for _ in range(rng.randint(1, 4))]
    inc["disputed"] = d
    if rng.random() < 0.3:
        inc["noticed"] = rng.choice(["before_next_action", "after_some_action", "after_all_acted", "after_next_card"])
    return inc


def random_incidents(seed: int, n: int) -> list[dict]:
    rng = random.Random(seed)
    return [random_incident(rng) for _ in range(n)]
