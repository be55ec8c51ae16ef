"""The service's data folder is the same wherever the command starts: --data, else $RULINGS_DATA, else the
user's data directory ($XDG_DATA_HOME/rulings, else ~/.local/share/rulings); `rulings serve` says which."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path


def _env(tmp_path: Path, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("RULINGS_DATA", "XDG_DATA_HOME", "RULINGS_DATABASE",
                                                            "XDG_RUNTIME_DIR", "XDG_STATE_HOME", "RULINGS_RUN_DIR")}
    env["HOME"] = str(tmp_path / "home")       # the running services' notes too: this test's own
    env.update(extra)
    return env


def _users(where: Path, env: dict, *more: str) -> subprocess.CompletedProcess:
    where.mkdir(parents=True, exist_ok=True)
    return subprocess.run([sys.executable, "-m", "rulings", "users", "add", "zoe", "--role", "floor",
                           "--password-stdin", *more], input="a-long-pass-1\n", capture_output=True, text=True,
                          cwd=where, env=env, timeout=120)


def test_the_data_folder_is_in_the_users_data_directory_wherever_the_command_starts(tmp_path):
    env = _env(tmp_path)
    first = _users(tmp_path / "one", env)
    assert first.returncode == 0, first.stderr
    assert (tmp_path / "home" / ".local" / "share" / "rulings" / "rulings.db").is_file()
    again = _users(tmp_path / "two", env)   # another folder: the same log, so the account is already there
    assert again.returncode == 2 and "zoe" in again.stderr, again.stdout + again.stderr
    assert not list(tmp_path.glob("*/rulings-data")) and not list(tmp_path.glob("*/rulings.db"))


def test_xdg_data_home_then_rulings_data_then_data_choose_it(tmp_path):
    xdg = tmp_path / "xdg"
    assert _users(tmp_path / "w", _env(tmp_path, XDG_DATA_HOME=str(xdg))).returncode == 0
    assert (xdg / "rulings" / "rulings.db").is_file()
    mine = tmp_path / "mine"
    assert _users(tmp_path / "w", _env(tmp_path, XDG_DATA_HOME=str(xdg), RULINGS_DATA=str(mine))).returncode == 0
    assert (mine / "rulings.db").is_file()
    given = tmp_path / "given"
    assert _users(tmp_path / "w", _env(tmp_path, RULINGS_DATA=str(mine)), "--data", str(given)).returncode == 0
    assert (given / "rulings.db").is_file()
    # a relative XDG_DATA_HOME is ignored, as the XDG specification says
    assert _users(tmp_path / "w", _env(tmp_path, XDG_DATA_HOME="rel")).returncode == 0
    assert (tmp_path / "home" / ".local" / "share" / "rulings" / "rulings.db").is_file()
    assert not (tmp_path / "w" / "rel").exists()


def test_serve_says_where_its_data_is_at_start(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    xdg = tmp_path / "xdg"
    (tmp_path / "w").mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "rulings", "serve", "--port", str(port)], cwd=tmp_path / "w",
                            env=_env(tmp_path, XDG_DATA_HOME=str(xdg)), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        proc.stdout.readline()          # serving ...: its note is written
        # `users add` in a shell without the service's XDG_DATA_HOME: another database, refused with the way
        # to the service's (issue 45); with that folder given, written where the service reads
        elsewhere = _users(tmp_path / "w", _env(tmp_path))
        assert elsewhere.returncode == 2, elsewhere.stdout + elsewhere.stderr
        assert f"data folder {xdg / 'rulings'}) uses SQLite {xdg / 'rulings' / 'rulings.db'}" in elsewhere.stderr
        assert f"nothing was written. Add it where the service reads: rulings users add zoe --role floor " \
               f"--data {xdg / 'rulings'}" in elsewhere.stderr
        assert not (tmp_path / "home" / ".local" / "share" / "rulings" / "rulings.db").exists()
        given = _users(tmp_path / "w", _env(tmp_path), "--data", str(xdg / "rulings"))
        assert given.returncode == 0 and f"created in SQLite {xdg / 'rulings' / 'rulings.db'}" in given.stdout
        chosen = _users(tmp_path / "w", _env(tmp_path), "--data", str(tmp_path / "other"))
        assert chosen.returncode == 0 and "rulings: note: the service on" in chosen.stderr, chosen.stderr
    finally:
        proc.terminate()
        proc.communicate(timeout=60)
    assert line.startswith(f"rulings: data folder {xdg / 'rulings'} "), line
    assert (xdg / "rulings" / "rulings.db").is_file() and not (tmp_path / "w" / "rulings-data").exists()
    assert not list((tmp_path / "home" / ".local" / "state" / "rulings" / "run").glob("*.json"))   # its note gone
