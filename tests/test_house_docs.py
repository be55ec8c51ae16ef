"""`rulings diff` and `rulings book` for the example house books: golden files, and the posted HTML's content.

Set RULINGS_UPDATE_GOLDEN=1 to rewrite the golden files after a deliberate
change to a house book or to the standard book, then read the diff.
"""
from __future__ import annotations

import json
import os
import re
from html import unescape
from pathlib import Path

import pytest

from cli.main import main

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
HOUSES = sorted(p.stem for p in (ROOT / "rulebooks" / "houses").glob("*.yaml"))
UPDATE = os.environ.get("RULINGS_UPDATE_GOLDEN") == "1"


def run(args, capsys) -> str:
    assert main(args) == 0
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return out.out


def compare(expected: Path, got: str) -> None:
    if UPDATE:
        expected.parent.mkdir(parents=True, exist_ok=True)
        expected.write_text(got, encoding="utf-8")
    assert expected.exists(), f"no golden file {expected}; run with RULINGS_UPDATE_GOLDEN=1"
    assert got == expected.read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    monkeypatch.chdir(ROOT)   # paths in the output are relative to the repository


@pytest.mark.parametrize("house", HOUSES)
def test_diff_golden(house, capsys):
    compare(GOLDEN / "diff" / f"{house}.txt", run(["diff", house], capsys))


@pytest.mark.parametrize("house", HOUSES)
def test_diff_json_golden(house, capsys):
    out = run(["diff", house, "--format", "json"], capsys)
    data = json.loads(out)
    assert data["contract"] == "rulings.diff/1" and data["book"] == house and data["against"] == "standard"
    compare(GOLDEN / "diff" / f"{house}.json", out)


@pytest.mark.parametrize("house", HOUSES)
def test_book_markdown_golden(house, capsys):
    compare(GOLDEN / "book" / f"{house}.md", run(["book", house, "--format", "markdown"], capsys))


def test_diff_of_a_house_against_itself_is_empty(capsys):
    out = run(["diff", "tda-series", "--against", "tda-series"], capsys)
    assert "Parameters changed: none" in out and "whose ruling changes: none" in out


def test_tda_2024_48_diff_shows_the_cap_in_plain_words_and_both_rulings(capsys):
    out = run(["diff", "tda-series"], capsys)
    assert "raise_cap.max_raises — " in out
    assert "    a bet and three raises (a four-bet cap)\n    -> a bet and four raises (a five-bet cap)" in out
    assert "reason: TDA 2024 rule 54-B sizes every preflop pot" in out
    # under the five-bet cap the fourth bet leaves one raise: the player is told he may make it
    assert ("    standard   | raise-caps.cap-reached: capped (to_call $40, call_to $80)\n"
            "    tda-series | options.reopened-by-full-raise: options-reopened (to_call $40, min_raise_to $100, call_to $80)"
            ) in out


def test_book_html_is_self_contained_and_printable(tmp_path, capsys):
    target = tmp_path / "tda.html"
    run(["book", "tda-series", "-o", str(target)], capsys)
    html = target.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "@media print" in html
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", html)   # nothing fetched from elsewhere
    assert "<h1>Harbor Poker Series — tournament rules (TDA 2024)</h1>" in html
    assert "<h2>Raise caps, the heads-up exception, and reopening the betting in limit games</h2>" in html
    assert "a bet and four raises (a five-bet cap)" in html
    assert "the cap holds even when only two players are left" in html
    # every rule in force in this room, its text and its citations; no other
    from rulings.ruling import books
    from rulings.report.bookdoc import in_force
    book = books.load("tda-series", compile=False)[0]
    assert html.count('<div class="rule"') == sum(in_force(book, r) for r in book.rules.values()) < len(book.rules)
    assert "A raise attempted after the cap is a call, without exception" in html
    assert "house rule of tda-series</span>, replacing <code>raise-caps.raise-at-cap-is-call</code>" in html
    assert ("Sources: Poker TDA Rules 2024, rule 48 (TDA-2024-48); house rule HOUSE-HARBOR-14, Harbor series rule 14: "
            "a raise once the cap is reached is a call.</p>") in html   # the house key with its book's text
    assert "<code>pot-limit.small-blind-as-big-blind</code>: TDA 2024 rule 54-B" in html


