"""The manager's and the admin's pages in a real headless Chromium (Playwright), against the real service:
the diff page grouped by cause and collapsed, the accounts page, and no sideways overflow on a phone and an
upright tablet (accounts, books, book, editor with problems, diff).

east-coast-limit against the standard book: 6 parameters (kill.trigger pot_size, kill.mode required,
raise_cap.max_raises 4, ...) and two house exceptions; 136 examples rule differently, 53 of them through
kill.trigger alone.
"""
from __future__ import annotations

import re

import pytest

from podium_browser import PASSWORDS, shoot

CHECK_MS = 300_000      # a diff runs every example of the book in the checking process (minutes on a busy machine)
ADMIN = ("adele", "admin-pass-1")
PHONE, UPRIGHT, LANDSCAPE = {"width": 390, "height": 844}, {"width": 768, "height": 1024}, {"width": 1024, "height": 768}


SERVER_ACCOUNTS = [(ADMIN[0], ADMIN[1], "admin", "main")]


def _page(browser, server, who: str, viewport: dict):
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(20_000)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(server.url + "/login")
    pg.get_by_label("Name").fill(who)
    pg.get_by_label("Password").fill(ADMIN[1] if who == ADMIN[0] else PASSWORDS[who])
    pg.get_by_role("button", name="Log in").click()
    pg.wait_for_url(server.url + "/podium**")
    return context, pg, errors


