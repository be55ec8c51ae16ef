"""The rulebook language a manager reads: exceptions that inherit, derived-fact defaults, booleans, sentences
that name the ruling's effects, and examples that share a topic's setting."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from rulings.problems import ProblemsError
from rulings.rulebook.house import load_house
from rulings.rulebook.inherit import contradiction
from rulings.rulebook.load import standard_book
from rulings.rulebook.model import Condition

HEAD = "rulebook: trial\nextends: standard\ntitle: Trial room\n"


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "trial.yaml"
    p.write_text(HEAD + textwrap.dedent(text), encoding="utf-8")
    return p


def facts_of(rule) -> set[str]:
    return {c.fact for c in rule.when if isinstance(c, Condition)}


def test_an_exception_inherits_the_conditions_of_the_rule_it_modifies():
    book = standard_book()
    sb = book.rules["pot-limit.small-blind-as-big-blind"]
    # written: only what it adds; in force: the pot-limit maximum's tests too
    assert {c.fact for c in sb.written} == {"street", "param.pot_limit.sb_counts_as_bb", "preflop_bb_acted"}
    assert Condition("structure", "eq", "pot-limit") in sb.when
    assert Condition("chips_put_out", "eq", False) in sb.when
    assert set(book.rules["pot-limit.maximum"].when) <= set(sb.when)


def test_a_chain_of_exceptions_inherits_all_the_way_down():
    book = standard_book()
    last_two = book.rules["raise-caps.last-two-in-the-event"]
    assert last_two.exception_to == "raise-caps.tournament-cap-holds-heads-up"
    assert Condition("setting", "eq", "tournament") in last_two.when          # from its rule
    assert Condition("capped", "eq", True) in last_two.when                   # from that rule's rule
    assert Condition("event_players_left", "eq", 2) in last_two.when         # its own


def test_overrides_wins_without_inheriting():
    book = standard_book()
    fold = book.rules["declarations.out-of-turn-fold-binds"]
    assert fold.exception_to == "declarations.out-of-turn-binds" and fold.written is None
    assert "out_of_turn_changed" not in facts_of(fold)     # a fold out of turn binds even after action changed


def test_the_house_exception_to_the_kill_rule_keeps_the_no_flop_test_its_copy_had_dropped():
    """pnw-lowball restated two-in-a-row's tests and dropped its any_of; inherited, the any_of is back."""
    std = standard_book()
    pnw = load_house(Path("rulebooks/houses/pnw-lowball.yaml"), std)
    half = pnw.rules["pnw-lowball.half-kill-after-two-wins"]
    two = std.rules["kill-pots.two-in-a-row"]
    assert set(two.when) <= set(half.when)
    assert any(not isinstance(c, Condition) for c in half.when)


def test_an_exception_to_a_replaced_rule_inherits_the_replacement(tmp_path):
    std = standard_book()
    base = std.rules["raise-caps.cap-reached"]
    path = write(tmp_path, """\
        rules:
          - id: trial.cap-reached
            title: The cap is reached at five bets
            cites: [HOUSE-TRIAL-1]
            text: Five bets cap the round here.
            replaces: raise-caps.cap-reached
            when:
              structure: fixed-limit
              capped: true
              facing_bet: true
              street: river
            then: {ruling: capped, decides: limits, effects: {to_call: to_call}}
            examples:
              - name: capped on the river
                incident: {game: {structure: fixed-limit, blinds: [10, 20], bet_sizes: [20, 40]}, button: 3,
                           players: {1: 1000, 2: 1000, 3: 1000}, street: river, pot: 60,
                           actions: [{seat: 1, action: bet, to: 40}, {seat: 2, action: raise, to: 80},
                                     {seat: 3, action: raise, to: 120}, {seat: 1, action: raise, to: 160}],
                           disputed: {seat: 2}}
                expect: {ruling: capped}
              - name: not on the flop
                incident: {game: {structure: fixed-limit, blinds: [10, 20], bet_sizes: [20, 40]}, button: 3,
                           players: {1: 1000, 2: 1000, 3: 1000}, street: flop, pot: 60, disputed: {seat: 2}}
                expect: {fires: false}
        """)
    book = load_house(path, std)
    held = book.rules["raise-caps.tournament-cap-holds-heads-up"]
    assert held.exception_to == "trial.cap-reached"
    assert Condition("street", "eq", "river") in held.when
    assert Condition("street", "eq", "river") not in base.when


