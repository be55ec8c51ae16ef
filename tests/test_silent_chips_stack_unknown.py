"""Silent chips facing a bet, the player's stack not told (issue #43, class 3): ruled by what the chips make
- a call, a raise, or the one fact that decides between them asked - never "not covered", and never an
amount that is neither the call nor a legal raise."""
from __future__ import annotations

import pytest

from rulings.incident import incident_from_data
from rulings.ruling import books
from rulings.ruling.decide import rule_on

GAMES = {
    "no-limit": {"structure": "no-limit", "blinds": [1, 2]},
    "pot-limit": {"structure": "pot-limit", "blinds": [1, 2]},
    "fixed-limit": {"structure": "fixed-limit", "blinds": [5, 10], "bet_sizes": [10, 20]},
}
CHIPS = [[20], [25], [100], [5, 5, 5, 5], [20, 5], [25, 5], [25, 25], [20, 20], [25, 25, 25], [100, 5]]


@pytest.mark.parametrize("structure", sorted(GAMES))
@pytest.mark.parametrize("pot", [None, 100])
def test_silent_chips_with_the_stack_unknown_make_a_call_a_raise_or_one_question(structure, pot):
    book, engine = books.load()
    bet = 20
    for chips in CHIPS:
        data = {"game": GAMES[structure], "button": 3, "players": {1: 500, 2: None, 3: 500}, "street": "turn",
                "actions": [{"seat": 1, "action": "bet", "to": bet}], "disputed": {"seat": 2, "chips": chips}}
        if pot is not None:
            data["pot"] = pot
        report = rule_on(incident_from_data(data, book=book), book, engine)
        what = f"{structure}, pot {pot}, chips {chips}: {report.outcome} {[r.rule for r in report.rulings]}"
        assert report.outcome != "not_covered", what
        wagers = [r for r in report.rulings if r.decides == "wager" and "wager_to" in r.effects]
        if report.outcome == "ruled":
            assert wagers, what
        for w in wagers:
            to = w.effects["wager_to"]
            low = report.facts.get("min_raise_to")
            high = report.facts.get("max_raise_to")
            call = to == bet * 100
            legal_raise = low is not None and to >= low and (high is None or to <= high)
            assert call or legal_raise, f"{what}: wager to {to}"


def test_the_question_asked_is_whether_he_had_chips_behind():
    book, engine = books.load()
    data = {"game": GAMES["no-limit"], "button": 3, "players": {1: 500, 2: None, 3: 500}, "street": "turn",
            "pot": 100, "actions": [{"seat": 1, "action": "bet", "to": 20}], "disputed": {"seat": 2, "chips": [25, 5]}}
    report = rule_on(incident_from_data(data, book=book), book, engine)
    assert report.outcome == "questions"
    assert [q["fact"] for q in report.questions] == ["chips_behind"]
    # each answer rules differently: his last chips are an all-in to $30; with chips behind, $30 over a $20 bet
    # is half a raise and is made a full raise to $40 (TDA 2024 rule 45)
    rulings = {}
    for stack in (30, 500):
        told = dict(data, players={1: 500, 2: stack, 3: 500})
        r = rule_on(incident_from_data(told, book=book), book, engine)
        rulings[stack] = next(x.effects["wager_to"] for x in r.rulings if x.decides == "wager")
    assert rulings == {30: 3000, 500: 4000}
