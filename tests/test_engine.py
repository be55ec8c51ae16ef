"""The durable-rules envelope: isolation between incidents, surfaced errors, no crash under load or odd books."""
from __future__ import annotations

import random
import resource
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rulings.engine import Engine, EngineError
from rulings.incident import incident_from_data
from rulings.rulebook.load import build_book
from rulings.ruling import rule_on


def chip(pot: int, chip_value: int, structure: str = "pot-limit") -> dict:
    return {"game": {"structure": structure, "blinds": [1, 2]}, "button": 3,
            "players": {1: 100000, 2: 100000, 3: 100000}, "street": "flop", "pot": pot,
            "disputed": {"seat": 1, "chips": [chip_value]}}


def test_incidents_do_not_leak_into_each_other(standard):
    book, engine = standard
    a = rule_on(incident_from_data(chip(80, 500)), book, engine)
    b = rule_on(incident_from_data(chip(80, 50)), book, engine)
    c = rule_on(incident_from_data(chip(80, 500)), book, engine)
    assert a.final("pot-size-bet").effects == {"wager_to": 8000, "returned": 42000}
    assert b.final("pot-size-bet") is None and b.final("bet-of-chip-value").effects == {"wager_to": 5000}
    assert c.final("pot-size-bet").effects == a.final("pot-size-bet").effects
    assert engine._runs == {}   # every session deleted


# The parameters the betting arithmetic reads: a book must declare them (a topic alone does not).
ARITHMETIC = Path(__file__).resolve().parent / "data" / "arithmetic.yaml"


def _book(tmp_path: Path, body: str):
    f = tmp_path / "t.yaml"
    f.write_text(textwrap.dedent(body))
    return build_book("t", "test", [f, ARITHMETIC])


def test_action_exception_is_surfaced_not_swallowed(tmp_path):
    book = _book(tmp_path, """\
        topic: t
        title: t
        rules:
          - id: t.divide
            title: divides by the call
            cites: [RRP-PL-1]
            text: a test rule
            when: {structure: pot-limit}
            then: {ruling: r, decides: q, effects: {returned: "pot // to_call"}}
            examples:
              - {name: a, incident: {}, expect: {ruling: r}}
              - {name: b, incident: {}, expect: {fires: false}}
        """)
    engine = Engine(book)
    with pytest.raises(EngineError, match="t.divide"):
        rule_on(incident_from_data(chip(80, 500)), book, engine)   # to_call is 0
    engine.close()


