"""Kill pots (inventory section 1): the table history read and refused by field, the sources' numbers, every parameter."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.main import main
from rulings.ruling import books
from rulings.rulebook.catalogue import citations
from rulings.incident import incident_from_data
from rulings.problems import ProblemsError
from rulings.ruling.decide import rule_on

ROOT = Path(__file__).resolve().parents[1]
G20 = {"structure": "fixed-limit", "blinds": [10, 20], "bet_sizes": [20, 40]}
SEATS = {s: 1000 for s in range(1, 7)}
TWO_WINS = {"pots": [{"winners": [3], "amount": 90, "blind_money": 30},
                     {"winners": [3], "amount": 220, "blind_money": 30}]}


def incident(table: dict, game: dict = G20, params: dict | None = None, players: dict = SEATS) -> dict:
    return {"game": game, "button": 1, "players": players, "table": table, "params": params or {}}


def ruled(standard, data: dict, question: str = "kill"):
    book, engine = standard
    report = rule_on(incident_from_data(data), book, engine)
    return next((r for r in report.rulings if r.decides == question), None)


def refused(data: dict, standard=None) -> list[tuple[str, str]]:
    with pytest.raises(ProblemsError) as err:
        inc = incident_from_data(data)
        book, engine = standard
        rule_on(inc, book, engine)
    return [(p.code, ".".join(p.path)) for p in err.value.problems]


def test_wiki_kill_1_full_kill_in_20_40(standard):
    r = ruled(standard, incident(TWO_WINS))
    assert (r.ruling, r.effects) == ("kill-required", {"killer": 3, "kill_blind": 4000, "kill_small_bet": 4000,
                                                        "kill_big_bet": 8000})


def test_wiki_kill_1_half_kill_in_4_8(standard):
    game = {"structure": "fixed-limit", "blinds": [2, 4], "bet_sizes": [4, 8]}
    table = {"pots": [{"winners": [3], "amount": 20, "blind_money": 6},
                      {"winners": [3], "amount": 44, "blind_money": 6}]}
    r = ruled(standard, incident(table, game, {"kill.size": "half"}))
    assert r.effects == {"killer": 3, "kill_blind": 600, "kill_small_bet": 600, "kill_big_bet": 1200}


@pytest.mark.parametrize("amount,ruling", [(50, "kill-required"), (49, "leg-up")])
def test_rrp_kill_3_second_leg_needs_a_full_bet_beyond_the_blinds(standard, amount, ruling):
    table = {"pots": [{"winners": [3], "amount": amount, "blind_money": 30}], "kill_button": {"seat": 3}}
    assert ruled(standard, incident(table)).ruling == ruling


@pytest.mark.parametrize("amount,ruling", [(401, "kill-required"), (400, "no-kill")])
def test_wiki_kill_2_pot_strictly_over_ten_big_bets(standard, amount, ruling):
    table = {"pots": [{"winners": [6], "amount": amount, "blind_money": 30}]}
    assert ruled(standard, incident(table, params={"kill.trigger": "pot_size"})).ruling == ruling


@pytest.mark.parametrize("amount,ruling", [(100, "kill-required"), (99, "no-kill")])
def test_rrp_kill_8_scoop_of_five_upper_limits_inclusive(standard, amount, ruling):
    game = {"structure": "fixed-limit", "variant": "omaha", "blinds": [5, 10], "bet_sizes": [10, 20]}
    table = {"split_game": True, "pots": [{"winners": [2], "amount": amount, "blind_money": 15}]}
    assert ruled(standard, incident(table, game)).ruling == ruling


@pytest.mark.parametrize("stack,ruling", [(16, "voluntary-kill-allowed"), (15, "voluntary-kill-refused")])
def test_rrp_kill_10_peek_kill_needs_four_kill_blinds(standard, stack, ruling):
    game = {"structure": "fixed-limit", "variant": "lowball", "blinds": [1, 2], "bet_sizes": [2, 4]}
    table = {"voluntary": {"seat": 4, "cards_seen": 2, "stack": stack, "third_card_out": False}}
    r = ruled(standard, incident(table, game, {"kill.voluntary_after_peek": True}), "voluntary-kill")
    assert r.ruling == ruling


def test_rrp_kill_7_killer_who_wins_kills_again_for_the_same_amount(standard):
    table = {"pots": [{"winners": [3], "amount": 300, "blind_money": 70, "kill": {"seat": 3, "amount": 40}}],
             "kill_button": {"seat": 3, "legs": 2}}
    r = ruled(standard, incident(table))
    assert (r.rule, r.effects["kill_blind"]) == ("kill-pots.killer-wins-again", 4000)


def test_rrp_kill_9_underpaid_required_kill_made_up(standard):
    table = {"kill_posted": {"seat": 3, "amount": 40, "required": True}, "kill_button_face_up": True,
             "underpaid": {"seat": 5, "amount": 20}}
    assert ruled(standard, incident(table), "underpaid").effects == {"kill_underpaid_short": 2000, "to_call": 4000}


# --- every parameter value changes the ruling --------------------------------------------------

@pytest.mark.parametrize("param,value,question,expected", [
    ("kill.size", "full", "kill", 4000),
    ("kill.size", "half", "kill", 3000),
    ("kill.mode", "both", "kill", "kill-required"),
    ("kill.mode", "required", "kill", "kill-required"),
    ("kill.mode", "voluntary", "kill", None),
    ("kill.trigger", "consecutive_wins", "kill", "kill-pots.two-in-a-row"),
    ("kill.trigger", "pot_size", "kill", "kill-pots.pot-size-not-reached"),       # $220 is not over $400
    ("kill.trigger", "scoop_pot_size", "kill", "kill-pots.scoop-trigger"),        # $220 is at least $200
    ("kill.trigger", "wins_plus_pot_size", "kill", "kill-pots.two-wins-and-five-big-bets"),
    ("kill.killer_acts", "in_turn", "killer-position", "killer-in-turn"),
    ("kill.killer_acts", "last_on_first_round", "killer-position", "killer-acts-last"),
])
def test_parameters_on_two_wins_in_20_40(standard, param, value, question, expected):
    r = ruled(standard, incident(TWO_WINS, params={param: value}), question)
    got = r.effects["kill_blind"] if param == "kill.size" else r.rule if param == "kill.trigger" else \
        (r.ruling if r else None)
    assert got == expected


@pytest.mark.parametrize("value,ruling", [("one_full_bet", "kill-required"), ("pot_5x_bb", "leg-up")])
def test_house_az_kill_second_leg_min(standard, value, ruling):
    # $190 holds $160 beyond the blinds but is under five $40 big bets.
    table = {"pots": [{"winners": [3], "amount": 190, "blind_money": 30}], "kill_button": {"seat": 3}}
    assert ruled(standard, incident(table, params={"kill.second_leg_min": value})).ruling == ruling


@pytest.mark.parametrize("value,ruling", [(False, "leg-up"), (True, "button-neutral")])
def test_house_az_kill_no_flop_resets_leg(standard, value, ruling):
    table = {"pots": [{"winners": [4], "amount": 30, "blind_money": 30, "flop": False}], "kill_button": None}
    assert ruled(standard, incident(table, params={"kill.no_flop_resets_leg": value})).ruling == ruling


@pytest.mark.parametrize("multiple,ruling", [(10, "no-kill"), (8, "kill-required")])
def test_wiki_kill_2_pot_size_multiple(standard, multiple, ruling):
    table = {"pots": [{"winners": [6], "amount": 321, "blind_money": 30}]}
    params = {"kill.trigger": "pot_size", "kill.pot_size_multiple": multiple}
    assert ruled(standard, incident(table, params=params)).ruling == ruling


@pytest.mark.parametrize("multiple,ruling", [(5, "no-kill"), (3, "kill-required")])
def test_rrp_kill_8_scoop_pot_multiple(standard, multiple, ruling):
    game = {"structure": "fixed-limit", "variant": "omaha", "blinds": [5, 10], "bet_sizes": [10, 20]}
    table = {"split_game": True, "pots": [{"winners": [2], "amount": 60, "blind_money": 15}]}
    assert ruled(standard, incident(table, game, {"kill.scoop_pot_multiple": multiple})).ruling == ruling


@pytest.mark.parametrize("peek,multiple,ruling", [
    (False, 4, "voluntary-kill-refused"), (True, 4, "voluntary-kill-refused"), (True, 3, "voluntary-kill-allowed")])
def test_rrp_kill_10_peek_and_stack_multiple(standard, peek, multiple, ruling):
    game = {"structure": "fixed-limit", "variant": "lowball", "blinds": [1, 2], "bet_sizes": [2, 4]}
    table = {"voluntary": {"seat": 4, "cards_seen": 2, "stack": 12, "third_card_out": False}}
    params = {"kill.voluntary_after_peek": peek, "kill.voluntary_min_stack_multiple": multiple}
    assert ruled(standard, incident(table, game, params), "voluntary-kill").ruling == ruling


# --- bad table input is refused by field -------------------------------------------------------

def test_kill_blind_that_does_not_match_the_kill_size_is_refused(standard):
    table = {"pots": [{"winners": [3], "amount": 300, "blind_money": 70, "kill": {"seat": 3, "amount": 30}}]}
    assert refused(incident(table), standard) == [("I122", "table.pots.0.kill.amount")]
    posted = {"kill_posted": {"seat": 3, "amount": 40}}
    assert refused(incident(posted, params={"kill.size": "half"}), standard) == [("I122", "table.kill_posted.amount")]


@pytest.mark.parametrize("table,problem", [
    ({"pots": [{"winners": [3], "amount": 20, "blind_money": 30}]}, ("I120", "table.pots.0.blind_money")),
    ({"pots": [{"winners": [9], "amount": 220, "blind_money": 30}]}, ("I121", "table.pots.0.winners.0")),
    ({"pots": [{"winners": [3, 4], "amount": 220, "blind_money": 30, "split": False}]}, ("I124", "table.pots.0.split")),
    ({"new_game": True, "pots": [{"winners": [3], "amount": 220, "blind_money": 30}]}, ("I124", "table.new_game")),
    ({"kill_button": {"seat": 3, "legs": 2}, "pots": [{"winners": [3], "amount": 220, "blind_money": 30}]},
     ("I124", "table.kill_button.legs")),
    ({"kill_posted": {"seat": 3, "amount": 40}, "underpaid": {"seat": 5, "amount": 40}},
     ("I120", "table.underpaid.amount")),
    ({"pots": [{"winners": [3], "amount": 220}], "kil_button": None}, ("I101", "table.kil_button")),
])
def test_bad_table_refused_by_field(standard, table, problem):
    assert problem in refused(incident(table), standard)


def test_kill_in_a_no_limit_game_is_refused(standard):
    game = {"structure": "no-limit", "blinds": [1, 2]}
    assert refused(incident(TWO_WINS, game), standard) == [("I123", "game.structure")]


# --- the example incidents and the inventory -----------------------------------------------------

def test_kill_example_incident_prints_ruling_numbers_citations(capsys):
    assert main(["rule", str(ROOT / "examples/incidents/kill-two-in-a-row.yaml"), "--verbose"]) == 0
    out = capsys.readouterr().out
    assert "Seat 3 has won two pots in a row" in out and "kill blind $40" in out and "$40/$80" in out
    assert "RRP-KILL-3" in out and "RRP-KILL-12" in out and "RRP-KILL-2" in out


def test_kill_example_incident_json(capsys):
    assert main(["rule", str(ROOT / "examples/incidents/kill-scoop.yaml"), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    kill = next(r for r in data["rulings"] if r["decides"] == "kill")
    assert kill["effects"] == {"killer": 2, "kill_blind": 20, "kill_small_bet": 20, "kill_big_bet": 40}
    assert {c["key"] for c in kill["citations"] if not c.get("via")} == {"RRP-KILL-8", "RRP-KILL-INTRO"}
    # the full kill's size comes from the rule that worked it out, cited after the ruling's own
    assert [c["key"] for c in kill["citations"] if c.get("via") == "kill-pots.full-kill"] == ["WIKI-KILL-1"]
    assert any(r["rule"] == "kill-pots.one-kill-per-deal" for r in data["rulings"])


def test_every_kill_inventory_key_is_cited_or_explained():
    book, _ = books.load(compile=False)
    cited = {k for r in book.rules.values() for k in r.cites} | {k for p in book.parameters.values() for k in p.cites}
    section1 = {k for k, c in citations().items() if c.topic == "Kill pots"}
    assert len(section1) == 19
    readme = (ROOT / "docs" / "rulebooks.md").read_text(encoding="utf-8")   # moved from the README
    assert sorted(k for k in section1 - cited if k not in readme) == []
