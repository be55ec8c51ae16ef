"""A ruling is quoted by a source written for the incident's game (issue 43, class 1).

Every key of rulings/citations.yaml says where its source speaks (``applies:``): the structures and the
games (variants) it is written for, the settings it is written for, and the settings where rooms adopt it
beside their own source. From that:

- each ruling lists its own citations with those written for the game and setting first, then those its
  setting adopts, then the rest (each group in the rule's order); the first is the one it is quoted by;
- lint refuses (R116) a rule whose sources speak for none of some structure or game its conditions admit;
- every example of every book (standard and houses) is quoted first by a source that fits its game;
- a house book's own keys are quoted with what the book says of them (class 7).
"""
from __future__ import annotations

import textwrap

import pytest
import yaml

from examples_ruled import examples_ruled
from rulings.incident import incident_from_data
from rulings.report.render import report_json, report_text
from rulings.rulebook.catalogue import HERE, by_fit, citations, facts, fit
from rulings.ruling import books
from rulings.ruling.decide import rule_on

BOOKS = (None, "east-coast-limit", "pnw-lowball", "tda-series")


def test_every_key_says_where_it_applies():
    raw = yaml.safe_load((HERE / "citations.yaml").read_text(encoding="utf-8"))
    allowed = {"structures": set(facts()["structure"].values), "games": set(facts()["variant"].values),
               "settings": set(facts()["setting"].values), "also_in": set(facts()["setting"].values)}
    for key, c in raw.items():
        applies = c.get("applies")
        assert isinstance(applies, dict), f"{key} has no applies: (write where its source speaks)"
        assert set(applies) <= set(allowed) and {"structures", "games", "settings"} <= set(applies), key
        for name, values in applies.items():
            if values == "all" and name != "also_in":
                continue
            assert isinstance(values, list) and values and set(values) <= allowed[name], (key, name, values)
        assert not set(applies.get("also_in", ())) & set(applies["settings"]), key


def test_how_a_source_fits_a_game():
    # Robert's Rules' no-limit rules are not written for a limit game, whatever the setting
    assert fit("RRP-NL-5", "fixed-limit", "stud", "cash") == 2
    assert fit("RRP-NL-5", "no-limit", "holdem", "cash") == 0
    # the card-room rules are written for cash games and adopted in tournaments beside the TDA
    assert fit("RRP-NL-5", "no-limit", "holdem", "tournament") == 1
    # the TDA the other way round; its limit rule speaks for limit only
    assert fit("TDA-2024-47B", "fixed-limit", "holdem", "tournament") == 0
    assert fit("TDA-2024-47B", "fixed-limit", "holdem", "cash") == 1
    assert fit("TDA-2024-47B", "no-limit", "holdem", "tournament") == 2
    # a tournament-only rule is not adopted in cash games
    assert fit("TDA-2024-32", "no-limit", "holdem", "cash") == 2
    # stud's bring-in text is for stud games only
    assert fit("WIKI-BRINGIN-1", "fixed-limit", "razz", "cash") == 0
    assert fit("WIKI-BRINGIN-1", "fixed-limit", "holdem", "cash") == 2
    # a room's own key speaks for every game of the room
    assert fit("HOUSE-X-1", "fixed-limit", "stud", "tournament") == 0
    # the order a ruling cites them in: fitting first, each group in the rule's order
    keys = ["TDA-2024-47A", "RRP-NL-5", "RRP-NL-3", "TDA-2024-47B", "RRP-BR-6"]
    assert by_fit(keys, "fixed-limit", "holdem", "cash") == ["RRP-BR-6", "TDA-2024-47B", "TDA-2024-47A",
                                                             "RRP-NL-5", "RRP-NL-3"]
    assert by_fit(keys, "no-limit", "holdem", "tournament")[:2] == ["TDA-2024-47A", "RRP-NL-5"]
    assert by_fit(keys, "no-limit", "holdem", "cash")[:2] == ["RRP-NL-5", "RRP-NL-3"]


