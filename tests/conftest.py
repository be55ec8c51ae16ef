"""Shared fixtures: the standard book compiled once per test session (its own engine, outside the cache)."""
from __future__ import annotations

import pytest

from rulings.engine import Engine
from rulings.rulebook.load import standard_book


@pytest.fixture(scope="session")
def standard():
    book = standard_book()
    return book, Engine(book)
