"""A throw-away nginx in front of several `rulings serve` processes: the system's nginx, started with a
configuration of its own in a temporary folder, on a free loopback port, never as root.

As pgtemp does for PostgreSQL, when the tests run as root nginx runs as the ``postgres`` account (or
``nobody``) through setpriv, in a folder handed over to it. The configuration is the one docs/service.md
shows for a chain (round robin over the servers, keep-alive connections to them, ``X-Forwarded-For`` set to
the client's address, a POST passed to the next server only when the first could not be reached), less TLS.
Where nginx is absent, ``binary()`` is None and the test fails saying what to install (scripts/test does).
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pgtemp

MISSING = ("nginx not found on PATH or in /usr/sbin: install the system's nginx package (scripts/test does) "
           "to run the chain-of-rooms tests")

CONFIG = """\
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    upstream rulings {{
{servers}
        keepalive 32;
    }}
    server {{
        listen 127.0.0.1:{port};
        client_max_body_size 1m;
        location / {{
            proxy_pass http://rulings;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_next_upstream error timeout;
            proxy_connect_timeout 2s;
            proxy_read_timeout 120s;
        }}
        location = /health {{
            proxy_pass http://rulings;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
        }}
    }}
}}
"""


def binary() -> str | None:
    return shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Nginx:
    """nginx balancing over ``ports`` (the servers on 127.0.0.1), listening on ``self.port``; ``stop()`` ends it."""

    def __init__(self, ports: list[int]):
        exe = binary()
        if exe is None:
            raise RuntimeError(MISSING)
        self.dir = Path(tempfile.mkdtemp(prefix="rulings-nginx-", dir=os.environ.get("RULINGS_PG_TMP", "/tmp")))
        self.port = free_port()
        prefix, uid, gid = pgtemp._runner()       # as root: nginx runs as postgres (or nobody)
        servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;" for p in ports)
        conf = self.dir / "nginx.conf"
        conf.write_text(CONFIG.format(dir=self.dir, port=self.port, servers=servers), encoding="utf-8")
        if uid is not None:
            os.chown(self.dir, uid, gid)
            os.chown(conf, uid, gid)
        self.proc = subprocess.Popen(prefix + [exe, "-e", str(self.dir / "error.log"), "-p", str(self.dir),
                                               "-c", str(conf), "-g", "daemon off;"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=self.dir)
        deadline = time.monotonic() + 30
        while True:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode("utf-8", "replace") if self.proc.stderr else ""
                shutil.rmtree(self.dir, ignore_errors=True)
                raise RuntimeError(f"nginx did not start: {err.strip()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("nginx did not listen within 30 s") from None
                time.sleep(0.05)
        self.url = f"http://127.0.0.1:{self.port}"

    def errors(self) -> str:
        try:
            return (self.dir / "error.log").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def stop(self) -> None:
        try:
            if self.proc.poll() is None:
                self.proc.terminate()        # nginx's fast shutdown
                try:
                    self.proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait(timeout=15)
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
