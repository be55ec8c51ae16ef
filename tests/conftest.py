"""Shared fixtures: the standard book compiled once per test session."""
from __future__ import annotations

import pytest

from rulings import books


@pytest.fixture(scope="session")
def standard():
    return books.load()
