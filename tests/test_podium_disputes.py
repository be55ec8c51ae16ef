"""Five kinds of dispute on the floor page, at a phone's size (390x844) and a landscape tablet's (1024x768), in a
real headless Chromium against the real service (issue 45): each from the empty form to a logged ruling the floor
can act on in at most 10 taps (the stacks, amounts and action lines typed are counted apart, as keys), with no
sideways scroll, WHAT HAPPENS NOW inside the first screen once the ruling is shown, and WHAT HAPPENS NOW as the
command line gives it for the same incident. The test prints each count (``pytest -s`` shows them).

And a ruling that hangs on an answer not given (pot-limit "pot" with the pot before the flop unknown) is shown with
the ruling under each answer and is not logged, even when "log it" is asked for (issue 45).

The amounts are the sources': RRP-PL-6's silent $500 chip into an $80 pot is an $80 bet with $420 back; "pot"
facing a $50 bet into $100 is a raise to $250 (TDA 2024 rule 44's arithmetic); a check out of turn with nothing
bet stands (TDA 2024 rule 53); "raise" with one oversized chip is a raise when said first (TDA 2024 rule 45);
a caller may see the river bettor's hand (RRP §3 Showdown 5).
"""
from __future__ import annotations

import re

import pytest

from podium_browser import (ROOT, Taps, button_seat, disputed_seat, log_in, ruled, seat, shoot,
                            street, watched_page)
from test_podium_floor import cli_now

SIZES = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 1024, "height": 768}}
DOCS = ROOT / "docs"


def _game(page, taps: Taps, label: str) -> None:
    taps.tap(page.get_by_role("button", name=label), f"game {label}")


def _typed(page, taps: Taps, label: str, text: str) -> None:
    taps.tap(page.get_by_label(label), f"field {label}")
    taps.keys(text)


PL = {"variant": "holdem", "structure": "pot-limit", "setting": "cash", "blinds": [1, 2]}
NL = {"variant": "holdem", "structure": "no-limit", "setting": "cash", "blinds": [1, 2]}


def silent_oversize_chip(page, taps: Taps) -> None:
    _game(page, taps, "PL Hold'em $1/$2")
    for n in (2, 3):
        taps.tap(seat(page, n), f"seat {n}")
    taps.tap(button_seat(page, 3), "button 3")
    taps.tap(street(page, "flop"), "flop")
    _typed(page, taps, "Pot before it", "80")
    taps.tap(seat(page, 1), "seat 1")
    assert page.locator("#table-says").inner_text() == "Seat 1 to act"        # the page knows who acts next
    taps.tap(page.get_by_role("button", name="Add a $500 chip"), "$500 chip (seat 1's: the seat to act)")
    assert page.locator('input[name="d_seat"][value="1"]').is_checked()


def pot_limit_pot(page, taps: Taps) -> None:
    _game(page, taps, "PL Hold'em $1/$2")
    taps.tap(seat(page, 3), "seat 3")
    taps.tap(button_seat(page, 3), "button 3")
    taps.tap(street(page, "flop"), "flop")
    _typed(page, taps, "Pot before it", "100")
    _typed(page, taps, "Action this street", "1 bet 50")
    taps.tap(seat(page, 2), "seat 2")
    assert page.locator("#table-says").inner_text() == "Seat 2 to act"
    taps.tap(page.locator('button[data-said="pot"]'), "said pot (seat 2's: the seat to act)")


def out_of_turn(page, taps: Taps) -> None:
    _game(page, taps, "NL Hold'em $1/$2")
    for n in (1, 2, 4):
        taps.tap(seat(page, n), f"seat {n}")
    taps.tap(button_seat(page, 4), "button 4")
    taps.tap(street(page, "flop"), "flop")
    _typed(page, taps, "Pot before it", "40")
    taps.tap(disputed_seat(page, 3), "disputed seat 3")
    taps.tap(page.locator('button[data-said="check"]'), "said check")


