"""Limit raise caps: the arithmetic's capped / cap_reached facts and the rulings that read them."""
from __future__ import annotations

from rulings.ruling import books
from rulings.betting.arithmetic import position
from rulings.incident import incident_from_data
from rulings.ruling.decide import rule_on
from rulings.facts.situation import betting_params

G20 = {"structure": "fixed-limit", "blinds": [10, 20], "bet_sizes": [20, 40]}
LOWBALL = {"variant": "lowball", **G20}
# $20 flop: a bet, a $10 all-in raise (half a bet: counted under the half-bet rule), two raises.
HALF_BET = {"game": G20, "button": 4, "players": {1: 1000, 2: 30, 3: 1000, 4: 1000}, "street": "flop",
            "pot": 80, "actions": [{"seat": 1, "action": "bet", "to": 20}, {"seat": 2, "action": "raise", "to": 30},
                                   {"seat": 3, "action": "raise", "to": 50}, {"seat": 4, "action": "raise", "to": 70}],
            "disputed": {"seat": 1}}


def lowball(players: int, raises_to: list[int]) -> dict:
    """Single-draw lowball before the draw: the big blind is the bet, then each raise in turn."""
    order = [2, 1] if players == 2 else [3, 1, 2]
    actions = [{"seat": order[i % players], "action": "raise", "to": to} for i, to in enumerate(raises_to)]
    return {"game": LOWBALL, "button": players, "players": {s: 1000 for s in range(1, players + 1)},
            "street": "before-draw", "actions": actions,
            "disputed": {"seat": order[len(raises_to) % players]}}


def cap_facts(data: dict, params: dict | None = None) -> tuple[bool, bool, bool]:
    inc = incident_from_data({**data, "params": params} if params else data)   # read under those values too
    book, _ = books.load(None, compile=False)
    values = book.param_values(inc.hand.game.setting, params)
    pos = position(inc.hand, betting_params(values), seat=inc.disputed.seat)
    return pos.capped, pos.cap_reached, pos.can_raise


def ruled(standard, data: dict):
    book, engine = standard
    report = rule_on(incident_from_data(data), book, engine)
    return next((r for r in report.rulings if r.decides == "limits"), None)


def test_rrp_br_6_half_bet_all_in_counts_toward_the_cap(standard):
    assert cap_facts(HALF_BET) == (True, True, False)
    r = ruled(standard, HALF_BET)
    assert (r.rule, r.ruling, r.effects) == ("raise-caps.cap-reached", "capped", {"to_call": 5000, "call_to": 7000})


def test_rrp_br_6_under_the_full_bet_rule_the_short_all_in_is_not_a_bet():
    # The same $30 all-in, not counted: $20, $40, $60 are three bets and leave a raise.
    data = {**HALF_BET, "actions": [{"seat": 1, "action": "bet", "to": 20}, {"seat": 2, "action": "raise", "to": 30},
                                    {"seat": 3, "action": "raise", "to": 40}, {"seat": 4, "action": "raise", "to": 60}]}
    assert cap_facts(data, {"reopen.limit_rule": "full_bet"}) == (False, False, True)


def test_rrp_br_3_two_round_game_caps_at_a_bet_and_four_raises(standard):
    assert cap_facts(lowball(3, [40, 60, 80])) == (False, False, True)
    assert cap_facts(lowball(3, [40, 60, 80, 100])) == (True, True, False)
    r = ruled(standard, lowball(3, [40, 60, 80, 100]))
    assert (r.ruling, r.effects) == ("capped", {"to_call": 4000, "call_to": 10000})
    assert "a bet and 4 raises" in r.sentence


def test_rrp_br_3_two_round_cap_follows_its_own_parameter(standard):
    data = {**lowball(3, [40, 60, 80]), "params": {"raise_cap.two_round_game_max_raises": 3}}
    r = ruled(standard, data)
    assert (r.ruling, r.effects) == ("capped", {"to_call": 4000, "call_to": 8000})
    assert "a bet and 3 raises" in r.sentence


def test_rrp_br_4_heads_up_lifts_a_reached_cap(standard):
    assert cap_facts(lowball(2, [40, 60, 80])) == (False, False, True)
    assert ruled(standard, lowball(2, [40, 60, 80])) is None
    assert cap_facts(lowball(2, [40, 60, 80, 100])) == (False, True, True)
    r = ruled(standard, lowball(2, [40, 60, 80, 100]))
    assert (r.ruling, r.effects) == ("cap-lifted-heads-up", {"to_call": 2000, "min_raise_to": 12000, "call_to": 10000})


def test_tda_2024_48_tournament_cap_holds_heads_up():
    data = {**lowball(2, [40, 60, 80, 100]), "game": {**LOWBALL, "setting": "tournament"}}
    assert cap_facts(data, {"raise_cap.heads_up_exception": "none"}) == (True, True, False)


