"""The chain's shared state on PostgreSQL, in process: published house books as rows that every service
follows, a single host's published books imported into the database, the CSRF secret and the kill page's
tables shared. (tests/test_service_chain.py runs the same through real servers behind nginx.)"""
from __future__ import annotations

import json
import threading
import time

import sqlalchemy as sa

from service_support import ROOT, accounts_of, make_service, overchip

# how long a version may take to come in force here: a hang's bound only. Stored straight into the database,
# a version is read, merged and compiled from nothing by the watcher (a publish from the podium has the
# checking process compile it first); the 2 s bound of a publish is measured in tests/test_service_chain.py
BOUND = 60.0


def _text(kill: str, name: str = "chain-room") -> str:
    return f"rulebook: {name}\nextends: standard\ntitle: Chain room\nparameters:\n  kill.size: {kill}\n"


def _in_force(svc, name: str, version: int, bound: float = BOUND) -> float:
    start = time.monotonic()
    while time.monotonic() - start < bound:
        warm = svc.books.books.get(name)
        if warm is not None and warm.version == version:
            return time.monotonic() - start
        time.sleep(0.01)
    raise AssertionError(f"{name} version {version} not in force within {bound} s")


def test_a_version_stored_by_one_service_is_in_force_on_another_and_recorded_with_each_ruling(tmp_path):
    from rulings.service.store.chain import store_version
    a = make_service(tmp_path / "a", "postgresql")
    from rulings.service.core import Config, Service
    b = Service(Config(data_dir=tmp_path / "b", database=a.config.database))
    try:
        assert a.books.chain and b.books.chain
        store_version(a.engine, "chain-room", _text("half"), "manny", "first", room="main")
        _in_force(a, "chain-room", 1)
        _in_force(b, "chain-room", 1)
        assert b.books.get("chain-room").book.settings == {"kill.size": "half"}
        store_version(b.engine, "chain-room", _text("full"), "manny", "second", room="main")
        _in_force(a, "chain-room", 2)
        _in_force(b, "chain-room", 2)
        assert a.books.get("chain-room").book.settings == {"kill.size": "full"}
        assert a.books.get("chain-room").hash == b.books.get("chain-room").hash   # one version, one hash
        fiona = accounts_of(a)["fiona"]
        out = b.rule_and_record(fiona, incident=overchip(), book="chain-room", consult=False)
        assert out["entry"]["book_version"] == 2
        entry = a.log.get(out["entry"]["id"], fiona)
        assert entry["book_version"] == 2 and entry["book_hash"] == a.books.get("chain-room").hash
        # the standard book has no published version
        assert a.rule_and_record(fiona, incident=overchip(), consult=False)["entry"]["book_version"] is None
        # every version listed on every server, the one in force marked, the text found by its hash
        versions = b.books.published.versions("chain-room")
        assert [(v["version"], v["live"], v["note"]) for v in versions] == [(2, True, "second"), (1, False, "first")]
        assert a.books.published.version_text("chain-room", versions[1]["hash"]) == _text("half")
    finally:
        b.close()
        a.close()


