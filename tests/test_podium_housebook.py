"""House books published from the podium: only a version that loads and passes its tests goes live; all are kept."""
import re

from rulings.service.store.housebook import HouseBooks, set_parameter


def test_a_half_kill_draft_checks_clean_and_its_diff_shows_the_40_dollar_kill_become_30(tmp_path):
    hb = HouseBooks(tmp_path)
    draft = set_parameter(hb.text("east-coast-limit"), "kill.size", "half")
    assert "  kill.size: half\n" in draft and draft.startswith("# An East Coast limit room")   # comments kept
    check = hb.check("east-coast-limit", draft)
    assert check.ok, (check.problems, check.failures)
    assert [p["name"] for p in check.diff["parameters"]] == ["kill.size"]
    assert check.diff["rules"] == []            # the house rules are the same, wherever the draft is read from
    big_pot = next(e for e in check.diff["examples"] if e["example"] == "a $401 pot in $20/$40 forces its winner "
                                                                          "to kill for $40")
    assert any("kill_blind $40" in r for r in big_pot["before"]) and any("kill_blind $30" in r for r in big_pot["after"])
    assert big_pot["causes"] == ["parameter kill.size (full -> half)"]     # the same words as rulings diff
    assert all(e["causes"] == ["parameter kill.size (full -> half)"] for e in check.diff["examples"])


def test_an_existing_parameter_is_changed_in_place(tmp_path):
    text = "rulebook: x\nextends: standard\ntitle: X\nparameters:\n  kill.size: full   \n  kill.mode: required\n"
    assert set_parameter(text, "kill.size", "half").splitlines()[4] == "  kill.size: half"


def test_a_draft_with_a_bad_value_is_refused_at_its_line_and_never_goes_live(tmp_path):
    hb = HouseBooks(tmp_path)
    before = hb.text("east-coast-limit")
    bad = set_parameter(before, "kill.size", "halve")
    check, info = hb.publish("east-coast-limit", bad, "manny")
    assert info is None and not check.ok
    (p,) = check.problems
    line = bad.splitlines().index("  kill.size: halve") + 1     # the new value's own line, after the book's others
    assert (p.line, p.code) == (line, "R205") and "'halve' is not an allowed value of kill.size" in p.message
    assert hb.live_path("east-coast-limit") is None and hb.text("east-coast-limit") == before


def test_a_draft_whose_own_example_fails_is_not_published(tmp_path):
    hb = HouseBooks(tmp_path)
    text = hb.text("pnw-lowball").replace("kill_blind: 6, kill_small_bet: 6", "kill_blind: 7, kill_small_bet: 6", 1)
    check, info = hb.publish("pnw-lowball", text, "manny")
    assert info is None and check.failures and check.failures[0]["rule"] == "pnw-lowball.half-kill-after-two-wins"


def test_publishing_keeps_every_version_and_the_live_one_is_the_last(tmp_path):
    hb = HouseBooks(tmp_path)
    first = hb.text("east-coast-limit")
    half = set_parameter(first, "kill.size", "half")
    _, v1 = hb.publish("east-coast-limit", half, "manny", "half kill")
    full = set_parameter(half, "kill.size", "full")
    _, v2 = hb.publish("east-coast-limit", full, "manny")
    assert (v1["version"], v2["version"]) == (1, 2)
    versions = hb.versions("east-coast-limit")
    assert [v["version"] for v in versions] == [2, 1, 0] and [v["live"] for v in versions] == [True, False, False]
    assert hb.text("east-coast-limit") == full
    assert hb.version_text("east-coast-limit", versions[1]["hash"]) == half
    assert hb.version_text("east-coast-limit", versions[2]["hash"]) == first


def test_a_name_that_is_not_a_house_book_name_is_refused(tmp_path):
    hb = HouseBooks(tmp_path)
    assert hb.check("../etc", "rulebook: x").problems[0].code == "P001"
    assert hb.live_path("../../x") is None


def _everything_shown(check) -> str:
    import json
    return json.dumps([p.to_json() for p in check.problems]) + json.dumps(check.failures) + json.dumps(check.diff)