def test_rrp_nl_2_big_bet_games_have_no_cap():
    game = {"structure": "no-limit", "blinds": [10, 20]}
    data = {"game": game, "button": 3, "players": {1: 1000, 2: 1000, 3: 1000}, "street": "flop", "pot": 60,
            "actions": [{"seat": 1, "action": "bet", "to": 20}, {"seat": 2, "action": "raise", "to": 40},
                        {"seat": 3, "action": "raise", "to": 60}, {"seat": 1, "action": "raise", "to": 80},
                        {"seat": 2, "action": "raise", "to": 100}],
            "disputed": {"seat": 3}}
    assert cap_facts(data) == (False, False, True)


def test_the_sentences_say_who_may_call_not_a_bare_seat(standard):
    """The podium reads the sentence aloud: "seat calls" and "for seat: it may call" read as a seat number
    left out. Inventory §17-D2 (A $20, B $40, C $60, A caps at $80: B owes two bets, calls $80) and RRP-BR-6
    (a $5 all-in over a $20 bet does not reopen it for the bettor, who may call $5 more or fold)."""
    book, engine = standard
    flop = {"game": G20, "button": 3, "players": {1: 1000, 2: 1000, 3: 1000}, "street": "flop", "pot": 60}
    capped = {**flop, "actions": [{"seat": 1, "action": "bet", "to": 20}, {"seat": 2, "action": "raise", "to": 40},
                                  {"seat": 3, "action": "raise", "to": 60}, {"seat": 1, "action": "raise", "to": 80}],
              "disputed": {"seat": 2, "said": "raise"}}
    report = rule_on(incident_from_data(capped), book, engine)
    wager = next(r for r in report.rulings if r.decides == "wager")
    assert wager.effects["wager_to"] == 8000
    assert wager.sentence == "The round was capped, so the raise cannot stand; the player calls, making it $80."
    short = {**flop, "players": {1: 1000, 2: 25, 3: 1000}, "pot": 100,
             "actions": [{"seat": 1, "action": "bet", "to": 20}, {"seat": 2, "action": "raise", "to": 25},
                         {"seat": 3, "action": "call", "to": 25}], "disputed": {"seat": 1}}
    report = rule_on(incident_from_data(short), book, engine)
    assert [r.sentence for r in report.rulings if r.rule == "raise-caps.short-all-in-does-not-reopen"] == [
        "The all-in did not reopen the betting for this player: he may call $5 more (to $25) or fold."]
    import re
    bare = re.compile(r"(?<!any )(?<!the )(?<!each )(?<!that )(?<!this )\bseat (may|calls|can|must)\b|for seat:")
    says = [(r.id, r.then.say or "") for r in book.rules.values()]
    for name in ("east-coast-limit", "tda-series", "pnw-lowball"):
        says += [(r.id, r.then.say or "") for r in books.load(name, compile=False)[0].rules.values()]
    assert [rid for rid, say in says if bare.search(say)] == []


def _said_raise(standard, setting: str, left: int | None, params: dict | None = None):
    """TDA 2024 rule 48's spot: 200-400 limit, heads-up on the turn at 1,600 (a bet and three raises), and the
    player to act says "raise" with two 400 chips."""
    game = {"structure": "fixed-limit", "setting": setting, "blinds": [100, 200], "bet_sizes": [200, 400]}
    if left is not None:
        game["players_left"] = left
    data = {"game": game, "button": 2, "players": {1: 20000, 2: 20000}, "street": "turn", "pot": 1200,
            "actions": [{"seat": 1, "action": "bet", "to": 400}, {"seat": 2, "action": "raise", "to": 800},
                        {"seat": 1, "action": "raise", "to": 1200}, {"seat": 2, "action": "raise", "to": 1600}],
            "disputed": {"seat": 1, "said": "raise", "chips": [400, 400]}} | ({"params": params} if params else {})
    book, engine = standard
    report = rule_on(incident_from_data(data), book, engine)
    return next(r for r in report.rulings if r.decides in ("wager", "limits") and r.rule.startswith("raise-caps."))


def test_a_raise_said_at_a_heads_up_cap_is_ruled_by_the_cap_rule_of_the_game_and_setting(standard):
    """Issue 43, class 1: the cap's own rule decides a raise said at the cap, cited for the setting. A tournament
    with 14 left: TDA 48 holds the cap heads-up, a call to 1,600 (400 back). The last two of the event: the raise
    stands, to 2,000. A cash game heads-up before the cap: Robert's rule 4 lifts it, the raise to 2,000 stands."""
    held = _said_raise(standard, "tournament", 14)
    assert (held.rule, held.effects["wager_to"], held.effects["returned"], held.cites[0]) == \
        ("raise-caps.raise-at-cap-heads-up-tournament", 160000, 40000, "TDA-2024-48")
    off = _said_raise(standard, "tournament", 2)
    assert (off.rule, off.effects["wager_to"], off.cites[0]) == ("raise-caps.raise-heads-up-last-two-stands", 200000,
                                                                 "TDA-2024-48")
    cash = _said_raise(standard, "cash", None)
    assert (cash.rule, cash.effects["min_raise_to"], cash.cites[0]) == ("raise-caps.raise-heads-up-before-cap-stands",
                                                                        200000, "RRP-BR-4")
