"""The service against a hostile client on the room's network (API.md, "Security"): forged forms, huge and
slow bodies, half-sent requests, deep JSON, control characters, CSV formulas, retried request ids, guessed
passwords. The real server process where the harm is to the process (memory, the event loop, descriptors);
the app on both databases where the log is involved."""
from __future__ import annotations

import csv
import io
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from service_support import BACKENDS, PASSWORDS, count_entries, database_for, form_client, login, overchip, seed_log

ROOT = Path(__file__).resolve().parent.parent
DEEP = "[" * 5000 + "]" * 5000
DEEP_OBJECT = '{"a":' * 5000 + "1" + "}" * 5000


# ---------------------------------------------------------------- the real server process

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """`rulings serve` (one worker, SQLite) with a floor and a manager account; (base URL, process)."""
    data = tmp_path_factory.mktemp("served") / "data"
    seed_log(data)
    port = _free_port()
    env = dict(os.environ, RULINGS_HEAD_SECONDS="3", RULINGS_BODY_SECONDS="3")
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--data", str(data)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    try:
        while True:
            assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
            assert time.monotonic() < deadline, "the service did not answer within 120 s"
            try:
                if httpx.get(base + "/health", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        yield base, proc
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _memory(pid: int) -> tuple[int, int]:
    """(resident, peak resident) of a process, in bytes, from /proc."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) * 1024, int(fields["VmHWM"].split()[0]) * 1024


def _send_huge(base: str, path: str, total: int, chunked: bool) -> bytes:
    """POST ``total`` bytes of form to ``path`` on a raw socket until the server stops it; its answer."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as s:
        length = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {total}"
        s.sendall(f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                  f"Content-Type: application/x-www-form-urlencoded\r\n{length}\r\n\r\n".encode())
        piece = b"username=" + b"x" * (256 * 1024 - 9)
        sent = 0
        try:
            while sent < total:
                s.sendall(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
                sent += len(piece)
        except (BrokenPipeError, ConnectionResetError):
            pass                       # the server closed the connection: it stopped reading
        answer = b""
        try:
            while chunk := s.recv(65536):
                answer += chunk
        except (ConnectionResetError, socket.timeout):
            pass
    return answer


def test_a_200_mb_form_is_refused_without_the_server_growing(served):
    base, proc = served
    assert httpx.post(base + "/podium/login", data={"username": "x", "password": "y"}).status_code == 403
    Path(f"/proc/{proc.pid}/clear_refs").write_text("5")      # the peak starts again from what is resident now
    before, _ = _memory(proc.pid)
    for chunked in (True, False):     # no length given (cut while read), and a length given (refused unread)
        answer = _send_huge(base, "/podium/login", 200 * 1024 * 1024, chunked)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    _, peak = _memory(proc.pid)
    assert peak - before < 8 * 1024 * 1024, f"the server grew by {(peak - before) / 2**20:.1f} MiB reading the body"
    assert httpx.get(base + "/health").status_code == 200


def test_health_is_answered_again_and_again_while_a_manager_checks_a_house_book(served):
    """The floor is never kept waiting by a manager's work: while one house book's check runs, /health is
    answered over and over. Counted, not timed: a check that held the worker's loop would let through at most
    the one poll already in flight before it ended."""
    base, _ = served
    manager = httpx.Client(base_url=base, timeout=600)
    token = re.search(r'name="csrf" value="([^"]+)"', manager.get("/login").text)[1]
    r = manager.post("/podium/login", data={"username": "manny", "password": PASSWORDS["manny"], "csrf": token,
                                            "next": "/podium/books"})
    assert r.status_code == 303 and manager.cookies.get("rulings_session")
    page = manager.get("/podium/books/east-coast-limit/edit").text
    token = re.search(r'name="csrf" value="([^"]+)"', page)[1]
    text = (ROOT / "rulebooks/houses/east-coast-limit.yaml").read_text(encoding="utf-8")
    text = text.replace("title:", "# checked again, one comment added\ntitle:", 1)
    done: dict = {}

    def check() -> None:
        done["status"] = manager.post("/podium/books/east-coast-limit/edit",
                                      data={"text": text, "csrf": token}).status_code

    worker = threading.Thread(target=check)
    answered_during = 0
    with httpx.Client(base_url=base, timeout=30) as floor:
        worker.start()
        while worker.is_alive():
            assert floor.get("/health").status_code == 200
            answered_during += worker.is_alive()     # answered, and the check still running
            time.sleep(0.05)
    worker.join()
    assert done["status"] == 200
    assert answered_during >= 5, f"/health answered {answered_during} times while the book was checked"


def _ended(s: socket.socket) -> bool:
    """Whether the server ended the connection (closed, or reset as it closed with our bytes unread); a
    connection still held open runs into the socket's timeout instead."""
    try:
        return s.recv(100) == b""
    except ConnectionResetError:
        return True


def test_half_sent_requests_are_ended_and_one_address_cannot_hold_every_connection(served):
    from rulings.service.guard import MAX_PER_ADDRESS
    base, _ = served
    host, port = base.removeprefix("http://").split(":")
    held = []
    for _ in range(MAX_PER_ADDRESS + 6):
        s = socket.create_connection((host, int(port)), timeout=15)
        s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")        # the head is never finished
        held.append(s)
    try:
        # past the cap, the server closes a connection from this address at once, unread
        assert all(_ended(s) for s in held[MAX_PER_ADDRESS:])
        # a held connection is still served when its head comes ...
        held[0].sendall(b"\r\n")
        assert held[0].recv(100).startswith(b"HTTP/1.1 200")
        # ... and the others, never finished, are ended by the server (RULINGS_HEAD_SECONDS=3 here), not held
        assert all(_ended(s) for s in held[1:MAX_PER_ADDRESS])
    finally:
        for s in held:
            s.close()
    assert httpx.get(base + "/health").status_code == 200


def test_a_body_that_never_comes_is_answered_408_and_the_connection_ended(served):
    base, _ = served
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=15) as s:
        s.sendall(f"POST /api/login HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
                  "Content-Length: 100\r\n\r\n{".encode())       # 1 byte of the 100 promised, then nothing
        answer = b""
        while chunk := s.recv(4096):   # the server answers and closes (RULINGS_BODY_SECONDS=3 here)
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 408") and b"too_slow" in answer


# ---------------------------------------------------------------- forged requests (the app itself)

def _app(svc):
    from rulings.service.api.app import create_app
    return create_app(service=svc)


def _logged_in(svc, name: str):
    c = form_client(_app(svc))
    r = c.post("/podium/login", data={"username": name, "password": PASSWORDS[name], "next": "/podium"})
    assert r.status_code == 200 and r.url.path == "/podium", r.text
    return c


def _published(svc, name: str) -> int:
    """The versions of a house book the service's own store lists (the data folder's on SQLite, the database's
    on PostgreSQL)."""
    return len(svc.books.published.versions(name))


def test_a_forged_publish_with_a_managers_session_is_refused(svc):
    m = _logged_in(svc, "manny")
    bare = "rulebook: east-coast-limit\nextends: standard\ntitle: nothing of the room's own\n"
    publish = {"text": bare, "go": "publish", "note": "forged"}
    before = _published(svc, "east-coast-limit")
    token = m.csrf()
    forged = [
        ({**publish, "csrf": ""}, {}),                                           # no token
        ({**publish, "csrf": token}, {"Origin": "http://testserver:8081"}),      # another port: another origin
        ({**publish, "csrf": token}, {"Referer": "http://testserver:8081/x"}),   # said by the Referer alone
        ({**publish, "csrf": token}, {"Origin": "null"}),                        # a sandboxed page
        ({**publish, "csrf": _logged_in(svc, "fiona").csrf()}, {}),              # another session's token
    ]
    for data, headers in forged:
        r = m.post("/podium/books/east-coast-limit/edit", data=data, headers=headers, follow_redirects=False)
        assert r.status_code == 403, (headers, r.status_code)
    assert _published(svc, "east-coast-limit") == before
    # the same form from the podium's own page is published
    r = m.post("/podium/books/east-coast-limit/edit", data={**publish, "csrf": token},
               headers={"Origin": "http://testserver"}, follow_redirects=False)
    assert r.status_code == 303 and _published(svc, "east-coast-limit") == before + 1


def test_every_podium_form_carries_the_token_and_a_forged_decision_is_not_recorded(svc):
    m = _logged_in(svc, "manny")
    page = m.post("/podium", data={"variant": "holdem", "structure": "pot-limit", "setting": "cash", "sb": "1",
                                   "bb": "2", "in-1": "1", "in-2": "1", "in-3": "1", "button": "3",
                                   "street": "flop", "pot": "80", "d_seat": "1", "d_chips": "500",
                                   "book": "standard", "go": "record", "table": "4"}).text
    forms = re.findall(r'<form[^>]*method="post".*?</form>', page, re.S)
    assert len(forms) >= 3 and all('name="csrf"' in f for f in forms)
    entry = re.search(r'name="entry" value="(\d+)"', page)[1]
    n = count_entries(svc)
    r = m.post("/podium/decision", data={"entry": entry, "decision": "followed", "csrf": "guessed"})
    assert r.status_code == 403 and count_entries(svc) == n


def test_a_login_form_from_elsewhere_does_not_log_the_browser_in(svc):
    c = form_client(_app(svc))
    creds = {"username": "otto", "password": PASSWORDS["otto"], "next": "/podium"}
    r = c.post("/podium/login", data={**creds, "csrf": ""}, follow_redirects=False)       # no pre-login token
    assert r.status_code == 403 and "rulings_session" not in r.headers.get("set-cookie", "")
    r = c.post("/podium/login", data=creds, headers={"Origin": "http://testserver:9000"}, follow_redirects=False)
    assert r.status_code == 403 and "rulings_session" not in r.headers.get("set-cookie", "")
    r = c.post("/podium/login", data=creds, follow_redirects=False)
    assert r.status_code == 303 and "rulings_session" in r.headers["set-cookie"]


def test_the_json_api_refuses_another_origin_and_form_bodies(client, svc):
    floor = login(client, "fiona")
    n = count_entries(svc)
    r = client.post("/api/rule", json={"incident": overchip()}, headers={**floor, "Origin": "http://testserver:1"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "origin"
    r = client.post("/api/rule", data={"incident": "{}"}, headers=floor)
    assert r.status_code == 415
    assert count_entries(svc) == n
    assert client.post("/api/rule", json={"incident": overchip()},
                       headers={**floor, "Origin": "http://testserver"}).status_code == 200


# ---------------------------------------------------------------- bodies the JSON routes refuse

def test_deep_json_is_a_4xx_on_every_json_route(client, svc):
    heads = {"floor": login(client, "fiona"), "manager": login(client, "manny"), "admin": login(client, "ada")}
    entry = client.post("/api/rule", json={"incident": overchip()}, headers=heads["floor"]).json()["entry"]["id"]
    routes = [("/api/login", None), ("/api/consult", "floor"), ("/api/rule", "floor"),
              (f"/api/log/{entry}/decision", "floor"), (f"/api/log/{entry}/correction", "manager"),
              ("/api/accounts", "admin")]
    n = count_entries(svc)
    for path, role in routes:
        for body in (DEEP, DEEP_OBJECT, '{"incident": ' + "[" * 100 + "]" * 100 + "}"):
            r = client.post(path, content=body, headers={"Content-Type": "application/json",
                                                         **(heads[role] if role else {})})
            assert r.status_code == 400 and r.json()["error"]["code"] == "too_deep", (path, r.status_code, r.text[:200])
    assert count_entries(svc) == n


def test_a_nul_or_other_control_character_is_refused_alike_on_both_databases(client, svc):
    floor = login(client, "fiona")
    n = count_entries(svc)
    for body in ({"incident": overchip(), "table": "4\x00"}, {"incident": overchip(), "request_id": "a\x07b"},
                 {"incident": dict(overchip(), said="all\x00in")}):
        r = client.post("/api/rule", json=body, headers=floor)
        assert r.status_code == 422 and r.json()["error"]["code"] == "control_character", r.text[:300]
        assert "U+00" in r.json()["error"]["message"]
    entry = client.post("/api/rule", json={"incident": overchip()}, headers=floor).json()["entry"]["id"]
    r = client.post(f"/api/log/{entry}/decision", json={"decision": "departed", "reason": "x\x00"}, headers=floor)
    assert r.status_code == 422
    assert count_entries(svc) == n + 1
    # a podium form alike
    c = _logged_in(svc, "fiona")
    r = c.post("/podium/decision", data={"entry": str(entry), "decision": "departed", "reason": "x\x00y"})
    assert r.status_code == 422 and "U+0000" in r.text and count_entries(svc) == n + 1
    # a tab and a line break typed in a note are text, and kept
    r = client.post(f"/api/log/{entry}/decision", json={"decision": "departed", "reason": "a\tb\r\nc"},
                    headers=floor)
    assert r.status_code == 201 and r.json()["reason"] == "a\tb\r\nc"


def test_csv_cells_that_a_spreadsheet_would_compute_are_written_as_text(client, svc):
    floor, manager = login(client, "fiona"), login(client, "manny")
    entry = client.post("/api/rule", json={"incident": overchip()}, headers=floor).json()["entry"]["id"]
    risky = ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1", " =1", "  @x", "\n=1"]
    for text in risky:
        assert client.post(f"/api/log/{entry}/correction", json={"note": text}, headers=manager).status_code == 201
    client.post(f"/api/log/{entry}/decision", json={"decision": "departed", "reason": "\t=HYPERLINK(1)"},
                headers=floor)
    text = client.get("/api/log/export?format=csv", headers=manager).text
    cells = [c for row in csv.reader(io.StringIO(text)) for c in row]
    notes = [c for c in cells if c.lstrip("'") in risky or "HYPERLINK" in c]
    assert len(notes) == len(risky) + 1
    assert all(c.startswith("'") for c in notes), notes
    assert not [c for c in cells if c[:1] in ("\t", "\r") or c.lstrip()[:1] in ("=", "+", "-", "@")]


def test_a_retried_request_id_returns_the_first_record_and_is_recorded_once(client, svc):
    floor = login(client, "fiona")
    n = count_entries(svc)
    first = client.post("/api/rule", json={"incident": overchip(), "request_id": "tablet-7-0001"}, headers=floor)
    again = client.post("/api/rule", json={"incident": overchip(), "request_id": "tablet-7-0001"}, headers=floor)
    assert first.status_code == again.status_code == 200
    assert again.json()["entry"]["id"] == first.json()["entry"]["id"] and again.json()["replayed"] is True
    assert again.json()["report"] == first.json()["report"]
    assert count_entries(svc) == n + 1
    # sent at once from several threads (two tablets retrying together): still one entry
    from concurrent.futures import ThreadPoolExecutor
    account = svc.auth.account(floor["Authorization"].split()[1])
    with ThreadPoolExecutor(6) as pool:
        ids = set(pool.map(lambda _: svc.rule_and_record(account, incident=overchip(),
                                                         request_id="tablet-7-0002")["entry"]["id"], range(6)))
    assert len(ids) == 1 and count_entries(svc) == n + 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_log_that_already_holds_a_request_id_twice_is_upgraded_and_answers_with_the_first(tmp_path, backend):
    from rulings.service.store import db
    from rulings.service.core import Config, Service
    from rulings.service.store.auth import add_account
    database = database_for(backend)
    old = db.make_engine(db.database_url(database, tmp_path / "data"))
    db.migrate(old, "0003")
    with old.begin() as conn:
        for outcome in ("ruled", "questions"):     # written twice by an earlier version
            conn.execute(db.entries.insert().values(kind="ruling", at="2026-01-02T03:04:05.000000Z", room="main",
                                                    floorperson="fiona", rules="", topics="", citations="",
                                                    outcome=outcome, report='{"rulings":[]}', incident="{}",
                                                    answers="[]", request_id="r-1"))
    old.dispose()
    svc = Service(Config(data_dir=tmp_path / "data", database=database))
    try:
        assert db.revision(svc.engine) == "0006"
        account = add_account(svc.engine, "fiona", PASSWORDS["fiona"], "floor")
        again = svc.rule_and_record(account, incident=overchip(), request_id="r-1")
        assert again["replayed"] and again["entry"]["id"] == 1 and again["outcome"] == "ruled"
        assert count_entries(svc) == 2
    finally:
        svc.close()


def test_a_draft_over_256_kib_is_refused_as_too_large(svc):
    m = _logged_in(svc, "manny")
    big = "rulebook: big-house\nextends: standard\ntitle: big\n# " + "x" * (300 * 1024) + "\n"
    r = m.post("/podium/books/big-house/edit", data={"text": big})
    assert r.status_code == 422 and "over 256 KiB" in r.text and "empty" not in r.text.lower()
    r = m.post("/podium/books/big-house/edit", data={"text": big * 4})        # over the form's own bound
    assert r.status_code == 413 and "Too large" in r.text


def test_wrong_passwords_from_one_address_do_not_lock_the_account_elsewhere(svc):
    from starlette.testclient import TestClient
    app = _app(svc)
    stranger = TestClient(app, client=("10.9.9.9", 40000))
    answers = [stranger.post("/api/login", json={"username": "fiona", "password": "guess"}) for _ in range(6)]
    assert [r.status_code for r in answers] == [401] * 5 + [429]        # the sixth guess must wait ...
    assert int(answers[-1].headers["retry-after"]) >= 1                 # ... and is told how long
    podium = TestClient(app, client=("10.0.0.5", 40001))
    assert podium.post("/api/login", json={"username": "fiona", "password": PASSWORDS["fiona"]}).status_code == 200
    # and another account from the stranger's own address is not held either
    assert stranger.post("/api/login", json={"username": "manny", "password": PASSWORDS["manny"]}).status_code == 200


def test_fresh_names_from_one_address_are_held_before_any_hash_and_a_podium_elsewhere_logs_in(svc):
    """A stranger trying a new name each time (which the per-name limit never holds) gets the address's
    logins and then 429s that say how long to wait, on the API and on the podium's form alike; the room's
    tablets, elsewhere, log in; a right password gives its token back."""
    from starlette.testclient import TestClient
    app = _app(svc)
    burst = svc.config.address_logins
    stranger = TestClient(app, client=("10.9.9.7", 40000))
    answers = [stranger.post("/api/login", json={"username": f"nobody{i}", "password": "guess"})
               for i in range(burst + 3)]
    assert [r.status_code for r in answers] == [401] * burst + [429] * 3
    assert all(1 <= int(r.headers["retry-after"]) <= svc.config.address_every + 1 for r in answers[burst:])
    assert "from this address" in answers[-1].json()["error"]["message"]
    form = form_client(app, client=("10.9.9.7", 40001))
    r = form.post("/podium/login", data={"username": "fiona", "password": PASSWORDS["fiona"], "next": "/podium"})
    assert r.status_code == 429 and "wait" in r.text and int(r.headers["retry-after"]) >= 1
    podium = TestClient(app, client=("10.0.0.5", 40001))
    for _ in range(burst + 3):    # right passwords: each gives its token back
        assert podium.post("/api/login", json={"username": "fiona", "password": PASSWORDS["fiona"]}).status_code == 200


def test_the_waits_grow_with_each_failure():
    from rulings.service.store.auth import Limiter
    waits = [Limiter(None).wait_after(n) for n in range(12)]
    assert waits[:5] == [0] * 5 and waits[5:10] == [1, 2, 4, 8, 16] and waits[-1] <= 300


# ---------------------------------------------------------------- the command line

def _rulings(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=cwd or ROOT, capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))


def test_a_deep_line_in_a_jsonl_batch_is_one_refusal_and_the_later_lines_are_ruled(tmp_path):
    import yaml
    incident = yaml.safe_load((ROOT / "examples/incidents/pl-silent-overchip.yaml").read_text())
    lines = [json.dumps(incident), DEEP, DEEP_OBJECT, json.dumps(incident)]
    (tmp_path / "batch.jsonl").write_text("\n".join(lines) + "\n")
    run = _rulings("rule", "--jsonl", str(tmp_path / "batch.jsonl"))
    assert run.returncode != 70, run.stderr
    out = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(out) == 4 and [o.get("refused", False) for o in out] == [False, True, True, False]
    assert out[1]["problems"][0]["code"] == out[2]["problems"][0]["code"] == "Y011"
    assert out[3]["outcome"] == out[0]["outcome"] == "ruled"


def test_a_deep_phh_file_and_a_loop_of_links_are_refusals(tmp_path):
    (tmp_path / "deep.phh").write_text('variant = "NT"\nantes = ' + DEEP + "\n")
    run = _rulings("calc", str(tmp_path / "deep.phh"))
    assert run.returncode == 2 and "nested more than 32 deep" in run.stderr and "internal error" not in run.stderr
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    for command in (["rule"], ["calc"], ["ask"]):
        run = _rulings(*command, str(tmp_path / "a"))
        assert run.returncode == 2 and "internal error" not in run.stderr, (command, run.stderr)
