"""`rulings serve` and `rulings users`: the command-line side of the service (imports the web stack lazily)."""
from __future__ import annotations


def add_commands(sub) -> None:
    pass
