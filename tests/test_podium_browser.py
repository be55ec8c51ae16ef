"""The podium in a real headless Chromium (Playwright), against the real service on a loopback port.

Every test saves a full-page screenshot (test-screenshots/NAME.png). The amounts are the
sources' own: RRP-PL-6's silent $500 chip into an $80 pot is an $80 bet with $420 back;
a $401 pot at $20/$40 under a pot-size kill trigger makes its winner kill for $40 (full)
or $30 with $30/$60 limits (half, RRP-KILL-INTRO).
"""
from __future__ import annotations

import re


from podium_browser import (overchip_hand, ruled, watched_page, SHOTS, Taps, button_seat, disputed_seat,
                            log_in, seat, shoot, street)

# a house-book check loads the book and runs every example in the checking process (started by the first
# check): seconds on a quiet machine, more on a busy one; the page is waited for that long
CHECK_MS = 120_000


def _now(page) -> str:
    """The ruling's sentence (after WHAT HAPPENS NOW's lines, when the page gives them)."""
    text = page.locator("#result .verdict").first.inner_text()
    return text.removeprefix("Ruling:").strip()


def _open(page, box: str) -> None:
    """Open one of the form's folded parts (#more-game, #stacks, #builder-box, #timing) when it is closed."""
    if page.locator(f"#{box}").count() == 0:      # the stacks are typed on the table's seats, not in a fold
        return
    if page.locator(f"#{box}").get_attribute("open") is None:
        page.locator(f"#{box} > summary").click()


def test_logging_in(page, server):
    base = server.url
    page.goto(base + "/podium")
    page.wait_for_url(re.compile(r".*/login\?next=/podium$"))     # nothing is served without an account
    page.get_by_label("Name").fill("fiona")
    page.get_by_label("Password").fill("not her password")
    page.get_by_role("button", name="Log in").click()
    assert page.get_by_role("alert").inner_text() == "Wrong name or password."
    page.get_by_label("Password").fill("floor-pass-1")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(base + "/podium")
    assert page.get_by_role("heading", level=1).inner_text() == "Floor ruling"
    assert "fiona (floor, room main)" in page.locator("header").inner_text()
    assert page.get_by_role("link", name="House books").count() == 0       # a floor account has no manager pages
    shoot(page, "login")


def _tap_overchip(page, taps: Taps) -> None:
    """RRP-PL-6 from an empty page: the game, three seats, the button, the flop, an $80 pot, seat 1's $500 chip."""
    taps.tap(page.get_by_role("button", name="PL Hold'em $1/$2"), "recent game")
    for n in (1, 2, 3):
        taps.tap(seat(page, n), f"seat {n}")
    taps.tap(button_seat(page, 3), "button")
    taps.tap(street(page, "flop"), "street")
    taps.tap(page.get_by_label("Pot before it"), "pot field")
    taps.keys("80")
    taps.tap(disputed_seat(page, 1), "disputed seat")
    taps.tap(page.get_by_role("button", name="Add a $500 chip"), "chip")
    taps.tap(page.get_by_role("button", name="Rule", exact=True), "rule")
    ruled(page)


def test_ruling_on_the_pot_limit_example_from_an_empty_page_takes_11_taps(page, server):
    log_in(page, server.url, "fiona")
    taps = Taps(page)
    _tap_overchip(page, taps)
    to_ruling = taps.count
    assert _now(page) == "The silent $500 chip is a pot-size bet of $80; $420 goes back to the player."
    taps.tap(page.get_by_role("button", name="Log it as it stands: followed"), "logged, followed")
    page.wait_for_url(re.compile(r".*/podium/log/\d+\?recorded=followed$"))
    assert page.locator("#decision").inner_text().startswith("followed")
    assert (to_ruling, taps.count, taps.typed) == (10, 11, 2), taps.log
    shoot(page, "tap-count")