def test_the_editor_names_the_book_s_own_file_never_the_server_s_folders(tmp_path, monkeypatch):
    """A manager at the podium saw '/tmp/rulings-draft-…/pnw-lowball.yaml:39' and the repository's absolute
    path: the server's folders. He reads the book's own name, and the standard book's file under standard/."""
    from pathlib import Path
    repo = Path(__file__).resolve().parents[1]
    monkeypatch.chdir(tmp_path)                 # a server started outside the repository: paths would be absolute
    hb = HouseBooks(tmp_path / "data")
    text = hb.text("pnw-lowball")
    typo = text.replace("  - rule: kill-pots.split-resets-leg-arizona", "  - rule: kill-pots.split-resets-leg-arizonx")
    (p,) = hb.check("pnw-lowball", typo).problems
    assert (p.file, p.line, p.code) == ("pnw-lowball.yaml", 12, "R104")
    assert p.hint == "did you mean 'kill-pots.split-resets-leg-arizona' (standard/kill-pots.yaml:640)?"
    first = text.split("rules:\n", 1)[1].split("\n  - id:", 1)[0].split("\n\n# ", 1)[0]   # not the citations: after it
    twice = text.replace("rules:\n", "rules:\n" + first + "\n", 1)
    dup = [p for p in hb.check("pnw-lowball", twice).problems if p.code == "R103"]
    assert dup and "it is first defined at pnw-lowball.yaml:17" in dup[0].hint
    failing = text.replace("kill_blind: 6, kill_small_bet: 6", "kill_blind: 7, kill_small_bet: 6", 1)
    check = hb.check("pnw-lowball", failing)
    assert check.failures[0]["origin"] == "pnw-lowball.yaml:39"
    assert check.diff["rules"][0]["detail"] == "was pnw-lowball.yaml:17"
    assert check.diff["rules"][0]["origin"] == "pnw-lowball.yaml:17"
    half = set_parameter(hb.text("east-coast-limit"), "kill.size", "half")
    shown = _everything_shown(check) + _everything_shown(hb.check("east-coast-limit", half))
    assert re.search(r"(?<![/\w])standard/kill-pots\.yaml:\d+", shown)   # the book's own name, never a folder
    _, info = hb.publish("pnw-lowball", text, "manny")        # now the diff is against a published version
    check = hb.check("pnw-lowball", failing)
    assert info and check.diff["rules"][0]["detail"] == "was pnw-lowball/0001.yaml:17"
    shown += _everything_shown(check)
    for folder in (str(repo), str(tmp_path), "rulings-draft-", "/tmp/"):
        assert folder not in shown, folder


def test_a_draft_citing_an_undescribed_house_key_checks_ok_with_the_warning_apart(tmp_path):
    """R607 (what `rulings lint` warns of) is shown by the editor apart from errors, and does not stop a publish."""
    hb = HouseBooks(tmp_path)
    text = hb.text("pnw-lowball")
    warned = text.replace("RRP-KILL-10, HOUSE-CASCADE-3]", "RRP-KILL-10, HOUSE-CASCADE-33]", 1)
    assert warned != text
    check = hb.check("pnw-lowball", warned, with_diff=False)
    assert check.ok and not check.problems, check.problems
    (w,) = check.warnings
    assert (w.code, w.severity, w.file) == ("R607", "warning", "pnw-lowball.yaml")
    assert "HOUSE-CASCADE-33" in w.message and "HOUSE-CASCADE-33]" in warned.splitlines()[w.line - 1]
    assert hb.check("pnw-lowball", text, with_diff=False).warnings == []


def test_the_diff_against_standard_is_grouped_by_cause(tmp_path):
    """east-coast-limit against the standard book: two house exceptions, six parameters; kill.trigger
    (consecutive wins -> a pot over a set size) alone changes 53 examples, and 3 more with another change."""
    from rulings.service.podium.book_pages import diff_groups
    hb = HouseBooks(tmp_path)
    check = hb.standard_diff("east-coast-limit")
    assert hb.standard_diff("east-coast-limit") is check          # one check per version
    groups = {g["id"]: g for g in diff_groups(check.diff)}
    assert list(groups) == ["added", "changed", "off", "parameters"]
    assert [c["name"] for c in groups["added"]["changes"]] == ["east-coast-limit.heads-up-from-round-start",
                                                                "east-coast-limit.split-big-pot-no-kill"]
    assert groups["changed"]["changes"] == [] and groups["off"]["changes"] == []
    params = {c["name"]: c for c in groups["parameters"]["changes"]}
    assert len(params) == 6 and groups["parameters"]["examples"] == 135   # 132 + the stud cap's 3 (raise_cap.max_raises)
    trigger = params["kill.trigger"]["examples"]
    assert len(trigger) == 56 and sum(1 for e in trigger if not e["others"]) == 53
    assert len(check.diff["examples"]) == 136      # each example once in the diff, under each of its causes here
