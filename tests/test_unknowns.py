"""Unknown is not wrong: a fact the floor did not give stays unknown, is asked for only where it changes the
ruling (with the ruling under the answers that differ), and what is impossible is still refused all at once."""
from __future__ import annotations

import re

import pytest

from rulings.incident import incident_from_data, incident_from_text
from rulings.problems import ProblemsError
from rulings.ruling.decide import rule_on
from rulings.ruling.unknowns import with_pot

THREE = {"button": 3, "players": {1: 1000, 2: 1000, 3: 1000}}


def _rule(standard, data):
    book, engine = standard
    return rule_on(incident_from_data(data), book, engine)


def _pot_questions(report):
    return [q for q in report.questions if q.get("fact") == "pot"]


def test_a_single_oversized_chip_facing_a_bet_is_a_call_whatever_the_pot(standard):
    # TDA-2024-44 / RRP-BR-ONECHIP: a $25 chip facing a $6 bet calls $6; the turn's pot is not given and
    # plays no part, so it is neither refused nor asked.
    for structure, game in (("no-limit", {"blinds": [1, 3]}), ("fixed-limit", {"blinds": [1, 3], "bet_sizes": [3, 6]})):
        report = _rule(standard, {**THREE, "game": {"structure": structure, **game}, "street": "turn",
                                  "actions": [{"seat": 1, "action": "bet", "to": 6}],
                                  "disputed": {"seat": 2, "chips": [25]}})
        wager = next(r for r in report.rulings if r.decides == "wager")
        assert wager.effects["wager_to"] == 600 and wager.effects["returned"] == 1900, structure
        assert not _pot_questions(report) and report.outcome == "ruled"


def test_a_fixed_limit_raise_is_ruled_without_the_pot(standard):
    # $3-$6 on the turn: "raise" facing a $6 bet is one raise, to $12 (RRP-BR-ONECHIP's game); no pot needed.
    report = _rule(standard, {**THREE, "game": {"structure": "fixed-limit", "blinds": [1, 3], "bet_sizes": [3, 6]},
                              "street": "turn", "actions": [{"seat": 1, "action": "bet", "to": 6}],
                              "disputed": {"seat": 2, "said": "raise"}})
    wager = next(r for r in report.rulings if r.decides == "wager")
    assert wager.effects["wager_to"] == 1200 and not _pot_questions(report) and report.outcome == "ruled"


def test_pot_in_pot_limit_with_no_pot_asks_for_it_and_shows_the_maximum_under_each_answer(standard):
    # RRP-NLPL-INTRO: pot $100 and a $50 bet, the pot raise is $250 in all: the maximum is the pot before the
    # street plus $150 (the bet, the call and the bet again), up to the $1,000 stack.
    book, engine = standard
    data = {**THREE, "game": {"variant": "omaha", "structure": "pot-limit", "blinds": [1, 2]}, "street": "turn",
            "actions": [{"seat": 1, "action": "bet", "to": 50}], "disputed": {"seat": 2, "said": "pot"}}
    incident = incident_from_data(data)
    report = rule_on(incident, book, engine)
    [q] = _pot_questions(report)
    assert report.outcome == "questions" and q["question"] == "How much was in the pot when the turn began?"
    assert "pot-limit.pot-declared" in q["why"] and len(q["answers"]) >= 2
    for answer, line in zip(q["answers"], q["under_each"]):
        pot = int(answer["pot"])
        most = min(pot + 150, 1000)
        [sentence] = [r["sentence"] for r in answer["rulings"]]
        assert f"${most:,}" in sentence and line.startswith(f"if the pot before the turn was ${pot:,}:"), line
    # the pot answered: the ruling RRP gives
    given = rule_on(with_pot(incident, 10000), book, engine)
    assert next(r for r in given.rulings if r.decides == "wager").effects["wager_to"] == 25000
    assert not _pot_questions(given)
    # and the same incident with its pot written in rules alike, asking nothing about it
    written = _rule(standard, {**data, "pot": 100})
    assert [(r.rule, r.effects) for r in written.rulings] == [(r.rule, r.effects) for r in given.rulings]