def verbal_raise_one_chip(page, taps: Taps) -> None:
    _game(page, taps, "NL Hold'em $1/$2")
    taps.tap(seat(page, 2), "seat 2")
    taps.tap(button_seat(page, 3), "button 3")
    taps.tap(seat(page, 1), "seat 1")
    _typed(page, taps, "Action this street", "3 raise 6")
    assert page.locator("#table-says").inner_text() == "Seat 1 to act"
    assert page.locator(".spot-1 .marks").inner_text().split() == ["SB", "NEXT"]
    taps.tap(page.locator('button[data-said="raise"]'), "said raise (seat 1's: the seat to act)")
    taps.tap(page.get_by_role("button", name="Add a $100 chip"), "$100 chip")


def showdown_request(page, taps: Taps) -> None:
    _game(page, taps, "NL Hold'em $1/$2")
    taps.tap(button_seat(page, 2), "button 2")
    taps.tap(street(page, "river"), "river")
    _typed(page, taps, "Pot before it", "100")
    _typed(page, taps, "Action this street", "1 bet 50, 2 call")
    taps.tap(page.locator("#showdown > summary"), "open the showdown request")
    taps.tap(page.locator('[data-tap="sd-asker-2"]'), "seat 2 asks")
    taps.tap(page.locator('[data-tap="sd-asked-1"]'), "seat 1's hand")


# each dispute: how it is tapped, the answer tapped when the page asks one (the words of the answer), and the
# incident `rulings rule` is given for the same hand
DISPUTES = {
    "silent-oversize-chip": (silent_oversize_chip, "Yes", {
        "game": PL, "button": 3, "players": {1: None, 2: None, 3: None}, "street": "flop", "pot": 80,
        "actions": [], "disputed": {"seat": 1, "chips": [500], "released": True}}),
    "pot-limit-pot": (pot_limit_pot, None, {
        "game": PL, "button": 3, "players": {1: None, 2: None, 3: None}, "street": "flop", "pot": 100,
        "actions": [{"seat": 1, "action": "bet", "to": 50}], "disputed": {"seat": 2, "said": "pot"}}),
    "out-of-turn": (out_of_turn, None, {
        "game": NL, "button": 4, "players": {1: None, 2: None, 3: None, 4: None}, "street": "flop", "pot": 40,
        "actions": [], "disputed": {"seat": 3, "said": "check"}}),
    "verbal-raise-one-chip": (verbal_raise_one_chip, "the words came first", {
        "game": NL, "button": 3, "players": {1: None, 2: None, 3: None}, "street": "preflop",
        "actions": [{"seat": 3, "action": "raise", "to": 6}],
        "disputed": {"seat": 1, "said": "raise", "chips": [100], "words_first": "words"}}),
    "showdown-request": (showdown_request, "Yes", {
        "game": NL, "button": 2, "players": {1: None, 2: None}, "street": "river", "pot": 100,
        "actions": [{"seat": 1, "action": "bet", "to": 50}, {"seat": 2, "action": "call"}],
        "procedure": {"showdown": {"asker": 2, "asked_to_see": 1, "asker_kept_cards": True}}}),
}
COUNTS: dict[tuple[str, str], tuple[int, int]] = {}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("name", list(DISPUTES))
def test_a_dispute_reaches_a_logged_ruling_in_10_taps(browser, server, name, size, tmp_path):
    drive, answer, incident = DISPUTES[name]
    viewport = SIZES[size]
    touch = {"has_touch": True, "is_mobile": True} if size == "phone" else {}
    with watched_page(browser, viewport=viewport, **touch) as page:
        log_in(page, server.url, "fiona")
        taps = Taps(page)
        drive(page, taps)
        taps.tap(page.get_by_role("button", name="Rule", exact=True), "rule")
        ruled(page)
        if answer is not None:       # the one question whose answer changes the ruling: one tap rules again
            assert page.locator("#result .decision").count() == 0            # not logged while it hangs on it
            words = page.locator("#result .questions label.answer strong", has_text=re.compile(f"^{answer}$"))
            taps.tap(words.first, f"answer: {answer}")
            page.locator('#result[data-step="whole"] .decision').wait_for()
        result = page.locator("#result")
        assert result.get_attribute("data-outcome") == "ruled"
        assert result.locator(".decision a").count() == 1                   # logged
        COUNTS[(name, size)] = (taps.count, taps.typed)
        print(f"\n{name} at {size} ({viewport['width']}x{viewport['height']}): {taps.count} taps to the logged "
              f"ruling, {taps.typed} keys typed: {taps.log}")
        assert taps.count <= 10, taps.log
        # nothing runs off the side; WHAT HAPPENS NOW is on the first screen the ruling shows
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        box = page.locator("#result ul.now, #result p.now").first.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 120) <= viewport["height"], box
        lines = page.locator("#result ul.now li").all_inner_texts()
        assert lines == cli_now({"incident": name, **incident}, tmp_path)
        # the floor page says nothing of rule ids, citation keys or the rules' files
        text = result.inner_text()
        assert not re.search(r"\b[a-z-]+\.[a-z-]+-[a-z-]+\b", text.replace("e.g.", "")) or ".yaml" not in text
        assert ".yaml:" not in text and "asked by" not in text and "For staff" not in text
        shoot(page, f"dispute-{name}-{size}")
        if name == "pot-limit-pot":      # the docs' pictures: the first screen after the ruling, at both sizes
            page.screenshot(path=str(DOCS / f"podium-floor-{size}.png"))
        taps.tap(result.get_by_role("button", name="Followed the ruling"), "followed")
        page.wait_for_url(re.compile(r".*/podium/log/\d+\?recorded=followed$"))


