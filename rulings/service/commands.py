"""`rulings serve`, `rulings users` and `rulings chain`: the command-line side of the service (the web stack imported lazily)."""
from __future__ import annotations

import getpass
import json
import os
import sys
from pathlib import Path


def add_commands(sub) -> None:
    s = sub.add_parser("serve", help="the ruling service: JSON API, consultation, ruling log (see rulings/service/API.md)")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--data", help="data folder (default $RULINGS_DATA, else $XDG_DATA_HOME/rulings or ~/.local/share/rulings)")
    s.add_argument("--database", default=os.environ.get("RULINGS_DATABASE") or None,
                   help="postgresql://user@host/db (default $RULINGS_DATABASE, else SQLite in the data folder)")
    s.add_argument("--session-hours", type=float, default=12.0, help="how long a login lasts (default 12)")
    s.add_argument("--workers", type=int, default=1,
                   help="worker processes (default 1); each keeps its own warm books; login limits and "
                        "logouts hold across them")
    s.add_argument("--time-zone", default="UTC", help="the card room's time zone for the podium's pages, an IANA "
                   "name such as America/Los_Angeles (default UTC; times are stored in UTC)")
    s.add_argument("--room-zone", action="append", default=[], metavar="ROOM=ZONE",
                   help="a room's own time zone where it differs from --time-zone (repeat for each room)")
    s.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDRESS",
                   help="a reverse proxy whose X-Forwarded-For names the client (an address or a network such as "
                        "10.0.0.0/24; repeat for each). Default none: the headers are ignored, from loopback too")
    s.add_argument("--log-level", default="warning", choices=("critical", "error", "warning", "info", "debug"))
    s.set_defaults(run=cmd_serve)
    u = sub.add_parser("users", help="accounts of the ruling service")
    usub = u.add_subparsers(dest="verb", required=True, parser_class=type(u))
    add = usub.add_parser("add", help="create an account")
    add.add_argument("name")
    add.add_argument("--role", required=True, choices=("floor", "manager", "admin"))
    add.add_argument("--room", default="main", help="the account's card room (default main)")
    add.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    ls = usub.add_parser("list", help="list the accounts")
    for p in (add, ls):
        p.add_argument("--data", help="data folder (default $RULINGS_DATA, else $XDG_DATA_HOME/rulings or ~/.local/share/rulings)")
        p.add_argument("--database", default=os.environ.get("RULINGS_DATABASE") or None,
                       help="postgresql://user@host/db (default $RULINGS_DATABASE, else SQLite in the data folder)")
    add.set_defaults(run=cmd_users_add)
    ls.set_defaults(run=cmd_users_list)
    ch = sub.add_parser("chain", help="a chain of rooms on one PostgreSQL (docs/service.md)")
    chsub = ch.add_subparsers(dest="verb", required=True, parser_class=type(ch))
    imp = chsub.add_parser("import-books", help="a single host's published house books (DATA/houses/) into the "
                           "chain's database, the version in force last")
    imp.add_argument("--data", help="the single host's data folder (default $RULINGS_DATA, else $XDG_DATA_HOME/rulings "
                     "or ~/.local/share/rulings)")
    imp.add_argument("--database", default=os.environ.get("RULINGS_DATABASE") or None,
                     help="the chain's postgresql://user@host/db (default $RULINGS_DATABASE)")
    imp.set_defaults(run=cmd_chain_import)
    rb = chsub.add_parser("room-book", help="give a room its own house book: its managers change only that one "
                          "(--none: any again)")
    rb.add_argument("room")
    rb.add_argument("book", nargs="?", help="the room's house book")
    rb.add_argument("--none", action="store_true", help="the room has no book of its own")
    rb.add_argument("--data", help="data folder (default $RULINGS_DATA, else $XDG_DATA_HOME/rulings or ~/.local/share/rulings)")
    rb.add_argument("--database", default=os.environ.get("RULINGS_DATABASE") or None,
                    help="postgresql://user@host/db (default $RULINGS_DATABASE, else SQLite in the data folder)")
    rb.set_defaults(run=cmd_chain_room_book)


def _engine(args):
    from rulings.service.store import db
    data = Path(args.data) if args.data else db.default_data_dir()
    engine = db.make_engine(db.database_url(args.database, data))
    db.migrate(engine)
    return engine, data