def test_a_pot_limit_overbet_with_no_pot_shows_where_the_pot_decides(standard):
    # "raise to four hundred" facing $50 in pot-limit: with $200 or more in the middle $400 is within the pot
    # raise (200 + 150 = 350 ... 250 + 150 = 400); below it, it is cut to the maximum. The answers show a pot
    # on each side of the threshold the rulings turn on.
    report = _rule(standard, {**THREE, "game": {"variant": "omaha", "structure": "pot-limit", "blinds": [1, 2]},
                              "street": "turn", "actions": [{"seat": 1, "action": "bet", "to": 50}],
                              "disputed": {"seat": 2, "said": "raise to four hundred", "words_first": "words"}})
    [q] = _pot_questions(report)
    kinds = {tuple(r["rule"] for r in a["rulings"]) for a in q["answers"]}
    assert len(kinds) >= 2
    pots = [int(a["pot"]) for a in q["answers"]]
    assert any(p < 250 for p in pots) and any(p >= 250 for p in pots)
    assert any(re.search(r"\$400", line) for line in q["under_each"])


def test_a_limit_game_without_its_sizes_rules_who_brings_it_in_and_refuses_a_bet(standard):
    # RRP §3 Ties rule 1: the lowest upcard brings it in (2c of three); no limits, and no button in stud.
    data = {"game": {"variant": "stud", "structure": "fixed-limit", "ante": 1, "bring_in": 2},
            "players": {1: 100, 2: 100, 3: 100}, "upcards": {1: "Kd", 2: "2c", 3: "9h"}, "disputed": {"seat": 1}}
    report = _rule(standard, data)
    assert [r.effects.get("bring_in_seat") for r in report.rulings] == [2] and report.outcome == "ruled"
    assert "small_bet" not in report.facts and report.facts.get("min_raise_to") is None
    with pytest.raises(ProblemsError) as err:   # a bet the sizes would size: they are needed (I102)
        incident_from_data({**data, "actions": [{"seat": 2, "action": "bring-in", "to": 2},
                                                {"seat": 3, "action": "complete", "to": 5}], "disputed": {"seat": 1, "said": "raise"}})
    assert ("I102", ("game", "bet_sizes")) in [(p.code, p.path) for p in err.value.problems]


def test_what_is_impossible_is_still_refused_all_at_once():
    # a bet by a seat already all in (once ruled "all in for $0"), seat 1 keyed twice, and a card dealt twice
    text = ("game: {structure: no-limit, blinds: [1, 2]}\nbutton: 3\n"
            "players: {1: 100, 2: 40, 3: 500, \"3\": 200}\nstreet: flop\npot: 20\n"
            "actions: [{seat: 1, action: check}, {seat: 2, action: bet, to: 40}, {seat: 3, action: raise, to: 100},"
            " {seat: 1, action: fold}]\ndisputed: {seat: 2, said: raise to 200}\n")
    with pytest.raises(ProblemsError) as err:
        incident_from_text(text, "bad.yaml")
    got = [(p.code, p.path) for p in err.value.problems]
    assert got == [("I105", ("players", "3"))], got   # the seat keyed twice first: no hand is replayed on it
    with pytest.raises(ProblemsError) as err:
        incident_from_text(text.replace(', "3": 200', ""), "bad.yaml")
    [p] = err.value.problems
    assert (p.code, p.path) == ("I107", ("disputed", "said")) and "all in already" in p.message
    with pytest.raises(ProblemsError) as err:   # chips from the all-in seat too
        incident_from_text(text.replace(', "3": 200', "").replace("said: raise to 200", "chips: [25]"), "bad.yaml")
    assert [(p.code, p.path) for p in err.value.problems] == [("I107", ("disputed", "chips"))]


