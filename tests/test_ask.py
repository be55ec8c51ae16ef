"""`rulings ask` typed in floor shorthand: each answer checked as it is given, a refusal of the whole incident sent
back to the answers it names, a draft kept through Ctrl-C and offered on the next start. The last tests drive the
real command through a pseudo-terminal (pexpect), where the prompts are prompt_toolkit's.

The hand: no-limit $2/$5, seats 1-3 (stacks 1,000 / 640 / 815), button 3, on the flop with $60 in the middle seat 1
bets $60 and seat 2 calls; seat 3 silently puts out one $500 chip. A single oversized chip facing a bet is a call
(TDA-2024-44): seat 3 calls $60 and $440 goes back.
"""
from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pexpect      # the test extra installs it; never skipped
import yaml

from rulings.commands.ask import answers_named, build, load_draft, run

HAND = ["nl 2/5", "1:1000 2:640 3:815", "3", "flop", "60", "1 bet 60, seat 2 calls", "3", "", "500"]
RULED = "One oversized chip is a call of $60; $440 goes back."


def _lines(answers, prompts: list | None = None):
    typed = iter(answers)

    def read(prompt: str) -> str:
        if prompts is not None:
            prompts.append(prompt.split(",")[0].split(" [")[0])
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None
    return read


def test_shorthand_answers_make_the_incident():
    data, wrong = build(dict(zip(("game", "players", "button", "street", "pot", "actions", "disputed seat", "said",
                                  "chips"), HAND)))
    assert wrong == {}
    assert data == {"game": {"structure": "no-limit", "variant": "holdem", "blinds": [2, 5]},
                    "players": {1: 1000, 2: 640, 3: 815}, "button": 3, "street": "flop", "pot": 60,
                    "actions": [{"seat": 1, "action": "bet", "to": 60}, {"seat": 2, "action": "call"}],
                    "disputed": {"seat": 3, "chips": [500]}}


def test_a_limit_game_line_gives_the_bet_sizes_and_the_blinds_are_asked(tmp_path):
    out = io.StringIO()
    answers = ["limit 10/20", "", "5/10", "1-3", "3", "pre", "3 bet 20", "", "q"]
    saved = tmp_path / "fl.yaml"
    assert run(None, None, str(saved), read=_lines(answers), out=out) == 0
    assert "blinds is needed: there is no default" in out.getvalue()
    data = yaml.safe_load(saved.read_text())
    assert data["game"] == {"structure": "fixed-limit", "variant": "holdem", "bet_sizes": [10, 20], "blinds": [5, 10]}
    assert data["players"] == {1: None, 2: None, 3: None} and "pot" not in data     # preflop: the pot is not asked


def test_a_wrong_answer_is_said_at_once_and_asked_again_and_the_hand_is_ruled(tmp_path):
    out = io.StringIO()
    answers = ["no limit 2/five", "nl 2/5", "1:1000 2:640 3:815", "3", "flop", "60",
               "1 bet 60, seat 7 calls",          # seat 7 is not in the hand: said before the next question
               "1 bet 60, seat 2 calls", "3", "", "500", "q"]
    draft = tmp_path / "draft.yaml"
    prompts: list[str] = []
    assert run(None, None, None, read=_lines(answers, prompts), out=out, draft=draft) == 0
    text = out.getvalue()
    assert "'no limit 2/five' will not do for game: '2/five' is not stakes: 'five' is not an amount" in text
    assert "action 2: seat 7 is not in the hand (the seats in it: 1, 2, 3)" in text
    assert prompts[:2] == ["Game", "Game"] and prompts[6:9] == ["Actions this street before the disputed act"] * 2 + [
        "Seat of the disputed act"]
    assert RULED in text and "Seat 3 calls $60: $440 goes back to him." in text
    assert not draft.exists()          # ruled: the draft is done


def test_a_refusal_of_the_whole_incident_goes_back_to_the_answer_it_names(tmp_path, capsys):
    """Seat 1 has $40 behind and cannot bet $60 (I106): the actions are asked again with what was typed as the
    default; a blank answer would keep it, the correction is ruled."""
    out = io.StringIO()
    answers = ["nl 2/5", "1:40 2:640 3:815", "3", "flop", "60", "1 bet 60, seat 2 calls", "3", "", "500",
               "1 bet 40, seat 2 calls", "q"]
    assert run(None, None, None, read=_lines(answers), out=out, draft=tmp_path / "d.yaml") == 0
    text = out.getvalue()
    assert "seat 1 has 40 behind and cannot bet to 60" in capsys.readouterr().err
    assert "the incident as typed is refused; asking again: actions" in text
    assert "One oversized chip is a call of $40; $460 goes back." in text