def test_the_500_chip_into_an_80_pot_reads_as_an_80_bet_with_420_back(page, server):
    log_in(page, server.url, "fiona")
    page.get_by_label("Game", exact=True).select_option("holdem")
    page.get_by_label("Betting").select_option("pot-limit")
    page.get_by_label("Stakes").fill("")
    _open(page, "more-game")
    page.get_by_label("Small blind").fill("1")
    page.get_by_label("Big blind", exact=True).fill("2")
    _open(page, "stacks")
    for n, stack in ((1, "1000"), (2, "640"), (3, "815")):
        seat(page, n).click()
        page.get_by_label(f"Seat {n} stack").fill(stack)
    button_seat(page, 3).click()
    street(page, "flop").click()
    page.get_by_label("Pot before it").fill("80")
    disputed_seat(page, 1).click()
    page.get_by_label("Chips put out").fill("500")
    page.get_by_label("Table", exact=True).fill("7")
    page.get_by_role("button", name="Rule", exact=True).click()
    ruled(page)
    result = page.locator("#result")
    assert page.evaluate("document.activeElement.id") == "result"          # the ruling takes the focus
    assert _now(page) == "The silent $500 chip is a pot-size bet of $80; $420 goes back to the player."
    numbers = dict(zip(result.locator("table.numbers th").all_inner_texts(),
                       result.locator("table.numbers td").all_inner_texts()))
    assert numbers == {"His bet, in total this street": "$80", "Goes back to him": "$420"}
    # WHAT HAPPENS NOW as the command line has it: who puts in what, who acts next and what he faces
    assert result.locator("ul.now li").all_inner_texts()[:2] == ["Seat 1 bets $80: $420 goes back to him.",
                                                            "Seat 2 is next to act and faces $80 to call: he may "
                                                            "fold, call $80 or raise to at least $160 and at most "
                                                            "$320."]
    # then the numbers panel: the pot around the act and what each seat still owes
    assert result.locator("ul.now li").all_inner_texts()[2:] == ["Before his act the pot was $80.",
                                                                "After his act as ruled the pot is $160.",
                                                                "Each seat still to act now owes: seat 2 $80, seat 3 $80."]
    # plain words in the main view; the rule's id, the citation keys and file:line only for staff who open them
    text = result.inner_text()
    assert "pot-limit.silent-overchip-is-pot-bet" not in text and "RRP-PL-6" not in text and ".yaml:" not in text
    assert result.locator("details.staff").count() == 0      # kept for the log entry's page (issue 45)
    # "what happens now" comes first and is the largest type on the page
    sizes = page.evaluate("""() => [...document.querySelectorAll('#result p, #result td, #result h2, #result h3, #result li')]
                             .map(e => parseFloat(getComputedStyle(e).fontSize))""")
    assert float(page.locator("#result .now").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) \
        == max(sizes)
    shoot(page, "pl-silent-overchip")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / "podium-tablet.png"))          # the README's picture: what the tablet shows
    # a 10-inch tablet held upright, and a desktop: nothing runs off the side, the ruling still comes first
    for size in ({"width": 800, "height": 1280}, {"width": 1920, "height": 1080}):
        page.set_viewport_size(size)
        assert page.evaluate("document.scrollingElement.scrollWidth") <= size["width"]
        assert page.evaluate("document.querySelector('#result').getBoundingClientRect().top") <= \
            page.evaluate("document.querySelector('#hand').getBoundingClientRect().top")
        shoot(page, f"pl-silent-overchip-{size['width']}x{size['height']}")


def _pl_omaha_turn(page) -> None:
    """RRP-PL-1's table on the form: pot-limit Omaha $1/$2, seats 1-3 with $1,000 each, the button on 3, the turn,
    $100 in the pot before it."""
    page.get_by_label("Game", exact=True).select_option("omaha")
    page.get_by_label("Betting").select_option("pot-limit")
    page.get_by_label("Stakes").fill("1/2")
    _open(page, "stacks")
    for n in (1, 2, 3):
        seat(page, n).click()
        page.get_by_label(f"Seat {n} stack").fill("1000")
    button_seat(page, 3).click()
    street(page, "turn").click()
    page.get_by_label("Pot before it").fill("100")


def test_a_consultation_asks_only_what_changes_its_ruling(page, server):
    """RRP-PL-1: a declared raise to $400 over a $50 bet into a $100 pot is cut to $250; when it was pointed out
    changes that, who pointed it out does not (it is only also worth asking)."""
    log_in(page, server.url, "fiona")
    _pl_omaha_turn(page)
    # the action through the builder: seat 1, Bet, 5 0 on the keypad, Add
    _open(page, "builder-box")
    page.get_by_role("button", name="Seat 1 acts").click()
    page.get_by_role("button", name="Bet", exact=True).click()
    page.locator(".keypad").get_by_role("button", name="5", exact=True).click()
    page.locator(".keypad").get_by_role("button", name="0", exact=True).click()
    page.get_by_role("button", name="Add", exact=True).click()
    assert page.get_by_label("Action this street").input_value() == "1 bet 50"
    disputed_seat(page, 2).click()
    page.get_by_label("What he said").fill("raise to four hundred")
    page.get_by_role("button", name="Rule", exact=True).click()
    ruled(page)
    assert _now(page) == "The wager is cut to the pot-limit maximum of $250; he adds $250."
    questions = page.locator(".questions fieldset legend").all_inner_texts()
    assert len(questions) == 1 and questions[0].startswith("When was it pointed out")
    # questions whose answers change nothing (who pointed it out, a side deal) are not on the floor's page
    assert page.locator("section.also").count() == 0
    assert "Who pointed it out?" not in page.locator("#result").inner_text()
    first = page.locator(".questions fieldset").nth(0)
    # each answer beside the ruling it gives
    answer = first.locator("label.answer", has_text="before anyone acted on it")
    assert "The wager is cut to the pot-limit maximum of $250" in answer.inner_text()
    shoot(page, "consultation-questions")
    answer.click()                                       # one tap: answered and ruled again
    ruled(page)
    assert _now(page) == "The wager is cut to the pot-limit maximum of $250; he adds $250."
    remaining = page.locator(".questions fieldset legend").all_inner_texts()
    assert not any("pointed out" in q for q in remaining)
    shoot(page, "consultation-answered")


