"""The matters rulings decide (rulings/ruling/matters.yaml): which sit within which, the rulings that undo the act,
the rulings that may leave a wager standing outside the limits. Read by rulings/ruling/decide.py and rulings/ruling/now.py."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from rulings.yamlsrc import load_catalogue


@lru_cache(maxsize=1)
def matters() -> tuple[dict[str, dict], dict[str, list[str]], list[str]]:
    """The matters rulings decide, the rulings that undo the act, the rulings that may leave a wager
    standing outside the limits (rulings/ruling/matters.yaml)."""
    from rulings.rulebook.cache import yaml_data   # parsed once, then read back as JSON
    raw = yaml_data([Path(__file__).resolve().parent / "matters.yaml"], _parse)[0]
    return raw.get("matters") or {}, raw.get("voids") or {}, raw.get("stands") or []


def _parse(text: str):
    """PyYAML's safe loading, through libyaml when PyYAML has it (the pure-Python one is 10x slower)."""
    return load_catalogue(text)


def now_order() -> list[str]:
    """The matters whose rulings move chips, award the pot or change who acts, most important first."""
    return list(_now_order())


@lru_cache(maxsize=1)
def _now_order() -> tuple[str, ...]:
    """Read once per process, as ``matters()`` is: a batch asks on every line (the cache file read
    back and its digest checked each time was some 6% of a `rulings rule --jsonl` line)."""
    from rulings.rulebook.cache import yaml_data
    raw = yaml_data([Path(__file__).resolve().parent / "matters.yaml"], _parse)[0]
    return tuple(raw.get("now") or [])


@lru_cache(maxsize=1)
def beside_wager() -> frozenset[str]:
    """The matters whose rulings WHAT HAPPENS NOW says beside a disputed wager that leads it (rulings/ruling/matters.yaml)."""
    from rulings.rulebook.cache import yaml_data
    raw = yaml_data([Path(__file__).resolve().parent / "matters.yaml"], _parse)[0]
    return frozenset(raw.get("beside_wager") or ())


@lru_cache(maxsize=1)
def follows() -> tuple[str, ...]:
    """The matters whose rulings only follow from what was decided (rulings/ruling/matters.yaml): the report gives
    them after the ruling on the dispute's own matter."""
    from rulings.rulebook.cache import yaml_data
    raw = yaml_data([Path(__file__).resolve().parent / "matters.yaml"], _parse)[0]
    return tuple(raw.get("follows") or ())