def test_a_refusal_kept_as_it_was_asks_which_answers_to_change(tmp_path):
    out = io.StringIO()
    answers = ["nl 2/5", "1:40 2:640 3:815", "3", "flop", "60", "1 bet 60, seat 2 calls", "3", "", "500",
               "",                      # the actions kept as they were: refused again
               "12", "2",               # not an answer's number; the players
               "1:1000 2:640 3:815", "q"]
    assert run(None, None, None, read=_lines(answers), out=out, draft=tmp_path / "d.yaml") == 0
    text = out.getvalue()
    assert "which answers should change?" in text and "  2. players: 1:40 2:640 3:815" in text
    assert "the numbers of the answers to change, 1 to 9" in text
    assert RULED in text


def test_an_answer_asked_again_that_brings_in_a_new_question_asks_it_too(tmp_path):
    """The game asked again, now 'limit 10/20': its blinds were never typed (the old line gave them), so they are
    asked; every other answer is kept as typed."""
    from rulings.commands.ask import Draft, PlainAsker, gather
    names = ("game", "players", "button", "street", "pot", "actions", "disputed seat", "said", "chips")
    draft = Draft(tmp_path / "d.yaml", "typed", dict(zip(names, HAND)), {}, [])
    prompts: list[str] = []
    data = gather(PlainAsker(_lines(["limit 10/20", "5/10"], prompts), io.StringIO()), draft, io.StringIO(),
                  only=("game",))
    assert prompts == ["Game", "Blinds"]
    assert data["game"] == {"structure": "fixed-limit", "variant": "holdem", "bet_sizes": [10, 20], "blinds": [5, 10]}
    assert data["players"] == {1: 1000, 2: 640, 3: 815} and data["disputed"] == {"seat": 3, "chips": [500]}


def test_the_problem_paths_name_the_answers():
    from rulings.problems import Problem
    texts = dict.fromkeys(("game", "blinds", "players", "actions", "disputed seat", "chips"), "x")
    problems = [Problem("<typed>", 1, 1, "I106", "m", ("actions", 0)), Problem("<typed>", 1, 1, "I103", "m",
                ("game", "blinds", 0)), Problem("<typed>", 1, 1, "I107", "m", ("disputed", "chips", 0))]
    assert answers_named(problems, texts) == ["blinds", "actions", "chips"]


def test_the_typing_stopping_keeps_a_draft_that_the_next_start_continues(tmp_path, capsys):
    draft = tmp_path / "data" / "ask-draft.yaml"
    assert run(None, None, None, read=_lines(HAND[:4]), out=io.StringIO(), draft=draft) == 2
    err = capsys.readouterr().err
    assert f"what was typed is saved at {draft}, and `rulings ask` offers to continue it" in err
    saved, problem = load_draft(draft)
    assert problem is None and saved["typed"] == dict(zip(("game", "players", "button", "street"), HAND[:4]))
    out = io.StringIO()
    assert run(None, None, None, read=_lines(["y", *HAND[4:], "q"]), out=out, draft=draft) == 0
    text = out.getvalue()
    assert f"A draft from {saved['saved']} is saved at {draft} (4 answers: game, players, button, street)" in text
    assert "continuing the draft: 4 answers kept" in text and RULED in text
    assert not draft.exists()


def test_a_draft_refused_starts_afresh_and_a_broken_draft_is_said_not_raised(tmp_path, capsys):
    draft = tmp_path / "ask-draft.yaml"
    run(None, None, None, read=_lines(HAND[:2]), out=io.StringIO(), draft=draft)
    out = io.StringIO()
    assert run(None, None, None, read=_lines(["n", *HAND, "q"]), out=out, draft=draft) == 0
    assert RULED in out.getvalue() and "continuing" not in out.getvalue()
    for junk in ("[1, 2", "- a list\n", "typed: 7\n", "\xff\xfe"):
        draft.write_bytes(junk.encode("latin-1"))
        out = io.StringIO()
        assert run(None, None, None, read=_lines([*HAND, "q"]), out=out, draft=draft) == 0
        assert f"(a draft at {draft} was not used:" in out.getvalue() and RULED in out.getvalue()


