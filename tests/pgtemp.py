"""A throw-away PostgreSQL for tests: initdb into a temporary folder, a Unix socket there, no TCP port at all.

PostgreSQL refuses to run as root, so when the tests run as root (as CI does)
the server runs as the ``postgres`` account (or ``nobody``) through setpriv,
in a folder handed over to it. Where the server binaries are absent,
``binaries()`` is None and the PostgreSQL tests fail, saying what to install: they
are never skipped (scripts/test installs the server where it is missing).
"""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

NEEDED = ("initdb", "pg_ctl", "postgres")


def binaries() -> Path | None:
    places = [Path(p).parent for p in [shutil.which("initdb")] if p]
    places += [Path("/usr/local/bin")] + [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]
    for place in places:
        if all((place / b).exists() for b in NEEDED):
            return place
    return None


MISSING = ("PostgreSQL server binaries (initdb, pg_ctl, postgres) not found on PATH, in /usr/local/bin or "
               "/usr/lib/postgresql/*/bin: install the system's postgresql package (scripts/test does) to run the PostgreSQL half of these tests")


def _runner() -> tuple[list[str], int | None, int | None]:
    """The command prefix that drops root (setpriv to postgres/nobody), and that user's ids."""
    if os.geteuid() != 0:
        return [], None, None
    for name in ("postgres", "nobody"):
        try:
            pw = pwd.getpwnam(name)
        except KeyError:
            continue
        return (["setpriv", f"--reuid={pw.pw_uid}", f"--regid={pw.pw_gid}", "--clear-groups"],
                pw.pw_uid, pw.pw_gid)
    raise RuntimeError("running as root and no 'postgres' or 'nobody' account to run PostgreSQL as")


class TempPostgres:
    def __init__(self):
        self.bin = binaries()
        if self.bin is None:
            raise RuntimeError(MISSING)
        # under /tmp: the server's account can reach it, and the socket path stays short (at most 107 bytes)
        self.dir = Path(tempfile.mkdtemp(prefix="rulings-pg-", dir=os.environ.get("RULINGS_PG_TMP", "/tmp")))
        self.data = self.dir / "data"
        try:
            self.prefix, uid, gid = _runner()
            if uid is not None:
                os.chown(self.dir, uid, gid)
            env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
            self._env = env
            self._run([str(self.bin / "initdb"), "-D", str(self.data), "-U", "rulings", "--auth=trust",
                       "-E", "UTF8", "--no-sync", "--no-instructions"])
            opts = f"-k {self.dir} -c listen_addresses='' -c fsync=on -c max_connections=60"
            self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.dir / "server.log"),
                       "-o", opts, "-w", "-t", "60", "start"])
        except BaseException:   # no server came up (one that started late is stopped): its folder goes
            if (self.data / "postmaster.pid").exists():
                subprocess.run(self.prefix + [str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                                              "stop"], capture_output=True, timeout=60, cwd=self.dir)
            shutil.rmtree(self.dir, ignore_errors=True)
            raise
        self._count = 0

    def _run(self, cmd: list[str]) -> None:
        out = subprocess.run(self.prefix + cmd, env=self._env, capture_output=True, text=True, timeout=120,
                             cwd=self.dir)
        if out.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd[:1])} failed: {out.stderr.strip() or out.stdout.strip()}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://rulings@/{database}?host={self.dir}"

    def new_database(self) -> str:
        """A fresh empty database; its URL."""
        import psycopg
        self._count += 1
        name = f"t{os.getpid()}_{self._count}"
        with psycopg.connect(host=str(self.dir), user="rulings", dbname="postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"])
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


_SHARED: TempPostgres | None = None


def shared() -> TempPostgres:
    """One server for the whole test run (started on first use, stopped at exit); a new database per caller."""
    global _SHARED
    if _SHARED is None:
        import atexit
        _SHARED = TempPostgres()
        atexit.register(_SHARED.stop)
    return _SHARED
