"""A big-bet game told without its blinds: nothing the blinds size is guessed (no $0.01 minimum bet from a big
blind read as 0). RRP-NL-2 makes the big blind the smallest bet on every round and the blinds are the first
round's bets and pot: those facts stay unknown, a rule that does not need them still rules, and the big blind
is asked only where an answer changes the ruling on the dispute. Games that open otherwise (stud's bring-in,
an ante-only game, a limit game told by its bet sizes, a betting unit) keep their own numbers."""
from __future__ import annotations


from rulings.incident import incident_from_data
from rulings.ruling.decide import rule_on
from rulings.ruling.unknowns import with_blinds

THREE = {"button": 3, "players": {1: 1500, 2: 1500, 3: 1500}}
NL = {"variant": "holdem", "structure": "no-limit", "setting": "cash"}
CHIPS_OFF = {**THREE, "game": NL, "street": "preflop", "disputed": {"seat": 1, "chips_removed": True}}


def _rule(standard, data):
    book, engine = standard
    return rule_on(incident_from_data(data), book, engine)


def _blind_questions(report):
    return [q for q in report.questions if q.get("fact") == "big_blind"]


def test_chips_off_the_table_are_ruled_without_blinds_and_no_minimum_is_made_up(standard):
    report = _rule(standard, CHIPS_OFF)
    assert report.outcome == "ruled" and not report.questions
    assert report.rulings[0].sentence.startswith("Chips may not leave the table during a hand")
    said = " ".join(r.sentence for r in report.rulings)
    assert "$0.01" not in said and "bet to" not in said
    assert all(r.decides != "seat-options" for r in report.rulings)
    assert report.facts.get("big_blind") is None and report.facts.get("min_raise_to") is None


def test_the_same_with_blinds_1_2_gives_the_small_blinds_options(standard):
    # seat 1 is the small blind ($1 in) facing the $2 big blind: call $1, or raise to $4 (TDA-2024-43A)
    report = _rule(standard, {**CHIPS_OFF, "game": {**NL, "blinds": [1, 2]}})
    options = next(r for r in report.rulings if r.decides == "seat-options")
    assert "call $1 (to $2) or raise to $4 up to $1,500" in options.sentence and options.effects["min_raise_to"] == 400
    assert not report.questions


def test_no_bet_to_face_on_the_flop_the_minimum_is_the_big_blind_when_told(standard):
    flop = {**THREE, "street": "flop", "pot": 30, "disputed": {"seat": 1}}
    told = _rule(standard, {**flop, "game": {**NL, "blinds": [1, 2]}})
    options = next(r for r in told.rulings if r.decides == "seat-options")
    assert "bet to $2 up to $1,500" in options.sentence and options.effects["min_raise_to"] == 200
    untold = _rule(standard, {**flop, "game": NL})
    assert all("$0.01" not in r.sentence for r in untold.rulings)
    assert all(r.decides != "seat-options" for r in untold.rulings)


def test_a_bet_under_a_big_blind_not_given_asks_for_it_with_the_ruling_under_each_answer(standard):
    # RRP-NL-2 / TDA-2024-52A: a $5 chip opening the flop is a full bet when the big blind is $5 or less, and is
    # brought up to the big blind above it; the first answer that differs is $6 (found to the $1 unit).
    report = _rule(standard, {**THREE, "game": NL, "street": "flop", "pot": 30,
                              "disputed": {"seat": 1, "chips": [5]}})
    [q] = _blind_questions(report)
    assert report.outcome == "questions" and q["question"] == "What were the blinds (the big blind)?"
    assert "wagers.opening-bet-under-big-blind-brought-up" in q["why"]
    lines = q["under_each"]
    assert lines[0].startswith("if the big blind was $1: ") and "full value, $5" in lines[0]
    assert lines[1].startswith("if the big blind was $6: ") and "becomes $6, $1 more" in lines[1]
    # each answer is what the book rules when that big blind is given
    book, engine = standard
    at6 = rule_on(with_blinds(incident_from_data({**THREE, "game": NL, "street": "flop", "pot": 30,
                                                 "disputed": {"seat": 1, "chips": [5]}}), 600), book, engine)
    assert at6.rulings[0].effects["wager_to"] == 600


