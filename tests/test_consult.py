"""Consultation: from a partial incident, only questions whose answers change the ruling, ending where the full incident ends."""
from __future__ import annotations

import copy

import pytest

from rulings.rulebook.catalogue import facts
from rulings.ruling.consult import Consultation, allowed, apply_answers
from rulings.incident import incident_from_data
from rulings.problems import ProblemsError
from rulings.ruling.decide import rule_on

# RRP-PL-1/2: a declared raise to $400 facing a $50 bet into a $100 pot; the most he may raise to is $250.
COMPLETE = {
    "incident": "pl-oversize-raise-late",
    "game": {"variant": "omaha", "structure": "pot-limit", "setting": "cash", "blinds": [1, 2]},
    "button": 3, "players": {1: 1000, 2: 1000, 3: 1000}, "street": "turn", "pot": 100,
    "actions": [{"seat": 1, "action": "bet", "to": 50}],
    "disputed": {"seat": 2, "said": "raise to four hundred", "words_first": "words"},
    "noticed": "after_all_acted", "pointed_out_by": "dealer",
}


def _partial():
    data = copy.deepcopy(COMPLETE)
    del data["noticed"], data["pointed_out_by"], data["disputed"]["words_first"]
    return data


def _rulings(report):
    return sorted((r.rule, r.ruling, tuple(sorted((k, str(v)) for k, v in r.effects.items()))) for r in report.rulings)


def test_consultation_asks_what_matters_and_ends_with_the_complete_ruling(standard):
    book, engine = standard
    c = Consultation(book, engine)
    full = rule_on(incident_from_data(COMPLETE), book, engine)
    assert full.final("wager-stands") is not None          # everyone acted on it: the $400 stands
    data, answers, skipped, asked = _partial(), {}, [], []
    first = c.step(data)
    # before the answer the $400 raise is cut to $250 (the rule assumes it was caught in time)
    cut = first.report.final("wager-reduced")
    assert cut is not None and cut.effects["wager_to"] == 25000 and cut.effects["returned"] == 0  # words only: nothing to give back
    assert first.questions[0]["fact"] == "noticed"          # the rule's own question comes first
    assert first.questions[0]["asked_by"] == "pot-limit.oversize-wager"
    assert [v["value"] for v in first.questions[0]["values"]] == list(facts()["noticed"].values)
    for _ in range(20):
        step = c.step(data, answers, tuple(skipped))
        if not step.questions:
            break
        q = step.questions[0]
        asked.append(q["fact"])
        # each question asked could change the ruling: some allowed answer rules differently from now
        now = _rulings(step.report)
        outcomes = []
        for value in allowed(facts()[q["fact"]]):
            probe = apply_answers(data, {**answers, q["fact"]: value})
            outcomes.append(_rulings(rule_on(incident_from_data(probe), book, engine)))
        assert any(o != now for o in outcomes), q["fact"]
        path = q["field"].split(".")
        known = COMPLETE.get(path[0]) if len(path) == 1 else COMPLETE.get(path[0], {}).get(path[1])
        if known is None:
            skipped.append(q["fact"])      # the floorperson does not know: it stays out, as in the full incident
        else:
            answers[q["fact"]] = known
    assert asked[0] == "noticed" and "noticed" in answers
    # the ruling on the dispute's own matter (the wager) is the complete incident's; who pointed it out only
    # brings in a ruling on another matter (the objection is valid), so it is "also worth asking", not asked
    def wager(report):
        return [r for r in _rulings(report) if report.final(r[1]).decides == "wager"]
    assert wager(step.report) == wager(full) and wager(full)
    assert asked == ["noticed"] and "pointed_out_by" in [a["fact"] for a in step.also]
    assert step.outcome == "ruled"
    # words_first was left out and never asked: no answer to it changes this ruling
    assert "words_first" not in asked


def test_a_question_no_answer_changes_is_never_asked(standard):
    book, engine = standard
    step = Consultation(book, engine).step(_partial())
    asked = {q["fact"] for q in step.questions}
    assert "words_first" not in asked
    base = _rulings(step.report)
    for name in ("words_first", "deliberated", "bettor_showed"):
        for value in allowed(facts()[name]):
            probe = apply_answers(_partial(), {name: value})
            assert _rulings(rule_on(incident_from_data(probe), book, engine)) == base


def test_answer_re_rules_at_once(standard):
    book, engine = standard
    c = Consultation(book, engine)
    early = c.step(_partial(), {"noticed": "before_next_action"})
    late = c.step(_partial(), {"noticed": "after_next_card"})
    assert early.report.final("wager-reduced").effects["wager_to"] == 25000
    assert late.report.final("wager-stands") is not None
    assert "noticed" not in {q["fact"] for q in late.questions}
    assert late.data["noticed"] == "after_next_card"


