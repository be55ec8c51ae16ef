"""docs/adding-a-topic.md followed on a small topic, in a temporary copy of the standard book: what it says
to write loads and rules, and the checks it names are the ones that fail when a step is skipped."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from rulings.engine.rulesets import Engine
from rulings.ruling.examples import run_examples
from rulings.problems import ProblemsError
from rulings.rulebook import load

REPO = Path(__file__).resolve().parents[1]
GUIDE = (REPO / "docs" / "adding-a-topic.md").read_text(encoding="utf-8")

# a topic as step 3 writes it: a comment, topic/title, a rule in our words citing an inventory key, a
# `when` on a catalogued fact against a parameter, a ruling deciding a matter of rulings/ruling/matters.yaml, and
# examples on each side of the threshold (the clock's 25 + 5 seconds in a tournament, TDA 2024 rule 29)
TOPIC = """\
# A small topic written as docs/adding-a-topic.md says (tests/test_guides.py).
topic: guide-check
title: A topic added by the guide

example_defaults:   # the setting the examples below share
  game: {structure: no-limit, blinds: [100, 200]}
  button: 1
  players: {1: 5000, 2: 5000, 3: 5000, 4: 5000}

rules:
  - id: guide-check.out-of-time
    title: An action after the clock and its countdown ran out is late
    cites: [TDA-2024-29]
    exception_to: clock.expired-facing-bet   # it wins over the general rule, as step 3 says
    text: >-
      A player on the clock who acts after its time and the final countdown
      have both run out has acted late.
    when:
      clock_seconds_taken: {above: param.clock.seconds + param.clock.countdown_seconds}
    then:
      ruling: guide-late
      decides: clock
      say: "Seat {{ clock_seat }} acted after {{ clock_seconds_taken }} seconds: late."
    examples:
      - name: tournament, 31 seconds is one past 25 + 5
        incident: {game: {setting: tournament}, procedure: {clock: {seat: 4, called_by: floor, facing_bet: true, seconds_taken: 31}}}
        expect: {ruling: guide-late}
      - name: tournament, 30 seconds is within them
        incident: {game: {setting: tournament}, procedure: {clock: {seat: 4, called_by: floor, facing_bet: true, seconds_taken: 30}}}
        expect: {fires: false}
"""


@pytest.fixture
def copy(tmp_path) -> Path:
    root = tmp_path / "rulebooks"
    shutil.copytree(REPO / "rulebooks" / "standard", root / "standard")
    return root


def test_the_guide_gives_the_limits_and_files_the_code_has():
    assert f"{load.MAX_RULES:,} rules" in GUIDE and "300 rules" not in GUIDE
    for path in set(re.findall(r"`((?:rulings|scripts|schemas|tests|docs|rulebooks)/[\w./-]+\.(?:py|yaml|json|md))`",
                               GUIDE)) - {"rulebooks/standard/TOPIC.yaml", "tests/test_TOPIC_topic.py"}:
        assert (REPO / path).exists(), path
    for step in ("scripts/ship_book.py", "rulings/ruling/matters.yaml", "rulings schema > schemas/rulebook.schema.json",
                 "rulings schema incident > schemas/incident.schema.json", "scripts/facts_doc.py"):
        assert step in GUIDE, step


def test_a_topic_written_by_the_guide_loads_and_its_examples_pass(copy):
    (copy / "standard" / "guide-check.yaml").write_text(TOPIC, encoding="utf-8")
    book = load.standard_book(copy)
    rule = book.rules["guide-check.out-of-time"]
    outcomes = run_examples(book, Engine(book), [rule])
    assert [(o.example, o.ok) for o in outcomes] == [("tournament, 31 seconds is one past 25 + 5", True),
                                                     ("tournament, 30 seconds is within them", True)], \
        [o.why for o in outcomes]


def test_the_guides_checks_fail_when_a_step_is_skipped(copy):
    """A key missing from the catalogue (step 1) is refused by the loader, with the key named."""
    bad = TOPIC.replace("cites: [TDA-2024-29]", "cites: [TDA-2024-2999]")
    (copy / "standard" / "guide-check.yaml").write_text(bad, encoding="utf-8")
    with pytest.raises(ProblemsError) as err:
        load.standard_book(copy)
    assert "TDA-2024-2999" in str(err.value.problems)


def test_ci_runs_the_readmes_test_command_and_the_readme_is_a_front_page():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "```sh\nscripts/test\n```" in readme
    commands = [ln for ln in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
                if ln.strip() and not ln.startswith("#") and not ln.startswith(("set ", "cd "))]
    assert commands == ["exec scripts/test"]
    assert len(readme.encode()) <= 8192
    for link in re.findall(r"\]\(([^)#]+)\)", readme):   # every page it sends the reader to is there
        assert (REPO / link).exists(), link