def test_told_the_blinds_the_same_bet_is_ruled_and_nothing_asked(standard):
    report = _rule(standard, {**THREE, "game": {**NL, "blinds": [5, 10]}, "street": "flop", "pot": 30,
                              "disputed": {"seat": 1, "chips": [5]}})
    assert report.outcome == "ruled" and not _blind_questions(report)
    assert report.rulings[0].effects["wager_to"] == 1000


def test_first_round_facts_the_blinds_make_are_unknown_not_zero(standard):
    book, engine = standard
    incident = incident_from_data({**THREE, "game": NL, "street": "preflop", "disputed": {"seat": 3, "chips": [5]}})
    assert incident.blinds_unknown
    report = rule_on(incident, book, engine)
    for name in ("to_call", "facing_bet", "pot", "min_raise_to", "big_blind", "in_turn"):
        assert report.facts.get(name) is None, name
    assert report.outcome == "questions" and _blind_questions(report)
    # told, the button's $5 chip facing the $2 big blind is a call (TDA-2024-44): $3 goes back
    told = _rule(standard, {**THREE, "game": {**NL, "blinds": [1, 2]}, "street": "preflop",
                            "disputed": {"seat": 3, "chips": [5]}})
    assert told.rulings[0].effects["wager_to"] == 200 and not told.questions


def test_games_that_open_without_blinds_keep_their_numbers(standard):
    ante_only = incident_from_data({**THREE, "game": {**NL, "ante": 1}, "street": "flop", "pot": 30,
                                    "disputed": {"seat": 1}})
    unit = incident_from_data({**THREE, "game": {**NL, "betting_unit": 5}, "street": "flop", "pot": 30,
                               "disputed": {"seat": 1}})
    limit = incident_from_data({**THREE, "game": {"structure": "fixed-limit", "bet_sizes": [2, 4]},
                                "street": "flop", "pot": 30, "disputed": {"seat": 1}})
    stud = incident_from_data({"players": {1: 500, 2: 500, 3: 500},
                               "game": {"variant": "stud", "structure": "fixed-limit", "ante": 1, "bring_in": 2,
                                        "bet_sizes": [5, 10]}, "street": "third",
                               "upcards": {1: "Kd", 2: "2c", 3: "9h"}, "disputed": {"seat": 2}})
    for incident in (ante_only, unit, limit, stud):
        assert not incident.blinds_unknown, incident.hand.game
    book, engine = standard
    got = rule_on(unit, book, engine)
    assert next(r for r in got.rulings if r.decides == "seat-options").effects["min_raise_to"] == 500
    got = rule_on(limit, book, engine)
    assert not _blind_questions(got) and any(r.decides == "seat-options" for r in got.rulings)


def test_calc_shows_the_numbers_the_blinds_size_as_unknown(tmp_path, capsys):
    from cli.main import main
    path = tmp_path / "flop.yaml"
    path.write_text("game: {structure: no-limit}\nbutton: 3\nplayers: {1: 1500, 2: 1500, 3: 1500}\n"
                    "street: flop\npot: 30\n")
    assert main(["calc", str(path)]) == 0
    out = capsys.readouterr().out
    assert "raise to:        - .. $1,500" in out and "$0.01" not in out and "blinds were not given" in out
    path.write_text("game: {structure: no-limit, blinds: [1, 2]}\nbutton: 3\nplayers: {1: 1500, 2: 1500, 3: 1500}\n"
                    "street: flop\npot: 30\n")
    assert main(["calc", str(path)]) == 0
    assert "raise to:        $2 .. $1,500" in capsys.readouterr().out


PL = {"variant": "holdem", "structure": "pot-limit", "setting": "cash"}


