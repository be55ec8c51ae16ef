"""The engine's figures in one run, each beside its aim.

- warm: rule_on (incident -> report) and Engine.run alone, median and p99 over
  every example incident and random incidents, beside durable-rules' own floor:
  asserting the same facts into the same compiled rulesets and deleting the
  session, with actions that only record the match (aim: ratio <= 1.5x);
- the second stratum (a decided wager checked by a second run): rule_on with the Memo the two runs
  share, and with a fresh run as before, on the incidents that reach it;
- posts to durable-rules per incident;
- cold `rulings rule` beside a bare `python -c "import yaml, jinja2, rulings._durable.engine"`;
- batch: `rulings rule --jsonl` on 10,000 random incidents, CPU seconds (aim < 5 s);
- books of 139, 500, 1,000 and 2,000 rules (the standard book plus a generated
  house book): load, compile, and per-incident time (aim: 2,000 <= 2x 139).

Run: .venv/bin/python benchmarks/engine_speed.py [--n 2000] [--cold | --firing | --sizes]  (each: only those figures)
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from big_book import FIRING_INCIDENT, write_big_house, write_firing_house  # noqa: E402
from incident_gen import random_incidents  # noqa: E402
from batch_speed import book_mix  # noqa: E402

from rulings.engine.rulesets import Engine  # noqa: E402
from rulings.incident import incident_from_data  # noqa: E402
from rulings.problems import ProblemsError  # noqa: E402
from rulings.rulebook.house import load_house  # noqa: E402
from rulings.rulebook.load import standard_book  # noqa: E402
from rulings.ruling.decide import incident_params, rule_on  # noqa: E402
from rulings.facts.situation import build  # noqa: E402


def corpus(book, engine, n: int) -> list:
    """Incidents the book rules on (refusals left out): every example, then random ones."""
    out = []
    datas = [ex.incident for r in book.rules.values() for ex in r.examples] + random_incidents(99, n)
    for data in datas:
        try:
            inc = incident_from_data(data)
            rule_on(inc, book, engine)
        except ProblemsError:
            continue
        out.append(inc)
    return out


def percentiles(xs: list[float]) -> tuple[float, float]:
    xs = sorted(xs)
    return statistics.median(xs) * 1e3, xs[min(len(xs) - 1, int(len(xs) * 0.99))] * 1e3


def timed(fn, items, rounds: int = 3) -> list[float]:
    """Per-item CPU time, the best of a few rounds for each item (other work shares the machine)."""
    best = [float("inf")] * len(items)
    for _ in range(rounds):
        for i, item in enumerate(items):
            t = time.process_time()
            fn(item)
            best[i] = min(best[i], time.process_time() - t)
    return best


def together(runs: list, rounds: int = 3) -> list[list[float]]:
    """Per-item CPU times of several (function, items) pairs measured in turn, item by item: A, B, C on the
    first item, then on the second, and so on (each the best of a few rounds). Every figure set beside
    another saw the machine at the same moments, so a ratio of them is a paired one."""
    n = len(runs[0][1])
    best = [[float("inf")] * n for _ in runs]
    for _ in range(rounds):
        for i in range(n):
            for k, (fn, items) in enumerate(runs):
                t = time.process_time()
                fn(items[i])
                best[k][i] = min(best[k][i], time.process_time() - t)
    return best


def per_item(a: list[float], b: list[float]) -> float:
    """The median of the per-item ratios a/b (items of no measurable time left out)."""
    return statistics.median([x / y for x, y in zip(a, b) if y > 0])


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def core_floor_fn(engine: Engine):
    """durable-rules' C core alone: the engine's own protocol (assert, take and complete each action,
    delete), with nothing done for an action."""
    import json as _json

    from rulings._durable import durable_rules_engine as core

    def floor(prepared):
        base, facts = prepared
        parts = [p for p in engine._parts if p.admits(facts)]
        for p in parts:
            fact = {k: v for k, v in base.items() if k in p.fields}
            fact["t"], fact["sid"] = "situation", "floor"
            _, offset = core.assert_fact(p.handle, _json.dumps(fact, ensure_ascii=False))
            started = core.start_action_for_state(p.handle, offset)
            message = started[1] if started else None
            while message:
                message = core.complete_and_start_action(p.handle, offset)
        for p in parts:
            core.delete_state(p.handle, "floor")
    return floor


def floor_fn(engine: Engine):
    """durable-rules through its own Python host: assert the facts the engine would assert into the same
    rulesets (actions that only record the match), then delete the session."""
    host = engine._host

    def floor(prepared):
        base, facts = prepared
        sid = "floor"
        parts = [p for p in engine._parts if p.admits(facts)]
        for p in parts:
            fact = {k: v for k, v in base.items() if k in p.fields}
            fact["t"], fact["sid"] = "situation", sid
            assert p.handle   # registered with the host (from a kept form, on first use)
            host.assert_fact(p.name, fact)
        for p in parts:
            host.delete_state(p.name, sid)
        del engine._matched[:]
    return floor


def prepare(book, engine: Engine, incidents: list) -> list:
    out = []
    for inc in incidents:
        params = book.param_values(inc.hand.game.setting, incident_params(book, inc))
        facts = {k: v for k, v in build(inc, params).facts.items() if v is not None}
        base = {k: v for k, v in facts.items() if k in engine._fields}
        base.update({f: params[k] for k, f in engine._param_field.items() if params.get(k) is not None})
        out.append((base, facts, params))
    return out


def warm(book, engine, incidents, label: str) -> dict:
    prepared = prepare(book, engine, incidents)
    for inc in incidents[:200]:
        rule_on(inc, book, engine)
    bases = [(b, f) for b, f, _ in prepared]
    full, run, floor, core = together([(lambda inc: rule_on(inc, book, engine), incidents),
                                       (lambda p: engine.run(p[1], p[2]), prepared),
                                       (floor_fn(engine), bases), (core_floor_fn(engine), bases)])
    (fm, fp), (rm, rp), (dm, dp) = percentiles(full), percentiles(run), percentiles(floor)
    cm, cp = percentiles(core)
    print(f"{label}: {len(book.rules)} rules, {len(engine._parts)} ruleset(s), {len(incidents)} incidents; the four "
          f"measured in turn on each incident; {load()}")
    print(f"  rule_on (incident -> report)  median {fm:6.3f} ms  p99 {fp:6.3f} ms")
    print(f"  Engine.run (facts -> fired)   median {rm:6.3f} ms  p99 {rp:6.3f} ms")
    print(f"  durable floor, its host       median {dm:6.3f} ms  p99 {dp:6.3f} ms   (assert + delete)")
    print(f"  durable floor, its C core     median {cm:6.3f} ms  p99 {cp:6.3f} ms   (the engine's own protocol)")
    print(f"  Engine.run / host floor: median {rm / dm:4.2f}x  p99 {rp / dp:4.2f}x (aim <= 1.5x); "
          f"/ C-core floor: median {rm / cm:4.2f}x  p99 {rp / cp:4.2f}x; rule_on / host floor: {fm / dm:4.2f}x")
    print(f"  per incident, paired: Engine.run / host floor {per_item(run, floor):4.2f}x, / C-core floor "
          f"{per_item(run, core):4.2f}x (medians of each incident's ratio); {load()}")
    return {"rule_on": fm, "run": rm, "floor": dm}


def strata(book, engine, incidents) -> None:
    """The second run of a decided wager, with the Memo it shares with the first and without (same run)."""
    from rulings.ruling import decide as ruling
    from rulings.engine.rulesets import Memo

    runs, posts, real = [0], [0], engine.run

    def counting(*a, **kw):
        runs[0] += 1
        out = real(*a, **kw)
        posts[0] += out.asserts
        return out
    engine.run = counting
    two = []
    for inc in incidents:
        runs[0] = 0
        rule_on(inc, book, engine)
        if runs[0] == 2:
            two.append(inc)
    total_posts = posts[0]
    del engine.run

    def without_memo(inc):
        ruling.Memo = lambda: None   # type: ignore[assignment]
        try:
            rule_on(inc, book, engine)
        finally:
            ruling.Memo = Memo
    shared, fresh = together([(lambda inc: rule_on(inc, book, engine), two), (without_memo, two)])
    (sm, sp), (fm, fp) = percentiles(shared), percentiles(fresh)
    print(f"  second stratum ({len(two)} of {len(incidents)} incidents): rule_on median {sm:.3f} ms p99 {sp:.3f} ms "
          f"with the shared Memo, {fm:.3f} / {fp:.3f} ms with a fresh second run ({sm / fm:.2f}x; paired per "
          f"incident {per_item(shared, fresh):.2f}x); {load()}")
    print(f"  posts to durable-rules (asserts and retracts) per incident: {total_posts / len(incidents):.2f}")


def wall(cmd: list[str], runs: int = 7, **kw) -> float:
    """The median CPU time (user + system) of a command: a busy machine stretches wall time, not this."""
    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, check=False, capture_output=True, cwd=ROOT, **kw)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(times)


def _edited_copy(where: Path) -> Path:
    """A copy of the package whose standard book differs from the shipped one by one comment: a true miss."""
    pkg = where / "rulings"
    shutil.copytree(ROOT / "rulings", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "cli", pkg / "cli", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "rulebooks", pkg / "rulebooks", ignore=shutil.ignore_patterns("__pycache__"))
    topic = pkg / "rulebooks" / "standard" / "wagers.yaml"
    topic.write_bytes(topic.read_bytes() + b"# a comment: the book's bytes differ from the shipped copy's\n")
    return where


def paired(bare: list[str], cmd, runs: int, env: dict) -> tuple[float, float]:
    """A command against the bare import, in pairs (one bare import just before each run, so both see the
    machine as it is at that moment): the command's median CPU time and the median of the pairs' ratios.
    ``cmd(i)`` gives the command line and environment of run ``i`` (a fresh cache folder, an edited file)."""
    times, ratios = [], []
    for i in range(runs):
        b = wall(bare, runs=1, env=env)
        line, its_env = cmd(i)
        t = wall(line, runs=1, env=its_env)
        times.append(t)
        ratios.append(t / b)
    return statistics.median(times), statistics.median(ratios)


SHOWDOWN = "examples/incidents/showdown-misread.yaml"   # a cold ruling that ranks the hands shown


def cold() -> None:
    """Both sides with Python's bytecode cache on, as an installed package has it: where
    PYTHONDONTWRITEBYTECODE is set (as on the machine this was written on), every start compiles
    our modules from source again while the site-packages ones come precompiled.

    Three figures for `rulings rule`: with the cache folder filled; in an empty cache folder (the
    standard book the package came with: its shipped checked copy serves it); and a true miss (a copy
    of the package whose standard book has one comment more, in an empty cache folder: every topic file
    is read and checked, the book compiled, the catalogues parsed and all of it written to the folder).
    Every ratio is the median of paired runs (a bare import, then the command), never one median over
    another: the bare import alone wandered between 61 and 70 ms from one run of this script to the next."""
    py = str(ROOT / ".venv" / "bin" / "python")
    rulings = str(ROOT / ".venv" / "bin" / "rulings")
    incident = "examples/incidents/pl-silent-overchip.yaml"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "RULINGS_SHIPPED")}
    bare_import = [py, "-c", "import yaml, jinja2, rulings._durable.engine"]
    bare, _ = paired(bare_import, lambda i: (bare_import, env), 5, env)
    hit, hit_r = paired(bare_import, lambda i: ([rulings, "rule", incident], env), 15, env)
    # a showdown: the cards are ranked (pokerkit's hand tables, each built when a game first reads it)
    shown_down, shown_r = paired(bare_import, lambda i: ([rulings, "rule", SHOWDOWN], env), 15, env)
    with tempfile.TemporaryDirectory() as copy, tempfile.TemporaryDirectory() as caches:
        edited = [py, "-c", f"import sys; sys.path.insert(0, {str(_edited_copy(Path(copy)))!r}); "
                  "from rulings.cli import run; run()", "rule", incident]
        with tempfile.TemporaryDirectory() as d:   # once to compile the copy's modules, and to check it is the copy
            out = subprocess.run(edited + ["--verbose"], cwd=ROOT, env=dict(env, RULINGS_CACHE=d),
                                 capture_output=True, text=True)
            assert out.returncode == 0 and "pot-limit.silent-overchip-is-pot-bet" in out.stdout, out.stdout + out.stderr
            # a report never prints an install's absolute path (rulebook.model.shown): the copy's book is the one
            # its loader finds
            found = subprocess.run([py, "-c", f"import sys; sys.path.insert(0, {copy!r}); "
                                    "import rulings.rulebook.load as load; print(load.ROOT)"],
                                   cwd=ROOT, env=env, capture_output=True, text=True)
            assert found.stdout.strip() == f"{copy}/rulings/rulebooks", found.stdout + found.stderr

        def fresh(name: str, **more) -> dict:   # an empty cache folder of its own for each run
            folder = Path(caches) / name
            folder.mkdir()
            return dict(env, RULINGS_CACHE=str(folder), **more)

        empty, empty_r = paired(bare_import, lambda i: ([rulings, "rule", incident], fresh(f"e{i}")), 7, env)
        miss, miss_r = paired(bare_import, lambda i: (edited, fresh(f"m{i}")), 7, env)
        # no shipped copy: every file read and checked, as before it
        full, full_r = paired(bare_import, lambda i: ([rulings, "rule", incident], fresh(f"f{i}", RULINGS_SHIPPED="off")),
                              7, env)
    # with a house book: the merged book and its compiled form come from the cache folder; a manager's edit
    # (a sentence changed) reads and checks the house file, keeps the merged book again and compiles the rules
    # the shipped copy lacks
    house, house_r = paired(bare_import, lambda i: ([rulings, "rule", incident, "--house", "tda-series"], env), 7, env)
    with tempfile.TemporaryDirectory() as d:
        text = (ROOT / "rulebooks" / "houses" / "tda-series.yaml").read_text(encoding="utf-8")
        assert "The round was capped at five bets" in text

        def edited_house(i: int):
            path = Path(d) / f"edited-{i}.yaml"
            path.write_text(text.replace("The round was capped at five bets", f"The round was capped ({i})"),
                            encoding="utf-8")
            return [rulings, "rule", incident, "--house", str(path)], env
        edit, edit_r = paired(bare_import, edited_house, 7, env)
    print(f"cold `rulings rule` (CPU, medians; ratios are medians of paired runs; load average "
          f"{os.getloadavg()[0]:.2f}): {hit * 1e3:.0f} ms with the cache, {empty * 1e3:.0f} ms in an empty cache "
          f"folder (the shipped copy), {miss * 1e3:.0f} ms on a true miss (a book file changed); bare import "
          f"{bare * 1e3:.0f} ms; ratio {hit_r:.2f}x (aim <= 1.5x), empty folder {empty_r:.2f}x, "
          f"true miss {miss_r:.2f}x (aim <= 2x on a miss)")
    print(f"  every file read and checked (RULINGS_SHIPPED=off, an empty folder): {full * 1e3:.0f} ms ({full_r:.2f}x)")
    print(f"  a showdown ({SHOWDOWN}, with the cache): {shown_down * 1e3:.0f} ms ({shown_r:.2f}x; aim <= 1.6x)")
    print(f"  with a house book: {house * 1e3:.0f} ms ({house_r:.2f}x); its sentence just edited "
          f"{edit * 1e3:.0f} ms ({edit_r:.2f}x)")


def batch(n: int) -> None:
    for label, lines in (("random incidents", random_incidents(5, n)), ("the book's own mix", book_mix(n))):
        with tempfile.TemporaryDirectory() as d:
            src = Path(d) / "incidents.jsonl"
            src.write_text("".join(json.dumps(x) + "\n" for x in lines))
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run([str(ROOT / ".venv" / "bin" / "rulings"), "rule", "--jsonl", str(src)],
                           stdout=subprocess.DEVNULL, cwd=ROOT)
            elapsed = time.perf_counter() - t
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        print(f"batch: {n:,} incidents ({label}) through `rulings rule --jsonl`: {cpu:.2f} s CPU (one core), "
              f"{elapsed:.2f} s wall, {n / cpu:,.0f} incidents/s (aim: 10,000 in < 5 s); {load()}")


def sizes(standard, incidents: list) -> None:
    """Books of the standard size, 500, 1,000 and 2,000 rules: each incident ruled by every book in turn
    (paired), so the ratios to the standard book saw the machine alike."""
    built = []
    for total in (len(standard.rules), 500, 1000, 2000):
        with tempfile.TemporaryDirectory() as d:
            t = time.perf_counter()
            if total == len(standard.rules):
                book = standard
            else:
                book = load_house(write_big_house(Path(d), total - len(standard.rules)), standard)
            t_load = time.perf_counter() - t
        t = time.perf_counter()
        engine = Engine(book)
        t_compile = time.perf_counter() - t
        for inc in incidents[:100]:
            rule_on(inc, book, engine)
        built.append((book, engine, t_load, t_compile))
    times = together([(lambda inc, book=book, engine=engine: rule_on(inc, book, engine), incidents)
                      for book, engine, _, _ in built], rounds=2)
    cores = together([(core_floor_fn(engine), [(b, f) for b, f, _ in prepare(book, engine, incidents)])
                      for book, engine, _, _ in built], rounds=2)
    for (book, engine, t_load, t_compile), xs, cs in zip(built, times, cores):
        med, p99 = percentiles(xs)
        mean = statistics.mean(xs) * 1e3
        core, _ = percentiles(cs)
        base_med, base_p99 = percentiles(times[0])
        base_mean = statistics.mean(times[0]) * 1e3
        prepared = prepare(book, engine, incidents)
        fired = sum(len(engine.run(f, p).fired) for _, f, p in prepared) / len(prepared)
        print(f"  {len(book.rules):5} rules, {len(engine._parts):2} rulesets: load {t_load * 1e3:6.0f} ms, "
              f"compile {t_compile * 1e3:4.0f} ms, rule_on median {med:.3f} ms mean {mean:.3f} ms p99 {p99:.3f} ms "
              f"({med / base_med:.2f}x / {mean / base_mean:.2f}x / {p99 / base_p99:.2f}x the standard book; paired per "
              f"incident {per_item(xs, times[0]):.2f}x; aim <= 2x); matching alone (C core) {core:.3f} ms "
              f"({core / percentiles(cores[0])[0]:.2f}x); rules fired per incident {fired:.1f}; {load()}")
    for book, engine, _, _ in built[1:]:
        engine.close()


def firing(standard) -> None:
    """One incident on which every house rule fires: 100 and 400 of them, each on its own question or all on one
    (then each is weighed against the others), beside the standard book alone on the same incident."""
    import yaml
    inc = incident_from_data(yaml.safe_load(FIRING_INCIDENT))
    engine = Engine(standard)
    alone = lambda _: rule_on(inc, standard, engine)   # noqa: E731
    print(f"firing house rules (each book's runs take turns with the standard book's alone; {load()}):")
    for n in (100, 400):
        for one in (False, True):
            with tempfile.TemporaryDirectory() as d:
                book = load_house(write_firing_house(Path(d), n, one), standard)
            eng = Engine(book)
            report = rule_on(inc, book, eng)
            (b, f, _), = prepare(book, eng, [inc])
            xs, bs, cs = together([(lambda _, book=book, eng=eng: rule_on(inc, book, eng), [None] * 30),
                                   (alone, [None] * 30), (core_floor_fn(eng), [(b, f)] * 30)])
            (med, p99), base, core = percentiles(xs), statistics.median(bs), statistics.median(cs)
            print(f"  {n} firing, {'one shared question' if one else 'each its own question'}: median {med:.2f} ms "
                  f"p99 {p99:.2f} ms (the standard book alone {base * 1e3:.3f} ms), "
                  f"{(med - base * 1e3) / n * 1e3:.1f} us per fired rule, "
                  f"{len(report.rulings)} in force (aim for 400: <= 5 ms); {load()}")
            print(f"    durable-rules' C-core floor for this book on the incident (its own protocol: assert into "
                  f"each ruleset, take each action, delete; as the warm figures'): {core * 1e3:.2f} ms, "
                  f"the ruling {med / (core * 1e3):.2f}x it")
            eng.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2000, help="random incidents in the warm corpus")
    ap.add_argument("--batch", type=int, default=10000)
    ap.add_argument("--cold", action="store_true", help="only the cold start figures")
    ap.add_argument("--firing", action="store_true", help="only the firing house rules figures")
    ap.add_argument("--sizes", action="store_true", help="only the books by size figures")
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; Python {sys.version.split()[0]}")
    if args.cold:
        cold()
        return
    book = standard_book()
    if args.firing:
        firing(book)
        return
    engine = Engine(book)
    incidents = corpus(book, engine, args.n)
    if args.sizes:
        sizes(book, incidents[: min(len(incidents), 600)])
        return
    warm(book, engine, incidents, "standard book")
    strata(book, engine, incidents)
    cold()
    batch(args.batch)
    print("books by size (the standard book plus a generated house book):")
    sizes(book, incidents[: min(len(incidents), 600)])
    firing(book)


if __name__ == "__main__":
    main()