def test_a_procedure_no_rule_decides_asks_the_catalogues_question_not_not_covered(standard):
    # TDA-2024-29/30: a clock called by a player needs the caller at his seat; where he stood is not given.
    # Nothing is ruled as given, so the report asks it, with the ruling under each answer (25 + 5 seconds
    # in a tournament).
    data = {"game": {"structure": "no-limit", "blinds": [100, 200], "setting": "tournament"}, "button": 4,
            "players": {1: 5000, 2: 5000, 3: 5000, 4: 5000},
            "procedure": {"clock": {"seat": 4, "called_by": "player", "caller_seat": 2, "facing_bet": True}}}
    report = _rule(standard, data)
    assert report.outcome == "questions" and not report.not_covered
    q = next(q for q in report.questions if q["fact"] == "clock_caller_seated")
    assert q["question"] == "Was the player who called the clock at his seat?" and q["field"] == \
        "procedure.clock.caller_seated"
    yes, no = q["under_each"]
    assert yes.startswith("if yes:") and "25 seconds" in yes and no.startswith("if no:") and "not" in no
    # answered, it is ruled and asks nothing more about it
    answered = _rule(standard, {**data, "procedure": {"clock": {**data["procedure"]["clock"], "caller_seated": False}}})
    assert answered.rulings and not [q for q in answered.questions if q["fact"] == "clock_caller_seated"]


def test_a_wager_ruled_with_no_stack_states_its_amount_or_all_in_for_less(standard):
    # TDA-2024-57 / table stakes: "raise to 300" facing $100, stacks not given: the raise to $300 is ruled with
    # its amount, and since nothing shows he has $300, "or all in for less".
    report = _rule(standard, {"game": {"structure": "no-limit", "blinds": [1, 2]}, "button": 3,
                              "players": {1: None, 2: None, 3: None}, "street": "flop", "pot": 20,
                              "actions": [{"seat": 1, "action": "bet", "to": 100}],
                              "disputed": {"seat": 2, "said": "raise to three hundred"}})
    wager = next(r for r in report.rulings if r.decides == "wager")
    assert wager.effects["wager_to"] == 30000
    assert "$300 in all, or all in for less if he has less than $300 behind" in wager.sentence
    # with the stack given, no such words
    given = _rule(standard, {"game": {"structure": "no-limit", "blinds": [1, 2]}, "button": 3,
                             "players": {1: 1000, 2: 1000, 3: 1000}, "street": "flop", "pot": 20,
                             "actions": [{"seat": 1, "action": "bet", "to": 100}],
                             "disputed": {"seat": 2, "said": "raise to three hundred"}})
    assert "all in for less" not in next(r for r in given.rulings if r.decides == "wager").sentence


def test_released_chips_bind_with_their_amount(standard):
    # RRP-NL-7: silent chips let go of bind. Facing a $100 bet, $100 released states its amount; his last $60
    # (stack 60) is all in; with the chips not given the ruling says the chips are the wager, no made-up amount
    base = {"game": {"structure": "no-limit", "blinds": [1, 2]}, "button": 3, "street": "flop", "pot": 20,
            "actions": [{"seat": 1, "action": "bet", "to": 100}]}
    def binding(players, disputed):
        # exactly the bet, the chips are also the call they make (misdeclared-calls.exact-chips-call), which
        # the report leads with; the binding ruling says its amount all the same
        report = _rule(standard, {**base, "players": players, "disputed": disputed})
        return next(r for r in report.rulings + report.overridden
                    if r.rule == "declarations.chips-bind-when-released").sentence
    full = binding({1: 1000, 2: 1000, 3: 1000}, {"seat": 2, "chips": [100], "released": True})
    assert full == "The $100 left his hand, so the wager binds: $100 in all this round."
    short = binding({1: 1000, 2: 60, 3: 1000}, {"seat": 2, "chips": [50, 10], "released": True})
    assert short.endswith("$60 in all this round, all in.")
    unknown = binding({1: None, 2: None, 3: None}, {"seat": 2, "chips": [100], "released": True})
    assert "$100 in all this round." in unknown and "all in" not in unknown


# --- the pot question asked only where some pot could change the ruling (rulings/ruling/unknowns.py pot_may_matter)

def _may_matter(standard, incident):
    from rulings.ruling.decide import incident_params, param_values
    from rulings.facts.situation import build
    from rulings.ruling.unknowns import pot_may_matter
    book, _ = standard
    params = param_values(book, incident.hand.game.setting, incident_params(book, incident))
    report = rule_on(incident, *standard)
    return pot_may_matter(book, report.facts, report.params, build(incident, params).pot_facts)