def test_a_draft_of_another_file_is_not_offered(tmp_path):
    draft = tmp_path / "ask-draft.yaml"
    run(None, None, None, read=_lines(HAND[:2]), out=io.StringIO(), draft=draft)
    src = tmp_path / "hand.yaml"
    data, _ = build(dict(zip(("game", "players", "button", "street", "pot", "actions", "disputed seat", "said",
                              "chips"), HAND)))
    src.write_text(yaml.safe_dump(data))
    out = io.StringIO()
    assert run(str(src), None, None, read=_lines(["q"]), out=out, draft=draft) == 0
    assert "(a draft of typed answers from" in out.getvalue() and RULED in out.getvalue()


def test_the_draft_is_kept_in_the_users_data_folder_never_the_install(monkeypatch, tmp_path):
    from rulings.commands import ask
    monkeypatch.delenv("RULINGS_DATA", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert ask.default_draft() == tmp_path / "xdg" / "rulings" / "ask-draft.yaml"
    monkeypatch.setenv("RULINGS_DATA", str(tmp_path / "rd"))
    assert ask.default_draft() == tmp_path / "rd" / "ask-draft.yaml"
    assert Path(ask.__file__).parent not in ask.default_draft().parents


def test_the_terminal_prompt_refuses_a_wrong_line_keeps_it_and_its_bar_reads_it_as_typed():
    """prompt_toolkit itself, fed keys through its pipe input: 'nl 2/' + Enter is refused and stays in the line,
    '5' + Enter completes it; the bottom bar says what a line reads as, or what is wrong with it, before Enter."""
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from rulings.commands.ask import BY_NAME, TerminalAsker, _preview
    from rulings.incident.shorthand import Unread
    field = BY_NAME["game"]

    def check(text):
        try:
            field.check(text, {})
        except Unread as exc:
            return exc.message
        return None
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        asker = TerminalAsker()
        keys.send_text("nl 2/\r")
        keys.send_text("5\r")
        assert asker.ask(field.prompt, check, preview=lambda t: _preview(field.check(t, {}))) == "nl 2/5"
        bar, line = asker.session.bottom_toolbar, asker.session.default_buffer
        line.text = "nl 2/"
        assert bar() == " not yet: '2/': an amount on each side of the '/', e.g. 2/5"
        line.text = "nl 2/5"
        assert bar() == " reads as: structure no-limit; variant holdem; blinds 2/5"


# ---------------------------------------------------------------- the real command in a pseudo-terminal

def _spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    env = {k: v for k, v in os.environ.items() if k != "RULINGS_DATA"}
    # this "terminal" answers no cursor-position requests: prompt_toolkit is told not to wait for them (without the
    # screen's height it draws no bottom bar; the check on Enter is drawn all the same)
    env.update(TERM="xterm", XDG_DATA_HOME=str(tmp_path / "xdg"), PROMPT_TOOLKIT_NO_CPR="1", COLUMNS="120",
               LINES="40")
    child = pexpect.spawn(sys.executable, ["-m", "rulings", "ask", *args], env=env, cwd=str(tmp_path),
                          encoding="utf-8", dimensions=(40, 120), timeout=120)
    child.logfile_read = (tmp_path / "screen.log").open("a", encoding="utf-8")
    return child


def _answer(child: pexpect.spawn, prompt: str, text: str) -> None:
    child.expect(re.escape(prompt))
    child.send(text + "\r")


def test_rulings_ask_in_a_terminal_takes_shorthand_says_a_wrong_answer_and_rules(tmp_path):
    child = _spawn(tmp_path)
    _answer(child, "Game, e.g.", "nl 2/5")
    _answer(child, "Seats in the hand and stacks", "1:1000 2:640 3:815")
    _answer(child, "Button seat", "3")
    _answer(child, "Street", "flop")
    _answer(child, "Pot before this street", "60")
    _answer(child, "Actions this street", "1 bet 60, seat 7 calls")
    # said at once, under the line; the line keeps the text to correct: wipe back over "7 calls", type "2 calls"
    child.expect(re.escape("action 2: seat 7 is not in the hand (the seats in it: 1, 2, 3)"))
    child.send("\x08" * len("7 calls") + "2 calls\r")
    _answer(child, "Seat of the disputed act", "3")
    _answer(child, "What the player said", "")
    _answer(child, "Chips put out in one motion", "500")
    child.expect(re.escape("Did the player let go of the chips?"))
    _answer(child, "answer (number, s to skip, q to finish)", "perhaps")
    child.expect(re.escape("'perhaps' is not one of the answers; give its number"))
    child.send("\x15" + "1\r")              # Ctrl-U clears the line; 1: yes, he let go
    while child.expect([re.escape("WHAT HAPPENS NOW"), re.escape("QUESTION (")]):
        _answer(child, "answer (number, s to skip, q to finish)", "q")    # a later question: rule as it stands
    child.expect(re.escape("Seat 3 calls $60: $440 goes back to him."))
    _answer(child, "save the incident to", "hand.yaml")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    data = yaml.safe_load((tmp_path / "hand.yaml").read_text())
    assert data["actions"] == [{"seat": 1, "action": "bet", "to": 60}, {"seat": 2, "action": "call"}]
    assert data["game"]["blinds"] == [2, 5] and data["disputed"]["chips"] == [500]
    assert not (tmp_path / "xdg" / "rulings" / "ask-draft.yaml").exists()
    assert "Traceback" not in (tmp_path / "screen.log").read_text()


def test_ctrl_c_in_a_terminal_keeps_the_draft_and_the_next_start_offers_it(tmp_path):
    draft = tmp_path / "xdg" / "rulings" / "ask-draft.yaml"
    child = _spawn(tmp_path)
    _answer(child, "Game, e.g.", "plo 1/2")
    _answer(child, "Seats in the hand and stacks", "1-4")
    child.expect(re.escape("Button seat"))
    child.sendintr()
    child.expect(re.escape(f"what was typed is saved at {draft}"))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert yaml.safe_load(draft.read_text())["typed"] == {"game": "plo 1/2", "players": "1-4"}
    child = _spawn(tmp_path)
    child.expect(re.escape(f"is saved at {draft} (2 answers: game, players)"))
    _answer(child, "Continue it?", "")           # the default: continue
    child.expect(re.escape("continuing the draft: 2 answers kept"))
    child.expect(re.escape("Button seat"))       # the next question, not the first
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and draft.exists()
    assert "Traceback" not in (tmp_path / "screen.log").read_text()



def test_positions_are_read_by_the_button_and_seats_answered_before_them():
    # six seats, the button on 6: UTG is seat 3, the cutoff seat 5, the small blind seat 1
    data, wrong = build({"game": "nl 1/2", "players": "1-6", "button": "6", "street": "pre",
                         "actions": "UTG raises to 6, CO calls, SB folds", "disputed seat": "2", "said": "call",
                         "chips": ""})
    assert wrong == {}
    assert data["actions"] == [{"seat": 3, "action": "raise", "to": 6}, {"seat": 5, "action": "call"},
                               {"seat": 1, "action": "fold"}]


def test_three_handed_utg_is_the_button_and_utg_plus_one_is_refused_with_a_hint():
    # three seats, the button on 3: the button acts first preflop, so UTG is seat 3; the blinds are seats 1 and 2
    data, wrong = build({"game": "nl 1/2", "players": "1-3", "button": "3", "street": "pre",
                         "actions": "UTG raises to 6, SB calls", "disputed seat": "2", "said": "call", "chips": ""})
    assert wrong == {}
    assert data["actions"] == [{"seat": 3, "action": "raise", "to": 6}, {"seat": 1, "action": "call"}]
    _, wrong = build({"game": "nl 1/2", "players": "1-3", "button": "3", "street": "pre",
                      "actions": "UTG+1 raises to 6", "disputed seat": "2", "said": "call", "chips": ""})
    assert "three-handed the button (seat 3) is UTG and the blinds come next; say SB or BB" in str(wrong)


def test_a_ruling_that_hangs_on_the_pot_is_never_given_as_the_ruling(tmp_path):
    """Pot-limit "pot" facing a $50 bet, the pot before the flop not known: "pot binds" is no ruling the floor can
    follow (what it comes to depends on the pot), so the pot is asked with the ruling under each trial amount
    beside it; left unknown, the answer says it is not a ruling yet and the draft is kept. Told $100: a raise to
    $250 (TDA 2024 rule 44's arithmetic: 100 + 50 + the 50 call), ruled, the draft done (issue 45)."""
    typed = ["pl 1/2", "1-3", "3", "flop", "", "1 bet 50", "2", "pot", ""]
    draft = tmp_path / "draft.yaml"
    out = io.StringIO()
    prompts: list[str] = []
    assert run(None, None, None, read=_lines(typed + [""], prompts), out=out, draft=draft) == 0
    text = out.getvalue()
    assert "NOT A RULING YET: it depends on an amount not given." in text
    assert "How much was in the pot when the flop began?" in prompts
    assert "if the pot before the flop was $50: \"Pot\" is a raise of the maximum: $200 in all." in text
    assert "outcome: questions" in text and "NOT A RULING YET: it depends on the questions" in text
    assert draft.exists()                   # not ruled: kept for the answer
    out = io.StringIO()
    assert run(None, None, None, read=_lines(typed + ["100"]), out=out, draft=tmp_path / "fresh.yaml") == 0
    text = out.getvalue()
    assert "Seat 2 raises to $250." in text and "outcome: ruled" in text
    assert not (tmp_path / "fresh.yaml").exists()


def test_a_typed_amount_of_chips_is_confirmed_only_when_its_reading_changes_the_ruling(tmp_path):
    """"300" for the chips reads two ways: one $300 chip, or three $100 chips. Facing the $60 bet it matters: one
    oversized chip silently put out is a call, $240 back (RRP §14 NL 11); three silent chips not all needed for the
    call and adding to a minimum raise make a raise to $300 (the book's multiple-chip rule). So it is asked, each reading's ruling beside it, and the
    answer stands in the ruling and the saved incident. Opening the betting ($300 with nothing to call) both
    readings bet $300: nothing is asked. 500 is a chip's value: one $500 chip, nothing asked (issue 45)."""
    hand = HAND[:-1]
    for pick, ruling, chips in (("1", "The chips make a legal raise: a raise to $300.", [100, 100, 100]),
                                ("2", "One oversized chip is a call of $60; $240 goes back.", [300])):
        out = io.StringIO()
        saved = tmp_path / f"chips-{pick}.yaml"
        prompts: list = []
        assert run(None, None, str(saved), read=_lines([*hand, "300", pick, "q"], prompts), out=out) == 0
        text = out.getvalue()
        assert "The chips typed, $300, read two ways, and the ruling differs:" in text
        assert "  1. three $100 chips: The chips make a legal raise: a raise to $300." in text
        assert "  2. one $300 chip: One oversized chip is a call of $60; $240 goes back." in text
        assert "$300: three $100 chips" in prompts        # the prompt, to its first comma
        assert f"RULING  {ruling}" in text
        assert yaml.safe_load(saved.read_text())["disputed"]["chips"] == chips
    for typed, answers in ((["nl 2/5", "1:1000 2:640 3:815", "3", "flop", "60", "", "1", "", "300"], ["q"]),
                           (HAND, ["q"])):
        out = io.StringIO()
        assert run(None, None, None, read=_lines([*typed, *answers]), out=out) == 0
        assert "read two ways" not in out.getvalue()


def test_a_table_procedure_is_told_by_its_declared_section(tmp_path):
    """Instead of a seat, what the dispute is about: the section's fields are then asked with the questions the
    section declares (rulings/facts/tournament.yaml), the ones it cannot be read without required and the others
    left blank. One round at nine players, 1,000-2,000 with a 2,000 big blind ante (the game line's 'bba 2000'),
    button 9, seat 5: 9 hands, big blind and its ante in hand 3, small blind in hand 4: 5,000 posted meanwhile."""
    from rulings.incident.procedure import declared
    out = io.StringIO()
    prompts: list[str] = []
    fields = declared()["penalty"]["fields"]
    answers = ["nl 1000/2000 bba 2000 tournament", "1-9", "9", "pre", "", "a penalty?", "penalty", "", "5",
               "missed round", "1"]
    answers += [""] * (len(fields) - 3) + ["q"]
    saved = tmp_path / "penalty.yaml"
    assert run(None, None, str(saved), read=_lines(answers, prompts), out=out) == 0
    text = out.getvalue()
    assert "or what the dispute is about: deal, clock" in text    # "a penalty?" is neither a seat nor a section
    assert any(p.startswith("Which player was penalised? (e.g. 4)") for p in prompts)   # the declared question
    assert "penalty.seat is needed: there is no default" in text  # ... and a field it needs is asked again
    assert "misses 9 hands" in text and "hand 3: big blind 2,000 + big blind ante 2,000; hand 4: small blind 1,000: 5,000 in all" in text
    data = yaml.safe_load(saved.read_text())
    assert data["procedure"] == {"penalty": {"seat": 5, "given": "missed_round", "rounds": 1}}
