"""The podium as the floor feels it: from the tap on "Rule" to the ruling on screen, in a real browser.

Starts `rulings serve` on 127.0.0.1 (a fresh SQLite data folder, one floor account) and drives the
operating system's Chromium through Playwright at 1024x768 (a tablet), logged in as a floorperson:

- **tap to ruling**: for each case the floor page's form is filled with one of the book's examples (every
  rule example of the standard book that the floor form can hold: game, seats and stacks, button, street,
  pot, the street's actions, the disputed seat's words and chips; kept only when the form reads it into an
  incident the book rules as it rules the example itself), then "Rule" is tapped and the clock runs until
  the ruling is on screen. Two clocks: the browser's own (from the click event on the old page to the
  first contentful paint of the page carrying the ruling, both on the browser's time origin), and this
  script's (from the click to the ruling's section found in the new page, which adds Playwright's round
  trips). Filling the form is not timed (it is what the floorperson taps before "Rule").
- **page weight**: the bytes a floor page load transfers (what the network carries, headers included, as
  Chromium's DevTools protocol counts it), with an empty browser cache, and again with the cache warm; and
  the ruling page that answers the tap.

- **where the time goes**: the tap to the request sent, each stage of the server (the page's Server-Timing
  header: form, rule, log, earlier, page) and the page received to the ruling painted.

A page whose script answers "Rule" in place (its form marked ``data-swap``: the ruling alone posted beside the
whole form, each swapped into the same page) is timed by the browser's Element Timing of the ruling's sentence
(``elementtiming="ruling"``): "painted" is the first ruling painted after the tap, "the whole step painted" the
last (the questions and the log entry with it), each post's server stages read from its Resource Timing. A page
that loads a new document (an older checkout, with ``--against``) is timed by its first contentful paint.

The form is filled as a floorperson's taps fill it: the game's selects announce their change, so the page's
script lays out that game's streets, and every field is checked to hold its value before "Rule" is tapped.
`--against CHECKOUT` starts that checkout's server as well (with its own .venv) and the two take turns, ruling
by ruling on the same case, in one browser: the paired ratio is printed beside both sets of figures.

Every figure is printed beside its aim and the load average. The server is one worker, as `rulings serve`
starts by default; the browser, this script and the server share the machine's cores.

Run: .venv/bin/python benchmarks/podium_speed.py [--rulings 200] [--against ../main]
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

VIEWPORT = {"width": 1024, "height": 768}
AIM_P99_MS = 150
AIM_PAGE_BYTES = 100_000
GAME_KEYS = {"variant", "structure", "setting", "blinds", "ante", "bet_sizes"}
INCIDENT_KEYS = {"game", "players", "button", "street", "pot", "actions", "disputed", "noticed", "pointed_out_by"}


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def _text(v) -> str:
    return "" if v is None else str(v)


def form_fields(inc: dict) -> dict | None:
    """The floor form's fields for an example incident, or None when the form cannot hold it."""
    game = inc.get("game") or {}
    disputed = inc.get("disputed") or {}
    if set(inc) - INCIDENT_KEYS or set(game) - GAME_KEYS or set(disputed) - {"seat", "said", "chips"}:
        return None
    blinds = list(game.get("blinds") or [])
    if len(blinds) not in (0, 2) or not isinstance(inc.get("players"), dict):
        return None
    f = {"variant": game.get("variant", "holdem"), "structure": game["structure"],
         "setting": game.get("setting", "cash"), "sb": _text(blinds[0]) if blinds else "",
         "bb": _text(blinds[1]) if blinds else "", "ante": _text(game.get("ante")),
         "small_bet": "", "big_bet": "", "button": _text(inc.get("button")), "street": _text(inc.get("street")),
         "pot": _text(inc.get("pot")), "d_seat": _text(disputed.get("seat")), "d_said": _text(disputed.get("said")),
         "d_chips": " ".join(map(str, disputed.get("chips") or [])), "noticed": _text(inc.get("noticed")),
         "pointed_out_by": _text(inc.get("pointed_out_by"))}
    sizes = list(game.get("bet_sizes") or [])
    if sizes:
        if len(sizes) != 2:
            return None
        f["small_bet"], f["big_bet"] = map(str, sizes)
    for seat, stack in inc["players"].items():
        f[f"in-{seat}"] = "1"
        f[f"stack-{seat}"] = _text(stack)
    acts = []
    for a in inc.get("actions") or []:
        if set(a) - {"seat", "action", "to"}:
            return None
        acts.append(f"{a['seat']} {a['action']}" + (f" {a['to']}" if a.get("to") is not None else ""))
    f["actions"] = ", ".join(acts)
    return f