def test_a_ruling_that_hangs_on_the_pot_is_shown_with_each_answer_and_never_logged(browser, server):
    """Pot-limit "pot" facing a $50 bet, the pot before the flop not typed: the ruling depends on it. The page
    says it is not a ruling yet, gives the ruling under each trial pot, offers no log button, and asked to log
    it anyway (the form's own "record") logs nothing; the pot typed, it is ruled and logged."""
    with watched_page(browser, viewport=SIZES["phone"], has_touch=True, is_mobile=True) as page:
        log_in(page, server.url, "fiona")
        page.goto(server.url + "/podium/log")
        logged = page.locator("#log-table tbody tr").count()
        page.goto(server.url + "/podium")
        taps = Taps(page)
        _game(page, taps, "PL Hold'em $1/$2")
        taps.tap(seat(page, 3), "seat 3")
        taps.tap(button_seat(page, 3), "button 3")
        taps.tap(street(page, "flop"), "flop")
        _typed(page, taps, "Action this street", "1 bet 50")
        taps.tap(disputed_seat(page, 2), "disputed seat 2")
        taps.tap(page.locator('button[data-said="pot"]'), "said pot")
        page.get_by_role("button", name="Rule", exact=True).click()
        ruled(page)
        result = page.locator("#result")
        assert result.get_attribute("data-outcome") == "questions"
        assert "Not a ruling yet." in result.locator(".flash").first.inner_text()
        under = result.locator(".open-question li").all_inner_texts()
        assert under and under[0].startswith('If the pot before the flop was $50: "Pot" is a raise of the maximum')
        assert result.get_by_role("button", name=re.compile("Log it")).count() == 0
        assert result.locator(".decision").count() == 0
        shoot(page, "dispute-pot-unknown")
        # the form posted with "record" all the same (an old page, a hand-made post): nothing is logged
        page.evaluate("""() => { const f = document.getElementById('hand'); const i = document.createElement('input');
                                 i.type = 'hidden'; i.name = 'go'; i.value = 'followed'; f.appendChild(i);
                                 HTMLFormElement.prototype.submit.call(f); }""")
        page.locator("#result").wait_for()
        assert "Not logged:" in page.locator("#result").inner_text()
        assert page.locator("#result .decision").count() == 0
        page.goto(server.url + "/podium/log")
        assert page.locator("#log-table tbody tr").count() == logged


