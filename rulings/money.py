"""Exact money: amounts read from people and files, kept as int minor units (1/100), written back.

>>> to_minor(Decimal("84.50")), to_minor("$1,000"), to_minor(7)
(8450, 100000, 700)
>>> show(8450), show(8000), show(150000, "tournament")
('$84.50', '$80', '1,500')
>>> major(8450), major(8000)
(Decimal('84.5'), 80)
"""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

SCALE = 100
# The largest amount accepted anywhere (in the game's units): far above any real pot or chip
# count, and far below where durable-rules' 64-bit comparisons go wrong (about 9.2e16 units),
# leaving room for a condition's arithmetic (pot + 2 * to_call ...) to stay exact.
MAX_AMOUNT = 10 ** 12
MAX_MINOR = MAX_AMOUNT * SCALE
_TEXT = re.compile(r"^\s*\$?\s*(-?[0-9][0-9,_]*(?:\.[0-9]+)?|-?\.[0-9]+)\s*$")
# A number read from a file or a client is at most 10^MAX_EXPONENT in size and, in an amount, has at most two
# decimals: an exponent form past it (1.0e+999999999) is a number no limit allows, refused before any
# arithmetic on it (Decimal's context would overflow, and int() of it would write a billion digits).
MAX_EXPONENT = 40
_WHOLE = re.compile(r"[0-9]{1,18}")   # ASCII digits only: '²'.isdigit() is True, but int('²') raises


class MoneyError(ValueError):
    """An amount that is not an exact, non-negative sum of money."""


def to_minor(value: object, *, allow_negative: bool = False) -> int:
    """Convert 80, Decimal('84.50') or '$84.50' to minor units; refuse anything inexact."""
    if isinstance(value, bool) or value is None:
        raise MoneyError(f"{value!r} is not an amount")
    if isinstance(value, float):
        raise MoneyError("a binary float cannot hold money exactly; write it as text or a decimal")
    if isinstance(value, int):
        amount = Decimal(value)
    elif isinstance(value, Decimal):
        amount = value
    elif isinstance(value, str):
        m = _TEXT.match(value)
        if not m:
            raise MoneyError(f"'{value}' is not an amount")
        try:
            amount = Decimal(m.group(1).replace(",", "").replace("_", ""))
        except InvalidOperation:
            raise MoneyError(f"'{value}' is not an amount") from None
    else:
        raise MoneyError(f"{value!r} is not an amount")
    if not amount.is_finite():
        raise MoneyError(f"{_short(value)!r} is not an amount")
    shown = _short(value)
    if amount.is_signed() and amount and not allow_negative:
        raise MoneyError(f"{shown} is negative")
    # adjusted() and copy_abs() use no context, so nothing here overflows or rounds, however large the exponent
    if amount and (amount.adjusted() > MAX_EXPONENT or amount.copy_abs() > MAX_AMOUNT):
        raise MoneyError(f"{shown} is more than the largest amount accepted ({MAX_AMOUNT:,})")
    if not amount:
        return 0   # 0, 0.000 or 0E-999999999: no money, however it is written
    sign, digits, raw_exponent = amount.as_tuple()
    exponent = int(raw_exponent)   # finite, checked above
    end = len(digits)
    while end > 1 and exponent < 0 and digits[end - 1] == 0:   # trailing zeros are not decimals
        end -= 1
        exponent += 1
    if exponent < -2:   # counted on the digits as written, however many there are
        raise MoneyError(f"{shown} has more than two decimal places")
    coefficient = int("".join(map(str, digits[:end])) or "0")
    minor = coefficient * 10 ** (exponent + 2)
    return -minor if sign else minor


def digits(text: object) -> int | None:
    """The number written by ``text`` when it is 1 to 18 ASCII digits, else None: the one test for "a
    number written as text" (a seat as a mapping key, a count in an environment variable, a header).
    ``str.isdigit`` is not it: '²'.isdigit() is True and int('²') raises, and int() of 5,000 digits raises."""
    return int(text) if isinstance(text, str) and _WHOLE.fullmatch(text) else None


def whole_number(value: object, low: int, high: int) -> int | None:
    """A whole number from ``low`` to ``high`` given by a client or a form (an int, or text of ASCII digits
    only); None for anything else. Never ``int()`` of unbounded text: at most 18 digits are read, and a
    digit of another script ('²', '٣'), a sign, a space or a decimal point is not a whole number here."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        if not _WHOLE.fullmatch(value):
            return None
        value = int(value)
    if not isinstance(value, int) or not low <= value <= high:
        return None
    return value


def major(minor: int) -> int | Decimal:
    """Minor units back to the unit people use: an int when whole, else an exact Decimal."""
    q, r = divmod(minor, SCALE)
    return q if r == 0 else Decimal(minor) / SCALE


def show(minor: int, setting: str = "cash") -> str:
    """Money as a floorperson says it: $84.50 or $80 in cash games, plain chips in tournaments."""
    sign = "-" if minor < 0 else ""
    q, r = divmod(abs(minor), SCALE)
    text = f"{q:,}" + (f".{r:02d}" if r else "")
    return f"{sign}${text}" if setting == "cash" else f"{sign}{text}"


def _short(value: object) -> str:
    text = str(value)
    return text if len(text) <= 40 else text[:20] + "..." + text[-8:]