def _height(page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def test_the_diff_page_is_grouped_by_cause_collapsed_and_a_few_screens_tall(browser, server):
    context, page, errors = _page(browser, server, "manny", LANDSCAPE)
    page.goto(server.url + "/podium/books/east-coast-limit")
    page.get_by_role("link", name="What it changes against the standard book").click(timeout=CHECK_MS)
    page.wait_for_url(re.compile(r".*/podium/books/east-coast-limit/diff$"))
    groups = page.locator("details.change-group")
    assert groups.count() == 4
    summaries = [s.strip() for s in page.locator("details.change-group > summary").all_inner_texts()]
    assert [s.split("\n")[0] for s in summaries] == ["Rules added", "Rules changed", "Rules switched off",
                                                    "Parameters"]
    assert "2 changes · 4 examples rule differently" in summaries[0]       # the two house exceptions
    assert "0 changes · 0 examples rule differently" in summaries[2]
    assert "6 changes · 135 examples rule differently" in summaries[3]
    assert page.evaluate("[...document.querySelectorAll('details')].every(d => !d.open)")
    closed = _height(page)
    assert closed <= 3 * 768, closed          # was 18,616 px with every example shown at once
    shoot(page, "manager-diff-closed")
    trigger = page.locator("#g-parameters li[data-change='kill.trigger']")
    assert not trigger.is_visible()
    page.locator("#g-parameters > summary").click()
    assert trigger.is_visible() and page.locator("#g-parameters li.change-item").count() == 6
    assert "the winner of a pot over a set size kills" in trigger.locator(".diff-after").first.inner_text()
    examples = trigger.locator("ul.examples > li")
    assert not examples.first.is_visible()
    trigger.locator("summary").click()
    assert examples.count() == 56 and examples.first.is_visible()       # 53 alone, 3 with another change
    assert trigger.locator("summary").inner_text() == "56 examples whose ruling changes"
    assert trigger.locator("ul.examples > li", has_text="also changed by").count() == 3
    shoot(page, "manager-diff-open")
    context.close()
    assert not errors


def _no_sideways_overflow(page) -> tuple[int, int]:
    return page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")


@pytest.mark.parametrize("viewport", [PHONE, UPRIGHT], ids=["390x844", "768x1024"])
def test_no_manager_page_overflows_sideways_on_a_phone_or_an_upright_tablet(browser, server, viewport):
    context, page, errors = _page(browser, server, ADMIN[0], viewport)
    size = f"{viewport['width']}x{viewport['height']}"
    for name, path in (("accounts", "/podium/accounts"), ("books", "/podium/books"),
                       ("book", "/podium/books/east-coast-limit"), ("editor", "/podium/books/pnw-lowball/edit"),
                       ("diff", "/podium/books/east-coast-limit/diff")):
        page.goto(server.url + path, timeout=CHECK_MS)
        for d in page.locator("details").all():          # opened, as a manager reads them
            d.evaluate("d => d.open = true")
        width, client = _no_sideways_overflow(page)
        assert width <= client, f"{name} at {size}: {width} px wide in a {client} px window"
        shoot(page, f"manager-{name}-{size}")
    # the editor with a problem: the source line shown as written, kept in its own scrolling box
    page.goto(server.url + "/podium/books/pnw-lowball/edit")
    text = page.get_by_label("The book (YAML)").input_value()
    page.get_by_label("The book (YAML)").fill(text.replace("kill.size: half", "kill.size: halve", 1))
    page.get_by_role("button", name="Check and see what changes").click(timeout=CHECK_MS)
    width, client = _no_sideways_overflow(page)
    assert width <= client, f"editor with a problem at {size}: {width} px wide in a {client} px window"
    shoot(page, f"manager-editor-problem-{size}")
    context.close()
    assert not errors


def test_the_editor_keeps_the_yaml_s_indentation_and_shows_warnings_apart(browser, server):
    context, page, errors = _page(browser, server, "manny", LANDSCAPE)
    page.goto(server.url + "/podium/books/pnw-lowball/edit")
    box = page.get_by_label("The book (YAML)")
    text = box.input_value()
    assert "    kill.size: half" not in text and "  kill.size: half" in text
    box.fill(text.replace("  kill.size: half", "  kill.size: halve", 1))
    page.get_by_role("button", name="Check and see what changes").click(timeout=CHECK_MS)
    alert = page.get_by_role("alert")
    line = text.splitlines().index("  kill.size: half") + 1
    assert f"pnw-lowball.yaml:{line}:" in alert.inner_text() and "R205" in alert.inner_text()
    src = alert.locator("pre.src").first.inner_text()
    assert f"{line} |   kill.size: halve" in src.splitlines()       # its two spaces of indentation kept
    assert page.locator("pre.src").first.evaluate("e => getComputedStyle(e).whiteSpace") == "pre"
    caret = src.splitlines()[-1]
    col = int(re.search(rf"pnw-lowball.yaml:{line}:(\d+)", alert.inner_text())[1])
    assert caret.index("^") == len(f"{line} | ") + col - 1           # under the column the problem names
    # a warning (R607, an unknown HOUSE- key) is shown apart and does not stop the book going live
    warned = text.replace("RRP-KILL-10, HOUSE-CASCADE-3]", "RRP-KILL-10, HOUSE-CASCADE-33]", 1)
    assert warned != text
    box = page.get_by_label("The book (YAML)")
    box.fill(warned)
    page.get_by_role("button", name="Check and see what changes").click(timeout=CHECK_MS)
    assert page.locator("section.problems").count() == 0
    warnings = page.locator("section.warnings")
    assert "R607" in warnings.inner_text() and "the book can go live" in warnings.inner_text()
    assert "It can be published (read the warnings below first)." in page.get_by_role("status").all_inner_texts()[1]
    shoot(page, "manager-editor-warning")
    context.close()
    assert not errors


def test_an_admin_adds_and_disables_an_account_from_a_phone(browser, server):
    context, page, errors = _page(browser, server, ADMIN[0], PHONE)
    page.get_by_role("link", name="Accounts").click()
    add = page.get_by_role("form", name="Add an account")
    add.get_by_label("Name", exact=True).fill("dave")
    add.get_by_label("Role", exact=True).select_option("floor")
    add.get_by_label("Room", exact=True).fill("riverside")
    add.get_by_label("Password (at least 8 characters)").fill("dave-pass-1")
    add.get_by_label("The password again").fill("dave-pass-1")
    add.get_by_role("button", name="Add the account").click()
    assert page.get_by_role("status").inner_text() == "Account dave added."
    row = page.locator("#a-dave")
    assert "floor · room riverside" in row.inner_text()
    row.get_by_text("Change dave").click()
    row.get_by_role("button", name="Disable dave").click()
    assert "Account dave disabled" in page.get_by_role("status").inner_text()
    assert "disabled" in page.locator("#a-dave").inner_text()
    width, client = _no_sideways_overflow(page)
    assert width <= client
    shoot(page, "manager-accounts-phone")
    context.close()
    other = browser.new_context(viewport=PHONE)
    pg = other.new_page()
    pg.goto(server.url + "/login")
    pg.get_by_label("Name").fill("dave")
    pg.get_by_label("Password").fill("dave-pass-1")
    pg.get_by_role("button", name="Log in").click()
    assert pg.get_by_role("alert").inner_text() == "Wrong name or password."
    other.close()
    assert not errors
