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
    end_with_parent(lambda: os._exit(0), parent)   # nothing is left to hand a result to


def end_with_parent(end, parent: int | None = None) -> None:
    """From now on, call ``end()`` (on a thread of its own) once this process's parent (``parent``: the pid
    it had when it was started; else the one it has now) is gone. A pool's worker ends at once; a service
    worker stops in its own way, finishing what it holds."""
    watched = os.getppid() if parent is None else parent

    def watch() -> None:
        while os.getppid() == watched:
            time.sleep(WATCH)
        end()
    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