def test_the_ruling_shows_before_the_questions_are_worked_out_and_nothing_is_logged_twice(page, server):
    """The same RRP-PL-1 dispute: the page posts the form twice at once, for the ruling alone and for the whole
    step. The whole answer is held in the browser until the early one is on screen: the ruling ($250, he adds
    $250) shows first, marked as still being checked, with no question and no decision yet; then the whole
    step takes its place with its one question, in the same page (no new page load), and the log holds no
    entry for either (a step with a question is not logged until the floor says so)."""
    log_in(page, server.url, "fiona")
    page.goto(server.url + "/podium/log")
    logged = page.locator("#log-table tbody tr").count()
    page.goto(server.url + "/podium")
    _pl_omaha_turn(page)
    page.get_by_label("Action this street").fill("1 bet 50")
    disputed_seat(page, 2).click()
    page.get_by_label("What he said").fill("raise to four hundred")
    held, posts = [], []

    def hold_the_whole(route):
        body = route.request.post_data or ""
        posts.append("part=ruling" in body)
        if "part=ruling" in body:
            route.continue_()
        else:
            held.append(route)
    page.route("**/podium", hold_the_whole)
    page.evaluate("() => { window.__loads = (window.__loads || 0) + 1; }")
    page.get_by_role("button", name="Rule", exact=True).click()
    early = page.locator('#result[data-step="ruling"]')
    early.wait_for()
    assert _now(page) == "The wager is cut to the pot-limit maximum of $250; he adds $250."
    assert "Checking whether anything not yet said would change it" in early.inner_text()
    assert early.get_attribute("aria-busy") == "true"
    assert page.locator(".questions").count() == 0 and page.locator(".decision").count() == 0
    assert page.evaluate("document.activeElement.id") == "result"
    shoot(page, "ruling-before-questions")
    assert len(held) == 1 and sorted(posts) == [False, True]       # both posted at once; the whole one held
    held[0].continue_()
    ruled(page)
    page.unroute("**/podium")
    assert page.evaluate("window.__loads") == 1                    # the same page: no new document was loaded
    assert _now(page) == "The wager is cut to the pot-limit maximum of $250; he adds $250."
    questions = page.locator(".questions fieldset legend").all_inner_texts()
    assert len(questions) == 1 and questions[0].startswith("When was it pointed out")
    assert "Checking whether" not in page.locator("#result").inner_text()
    assert page.locator("#result").get_attribute("aria-busy") is None
    assert page.locator(".decision").count() == 0                  # asked, not logged
    page.goto(server.url + "/podium/log")
    assert page.locator("#log-table tbody tr").count() == logged   # the early ruling recorded nothing


def test_on_a_phone_the_ruling_swapped_in_is_shown_from_its_top(browser, server):
    """At 390x844 the floorperson taps Rule at the foot of the form: the ruling comes into the same page, takes
    the focus and is shown from its first line (WHAT HAPPENS NOW), as a new page would show it, not scrolled to
    its end. RRP-PL-6: the silent $500 chip into an $80 pot, an $80 bet with $420 back."""
    with watched_page(browser, viewport={"width": 390, "height": 844}) as page:
        log_in(page, server.url, "fiona")
        page.get_by_label("Betting").select_option("pot-limit")
        page.get_by_label("Stakes").fill("1/2")
        overchip_hand(page)
        page.get_by_role("button", name="Add a $500 chip").click()     # a tap on the chip, as on a phone
        assert page.evaluate("scrollY") > 600                     # the Rule button is far down the form
        page.get_by_role("button", name="Rule", exact=True).click()
        ruled(page)
        assert page.evaluate("document.activeElement.id") == "result"
        top = page.evaluate("document.getElementById('result').getBoundingClientRect().top")
        assert 0 <= top < 100, top
        assert page.locator("#result ul.now li").first.is_visible()
        assert _now(page) == "The silent $500 chip is a pot-size bet of $80; $420 goes back to the player."
        shoot(page, "phone-ruling-from-its-top")


