"""How the workers of `rulings serve --workers N` share the listening socket: the one holding fewest takes
the next connection.

uvicorn hands every worker the one listening socket, and each worker's event loop takes connections from it
as soon as it is readable: uvloop (libuv) accepts in a loop until none is left. Connections that arrive
together, as the podiums' and a benchmark's keep-alive connections do, therefore went mostly or all to
whichever worker woke first, and a connection stays with the worker that took it: eight opened at once went
8:0 to two workers (tests/test_service_workers.py), and under benchmarks/service_speed.py's 8 clients one
worker's ruling thread was the bottleneck while the other core idled (two workers 307-444 rulings/s, one
worker doing up to all the work; three workers gave all 8 connections to one).

Here each worker takes its connections on a thread of its own (``Acceptor``), one per wake-up, and the
worker holding fewest takes the next: every worker writes the connections it holds in a small file the
supervisor shares with them all (``Board``), and a worker holding more than another leaves a waiting
connection to it (for ``DEFER_SECONDS`` at most: a worker that is stuck or gone does not hold connections
back). Which worker takes a connection is decided by the counts, not by which thread the OS runs first, so
a loaded host shares connections opened together as a quiet one does. A single worker (the default) is
served by uvicorn as it is.
"""
from __future__ import annotations

import asyncio
import fcntl
import logging
import mmap
import os
import select
import signal
import socket
import struct
import sys
import tempfile
import threading
import time
from typing import Any

import uvicorn
from uvicorn.config import STARTUP_FAILURE
from uvicorn.supervisors import multiprocess

from rulings.workers import end_with_parent

log = logging.getLogger("uvicorn.error")

WAIT_SECONDS = 0.5        # how often a waiting thread looks whether its socket was closed (the worker stopping)
DELAY_SECONDS = 0.0005    # a thread's wait before it takes a connection, for each one its worker holds
MAX_DELAY_SECONDS = 0.002   # so a worker holding many connections still takes 500 a second (a flood of connects
                            # must not fill the backlog ahead of the podiums'; the guard closes the excess ones)
DEFER_SECONDS = 0.5       # the longest a worker leaves a waiting connection to one holding fewer
BOARD_ENV = "RULINGS_ACCEPT_BOARD"   # the board's file, set by the supervisor for the workers it starts
SLOTS = 64                # workers the board has room for (restarted ones take a dead one's slot)
SLOT = struct.Struct("<qqq")   # a worker's process id, connections it took, connections of those ended


class Board:
    """The connections each worker of one supervisor holds, in a file every worker maps: a slot per worker
    with its process id, the connections it took (written by its accepting thread) and those of them that
    ended (written by its event loop), each count with one writer. A worker reads the others' slots to tell
    whether one of them holds fewer connections than it does."""

    def __init__(self, path: str):
        self.fd = os.open(path, os.O_RDWR)
        self.map = mmap.mmap(self.fd, SLOTS * SLOT.size)
        self.pid = os.getpid()
        fcntl.flock(self.fd, fcntl.LOCK_EX)     # two workers starting together never claim the same slot
        try:
            free = [i for i in range(SLOTS) if not self._live(SLOT.unpack_from(self.map, i * SLOT.size)[0])]
            self.at = free[0] * SLOT.size if free else None
            if self.at is not None:
                SLOT.pack_into(self.map, self.at, self.pid, 0, 0)
        finally:
            fcntl.flock(self.fd, fcntl.LOCK_UN)

    @classmethod
    def opened(cls) -> Board | None:
        """This worker's slot on the supervisor's board, or None (no board: one worker, or not ours)."""
        path = os.environ.get(BOARD_ENV)
        if not path:
            return None
        try:
            board = cls(path)
        except (OSError, ValueError) as exc:
            log.warning("the workers' board %s could not be opened (%s): this worker takes connections "
                        "without it", path, exc)
            return None
        return board if board.at is not None else None

    def _live(self, pid: int) -> bool:
        if pid <= 0:
            return False
        if pid == self.pid:
            return True
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True

    def taken(self, n: int) -> None:
        if self.at is not None:
            struct.pack_into("<q", self.map, self.at + 8, n)

    def ended(self, n: int) -> None:
        if self.at is not None:
            struct.pack_into("<q", self.map, self.at + 16, n)

    def fewer_elsewhere(self, held: int) -> bool:
        """Whether another live worker holds fewer than ``held`` connections."""
        for i in range(SLOTS):
            pid, taken, ended = SLOT.unpack_from(self.map, i * SLOT.size)
            if pid and pid != self.pid and taken - ended < held and self._live(pid):
                return True
        return False

    def leave(self) -> None:
        if self.at is not None:
            SLOT.pack_into(self.map, self.at, 0, 0, 0)
            self.at = None