def _reopened(structure: str, setting: str) -> dict:
    """Seat 1 bets, seat 2 calls, seat 3 raises a full raise: the action is back on seat 1."""
    big = structure == "fixed-limit"
    game = {"variant": "holdem", "structure": structure, "setting": setting, "blinds": [10, 20]}
    if big:
        game["bet_sizes"] = [20, 40]
    return {"game": game, "button": 3, "players": {1: 2000, 2: 2000, 3: 2000}, "street": "flop", "pot": 60,
            "actions": [{"seat": 1, "action": "bet", "to": 20}, {"seat": 2, "action": "call"},
                        {"seat": 3, "action": "raise", "to": 40 if big else 60}],
            "disputed": {"seat": 1}}


@pytest.mark.parametrize("structure,setting,first,quoted", [
    ("fixed-limit", "cash", "RRP-BR-6", "§3 Betting & Raising rule 6"),
    ("fixed-limit", "tournament", "TDA-2024-47B", "rule 47-B"),
    ("no-limit", "cash", "RRP-NL-5", "§14 NL rule 5"),
    ("no-limit", "tournament", "TDA-2024-47A", "rule 47-A"),
])
def test_the_same_rule_is_quoted_by_the_source_for_the_game(structure, setting, first, quoted):
    book, engine = books.load()
    report = rule_on(incident_from_data(_reopened(structure, setting), book=book), book, engine)
    ruling = report_json(report)["rulings"][0]
    assert ruling["rule"] == "options.reopened-by-full-raise"
    assert ruling["citations"][0]["key"] == first
    line = next(x for x in report_text(report).splitlines() if x.strip().startswith("rule:"))
    assert quoted in line
    # a source written for another structure is never quoted beside it
    if structure == "fixed-limit":
        assert "NL rule" not in line and "47-A" not in line


def _examples(house):
    book, engine = books.load(house)
    for rule in book.rules.values():
        for i, ex in enumerate(rule.examples):
            yield book, engine, rule, i, ex


@pytest.mark.parametrize("house", BOOKS)
def test_every_example_is_quoted_first_by_a_source_for_its_game(house):
    """Every ruling of every example of the book: its first citation fits the incident's structure, game and
    setting (written for it, or adopted there), and when one of its citations is written for them, the first
    is."""
    wrong = []
    ruled = 0
    for r in examples_ruled(house):
        if r.refused:
            continue
        rule, i, report = r.rule, r.index, r.report
        for one in [report, *report.more_acts]:
            game = one.facts.get("structure"), one.facts.get("variant"), one.facts.get("setting")
            for r in one.rulings:
                ruled += 1
                fits = [fit(k, *game) for k in r.cites]
                if fits and (fits[0] == 2 or fits[0] > min(fits)):
                    wrong.append(f"{rule.id}:{i} -> {r.rule} cites {r.cites} for {game}")
    assert ruled > 500
    assert not wrong, "\n".join(wrong[:20])


def _lint_house(tmp_path, rule_yaml: str, citations_yaml: str = "") -> list:
    text = textwrap.dedent("""\
        rulebook: fit-check
        extends: standard
        title: A room that checks its sources
        """) + citations_yaml + "rules:\n" + textwrap.indent(textwrap.dedent(rule_yaml), "  ")
    path = tmp_path / "fit-check.yaml"
    path.write_text(text, encoding="utf-8")
    return [p for p in books.lint([str(path)]) if p.code == "R116"]


RULE = """\
- id: fit-check.reopened
  exception_to: options.reopened-by-full-raise
  title: A room's own wording of the reopening rule
  cites: [{cites}]
  text: A full raise since he acted reopens the betting for him.
  when:
{when}
  then:
    ruling: options-reopened
    decides: seat-options
    effects: {{to_call: to_call, min_raise_to: min_raise_to}}
    say: "He may {{{{ options }}}}."
  examples:
    - name: no-limit, a full raise since he acted
      incident: {{game: {{structure: no-limit, blinds: [10, 20]}}, button: 3, players: {{1: 2000, 2: 2000, 3: 2000}},
                 street: flop, pot: 60, actions: [{{seat: 1, action: bet, to: 20}}, {{seat: 2, action: call}},
                 {{seat: 3, action: raise, to: 60}}], disputed: {{seat: 1}}}}
      expect: {{ruling: options-reopened}}
    - name: nobody raised
      incident: {{game: {{structure: no-limit, blinds: [10, 20]}}, button: 3, players: {{1: 2000, 2: 2000, 3: 2000}},
                 street: flop, pot: 60, actions: [{{seat: 1, action: bet, to: 20}}, {{seat: 2, action: call}}],
                 disputed: {{seat: 3}}}}
      expect: {{fires: false}}
"""


