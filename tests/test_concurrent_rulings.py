"""Rulings made at once in several threads (as the service's pool of rulers makes them) are the rulings made one
at a time: nothing one consultation hands on to its own fact builders is taken by another's."""
from __future__ import annotations

import sys
import threading

from test_report_snapshot import _outcome


def test_rulings_in_six_threads_at_once_are_those_made_one_at_a_time():
    from rulings.ruling import books
    book, engine = books.load()
    cases = [(str(ex.origin), ex.incident) for rule in book.rules.values() for ex in rule.examples
             if "actions" in ex.incident or "streets" in ex.incident][:120]
    assert len(cases) >= 100
    alone = [_outcome(book, engine, data, file) for file, data in cases]
    start = threading.Barrier(6)
    got: dict[int, list[str]] = {}
    failed: list[BaseException] = []

    def ruler(n: int) -> None:
        start.wait()
        order = cases[n * 20:] + cases[:n * 20]       # each thread from another place, so replays interleave
        try:
            out = [_outcome(book, engine, data, file) for file, data in order]
        except BaseException as exc:                   # pragma: no cover - what the test is there to catch
            failed.append(exc)
            return
        got[n] = out[len(cases) - n * 20:] + out[:len(cases) - n * 20]

    threads = [threading.Thread(target=ruler, args=(n,)) for n in range(6)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)        # threads switch as often as they can: a handover raced shows up here
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert not failed, failed
    for n in range(6):
        assert got[n] == alone, n