def board_file() -> str:
    """A fresh board for the workers a supervisor starts: its file, every slot empty."""
    fd, path = tempfile.mkstemp(prefix="rulings-workers-", suffix=".board")
    try:
        os.ftruncate(fd, SLOTS * SLOT.size)
    finally:
        os.close(fd)
    return path


class Acceptor:
    """Takes connections from a listening socket shared with other worker processes, one per accept, on a
    thread, and makes each one a connection of ``loop`` with ``protocol``. Stands where uvicorn keeps its
    listening servers: ``close`` and ``wait_closed`` are what its shutdown calls.

    Every worker's thread is woken by a new connection. With a ``board``, a worker holding more connections
    than another leaves it to that one (``DEFER_SECONDS`` at most); each also waits ``DELAY_SECONDS`` for
    every connection its worker holds (at most ``MAX_DELAY_SECONDS``) before it tries to take it, so a worker
    alone, or holding none, takes it at once."""

    def __init__(self, loop: asyncio.AbstractEventLoop, protocol, sock: socket.socket, held,
                 board: Board | None = None):
        self.loop, self.protocol, self.sock, self.held, self.board = loop, protocol, sock, held, board
        # connections taken (counted by this thread) and made connections of the loop, and those ended
        # (counted on the loop): each count has one writer, so the differences are never lost to a race
        self.taken = self.made = self.ended = 0
        self.closed = threading.Event()
        self.thread = threading.Thread(target=self._run, name="rulings-accept", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        sock = self.sock
        sock.setblocking(False)    # the workers share it: an accept must never wait for a connection another took
        poll = select.poll()
        poll.register(sock.fileno(), select.POLLIN)
        while not self.closed.is_set():
            try:
                if not poll.poll(WAIT_SECONDS * 1000):
                    continue
                if self.board is not None:
                    self._defer(poll)
                time.sleep(min(MAX_DELAY_SECONDS, DELAY_SECONDS * (self.held() + self.taken - self.made)))
                conn, _ = sock.accept()
            except (BlockingIOError, InterruptedError):   # another worker took it
                continue
            except OSError as exc:
                if self.closed.is_set() or sock.fileno() < 0:   # the socket was closed: the worker is stopping
                    return
                log.warning("accepting a connection failed: %s", exc)   # e.g. out of file descriptors
                time.sleep(0.1)
                continue
            conn.setblocking(False)
            self.taken += 1
            if self.board is not None:
                self.board.taken(self.taken)
            try:
                self.loop.call_soon_threadsafe(self._connect, conn)
            except RuntimeError:   # the event loop is closed: the worker has stopped
                conn.close()
                return

    def _defer(self, poll: select.poll) -> None:
        """While another worker holds fewer connections than this one and a connection still waits, leave it
        to that worker (``DEFER_SECONDS`` at most)."""
        assert self.board is not None
        held = self.taken - self.ended
        until = time.monotonic() + DEFER_SECONDS
        while self.board.fewer_elsewhere(held) and time.monotonic() < until and not self.closed.is_set():
            time.sleep(0.001)
            if not poll.poll(0):    # taken by another: none waits
                return

    def _connect(self, conn: socket.socket) -> None:
        self.made += 1
        if self.closed.is_set():
            conn.close()
            self._end()
            return
        task = self.loop.create_task(self.loop.connect_accepted_socket(self._counted, conn))
        task.add_done_callback(lambda t: None if t.cancelled() or t.exception() is None else self._failed(conn))

    def _counted(self) -> asyncio.Protocol:
        """The connection's protocol, whose end is counted (on the loop) for the board."""
        made = self.protocol()
        lost = made.connection_lost

        def connection_lost(exc: Exception | None) -> None:
            self._end()
            lost(exc)
        made.connection_lost = connection_lost
        return made

    def _failed(self, conn: socket.socket) -> None:
        conn.close()
        self._end()

    def _end(self) -> None:
        self.ended += 1
        if self.board is not None:
            self.board.ended(self.ended)

    def close(self) -> None:
        self.closed.set()
        if self.board is not None:
            self.board.leave()

    async def wait_closed(self) -> None:
        await asyncio.to_thread(self.thread.join, WAIT_SECONDS * 2)


class Server(uvicorn.Server):
    """uvicorn's server; given the supervisor's shared sockets, it takes connections through ``Acceptor``. Its
    shutdown first ends a manager's house-book check still running (``housebook.stop_checks``): uvicorn waits
    for the requests in flight, and a check that never ends would hold its request, and the shutdown, until
    the graceful timeout cancelled it with a traceback, while the checking process ran on."""

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        from rulings.service.store.housebook import stop_checks
        stop_checks(for_good=True)
        await super().shutdown(sockets)

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        if not sockets:
            await super().startup(sockets)
            return
        await self.lifespan.startup()
        if self.lifespan.should_exit:
            sys.exit(STARTUP_FAILURE)
        config, loop = self.config, asyncio.get_running_loop()

        def protocol() -> asyncio.Protocol:   # as uvicorn's own startup makes each connection's protocol
            made: Any = config.http_protocol_class
            return made(config=config, server_state=self.server_state, app_state=self.lifespan.state, _loop=loop)
        for sock in sockets:   # uvicorn binds the socket; its event loop's server would start the listening
            sock.listen(config.backlog)
        held = self.server_state.connections.__len__
        board = Board.opened()
        self.servers = [Acceptor(loop, protocol, sock, held, board) for sock in sockets]   # type: ignore[misc]
        self.started = True


class Process(multiprocess.Process):
    """uvicorn's worker process, running ``Server``, and ending with its supervisor."""

    def target(self, sockets: list[socket.socket] | None = None) -> None:
        """The worker's life (uvicorn's), and its end, as on a Ctrl+C, once the supervisor is gone (killed
        outright), rather than serve on with no one to restart it, holding the port and the log open."""
        end_with_parent(lambda: os.kill(os.getpid(), signal.SIGTERM))
        super().target(sockets)

    @property
    def server(self) -> uvicorn.Server:
        if self._server is None:
            self._server = Server(config=self.config)
        return self._server


def run(config: uvicorn.Config) -> None:
    """``uvicorn.run`` for one worker, with ``Server`` (its shutdown ends a running check first)."""
    try:
        Server(config=config).run()
    except KeyboardInterrupt:   # as uvicorn.run
        pass


def run_workers(config: uvicorn.Config) -> None:
    """``uvicorn.run`` with ``config.workers`` > 1: uvicorn's supervisor (restarts, signals, health checks),
    whose workers are ``Process``. The supervisor makes its workers by the module's name ``Process`` (at
    start, on a restart, for one that died), in this process, which exists only to supervise them; the
    worker processes are given the object, class and all."""
    sock = config.bind_socket()
    made = multiprocess.Process
    if isinstance(getattr(made, "server", None), property):   # the supervisor as this module knows it
        multiprocess.Process = Process   # type: ignore[misc]
    else:   # another uvicorn: its workers as they are (uvloop's accepting), rather than a worker that fails
        log.warning("this uvicorn's supervisor is not the one rulings/service/accept.py knows: its workers "
                    "take connections as uvicorn does")
    board = os.environ[BOARD_ENV] = board_file()   # the workers, started from here, find it in their environment
    try:
        multiprocess.Multiprocess(config, sockets=[sock]).run()
    except KeyboardInterrupt:   # as uvicorn.run: a second Ctrl+C while the workers stop
        pass
    finally:
        multiprocess.Process = made   # type: ignore[misc]
        sock.close()
        os.environ.pop(BOARD_ENV, None)
        try:
            os.unlink(board)
        except OSError:
            pass