def cases() -> list[tuple[str, dict]]:
    """The book's examples the floor form holds, as form fields: read back into an incident that the book
    rules as it rules the example (the same rulings, rule for rule)."""
    from rulings.ruling import books
    from rulings.incident import incident_from_data
    from rulings.problems import ProblemsError
    from rulings.ruling.decide import rule_on
    from rulings.service.podium.form import read_form
    book, engine = books.load(None)

    def rulings(data) -> tuple | None:
        try:
            report = rule_on(incident_from_data(data, book=book), book, engine)
        except ProblemsError:
            return None
        return tuple((r.rule, r.ruling) for r in report.rulings)

    out = []
    for rule in book.rules.values():
        for ex in rule.examples:
            fields = form_fields(ex.incident)
            if fields is None:
                continue
            read = read_form(fields)
            if read.errors:
                continue
            want = rulings(ex.incident)
            if want and rulings(read.incident) == want:
                out.append((f"{rule.id}/{ex.name}", fields))
    return out


FILL = """fields => {
  const form = document.getElementById("hand");
  for (const el of form.elements) {
    if (!el.name || el.type === "hidden" || el.type === "submit" || el.tagName === "BUTTON") continue;
    if (el.type === "checkbox" || el.type === "radio") el.checked = false;
    else if (el.tagName === "SELECT") { if (el.name !== "book") el.selectedIndex = 0; }
    else el.value = "";
  }
  // the game first, each choice announced as a floorperson's pick is ("change"): the page's script then
  // lays out the streets of that game (stud's third to seventh street, draw's before and after the draw)
  for (const el of form.querySelectorAll("select")) {
    if (fields[el.name] !== undefined && fields[el.name] !== "") el.value = fields[el.name];
    el.dispatchEvent(new Event("change", {bubbles: true}));
  }
  for (const [name, value] of Object.entries(fields)) {
    if (value === "") continue;
    const els = form.querySelectorAll(`[name="${name}"]`);
    for (const el of els) {
      if (el.tagName === "SELECT") continue;
      if (el.type === "checkbox" || el.type === "radio") { if (el.value === value) el.checked = true; }
      else el.value = value;
    }
  }
  const missing = Object.entries(fields).filter(([name, value]) => value !== "" &&
    ![...form.querySelectorAll(`[name="${name}"]`)].some(el =>
      (el.type === "checkbox" || el.type === "radio") ? el.checked : el.value === value));
  const rule = [...form.querySelectorAll('button[name="go"]')].find(b => b.value === "rule");
  rule.addEventListener("click", () => {
    sessionStorage.setItem("tap", String(performance.timeOrigin + performance.now()));
  }, {once: true});
  return missing.map(([name]) => name);
}"""

PAINTED = """() => new Promise(done => {
  const tap = Number(sessionStorage.getItem("tap"));
  const look = () => {
    const fcp = performance.getEntriesByName("first-contentful-paint")[0];
    const nav = performance.getEntriesByType("navigation")[0];
    if (!fcp) { requestAnimationFrame(look); return; }
    const server = {};
    for (const t of nav.serverTiming || []) server[t.name] = t.duration;
    done({paint: performance.timeOrigin + fcp.startTime - tap,
          response: performance.timeOrigin + nav.responseEnd - tap,
          sent: performance.timeOrigin + nav.requestStart - tap,
          server,
          ruling: !document.querySelector("#result .problems"),
          problems: (document.querySelector("#result .problems") || {}).innerText || ""});
  };
  look();
})"""


# The page's script answers "Rule" in the same page (the ruling alone first, then the whole step): the clocks
# are then the browser's Element Timing of the ruling's sentence (``elementtiming="ruling"``: when each ruling
# shown was painted) and the Resource Timing of the two posts (each with its Server-Timing).
ARM = """() => {
  performance.clearResourceTimings();
  window.__painted = [];
  if (!window.__watching) {
    window.__watching = new PerformanceObserver(list => {
      for (const e of list.getEntries()) if (e.identifier === "ruling") window.__painted.push(e.renderTime || e.loadTime);
    });
    window.__watching.observe({type: "element", buffered: false});
  }
}"""

SWAPPED = """() => new Promise(done => {
  const tap = Number(sessionStorage.getItem("tap")) - performance.timeOrigin;
  const posts = performance.getEntriesByType("resource").filter(e => e.initiatorType === "fetch" && e.startTime >= tap - 1);
  const stages = e => Object.fromEntries((e.serverTiming || []).map(t => [t.name, t.duration]));
  const whole = posts.find(e => "log" in stages(e)) || posts[posts.length - 1];
  const early = posts.find(e => e !== whole);
  const t0 = performance.now();
  const look = () => {
    const after = window.__painted.filter(t => t >= tap);
    const last = after.length ? Math.max(...after) : -1;
    if ((last < whole.responseEnd || !after.length) && performance.now() - t0 < 2000) { requestAnimationFrame(look); return; }
    done({paint: after.length ? Math.min(...after) - tap : NaN, whole: last - tap,
          response: (early && early.responseEnd < whole.responseEnd && after.length > 1 ? early : whole).responseEnd - tap,
          sent: Math.min(...posts.map(e => e.requestStart)) - tap,
          server: stages(whole), early: early ? stages(early) : {},
          ruling: !document.querySelector("#result .problems"),
          problems: (document.querySelector("#result .problems") || {}).innerText || ""});
  };
  look();
})"""


