"""Consistent across shifts, on the podium: beside the ruling of a consultation and on a log entry's page, the
room's earlier rulings by the same rule on the same matter (when, by whom, what the floor decided, whether it
was corrected), newest first; the log searched by rule and matter. In process on SQLite and PostgreSQL, and
in a real headless Chromium from a log holding two shifts' rulings."""
from __future__ import annotations

import html
import re

import pytest

from podium_browser import (overchip_hand, ruled, log_in, shoot)
from service_support import BACKENDS, accounts_of, example, form_client, logged_at, make_service, overchip

SAYS = "The silent $500 chip is a pot-size bet of $80; $420 goes back to the player."     # RRP-PL-6
FORM = {"variant": "holdem", "structure": "pot-limit", "setting": "cash", "sb": "1", "bb": "2", "in-1": "1",
        "in-2": "1", "in-3": "1", "button": "3", "street": "flop", "pot": "80", "d_seat": "1", "d_chips": "500",
        "book": "standard", "go": "record", "table": "4"}
GWEN = "morning-pass-1"


def two_shifts(svc) -> dict:
    """Last night fiona ruled twice on the silent overchip (followed; departed, then corrected by manny), otto
    once in riverside, fiona once on a kill; this morning gwen once. The entry ids by name."""
    from rulings.service.store.auth import add_account
    add_account(svc.engine, "gwen", GWEN, "floor", "main")
    acct = accounts_of(svc)
    ids = {"a": logged_at(svc, acct["fiona"], overchip(), "2026-11-29T22:10:05.000000Z", "3")}
    svc.log.follow_up(acct["fiona"], ids["a"], "decision", {"decision": "followed"})
    ids["b"] = logged_at(svc, acct["fiona"], overchip(), "2026-11-29T23:40:30.000000Z", "5")
    svc.log.follow_up(acct["fiona"], ids["b"], "decision", {"decision": "departed", "reason": "he meant a raise"})
    svc.log.follow_up(acct["manny"], ids["b"], "correction", {"note": "the chip is a pot-size bet: RRP-PL-6"})
    ids["r"] = logged_at(svc, acct["otto"], overchip(), "2026-11-30T01:00:00.000000Z", "1")
    ids["k"] = logged_at(svc, acct["fiona"], example("kill-scoop"), "2026-11-30T01:30:00.000000Z", "5")
    ids["c"] = logged_at(svc, acct["gwen"], overchip(), "2026-11-30T09:15:00.000000Z", "3")
    return ids


@pytest.fixture(params=BACKENDS)
def svc(request, tmp_path):
    s = make_service(tmp_path, request.param)
    yield s
    s.close()


def _client(svc, name: str, password: str):
    from rulings.service.api.app import create_app
    c = form_client(create_app(service=svc))
    r = c.post("/podium/login", data={"username": name, "password": password, "next": "/podium"})
    assert r.status_code == 200 and r.url.path == "/podium", r.text
    return c


def _beside(page_html: str) -> list[tuple[int, str]]:
    """The earlier rulings shown on a page: (entry id, the item's text), in the page's order."""
    sections = re.findall(r'<section class="earlier".*?</section>', page_html, re.S)
    items = [li for s in sections for li in re.findall(r'<li class="earlier-ruling">(.*?)</li>', s, re.S)]
    return [(int(re.search(r'/podium/log/(\d+)"', li)[1]), " ".join(html.unescape(re.sub(r"<[^>]+>", "", li)).split()))
            for li in items]


def test_the_floor_page_shows_the_rooms_earlier_rulings_beside_the_new_one(svc):
    ids = two_shifts(svc)
    c = _client(svc, "gwen", GWEN)
    r = c.post("/podium", data=FORM)
    assert r.status_code == 200 and SAYS in r.text
    shown = _beside(r.text)
    assert [i for i, _ in shown] == [ids["c"], ids["b"], ids["a"]]       # newest first; not riverside's, not the kill
    (_, c_text), (_, b_text), (_, a_text) = shown
    assert c_text.startswith(f"#{ids['c']} 2026-11-30 09:15:00 UTC, gwen, table 3: {SAYS}")
    assert "no decision recorded" in c_text
    assert b_text.startswith(f"#{ids['b']} 2026-11-29 23:40:30 UTC, fiona, table 5: {SAYS}")
    assert "the floor departed: “he meant a raise”" in b_text
    assert "Corrected (#" in b_text and "manny" in b_text and "the chip is a pot-size bet: RRP-PL-6" in b_text
    assert a_text.startswith(f"#{ids['a']} 2026-11-29 22:10:05 UTC, fiona, table 3:")
    assert "the floor followed it" in a_text and "Corrected" not in a_text
    assert "More earlier rulings" not in r.text                      # three: no more to search for


