"""A PHH hand history with a short dispute table is an incident.

The file is PHH (TOML) as any other (rulings/incident/phh_hand.py reads it into the betting
model), plus one user-defined table, ``[_rulings]`` (PHH keeps names starting
with an underscore for its users), holding the incident's other sections:
``disputed`` (one act or a list, each placed ``at``), ``noticed``,
``pointed_out_by``, ``showdown``, ``pots_won``, ``table``, ``procedure``,
``params``, ``house``. The hand becomes the whole-hand form and is read and
checked by the same reader as a YAML incident.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from rulings.money import digits, major
from rulings.problems import Problem, ProblemsError
from rulings.yamlsrc import LimitError, Located, read_bounded

DISPUTE_KEYS = ("incident", "house", "disputed", "noticed", "pointed_out_by", "deliberated", "count_requested",
                "params", "note", "table", "procedure", "showdown", "pots_won", "setting")
PHH_VARIANTS = {"NT": "holdem", "FT": "holdem", "PO": "omaha"}
MAX_PHH_BYTES = 256_000


def _refuse(file: str, code: str, message: str, hint: str | None = None, line: int = 0) -> ProblemsError:
    return ProblemsError([Problem(file, line, 0, code, message, hint=hint)])


def phh_incident_data(text: str, file: str) -> dict[str, Any]:
    """The incident, as data in the whole-hand form, that a PHH file with a ``[_rulings]`` table describes."""
    from rulings.incident.phh_hand import PhhError, phh_from_fields, toml_document
    document, code, why = toml_document(text)
    if document is None:
        raise _refuse(file, code, why)
    extra = document.pop("_rulings", None)
    if not isinstance(extra, dict):
        raise _refuse(file, "I102", "a hand history is an incident with its dispute in a [_rulings] table",
                      "[_rulings]\ndisputed = {seat = 2, said = \"raise\"}")
    unknown = [k for k in extra if k not in DISPUTE_KEYS]
    if unknown:
        raise _refuse(file, "I101", f"_rulings.{unknown[0]}: unknown field", "allowed: " + ", ".join(DISPUTE_KEYS))
    try:
        ph = phh_from_fields(document, source=file)
    except PhhError as exc:
        raise _refuse(file, "I103", str(exc), line=0) from None
    game = ph.hand.game
    data_game: dict[str, Any] = {"variant": PHH_VARIANTS.get(str(document.get("variant")), "holdem"),
                                 "structure": game.structure, "setting": extra.get("setting", "cash"),
                                 "blinds": [major(game.small_blind), major(game.big_blind)], "ante": major(game.ante)}
    if game.bet_sizes:
        data_game["bet_sizes"] = [major(b) for b in game.bet_sizes]
    players = {p.seat: None if p.stack is None else major(p.stack) for p in ph.hand.players}
    names = ("preflop", "flop", "turn", "river")
    streets = []
    for k, acts in enumerate(ph.hand.streets):
        entry: dict[str, Any] = {"street": names[ph.hand.first_street + k], "actions": [
            {"seat": a.seat, "action": a.kind, **({"to": major(a.to)} if a.to is not None else {})} for a in acts]}
        streets.append(entry)
    data: dict[str, Any] = {"incident": Path(file).stem, "game": data_game, "button": ph.hand.players[-1].seat,
                            "players": players, "streets": streets}
    data.update({k: v for k, v in extra.items() if k != "setting"})
    return data


def load_phh_document(path: str | Path) -> Located:
    """A ``.phh`` incident as a document in the whole-hand form, for the reader (positions: the file)."""
    file = str(path)
    try:   # a regular file only, opened without waiting, never more than the limit read (a FIFO, /dev/zero)
        raw = read_bounded(path, MAX_PHH_BYTES)
    except LimitError as exc:
        raise ProblemsError([exc.problem]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _refuse(file, "Y009", "the file is not UTF-8 text", "save it as UTF-8") from None
    return Located(file, _plain(phh_incident_data(text, file)), {})


def _plain(value: Any) -> Any:
    """TOML's Decimal amounts stay exact; mappings keep their keys (seats are numbers)."""
    if isinstance(value, dict):
        return {(k if digits(k) is None else digits(k)): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