def test_on_a_phone_a_misdeal_is_told_and_ruled_in_10_taps(browser, server):
    """TDA 35-A7 and RRP-MISDEAL-1a: the dealer exposes the second card of the deal (seat 2's first card, the
    button on seat 3) while dealing: a misdeal, the same button and blinds for the re-deal. At 390x844, from an
    empty page: a hold'em game, three seats, the button, the deal's box, card 2 typed, how it was seen, when it
    was noticed, Rule: 10 taps and one key."""
    with watched_page(browser, viewport={"width": 390, "height": 844}) as page:
        log_in(page, server.url, "fiona")
        taps = Taps(page)
        taps.tap(page.locator(".recent button", has_text="Hold'em").first, "a hold'em game")
        for n in (1, 2, 3):
            taps.tap(seat(page, n), f"seat {n}")
        taps.tap(button_seat(page, 3), "button")
        taps.tap(page.locator("#deal > summary"), "the deal's box")
        taps.tap(page.get_by_label("Which card of the deal"), "card field")
        taps.keys("2")
        taps.tap(page.locator('[data-tap="dl-how-dealer_exposed"]'), "exposed by the dealer")
        taps.tap(page.locator('[data-tap="dl-noticed-during_deal"]'), "during the deal")
        taps.tap(page.get_by_role("button", name="Rule", exact=True), "rule")
        ruled(page)
        said = _now(page)
        assert said.startswith("Misdeal. Now: (1) the dealer takes back every card"), said
        assert "the button does not move (it stays on seat 3)" in said and "(1, 2, 3)" in said
        assert (taps.count, taps.typed) == (10, 1), taps.log
        # one card further in (seat 1's second card, card 4) is no misdeal: it is replaced after the deal
        page.get_by_label("Which card of the deal").fill("4")
        page.get_by_role("button", name="Rule", exact=True).click()
        ruled(page)
        assert _now(page).startswith("No misdeal."), _now(page)
        shoot(page, "phone-misdeal")


def test_the_floor_picks_a_penalty_section_and_rules_on_its_declared_fields(page, server):
    """TDA 71-A/71-C: seven players, 1,500/3,000 with a 3,000 big blind ante, button 1; seat 4 given two missed
    rounds: 7 x 2 = 14 hands, back on hand 15, his seat posting 3,000 + 3,000, 1,500, 3,000 + 3,000 and 1,500
    (15,000). The section picker shows only the picked sections' fields, as declared; a field that is not a
    number is said beside it and the rest is kept."""
    log_in(page, server.url, "fiona")
    page.locator("#setting").select_option("tournament")
    page.locator("#stakes").fill("1500/3000")
    _open(page, "more-game")
    page.locator("#bb_ante").fill("3000")
    for n in range(1, 8):
        seat(page, n).click()
    button_seat(page, 1).click()
    _open(page, "sections")
    assert page.locator("#sec-penalty").is_hidden() and page.locator("#sec-at_seat").is_hidden()
    page.locator('[data-tap="sec-penalty"]').click()
    assert page.locator("#sec-penalty").is_visible() and page.locator("#sec-at_seat").is_hidden()
    assert page.get_by_label("Which player was penalised?").is_visible()     # the declared question is the label
    page.get_by_label("Which player was penalised?").fill("4")
    page.locator("#p-penalty-given").select_option("missed_round")
    page.get_by_label("How many rounds?").fill("two")
    page.get_by_role("button", name="Rule", exact=True).click()
    page.wait_for_selector("#err-p-penalty-rounds")
    assert "not a whole number" in page.locator("#err-p-penalty-rounds").inner_text()
    assert page.locator("#sec-penalty").is_visible() and page.get_by_label("Which player was penalised?").input_value() == "4"
    page.get_by_label("How many rounds?").fill("2")
    page.get_by_role("button", name="Rule", exact=True).click()
    ruled(page)
    text = page.locator("#result").inner_text()
    assert "seat 4 misses 14 hands (7 × 2)" in text and "dealt back in on hand 15" in text, text
    also = page.locator("#result").text_content() or ""     # the other rulings, folded under "Also ruled"
    assert "15,000 in all" in also, also
    shoot(page, "section-penalty")


