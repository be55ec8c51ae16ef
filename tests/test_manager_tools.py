"""Tools a manager finds things with: `rulings params`, `rulings explain` on keys and partial names."""
from __future__ import annotations

from cli.main import main


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_params_lists_values_in_plain_words_and_defaults_by_setting(capsys):
    code, out, _ = run(["params", "heads_up"], capsys)
    assert code == 0
    assert out.splitlines()[:5] == [
        "raise_cap.heads_up_exception — When two players left in a limit pot may raise without a cap.",
        "  cash:        before_cap — raising is unlimited once only two players are left, "
        "if that happens before the cap is reached",
        "  tournament:  none — the cap holds even when only two players are left",
        "  default:     before_cap in cash, none in tournament",
        "  allowed:     none, before_cap, at_round_start, before_third_bet",
    ]


def test_params_under_a_house_says_what_the_house_set(capsys):
    code, out, _ = run(["params", "raise_cap.max_raises", "--house", "tda-series"], capsys)
    assert code == 0
    assert "  cash:        4 — a bet and four raises (a five-bet cap)" in out
    assert "  default:     3 in both settings" in out
    assert "this house sets it to 4" in out


def test_params_money_and_percent_are_written_as_set(capsys):
    _, out, _ = run(["params", "silent_raise.threshold"], capsys)
    assert "  cash:        50%" in out and "a whole percent from 1 to 100" in out
    _, out, _ = run(["params", "rounding_unit", "--house", "east-coast-limit"], capsys)
    assert "  cash:        $0" in out and "  tournament:  0" in out


def test_a_money_parameter_s_default_and_house_value_are_written_per_setting_as_its_values_are(tmp_path, capsys):
    """Tournament money is chips, written plain (money.show: '0', '5'), as the tournament: line and the
    reports write it; the default line said '$0 in both settings' under 'tournament:  0'."""
    _, out, _ = run(["params", "pot_limit.rounding_unit"], capsys)
    assert out.splitlines()[1:4] == ["  cash:        $0", "  tournament:  0", "  default:     $0 in cash, 0 in tournament"]
    house = tmp_path / "round-fives.yaml"
    house.write_text("rulebook: round-fives\nextends: standard\ntitle: Round fives\n"
                     "parameters:\n  pot_limit.rounding_unit: 5\n", encoding="utf-8")
    _, out, _ = run(["params", "pot_limit.rounding_unit", "--house", str(house)], capsys)
    assert out.splitlines()[1:5] == ["  cash:        $5", "  tournament:  5", "  default:     $0 in cash, 0 in tournament",
                                     "               this house sets it to $5 in cash, 5 in tournament"]
    _, out, _ = run(["params", "raise_cap.max_raises"], capsys)
    assert "  default:     3 in both settings" in out         # a count is the same word in both settings


def test_params_without_text_lists_every_parameter_and_unknown_text_is_refused(capsys):
    code, out, _ = run(["params"], capsys)
    assert code == 0 and out.count(" — ") > 20 and "kill.size — How big a kill is." in out
    code, _, err = run(["params", "no such thing"], capsys)
    assert code == 2 and "no parameter mentions 'no such thing'" in err