EXAMPLES = ROOT / "examples" / "incidents"
FITS_GAME = {"variant", "structure", "setting", "blinds", "bet_sizes", "ante"}
FITS = {"incident", "note", "game", "button", "players", "street", "pot", "actions", "disputed", "noticed",
        "pointed_out_by"}


def _fits(incident: dict) -> str | None:
    """Why an example incident cannot be typed into the floor form (None: it can)."""
    if set(incident) - FITS:
        return f"sections the form has no field for: {sorted(set(incident) - FITS)}"
    if set(incident.get("game") or {}) - FITS_GAME or not isinstance(incident.get("players"), dict):
        return "a game or seats the form does not take"
    disputed = incident.get("disputed")
    if not isinstance(disputed, dict) or {"motions", "chips_total"} & set(disputed):
        return "a disputed act the form does not take (chips in several motions)"
    return None


def _answer_what_the_example_says(page, disputed: dict) -> set:
    """The page asks what the form has no field for (who spoke first, whether the chips were released ...):
    each question whose answer the example gives is answered with it, one tap each, until none is left. The
    facts so answered."""
    told = {k: ("true" if v is True else "false" if v is False else str(v)) for k, v in disputed.items()
            if k not in ("seat", "said", "chips")}
    answered: set = set()
    for _ in range(len(told) + 1):
        asked = [n[2:] for n in page.locator('#result input[type="radio"][name^="a."]').evaluate_all(
            "els => [...new Set(els.map(e => e.name))]")]
        todo = [f for f in asked if f in told and f not in answered]
        if not todo:
            break
        page.locator(f'#result input[name="a.{todo[0]}"][value="{told[todo[0]]}"]').locator("..").click()
        ruled(page)
        answered.add(todo[0])
    return answered


DUE = {"nl-bet-out-of-turn": 3}


def _line(actions: list) -> str:
    return ", ".join(f"{a['seat']} {a['action']}" + (f" {a['to']}" if a.get("to") is not None else "")
                     for a in actions)


