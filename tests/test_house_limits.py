"""House books that once passed lint and then hung, crashed or flooded the output: each is now refused
by lint with a code, or compiles and rules correctly. Every case runs in one bounded child process.
"""
from __future__ import annotations

import json
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rulings.engine.rulesets import Engine
from rulings.rulebook.expressions import check_condition, compile_expression
from rulings.rulebook.bounds import bound
from rulings.rulebook.load import standard_book
from rulings.rulebook.model import Condition, Origin, Outcome, Rule, Rulebook
from tests.bounded import PEAK_LIMIT_KB, examples, run_cli

SILENT_CHIP = ("{game: {structure: pot-limit, blinds: [1, 2]}, button: 3, players: {1: 1000, 2: 640, 3: 815}, "
               "street: flop, pot: 80, disputed: {seat: 1, chips: [CHIP]}}")


def house(name: str, when: str, then: str = '{ruling: trial-ruling, decides: trial, say: "x"}',
          fires: int = 500, quiet: int = 5, extra: str = "", cites: str = "[RRP-PL-6]") -> str:
    return textwrap.dedent(f"""\
        rulebook: {name}
        extends: standard
        title: t
        rules:
          - id: {name}.r
            title: t
            cites: {cites}
            text: t
            when: {when}
            then: {then}
            examples:
              - {{name: a, incident: {SILENT_CHIP.replace("CHIP", str(fires))}, expect: {{ruling: trial-ruling}}}}
              - {{name: b, incident: {SILENT_CHIP.replace("CHIP", str(quiet))}, expect: {{fires: false}}}}
        """) + extra


# every rule of the standard topic 'wagers', read from the book (the topic grows as the book does)
WAGERS = sorted(r.id for r in standard_book().rules.values() if r.topic == "wagers")
# exceptions in other topics inherit a wagers rule's tests: disabling it without them is R606
LEANING: list[str] = []
for _ in range(5):   # down chains of exceptions
    LEANING = sorted(r.id for r in standard_book().rules.values() if r.topic != "wagers" and
                     r.exception_to in WAGERS + LEANING and r.written is not None)
assert len(WAGERS) >= 3