def test_lint_refuses_a_rule_whose_sources_do_not_speak_for_a_game_it_admits(tmp_path):
    # the no-limit sources alone, for a rule that applies in limit games too
    found = _lint_house(tmp_path, RULE.format(cites="RRP-NL-5, TDA-2024-47A", when="    said: false"))
    assert len(found) == 1 and "fixed-limit" in found[0].message and "spread-limit" in found[0].message
    assert "no-limit" not in found[0].message.split("admit")[0]
    # limited to the games they speak for, it passes
    assert not _lint_house(tmp_path, RULE.format(cites="RRP-NL-5, TDA-2024-47A",
                                                 when="    structure: {in: [no-limit, pot-limit]}"))
    # or with a source for limit games beside them
    assert not _lint_house(tmp_path, RULE.format(cites="RRP-NL-5, RRP-BR-6", when="    said: false"))
    # a room's own key, described by its book, speaks for every game of the room
    assert not _lint_house(tmp_path, RULE.format(cites="RRP-NL-5, HOUSE-FIT-1", when="    said: false"),
                           'citations:\n  HOUSE-FIT-1: "Fit Club rule 1: a full raise reopens the betting"\n')


def test_lint_reads_the_games_a_derived_fact_comes_from(tmp_path):
    """``oversize`` is derived only in pot-limit (pot-limit.over-the-pot tests the structure): a rule that
    reads it speaks of pot-limit, and pot-limit sources are enough for it."""
    rule = """\
    - id: fit-check.over-pot
      exception_to: pot-limit.oversize-wager
      title: A room's own wording of the over-pot rule
      cites: [RRP-PL-1]
      text: An over-pot wager noticed at once is cut to the pot.
      when:
        noticed: before_next_action
      then:
        ruling: wager-reduced
        decides: wager
        effects: {wager_to: max_raise_to}
        change_from: put_out_to
        say: "Cut to {{ max_raise_to | money }}."
      examples:
        - name: PLO, $50 into $100, "raise to 400" noticed at once is cut to $250
          incident: {game: {variant: omaha, structure: pot-limit, blinds: [1, 2]}, button: 3,
                     players: {1: 1000, 2: 1000, 3: 1000}, street: flop, pot: 100,
                     actions: [{seat: 1, action: bet, to: 50}], disputed: {seat: 2, said: "raise to 400"},
                     noticed: before_next_action}
          expect: {ruling: wager-reduced, effects: {wager_to: 250}}
        - name: within the pot nothing is cut
          incident: {game: {variant: omaha, structure: pot-limit, blinds: [1, 2]}, button: 3,
                     players: {1: 1000, 2: 1000, 3: 1000}, street: flop, pot: 100,
                     actions: [{seat: 1, action: bet, to: 50}], disputed: {seat: 2, said: "raise to 200"},
                     noticed: before_next_action}
          expect: {fires: false}
    """
    assert not _lint_house(tmp_path, rule)
    # a limit source alone for it is refused: the rule speaks of pot-limit games
    found = _lint_house(tmp_path, rule.replace("cites: [RRP-PL-1]", "cites: [RRP-BR-ONECHIP]"))
    assert len(found) == 1 and "pot-limit" in found[0].message


def test_a_house_key_is_quoted_with_what_the_house_book_says_of_it():
    book, engine = books.load("tda-series")
    rule = book.rules["tda-series.raise-at-cap-is-call"]
    report = rule_on(incident_from_data(rule.examples[0].incident, book=book), book, engine)
    text = book.citations["HOUSE-HARBOR-14"]
    line = next(x for x in report_text(report).splitlines() if x.strip().startswith("rule:"))
    assert f"house rule HOUSE-HARBOR-14, {text}" in line
    assert "HOUSE-HARBOR-14 — House rule, " + text in report_text(report, verbose=True)
    cited = {c["key"]: c for c in report_json(report)["rulings"][0]["citations"]}
    assert cited["HOUSE-HARBOR-14"] == {"key": "HOUSE-HARBOR-14", "source": "House rule", "section": text}
    assert cited["TDA-2024-48"]["section"] == citations()["TDA-2024-48"].section