def test_every_example_that_fits_the_form_says_what_happens_now_as_the_command_line_does(browser, server, tmp_path):
    """Each example incident the floor form can hold, entered through the form in the browser, gives the
    WHAT HAPPENS NOW lines `rulings rule` prints for the file (who acts next and what he faces): the page
    places the button, blinds and seats as the reader does."""
    import yaml
    fitted, skipped = [], {}
    for path in sorted(EXAMPLES.glob("*.yaml")):
        incident = yaml.safe_load(path.read_text(encoding="utf-8"))
        why = _fits(incident)
        if why:
            skipped[path.stem] = why
            continue
        fitted.append(path.stem)
        with watched_page(browser, viewport=SIZES["tablet"]) as page:
            log_in(page, server.url, "fiona")
            game = incident.get("game") or {}
            page.get_by_label("Game", exact=True).select_option(game.get("variant", "holdem"))
            page.get_by_label("Betting").select_option(game.get("structure", "no-limit"))
            page.get_by_label("Setting").select_option(game.get("setting", "cash"))
            page.get_by_label("Stakes").fill("")
            page.locator("#more-game > summary").click()
            blinds = game.get("blinds") or ([1, 2] if "structure" not in game else [])
            if blinds:
                page.get_by_label("Small blind").fill(str(blinds[0]))
                page.get_by_label("Big blind", exact=True).fill(str(blinds[-1]))
            if game.get("bet_sizes"):
                page.get_by_label("Small bet").fill(str(game["bet_sizes"][0]))
                page.get_by_label("Big bet").fill(str(game["bet_sizes"][1]))
            if game.get("ante"):
                page.get_by_label("Ante").fill(str(game["ante"]))
            for n, stack in incident["players"].items():
                seat(page, int(n)).click()
                if stack is not None:
                    page.get_by_label(f"Seat {n} stack").fill(str(stack))
            button_seat(page, int(incident["button"])).click()
            street(page, incident.get("street", "preflop")).click()
            if incident.get("pot") is not None:
                page.get_by_label("Pot before it").fill(str(incident["pot"]))
            page.get_by_label("Action this street").fill(_line(incident.get("actions") or []))
            d = incident["disputed"]
            disputed_seat(page, int(d["seat"])).click()
            if d.get("said"):
                page.get_by_label("What he said").fill(str(d["said"]))
            if d.get("chips"):
                page.get_by_label("Chips put out").fill(" ".join(str(c) for c in d["chips"]))
            if incident.get("noticed") or incident.get("pointed_out_by"):
                page.locator("#timing > summary").click()
                if incident.get("noticed"):
                    page.get_by_label("When it was noticed").select_option(incident["noticed"])
                if incident.get("pointed_out_by"):
                    page.get_by_label("Pointed out by").select_option(incident["pointed_out_by"])
            # the felt names the seat whose turn it is: the disputed seat's, but for the act out of turn (seat 3
            # was due when seat 5 bet, TDA 2024 rule 53)
            due = DUE.get(path.stem, d["seat"])
            assert page.locator("#table-says").inner_text() == f"Seat {due} to act", path.stem
            page.get_by_role("button", name="Rule", exact=True).click()
            ruled(page)
            answered = _answer_what_the_example_says(page, d)
            lines = page.locator("#result ul.now li").all_inner_texts()
            # the example as the form took it: what the page never asked (it changes no ruling) left out
            entered = {**incident, "incident": path.stem,
                       "disputed": {k: v for k, v in d.items() if k in ("seat", "said", "chips") or k in answered}}
            assert lines and lines == cli_now(entered, tmp_path), path.stem
    print(f"\nexamples entered through the form: {fitted}; not fitting: {skipped}")
    assert len(fitted) >= 6, (fitted, skipped)


# Told disputes (issue 46) on the phone: the text typed (or dictated) into "Tell what happened", then taps. The
# amounts are the sources': "raise" said first, then three $100 chips in one motion, facing a $40 bet is a raise to
# $300 (RRP §3 Betting & Raising 5, §14 NL 12: a raise by what the chips add up to); a single $100 chip put out
# silently facing a $50 bet is a call, $50 back (RRP §14 NL 11).
TOLD = {
    "told-verbal-raise": ("NL 2/5, flop, $60 in the pot. Seat 1 bets 40, seat 2 says raise and puts out three "
                          "black chips.", None,
                          {"stakes": "2/5", "structure": "no-limit", "pot": "60", "actions": "1 bet 40",
                           "d_said": "raise", "d_chips": "100 100 100"}, "$300"),
    "told-silent-chip": ("$1/$3 no limit cash, turn, pot 200. Seat 4 bets 50. Seat 7 silently tosses in a single "
                         "$100 chip.", "Yes",
                         {"stakes": "1/3", "structure": "no-limit", "pot": "200", "actions": "4 bet 50",
                          "d_chips": "100"}, "$50"),
}
TOLD_COUNTS: dict[str, int] = {}