def test_a_log_entry_shows_the_rulings_before_it_and_a_search_for_more(svc):
    ids = two_shifts(svc)
    acct = accounts_of(svc)
    c = _client(svc, "gwen", GWEN)
    page = c.get(f"/podium/log/{ids['c']}").text
    assert [i for i, _ in _beside(page)] == [ids["b"], ids["a"]]       # only those before it
    assert _beside(c.get(f"/podium/log/{ids['a']}").text) == []
    assert "No earlier ruling in this room" in c.get(f"/podium/log/{ids['a']}").text
    more = [logged_at(svc, acct["gwen"], overchip(), f"2026-11-30T1{n}:00:00.000000Z", "6") for n in range(5)]
    page = c.get(f"/podium/log/{more[-1]}").text
    assert [i for i, _ in _beside(page)] == [more[3], more[2], more[1], more[0], ids["c"]]     # five of six
    link = re.search(r'<a class="earlier-more" href="([^"]+)"', page)[1]
    assert html.unescape(link) == "/podium/log?rule=pot-limit.silent-overchip-is-pot-bet&matter=wager"
    listed = c.get(html.unescape(link)).text
    assert re.findall(r'aria-label="Open ruling (\d+)"', listed) == [str(i) for i in
                                                                    [*more[::-1], ids["c"], ids["b"], ids["a"]]]


def test_beside_a_ruling_only_earlier_rulings_with_the_same_decisive_facts(svc):
    """Words in turn bind (the generic rule) ruled a pot-limit "pot" with the pot unknown and a no-limit "raise"
    with one chip alike; beside a new "raise" with one chip, only the earlier "raise" with one chip is shown,
    with how it was followed (issue 45: a verbal raise showed two unrelated pot-limit rulings)."""
    acct = accounts_of(svc)
    pot = {"game": {"variant": "holdem", "structure": "pot-limit", "blinds": [1, 2]}, "button": 3,
           "players": {"1": None, "2": None, "3": None}, "street": "flop",
           "actions": [{"seat": 1, "action": "bet", "to": 50}], "disputed": {"seat": 2, "said": "pot"}}
    raised = {"game": {"variant": "holdem", "structure": "no-limit", "blinds": [1, 2]}, "button": 3,
              "players": {"1": None, "2": None, "3": None}, "street": "preflop",
              "actions": [{"seat": 3, "action": "raise", "to": 6}], "disputed": {"seat": 1, "said": "raise", "chips": [100]}}
    p1 = logged_at(svc, acct["fiona"], pot, "2026-11-29T22:10:05.000000Z", "3")
    p2 = logged_at(svc, acct["fiona"], pot, "2026-11-29T22:20:05.000000Z", "3")
    r1 = logged_at(svc, acct["fiona"], raised, "2026-11-29T23:10:05.000000Z", "4")
    svc.log.follow_up(acct["fiona"], r1, "decision", {"decision": "departed", "reason": "chips first: a call"})
    c = _client(svc, "fiona", "floor-pass-1")
    form = {"variant": "holdem", "structure": "no-limit", "setting": "cash", "stakes": "1/2", "in-1": "1", "in-2": "1",
            "in-3": "1", "button": "3", "street": "preflop", "actions": "3 raise 6", "d_seat": "1", "d_said": "raise",
            "d_chips": "100", "book": "standard", "go": "rule"}
    page = c.post("/podium", data=form).text
    shown = _beside(page)
    assert [i for i, _ in shown] == [r1] and p1 != p2
    assert "the floor departed: “he meant" not in shown[0][1] and "chips first: a call" in shown[0][1]
    assert "Earlier here on this <span class=\"like\">(no-limit, “raise”, one chip)</span>" in page


def test_the_log_page_searches_by_rule_or_citation_key_and_matter(svc):
    ids = two_shifts(svc)
    c = _client(svc, "fiona", "floor-pass-1")
    listed = lambda q: [int(x) for x in re.findall(r'aria-label="Open ruling (\d+)"', c.get("/podium/log", params=q).text)]  # noqa: E731
    assert listed({"rule": "RRP-PL-6", "matter": "wager"}) == [ids["c"], ids["b"], ids["a"]]
    assert listed({"rule": "pot-limit.silent-overchip-is-pot-bet"}) == [ids["c"], ids["b"], ids["a"]]
    assert listed({"matter": "wager", "floorperson": "fiona"}) == [ids["b"], ids["a"]]   # alongside the others
    assert listed({"rule": "RRP-PL-6", "matter": "kill"}) == []
    page = c.get("/podium/log", params={"matter": "wager"}).text
    assert '<option value="wager" selected>' in page and 'name="matter"' in page
    assert "matter=wager" in re.search(r'href="(/api/log/export\?format=csv[^"]*)"', page)[1]   # exported alike


SERVER_ACCOUNTS = [("otto", "other-room-1", "floor", "riverside")]


def server_started(srv) -> None:
    srv.ids = two_shifts(srv.service)