def test_explain_a_citation_key_shows_source_and_the_rules_in_our_words(capsys):
    code, out, _ = run(["explain", "TDA-2024-48"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("TDA-2024-48 — ")
    assert lines[1].startswith("  about: ")
    assert "  cited by:" in lines
    assert any(line.startswith("  raise-caps.") for line in lines)
    assert any(line.startswith("      ") for line in lines)       # a citing rule's text
    assert "  parameter raise_cap.heads_up_exception — " in "\n".join(lines)


def test_explain_a_house_key_from_the_house_book(capsys):
    code, out, _ = run(["explain", "HOUSE-HARBOR-14"], capsys)
    assert code == 0
    assert out.startswith("HOUSE-HARBOR-14 — a house rule of Harbor Poker Series")
    assert "tda-series.raise-at-cap-is-call" in out and "The tournament director" in out
    code, out, _ = run(["explain", "HOUSE-CASCADE-3", "--house", "pnw-lowball"], capsys)
    assert code == 0 and "rulebook pnw-lowball" in out


def test_explain_a_partial_name_lists_what_matches(capsys):
    code, out, _ = run(["explain", "overchip"], capsys)
    assert code == 0
    assert out.startswith("no rule, parameter or citation key is named 'overchip'; 5 contain it:")
    assert "  rule       pot-limit.silent-overchip-is-pot-bet — " in out
    assert "  parameter  overchip.opening — " in out
    code, out, _ = run(["explain", "rrp-pl-"], capsys)
    assert code == 0 and "  citation   RRP-PL-6 — " in out


def test_explain_a_misspelt_name_suggests_the_nearest(capsys):
    code, _, err = run(["explain", "kill.sise"], capsys)
    assert code == 2 and "did you mean 'kill.size'?" in err


def test_explain_finds_house_keys_and_house_rules_without_the_house_option(capsys):
    code, out, _ = run(["explain", "cascade"], capsys)
    assert code == 0 and ("  citation   HOUSE-CASCADE-3 — a house rule of Cascade Club — lowball house rules "
                          "(rulebook pnw-lowball)") in out
    code, out, _ = run(["explain", "half-kill"], capsys)
    assert code == 0 and "  rule       kill-pots.half-kill — " in out
    assert "pnw-lowball.half-kill-after-two-wins — Two pots in a row force a half kill, and the killer acts last " \
           "(rulings explain pnw-lowball.half-kill-after-two-wins --house pnw-lowball)" in out
    code, out, _ = run(["explain", "pnw-lowball.half-kill-after-two-wins"], capsys)
    assert code == 0 and out.startswith("pnw-lowball.half-kill-after-two-wins — ")
    assert "  exception to: kill-pots.two-in-a-row" in out and "(a rule of house book pnw-lowball" in out


def test_explain_a_standard_key_names_the_house_rules_that_also_cite_it(capsys):
    code, out, _ = run(["explain", "TDA-2024-48"], capsys)
    assert code == 0
    house = out[out.index("  also cited in house book tda-series by:"):].splitlines()
    assert house[1:3] == ["  tda-series.raise-at-cap-is-call — A raise attempted after the cap is a call, without exception",
                          "  tda-series.cap-reached — Events are capped at five bets, heads-up included"]


def test_a_house_value_that_differs_between_cash_and_tournaments(tmp_path, capsys):
    """A house book sets the clock per setting, as the standard defaults are given (TDA 2024 rule 29: 25 seconds
    and a 5-second countdown in tournaments; RRP NL 15: a minute and 10 seconds in cash): {cash: 45, tournament:
    30}, and the countdown in tournaments only ({tournament: 10}; cash keeps the standard 10, so the house value
    is 10 in both). lint passes; params, the printed book and the diff say each setting's value; a ruling
    reads the value of its own setting: 56 seconds in cash is out of time (45 + 10), 38 in a tournament is in
    time (30 + 10), where the standard book rules the other way (70 and 30 allowed)."""
    from rulings.report.bookdoc import changes
    from rulings.report.diff import param_changes
    from rulings.ruling import books
    house = tmp_path / "split-room.yaml"
    house.write_text("rulebook: split-room\nextends: standard\ntitle: Split Room\nparameters:\n"
                     "  clock.seconds: {cash: 45, tournament: 30}\n  clock.countdown_seconds: {tournament: 10}\n",
                     encoding="utf-8")
    code, out, _ = run(["lint", str(house)], capsys)
    assert code == 0 and "no problems found" in out
    _, out, _ = run(["params", "clock.seconds", "--house", str(house)], capsys)
    assert out.splitlines()[1:5] == ["  cash:        45", "  tournament:  30", "  default:     60 in cash, 25 in tournament",
                                     "               this house sets it to 45 in cash, 30 in tournament"]
    _, out, _ = run(["params", "clock.countdown_seconds", "--house", str(house)], capsys)
    assert out.splitlines()[1:3] == ["  cash:        10", "  tournament:  10"]
    book = books.load(str(house), compile=False)[0]
    chosen = {p["name"]: p for p in changes(book)["params"]}
    assert chosen["clock.seconds"]["words"].endswith("final countdown: 45; in tournaments, seconds a player put on "
                                                      "the clock has to act, before the final countdown: 30")
    assert chosen["clock.countdown_seconds"]["words"].endswith("out of time: 10")
    diff = {c.name: c for c in param_changes(book, books.load(None, compile=False)[0])}
    assert diff["clock.seconds"].values == {"cash": [60, 45], "tournament": [25, 30]}
    assert diff["clock.countdown_seconds"].values == {"cash": [10, 10], "tournament": [5, 10]}
    for setting, seconds, cash_words, house_words in (("cash", 56, "acted in time", "his hand is dead"),
                                                      ("tournament", 38, "his hand is dead", "acted in time")):
        incident = tmp_path / f"clock-{setting}.yaml"
        incident.write_text(f"game: {{structure: no-limit, setting: {setting}, blinds: [1, 2]}}\nbutton: 1\n"
                            "players: {1: 500, 2: 500, 3: 500, 4: 500}\n"
                            f"procedure: {{clock: {{seat: 4, called_by: floor, facing_bet: true, "
                            f"seconds_taken: {seconds}}}}}\n", encoding="utf-8")
        _, out, _ = run(["rule", str(incident)], capsys)
        assert cash_words in out, out
        _, out, _ = run(["rule", str(incident), "--house", str(house)], capsys)
        assert house_words in out, out