@pytest.mark.parametrize("name", list(TOLD))
def test_a_told_dispute_reaches_a_logged_ruling_in_3_taps_after_the_text(browser, server, name):
    """At phone size: the dispute told in the box, "Read it and rule" fills the form with what was read (each field
    editable) and rules; the "Read as" line leads the ruling; at most 3 taps after the text to a logged ruling
    (the one answer the ruling hangs on, if any, one tap). The text is kept in the log's entry."""
    text, answer, fields, amount = TOLD[name]
    with watched_page(browser, viewport=SIZES["phone"], has_touch=True, is_mobile=True) as page:
        log_in(page, server.url, "fiona")
        taps = Taps(page)
        page.get_by_label("Tell what happened").fill(text)       # typed or dictated: text, not taps
        taps.tap(page.get_by_role("button", name="Read it and rule"), "read it and rule")
        ruled(page)
        result = page.locator("#result")
        assert result.locator(".told-read").inner_text().startswith("Read as: ")
        for field, value in fields.items():                      # the form filled with what was read, editable
            el = page.locator(f'#hand [name="{field}"]')
            assert el.input_value() == value, field
            assert el.is_editable(), field
        assert page.locator('#hand input[name="in-1"]').count() == 1
        if answer is not None:
            assert result.locator(".decision").count() == 0
            words = result.locator(".questions label.answer strong", has_text=re.compile(f"^{answer}$"))
            taps.tap(words.first, f"answer: {answer}")
            page.locator('#result[data-step="whole"] .decision').wait_for()
            assert result.locator(".told-read").inner_text().startswith("Read as: ")     # still leads it
            assert "Changed on the form" not in result.locator(".told-read").inner_text()
        assert result.get_attribute("data-outcome") == "ruled"
        assert result.locator(".decision a").count() == 1                 # logged
        assert amount in result.locator(".now").first.inner_text() + result.locator(".numbers").first.inner_text()
        TOLD_COUNTS[name] = taps.count
        print(f"\n{name} at phone (390x844): {taps.count} taps after the text to the logged ruling: {taps.log}")
        assert taps.count <= 3, taps.log
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        box = page.locator("#result ul.now, #result p.now").first.bounding_box()
        assert box is not None and box["y"] + min(box["height"], 120) <= SIZES["phone"]["height"], box
        shoot(page, f"dispute-{name}-phone")
        if answer is None:          # the docs' picture: the phone's first screen, the told box and the ruling
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(DOCS / "podium-told-phone.png"))
        entry = result.locator(".decision a").first.get_attribute("href")
        page.goto(server.url + entry)
        assert text in page.locator("main").inner_text()           # the text is kept with the logged incident


def test_told_text_the_reader_cannot_take_gets_its_answer_and_is_kept(browser, server):
    """Two games at once, and a word the reader does not know: the reader's own answer (what is contradictory, the
    words not read with their place) on the page; the text stays in the box; nothing is logged."""
    with watched_page(browser, viewport=SIZES["phone"], has_touch=True, is_mobile=True) as page:
        log_in(page, server.url, "fiona")
        page.goto(server.url + "/podium/log")
        logged = page.locator("#log-table tbody tr").count()
        page.goto(server.url + "/podium")
        text = "NL 1/2 and PLO 2/5, flop. Seat 1 bets 40, seat 2 says raise."
        page.get_by_label("Tell what happened").fill(text)
        page.get_by_role("button", name="Read it and rule").click()
        ruled(page)
        problems = page.locator("#result .problems").inner_text()
        assert "The text as told was not read" in problems and "two games at once" in problems, problems
        assert page.get_by_label("Tell what happened").input_value() == text
        page.get_by_label("Tell what happened").fill("Seat 1 frobnicates the pot.")
        page.get_by_role("button", name="Read it and rule").click()
        ruled(page)
        problems = page.locator("#result .problems").inner_text()
        assert "'frobnicates'" in problems and "line 1, column 8" in problems, problems
        assert page.get_by_label("Tell what happened").input_value() == "Seat 1 frobnicates the pot."
        page.goto(server.url + "/podium/log")
        assert page.locator("#log-table tbody tr").count() == logged