def _service_elsewhere(args) -> str | None:
    """Why `users add` would write where the running service does not look, or None.

    The account goes to the database this command chose (``--data``/``--database``, ``$RULINGS_DATA``/
    ``$RULINGS_DATABASE``, else the user's data folder). A service running now (its note: rulings/service/
    running.py) that uses another database would not know the account: when the database was only the default,
    this is refused with the options that reach the service's; when it was chosen, it is said and done."""
    from rulings.service import running
    from rulings.service.store import db
    data = Path(args.data) if args.data else db.default_data_dir()
    mine = running.database_of(args.database, data)
    notes = running.services()
    if not notes or any(n["database"] == mine for n in notes):
        return None
    note = notes[-1]
    chosen = bool(args.data or args.database or os.environ.get("RULINGS_DATA"))
    reach = (f"--database '{note['database']}' (with its password, or $RULINGS_DATABASE)" if note.get("postgresql")
             else f"--data {note['data']}")
    words = (f"{running.described(note)} uses {note['database']}; this account would go to {mine}, "
             "which it does not read")
    if chosen:
        print(f"rulings: note: {words}.", file=sys.stderr)
        return None
    return (f"rulings: {words}: nothing was written. Add it where the service reads: rulings users add "
            f"{args.name} --role {args.role} {reach}; or give --data/--database to mean this database")


def cmd_users_add(args) -> int:
    from rulings.service.store.auth import add_account
    refused = _service_elsewhere(args)
    if refused:
        print(refused, file=sys.stderr)
        return 2
    if args.password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    else:
        try:
            password = getpass.getpass(f"password for {args.name}: ")
            again = getpass.getpass("again: ")
        except EOFError:   # no terminal and nothing on standard input: a script, not a bug
            print("\nrulings: no password was typed (standard input ended): run it at a terminal, or give the "
                  "password on standard input with --password-stdin", file=sys.stderr)
            return 2
        if password != again:
            print("rulings: the passwords differ", file=sys.stderr)
            return 2
    engine, _ = _engine(args)
    where = _database_words(engine)
    try:
        account = add_account(engine, args.name, password, args.role, args.room)
    except ValueError as exc:
        print(f"rulings: {exc} (database {where})", file=sys.stderr)
        return 2
    finally:
        engine.dispose()
    # which database: a service started with another --data or --database does not know this account
    print(f"account {account.username} ({account.role}, room {account.room}) created in {where}; a service "
          "started with another --data or --database will not know it")
    return 0


def _database_words(engine) -> str:
    """The database an engine writes to, as `rulings serve` names it: SQLite's file, or PostgreSQL's host and
    database (never its password)."""
    if engine.dialect.name == "sqlite":
        return f"SQLite {Path(engine.url.database or '').resolve()}"
    return f"{engine.dialect.name} {engine.url.render_as_string(hide_password=True).split('@')[-1]}"


def cmd_users_list(args) -> int:
    from rulings.service.store.auth import list_accounts
    engine, _ = _engine(args)
    for a in list_accounts(engine):
        print(f"{a['username']:24} {a['role']:8} {a['room']:16} {'disabled' if a['disabled'] else ''}")
    engine.dispose()
    return 0


def cmd_chain_import(args) -> int:
    """Copy a single host's published house books into the chain's database (run again: nothing twice)."""
    from rulings.service.store import db
    from rulings.service.store.chain import import_folder, is_chain
    if not args.database:
        print("rulings: give the chain's database: --database postgresql://user@host/db (or $RULINGS_DATABASE)",
              file=sys.stderr)
        return 2
    data = Path(args.data) if args.data else db.default_data_dir()
    if not (data / "houses").is_dir():
        print(f"rulings: {data} has no published house books (no folder {data / 'houses'})", file=sys.stderr)
        return 2
    try:
        engine = db.make_engine(db.database_url(args.database, data))
        if not is_chain(engine):
            print("rulings: the chain's database is a PostgreSQL one (postgresql://...)", file=sys.stderr)
            return 2
        db.migrate(engine)
    except Exception as exc:   # a database that cannot be reached or migrated: one line, exit 2
        print(f"rulings: cannot open the database: {exc.__class__.__name__}: {str(exc).splitlines()[0]}",
              file=sys.stderr)
        return 2
    try:
        done = import_folder(engine, data)
    finally:
        engine.dispose()
    for d in done:
        print(f"{d['name']} {d['file']} -> version {d['version']} ({d['hash'][:19]}…)")
    print(f"{len(done)} version(s) imported; every server of the chain serves them within 2 s")
    return 0