def test_floor_shorthand_on_the_form_and_a_wrong_action_keep_everything_typed(page, server):
    """Stakes '2/5', stacks '1k', 'seat 1 bets 60, seat 2 raises by 40' typed as a floor says them. "Raise by"
    needs the bet it raises: the page says so beside the actions and every field keeps what was typed; with
    'seat 2 calls' for it, seat 3's single $500 chip is a call of $60 with $440 back (TDA-2024-44)."""
    log_in(page, server.url, "fiona")
    page.get_by_label("Stakes").fill("2/5")
    _open(page, "stacks")
    for n, stack in ((1, "1k"), (2, "640"), (3, "815")):
        seat(page, n).click()
        page.get_by_label(f"Seat {n} stack").fill(stack)
    button_seat(page, 3).click()
    street(page, "flop").click()
    page.get_by_label("Pot before it").fill("60")
    actions = page.get_by_label("Action this street")
    actions.fill("seat 1 bets 60, seat 2 raises by 40")
    disputed_seat(page, 3).click()
    page.get_by_role("button", name="Add a $500 chip").click()
    _open(page, "timing")
    page.get_by_label("Actions after the disputed act").fill("1 fold")
    page.get_by_role("button", name="Rule", exact=True).click()
    ruled(page)
    alert = page.get_by_role("alert").inner_text()
    beside = page.locator("#err-actions").inner_text()          # the problem beside its field too
    assert "raise by" in alert.lower() and "raise by" in beside.lower()
    assert page.get_by_label("Actions after the disputed act").input_value() == "1 fold"
    assert page.get_by_label("Stakes").input_value() == "2/5"
    assert page.get_by_label("Seat 1 stack").input_value() == "1k"
    assert actions.input_value() == "seat 1 bets 60, seat 2 raises by 40"
    assert page.get_by_label("Chips put out").input_value() == "500"
    assert page.get_by_label("Pot before it").input_value() == "60"
    assert page.locator('input[name="street"][value="flop"]').is_checked()
    assert all(page.locator(f'input[name="in-{n}"]').is_checked() for n in (1, 2, 3))
    assert page.locator('input[name="button"][value="3"]').is_checked()
    assert page.locator('input[name="d_seat"][value="3"]').is_checked()
    shoot(page, "floor-shorthand-error")
    actions.fill("seat 1 bets 60, seat 2 calls")
    page.get_by_label("Actions after the disputed act").fill("")
    page.get_by_role("button", name="Rule", exact=True).click()
    ruled(page)
    assert _now(page) == "One oversized chip is a call of $60; $440 goes back."
    assert page.get_by_label("Stakes").input_value() == "2/5"
    shoot(page, "floor-shorthand-ruled")


def test_recording_the_decision_and_finding_it_in_the_log(page, server):
    log_in(page, server.url, "fiona")
    _tap_overchip(page, Taps(page))
    _open(page, "more-game")
    page.get_by_label("Table", exact=True).fill("12")
    page.get_by_role("button", name="Log it as it stands", exact=True).click()
    ruled(page)
    entry = page.locator(".decision a").first.inner_text()          # "#N"
    page.locator("summary", has_text="Departed from it").click()
    page.get_by_label("Why the floor ruled otherwise").fill("player had announced pot; the bet was $80 anyway")
    page.get_by_role("button", name="Record: departed").click()
    page.wait_for_url(re.compile(r".*/podium/log/\d+\?recorded=departed$"))
    page.get_by_role("link", name="Ruling log").click()
    page.get_by_label("Table").fill("12")
    page.get_by_label("Topic").fill("pot-limit")
    page.get_by_label("Floorperson").fill("fiona")
    page.get_by_role("button", name="Search").click()
    rows = page.locator("#log-table tbody tr")
    assert rows.count() == 1
    cells = rows.first.locator("td").all_inner_texts()
    assert cells[0] == entry.lstrip("#") and cells[2].startswith("12")
    assert cells[3] == "The silent $500 chip is a pot-size bet of $80; $420 goes back to the player."
    assert cells[5] == "pot-limit.silent-overchip-is-pot-bet" and cells[6] == "fiona" and cells[7] == "departed"
    page.get_by_role("link", name=f"Open ruling {entry.lstrip('#')}").click()
    assert "departed: “player had announced pot; the bet was $80 anyway”" in page.locator("#decision").inner_text()
    assert "chips: [500]" in page.locator("pre").first.inner_text()          # the incident as entered
    shoot(page, "log-entry")
    # printed, the entry is the ruling and the incident: no navigation, no buttons
    page.emulate_media(media="print")
    assert not page.locator("header.top").is_visible() and not page.get_by_role("button", name="Print").is_visible()
    assert page.locator(".now").is_visible() and page.locator("pre").first.is_visible()
    shoot(page, "log-entry-print")