def test_answers_not_allowed_are_refused_all_at_once(standard):
    book, engine = standard
    with pytest.raises(ProblemsError) as exc:
        Consultation(book, engine).step(_partial(), {"noticed": "yesterday", "released": "maybe", "pot": 5})
    codes = {(p.code, p.path[1]) for p in exc.value.problems}
    assert codes == {("C101", "noticed"), ("C101", "released"), ("C101", "pot")}


def test_outcomes_questions_then_not_covered(standard):
    book, engine = standard
    # a no-limit flop with no disputed act: nothing to rule on unless a pot count was asked for
    data = {"game": {"structure": "no-limit", "blinds": [1, 2]}, "button": 3, "players": {1: 1000, 2: 1000, 3: 1000},
            "street": "flop", "pot": 100, "actions": [{"seat": 1, "action": "bet", "to": 50}]}
    c = Consultation(book, engine)
    first = c.step(data)
    assert first.outcome == "questions" and not first.report.rulings
    assert [q["fact"] for q in first.questions] == ["count_requested"]
    last = c.step(data, {"count_requested": False})
    assert last.outcome == "not_covered" and last.questions == [] and last.report.outcome == "not_covered"
    ruled = c.step(data, {"count_requested": True})
    assert ruled.outcome == "ruled" and ruled.report.rulings[0].rule == "pot-limit.no-count-outside-pot-limit"


def test_ask_command_answers_and_saves(tmp_path, monkeypatch):
    import io
    import yaml
    from rulings.commands.ask import run
    src = tmp_path / "partial.yaml"
    src.write_text(yaml.safe_dump(_partial()), encoding="utf-8")
    answers = iter(["3", "q"])     # noticed: after every player acted
    out = io.StringIO()
    saved = tmp_path / "done.yaml"
    assert run(str(src), None, str(saved), read=lambda _: next(answers), out=out) == 0
    text = out.getvalue()
    assert "$250" in text and "wager stands" in text.lower()
    done = yaml.safe_load(saved.read_text())
    assert done["noticed"] == "after_all_acted"


def test_ask_from_nothing_types_the_essentials(tmp_path):
    import io
    import yaml
    from rulings.commands.ask import run
    typed = iter(["pl 1/2", "1:1000 2:640 3:815", "3", "flop", "80", "",
                  "1", "", "500",            # seat 1 silently puts out a $500 chip (RRP-PL-6)
                  "maybe", "s", "q"])         # not an answer; skip the first question; finish
    out = io.StringIO()
    saved = tmp_path / "typed.yaml"
    assert run(None, None, str(saved), read=lambda _: next(typed), out=out) == 0
    text = out.getvalue()
    assert "'maybe' is not one of the answers" in text
    assert "The silent $500 chip is a pot-size bet of $80; $420 goes back to the player." in text
    data = yaml.safe_load(saved.read_text())
    assert data["disputed"] == {"seat": 1, "chips": [500]} and data["pot"] == 80