def test_the_printed_book_leads_with_the_room_s_changes_and_prints_no_rule_out_of_force(capsys):
    """east-coast-limit's kill is forced by a pot over ten big bets (kill.trigger: pot_size, kill.mode:
    required): the rules for kills after two wins in a row, and for voluntary kills, cannot apply there."""
    out = run(["book", "east-coast-limit", "--format", "markdown"], capsys)
    first, rest = out.split("\n## What this room changes\n", 1)[1].split("\n## ", 1)
    assert "- **What forces a kill:** the winner of a pot over a set size kills. (The standard rulebook: a player " \
           "who wins two pots in a row kills" in first
    assert "### A big pot that is split forces no kill" in first and "house rule HOUSE-BOARDWALK-9" in first
    assert "### A big pot that is split forces no kill" not in rest          # printed once, in the lead
    body, unused = rest.split("\n## Rules this room does not use\n")
    for rid in ("kill-pots.two-in-a-row", "kill-pots.voluntary-before-cards", "button.dead-button"):
        assert f"Rule `{rid}`" not in body and f"- `{rid}`: " in unused     # named for staff, not printed
    assert "Rule `kill-pots.pot-size-trigger`" in body                       # the room's own trigger is
    assert "(set by kill.trigger)" in unused
    from rulings.ruling import books
    from rulings.report.bookdoc import in_force
    book = books.load("east-coast-limit", compile=False)[0]
    assert not in_force(book, book.rules["kill-pots.two-in-a-row"])
    assert in_force(books.load("pnw-lowball", compile=False)[0], book.rules["kill-pots.two-in-a-row"])


def test_book_escapes_html_in_house_text(tmp_path, capsys):
    house = tmp_path / "x.yaml"
    house.write_text("rulebook: x\nextends: standard\ntitle: Fish & <Chips> room\n")
    out = run(["book", str(house)], capsys)
    assert "<h1>Fish &amp; &lt;Chips&gt; room</h1>" in out


@pytest.mark.parametrize("fmt", ["markdown", "html"])
@pytest.mark.parametrize("name", ["standard", *HOUSES])
def test_book_quotes_sources_as_reports_do_with_the_keys_for_staff(name, fmt, capsys):
    """A printed book names each source the way a ruling quotes it, the citation keys in parentheses for
    staff, and none of the catalogue's notes for us (how sure a number is, the seed documents' numbers)."""
    from rulings.ruling import books
    from rulings.rulebook.catalogue import citations
    from rulings.report.render import quote_all
    from test_floor import INTERNAL
    out = unescape(run(["book", name, "--format", fmt], capsys))
    end = "</p>" if fmt == "html" else ""
    printed = re.findall(rf"Sources: (.*)\.{end}$", out, flags=re.M)
    from rulings.report.bookdoc import in_force
    book = books.load(None if name == "standard" else name, compile=False)[0]
    rules = [r for r in book.rules.values() if in_force(book, r)]
    assert len(printed) == len(rules)
    keys = re.compile(r" \(([A-Z][A-Za-z0-9./-]*(?:, [A-Z][A-Za-z0-9./-]*)*)\)|house rule (HOUSE-[A-Z0-9-]+)")   # RRP-MISDEAL-1a
    shown = set()
    for line in printed:
        assert not INTERNAL.search(keys.sub("", line)), line
        shown |= {k for m in keys.finditer(line) for k in (m.group(1) or m.group(2)).split(", ")}
    assert shown == {k for r in rules for k in r.cites}   # every key cited, house keys too
    assert all(k in citations() or k.startswith("HOUSE-") for k in shown)
    rule = book.rules["pot-limit.silent-overchip-is-pot-bet"]
    expected = quote_all(list(rule.cites), with_keys=True)
    assert ("Robert's Rules of Poker, card-room edition, §14 PL rule 6 (RRP-PL-6)" in expected
            and f"Sources: {expected}." in out)