def _json(report):
    from rulings.report.render import dumps, report_json
    return dumps(report_json(report))


def _forced(monkeypatch, standard, incident):
    """The report with the trials run whatever the skip says (the ruling before the skip was built)."""
    import rulings.ruling.unknowns as unknowns
    with monkeypatch.context() as m:
        m.setattr(unknowns, "pot_may_matter", lambda *a: True)
        return rule_on(incident, *standard)


def test_a_pot_limit_pot_the_ruling_turns_on_is_still_asked_with_the_ruling_under_each_answer(standard, monkeypatch):
    # RRP-NLPL-INTRO: "raise to four hundred" facing a $50 bet in pot-limit is within the pot raise from a $250
    # pot before the street (250 + 150 = 400), cut to the maximum below it: the pot is asked, the answers differ.
    incident = incident_from_data({**THREE, "game": {"variant": "omaha", "structure": "pot-limit", "blinds": [1, 2]},
                                   "street": "turn", "actions": [{"seat": 1, "action": "bet", "to": 50}],
                                   "disputed": {"seat": 2, "said": "raise to four hundred", "words_first": "words"}})
    assert _may_matter(standard, incident)
    report = rule_on(incident, *standard)
    [q] = _pot_questions(report)
    assert report.outcome == "questions" and len(q["under_each"]) == len(q["answers"]) >= 2
    assert any(not a["same_as_now"] for a in q["answers"])
    assert all(line.startswith("if the pot before the turn was $") for line in q["under_each"])
    assert _json(report) == _json(_forced(monkeypatch, standard, incident))


def test_a_share_of_the_pot_said_in_no_limit_is_asked(standard):
    # "half the pot" with no bet faced is half the pot before the street (said.py): the words read the pot, so
    # every fact worked out from them may change with it; the pot is asked (no-limit, where no maximum reads it).
    incident = incident_from_data({**THREE, "game": {"structure": "no-limit", "blinds": [1, 2]}, "street": "river",
                                   "disputed": {"seat": 1, "said": "bet half the pot"}})
    assert _may_matter(standard, incident)
    assert _pot_questions(rule_on(incident, *standard))


def test_no_trial_where_no_pot_can_change_the_ruling(standard, monkeypatch):
    # TDA-2024-44: a lone $25 chip facing a $6 bet on the turn calls $6, whatever was in the middle: no pot is
    # tried (the question is never looked for), and the report is the one the trials gave.
    import rulings.ruling.unknowns as unknowns
    incident = incident_from_data({**THREE, "game": {"structure": "no-limit", "blinds": [1, 3]}, "street": "turn",
                                   "actions": [{"seat": 1, "action": "bet", "to": 6}],
                                   "disputed": {"seat": 2, "chips": [25]}})
    assert incident.pot_unknown and not _may_matter(standard, incident)
    tried = []
    with monkeypatch.context() as m:
        m.setattr(unknowns, "pot_question", lambda *a: tried.append(a))
        report = rule_on(incident, *standard)
    assert tried == [] and not _pot_questions(report) and report.outcome == "ruled"
    assert _json(report) == _json(_forced(monkeypatch, standard, incident))


def _without_pot(data):
    out = {k: v for k, v in data.items() if k != "pot"}
    if isinstance(out.get("streets"), list):
        out["streets"] = [{k: v for k, v in s.items() if k != "pot"} if isinstance(s, dict) else s
                          for s in out["streets"]]
    return out