def test_an_own_test_that_contradicts_an_inherited_one_is_refused(tmp_path):
    path = write(tmp_path, """\
        rules:
          - id: trial.never
            title: Never applies
            cites: [HOUSE-TRIAL-1]
            text: The cap rule needs a capped round, this one an uncapped one.
            exception_to: raise-caps.cap-reached
            when: {capped: false}
            then: {ruling: capped, decides: limits}
            examples:
              - {name: a, incident: {game: {structure: fixed-limit, blinds: [1, 2]}, button: 1, players: {1: 9, 2: 9}}, expect: {fires: false}}
              - {name: b, incident: {game: {structure: fixed-limit, blinds: [1, 2]}, button: 1, players: {1: 9, 2: 9}}, expect: {ruling: capped}}
        """)
    with pytest.raises(ProblemsError) as err:
        load_house(path, standard_book())
    [p] = [p for p in err.value.problems if p.code == "R112"]
    assert "'capped: false' contradicts 'capped: true'" in p.message and p.line == 10


def test_disabling_a_rule_that_has_exceptions_names_them(tmp_path):
    path = write(tmp_path, """\
        disable:
          - {rule: raise-caps.cap-reached, reason: no caps here}
        """)
    with pytest.raises(ProblemsError) as err:
        load_house(path, standard_book())
    [p] = err.value.problems
    assert p.code == "R606"
    assert "raise-caps.capped-before-heads-up-stays-capped" in p.message
    assert "raise-caps.tournament-cap-holds-heads-up" in p.message


@pytest.mark.parametrize("a, b, clash", [
    (Condition("street", "eq", "flop"), Condition("street", "in", ("flop", "turn")), False),
    (Condition("street", "eq", "river"), Condition("street", "in", ("flop", "turn")), True),
    (Condition("street", "not", "flop"), Condition("street", "eq", "flop"), True),
    (Condition("street", "not_in", ("flop", "turn")), Condition("street", "in", ("flop", "turn")), True),
    (Condition("stack", "missing"), Condition("stack", "above", 0), True),
    (Condition("stack", "present"), Condition("stack", "above", 0), False),
    (Condition("stack", "above", 100), Condition("stack", "below", 101), True),
    (Condition("stack", "above", 100), Condition("stack", "at_most", 101), False),
    (Condition("stack", "above", "pot", True), Condition("stack", "below", 1), False),   # expressions: unknown
    (Condition("said", "eq", True), Condition("said", "eq", False), True),
])
def test_contradiction(a, b, clash):
    assert contradiction(a, b) is clash and contradiction(b, a) is clash


def test_booleans_are_booleans():
    """`derive: {oversize: true}` is YAML's true; the quoted form is refused (R208) with the fix."""
    book = standard_book()
    assert ("oversize", "true") in book.rules["pot-limit.over-the-pot"].then.derive
    # an enum value written plainly is that value (wager_kind: bet), as in an example's expect
    assert ("wager_kind", "'bet'") in book.rules["wagers.silent-chips-bet"].then.derive


def test_a_quoted_boolean_is_refused_with_the_fix(tmp_path):
    path = write(tmp_path, """\
        rules:
          - id: trial.strings
            title: Two motions
            cites: [HOUSE-TRIAL-1]
            text: Any second motion is a string bet here.
            when: {motion_count: {at_least: 2}}
            then: {derive: {string_bet: "false"}}
            examples:
              - {name: a, incident: {game: {structure: fixed-limit, blinds: [1, 2]}, button: 1, players: {1: 9, 2: 9}}, expect: {fires: false}}
              - {name: b, incident: {game: {structure: fixed-limit, blinds: [1, 2]}, button: 1, players: {1: 9, 2: 9}}, expect: {derives: {string_bet: false}}}
        """)
    with pytest.raises(ProblemsError) as err:
        load_house(path, standard_book())
    [p] = [p for p in err.value.problems if p.code == "R208"]
    assert p.hint == "write string_bet: false (no quotes, as in when:)" and p.line == 10