BOOKS = {
    "any-of-empty": house("h", "{structure: pot-limit, any_of: [{}]}"),
    "when-empty": house("h", "{}"),
    "in-513": house("h", "{chips_total: {in: [" + ", ".join(str(i) for i in range(1, 514)) + "]}}"),
    "any-of-600": house("h", "{any_of: [" + ", ".join(f"{{chips_total: {i}}}" for i in range(600)) + "]}"),
    "in-times-any-of": house("h", "{chips_total: {in: [" + ", ".join(map(str, range(1, 20))) + "]}, any_of: ["
                             + ", ".join(f"{{pot: {i}}}" for i in range(1, 9)) + "]}"),
    "floor-div": house("h", '{structure: pot-limit, chips_total: {above: "pot // 2"}}', fires=41, quiet=40),
    "floor-div-zero": house("h", '{chips_total: {above: "pot // 0"}}'),
    "floor-div-by-fact": house("h", '{chips_total: {above: "pot // to_call"}}'),
    "modulo": house("h", '{chips_total: {above: "pot % 7"}}'),
    "unary-minus": house("h", '{structure: pot-limit, chips_total: {above: "20000 + -pot"}}', fires=121, quiet=120),
    "comparison": house("h", '{chips_total: {above: "pot > 2"}}'),
    "sum-200": house("h", '{chips_total: {above: "' + " + ".join(["pot"] * 200) + '"}}'),
    "sum-60": house("h", '{chips_total: {above: "' + "+".join(["pot"] * 60) + '"}}'),
    "tests-33": house("h", "{" + ", ".join(f"{n}: {{present: true}}" for n in (
        "pot", "to_call", "current_bet", "max_raise_to", "min_raise_to", "chips_total", "stack", "big_blind",
        "small_blind", "ante", "committed", "chip_count", "motion_count", "chips_to", "players_dealt",
        "last_full_raise", "pot_in_middle", "said_amount_to", "bet_from_count", "actions_since", "chip_actions_since",
        "betting_unit", "small_bet", "big_bet", "facing_bet", "in_turn", "said", "said_kind", "noticed",
        "pointed_out_by", "deliberated", "count_requested", "can_raise")) + "}"),
    "examples-21": house("h", "{structure: pot-limit}").replace("    examples:\n", "    examples:\n" + "".join(
        f"      - {{name: x{i}, incident: {{}}, expect: {{fires: false}}}}\n" for i in range(19))),
    "template-parts": house("h", "{structure: pot-limit}", then='{ruling: trial-ruling, decides: trial, say: "'
                            + "{{ pot + pot + pot + pot + pot + pot + pot + pot + pot + pot }}" * 24 + '"}'),
    "nested-parens": house("h", '{chips_total: {above: "' + "(" * 140 + "pot" + ")" * 140 + '"}}'),
    "ruled-list": house("h", "{structure: pot-limit, ruled: [pot-size-bet, wager-reduced]}"),
    "percent-format": house("h", "{structure: pot-limit}",
                            then='{ruling: trial-ruling, decides: trial, say: "{{ \'%0999999999d\' % pot }}"}'),
    "ifs-30000": house("h", "{structure: pot-limit}", then='{ruling: trial-ruling, decides: trial, say: "'
                       + "{% if pot %}x{% endif %}" * 30000 + '"}'),
    "ifs-21": house("h", "{structure: pot-limit}", then='{ruling: trial-ruling, decides: trial, say: "'
                    + "{% if pot %}x{% endif %}" * 21 + '"}'),
    "wager-to-hello": house("h", "{structure: pot-limit}",
                            then="{ruling: trial-ruling, decides: trial, effects: {wager_to: \"'hello'\"}}"),
    "wager-negative": house("h", "{structure: pot-limit}",
                            then='{ruling: trial-ruling, decides: trial, effects: {wager_to: "-25"}}'),
    "wager-product": house("h", "{structure: pot-limit}",
                           then='{ruling: trial-ruling, decides: trial, effects: {wager_to: "pot * pot * pot"}}'),
    "say-seat": house("h", "{structure: pot-limit}", then='{ruling: trial-ruling, decides: trial, say: "{{ seat }}"}'),
    "enum-effect": house("h", "{structure: pot-limit}",
                         then="{ruling: trial-ruling, decides: trial, effects: {noticed: \"'tomorrow'\"}}"),
    "cites-40000": house("h", "{structure: pot-limit}",
                         cites="[" + ", ".join(f"XX-{i}" for i in range(40000)) + "]"),
    "rules-5000": "rulebook: h\nextends: standard\ntitle: t\nrules:\n" + "".join(
        f"  - {{id: h.r{i}, title: t, cites: [RRP-PL-6], text: t, when: {{pot: {i}}}, then: {{ruling: r, "
        f"decides: d}}, examples: []}}\n" for i in range(5000)),
    "params-40000": "rulebook: h\nextends: standard\ntitle: t\nparameters:\n" + "".join(
        f"  x.p{i}: 1\n" for i in range(40000)),
    "param-huge": "rulebook: h\nextends: standard\ntitle: t\nparameters: {kill.pot_size_multiple: 100000000000000000000}\n",
    "disable-topic": "rulebook: h\nextends: standard\ntitle: t\ndisable:\n" + "".join(
        f"  - {{rule: {r}, reason: not here}}\n" for r in WAGERS + LEANING),
}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    d = tmp_path_factory.mktemp("houses")
    (d / "incident.yaml").write_text(SILENT_CHIP.replace("CHIP", "121") + "\n")
    argv, names = [], []
    for name, text in BOOKS.items():
        (d / f"{name}.yaml").write_text(text)
        argv.append(["lint", str(d / f"{name}.yaml"), "--format", "json"])
        names.append(("lint", name))
    for name in ("floor-div", "unary-minus", "any-of-empty", "in-513", "percent-format", "disable-topic"):
        argv.append(["rule", str(d / "incident.yaml"), "--house", str(d / f"{name}.yaml"), "--format", "json"])
        names.append(("rule", name))
    cases, peak = run_cli(argv, timeout=240)
    for c in cases:
        assert c.exc is None, c.exc
        assert "Traceback" not in c.text
    return dict(zip(names, cases)), peak