def test_the_skip_changes_no_report_and_the_pot_facts_hold_every_fact_a_pot_changes(standard, monkeypatch):
    """Every example of the standard book with its pots taken out: where no trial is run the report is the one
    the trials give, and the facts built at each pot of the scale differ from those built with the pot unknown
    only in the situation's pot facts (a fact builder that reads the pot without saying so fails here)."""
    from rulings.betting import BettingError
    from rulings.incident import ensure_checked
    from rulings.ruling.decide import incident_params, param_values
    from rulings.facts.situation import build
    from rulings.ruling.unknowns import SCALE, _unit, pot_may_matter
    book, engine = standard
    skipped = tried = 0
    for rule in book.rules.values():
        for ex in rule.examples:
            try:
                incident = incident_from_data(_without_pot(ex.incident), book=book)
            except ProblemsError:
                continue
            if not incident.pot_unknown:
                continue
            params = param_values(book, incident.hand.game.setting, incident_params(book, incident))
            unknown = build(incident, params)
            report = rule_on(incident, book, engine)
            if "*" not in unknown.pot_facts:
                prefixes = tuple(n[:-1] for n in unknown.pot_facts if n.endswith("*"))
                before = {k: v for k, v in unknown.facts.items() if v is not None}
                for k in SCALE:
                    one = with_pot(incident, k * _unit(incident))
                    try:
                        ensure_checked(one, params)
                        facts = {n: v for n, v in build(one, params).facts.items() if v is not None}
                    except (ProblemsError, BettingError):
                        continue
                    changed = {n for n in facts.keys() | before.keys() if facts.get(n) != before.get(n)}
                    assert {n for n in changed - unknown.pot_facts if not n.startswith(prefixes)} == set(), \
                        (rule.id, ex.name, k)
            if pot_may_matter(book, report.facts, report.params, unknown.pot_facts):
                tried += 1
                continue
            skipped += 1
            assert _json(report) == _json(_forced(monkeypatch, standard, incident)), (rule.id, ex.name)
    assert skipped > 100 and tried > 10   # both paths taken: the pot-limit maximum's examples are tried


def _procedure_cases(book):
    """Every standard example and example incident with a procedure section, read (the refused left out)."""
    import json
    from pathlib import Path

    import yaml
    datas = [ex.incident for rule in book.rules.values() for ex in rule.examples]
    for path in sorted((Path(__file__).resolve().parents[1] / "examples" / "incidents").iterdir()):
        text = path.read_text(encoding="utf-8")
        datas.append(json.loads(text) if path.suffix == ".json" else yaml.safe_load(text))
    for data in datas:
        if isinstance(data, dict) and isinstance(data.get("procedure"), dict):
            try:
                yield incident_from_data(data, book=book)
            except ProblemsError:
                continue


def test_a_procedure_answer_is_ruled_on_only_where_it_could_bring_a_ruling_and_no_report_changes(standard, monkeypatch):
    """Every procedure example of the standard book and every example incident with a procedure: the report is
    the one every answer ruled in full gives, and each answer ruled out brings no ruling when ruled on in full;
    both paths are taken (the clock caller's seat of TDA-2024-29/30 is still ruled under each answer)."""
    import rulings.ruling.decide as ruling
    import rulings.ruling.unknowns as unknowns
    book, engine = standard
    said: list[tuple] = []
    inner = ruling._may_rule

    def recorded(one, b, before):
        got = inner(one, b, before)
        said.append((one, got))
        return got
    asked = skipped = ruled_on = 0
    for incident in _procedure_cases(book):
        said.clear()
        with monkeypatch.context() as m:
            m.setattr(ruling, "_may_rule", recorded)
            report = rule_on(incident, book, engine)
        if not said:
            continue
        if "deal" not in incident.procedure.raw:   # the deal's board and card answers mostly rule: not counted
            asked += 1
            skipped += sum(1 for _, may in said if not may)
            ruled_on += sum(1 for _, may in said if may)
        with monkeypatch.context() as m:
            m.setattr(ruling, "_may_rule", lambda *a: True)
            assert _json(report) == _json(rule_on(incident, book, engine)), incident.name
        for one, may in said:
            if not may:
                try:
                    got = unknowns._trial(lambda i: rule_on(i, book, engine), one)
                except ProblemsError:
                    continue
                assert not got.rulings, incident.name
    # at least five answers proven idle for each one ruled in full (245 and 49 once the tournament sections'
    # new rules ask more questions that can rule, issue #47)
    assert asked >= 5 and skipped >= 5 * ruled_on > 0, (asked, skipped, ruled_on)
    tried = []
    with monkeypatch.context() as m:
        m.setattr(ruling, "_may_rule", lambda *a: tried.append(a) or inner(*a))
        report = _rule(standard, {"game": {"structure": "no-limit", "blinds": [100, 200], "setting": "tournament"},
                                  "button": 4, "players": {1: 5000, 2: 5000, 3: 5000, 4: 5000},
                                  "procedure": {"clock": {"seat": 4, "called_by": "player", "caller_seat": 2,
                                                          "facing_bet": True}}})
    q = next(q for q in report.questions if q["fact"] == "clock_caller_seated")
    assert len(q["under_each"]) == 2 and tried


