"""Numbers an operator sets in the environment are bounded where they are read (rulings/settings.py)."""
from __future__ import annotations

import pytest

from rulings.service.core import RULING_THREADS, ruling_threads
from rulings.service.store.housebook import CHECK_SECONDS, check_seconds
from rulings.settings import env_seconds, env_whole


@pytest.mark.parametrize("raw", ["\u00b2", "9" * 5000, "-3", "0", "1e3", "  ", "65"])
def test_a_count_that_is_no_count_in_range_falls_back_to_the_default_and_says_so(monkeypatch, caplog, raw):
    monkeypatch.setenv("RULINGS_RULING_THREADS", raw)
    assert ruling_threads() == RULING_THREADS
    assert env_whole("RULINGS_RULING_THREADS", 7, 1, 64) == 7
    if raw.strip():
        assert "RULINGS_RULING_THREADS" in caplog.text


def test_a_count_in_range_is_used(monkeypatch):
    monkeypatch.setenv("RULINGS_RULING_THREADS", "3")
    assert ruling_threads() == 3


@pytest.mark.parametrize("raw", ["nan", "inf", "1e999", "-5", "0", "\u00b2", "9" * 5000])
def test_seconds_out_of_range_fall_back_to_the_default(monkeypatch, raw):
    monkeypatch.setenv("RULINGS_CHECK_SECONDS", raw)
    assert check_seconds() == CHECK_SECONDS


def test_seconds_in_range_are_used(monkeypatch):
    monkeypatch.setenv("RULINGS_CHECK_SECONDS", "2.5")
    assert check_seconds() == 2.5
    assert env_seconds("RULINGS_CHECK_SECONDS", 1.0, 3.0, 9.0) == 1.0     # below its low bound
