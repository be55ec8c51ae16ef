"""A stranger's floods against a served `rulings serve`, run in a process of their own (so the test's floor client
does not share an interpreter with them): ``python tests/flood.py PORT SECONDS`` runs, until SECONDS have passed,

- a login flood: ``LOGINS`` clients from ``LOGIN_ADDRESS``, each posting ``/api/login`` under a fresh name
  again and again on a kept-alive connection (opening a new one when the server closes it), and
- a half-open flood: ``HALF_OPEN_ADDRESSES`` x ``HALF_OPEN_EACH`` connections, each sending the start of a head
  and never the rest, opened again as soon as the server closes one,

then prints one JSON line: the login answers by status, connections opened and closed unserved.
On Linux every 127.0.0.0/8 address is the loopback, so each flood has source addresses of its own.
"""
from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter

LOGINS = 60
LOGIN_ADDRESS = "127.0.0.11"
HALF_OPEN_ADDRESSES = [f"127.0.0.{i}" for i in range(2, 11)]
HALF_OPEN_EACH = 64


async def _login_client(port: int, n: int, until: float, seen: Counter) -> None:
    i = 0
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(LOGIN_ADDRESS, 0))
        except OSError:
            seen["connect failed"] += 1
            await asyncio.sleep(0.05)
            continue
        seen["connections"] += 1
        try:
            while time.monotonic() < until:
                i += 1
                body = json.dumps({"username": f"stranger-{n}-{i}", "password": "not the password"}).encode()
                writer.write(b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                             b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), max(until - time.monotonic(), 0.01))
                status = head.split(b" ", 2)[1].decode()
                length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), 0)
                await reader.readexactly(length)
                seen[status] += 1
                if b"connection: close" in head.lower():
                    break
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, asyncio.TimeoutError):
            seen["ended by the server"] += 1
        finally:
            writer.close()
        await asyncio.sleep(0.01)


async def _half_open(port: int, address: str, until: float, seen: Counter) -> None:
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
        except OSError:
            seen["half-open connect failed"] += 1
            await asyncio.sleep(0.05)
            continue
        seen["half-open opened"] += 1
        try:
            writer.write(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")      # the head is never finished
            if await asyncio.wait_for(reader.read(100), max(until - time.monotonic(), 0.01)) == b"":
                seen["half-open closed by the server"] += 1
        except (OSError, asyncio.TimeoutError):
            pass
        finally:
            writer.close()
        await asyncio.sleep(0.05)


async def main(port: int, seconds: float) -> dict:
    until = time.monotonic() + seconds
    seen: Counter = Counter()
    tasks = [_login_client(port, n, until, seen) for n in range(LOGINS)]
    tasks += [_half_open(port, a, until, seen) for a in HALF_OPEN_ADDRESSES for _ in range(HALF_OPEN_EACH)]
    await asyncio.gather(*tasks)
    return dict(seen)


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(int(sys.argv[1]), float(sys.argv[2])))), flush=True)