def test_an_answer_changing_only_facts_no_ruling_rule_can_fire_on_is_ruled_out(standard):
    """``answer_may_rule`` on facts that differ from the report's in one fact: False where every rule reading
    it is surely false; True as soon as the facts give a rule's conditions (the report's own facts with the
    answer that decides it) or a rule that fired before gives a ruling."""
    from rulings.ruling.decide import _prepared
    from rulings.ruling.unknowns import answer_may_rule
    book, engine = standard
    base = {"game": {"structure": "no-limit", "blinds": [100, 200], "setting": "tournament"}, "button": 4,
            "players": {1: 5000, 2: 5000, 3: 5000, 4: 5000},
            "procedure": {"clock": {"seat": 4, "called_by": "player", "caller_seat": 2, "facing_bet": True}}}
    report = _rule(standard, base)
    assert not report.rulings
    for seated in (True, False):
        answered = incident_from_data({**base, "procedure": {"clock": {**base["procedure"]["clock"],
                                                                       "caller_seated": seated}}})
        _, params, situation = _prepared(answered, book)
        assert answer_may_rule(book, report, situation.facts, params)   # both answers bring a ruling
    # the same facts as the report's: nothing changes, nothing can fire that did not
    assert not answer_may_rule(book, report, dict(report.facts), report.params)
    # a ruling in force before: always tried
    ruled = rule_on(incident_from_data({**base, "procedure": {"clock": {**base["procedure"]["clock"],
                                                                        "caller_seated": True}}}), book, engine)
    assert ruled.rulings and answer_may_rule(book, ruled, dict(ruled.facts), ruled.params)


def test_an_answer_built_from_the_incident_as_read_has_the_facts_of_its_text_read_in_full(standard):
    """For every procedure example and every yes/no or choice field its section leaves out: the incident built
    from the one read with only that answer set (``answered``) has the same facts, parameters and procedure
    as the answer's text read in full, wherever that text is not refused (a fact builder reading the
    section's text some other way fails here); and no answer is left untried."""
    from rulings.betting import BettingError
    from rulings.rulebook.catalogue import facts
    from rulings.incident import read_incident
    from rulings.ruling.decide import _prepared
    from rulings.ruling.unknowns import answered
    from rulings.yamlsrc import Located
    book, _ = standard
    compared = 0
    for incident in _procedure_cases(book):
        doc = incident.source
        proc = doc.data["procedure"]
        for name, fact in facts().items():
            parts = (fact.source or "").split(".")
            if fact.kind != "input" or len(parts) != 3 or parts[0] != "procedure" or fact.type not in ("bool", "enum"):
                continue
            section = proc.get(parts[1])
            if not isinstance(section, dict) or parts[2] in section:
                continue
            for value in ((True, False) if fact.type == "bool" else fact.values):
                quick = answered(incident, parts[1], parts[2], value)
                tried = {**doc.data, "procedure": {**proc, parts[1]: {**section, parts[2]: value}}}
                try:
                    full = _prepared(read_incident(Located(doc.file, tried, doc.marks), book), book)
                except (ProblemsError, BettingError):
                    continue
                if incident.acts or (incident.procedure.raw.get("showdown") or {}).get("requests") is not None:
                    assert quick is None
                    continue
                assert quick is not None, (incident.name, name, value)
                mine = _prepared(quick, book)
                assert mine[1] == full[1], (incident.name, name, value)
                assert {k: repr(v) for k, v in mine[2].facts.items() if v is not None} == \
                    {k: repr(v) for k, v in full[2].facts.items() if v is not None}, (incident.name, name, value)
                compared += 1
    assert compared > 100
