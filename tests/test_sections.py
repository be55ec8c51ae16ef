"""A section of an incident's `procedure:` part is declared once (`sections:` in rulings/facts/*.yaml): the
reader's fields, kinds and refusals, the facts the rules read and the catalogue's entries all come from that
one declaration, so a new section is one place to add (issue #44)."""
from __future__ import annotations

import pytest

from rulings.facts.procedure import procedure_facts
from rulings.incident import incident_from_data
from rulings.incident import procedure as reader
from rulings.problems import ProblemsError
from rulings.rulebook import catalogue

WIDGET = {"fields": {
    "seat": {"kind": "hand_seat", "fact": "widget_seat", "description": "The seat.", "question": "Which seat?"},
    "colour": {"kind": "choice", "values": ["red", "blue"], "fact": "widget_colour", "absent": "red",
               "description": "The colour.", "question": "Which colour?"},
    "note": {"kind": "count", "fact": None, "description": "Read, no fact.", "question": "How many?"}},
    "needs": ("seat",), "repeats": {}, "stands_alone": False}


@pytest.fixture
def widget(monkeypatch):
    """The catalogue with one more section declared, and nothing else changed."""
    real = catalogue.sections()
    monkeypatch.setattr(catalogue, "sections", lambda: {**real, "widget": WIDGET})
    catalogue.facts.cache_clear()
    yield
    monkeypatch.undo()
    catalogue.facts.cache_clear()


def data(widget: dict) -> dict:
    return {"game": {"structure": "no-limit", "blinds": [1, 2]}, "button": 1, "players": {1: 100, 2: 100, 3: 100},
            "procedure": {"widget": widget}}


def problems(d: dict) -> list[tuple[str, str]]:
    with pytest.raises(ProblemsError) as err:
        incident_from_data(d)
    return sorted((p.code, ".".join(map(str, p.path))) for p in err.value.problems)


def test_a_new_section_is_one_declaration(widget):
    # the catalogue: its input facts, with the field they come from, their type and values
    facts = catalogue.facts()
    assert facts["widget_colour"].source == "procedure.widget.colour"
    assert facts["widget_colour"].type == "enum" and facts["widget_colour"].values == ("red", "blue")
    assert facts["widget_seat"].type == "seat" and facts["widget_seat"].question == "Which seat?"
    assert "note" not in {f.source.split(".")[-1] for f in facts.values() if f.source}
    # the reader: its fields and kinds, every refusal at once
    assert reader.spec()["widget"]["colour"] == (("red", "blue"), "widget_colour")
    assert problems(data({"colour": "green", "size": 3, "seat": 7})) == [
        ("I101", "procedure.widget.size"), ("I104", "procedure.widget.colour"), ("I105", "procedure.widget.seat")]
    assert problems(data({"colour": "blue"})) == [("I102", "procedure.widget")]     # it needs its seat
    # the facts: as given, and what a field left out stands for
    inc = incident_from_data(data({"seat": 2, "note": 4}))
    got = procedure_facts(inc, {})
    assert got["widget_seat"] == 2 and got["widget_colour"] == "red"
    assert inc.procedure.raw["widget"] == {"seat": 2, "note": 4}


def test_without_the_declaration_the_section_is_unknown():
    assert problems(data({"seat": 2})) == [("I101", "procedure.widget")]
    assert "widget_seat" not in catalogue.facts()


def test_every_procedure_input_fact_comes_from_a_declaration():
    """No input fact of the procedure is written beside the declarations: each one names its section's field."""
    declared = {(name, key) for name, decl in catalogue.sections().items() for key in decl["fields"]}
    for fact in catalogue.facts().values():
        if fact.kind == "input" and (fact.source or "").startswith("procedure."):
            _, name, key = fact.source.split(".")
            assert (name, key) in declared, fact.name
            assert catalogue.sections()[name]["fields"][key]["fact"] == fact.name
