"""The podium's hand form read into the README's incident format: exact amounts, a message per field, no guess."""
from decimal import Decimal

from rulings.incident import incident_from_data
from rulings.service.podium_form import amount, game_label, read_actions, read_chips, read_form

OVERCHIP = {"variant": "holdem", "structure": "pot-limit", "setting": "cash", "sb": "1", "bb": "2",
            "in-1": "1", "in-2": "1", "in-3": "1", "button": "3", "street": "flop", "pot": "80", "d_seat": "1",
            "d_chips": "500"}


def test_the_overchip_form_is_the_example_incident_with_unknown_stacks():
    read = read_form(OVERCHIP)
    assert read.errors == {}
    inc = read.incident
    assert inc["game"] == {"variant": "holdem", "structure": "pot-limit", "setting": "cash", "blinds": [1, 2]}
    assert inc["players"] == {1: None, 2: None, 3: None} and inc["button"] == 3
    assert inc["street"] == "flop" and inc["pot"] == 80 and inc["actions"] == []
    assert inc["disputed"] == {"seat": 1, "chips": [500]}
    incident_from_data(inc)          # the incident reader accepts it as it stands


def test_amounts_are_exact_and_typed_amounts_with_commas_and_dollars_read():
    assert amount("1,000") == 1000 and amount("$84.50") == Decimal("84.50") and amount("84.5") == Decimal("84.5")
    assert amount("84.505") is None and amount("ten") is None and amount("-5") is None and amount("") is None


def test_actions_line_reads_seat_action_and_street_total():
    actions, problem = read_actions("1 bet 50, 2 call; 3 raise to $150\n1 fold")
    assert problem is None
    assert actions == [{"seat": 1, "action": "bet", "to": 50}, {"seat": 2, "action": "call"},
                       {"seat": 3, "action": "raise", "to": 150}, {"seat": 1, "action": "fold"}]


def test_a_bet_without_an_amount_or_an_unknown_action_is_said_not_guessed():
    assert "how much" in read_actions("1 bet")[1]
    assert "'2 shove 40'" in read_actions("1 check, 2 shove 40")[1]


def test_chips_list_and_a_chip_worth_nothing_is_refused():
    assert read_chips("100 100 25") == ([100, 100, 25], None)
    assert "not a chip value" in read_chips("100 0")[1]


def test_every_field_that_cannot_be_read_gets_its_own_message():
    form = dict(OVERCHIP, **{"in-2": "", "in-3": "", "pot": "eighty", "d_seat": "", "street": "third",
                            "stack-1": "lots"})
    errors = read_form(form).errors
    assert set(errors) == {"seats", "pot", "d_seat", "street", "stack-1"}
    assert "at least two seats" in errors["seats"] and "'eighty' is not an amount" in errors["pot"]


def test_limit_games_carry_their_bet_sizes_and_a_label():
    read = read_form(dict(OVERCHIP, structure="fixed-limit", sb="10", bb="20", small_bet="20", big_bet="40"))
    assert read.incident["game"]["bet_sizes"] == [20, 40]
    assert game_label(read.incident["game"]) == "Limit Hold'em $20/$40"
    assert game_label({"variant": "omaha", "structure": "pot-limit", "blinds": [2, 5]}) == "Pot-limit Omaha $2/$5"