def test_two_servers_publishing_at_once_each_get_a_version_of_their_own(tmp_path):
    from rulings.service.store.chain import store_version
    svc = make_service(tmp_path, "postgresql")
    numbers: list[int] = []
    try:
        def publish(i: int) -> None:
            numbers.append(store_version(svc.engine, "chain-room", _text("half") + f"# {i}\n", "manny")["version"])
        threads = [threading.Thread(target=publish, args=(i,)) for i in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert sorted(numbers) == [1, 2, 3, 4, 5, 6]
        _in_force(svc, "chain-room", 6)
    finally:
        svc.close()


def test_published_versions_are_kept_as_they_were(tmp_path):
    from rulings.service.store import db
    from rulings.service.store.chain import store_version
    svc = make_service(tmp_path, "postgresql")
    try:
        store_version(svc.engine, "chain-room", _text("half"), "manny")
        for stmt in (sa.update(db.book_versions).values(content="x"), sa.delete(db.book_versions)):
            try:
                with svc.engine.begin() as conn:
                    conn.execute(stmt)
            except sa.exc.DatabaseError as exc:
                assert "append-only" in str(exc)
            else:
                raise AssertionError("a published version was changed")
    finally:
        svc.close()


def test_a_single_hosts_published_books_are_imported_into_the_chain(tmp_path, capsys):
    """`rulings chain import-books`: the folder's versions in order, the one in force last; run again, nothing."""
    from cli.main import main
    from rulings.service.core import Config, Service
    text = (ROOT / "rulebooks" / "houses" / "east-coast-limit.yaml").read_text(encoding="utf-8")
    folder = tmp_path / "single" / "houses" / "east-coast-limit"
    folder.mkdir(parents=True)
    for n, body in ((1, text + "# one\n"), (2, text + "# two\n"), (3, text + "# three\n")):
        (folder / f"{n:04d}.yaml").write_text(body, encoding="utf-8")
        (folder / f"{n:04d}.json").write_text(json.dumps({"version": n, "by": "manny", "note": f"v{n}",
                                                          "at": "2026-12-01T10:00:00Z"}), encoding="utf-8")
    (folder / "current").write_text("0002.yaml\n", encoding="utf-8")     # rolled back to version 2
    svc = make_service(tmp_path / "chain", "postgresql")
    url = svc.config.database
    try:
        assert main(["chain", "import-books", "--data", str(tmp_path / "single"), "--database", url]) == 0
        out = capsys.readouterr().out
        assert "3 version(s) imported" in out
        _in_force(svc, "east-coast-limit", 3)
        assert svc.books.published.text("east-coast-limit") == text + "# two\n"     # the single host's in force
        assert main(["chain", "import-books", "--data", str(tmp_path / "single"), "--database", url]) == 0
        assert "0 version(s) imported" in capsys.readouterr().out
        # a server on an empty data folder serves the imported book at once
        fresh = Service(Config(data_dir=tmp_path / "empty", database=url))
        try:
            assert fresh.books.get("east-coast-limit").version == 3
            assert fresh.books.published.text("east-coast-limit") == text + "# two\n"
        finally:
            fresh.close()
    finally:
        svc.close()
    assert main(["chain", "import-books", "--data", str(tmp_path / "single")]) == 2
    assert "--database" in capsys.readouterr().err


def test_the_csrf_secret_and_the_kill_tables_are_the_chains(tmp_path):
    from rulings.service.core import Config, Service
    from rulings.service.store.chain import load_table_state, save_table_state
    a = make_service(tmp_path / "a", "postgresql")
    b = Service(Config(data_dir=tmp_path / "b", database=a.config.database))
    try:
        assert a.shared_secret("csrf") == b.shared_secret("csrf") and len(a.shared_secret("csrf")) == 32
        save_table_state(a.engine, "main", "7", {"pots": [1]})
        save_table_state(a.engine, "main", "7", {"pots": [1, 2]})
        assert load_table_state(b.engine, "main", "7") == {"pots": [1, 2]}
        assert load_table_state(b.engine, "riverside", "7") is None
    finally:
        b.close()
        a.close()


def test_sqlite_keeps_the_data_folder(tmp_path):
    svc = make_service(tmp_path, "sqlite")
    try:
        assert not svc.books.chain and svc.shared_secret("csrf") is None
    finally:
        svc.close()


def test_a_version_published_while_the_watcher_was_cut_off_comes_in_force_when_it_is_back(tmp_path, caplog):
    """The watcher's connection is ended by the database (a restart, a network cut): it says so, connects
    again, and finds the version published meanwhile without its notice."""
    from rulings.service.store.chain import store_version
    svc = make_service(tmp_path, "postgresql")
    try:
        listening = "SELECT pid FROM pg_stat_activity WHERE query LIKE '%max(id)%FROM book_versions%' " \
                    "AND pid <> pg_backend_pid()"
        deadline = time.monotonic() + 30
        with svc.engine.connect() as conn:
            while not conn.execute(sa.text(listening)).all():
                assert time.monotonic() < deadline, "no watcher connection found"
                time.sleep(0.05)
        with svc.engine.begin() as conn:
            conn.execute(sa.text(f"SELECT pg_terminate_backend(pid) FROM ({listening}) AS w"))
        store_version(svc.engine, "chain-room", _text("half"), "manny")
        _in_force(svc, "chain-room", 1)
        assert any("watcher lost the database" in r.getMessage() for r in caplog.records)
    finally:
        svc.close()
