"""The processes our pools start (the service's book checker, the batch's workers) and the service's worker
processes: each ends by itself when the process that started it is gone, so a service or a batch that is
killed outright leaves none behind (a pool's worker otherwise waits for work on its queue for ever, and a
service worker serves on with no one to restart it)."""
from __future__ import annotations

import os
import threading
import time
from typing import Any

WATCH = 0.5   # seconds between two looks at the parent


def pool(processes: int, nice: int = 0) -> Any:
    """A pool of ``processes`` fresh interpreters (spawned: nothing of this process's state is copied), each
    at ``nice`` below this process's priority and ending when this process ends."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    return ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn"), initializer=_started,
                               initargs=(os.getpid(), nice))


def _started(parent: int, nice: int) -> None:
    if nice:
        try:
            os.nice(nice)
        except (AttributeError, OSError):   # not a POSIX system: the same priority
            pass
    threading.Thread(target=_watch, args=(parent,), name="parent-watch", daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH)
    os._exit(0)   # the parent is gone: nothing is left to hand a result to


def end_with_parent(end) -> None:
    """From now on, call ``end()`` (on a thread of its own) once this process's parent is gone: for a process
    that must stop in its own way (a service worker finishing what it holds) rather than at once."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH)
        end()
    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