def codes(results, name: str) -> list[tuple[str, str]]:
    case = results[0][("lint", name)]
    return [(p["code"], p["message"]) for p in json.loads(case.out)["problems"]]


def test_memory_stays_bounded(results):
    assert results[1] < PEAK_LIMIT_KB


@pytest.mark.parametrize("name, code, words", [
    ("any-of-empty", "R106", "a condition group needs at least one test"),
    ("when-empty", "R106", "a condition group needs at least one test"),
    ("in-513", "R502", "'in' lists 513 values; the limit is 64"),
    ("any-of-600", "R502", "any_of has 600 groups; the limit is 64"),
    ("in-times-any-of", "R502", "can match in 152 ways"),
    ("floor-div-zero", "R301", "'//' divides only by a positive whole number"),
    ("floor-div-by-fact", "R301", "'//' divides only by a positive whole number"),
    ("modulo", "R301", "'%' (it formats text as well as dividing) is not allowed"),
    ("comparison", "R301", "a comparison cannot be used in a condition's value"),
    ("sum-200", "R301", "an expression of more than 300 characters is not allowed"),
    ("sum-60", "R301", "more than 40 names, numbers and operators"),
    ("nested-parens", "R301", "nested too deep"),
    ("tests-33", "R502", "33 tests in one rule; the limit is 32"),
    ("examples-21", "R502", "21 examples; the limit is 20"),
    ("template-parts", "R302", "a sentence template of more than 400 parts is not allowed"),
    ("ruled-list", "R106", "ruled: takes one ruling name"),
    ("percent-format", "R302", "'%' (it formats text as well as dividing) is not allowed"),
    ("ifs-30000", "R302", "a sentence of more than 2,000 characters is not allowed"),
    ("ifs-21", "R302", "21 {% if %} blocks; a sentence may have at most 20"),
    ("wager-to-hello", "R202", "'wager_to' is money, but ''hello'' gives text"),
    ("wager-negative", "R202", "'wager_to' cannot be negative, and '-25' is"),
    ("wager-product", "R202", "can grow past the largest amount the engine holds exactly"),
    ("enum-effect", "R203", "'tomorrow' is not a value of noticed"),
    ("say-seat", "R201", "unknown fact 'seat'"),   # lint let it through; no run ever had it (found by the fuzzer)
    ("cites-40000", "R502", "40,000 citation keys; the limit is 12"),
    ("rules-5000", "R502", "5,000 entries under rules:"),
    ("params-40000", "R502", "40,000 entries under parameters:"),
    ("param-huge", "R205", "kill.pot_size_multiple must be a whole number from 1 to 100, not 1000000"),
])
def test_lint_refuses_what_the_engine_cannot_bear(results, name, code, words):
    found = codes(results, name)
    assert any(c == code and words in m for c, m in found), found
    assert len(found) <= 3, found   # one problem per mistake, never one per value


def test_floor_division_in_a_condition_compiles_and_rules_exactly(results):
    """`above: "pot // 2"`, as a manager writes it: 41 is above half of 80, 40 is not (the house's examples)."""
    assert codes(results, "floor-div") == []
    report = json.loads(results[0][("rule", "floor-div")].out)
    assert "trial-ruling" in [r["ruling"] for r in report["rulings"]]


def test_unary_minus_compiles_and_rules_exactly(results):
    assert codes(results, "unary-minus") == []   # constants are hundredths: $121 > $200 - $80 fires, $120 not
    report = json.loads(results[0][("rule", "unary-minus")].out)
    assert "trial-ruling" in [r["ruling"] for r in report["rulings"]]


def test_a_refused_house_book_is_refused_by_rule_too(results):
    for name in ("any-of-empty", "in-513", "percent-format"):
        case = results[0][("rule", name)]
        assert case.code == 1 and " error R" in case.err, case.text[:500]


