"""Shared fixtures: the standard book compiled once per test session (its own engine, outside the cache),
and the service on each database with a test client (svc, client)."""
from __future__ import annotations

import pytest

from rulings.engine.rulesets import Engine
from service_support import BACKENDS, make_service
from rulings.rulebook.load import standard_book


@pytest.fixture(scope="session")
def standard():
    book = standard_book()
    return book, Engine(book)


@pytest.fixture(params=BACKENDS)
def svc(request, tmp_path):
    """A service with its four accounts, on SQLite and on a throw-away PostgreSQL."""
    service = make_service(tmp_path, request.param)
    yield service
    service.close()


@pytest.fixture
def client(svc):
    """A test client of the service on ``svc``; server errors come back as responses."""
    with __import__("warnings").catch_warnings():    # starlette asks for httpx2, which is not needed here
        __import__("warnings").simplefilter("ignore")
        from starlette.testclient import TestClient
    from rulings.service.api.app import create_app
    with TestClient(create_app(service=svc), raise_server_exceptions=False) as c:
        yield c
