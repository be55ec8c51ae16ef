"""A house manager's first mistakes, as lint answers them: the value written back as it was written, the
allowed values in the words `rulings params` uses, and a hint that says what to write instead."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

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


REPLACEMENT = """\
  - id: trial.raise-at-cap-is-call{n}
    replaces: raise-caps.raise-at-cap-is-call
    title: A raise attempted after the cap is a call
    cites: [RRP-BR-3]
    text: A raise at the cap is a call.
    when: {{structure: fixed-limit, facing_bet: true, can_raise: false, capped: true, said_kind: raise}}
    then: {{ruling: capped-raise-is-call, decides: wager, effects: {{wager_to: current_bet}},
           say: "The round was capped: a call to {{{{ current_bet | money }}}}."}}
    examples:
      - name: capped
        incident: {{game: {{structure: fixed-limit, blinds: [10, 20], bet_sizes: [20, 40]}}, button: 3,
                   players: {{1: 1000, 2: 1000, 3: 1000}}, street: flop, pot: 60,
                   actions: [{{seat: 1, action: bet, to: 20}}, {{seat: 2, action: raise, to: 40}},
                             {{seat: 3, action: raise, to: 60}}, {{seat: 1, action: raise, to: 80}}],
                   disputed: {{seat: 2, said: raise}}}}
        expect: {{ruling: capped-raise-is-call, effects: {{wager_to: 80}}}}
      - name: not capped
        incident: {{game: {{structure: fixed-limit, blinds: [10, 20], bet_sizes: [20, 40]}}, button: 3,
                   players: {{1: 1000, 2: 1000, 3: 1000}}, street: flop, pot: 60,
                   actions: [{{seat: 1, action: bet, to: 20}}, {{seat: 2, action: raise, to: 40}}],
                   disputed: {{seat: 3, said: raise}}}}
        expect: {{fires: false}}
"""


def test_a_rule_changed_twice_points_at_the_other_change_by_what_it_does(tmp_path, capsys):
    """Replaced on lines 6 and 28 and disabled on line 50: no line is called 'the first change' when it comes
    after the one reported; each problem names the other change and what it is."""
    body = "rules:\n" + REPLACEMENT.format(n="") + REPLACEMENT.format(n="-again") + \
        "disable:\n  - {rule: raise-caps.raise-at-cap-is-call, reason: we replace it}\n"
    code, err = lint(tmp_path, body, capsys)
    assert code == 1
    assert "first change" not in err
    assert err.count("error R604") == 2
    assert "trial.yaml:6:15: error R604: rule 'raise-caps.raise-at-cap-is-call' is disabled or replaced twice" in err
    assert "hint: the house also disables it on line 50; keep one change to it" in err


def test_a_rule_replaced_twice_names_the_earlier_replacement(tmp_path, capsys):
    body = "rules:\n" + REPLACEMENT.format(n="") + REPLACEMENT.format(n="-again")
    code, err = lint(tmp_path, body, capsys)
    assert code == 1 and err.count("error R604") == 1
    assert "trial.yaml:28:15: error R604" in err
    assert "hint: the house also replaces it on line 6 (trial.raise-at-cap-is-call); keep one change to it" in err


def test_a_tab_in_the_indentation_is_named_as_a_tab(tmp_path, capsys):
    """A book saved by an editor that indents with tabs: the refusal says so, not 'while scanning for the next
    token', whether the tab starts the line or follows spaces."""
    for body in ("parameters:\n\tkill.size: half\n", "parameters:\n  kill.size: half\n  \tclock.seconds: 45\n"):
        code, err = lint(tmp_path, body, capsys)
        assert code == 1 and "error Y001" in err
        line = body.count("\n") + 3
        assert f"trial.yaml:{line}:" in err
        assert "a tab character: YAML indents with spaces only" in err
        assert "while scanning" not in err
        assert f"hint: replace the tab on line {line} with spaces" in err