def test_a_manager_halves_the_kill_sees_the_diff_publishes_and_the_next_kill_is_half(page, server):
    log_in(page, server.url, "manny")
    base = server.url
    # table K1 plays $20/$40 limit hold'em under the Boardwalk book (pot-size trigger, full kill)
    page.goto(base + "/podium/kill?table=K1")
    page.locator("summary", has_text="The game at this table").click() if not page.get_by_label("Small bet").is_visible() else None
    page.get_by_label("Small blind").fill("10")
    page.get_by_label("Big blind", exact=True).fill("20")
    page.get_by_label("Small bet").fill("20")
    page.get_by_label("Big bet").fill("40")
    page.get_by_label("Rulebook").select_option("east-coast-limit")
    page.get_by_role("button", name="Set the game (starts a new history)").click()
    page.locator("form").filter(has=page.get_by_label("Pot amount")).get_by_text("Seat 6", exact=True).click()
    page.get_by_label("Pot amount").fill("401")
    page.get_by_role("button", name="Add the pot and rule").click()
    assert _now(page) == "The last pot of $401 was over $400, so seat 6 kills for $40 and the hand plays $40/$80."
    # the manager halves the kill
    page.get_by_role("link", name="House books").click()
    page.get_by_role("link", name="east-coast-limit").click()
    size = page.get_by_label("How big a kill is.")
    assert size.input_value() == "full"
    size.select_option("half")
    page.get_by_role("button", name="See what changes").click(timeout=CHECK_MS)   # a whole book check
    assert "not live yet" in page.get_by_role("status").first.inner_text()
    page.locator("#g-parameters > summary").click()                 # the diff is grouped by cause, collapsed
    diff = page.locator("section[aria-labelledby=diff-head]").inner_text()
    assert "a kill blind of twice the big blind, and the limits doubled" in diff
    assert "a kill blind of one and a half big blinds, and the limits raised by half" in diff
    change = page.locator("#g-parameters li.change-item", has_text="kill.size")
    change.locator("summary").click()
    row = change.locator("ul.examples > li", has_text="a $401 pot in $20/$40 forces its winner to kill for $40")
    before, after = row.locator(".diff-before").inner_text(), row.locator(".diff-after").inner_text()
    assert "kill_blind $40, kill_small_bet $40, kill_big_bet $80" in before
    assert "kill_blind $30, kill_small_bet $30, kill_big_bet $60" in after
    assert row.locator(".hint").count() == 0                        # kill.size alone changed it
    shoot(page, "manager-diff")
    page.get_by_role("button", name="Publish").click(timeout=CHECK_MS)
    page.wait_for_url(re.compile(r".*/podium/books/east-coast-limit\?published=1$"))
    assert "version 1 is live" in page.get_by_role("status").inner_text()
    assert page.get_by_label("How big a kill is.").input_value() == "half"
    versions = page.locator("table.list").last.inner_text()
    assert "as shipped" in versions and "manny" in versions
    # the next kill ruling at the table is a half kill
    page.goto(base + "/podium/kill?table=K1")
    assert _now(page) == "The last pot of $401 was over $400, so seat 6 kills for $30 and the hand plays $30/$60."
    page.locator("form").filter(has=page.get_by_label("Pot amount")).get_by_text("Seat 2", exact=True).click()
    page.get_by_label("Pot amount").fill("90")
    page.get_by_role("button", name="Add the pot and rule").click()
    pots = page.locator("#pots tbody tr").all_inner_texts()
    assert "seat 6 for $30" in pots[-1]                          # the killed pot remembers its half kill
    shoot(page, "kill-half")
    # the ruling in the log links to the version it used
    page.get_by_role("link", name="Ruling log").click()
    page.locator("#log-table tbody tr").first.get_by_role("link").click()
    page.locator("a[href*='/version/']").click()
    assert "kill.size: half" in page.locator("pre").inner_text()


def test_the_kill_page_keeps_its_consultation_steps_as_the_floor_page_does(page, server):
    """Each pot added on the kill page is a consultation (the kill in force for the pot just played, then the
    kill for the next hand) kept step by step in consult_steps, and the ruling recorded is linked to it."""
    import sqlalchemy as sa

    from rulings.service.store import db
    log_in(page, server.url, "fiona")
    page.goto(server.url + "/podium/kill?table=K7")       # $20/$40 limit hold'em, standard book
    pot_form = page.locator("form").filter(has=page.get_by_label("Pot amount"))
    for amount in ("120", "90"):
        pot_form.get_by_text("Seat 3", exact=True).click()
        page.get_by_label("Pot amount").fill(amount)
        page.get_by_role("button", name="Add the pot and rule").click()
    # RRP-KILL-INTRO: two pots in a row at $20/$40 (full kill): a $40 kill blind, the hand played at $40/$80
    assert _now(page) == ("Seat 3 has won two pots in a row and must kill the next one: a $40 kill blind, "
                          "with the hand played at $40/$80.")
    shoot(page, "kill-trail")
    e = db.entries
    with server.service.engine.connect() as conn:
        ids = conn.execute(sa.select(e.c.id).where(e.c.table_name == "K7").order_by(e.c.id)).scalars().all()
    entries = [server.service.log.get(i) for i in ids]
    assert len(entries) == 2 and all(en["consultation"] for en in entries)
    assert entries[0]["consultation"] != entries[1]["consultation"]     # one consultation per pot added
    first, second = (en["trail"] for en in entries)
    assert [t["step"] for t in first] == [1, 2] and [t["step"] for t in second] == [1, 2]
    assert all(t["floorperson"] == "fiona" and t["table"] == "K7" and t["room"] == "main" for t in first + second)
    # step 1: the kill in force for the pot just played; step 2: the next hand's, the ruling recorded
    assert len(first[0]["incident"]["table"]["pots"]) == 0 and len(first[1]["incident"]["table"]["pots"]) == 1
    assert len(second[0]["incident"]["table"]["pots"]) == 1 and len(second[1]["incident"]["table"]["pots"]) == 2
    assert second[1]["rules"] == entries[1]["rules"] and "kill-pots.two-in-a-row" in second[1]["rules"]
    assert "kill-pots.two-in-a-row" not in second[0]["rules"]


