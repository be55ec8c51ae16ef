"""The numbers the floor needs, stated with the ruling (issue #43, class 2): the amounts a seat must put in
when a bring-in passes to him, what a player who played an unposted hand posts on the next deal."""
from __future__ import annotations

from rulings.incident import incident_from_data
from rulings.ruling import books
from rulings.ruling.decide import rule_on


def _rule(data):
    book, engine = books.load()
    return rule_on(incident_from_data(data, book=book), book, engine)


def test_a_low_card_all_in_for_the_ante_passes_the_bring_in_with_its_amounts():
    # $20/$40 stud, $5 ante, $10 bring-in: the deuce had only his ante, so seat 5 on his left brings it in
    # for $10 or completes to $20 (TDA 2024 RP-10)
    report = _rule({"game": {"variant": "stud", "structure": "fixed-limit", "setting": "tournament", "ante": 5,
                             "bring_in": 10, "bet_sizes": [20, 40]},
                    "button": 1, "players": {1: 900, 2: 900, 4: 5, 5: 900}, "street": "third",
                    "upcards": {1: "Qs", 2: "9d", 4: "2h", 5: "7c"}, "disputed": {"seat": 5}})
    (r,) = [r for r in report.rulings if r.rule == "bring-in.low-card-all-in-for-the-ante"]
    assert r.effects["bring_in_seat"] == 5
    assert "seat 5 must bring it in for 10 or complete to 20" in r.sentence, r.sentence


def test_the_missed_blinds_posted_next_deal_are_in_the_ruling():
    report = _rule({"game": {"structure": "no-limit", "blinds": [2, 5]}, "button": 1,
                    "players": {1: 500, 2: 500, 3: 500, 4: 500},
                    "procedure": {"posting": {"seat": 4, "player": "returning", "missed": "both",
                                              "dealt_in_unposted": True, "looked": True, "acted": True}}})
    (r,) = report.rulings
    assert (r.effects["post_live"], r.effects["post_dead"], r.effects["post_total"]) == (500, 200, 700)
    assert "On the next deal he posts $7: $5 live and $2 dead." in r.sentence