def cmd_chain_room_book(args) -> int:
    from rulings.service.store.chain import set_room_book
    if bool(args.book) == bool(args.none):
        print("rulings: give the room's book, or --none", file=sys.stderr)
        return 2
    engine, _ = _engine(args)
    try:
        set_room_book(engine, args.room, None if args.none else args.book)
    except ValueError as exc:
        print(f"rulings: {exc}", file=sys.stderr)
        return 2
    finally:
        engine.dispose()
    print(f"room {args.room}: " + (f"its managers change only {args.book}" if args.book else
                                   "its managers change any house book"))
    return 0


def cmd_serve(args) -> int:
    from rulings.service.store import db
    from rulings.service.api.app import admin_password_if_none
    from rulings.service.core import zone
    data = Path(args.data) if args.data else db.default_data_dir()
    rooms = dict(item.partition("=")[::2] for item in args.room_zone)
    try:
        for name in (args.time_zone, *rooms.values()):
            zone(name)
        if any(not room for room in rooms):
            raise ValueError("--room-zone takes ROOM=ZONE, e.g. main=America/New_York")
    except ValueError as exc:
        print(f"rulings: {exc}", file=sys.stderr)
        return 2
    zones = dict(time_zone=args.time_zone, room_zones=rooms)
    try:   # the schema is made or upgraded once, here, before any worker starts
        url = db.database_url(args.database, data)
        engine = db.make_engine(url)
        db.migrate(engine)
        password = admin_password_if_none(engine)
        dialect = engine.dialect.name
        engine.dispose()
    except Exception as exc:   # a database that cannot be reached or migrated: one line, exit 2
        print(f"rulings: cannot open the database: {exc.__class__.__name__}: {str(exc).splitlines()[0]}",
              file=sys.stderr)
        return 2
    where = url.split("@")[-1] if dialect != "sqlite" else str((data / "rulings.db").resolve())
    from rulings.service.guard import uvicorn_options
    try:
        guarded = uvicorn_options(args.trusted_proxy)    # limits, timeouts and proxies: API.md, "Security"
    except ValueError as exc:
        print(f"rulings: --trusted-proxy: {exc}", file=sys.stderr)
        return 2
    common = dict(host=args.host, port=args.port, log_level=args.log_level, access_log=False,
                  timeout_graceful_shutdown=5, **guarded)
    from rulings.service import running     # where this service keeps its data, for the commands run meanwhile
    note = running.announce(data, args.database, f"http://{args.host}:{args.port}/")
    try:
        return _serve(args, data, where, dialect, password, zones, common)
    finally:
        running.forget(note)


def _serve(args, data: Path, where: str, dialect: str, password: str | None, zones: dict, common: dict) -> int:
    import uvicorn
    from rulings.service.api.app import create_app, freeze_heap, tune_worker
    from rulings.service.core import Config, Service
    rooms = zones["room_zones"]
    if args.workers > 1:
        os.environ.update(RULINGS_SERVE_DATA=str(data), RULINGS_SERVE_DATABASE=args.database or "",
                          RULINGS_SERVE_SESSION_HOURS=str(args.session_hours), RULINGS_SERVE_TIME_ZONE=args.time_zone,
                          RULINGS_SERVE_ROOM_ZONES=json.dumps(rooms))
        _announce(args, data, where, dialect, password, f"{args.workers} workers")
        from rulings.service.accept import run_workers   # the workers take turns at the socket (accept.py)
        run_workers(uvicorn.Config("rulings.service.api.app:app_from_environment", factory=True,
                                   workers=args.workers, **common))
        return 0
    tune_worker()
    service = Service(Config(data_dir=data, database=args.database, session_hours=args.session_hours, **zones))
    _announce(args, data, where, dialect, password, f"{len(service.books.books)} rulebooks")
    app = create_app(service=service)
    freeze_heap()
    from rulings.service.accept import run
    run(uvicorn.Config(app, **common))
    return 0


def _announce(args, data: Path, where: str, dialect: str, password: str | None, what: str) -> None:
    print(f"rulings: data folder {data.resolve()} (--data or $RULINGS_DATA to choose another)", flush=True)
    print(f"rulings: serving {what} on http://{args.host}:{args.port}/ ({dialect}: {where})", flush=True)
    if password:
        print(f"rulings: first start — created account 'admin' with password {password} "
              "(shown once; add others with `rulings users add NAME --role ROLE`)", flush=True)
