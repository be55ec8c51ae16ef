"""A house manager's first mistakes, as lint answers them: the value written back as it was written, the
allowed values in the words `rulings params` uses, and a hint that says what to write instead."""
from __future__ import annotations

import textwrap
from pathlib import Path

from cli.main import main

HEAD = "rulebook: trial\nextends: standard\ntitle: Trial room\n"


def lint(tmp_path: Path, body: str, capsys) -> tuple[int, str]:
    book = tmp_path / "trial.yaml"
    book.write_text(HEAD + textwrap.dedent(body), encoding="utf-8")
    code = main(["lint", str(book)])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.err


def test_a_value_out_of_range_names_the_allowed_range_as_params_does(tmp_path, capsys):
    """clock.seconds has a minimum of 1 and no maximum of its own: never 'between 1 and None'."""
    code, err = lint(tmp_path, "parameters:\n  clock.seconds: 0\n  clock.countdown_seconds: -5\n"
                               "  raise_cap.max_raises: 0\n", capsys)
    assert code == 1
    assert "None" not in err
    assert "clock.seconds must be a whole number from 1 to 100, not 0" in err
    assert "clock.countdown_seconds must be a whole number from 0 to 100, not -5" in err
    assert "raise_cap.max_raises must be a whole number from 1 to 10, not 0" in err


def test_params_and_lint_agree_on_the_largest_count(tmp_path, capsys):
    """A count without its own maximum is refused above 100 (limits.MAX_PARAM_COUNT): params says so."""
    code, err = lint(tmp_path, "parameters:\n  clock.seconds: 120\n", capsys)
    assert code == 1 and "clock.seconds must be a whole number from 1 to 100, not 120" in err
    assert main(["params", "clock.seconds"]) == 0
    assert "allowed:     a whole number from 1 to 100" in capsys.readouterr().out


def test_values_are_written_back_as_yaml_not_as_python(tmp_path, capsys):
    code, err = lint(tmp_path, "parameters:\n  kill.size: 1.5\n  reopen.limit_rule: true\n"
                               "  straddle.allowed: yes\n", capsys)
    assert code == 1
    for python in ("Decimal(", "True", "False"):
        assert python not in err, err
    assert "1.5 is not an allowed value of kill.size (full, half)" in err
    assert "true is not an allowed value of reopen.limit_rule (half_bet, full_bet)" in err
    assert "'yes' is not an allowed value of straddle.allowed (true, false)" in err
    assert "hint: write true or false, without quotes" in err


def test_a_fraction_for_a_percent_is_shown_the_percent_to_write(tmp_path, capsys):
    """The inventory writes the silent-raise threshold as 0.5; the parameter is a whole percent: 50."""
    code, err = lint(tmp_path, "parameters:\n  silent_raise.threshold: 0.5\n", capsys)
    assert code == 1
    assert "silent_raise.threshold must be a whole percent from 1 to 100, not 0.5" in err
    assert "hint: write 50 for 50%" in err


def test_a_number_in_quotes_is_told_to_drop_the_quotes(tmp_path, capsys):
    code, err = lint(tmp_path, 'parameters:\n  clock.seconds: "45"\n', capsys)
    assert code == 1
    assert "clock.seconds must be a whole number from 1 to 100, not '45'" in err
    assert "hint: write 45 without quotes" in err


def test_a_quoted_true_is_answered_in_yaml_words(tmp_path, capsys):
    code, err = lint(tmp_path, 'parameters:\n  straddle.allowed: "True"\n', capsys)
    assert code == 1
    assert "'True' is not an allowed value of straddle.allowed (true, false)" in err
    assert "did you mean 'True'" not in err
    assert "hint: did you mean 'true'?" in err or "hint: write true or false, without quotes" in err


def test_an_amount_refused_names_its_parameter(tmp_path, capsys):
    code, err = lint(tmp_path, "parameters:\n  buy_in.max: 200.555\n", capsys)
    assert code == 1 and "error R205: buy_in.max: 200.555 has more than two decimal places" in err