def test_ask_from_nothing_when_the_typing_stops_is_a_plain_refusal(capsys):
    # Ctrl-D (or a pipe that runs dry) at the third prompt used to end in "internal error (EOFError) ...
    # this is a bug in rulings", exit 70.
    import io
    from rulings.commands.ask import run
    typed = iter(["pot-limit", "holdem"])

    def read(_prompt: str) -> str:
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None
    assert run(None, None, None, read=read, out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "the input ended before the incident was typed; nothing was ruled" in err
    assert "internal error" not in err


def test_an_oversize_pot_limit_raise_asks_only_what_changes_its_own_ruling(standard):
    """Issue #15: "A question that cannot change any ruling is never asked". A declared raise to $400 facing $50
    into $100 (RRP-PL-1: cut to $250) used to be asked about insurance, a conditional statement, a pot count
    and hidden chips, whose answers only add rulings on other matters; only when it was caught can change it."""
    book, engine = standard
    data = {k: v for k, v in COMPLETE.items() if k != "noticed"}
    step = Consultation(book, engine).step(data)
    assert [q["fact"] for q in step.questions] == ["noticed"]
    cut = step.report.final("wager-reduced")
    assert cut is not None and cut.effects["wager_to"] == 25000


def test_ask_piping_1_for_the_oversize_raise_answers_when_it_was_caught(tmp_path):
    import io
    from rulings.commands.ask import run
    src = tmp_path / "pl.yaml"
    import yaml
    src.write_text(yaml.safe_dump({k: v for k, v in COMPLETE.items() if k != "noticed"}), encoding="utf-8")
    answers = iter(["1", "q"])
    out = io.StringIO()
    assert run(str(src), None, None, read=lambda _: next(answers), out=out) == 0
    text = out.getvalue()
    assert "insurance" not in text and "side-deal" not in text and "Did anyone ask for a count" not in text
    assert "The wager is cut to the pot-limit maximum of $250" in text
    assert "0. none of these" in text     # the when-was-it-caught answers may all be wrong: leave it out


def test_typed_mode_asks_again_for_a_blank_or_misspelt_essential(tmp_path):
    """A first-time floorperson pressed Enter at Game, then typed "no limt 1/2": both are asked again (no
    'game: expected a mapping of fields' at <typed>:1:1)."""
    import io
    from rulings.commands.ask import run
    typed = iter(["", "no limt 1/2", "pl 1/2", "1:1000 2:640 3:815", "", "3", "flop", "80", "", "1", "", "500",
                  "q"])
    out = io.StringIO()
    assert run(None, None, None, read=lambda _: next(typed), out=out) == 0
    text = out.getvalue()
    assert "game is needed: there is no default" in text
    assert "'no limt 1/2' will not do for game: 'no' in 'no limt 1/2' is not a structure" in text
    assert "did you mean 'no limit'?" in text
    assert "button is needed" in text
    assert "The silent $500 chip is a pot-size bet of $80" in text


def test_typed_mode_stops_after_five_wrong_answers_instead_of_looping(capsys):
    import io
    from rulings.commands.ask import run
    assert run(None, None, None, read=lambda _: "limitless", out=io.StringIO()) == 2
    assert "no usable answer for game after 5 tries" in capsys.readouterr().err


def test_each_question_kept_has_an_answer_that_changes_the_ruling_on_the_disputes_matter(standard):
    """The podium's pot-limit raise (RRP-PL-1: "raise to four hundred" over a $50 bet into a $100 pot, cut to
    the $250 maximum): every question asked has an answer that changes the wager ruling or a number of WHAT
    HAPPENS NOW; the ones that only bring in a ruling on another matter are "also worth asking"."""
    import re

    from rulings.ruling.decide import group_of
    book, engine = standard
    c = Consultation(book, engine)
    data = _partial()
    step = c.step(data)
    lead = group_of(step.report.rulings[0].decides)
    assert lead == "wager" and step.questions

    def on_matter(report):
        return ([(r.rule, r.ruling, sorted(r.effects.items())) for r in report.rulings if group_of(r.decides) == lead],
                re.findall(r"\d[\d,]*", " ".join(report.now)))
    now = on_matter(step.report)
    for q in step.questions:
        changed = []
        for value in allowed(facts()[q["fact"]]):
            probe = apply_answers(data, {q["fact"]: value})
            changed.append(on_matter(rule_on(incident_from_data(probe), book, engine)) != now)
        assert any(changed), q["fact"]
    also = {a["fact"] for a in step.also}
    assert {"pointed_out_by", "side_deal"} <= also and not also & {q["fact"] for q in step.questions}
    for name in also:   # none of them changes the wager ruling
        for value in allowed(facts()[name]):
            probe = apply_answers(data, {name: value})
            assert on_matter(rule_on(incident_from_data(probe), book, engine))[0] == now[0], name


def test_a_yes_no_question_means_its_words_and_needs_its_premise(standard):
    """"Did the player put his chips in without noticing the raise?": yes is unaware_of_raise (RRP-BR-RELEASE:
    he may take them back); it is not asked where no raise was made."""
    book, engine = standard
    c = Consultation(book, engine)
    assert facts()["unaware_of_raise"].question == "Did the player put his chips in without noticing the raise?"
    raised = {"game": {"structure": "no-limit", "blinds": [1, 2]}, "button": 4,
              "players": {1: 1000, 2: 1000, 3: 1000, 4: 1000}, "street": "flop", "pot": 20,
              "actions": [{"seat": 1, "action": "bet", "to": 100}, {"seat": 2, "action": "raise", "to": 300}],
              "disputed": {"seat": 3, "chips": [100], "released": True}}
    q = next(q for q in c.step(raised).questions if q["fact"] == "unaware_of_raise")
    yes = next(v for v in q["values"] if v["value"] is True)
    assert "He missed the raise" in " ".join(r["sentence"] for r in yes["leads_to"])
    bet_only = {**raised, "actions": raised["actions"][:1]}
    step = c.step(bet_only)
    assert "unaware_of_raise" not in [q["fact"] for q in step.questions] + [a["fact"] for a in step.also]


def test_answers_told_alike_give_the_very_step_ruling_every_answer_gives(standard):
    """The trial answers told alike (not ruled, ``Consultation._alike``) change nothing a step says: over a
    slice of the book's own examples the step's JSON is the one the consultation gives when it rules every
    answer in full (``_base`` giving None), and some answers were told alike."""
    from rulings.report.render import dumps
    from rulings.service.core import step_json
    book, engine = standard
    fast, full = Consultation(book, engine), Consultation(book, engine)
    full._base = lambda read, report: None
    told = []
    alike = fast._alike
    fast._alike = lambda base, one: told.append(r := alike(base, one)) or r
    cases = [ex.incident for rule in book.rules.values() for ex in rule.examples][::25]
    for data in cases:
        try:
            a = dumps(step_json(fast.step(copy.deepcopy(data))))
        except ProblemsError as exc:
            a = [p.message for p in exc.problems]
        try:
            b = dumps(step_json(full.step(copy.deepcopy(data))))
        except ProblemsError as exc:
            b = [p.message for p in exc.problems]
        assert a == b
    assert told.count(True) > 0 and any(r is not True for r in told)
