"""Golden files for `rulings lint`: one broken rulebook per problem code, and the exact text it must print.

Each tests/golden/lint/NAME.yaml is linted from the repository root; its
output (stderr, or stdout with --format json for NAME.json) must equal
NAME.txt. Set RULINGS_UPDATE_GOLDEN=1 to rewrite the expected files, then
read the diff before committing it.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from cli.main import main
from rulings.rulebook import house
from rulings.rulebook.load import standard_book

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "lint"
UPDATE = os.environ.get("RULINGS_UPDATE_GOLDEN") == "1"
GENERATED = "y007-huge.yaml"       # written for the test: a 2 MB file is not worth committing
MANY = "y012-many-values.yaml"     # written for the test: 200,001 values are not worth committing
MISSING = "r001-no-such-file.yaml"  # must not exist


def _cases() -> list[str]:
    names = sorted(p.name for p in GOLDEN.glob("*.yaml") if p.name not in (GENERATED, MANY))
    return names + [GENERATED, MANY, MISSING]


def _lint(name: str, capsys, fmt: str = "text") -> tuple[int, str]:
    code = main(["lint", f"tests/golden/lint/{name}"] + (["--format", "json"] if fmt == "json" else []))
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out if fmt == "json" else out.err


def _compare(expected: Path, got: str) -> None:
    if UPDATE:
        expected.write_text(got, encoding="utf-8")
    assert expected.exists(), f"no golden file {expected.name}; run with RULINGS_UPDATE_GOLDEN=1"
    assert got == expected.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", _cases())
def test_lint_golden(name, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    huge = GOLDEN / GENERATED
    if name == GENERATED:
        with huge.open("wb") as f:
            f.truncate(2_000_000)   # sparse: refused after reading one byte more than the limit
    if name == MANY:
        huge = GOLDEN / MANY
        huge.write_text("rulebook: many\nextends: standard\ntitle: [" + "1," * 200_000 + "1]\n")
    try:
        code, err = _lint(name, capsys)
    finally:
        huge.unlink(missing_ok=True)
    assert code == 1
    _compare(GOLDEN / (Path(name).stem + ".txt"), err)


def test_r501_book_over_the_rule_limit(capsys, monkeypatch):
    """The limit is lowered to one more than the standard book holds, so two house rules pass it."""
    monkeypatch.chdir(ROOT)
    n = len(standard_book().rules)
    monkeypatch.setattr(house, "MAX_RULES", n + 1)
    code, err = _lint("r501-too-many-rules.yml", capsys)
    assert code == 1
    assert f"error R501: the merged book has {n + 2} rules, over the limit of {n + 1} for one book" in err


def test_r104_json_output(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out = _lint("r104-unknown-rule.yaml", capsys, fmt="json")
    assert code == 1
    data = json.loads(out)
    first = data["problems"][0]
    assert set(first) == {"file", "line", "col", "code", "severity", "message", "path", "hint"}
    _compare(GOLDEN / "r104-unknown-rule.json", out)


def test_every_rulebook_code_has_a_golden_file():
    """Every Y and R code in docs/errors.md is printed by at least one golden file."""
    codes = set(re.findall(r"^\| ([YR]\d{3}) \|", (ROOT / "docs" / "errors.md").read_text(encoding="utf-8"), re.M))
    printed = set()
    for f in GOLDEN.glob("*.txt"):
        printed |= set(re.findall(r" (?:error|warning) ([YR]\d{3}):", f.read_text(encoding="utf-8")))
    printed.add("R501")   # test_r501_book_over_the_rule_limit
    printed.add("R114")   # needs two catalogue facts with defaults: test_rulebook_language.py
    printed.add("R605")   # a warning: test_house_limits.py::test_a_house_that_disables_a_whole_topic_is_warned
    printed.add("Y008")   # test_hostile_input.py::test_a_file_that_cannot_be_opened (lint checks existence first)
    assert sorted(codes - printed) == []


def _codes(name: str, capsys) -> list[tuple[int, str, str]]:
    code, out = _lint(name, capsys, fmt="json")
    assert code == 1
    return [(p["line"], p["severity"], p["code"]) for p in json.loads(out)["problems"]]


def test_a_house_book_with_eight_mistakes_is_refused_once_naming_all_eight(capsys, monkeypatch):
    """The manager's first book (issue 29): a missing reason and two rules without examples used to stop
    lint before the parameters, the exception and the missing when: were read, three runs in all. Each
    mistake is on its own numbered line of the file; all eight are errors of the first run, and the two
    undescribed house keys are warned of (layers-house-book.txt has the full text)."""
    monkeypatch.chdir(ROOT)
    got = _codes("layers-house-book.yaml", capsys)
    lines = (GOLDEN / "layers-house-book.yaml").read_text(encoding="utf-8").splitlines()
    numbered = sorted(i + 1 for i, text in enumerate(lines) if re.search(r"# \d\. ", text))
    errors = [(line, code) for line, severity, code in got if severity == "error"]
    assert [line for line, _ in errors] == numbered and len(errors) == 8
    assert [code for _, code in errors] == ["R204", "R205", "R205", "R102", "R102", "R102", "R104", "R102"]
    assert [(s, c) for _, s, c in got if s == "warning"] == [("warning", "R607")] * 2


def test_a_topic_file_with_five_mistakes_is_refused_once_naming_all_five(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    got = _codes("layers-topic-file.yaml", capsys)
    assert [(c, s) for _, s, c in got] == [("R102", "error"), ("R102", "error"), ("R607", "warning"),
                                           ("R201", "error"), ("R104", "error"), ("R106", "error")]
