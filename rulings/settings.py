"""Numbers an operator sets in the environment (thread and process counts, seconds, Argon2 costs).

Read in one place so that every one is bounded the same way: a value that is not a number in its range
(``'²'``, ``'-3'``, 5,000 digits, ``'1e999'``, ``'nan'``) is not used; the default is, and the log says
which variable was set wrongly and what was used instead. Never a traceback at start-up or mid-request
because of a typo in a service's unit file."""
from __future__ import annotations

import logging
import math
import os

from rulings.money import digits

log = logging.getLogger("rulings.settings")


def env_whole(name: str, default: int, low: int = 1, high: int = 1024) -> int:
    """The whole number in ``$name`` from ``low`` to ``high``; ``default`` when unset or out of bounds."""
    raw = (os.environ.get(name) or "").strip()
    if not raw:
        return default
    n = digits(raw)
    if n is None or not low <= n <= high:
        log.warning("%s=%r is not a whole number from %d to %d; using %d", name, raw[:40], low, high, default)
        return default
    return n


def env_seconds(name: str, default: float, low: float, high: float) -> float:
    """The seconds in ``$name`` from ``low`` to ``high``; ``default`` when unset or out of bounds."""
    raw = (os.environ.get(name) or "").strip()
    if not raw:
        return default
    try:
        value = float(raw) if len(raw) <= 40 else math.nan
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and low <= value <= high):
        log.warning("%s=%r is not a number of seconds from %g to %g; using %g", name, raw[:40], low, high, default)
        return default
    return value
