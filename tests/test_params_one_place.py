"""Parameters in one place: the book declares them all; Python holds no second set of defaults."""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest
from cash_params import CASH

from rulings.ruling import books
from rulings.betting import Params
from rulings.betting.model import PARAM_NAMES
from rulings.problems import ProblemsError
from rulings.rulebook.load import ROOT as BOOKS, build_book
from rulings.facts.situation import betting_params

ROOT = Path(__file__).resolve().parents[1]


def test_the_arithmetic_params_have_no_defaults():
    assert [f.name for f in dataclasses.fields(Params)
            if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING] == []
    with pytest.raises(TypeError):
        Params()    # type: ignore[call-arg]


def test_every_attribute_is_supplied_by_one_declared_parameter():
    book, _ = books.load(None, compile=False)
    supplied = {p.arithmetic: name for name, p in book.parameters.items() if p.arithmetic}
    assert sorted(supplied) == sorted(PARAM_NAMES)
    assert supplied["limit_reopen"] == "reopen.limit_rule"
    assert supplied["two_round_max_raises"] == "raise_cap.two_round_game_max_raises"
    assert supplied["sb_counts_as_bb"] == "pot_limit.sb_counts_as_bb"


def test_the_book_values_reach_the_arithmetic_by_setting():
    book, _ = books.load(None, compile=False)
    assert betting_params(book.param_values("cash")) == CASH    # the tests' written-out values are the book's
    tournament = betting_params(book.param_values("tournament"))
    assert (tournament.heads_up_exception, tournament.preflop_assume_full_blinds) == ("none", True)
    house, _ = books.load("tda-series", compile=False)
    over = betting_params(house.param_values("cash", {"raise_cap.max_raises": 4}))
    assert over.max_raises == 4
    # kept per set of values: asked again, the same values give the same Params, other values their own
    again = betting_params(house.param_values("cash", {"raise_cap.max_raises": 4}))
    assert again is over and betting_params(house.param_values("cash", {"raise_cap.max_raises": 5})).max_raises == 5
    assert betting_params(book.param_values("cash")).max_raises == CASH.max_raises != 4


def _python_files() -> list[Path]:
    return sorted((ROOT / "rulings").rglob("*.py")) + sorted((ROOT / "cli").rglob("*.py"))


def _defaults_in(tree: ast.AST, names: set[str]) -> list[tuple[int, str]]:
    """Where a parameter's name is given a value: a dict key, a ``.get``/``.setdefault`` with a default."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            out += [(k.lineno, k.value) for k in node.keys if isinstance(k, ast.Constant) and k.value in names]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("get", "setdefault", "pop") and len(node.args) >= 2
              and isinstance(node.args[0], ast.Constant) and node.args[0].value in names):
            out.append((node.lineno, node.args[0].value))
    return out


def test_grep_finds_no_python_default_for_a_book_parameter():
    """A parameter's name may appear in Python to read its value (``values["kill.size"]``), never with one."""
    book, _ = books.load(None, compile=False)
    names = set(book.parameters)
    found = [f"{path.relative_to(ROOT)}:{line}: {name}" for path in _python_files()
             for line, name in _defaults_in(ast.parse(path.read_text(encoding="utf-8")), names)]
    assert found == []
    # the check can fail: the name map this replaced, and a read with a fallback
    old = 'mapping = {"reopen.limit_rule": "limit_reopen"}\nsize = params.get("kill.size", "full")'
    assert _defaults_in(ast.parse(old), names) == [(1, "reopen.limit_rule"), (2, "kill.size")]


def test_two_parameters_supplying_one_attribute_are_refused(tmp_path):
    extra = tmp_path / "extra.yaml"
    extra.write_text("topic: extra\ntitle: Extra\nparameters:\n  extra.cap:\n    type: count\n"
                     "    description: A second cap.\n    default: 3\n    arithmetic: max_raises\n"
                     "    cites: [RRP-BR-3]\nrules: []\n", encoding="utf-8")
    with pytest.raises(ProblemsError) as exc:
        build_book("standard", "Standard", sorted((BOOKS / "standard").glob("*.yaml")) + [extra])
    [problem] = [p for p in exc.value.problems if p.code == "R111"]
    assert "max_raises is already supplied by raise_cap.max_raises" in problem.message