def test_pot_limit_with_nothing_bet_after_the_first_round_states_the_pot_not_a_made_up_minimum(standard):
    # the flop, $100 in the pot, nothing bet: the most is the pot whatever the blinds (RRP NL/PL preamble), the
    # least is the big blind (RRP-NL-2), not given; asked, since each big blind gives another range
    flop = {**THREE, "street": "flop", "pot": 100, "disputed": {"seat": 1}}
    untold = _rule(standard, {**flop, "game": PL})
    ruling = untold.rulings[0]
    assert ruling.rule == "pot-limit.maximum-without-blinds" and ruling.effects == {"max_raise_to": 10000, "pot": 10000}
    assert "min_raise_to" not in ruling.effects and untold.facts.get("min_raise_to") is None
    assert all("$0.01" not in r.sentence for r in untold.rulings)
    [q] = _blind_questions(untold)
    assert q["under_each"][0] == "if the big blind was $1: The player may check or bet anything from $1 to $100."
    # told $1/$2, the range rule states both ends and nothing is asked
    told = _rule(standard, {**flop, "game": {**PL, "blinds": [1, 2]}})
    assert told.rulings[0].rule == "pot-limit.maximum" and not told.questions
    assert (told.rulings[0].effects["min_raise_to"], told.rulings[0].effects["max_raise_to"]) == (200, 10000)


def test_pot_limit_facing_a_later_round_bet_is_sized_by_the_bet_without_blinds(standard):
    # a $50 bet into $100 on the flop: raise to $100 (the bet again) up to $250 (RRP's example), blinds or not
    report = _rule(standard, {**THREE, "game": PL, "street": "flop", "pot": 100,
                              "actions": [{"seat": 1, "action": "bet", "to": 50}], "disputed": {"seat": 2}})
    ruling = report.rulings[0]
    assert ruling.rule == "pot-limit.maximum" and not _blind_questions(report)
    assert (ruling.effects["min_raise_to"], ruling.effects["max_raise_to"]) == (10000, 25000)


def test_the_exceptions_to_the_pot_limit_maximum_speak_without_blinds_too(standard):
    # RRP PL r.4: counting in $25 units, an $80 flop pot allows $100; TDA 54-C: a tournament's actual flop pot
    flop = {**THREE, "street": "flop", "pot": 80, "disputed": {"seat": 1}}
    rounded = _rule(standard, {**flop, "game": PL, "params": {"pot_limit.rounding_unit": 25}})
    assert rounded.rulings[0].rule == "pot-limit.rounded-pot-without-blinds"
    assert rounded.rulings[0].effects["max_raise_to"] == 10000 and _blind_questions(rounded)
    actual = _rule(standard, {**flop, "game": {**PL, "setting": "tournament"}})
    assert actual.rulings[0].rule == "pot-limit.actual-pot-without-blinds"
    assert actual.rulings[0].effects["max_raise_to"] == 8000


def test_blinds_trials_told_alike_change_no_report_and_both_paths_are_taken(standard, monkeypatch):
    """Every standard example of a big-bet game with its blinds taken out: a trial big blind whose facts surely
    rule as the report does is not ruled (``_alike_to``, the consultation's proof), and the report is the very
    one every trial ruled in full gives. Some trials are told alike and some ruled (the blinds decide the
    options and the minimum raise: TDA-2024-43A's $1/$2 small blind may raise to $4)."""
    import rulings.ruling.decide as decide
    from rulings.problems import ProblemsError
    from rulings.report.render import dumps, report_json
    book, engine = standard
    told = ruled = 0
    seen = {"alike": 0, "not": 0}
    real = decide._alike_to

    def counted(*args):
        alike = real(*args)
        if alike is None:
            return None

        def one(trial):
            got = alike(trial)
            seen["alike" if got else "not"] += 1
            return got
        return one
    for rule in book.rules.values():
        for ex in rule.examples:
            game = ex.incident.get("game") if isinstance(ex.incident, dict) else None
            if not isinstance(game, dict) or "blinds" not in game:
                continue
            data = {**ex.incident, "game": {k: v for k, v in game.items() if k != "blinds"}}
            try:
                incident = incident_from_data(data, book=book)
            except ProblemsError:
                continue
            if not incident.blinds_unknown:
                continue
            before = dict(seen)
            with monkeypatch.context() as m:
                m.setattr(decide, "_alike_to", counted)
                report = rule_on(incident, book, engine)
            with monkeypatch.context() as m:
                m.setattr(decide, "_alike_to", lambda *a: None)     # every trial ruled in full
                full = rule_on(incident, book, engine)
            assert dumps(report_json(report)) == dumps(report_json(full)), (rule.id, ex.name)
            told += seen["alike"] > before["alike"]
            ruled += seen["not"] > before["not"]
    assert told > 200 and ruled > 200, (told, ruled)   # 300 and 373 examples when written