def test_examples_share_the_files_setting_and_the_example_wins():
    from rulings.rulebook.load import merged
    defaults = {"game": {"structure": "pot-limit", "blinds": [1, 2]}, "button": 3,
                "players": {1: 1000, 2: 1000, 3: 1000}, "street": "flop"}
    got = merged(defaults, {"game": {"structure": "no-limit"}, "players": {1: 500, 2: 500}, "pot": 100})
    assert got == {"game": {"structure": "no-limit", "blinds": [1, 2]}, "button": 3,
                   "players": {1: 500, 2: 500},           # seats are replaced whole, never merged
                   "street": "flop", "pot": 100}
    book = standard_book()
    first = book.rules["pot-limit.maximum"].examples[0]
    assert first.incident["game"] == {"structure": "pot-limit", "blinds": [1, 2]} and first.incident["button"] == 3


def test_an_example_that_fails_is_reported_at_its_own_line(tmp_path):
    path = write(tmp_path, """\
        example_defaults:
          game: {structure: pot-limit, blinds: [1, 2]}
          button: 3
          players: {1: 1000, 2: 1000, 3: 1000}
          street: flop
        rules:
          - id: trial.range
            title: The pot-limit range, again
            cites: [HOUSE-TRIAL-1]
            text: The same range as the standard book.
            exception_to: pot-limit.maximum
            then: {ruling: trial-range, decides: limits, effects: {max_raise_to: max_raise_to}}
            examples:
              - name: a $50 bet into $100
                incident: {pot: 100, actions: [{seat: 1, action: bet, to: 50}], disputed: {seat: 2}}
                expect: {ruling: trial-range, effects: {max_raise_to: 251}}
              - name: no-limit
                incident: {game: {structure: no-limit}, pot: 100, disputed: {seat: 2}}
                expect: {fires: false}
        """)
    from cli.main import main
    import contextlib
    import io
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["lint", str(path)])
    assert code == 1
    assert f"{path}:17:" in err.getvalue() and "effect max_raise_to = $250, expected $251" in err.getvalue()


def test_sentences_read_the_rulings_own_numbers():
    """The 'all in for' amount comes from the effect, and a sentence naming a missing effect is refused (R209)."""
    book = standard_book()
    all_in = [r for r in book.rules.values() if r.then.say and "all-in for {{ effect.wager_to" in r.then.say]
    assert all_in and all(("wager_to", "committed + stack") in r.then.effects for r in all_in)
    recomputed = [r.id for r in book.rules.values() if r.then.say and any(
        f"({v})" in r.then.say for _, v in r.then.effects if any(op in v for op in "+-*"))]
    assert recomputed == []