def _empty() -> dict:
    return {"paint": [], "wall": [], "response": [], "sent": [], "after": [], "server": {}, "refused": [],
            "whole": [], "early": {}}


def measure(ports: list[int], n: int, mix: list[tuple[str, dict]]) -> list[dict]:
    """Each server (``ports``) in its own browser context; the servers take turns, ruling by ruling, on the
    same case (paired runs: both see the same moments of the machine's load)."""
    from playwright import sync_api
    from podium_browser import CHROMIUM_ARGS, chromium_path
    outs = [_empty() for _ in ports]
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True)
        pages = []
        for port, out in zip(ports, outs):
            base = f"http://127.0.0.1:{port}"
            context = browser.new_context(viewport=VIEWPORT)
            context.set_default_timeout(120_000)
            page = context.new_page()
            page.goto(base + "/login?next=/podium")
            page.get_by_label("Name").fill("floor0")
            page.get_by_label("Password").fill("bench-password")
            page.get_by_role("button", name="Log in").click()
            page.wait_for_url(base + "/podium")
            out["weight"] = weights(browser, context, base)
            pages.append(page)
        for i in range(n + 3):           # three untimed first
            name, fields = mix[i % len(mix)]
            for page, out in zip(pages, outs):
                _one(page, out, name, fields, timed=i >= 3)
        browser.close()
    return outs


def _one(page, out: dict, name: str, fields: dict, timed: bool) -> None:
    missing = page.evaluate(FILL, fields)
    if missing:
        raise SystemExit(f"{name}: the form did not take the fields {missing}")
    swap = page.evaluate("() => document.getElementById('hand').dataset.swap === 'yes'")
    if swap:
        page.evaluate(ARM)
    t = time.perf_counter()
    if swap:
        page.get_by_role("button", name="Rule", exact=True).click()
        page.wait_for_selector('#result[data-step="ruling"], #result[data-step="whole"]')
    else:
        with page.expect_navigation(wait_until="commit"):
            page.get_by_role("button", name="Rule", exact=True).click()
        page.wait_for_selector("#result")
    wall = time.perf_counter() - t
    if swap:
        page.wait_for_selector('#result[data-step="whole"]')
    got = page.evaluate(SWAPPED if swap else PAINTED)
    if not got["ruling"]:
        out["refused"].append((name, got["problems"]))
    if timed:
        out["wall"].append(wall * 1000)
        out["paint"].append(got["paint"])
        out["response"].append(got["response"])
        out["sent"].append(got["sent"])
        out["after"].append(got["paint"] - got["response"])
        for stage, ms in got["server"].items():
            out["server"].setdefault(stage, []).append(ms)
        if swap:
            out["whole"].append(got["whole"])
            for stage, ms in got["early"].items():
                out["early"].setdefault(stage, []).append(ms)