def test_in_chromium_a_new_consultation_shows_the_earlier_shifts_rulings_beside_it(page, server):
    """Fiona, on the next shift's dispute: the same silent $500 chip into an $80 pot. Beside the ruling, this
    morning's ruling by gwen and last night's two by fiona, with who and when, the departure and its correction."""
    ids = server.ids
    log_in(page, server.url, "fiona")
    page.get_by_label("Game", exact=True).select_option("holdem")
    page.get_by_label("Betting").select_option("pot-limit")
    page.locator("#more-game > summary").click()          # the blinds sit in the folded "Blinds, ante, ..." part
    page.get_by_label("Small blind").fill("1")
    page.get_by_label("Big blind", exact=True).fill("2")
    overchip_hand(page)
    page.get_by_label("Chips put out").fill("500")
    page.get_by_role("button", name="Rule", exact=True).click()
    ruled(page)
    result = page.locator("#result")
    assert SAYS in " ".join(result.inner_text().split())          # the ruling, under WHAT HAPPENS NOW
    beside = result.get_by_role("region", name="Earlier rulings in this room on this")
    items = beside.locator("li.earlier-ruling")
    assert items.count() == 3
    texts = [" ".join(t.split()) for t in items.all_inner_texts()]
    assert texts[0].startswith(f"#{ids['c']} 2026-11-30 09:15:00 UTC, gwen, table 3: {SAYS}"), texts
    assert texts[1].startswith(f"#{ids['b']} 2026-11-29 23:40:30 UTC, fiona, table 5: {SAYS}"), texts
    assert "the floor departed: “he meant a raise”" in texts[1] and "manny" in texts[1] and "RRP-PL-6" in texts[1]
    assert texts[2].startswith(f"#{ids['a']} 2026-11-29 22:10:05 UTC, fiona, table 3:") and "followed" in texts[2]
    assert [t.get_attribute("datetime") for t in beside.locator("time").all()] == [
        "2026-11-30T09:15:00.000000Z", "2026-11-29T23:40:30.000000Z", "2026-11-29T22:10:05.000000Z"]
    assert f"#{ids['r']} " not in beside.inner_text()                  # riverside's ruling is never shown here
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width                                  # no sideways overflow from the list
    shoot(page, "earlier-rulings")
    items.first.get_by_role("link").click()                            # the earlier ruling opens in the log
    page.wait_for_url(f"{server.url}/podium/log/{ids['c']}")
    assert [" ".join(t.split())[:len(f"#{ids['b']}")] for t in
            page.locator("li.earlier-ruling").all_inner_texts()] == [f"#{ids['b']}", f"#{ids['a']}"]


def test_the_kill_page_shows_the_rooms_earlier_kill_rulings_beside_its_own(svc):
    """The kill page, as the floor page and a log entry: beside the kill for the next hand, the room's earlier
    rulings by the same rule on the same matter (who, when, which table), never another room's, and never the
    ruling shown beside itself. RRP-KILL-INTRO: two pots in a row at $20/$40, a $40 kill."""
    acct = accounts_of(svc)
    fiona, otto = _client(svc, "fiona", "floor-pass-1"), _client(svc, "otto", "other-room-1")

    def two_pots(c, table: str):
        for amount in ("120", "90"):
            r = c.post("/podium/kill", data={"table": table, "w-3": "1", "amount": amount, "go": "pot"})
            assert r.status_code == 200 and r.url.path == "/podium/kill", r.text
        found = svc.log.search({"table": table, "kind": "ruling"}, acct["manny"])["entries"]
        return r.text, found[0]

    page, k1 = two_pots(fiona, "K1")
    assert "kill-pots.two-in-a-row" in k1["rules"] and "must kill the next one: a $40 kill blind" in page
    assert _beside(page) == [] and "No earlier ruling in this room" in page       # the first: itself not listed
    two_pots(otto, "K1")                                                           # riverside's table K1
    page, k2 = two_pots(fiona, "K2")
    shown = _beside(page)
    # beside each of its two rulings (the kill; where the killer acts) its own list: K1's, never riverside's or
    # this table's own ruling
    assert [i for i, _ in shown] == [k1["id"], k1["id"]]
    assert shown[1][1].endswith("The killer acts in his normal turn, right after the player on his right. — no "
                                "decision recorded.")
    assert shown[0][1].startswith(f"#{k1['id']} {k1['at'][:10]} ") and ", fiona, table K1: Seat 3 has won two " \
        "pots in a row and must kill the next one" in shown[0][1]
    page, _ = two_pots(fiona, "K3")
    assert [i for i, _ in _beside(page)] == [k2["id"], k1["id"]] * 2      # newest first
    assert [i for i, _ in _beside(fiona.get("/podium/kill", params={"table": "K2"}).text)] == [k1["id"]] * 2