def test_a_default_is_given_only_once_no_rule_can_derive_the_fact(tmp_path):
    """kill_second_leg defaults to false, but a rule reading 'false' that comes first in the book must not fire
    before the rule that derives 'true' has had its turn; with nothing to derive it, the default lets it fire."""
    from rulings.engine.rulesets import Engine
    from rulings.rulebook.load import build_book
    f = tmp_path / "t.yaml"
    examples = "examples: [{name: a, incident: {}, expect: {fires: false}}, {name: b, incident: {}, expect: {}}]"
    f.write_text(textwrap.dedent(f"""\
        topic: t
        title: t
        rules:
          - id: t.no-second-leg
            title: reads the default
            cites: [RRP-KILL-3]
            text: a test rule
            when: {{kill_second_leg: false, kill_last_pot: {{present: true}}}}
            then: {{ruling: no-second-leg, decides: kill}}
            {examples}
          - id: t.second-leg
            title: derives it
            cites: [RRP-KILL-3]
            text: a test rule
            when: {{kill_last_pot: {{at_least: 100}}}}
            then: {{derive: {{kill_second_leg: true}}}}
            {examples}
        """))
    book = build_book("t", "test", [f])
    assert book.defaults == {"kill_second_leg": False}
    engine = Engine(book)
    try:
        big = engine.run({"kill_last_pot": 15000}, {})   # $150 in hundredths
        assert [x.rule.id for x in big.fired] == ["t.second-leg"] and big.facts["kill_second_leg"] is True
        small = engine.run({"kill_last_pot": 5000}, {})
        assert [x.rule.id for x in small.fired] == ["t.no-second-leg"] and small.facts["kill_second_leg"] is False
        assert small.fired[0].chain == ["t.no-second-leg"]   # a default is no rule's doing
    finally:
        engine.close()


def test_the_kill_mirror_rules_are_gone_and_the_standard_book_defaults_the_second_leg():
    book = standard_book()
    # straddle_refused: no straddle rule sent a straddle back (straddles.straddle-stands reads it); misdeal_cause:
    # nothing in the deal is a cause of a misdeal (the single exposed or boxed card's rules read it)
    assert book.defaults == {"kill_second_leg": False, "straddle_refused": False, "misdeal_cause": False}
    assert not any(dict(r.then.derive).get("kill_second_leg") == "false" for r in book.rules.values())


def test_defaults_whose_deriving_rules_read_each_other_are_refused(tmp_path, monkeypatch):
    """R114: with two defaulted facts each derived from the other, no order gives them correctly."""
    import dataclasses

    from rulings.rulebook import catalogue
    from rulings.rulebook.load import build_book
    cat = dict(catalogue.facts())
    cat["oversize"] = dataclasses.replace(cat["oversize"], default=False)
    monkeypatch.setattr(catalogue, "facts", lambda: cat)
    examples = "examples: [{name: a, incident: {}, expect: {fires: false}}, {name: b, incident: {}, expect: {}}]"
    f = tmp_path / "t.yaml"
    f.write_text(textwrap.dedent(f"""\
        topic: t
        title: t
        rules:
          - id: t.a
            title: one from the other
            cites: [RRP-KILL-3]
            text: a test rule
            when: {{oversize: true}}
            then: {{derive: {{kill_second_leg: true}}}}
            {examples}
          - id: t.b
            title: and back
            cites: [RRP-KILL-3]
            text: a test rule
            when: {{kill_second_leg: true}}
            then: {{derive: {{oversize: true}}}}
            {examples}
        """))
    with pytest.raises(ProblemsError) as err:
        build_book("t", "test", [f])
    [p] = err.value.problems
    assert p.code == "R114"
    assert "oversize -> kill_second_leg -> oversize" in p.message


def test_pnw_lowball_no_longer_kills_after_a_pot_the_room_says_gives_no_leg():
    """The house's copy of two-in-a-row had lost its test 'a pot won before the flop gives no leg' (where the
    room sets kill.no_flop_resets_leg); inheriting the rule's tests, its half kill no longer applies there."""
    from rulings.ruling import books
    from rulings.incident import incident_from_data
    from rulings.ruling.decide import rule_on
    incident = {"game": {"variant": "lowball", "structure": "fixed-limit", "blinds": [2, 4], "bet_sizes": [4, 8]},
                "button": 1, "players": {s: 500 for s in range(1, 7)},
                "table": {"pots": [{"winners": [3], "amount": 44, "blind_money": 6}], "kill_button": {"seat": 3}}}
    book, engine = books.load("pnw-lowball")
    fired = rule_on(incident_from_data(incident), book, engine).trace
    assert "pnw-lowball.half-kill-after-two-wins" in fired          # seat 3 held the leg and won again
    incident["params"] = {"kill.no_flop_resets_leg": True}          # ... a pot with no flop, in a room where
    fired = rule_on(incident_from_data(incident), book, engine).trace  # that gives no leg
    assert "pnw-lowball.half-kill-after-two-wins" not in fired


