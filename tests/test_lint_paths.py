"""`rulings lint PATH...` checks every rulebook under each path, whatever the folders are called."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from cli.main import main

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "lint"
BROKEN = ["r101-unknown-key.yaml", "r104-unknown-rule.yaml", "r205-parameter-value.yaml", "y001-malformed.yaml"]


def _lint(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["lint", *args])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out, out.err


def test_a_folder_of_broken_books_fails_and_lists_every_problem(tmp_path, capsys):
    folder = tmp_path / "some-folder" / "deeper"
    folder.mkdir(parents=True)
    for name in BROKEN:
        shutil.copy(GOLDEN / name, folder / name)
    code, out, err = _lint(capsys, str(tmp_path / "some-folder"))
    assert code == 1
    assert out.startswith("4 house books checked (with the standard book they extend), ")
    for name in BROKEN:   # each file's own golden problems, all of them
        expected = (GOLDEN / (Path(name).stem + ".txt")).read_text(encoding="utf-8")
        for code_ in re.findall(r" error ([YR]\d{3}):", expected):
            assert re.search(rf"{re.escape(name)}:\d+:\d+: error {code_}:", err), (name, code_)
    assert err.count(" error ") == sum((GOLDEN / (Path(n).stem + ".txt")).read_text().count(" error ")
                                      for n in BROKEN)


def test_good_books_in_any_folder_pass_and_are_counted(tmp_path, capsys):
    shutil.copytree(ROOT / "rulebooks" / "houses", tmp_path / "club-books")
    code, out, _ = _lint(capsys, str(tmp_path / "club-books"))
    assert (code, out) == (0, "3 house books checked (with the standard book they extend): no problems found\n")
    code, out, _ = _lint(capsys, "--format", "json", str(tmp_path / "club-books"))
    assert code == 0 and json.loads(out) == {"problems": [], "books_checked": 4,   # the standard book too
                                             "house_books_checked": 3, "topic_files_checked": 0}


def test_one_house_book_is_said_to_be_one_with_the_standard_book_it_extends(capsys):
    """A manager linting his one house book read '2 rulebooks checked': the standard book was counted."""
    code, out, _ = _lint(capsys, str(ROOT / "rulebooks" / "houses" / "tda-series.yaml"))
    assert (code, out) == (0, "1 house book checked (with the standard book it extends): no problems found\n")
    code, out, _ = _lint(capsys, "--format", "json", str(ROOT / "rulebooks" / "houses" / "tda-series.yaml"))
    assert json.loads(out) == {"problems": [], "books_checked": 2, "house_books_checked": 1,
                               "topic_files_checked": 0}


def test_the_default_checks_the_installed_books(capsys):
    code, out, _ = _lint(capsys)
    assert (code, out) == (0, "The standard book and 3 house books checked: no problems found\n")


def test_a_folder_with_no_rulebook_is_not_a_pass(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("no books here")
    code, _, err = _lint(capsys, str(tmp_path / "empty"))
    assert code == 1 and "error R001: no rulebook (*.yaml) in this folder" in err


def test_an_edited_copy_of_a_standard_topic_is_checked_in_its_place(tmp_path, capsys):
    topic = tmp_path / "pot-limit.yaml"
    text = (ROOT / "rulebooks" / "standard" / "pot-limit.yaml").read_text(encoding="utf-8")
    topic.write_text(text, encoding="utf-8")
    code, out, _ = _lint(capsys, str(topic))
    assert (code, out) == (0, "1 topic file checked (with the rest of the standard book): no problems found\n")
    topic.write_text(text.replace("cites: [RRP-PL-6", "cites: [RRP-PL-66", 1), encoding="utf-8")
    code, _, err = _lint(capsys, str(topic))
    assert code == 1 and "error R105: unknown citation key 'RRP-PL-66'" in err


def test_incident_files_beside_house_books_are_skipped_and_named(tmp_path, capsys):
    """A first-time manager linted a folder holding his house book and his incidents: 44 R106 errors and
    '47 rulebooks checked'. Incidents are told apart (a game: and no rulebook:/extends:/topic:)."""
    shutil.copy(ROOT / "rulebooks" / "houses" / "tda-series.yaml", tmp_path / "tda-series.yaml")
    for name in ("pl-oversize-raise.yaml", "showdown-misread.yaml", "kill-scoop.yaml"):
        shutil.copy(ROOT / "examples" / "incidents" / name, tmp_path / name)
    code, out, err = _lint(capsys, str(tmp_path))
    assert code == 0 and out.startswith("1 house book checked (with the standard book it extends): no problems found")
    assert "R106" not in err
    assert "skipped 3 incident files" in err and "showdown-misread.yaml" in err
    code, out, err = _lint(capsys, "--format", "json", str(tmp_path))
    data = json.loads(out)
    assert data["books_checked"] == 2 and data["house_books_checked"] == 1 and len(data["incidents_skipped"]) == 3


def test_a_folder_of_incidents_only_is_not_a_pass(tmp_path, capsys):
    shutil.copy(ROOT / "examples" / "incidents" / "kill-scoop.yaml", tmp_path / "kill-scoop.yaml")
    code, out, err = _lint(capsys, str(tmp_path))
    assert code == 1 and "R001" in err and "only 1 incident file(s)" in err
    assert out == "No rulebook checked but the standard book, 1 problem\n"


def test_a_house_value_per_setting_is_checked_setting_by_setting(tmp_path, capsys):
    """clock.seconds defaults to 60 in cash games and 25 in tournaments (TDA 29, RRP NL 15); a house book may
    set it per setting as the standard defaults are ({cash: 45, tournament: 30}): each value is checked as a
    single value is, and a mapping of anything but cash: and tournament: is refused with what to write."""
    book = tmp_path / "club.yaml"
    book.write_text("rulebook: club\nextends: standard\ntitle: Club\nparameters:\n"
                    "  clock.seconds: {cash: 45, tournament: 300}\n  clock.countdown_seconds: {tourney: 10}\n",
                    encoding="utf-8")
    code, _, err = _lint(capsys, str(book))
    assert code == 1
    assert "club.yaml:5:41: error R205: clock.seconds must be a whole number from 1 to 100, not 300" in err
    assert ("club.yaml:6:28: error R106: a value per setting is a mapping of cash: and tournament: to one value "
            "each, not tourney") in err
    assert "2 problems found" in err
