"""What a worker does once at start instead of per request: the hand evaluator loaded before the first
showdown (``warm_up``), and the body's text checks as one search each (``control_characters``, ``bounded``)."""
from __future__ import annotations

import subprocess
import sys
import unicodedata

from rulings.service.guard import bounded, control_characters


def test_warm_up_loads_the_evaluator_before_any_ruling():
    code = ("import sys\n"
            "from rulings.service.api.app import warm_up\n"
            "assert 'pokerkit.hands' not in sys.modules\n"
            "warm_up()\n"
            "assert 'pokerkit.hands' in sys.modules\n"
            "from rulings.incident.cards import read_cards\n"
            "from rulings.facts.strength import strength\n"
            "print(strength(read_cards('Ah Kh'), read_cards('Qh Jh Th 2c 3d')).label)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "Straight flush" in out.stdout


def test_control_characters_are_exactly_the_refused_categories():
    """Every code point: refused when its category is Cc (but tab, line feed, carriage return) or Cs."""
    for cp in range(0x110000):
        ch = chr(cp)
        refused = unicodedata.category(ch) in ("Cc", "Cs") and ch not in "\t\n\r"
        assert (control_characters(ch) == ch) is refused, hex(cp)
    assert control_characters("seat 3\tsaid 'call'\r\n") is None
    assert control_characters("ok \x7f then \x00") == "\x7f"


def test_bounded_names_the_path_of_what_it_refuses():
    assert bounded({"incident": {"seats": {"3": {"name": "ok"}}}, "table": "7"}) is None
    assert bounded({"incident": {"seats": [{"name": "x"}, {"name": "y\x00"}]}}) == (
        "incident.seats.1.name: holds the control character U+0000, which a record may not hold")
    assert bounded({"bad\x1bkey": 1}) == "a field name holds the control character U+001B"
    deep: object = 1
    for _ in range(64):
        deep = [deep]
    assert bounded(deep) is None               # 64 levels: the limit itself
    assert bounded([deep]).startswith("the body is nested more than 64 levels deep (at 0.0.0")
