"""Support for the podium's browser tests: the real service on a loopback port, a real headless Chromium.

The service runs in this process under uvicorn (a thread), on a port the OS picks,
with a throw-away data directory and SQLite; the browser is the operating system's
Chromium driven by Playwright. Each test saves a full-page screenshot under
``test-screenshots/`` (or ``$RULINGS_SCREENSHOTS``).
"""
from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path

os.environ.setdefault("RULINGS_ARGON2_MEMORY_KIB", "8192")     # cheap password hashing for test accounts
os.environ.setdefault("RULINGS_ARGON2_TIME", "1")

ROOT = Path(__file__).resolve().parent.parent
SHOTS = Path(os.environ.get("RULINGS_SCREENSHOTS") or ROOT / "test-screenshots")
PASSWORDS = {"fiona": "floor-pass-1", "manny": "manager-pass-1", "ada": "admin-pass-1"}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic", "--disable-dev-shm-usage"]
TABLET = {"width": 1280, "height": 800}          # a 10-inch tablet held landscape


def chromium_path() -> str:
    """The operating system's Chromium (Playwright's own download is not used)."""
    for candidate in (os.environ.get("RULINGS_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    raise RuntimeError("no Chromium found: install the operating system's package (apt-get install chromium), "
                       "or set RULINGS_CHROMIUM; scripts/test installs it")


class Server:
    """The service's ASGI app under uvicorn in a thread, on 127.0.0.1 and a free port."""

    def __init__(self, data_dir: Path, **config):
        import uvicorn
        from rulings.service.api.app import create_app
        from rulings.service.core import Config, Service
        from rulings.service.store.auth import add_account
        self.service = Service(Config(data_dir=data_dir, **config))
        add_account(self.service.engine, "fiona", PASSWORDS["fiona"], "floor", "main")
        add_account(self.service.engine, "manny", PASSWORDS["manny"], "manager", "main")
        add_account(self.service.engine, "ada", PASSWORDS["ada"], "admin", "main")
        self.app = create_app(service=self.service)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def start(self) -> "Server":
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the service did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


class Taps:
    """Counts what a floorperson does, apart: each click is a tap (``count``), each key typed a key (``typed``)."""

    def __init__(self, page):
        self.page, self.count, self.typed, self.log = page, 0, 0, []

    def tap(self, locator, what: str = "") -> None:
        locator.click()
        self.count += 1
        self.log.append(what or str(locator))

    def keys(self, text: str) -> None:
        for ch in text:
            self.page.keyboard.type(ch)
            self.typed += 1
        self.log.append(f"keys {text!r}")


def seat(page, n: int):
    """Seat ``n``'s toggle among the seats in the hand."""
    return page.locator(f'[data-tap="in-{n}"]')


def button_seat(page, n: int):
    return page.locator(f'[data-tap="button-{n}"]')


def street(page, name: str):
    return page.locator(f'[data-tap="street-{name}"]')


def disputed_seat(page, n: int):
    return page.locator(f'[data-tap="d-{n}"]')


def overchip_hand(page) -> None:
    """RRP-PL-6's hand on the floor form, the game and chips left to the test: seats 1-3 in, the button on 3,
    the flop with $80 in the pot before it, seat 1's act disputed."""
    for n in (1, 2, 3):
        seat(page, n).click()
    button_seat(page, 3).click()
    street(page, "flop").click()
    page.get_by_label("Pot before it").fill("80")
    disputed_seat(page, 1).click()


def ruled(page) -> None:
    """Wait for the floor page's whole answer to a tap on Rule (or Answer, or Log it as it stands): the page's
    script swaps it into the page without loading a new one, the ruling alone often first; the whole answer's
    section is marked ``data-step="whole"`` (the last ruling, while the new one is coming, ``sent``)."""
    page.locator('#result[data-step="whole"]').wait_for()


def shoot(page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def log_in(page, base: str, name: str) -> None:
    page.goto(base + "/login")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill(PASSWORDS[name])
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(base + "/podium**")


@contextmanager
def chromium():
    """The system's Chromium, headless, for one test module (the browser test files' ``browser`` fixture)."""
    from playwright import sync_api as playwright_api
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


@contextmanager
def watched_page(browser, timeout_ms: int = 20_000, **context_options):
    """A page in a context of its own; a JavaScript error on it fails the test when the page is done."""
    context = browser.new_context(**context_options)
    context.set_default_timeout(timeout_ms)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