def test_a_big_blind_ante_and_a_kill_are_placed_on_the_table_picture(browser, server, tmp_path):
    """The big blind ante is marked on the big blind's seat and the kill on the seat that posted it; each reaches the
    ruling as `rulings rule` gives it for the same hand. TDA 2024 rule 44: a single 5,000 chip facing the 2,000 big
    blind (with its 2,000 ante) is a call, 3,000 back. A $20 kill at $10/$20 limit plays the hand at $20/$40 (RRP
    kill pots): "raise" with one $20 chip facing a $20 bet on the flop is one raise, to $40. A kill is not replayed
    on the first street yet: said beside the field, never ruled at the unkilled limits."""
    bba = {"game": {"variant": "holdem", "structure": "no-limit", "setting": "tournament", "blinds": [1000, 2000],
                    "big_blind_ante": 2000}, "button": 1, "players": {1: None, 2: None, 3: None, 4: None},
           "street": "preflop", "actions": [], "disputed": {"seat": 4, "chips": [5000]}}
    kill = {"game": {"variant": "holdem", "structure": "fixed-limit", "setting": "cash", "blinds": [5, 10],
                     "bet_sizes": [10, 20]}, "button": 1, "players": {1: None, 2: None, 3: None, 4: None},
            "street": "flop", "pot": 100, "actions": [{"seat": 2, "action": "bet", "to": 20}],
            "table": {"kill_posted": {"seat": 4, "amount": 20, "required": True}},
            "disputed": {"seat": 3, "said": "raise", "chips": [20]}}
    with watched_page(browser, viewport=SIZES["tablet"]) as page:
        log_in(page, server.url, "fiona")
        page.get_by_label("Setting").select_option("tournament")
        page.get_by_label("Stakes").fill("1000/2000")
        page.locator("#more-game > summary").click()
        page.get_by_label("Big blind ante").fill("2000")
        for n in (1, 2, 3, 4):
            seat(page, n).click()
        button_seat(page, 1).click()
        assert page.locator(".spot-3 .marks").inner_text().split() == ["BB", "ANTE"]
        assert page.locator(".spot-2 .marks").inner_text().split() == ["SB"]
        assert page.locator(".spot-4 .marks").inner_text().split() == ["NEXT"]
        page.get_by_role("button", name="Add a $5000 chip").click()
        page.get_by_role("button", name="Rule", exact=True).click()
        ruled(page)
        assert page.locator("#result ul.now li").all_inner_texts() == cli_now({"incident": "bba", **bba}, tmp_path)
        shoot(page, "table-big-blind-ante")

        page.goto(server.url + "/podium")
        page.get_by_label("Betting").select_option("fixed-limit")
        page.get_by_label("Stakes").fill("10/20")
        page.locator("#more-game > summary").click()
        page.get_by_label("Small blind").fill("5")
        page.get_by_label("Big blind", exact=True).fill("10")
        page.get_by_label("Kill: seat").select_option("4")
        page.get_by_label("Kill blind").fill("20")
        for n in (1, 2, 3, 4):
            seat(page, n).click()
        button_seat(page, 1).click()
        assert "KILL" in page.locator(".spot-4 .marks").inner_text().split()
        page.get_by_role("button", name="Rule", exact=True).click()       # preflop: said, not ruled
        ruled(page)
        assert "tell it from the flop" in page.locator("#err-kill_seat").inner_text()
        street(page, "flop").click()
        page.get_by_label("Pot before it").fill("100")
        page.get_by_label("Action this street").fill("2 bet 20")
        disputed_seat(page, 3).click()
        page.get_by_label("What he said").fill("raise")
        page.get_by_label("Chips put out").fill("20")
        assert "KILL" in page.locator(".spot-4 .marks").inner_text().split()
        page.get_by_role("button", name="Rule", exact=True).click()
        ruled(page)
        assert page.locator("#result ul.now li").all_inner_texts() == cli_now({"incident": "kill", **kill}, tmp_path)
        assert "$40" in page.locator("#result ul.now").inner_text()
        shoot(page, "table-kill")