def test_printing_the_book_into_a_missing_folder_says_which_folder(tmp_path, capsys):
    target = tmp_path / "posted" / "book.html"
    code = main(["book", "east-coast-limit", "--format", "html", "-o", str(target)])
    err = capsys.readouterr().err
    assert code == 2 and "Errno" not in err and "Traceback" not in err
    assert err.strip() == f"rulings: '{target}': the folder '{target.parent}' does not exist"


def test_a_house_name_whose_file_is_in_the_working_folder_is_told_to_give_the_path(tmp_path, capsys, monkeypatch):
    """`--house riverside` with riverside.yaml beside the manager: a name is looked up only in rulebooks/houses/,
    so the hint says to give the file as a path (the README's rule), rather than only 'give a path'."""
    (tmp_path / "riverside.yaml").write_text(HEAD + "parameters: {kill.size: half}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(["params", "kill.size", "--house", "riverside"])
    err = capsys.readouterr().err
    assert code == 1 and "error R001: no house book 'riverside'" in err
    assert "hint: riverside.yaml in this folder is a file: give it as a path, --house riverside.yaml " \
           "(a plain name is a book in rulebooks/houses/)" in err
    assert main(["params", "kill.size", "--house", "riverside.yaml"]) == 0
    assert "this house sets it to half" in capsys.readouterr().out


def test_disabling_a_rule_with_exceptions_names_every_rule_to_disable_at_once(tmp_path, capsys):
    """raise-caps.cap-reached has two exceptions, and one of them has its own (last-two-in-the-event): the first
    refusal names all three, so a manager who follows the hint passes lint in one more try, not two."""
    code, err = lint(tmp_path, "disable:\n  - {rule: raise-caps.cap-reached, reason: no cap here}\n", capsys)
    assert code == 1 and err.count("error R606") == 1
    assert "'raise-caps.cap-reached' is disabled, but bring-in.completion-counted-round-capped, " \
           "raise-caps.capped-before-heads-up-stays-capped, " \
           "raise-caps.heads-up-after-third-bet-house, raise-caps.heads-up-too-late-for-round-start-house, " \
           "raise-caps.tournament-cap-holds-heads-up are exceptions to it" in err
    wanted = ["bring-in.completion-counted-round-capped",
              "raise-caps.capped-before-heads-up-stays-capped", "raise-caps.heads-up-after-third-bet-house",
              "raise-caps.heads-up-too-late-for-round-start-house", "raise-caps.last-two-in-the-event",
              "raise-caps.tournament-cap-holds-heads-up"]
    assert f"hint: an exception applies only where its rule applies: disable {', '.join(wanted)} too " \
           "(exceptions to it, or to one of its exceptions), or replace the rule instead of disabling it" in err
    body = "disable:\n" + "".join(f"  - {{rule: {r}, reason: no cap here}}\n"
                                  for r in ["raise-caps.cap-reached", *wanted])
    code, err = lint(tmp_path, body, capsys)
    assert code == 0, err


def test_a_malformed_entry_does_not_hide_the_other_mistakes(tmp_path, capsys):
    """A disable without its reason, or a value per setting, used to stop lint before the parameters were
    checked: the misspelt parameter and the 0-second clock came only on the next try. All at once now."""
    code, err = lint(tmp_path, "parameters:\n  kill.sise: half\n  clock.seconds: 0\n  straddle.size: {casino: exactly_2bb}\n"
                               "disable:\n  - {rule: kill-pots.two-in-a-row}\n"
                               "  - {rule: raise-caps.cap-reachd, reason: typo}\n", capsys)
    assert code == 1
    assert "trial.yaml:5:3: error R204: unknown parameter 'kill.sise'" in err
    assert "trial.yaml:6:18: error R205: clock.seconds must be a whole number from 1 to 100, not 0" in err
    assert "trial.yaml:7:18: error R106: a value per setting is a mapping of cash: and tournament:" in err
    assert "trial.yaml:9:5: error R102: missing required key 'reason'" in err
    assert "trial.yaml:10:12: error R104: unknown rule 'raise-caps.cap-reachd'" in err
    assert "5 problems found" in err


def test_a_malformed_entry_and_a_missing_book_to_extend_are_said_together(tmp_path, capsys):
    book = tmp_path / "trial.yaml"
    book.write_text("rulebook: trial\nextends: riversde-base\ntitle: Trial room\n"
                    "disable:\n  - {rule: kill-pots.two-in-a-row}\n", encoding="utf-8")
    code = main(["lint", str(book)])
    err = capsys.readouterr().err
    assert code == 1
    assert "trial.yaml:2:10: error R601: no book named 'riversde-base' to extend" in err
    assert "trial.yaml:5:5: error R102: missing required key 'reason'" in err


def test_adding_a_manager_without_a_terminal_is_a_usage_error_not_a_bug(tmp_path):
    """`rulings users add NAME --role manager` run from a script (no terminal, standard input empty) ended in
    'internal error (EOFError) ... this is a bug' with exit 70; it is the manager's usage: exit 2 and the way out."""
    import subprocess
    import sys
    run = subprocess.run([sys.executable, "-m", "rulings", "users", "add", "mgr", "--role", "manager",
                          "--data", str(tmp_path)], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                         cwd=tmp_path, timeout=120)
    assert run.returncode == 2, run.stderr
    assert "internal error" not in run.stderr and "Traceback" not in run.stderr
    assert "rulings: no password was typed (standard input ended): run it at a terminal, or give the password " \
           "on standard input with --password-stdin" in run.stderr


SETTING = "example_defaults: {game: {structure: no-limit, blinds: [1, 2]}, button: 2, players: {1: 100, 2: 100}}\n"
RULE = """\
  - id: trial.{name}
    title: A rule of the trial room
    cites: [WIKI-KILL-2, {key}]
    text: A rule.
    when: {{street: river}}
    then: {{ruling: no-kill, decides: kill}}
    examples:
      - {{name: fires, incident: {{street: river}}, expect: {{ruling: no-kill}}}}
      - {{name: does not, incident: {{street: turn}}, expect: {{fires: false}}}}
"""


def test_a_house_key_no_book_describes_is_a_warning_naming_the_keys_it_does(tmp_path, capsys):
    """Issue 29: HOUSE-anything was taken without a word. Described under citations:, it passes quietly;
    undescribed, lint passes with a warning (R607) that lists what the book describes."""
    body = SETTING + "rules:\n" + RULE.format(name="one", key="HOUSE-TRIAL-1") + \
        RULE.format(name="two", key="HOUSE-TRAIL-1").replace("river", "flop")
    code, err = lint(tmp_path, body + "citations:\n  HOUSE-TRIAL-1: posted rule 1\n", capsys)
    assert code == 0, err
    assert "trial.yaml:17:26: warning R607: house citation key 'HOUSE-TRAIL-1' is described nowhere" in err
    assert "hint: did you mean 'HOUSE-TRIAL-1'? this book describes HOUSE-TRIAL-1; to keep it, add under " \
           "citations: 'HOUSE-TRAIL-1: where the room's posted rules say it'" in err
    assert err.count("R607") == 1 and err.rstrip().endswith("1 problem found (0 errors, 1 warning)")
    code, err = lint(tmp_path, body + "citations:\n  HOUSE-TRIAL-1: posted rule 1\n  HOUSE-TRAIL-1: rule 1 "
                     "of the trail room\n", capsys)
    assert (code, err) == (0, "")


def test_a_house_over_a_house_may_cite_the_keys_the_book_below_describes(tmp_path, capsys):
    (tmp_path / "base.yaml").write_text(HEAD.replace("trial", "base") + "citations:\n  HOUSE-BASE-4: rule 4\n",
                                        encoding="utf-8")
    top = tmp_path / "top.yaml"
    top.write_text("rulebook: top\nextends: base.yaml\ntitle: Top room\n" + SETTING + "rules:\n" +
                   RULE.format(name="one", key="HOUSE-BASE-4").replace("trial.", "top."), encoding="utf-8")
    assert main(["lint", str(top)]) == 0
    assert "R607" not in capsys.readouterr().err


def test_a_house_describes_only_its_own_keys(tmp_path, capsys):
    code, err = lint(tmp_path, "citations:\n  TDA-2024-45: our reading\n", capsys)
    assert code == 1
    assert "trial.yaml:5:3: error R105: 'TDA-2024-45' is not a house citation key" in err


def test_explain_gives_a_house_key_in_the_words_of_its_book(capsys):
    assert main(["explain", "HOUSE-BOARDWALK-9"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1] == "  Boardwalk posted rule 9: a split pot never kills"


def test_a_disable_without_its_reason_still_has_its_rule_checked(tmp_path, capsys):
    code, err = lint(tmp_path, "disable:\n  - {rule: kill-pots.two-in-a-rwo}\n", capsys)
    assert code == 1
    assert "trial.yaml:5:5: error R102: missing required key 'reason'" in err
    assert "trial.yaml:5:12: error R104: unknown rule 'kill-pots.two-in-a-rwo'" in err
    assert "2 problems found" in err


def test_a_misspelt_key_is_not_also_called_missing(tmp_path, capsys):
    """exeption_to: is an unknown key meant for exception_to, so the rule may inherit its conditions: it is
    not also told that it lacks when:. A when: misspelt is not also a missing when:. Each rule's other
    mistakes are still named."""
    rule = RULE.format(name="one", key="WIKI-KILL-1")
    body = "rules:\n" + rule.replace("    when: {street: river}\n", "    exeption_to: kill-pots.full-kill\n") + \
        RULE.format(name="two", key="WIKI-KILL-1").replace("when:", "whn:").replace("ruling: no-kill, decides", "ruling: no-kill, decide")
    code, err = lint(tmp_path, body, capsys)
    assert code == 1
    assert "unknown key 'exeption_to'" in err and "unknown key 'whn'" in err and "unknown key 'decide'" in err
    assert "missing required key 'when'" not in err and "needs 'decides:'" not in err
    assert "3 problems found" in err


def test_an_entry_that_is_no_rule_hides_no_other(tmp_path, capsys):
    body = "rules:\n  - just words\n" + RULE.format(name="one", key="WIKI-KILL-1").replace("street: river", "streeet: river") + \
        "  - id: trial.no-then\n    exception_to: kill-pots.ful-kill\n    title: t\n    cites: [WIKI-KILL-2]\n    text: t\n" \
        "    examples:\n      - {name: a, incident: {street: river}}\n"
    code, err = lint(tmp_path, body, capsys)
    assert code == 1
    for line in ("trial.yaml:5:5: error R106: expected a mapping, found text 'just words'",
                 "trial.yaml:10:12: error R201: unknown fact 'streeet'",
                 "trial.yaml:15:5: error R102: missing required key 'then'",
                 "trial.yaml:16:19: error R104: unknown rule 'kill-pots.ful-kill'",
                 "trial.yaml:21:9: error R102: missing required key 'expect'"):
        assert line in err, err
    assert "5 problems found" in err


def test_a_book_without_extends_names_every_mistake_of_its_shape(tmp_path, capsys):
    book = tmp_path / "trial.yaml"
    book.write_text("rulebook: trial\ntitle: [a]\ndisable:\n  - {rule: kill-pots.two-in-a-row}\n", encoding="utf-8")
    assert main(["lint", str(book)]) == 1
    err = capsys.readouterr().err
    assert "missing required key 'extends'" in err and "expected text, found a list" in err
    assert "missing required key 'reason'" in err and "3 problems found" in err


# issue #42 C: extends: is a book's name, never opened as a path whatever it holds
@pytest.mark.parametrize("value, shown", [('"sta\\0ndard"', "sta\\x00ndard"), ("a" * 300, "a" * 60 + "..."),
                                          ('"std\\x1b[2J"', "std\\x1b[2J"), ('"standard "', "standard ")])
def test_extends_with_a_nul_or_300_characters_is_not_a_books_name(tmp_path, capsys, value, shown):
    book = tmp_path / "trial.yaml"
    book.write_text(f"rulebook: trial\nextends: {value}\ntitle: Trial room\n", encoding="utf-8")
    code = main(["lint", str(book)])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err and "internal error" not in out.err
    assert code == 1 and f"error R601: extends: '{shown}' is not a book's name" in out.err
    assert "trial.yaml:2:10" in out.err and "hint: name the book" in out.err


# issue #42 F: no text a house book publishes holds a NUL or a control character
NUL_BOOK = """\
rulebook: trial
extends: standard
title: "Trial\\u202e room"
citations:
  HOUSE-TRIAL-1: "posted rule 1\\0"
rules:
  - id: trial.no-kill
    exception_to: kill-pots.pot-size-split
    title: "A split pot\\x1b[2J forces no kill"
    cites: [HOUSE-TRIAL-1]
    text: A split pot forces no kill.
    then:
      ruling: no-kill
      decides: kill
      say: "Nobody kills.\\0"
    examples:
      - name: a split pot
        incident: {table: {pots: [{winners: [2, 6], amount: 500, blind_money: 30}]}}
        expect: {ruling: no-kill}
      - name: a pot won alone
        incident: {table: {pots: [{winners: [6], amount: 500, blind_money: 30}]}}
        expect: {fires: false}
"""


def test_a_nul_or_control_character_in_any_text_of_a_house_book_is_refused_where_it_is(tmp_path, capsys):
    book = tmp_path / "trial.yaml"
    book.write_text(NUL_BOOK, encoding="utf-8")
    code = main(["lint", str(book)])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    for line, col, shown in [(3, 8, "\\u202e"), (5, 18, "\\x00"), (9, 12, "\\x1b"), (15, 12, "\\x00")]:
        assert f"trial.yaml:{line}:{col}: error R115: the text holds a control character ('{shown}')" in err, err
    assert err.count("error R115") == 4 and "hint: delete it" in err


@pytest.mark.parametrize("say", ["'Nobody kills{{ \"\\x00\" }}.'", "'{{ \"\\u2066\" ~ \"x\" }}'"])
def test_a_sentence_whose_quoted_text_renders_a_control_character_is_refused(tmp_path, capsys, say):
    book = tmp_path / "trial.yaml"
    text = NUL_BOOK.replace('say: "Nobody kills.\\0"', f"say: {say}").replace("\\u202e", "").replace(
        "\\x1b[2J", "").replace('rule 1\\0"', 'rule 1"')
    book.write_text(text, encoding="utf-8")
    code = main(["lint", str(book)])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err and "error R115" not in err
    assert "trial.yaml:15:12: error R302" in err and "a quoted text holds a control character" in err, err


# issue #42 G: every effect is checked by its kind at load, statically, and again when its rule fires
KILL_HOUSE = """\
parameters: {kill.trigger: pot_size, kill.mode: required, kill.pot_size_multiple: 10}
example_defaults:
  game: {structure: fixed-limit, blinds: [10, 20], bet_sizes: [20, 40]}
  button: 1
  players: {1: 1000, 2: 1000, 3: 1000, 4: 1000, 5: 1000, 6: 1000}
rules:
  - id: trial.split-kills-anyway
    exception_to: kill-pots.pot-size-split
    title: A split pot kills
    cites: [WIKI-KILL-2]
    text: A split pot kills.
    then:
      ruling: kill-required
      decides: kill
      effects: {EFFECTS}
      say: "Seat {{ effect.killer }} kills."
    examples:
      - name: a split pot
        incident: {table: {pots: [{winners: [2, 6], amount: 500, blind_money: 30}]}}
        expect: {ruling: kill-required}
      - name: a pot won alone
        incident: {table: {pots: [{winners: [6], amount: 500, blind_money: 30}]}}
        expect: {fires: false}
"""


@pytest.mark.parametrize("effects, at, message, hint", [
    ("killer: kill_blind", "kill_blind", "'killer' is a seat, but 'kill_blind' can give an amount",
     "a seat comes from a seat fact"),
    ("killer: 2, kill_blind: \"'x' if kill_last_pot > 100 else kill_blind\"", "\"'x'",
     "'kill_blind' is an amount, but ''x' if kill_last_pot > 100 else kill_blind' can give text",
     "in every branch of an 'if ... else'"),
    ("killer: 2, kill_blind: \"kill_blind | default('wager to x')\"", "\"kill_blind |", "can give text",
     "an amount is worked out"),
    ("killer: 2, returned: \"kill_last_pot - 1000000000000\"", "\"kill",
     "'returned' is an amount, which cannot be negative, and 'kill_last_pot - 1000000000000' can be",
     "write 'a - b if a > b else 0'"),
    ("killer: 2, returned: \"kill_last_pot - param.buy_in.max\"", "\"kill", "cannot be negative", "test it"),
    ("killer: 2, returned: \"-kill_blind\"", "\"-", "cannot be negative", "test the case in when:"),
    ("killer: kill_last_winner + 1", "kill_last", "can give arithmetic mixing kinds", "a seat comes from a seat fact"),
    ("killer: kill_legs_next_count", "kill_legs", "error R201: unknown fact", None),
    ("killer: 0", "0", "'killer' is a seat of the table, and 0 is no seat number", "a seat comes from"),
    ("killer: 2, kill_legs_next: kill_blind", "kill_blind",
     "'kill_legs_next' is a count, but 'kill_blind' can give an amount",
     "a count is worked out"),
])
def test_an_effect_out_of_its_kind_is_refused_by_lint_at_its_own_column(tmp_path, capsys, effects, at, message, hint):
    code, err = lint(tmp_path, KILL_HOUSE.replace("{EFFECTS}", "{" + effects + "}"), capsys)
    assert code == 1
    line = KILL_HOUSE.splitlines().index("      effects: {EFFECTS}") + 4   # after the three lines of HEAD
    col = len("      effects: {") + effects.index(at) + 1
    assert f"trial.yaml:{line}:{col}: error R" in err and message in err, err
    if hint:
        assert f"hint: {hint}" in err or hint in err


@pytest.mark.parametrize("effects", ["killer: 2, returned: \"kill_last_pot - kill_blind\"",
                                     "killer: 2, returned: \"kill_last_pot - kill_blind if kill_last_pot > kill_blind "
                                     "else 0\"", "killer: kill_last_winner, kill_blind: kill_blind * 2"])
def test_an_effect_of_its_kind_passes(tmp_path, capsys, effects):
    code, err = lint(tmp_path, KILL_HOUSE.replace("{EFFECTS}", "{" + effects + "}"), capsys)
    assert "R202" not in err and "R115" not in err, err


def test_a_value_out_of_its_kind_at_rule_time_is_never_read_out(tmp_path, capsys):
    """A difference of two facts no condition orders passes lint's static check (the rule's reading of its
    facts); where the facts make it negative, the rule fails and its ruling is not read out."""
    book = tmp_path / "trial.yaml"
    book.write_text(HEAD + KILL_HOUSE.replace("{EFFECTS}", '{killer: 2, returned: "kill_blind - kill_last_pot"}'),
                    encoding="utf-8")
    incident = tmp_path / "split.yaml"
    incident.write_text("game: {structure: fixed-limit, blinds: [10, 20], bet_sizes: [20, 40]}\nbutton: 1\n"
                        "players: {1: 1000, 2: 1000, 3: 1000, 4: 1000, 5: 1000, 6: 1000}\n"
                        "table: {pots: [{winners: [2, 6], amount: 500, blind_money: 30}]}\n", encoding="utf-8")
    assert main(["rule", str(incident), "--house", str(book)]) == 0
    out = capsys.readouterr().out
    assert "Seat 2 kills" not in out and "-$" not in out and "$-" not in out
    assert "trial.split-kills-anyway: returned would be -46000, which is no amount; the ruling is not read out" in out
    assert main(["lint", str(book)]) == 1      # and lint's run of the book's own example says so
    assert "error R402" in capsys.readouterr().err


def test_the_kind_checker_refuses_each_kind_out_of_kind():
    from rulings.rulebook.kinds import Checker
    why = Checker().why
    assert why("returned", -1) and why("returned", "x") and why("returned", True) and why("returned", 2 ** 63)
    assert why("killer", 0) and why("killer", 1_000_001) and why("killer", "3")
    assert why("show_order", "a\x00b") and why("kill_legs_next", -1)
    assert why("returned", 2500) is None and why("killer", 3) is None and why("returned", None) is None