def test_stress_20000_random_pot_limit_incidents_memory_flat(standard):
    """No crash, every ruling's numbers match its own incident, RSS flat after warm-up."""
    book, engine = standard
    rng = random.Random(2024)
    rss = []
    for i in range(20000):
        pot = rng.randint(1, 5000)
        value = rng.choice([1, 5, 25, 100, 500, 1000, 5000, 10000])
        report = rule_on(incident_from_data(chip(pot, value)), book, engine)
        big = report.final("pot-size-bet")
        small = report.final("bet-of-chip-value")
        if value > pot:
            assert big and big.effects == {"wager_to": pot * 100, "returned": (value - pot) * 100}, (pot, value)
        else:
            assert small and small.effects == {"wager_to": value * 100} and big is None, (pot, value)
        if i in (2000, 19999):
            rss.append(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    assert rss[1] - rss[0] < 20_000, f"max RSS grew by {rss[1] - rss[0]} kB"


FUZZ = textwrap.dedent('''
    import random, sys, tempfile, pathlib
    from rulings.engine import Engine
    from rulings.incident import incident_from_data
    from rulings.problems import ProblemsError
    from rulings.rulebook.load import build_book
    from rulings.ruling import rule_on
    rng = random.Random(int(sys.argv[1]))
    facts = {"pot": "money", "to_call": "money", "max_raise_to": "money", "chips_total": "money",
             "chip_count": "count", "said": "bool", "facing_bet": "bool", "structure": "enum",
             "street": "enum", "wager_to": "money", "oversize": "bool", "noticed": "enum"}
    enums = {"structure": ["no-limit", "pot-limit"], "street": ["flop", "turn"], "noticed": ["after_next_card"]}
    def cond(name):
        kind = facts[name]
        if kind == "bool": return rng.choice(["true", "false", "{missing: true}"])
        if kind == "enum": return rng.choice(enums[name] + ["{not: %s}" % enums[name][0]])
        op = rng.choice(["above", "at_least", "below", "at_most"])
        rhs = rng.choice(["0", "5", "pot", "pot + 2 * to_call", "max_raise_to - pot", "$80"])
        return "{%s: %s}" % (op, rhs if not rhs[0].isalpha() or rhs[0] == "$" else '"%s"' % rhs)
    loaded = 0
    for b in range(25):
        rules = []
        for i in range(rng.choice([rng.randint(1, 12), rng.randint(60, 90)])):
            when = {n: cond(n) for n in rng.sample(sorted(facts), rng.randint(1, 4))}
            derive = rng.choice(['{oversize: "true"}', '{wager_to: "pot + 1"}', "{}"])
            then = ("{derive: %s}" % derive) if derive != "{}" else "{ruling: r%d, decides: q}" % rng.randint(1, 3)
            rules.append("  - id: t.r%d\\n    title: x\\n    cites: [RRP-PL-1]\\n    text: x\\n    when: {%s}\\n    then: %s\\n"
                         "    examples: [{name: a, incident: {}, expect: {}}, {name: b, incident: {}, expect: {fires: false}}]\\n"
                         % (i, ", ".join("%s: %s" % kv for kv in when.items()), then))
        d = pathlib.Path(tempfile.mkdtemp())
        (d / "t.yaml").write_text("topic: t\\ntitle: t\\nrules:\\n" + "".join(rules))
        try:
            book = build_book("t", "t", [d / "t.yaml", pathlib.Path(sys.argv[2])])
        except ProblemsError:
            continue
        loaded += 1
        engine = Engine(book)
        for k in range(40):
            inc = {"game": {"structure": rng.choice(["no-limit", "pot-limit"]), "blinds": [1, 2]}, "button": 3,
                   "players": {1: 100000, 2: 100000, 3: 100000}, "street": rng.choice(["flop", "turn"]),
                   "pot": rng.randint(0, 900), "disputed": {"seat": 1}}
            if rng.random() < 0.7:
                inc["disputed"]["chips"] = [rng.choice([5, 25, 100, 500])]
            rule_on(incident_from_data(inc), book, engine)
        engine.close()
    print("books loaded", loaded)
''')


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_book_the_loader_accepts_crashes_the_engine(seed):
    """Random books over the condition forms the loader accepts, run in a child process to catch segfaults."""
    proc = subprocess.run([sys.executable, "-c", FUZZ, str(seed), str(ARITHMETIC)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert int(proc.stdout.split()[-1]) > 5


def test_reload_frees_old_rulesets():
    from rulings import books
    for _ in range(50):
        books.reload()
    book, engine = books.load()
    assert len(engine._host._ruleset_list) == 1


def test_cross_fact_reference_refused_at_compile_time():
    from rulings.engine import single_fact
    single_fact({"$and": [{"t": "situation"}, {"$gt": {"wager_to": {"$add": {"$l": {"$m": "pot"}, "$r": 2}}}}]})
    with pytest.raises(EngineError, match="another fact"):
        single_fact({"$and": [{"$lt": {"value": {"i": "wager"}}}]})


MANY = textwrap.dedent('''
    import pathlib, sys, tempfile
    from rulings.engine import Engine
    from rulings.incident import incident_from_data
    from rulings.rulebook.load import build_book
    from rulings.ruling import rule_on
    n = int(sys.argv[1])
    rules = "".join(
        "  - id: t.r%d\\n    title: x\\n    cites: [RRP-PL-1]\\n    text: x\\n"
        "    when: {structure: pot-limit, pot: %d}\\n    then: {ruling: r%d, decides: q%d}\\n"
        "    examples: [{name: a, incident: {}, expect: {}}, {name: b, incident: {}, expect: {fires: false}}]\\n"
        % (i, i, i, i) for i in range(n))
    d = pathlib.Path(tempfile.mkdtemp())
    (d / "t.yaml").write_text("topic: t\\ntitle: t\\nrules:\\n" + rules)
    book = build_book("t", "t", [d / "t.yaml", pathlib.Path(sys.argv[2])])
    engine = Engine(book)
    for pot in range(0, 400, 7):
        inc = {"game": {"structure": "pot-limit", "blinds": [1, 2]}, "button": 3,
               "players": {1: 1000, 2: 1000, 3: 1000}, "street": "flop", "pot": pot, "disputed": {"seat": 1}}
        report = rule_on(incident_from_data(inc), book, engine)
        assert [r.rule for r in report.rulings] == (["t.r%d" % pot] if pot < n else []), pot
    print("ok")
''')


@pytest.mark.parametrize("n", [65, 150, 300])
def test_books_past_64_rules_do_not_crash_durable(n):
    """durable-rules segfaults when more than 64 tests hang off one node; the compiler spreads rules out."""
    proc = subprocess.run([sys.executable, "-c", MANY, str(n), str(ARITHMETIC)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-2000:]


def test_too_many_rules_firing_is_an_error_not_a_crash(tmp_path):
    rules = "".join(
        f"  - id: t.r{i}\n    title: x\n    cites: [RRP-PL-1]\n    text: x\n"
        f"    when: {{structure: pot-limit}}\n    then: {{ruling: r{i}, decides: q{i}}}\n"
        "    examples: [{name: a, incident: {}, expect: {}}, {name: b, incident: {}, expect: {fires: false}}]\n"
        for i in range(280))
    (tmp_path / "t.yaml").write_text("topic: t\ntitle: t\nrules:\n" + rules)
    book = build_book("t", "t", [tmp_path / "t.yaml", ARITHMETIC])
    engine = Engine(book)
    with pytest.raises(EngineError, match="too many rules fired"):
        rule_on(incident_from_data(chip(80, 500)), book, engine)
    engine.close()


SAID = [None, "call", "raise", "raise to 400", "pot", "all in", "I call and raise 100", "four hundred", "bet five",
        "check", "fold", "complete", "make it 300", "raise by 50", "I call your hundred and raise two", "maybe raise?"]


def test_random_incidents_over_the_whole_book_rule_or_are_refused(standard):
    """Every structure, setting, words and chips: an incident is ruled on or refused by field, never an error."""
    from rulings.problems import ProblemsError
    book, engine = standard
    rng = random.Random(7)
    ruled = 0
    for _ in range(1500):
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
        try:
            rule_on(incident_from_data(inc), book, engine)
            ruled += 1
        except ProblemsError:
            pass
    assert ruled > 1000