PL_FLOP = {"game": {"structure": "pot-limit", "variant": "omaha", "blinds": [1, 2]}, "button": 3,
           "players": {1: 1000, 2: 1000, 3: 1000}, "street": "flop"}


def test_the_change_is_worked_out_once_from_what_was_put_out(standard):
    """A rule names only the chips put out (change_from:); the ruling carries what goes back and what he adds,
    right after its wager, a zero included: RRP's $50 bet into $100 caps a raise at $250."""
    from rulings.incident import incident_from_data
    from rulings.rulebook.load import change_effects
    from rulings.ruling.decide import rule_on
    book, engine = standard
    both = [r.id for r in book.rules.values() if {"returned", "owed"} <= dict(r.then.effects).keys()]
    assert len(both) == 26 and "pot-limit.oversize-wager" in both
    assert all(dict(book.rules[i].then.effects)["returned"] == change_effects(
        _change_from(i), dict(book.rules[i].then.effects)["wager_to"])["returned"] for i in both)

    def cut(**told):
        report = rule_on(incident_from_data({**PL_FLOP, "pot": 100, "actions": [{"seat": 1, "action": "bet",
                                              "to": 50}], "noticed": "before_next_action", **told}), book, engine)
        (w,) = [r for r in report.rulings if r.rule == "pot-limit.oversize-wager"]
        return w
    said = cut(disputed={"seat": 2, "said": "raise to 400"})              # nothing put out: he puts in $250
    assert list(said.effects) == ["wager_to", "returned", "owed"]
    assert said.effects == {"wager_to": 25000, "returned": 0, "owed": 25000} and "he adds $250" in said.sentence
    pushed = cut(disputed={"seat": 2, "chips": [100, 100, 100, 100]})     # $400 pushed: $150 goes back
    assert pushed.effects == {"wager_to": 25000, "returned": 15000, "owed": 0}     # in cents
    assert "$150 goes back to the player" in pushed.sentence


def _change_from(rule_id: str) -> str:
    import yaml
    topic = rule_id.split(".")[0]
    data = yaml.safe_load((Path(__file__).resolve().parents[1] / "rulebooks" / "standard" / f"{topic}.yaml")
                          .read_text(encoding="utf-8"))
    (rule,) = [r for r in data["rules"] if r["id"] == rule_id]
    assert not {"returned", "owed"} & set(rule["then"]["effects"])   # the topic file writes neither out
    return str(rule["then"]["change_from"])


@pytest.mark.parametrize("then, code, hint", [
    ("{ruling: cut, decides: wager, effects: {to_call: to_call}, change_from: chips_to}", "R210",
     "add the wager in force to effects:"),
    ("{ruling: cut, decides: wager, effects: {wager_to: max_raise_to, owed: 5}, change_from: chips_to}", "R210",
     "leave owed out of effects:"),
    ("{ruling: cut, decides: wager, effects: {wager_to: max_raise_to}, change_from: chip_to}", "R201",
     "did you mean 'chips_to'?"),
    ("{ruling: cut, decides: wager, effects: {wager_to: max_raise_to}, change_from: chips_to ** 2}", "R301", None),
])
def test_a_change_that_cannot_be_worked_out_is_refused_at_its_line(tmp_path, then, code, hint):
    path = write(tmp_path, f"""\
        rules:
          - id: trial.cut
            title: Cut to the pot
            cites: [HOUSE-TRIAL-1]
            text: Cut to the pot.
            when: {{oversize: true}}
            then: {then}
            examples:
              - {{name: a, incident: {{}}, expect: {{fires: false}}}}
        """)
    with pytest.raises(ProblemsError) as err:
        load_house(path, standard_book())
    [p] = [p for p in err.value.problems if p.code == code]
    assert p.line == 10 and (hint is None or p.hint == hint), p