def test_a_floor_account_is_refused_on_the_managers_pages(page, server):
    log_in(page, server.url, "fiona")
    for path in ("/podium/books", "/podium/books/east-coast-limit", "/podium/books/east-coast-limit/edit"):
        response = page.goto(server.url + path)
        assert response.status == 403
        assert page.get_by_role("heading", level=1).inner_text() == "Managers only"
    shoot(page, "floor-refused")
    before = server.service.books.books["east-coast-limit"].hash
    response = page.request.post(server.url + "/podium/books/east-coast-limit/edit",
                                 form={"text": "rulebook: east-coast-limit\n", "go": "publish"})
    assert response.status == 403
    assert server.service.books.books["east-coast-limit"].hash == before


def test_text_with_html_in_it_is_shown_as_text(page, server):
    log_in(page, server.url, "fiona")
    said = "<b>raise</b> <script>document.title='owned'</script><img src=x onerror=\"document.title='owned'\">"
    _tap_overchip(page, Taps(page))
    page.get_by_label("What he said").fill(said)
    _open(page, "more-game")
    page.get_by_label("Table", exact=True).fill("<i>9</i>")
    page.get_by_role("button", name="Rule", exact=True).click()
    ruled(page)
    assert page.get_by_label("What he said").input_value() == said
    # words the reader cannot read are an open question, shown as the words themselves
    assert "Could not read 'b', 'script', 'document'" in page.locator("#result").inner_text()
    assert page.locator("#result").locator("b, i, img, script").count() == 0
    # no ruling to follow while his words are not read: nothing to log (issue 45); told as "call", it is ruled
    assert page.get_by_role("button", name=re.compile("^(Log|Record) it as it stands")).count() == 0
    page.get_by_label("What he said").fill("call")
    page.get_by_role("button", name="Rule", exact=True).click()
    ruled(page)
    page.locator("#result .depart > summary").click()
    page.get_by_label("Why the floor ruled otherwise").fill(said)
    page.get_by_role("button", name="Record: departed").click()
    page.wait_for_url(re.compile(r".*/podium/log/\d+\?recorded=departed$"))
    main = page.locator("main")
    assert main.locator("b, i, img, script").count() == 0
    assert said in main.inner_text()                  # the reason as given, character for character
    assert "main, table <i>9</i>" in main.inner_text()
    assert page.title() != "owned"
    shoot(page, "html-as-text")


def test_the_floor_page_works_with_the_keyboard_alone(page, server):
    log_in(page, server.url, "fiona")
    presses = 0

    def tab_to(selector: str, limit: int = 120) -> None:
        nonlocal presses
        for _ in range(limit):
            if page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector):
                return
            page.keyboard.press("Tab")
            presses += 1
        raise AssertionError(f"Tab never reaches {selector}")

    tab_to("button[data-game*='pot-limit']")
    page.keyboard.press("Enter")
    for n in (1, 2, 3):
        tab_to(f"input[name='in-{n}']")
        page.keyboard.press("Space")
    tab_to("input[name='button'][value='1']")
    page.keyboard.press("ArrowDown")            # radio groups move with the arrow keys: button 1 -> 2 -> 3
    page.keyboard.press("ArrowDown")
    tab_to("input[name='street']")
    page.keyboard.press("ArrowRight")           # preflop -> flop
    tab_to("#pot")
    page.keyboard.type("80")
    tab_to("input[name='d_seat']")
    page.keyboard.press("Space")                # seat 1
    tab_to("button[data-chip='500']")
    page.keyboard.press("Enter")
    tab_to("button[value='rule']")
    page.keyboard.press("Enter")
    ruled(page)                                 # swapped into this page: no new page, the focus on the ruling
    assert page.evaluate("document.activeElement.id") == "result"
    assert _now(page) == "The silent $500 chip is a pot-size bet of $80; $420 goes back to the player."
    # focus is always shown: the focused element draws an outline
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    shoot(page, "keyboard-only")


