"""A generated house book of any size over the standard book: rules spread over structures, settings and streets.

Each rule gives its own ruling on its own question when the pot reaches a
threshold, with an example on each side of it. Used by the 2,000-rule test
and by benchmarks/engine_speed.py.
"""
from __future__ import annotations

from pathlib import Path

STRUCTURES = ("no-limit", "pot-limit", "fixed-limit", "spread-limit")
SETTINGS = ("cash", "tournament")
STREETS = ("flop", "turn", "river")


def incident(structure: str, setting: str, street: str, pot: int) -> str:
    game = f"structure: {structure}" + (", setting: tournament" if setting == "tournament" else "") + \
        (", bet_sizes: [2, 4]" if structure in ("fixed-limit", "spread-limit") else "")
    return f"{{game: {{{game}}}, button: 2, players: {{1: 9, 2: 9}}, street: {street}, pot: {pot}}}"


def house_rule(i: int) -> str:
    s = STRUCTURES[i % 4]
    t = SETTINGS[(i // 4) % 2]
    u = STREETS[(i // 8) % 3]
    at = 10 + (i * 7) % 400
    return (f"- id: big-house.r{i}\n"
            f"  title: R{i}\n"
            f"  cites: [HOUSE-B-1]\n"
            f"  text: Pot {at}.\n"
            f"  when: {{structure: {s}, setting: {t}, street: {u}, pot: {{at_least: {at}}}}}\n"
            f"  then: {{ruling: h{i}, decides: q{i}}}\n"
            f"  examples:\n"
            f"  - {{name: a, incident: {incident(s, t, u, at)}, expect: {{ruling: h{i}}}}}\n"
            f"  - {{name: b, incident: {incident(s, t, u, at - 1)}, expect: {{fires: false}}}}\n")


def write_big_house(folder: Path, rules: int) -> Path:
    """A house book of ``rules`` rules written to folder/big-house.yaml."""
    path = Path(folder) / "big-house.yaml"
    path.write_text("rulebook: big-house\nextends: standard\ntitle: A room with many house rules\nrules:\n"
                    + "".join(house_rule(i) for i in range(rules))
                    + "citations:\n  HOUSE-B-1: the room's posted rules\n")
    return path


FIRING_INCIDENT = "{game: {structure: no-limit}, button: 2, players: {1: 900, 2: 900}, street: flop, pot: 300}"


def firing_rule(i: int, one_matter: bool) -> str:
    """A house rule that fires on FIRING_INCIDENT (a $300 pot on the flop): its own question, or one question
    shared by every such rule (``one_matter``), so that they must all be weighed against each other."""
    at = 10 + i % 200
    below = FIRING_INCIDENT.replace("pot: 300", f"pot: {at - 1}")
    return (f"- id: firing-house.r{i}\n"
            f"  title: F{i}\n"
            f"  cites: [HOUSE-F-{i}]\n"
            f"  text: Pot {at}.\n"
            f"  when: {{structure: no-limit, street: flop, pot: {{at_least: {at}}}}}\n"
            f"  then: {{ruling: f{i}, decides: {'shared-question' if one_matter else f'f{i}'}}}\n"
            f"  examples:\n"
            f"  - {{name: a, incident: {FIRING_INCIDENT}, expect: {{fires: true}}}}\n"
            f"  - {{name: b, incident: {below}, expect: {{fires: false}}}}\n")


def write_firing_house(folder: Path, rules: int, one_matter: bool = False) -> Path:
    """A house book of ``rules`` rules that all fire on FIRING_INCIDENT, written to folder/firing-house.yaml."""
    path = Path(folder) / "firing-house.yaml"
    path.write_text("rulebook: firing-house\nextends: standard\ntitle: A room whose house rules all fire at once\n"
                    "rules:\n" + "".join(firing_rule(i, one_matter) for i in range(rules)))
    return path