def test_a_house_that_disables_a_whole_topic_is_warned(results):
    found = results[0][("lint", "disable-topic")]
    problems = json.loads(found.out)["problems"]
    assert [(p["code"], p["severity"]) for p in problems] == [("R605", "warning")]
    assert f"disables every rule of the topic 'wagers' ({len(WAGERS)} rules)" in problems[0]["message"]
    assert found.code == 0   # a warning, not an error
    ruled = results[0][("rule", "disable-topic")]
    report = json.loads(ruled.out)
    # as the warning says: the silent chip, a 'wagers' matter, gets no ruling (exit 3), and nothing fails
    assert (ruled.code, report["outcome"], report["problems"]) == (3, "not_covered", [])


# --- every expression the condition whitelist accepts compiles, and the engine computes it exactly ----

NAMES = ["pot", "to_call", "current_bet", "big_blind", "param.pot_limit.rounding_unit"]
_leaf = st.one_of(st.sampled_from(NAMES), st.integers(0, 1000).map(str))


def _grow(inner):
    return st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(inner, st.integers(1, 9)).map(lambda t: f"({t[0]} // {t[1]})"),
        inner.map(lambda e: f"-{e}"),
        inner.map(lambda e: f"+{e}"))


EXPRESSIONS = st.recursive(_leaf, _grow, max_leaves=12)


def _rule(expr: str) -> Rule:
    return Rule("p.r", "t", "p", ("RRP-PL-6",), "t", (Condition("stack", "above", expr, True),),
                Outcome(ruling="r", decides="q"), (), Origin("<generated>", 1))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expr=EXPRESSIONS, values=st.lists(st.integers(0, 10 ** 9), min_size=6, max_size=6))
def test_every_condition_expression_lint_accepts_compiles_and_agrees_with_python(expr, values):
    book = standard_book()
    if check_condition(expr, bound(book.parameters)):
        return   # refused at lint with a reason: never reaches the engine
    rulebook = Rulebook("p", "p", [], dict(book.parameters), {"p.r": _rule(expr)})
    engine = Engine(rulebook)
    try:
        pot, to_call, current_bet, big_blind, rounding, stack = values
        facts = {"pot": pot, "to_call": to_call, "current_bet": current_bet, "big_blind": big_blind,
                 "stack": stack}
        params = {"pot_limit.rounding_unit": rounding}
        run = engine.run(dict(facts), params)
        expected = stack > compile_expression(expr)(**facts, param={"pot_limit": {"rounding_unit": rounding}})
        assert bool(run.fired) == expected, (expr, values)
    finally:
        engine.close()


# --- every expression the whole whitelist accepts compiles (effects, derived values, sentences) ---------

_ANY_LEAF = st.one_of(st.sampled_from(NAMES + ["structure", "facing_bet", "effect.wager_to"]),
                      st.integers(-1000, 1000).map(str), st.sampled_from(["'a'", "true", "none", "[pot, 2]"]))


def _grow_any(inner):
    binary = st.sampled_from(["+", "-", "*", "//", "%", "/", "**", ">", "<=", "==", "!=", "and", "or", "~", "in"])
    return st.one_of(
        st.tuples(inner, binary, inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda e: f"-{e}"), inner.map(lambda e: f"(not {e})"),
        st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
        st.tuples(inner, st.sampled_from(["abs", "money", "min", "max", "join", "default(0)", "upper"])).map(
            lambda t: f"({t[0]} | {t[1]})"),
        st.lists(inner, min_size=1, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"))


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expr=st.recursive(_ANY_LEAF, _grow_any, max_leaves=10))
def test_every_expression_the_whitelist_accepts_compiles(expr):
    from rulings.rulebook.expressions import check_expression, check_template, compile_template
    if check_expression(expr):
        return
    compile_expression(expr)                       # as an effect or a derived value
    sentence = "Seat {{ rule }}: {{ " + expr + " }}{% if " + expr + " %} yes{% endif %}"
    assert check_template(sentence) == []
    compile_template(sentence)                     # as a sentence