def test_the_test_books_arithmetic_declarations_are_the_standard_books():
    book, _ = books.load(None, compile=False)
    test_topic = build_book("t", "t", [ROOT / "tests" / "data" / "arithmetic.yaml"])
    def declared(params: dict) -> dict:
        return {n: dataclasses.replace(p, origin=None, description="") for n, p in params.items() if p.arithmetic}
    assert declared(test_topic.parameters) == declared(book.parameters) != {}


def test_a_book_that_declares_none_of_them_is_refused_by_name(tmp_path):
    from rulings.incident import incident_from_data
    from rulings.facts.situation import build
    topic = tmp_path / "t.yaml"
    topic.write_text("topic: t\ntitle: t\nrules: []\n", encoding="utf-8")
    book = build_book("t", "t", [topic])
    inc = incident_from_data({"game": {"structure": "no-limit", "blinds": [1, 2]}, "button": 2,
                              "players": {1: 100, 2: 100}, "street": "flop", "pot": 4, "disputed": {"seat": 1}})
    with pytest.raises(ProblemsError) as exc:
        build(inc, book.param_values("cash"))
    [problem] = exc.value.problems
    assert problem.code == "R111" and "sb_counts_as_bb, preflop_assume_full_blinds" in problem.message


SHORT_BB = """\
game: {variant: holdem, structure: no-limit, setting: tournament, blinds: [1000, 2000], big_blind_ante: 2000}
button: 6
players: {1: 50000, 2: 3000, 3: 50000, 4: 50000, 5: 50000, 6: 50000}
street: preflop
disputed: {seat: 2}
"""


def _split(text: str) -> tuple[int, int]:
    """The short big blind's blind and ante as posted (in hundredths), read and ruled under the standard book."""
    from rulings.facts.situation import build
    from rulings.incident import incident_from_text
    from rulings.ruling.decide import incident_params
    incident = incident_from_text(text, "hand.yaml")
    book = books.load(None, compile=False)[0]
    f = build(incident, book.param_values(incident.hand.game.setting, incident_params(book, incident))).facts
    return f["bba_blind_posted"], f["bba_ante_posted"]


def test_a_setting_written_under_another_name_rooms_use_is_the_books_own(tmp_path):
    """TDA 2024 RP-11: 3,000 chips for a 2,000 blind and a 2,000 ante. Big blind first (the default): 2,000 blind,
    1,000 ante; ante first: 2,000 ante, 1,000 blind - whether the room writes ante.bba_short_order or bba.priority."""
    book, _ = books.load(None, compile=False)
    assert book.parameter("bba.priority") is book.parameters["ante.bba_short_order"]
    assert book.parameter("bba.nothing") is None
    assert _split(SHORT_BB) == (200000, 100000)
    assert _split(SHORT_BB + "params: {bba.priority: ante_first}\n") == (100000, 200000)
    assert _split(SHORT_BB + "params: {ante.bba_short_order: ante_first}\n") == (100000, 200000)
    with pytest.raises(ProblemsError) as twice:   # both names at once: one setting given twice
        _split(SHORT_BB + "params: {bba.priority: ante_first, ante.bba_short_order: big_blind_first}\n")
    assert any("a second time" in p.message for p in twice.value.problems)
    from rulings.rulebook.house import load_house
    from rulings.rulebook.load import standard_book
    house = tmp_path / "trial.yaml"
    house.write_text("rulebook: trial\nextends: standard\ntitle: Trial room\nparameters: {bba.priority: ante_first}\n")
    assert load_house(house, standard_book()).settings == {"ante.bba_short_order": "ante_first"}


def test_another_name_must_name_one_setting(tmp_path):
    """An also_named: that is another parameter's name (or already another's other name) is refused (R108)."""
    topic = BOOKS / "standard" / "antes.yaml"
    text = topic.read_text().replace("also_named: [bba.priority]", "also_named: [kill.size]")
    if text == topic.read_text():
        pytest.skip("antes.yaml no longer names bba.priority")
    folder = tmp_path / "book"
    folder.mkdir()
    for f in (BOOKS / "standard").glob("*.yaml"):
        (folder / f.name).write_text(text if f.name == "antes.yaml" else f.read_text())
    with pytest.raises(ProblemsError) as bad:
        build_book("t", "trial", sorted(folder.glob("*.yaml")))
    assert any(p.code == "R108" and "kill.size" in p.message for p in bad.value.problems)