A11Y = """() => {
  const lum = (rgb) => {
    const [r, g, b] = rgb.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const parse = (c) => { const m = c.match(/[\\d.]+/g).map(Number); return {rgb: m.slice(0, 3), a: m.length > 3 ? m[3] : 1}; };
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c.a > 0.5) return c.rgb;
    }
    return [255, 255, 255];
  };
  const low = [], unlabelled = [];
  for (const el of document.querySelectorAll('body *')) {
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none' || el.closest('.skip')) continue;
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (own && el.getClientRects().length) {
      const fg = parse(style.color).rgb, bg = background(el);
      const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      const ratio = (a + 0.05) / (b + 0.05);
      const size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight) >= 700;
      const need = (size >= 24 || (bold && size >= 18.66)) ? 3 : 4.5;
      if (ratio < need) low.push(el.tagName + ' "' + el.textContent.trim().slice(0, 40) + '" ' + ratio.toFixed(2));
    }
    if (el.matches('input:not([type=hidden]), select, textarea')) {
      if (!(el.labels && el.labels.length) && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
        unlabelled.push(el.outerHTML.slice(0, 80));
    }
    if (el.matches('button') && !(el.textContent.trim() || el.getAttribute('aria-label'))) unlabelled.push(el.outerHTML.slice(0, 80));
  }
  return {low, unlabelled};
}"""


def test_every_control_is_labelled_text_has_aa_contrast_and_state_is_not_colour_alone(page, server):
    log_in(page, server.url, "manny")
    _tap_overchip(page, Taps(page))
    checks = {"floor with a ruling": page.evaluate(A11Y)}
    # a chosen toggle carries a check mark, not only a darker fill
    mark = page.locator("#table-pic .spot label.toggle span").first.evaluate(
        "e => getComputedStyle(e, '::before').content")
    assert mark == '"✓"'
    for name, path in (("log", "/podium/log"), ("kill", "/podium/kill?table=A11"), ("books", "/podium/books"),
                       ("book", "/podium/books/east-coast-limit"), ("editor", "/podium/books/pnw-lowball/edit")):
        page.goto(server.url + path)
        checks[name] = page.evaluate(A11Y)
    page.get_by_label("The book (YAML)").fill("rulebook: pnw-lowball\nextends: standard\ntitle: T\n"
                                              "parameters: {kill.size: halve}\n")
    page.get_by_role("button", name="Check and see what changes").click(timeout=CHECK_MS)
    checks["editor with a problem"] = page.evaluate(A11Y)
    assert "pnw-lowball.yaml:4:" in page.get_by_role("alert").inner_text()
    assert page.locator("pre.src").first.inner_text().startswith("3 | title: T\n4 | parameters:")
    shoot(page, "editor-lint")
    for name, found in checks.items():
        assert found["low"] == [], f"{name}: text below WCAG AA contrast: {found['low']}"
        assert found["unlabelled"] == [], f"{name}: controls without a label: {found['unlabelled']}"


def test_a_page_on_another_port_cannot_publish_with_the_managers_session(page, server):
    """A manager logged in opens a page served from another port of the same host (the same site, so his
    SameSite=Strict cookie goes along); it posts a publish form at the podium: refused, nothing published."""
    import http.server
    import threading
    from pathlib import Path
    from rulings.service.store.housebook import HouseBooks
    base = server.url
    forged = ('<!doctype html><form id="f" method="post" action="' + base + '/podium/books/east-coast-limit/edit">'
              '<textarea name="text">rulebook: east-coast-limit\nextends: standard\ntitle: forged\n</textarea>'
              '<input name="go" value="publish"></form><script>document.getElementById("f").submit()</script>')

    class Forger(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(forged.encode())

        def log_message(self, *args):
            pass

    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Forger)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    books = HouseBooks(Path(server.service.config.data_dir))
    before = len(books.versions("east-coast-limit"))
    try:
        log_in(page, base, "manny")
        page.goto(f"http://127.0.0.1:{other.server_address[1]}/")
        page.wait_for_url(base + "/podium/books/east-coast-limit/edit")
        assert page.get_by_role("heading", level=1).inner_text() == "Refused"
        assert "another page" in page.content() or "is not this service" in page.content()
    finally:
        other.shutdown()
    assert len(books.versions("east-coast-limit")) == before
    shoot(page, "forged-publish-refused")