def weights(browser, context, base: str) -> dict:
    """Bytes on the wire for a floor page load: cold cache, warm cache (same context, loaded again). A response
    served from the browser's cache carries no bytes; one revalidated (304) carries its headers."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})
    got: list[tuple[str, float]] = []
    urls: dict[str, str] = {}
    cdp.on("Network.requestWillBeSent", lambda e: urls.__setitem__(e["requestId"], e["request"]["url"]))
    cdp.on("Network.loadingFinished", lambda e: got.append((urls.get(e["requestId"], "?"), e["encodedDataLength"]))
           if e["encodedDataLength"] > 0 else None)
    cdp.send("Network.clearBrowserCache")
    page.goto(base + "/podium", wait_until="networkidle")
    cold = list(got)
    got.clear()
    page.goto(base + "/podium", wait_until="networkidle")
    warm = list(got)
    page.close()
    return {"cold": cold, "warm": warm}


def start_at(root: Path, data: Path) -> tuple:
    """``rulings serve`` of another checkout (its own .venv), on a data folder made as ``service_speed.start``
    makes this checkout's (one floor account, floor0)."""
    import subprocess
    from service_speed import _port, listening, start
    if root.resolve() == ROOT:
        return start(data, None, 1, 1)
    from rulings.service.store import db
    from rulings.service.store.auth import add_account
    engine = db.make_engine(db.database_url(None, data))
    db.migrate(engine)
    add_account(engine, "floor0", "bench-password", "floor")
    engine.dispose()
    port = _port()
    python = root / ".venv" / "bin" / "python"
    proc = subprocess.Popen([str(python if python.exists() else sys.executable), "-m", "cli.main", "serve", "--port",
                             str(port), "--data", str(data), "--workers", "1"], cwd=root,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return listening(proc, port, f"the server of {root} did not start")


def report(label: str, got: dict) -> None:
    w = got["weight"]
    cold, warm = sum(b for _, b in w["cold"]), sum(b for _, b in w["warm"])
    print(f"[{label}] floor page load, empty cache: {cold / 1000:.1f} KB in {len(w['cold'])} responses ("
          + ", ".join(f"{u.rsplit('/', 1)[-1] or '/'} {b / 1000:.1f} KB" for u, b in w["cold"])
          + f"); cache warm: {warm / 1000:.1f} KB in {len(w['warm'])} responses from the network; aim < {AIM_PAGE_BYTES // 1000} KB"
          + ("" if cold < AIM_PAGE_BYTES else " (NOT met)"))
    rows = [("tap to ruling painted (browser clock)", got["paint"]),
            ("tap to ruling page received (browser clock)" if not got["whole"] else
             "tap to the answer that was painted first received (browser clock)", got["response"]),
            ("tap to ruling in the page (this script's clock)", got["wall"])]
    if got["whole"]:
        rows.append(("tap to the whole step painted (questions, log; browser clock)", got["whole"]))
    for name, values in rows:
        print(f"[{label}] {name}: median {statistics.median(values):.1f} ms, p99 {pct(values, 99):.1f} ms, "
              f"max {max(values):.1f} ms over {len(values)} rulings; aim p99 < {AIM_P99_MS} ms; {load()}")
    # where the time goes: the browser's part before the request leaves, the server's stages (its
    # Server-Timing header, when it sends one), and the browser's part from the page received to the paint
    parts = [("tap to request sent (browser)", got["sent"])]
    parts += [(f"server: {stage}", values) for stage, values in got["server"].items()]
    if got["server"]:
        parts.append(("server: all stages", [sum(v) for v in zip(*got["server"].values())]))
    if got["early"] and len({len(v) for v in got["early"].values()}) == 1:
        parts += [(f"server, the ruling alone: {stage}", values) for stage, values in got["early"].items()]
        parts.append(("server, the ruling alone: all stages", [sum(v) for v in zip(*got["early"].values())]))
    parts.append(("answer received to ruling painted (browser)", got["after"]))
    for name, values in parts:
        print(f"[{label}]   {name}: median {statistics.median(values):.1f} ms, p99 {pct(values, 99):.1f} ms")
    for name, problems in got["refused"]:
        print(f"[{label}] showed problems, not a ruling: {name}: {' '.join(problems.split())[:300]}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rulings", type=int, default=200)
    ap.add_argument("--against", type=Path, default=None,
                    help="another checkout (e.g. the main branch's) measured in turn with this one, ruling by ruling")
    args = ap.parse_args()
    os.environ.setdefault("RULINGS_ARGON2_MEMORY_KIB", "8192")
    mix = cases()
    n = min(args.rulings, 2000)
    roots = [ROOT] + ([args.against.resolve()] if args.against else [])
    print(f"{len(mix)} of the standard book's examples fit the floor form and rule alike from it; "
          f"{n} rulings over them in turn" + (f", each server in turn ({', '.join(map(str, roots))})"
                                              if len(roots) > 1 else "") + f"; {load()}")
    procs = []
    folders: list[Path] = []
    try:
        for root in roots:
            folders.append(Path(tempfile.mkdtemp(prefix="rulings-podium-bench-")))
            procs.append(start_at(root, folders[-1]))
        outs = measure([port for _, port in procs], n, mix)
    finally:
        for proc, _ in procs:
            proc.terminate()
            proc.wait(timeout=30)
        for folder in folders:   # each server's data folder and ruling log
            shutil.rmtree(folder, ignore_errors=True)
    for root, got in zip(roots, outs):
        report(root.name, got)
    if len(outs) == 2:
        for key, name in (("paint", "painted"), ("response", "received"), ("after", "received to painted")):
            ratios = [a / b for a, b in zip(outs[0][key], outs[1][key]) if b > 0]
            print(f"paired, {roots[0].name} / {roots[1].name}, {name}: median of the per-ruling ratios "
                  f"{statistics.median(ratios):.2f}x; medians {statistics.median(outs[0][key]):.1f} / "
                  f"{statistics.median(outs[1][key]):.1f} ms; p99 {pct(outs[0][key], 99):.1f} / "
                  f"{pct(outs[1][key], 99):.1f} ms")
    print(f"at the end: {load()}")


if __name__ == "__main__":
    import signal
    # stopped with SIGTERM (kill, timeout), its servers and their folders go as at the end of a run
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    main()
