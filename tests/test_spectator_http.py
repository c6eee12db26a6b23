"""The spectator screen over HTTP (Starlette's TestClient) and `dealer-assist serve`'s one-sentence refusals:
the token on a LAN bind, loopback names only on loopback, GET only, no pocket leak, the delay."""

from __future__ import annotations

import json
import os
import socket

from starlette.testclient import TestClient
from typer.testing import CliRunner

from dealer_assist.cli import app as cli_app
from dealer_assist.live.history import HandLog
from dealer_assist.spectator.app import HOST_REFUSAL, TOKEN_REFUSAL, SpectatorConfig, create_app
from dealer_assist.spectator.page import PAGE
from dealer_assist.spectator.state import state_from_view, write_state
from ledger_helpers import BOARD, POCKETS, logged_hand
from spectator_helpers import BOB_SHOWN, CID_SHOWN, hand_in_play

TOKEN = "s3cret-token"


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def make_client(tmp_path, *, token=None, loopback_only=False, delay=0.0, clock=None, base_url="http://testserver"):
    log = tmp_path / "hands.jsonl"
    config = SpectatorConfig(log=log, state=tmp_path / "hands.state.json", delay=delay, token=token,
                             loopback_only=loopback_only, poll=3600, warn=lambda text: None,
                             **({"clock": clock} if clock else {}))
    application = create_app(config)
    return TestClient(application, base_url=base_url), application.watcher


def test_on_a_lan_bind_a_request_without_the_right_token_is_refused_with_one_sentence(tmp_path):
    client, _ = make_client(tmp_path, token=TOKEN)
    with client:
        for url in ("/", "/state.json", "/events", "/?token=wrong", f"/?token={TOKEN}x", "/nothing"):
            response = client.get(url)
            assert response.status_code == 403, url
            assert response.text == TOKEN_REFUSAL and len(response.text.strip().splitlines()) == 1
        assert client.post("/").status_code == 403  # no token: refused before anything else
        ok = client.get(f"/?token={TOKEN}")
        assert ok.status_code == 200 and "Waiting for the first hand" in ok.text
        assert client.get(f"/state.json?token={TOKEN}").json()["hand"] is None


def test_a_browser_is_refused_with_a_page_in_both_languages_and_a_script_with_the_sentence(tmp_path):
    client, _ = make_client(tmp_path, token=TOKEN)
    with client:
        page = client.get("/", headers={"Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"})
        assert page.status_code == 403 and page.headers["content-type"].startswith("text/html")
        assert "width=device-width" in page.text and "needs the token dealer-assist serve printed" in page.text
        assert "нужен токен" in page.text and "<script" not in page.text
        policy = page.headers["content-security-policy"]
        assert policy.startswith("default-src 'none'; style-src 'sha256-") and "script" not in policy
        assert client.get("/").text == TOKEN_REFUSAL  # no HTML asked for: the one sentence


def test_on_loopback_only_loopback_names_are_answered(tmp_path):
    client, _ = make_client(tmp_path, loopback_only=True, base_url="http://127.0.0.1:8765")
    with client:
        assert client.get("/").status_code == 200
        for host in ("localhost:8765", "[::1]:8765", "127.0.0.2", "[::1]", "LOCALHOST.", "127.0.0.1:80"):
            assert client.get("/", headers={"Host": host}).status_code == 200, host
        # a Host is a bracketed IPv6 address or a name, then an optional :port, and nothing else
        for host in ("evil.example:8765", "[::1]evil.example", "[::1]:80@evil.example", "127.0.0.1:80@evil.example",
                     "localhost@evil.example", "127.0.0.1.evil.example", "[::1", "::1", "127.0.0.1:99999",
                     "localhost:80:80", "[::1]:80/x", ""):
            refused = client.get("/", headers={"Host": host})
            assert refused.status_code == 403 and refused.text == HOST_REFUSAL, host


def test_nothing_but_get_is_answered(tmp_path):
    client, _ = make_client(tmp_path, token=TOKEN)
    with client:
        for method in ("POST", "PUT", "PATCH", "DELETE", "OPTIONS"):
            for url in ("/", "/state.json", "/events"):
                response = client.request(method, f"{url}?token={TOKEN}", content=b"x")
                assert response.status_code == 405, (method, url)
                assert response.headers["allow"] == "GET, HEAD"
                assert "read-only" in response.text
        assert client.head(f"/?token={TOKEN}").status_code == 200


def test_the_page_is_one_self_contained_document_that_fetches_nothing_else(tmp_path):
    client, _ = make_client(tmp_path)
    with client:
        response = client.get("/")
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert '<meta charset="utf-8">' in response.text
    policy = response.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "connect-src 'self'" in policy and "form-action 'none'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert response.headers["referrer-policy"] == "no-referrer" and response.headers["cache-control"] == "no-store"
    lower = PAGE.lower()
    assert "http://" not in lower and "https://" not in lower and "//" + "cdn" not in lower
    assert "<form" not in lower and "<input" not in lower and "<button" not in lower
    assert "innerhtml" not in lower and "eval(" not in lower and "document.write" not in lower
    assert "Ожидание первой раздачи" in response.text


def test_no_pocket_serial_of_a_seat_that_has_not_revealed_reaches_the_screen(tmp_path):
    client, watcher = make_client(tmp_path)
    state = state_from_view(hand_in_play())
    bob = next(s for s in state["seats"] if s["name"] == "Bob")
    bob["pocket"] = [BOB_SHOWN, "3332333"]  # a buggy writer
    bob["best"] = {"class": "straight", "ranks": [5, 4, 3], "natural": True}
    state["problems"] = [f"{CID_SHOWN} twice"]
    write_state(state, tmp_path / "hands.state.json")
    with client:
        watcher.poll()
        served = client.get("/state.json").json()
    text = json.dumps(served)
    assert served["hand"]["hand"] == 2 and served["hand"]["source"] == "live"
    assert BOB_SHOWN not in text and "3332333" not in text and CID_SHOWN not in text
    assert {s["name"]: s["pocket"] for s in served["hand"]["seats"]}["Ann"] == ["4444123", "9990999"]


def test_the_screen_runs_the_delay_behind_the_files(tmp_path):
    clock = Clock(0.0)
    client, watcher = make_client(tmp_path, delay=30, clock=clock)
    log = tmp_path / "hands.jsonl"
    HandLog(log).append(logged_hand("AB", BOARD, {"A": POCKETS["A"], "B": POCKETS["B"]}, chips={"A": 5, "B": 5}))
    os.utime(log, (1000.0, 1000.0))
    clock.now = 1010.0
    with client:
        waiting = client.get("/state.json").json()
        # the first picture comes by the start (1010) plus the delay: said from the start alone
        assert waiting["hand"] is None and waiting["delay"] == 30 and waiting["visible_from"] == 1040.0
        clock.now = 1030.0
        shown = client.get("/state.json").json()
        assert shown["hand"]["hand"] == 1 and shown["as_of"] == 1000.0 and shown["balances"]["hands"] == 1
        # hand 2 is appended at 1040: the screen shows it only from 1070 on
        HandLog(log).append(logged_hand("AB", BOARD, {"A": POCKETS["A"], "B": POCKETS["B"]}, hand=2))
        os.utime(log, (1040.0, 1040.0))
        clock.now = 1041.0
        watcher.poll()
        assert client.get("/state.json").json()["hand"]["hand"] == 1
        clock.now = 1069.9
        assert client.get("/state.json").json()["hand"]["hand"] == 1
        clock.now = 1070.0
        assert client.get("/state.json").json()["hand"]["hand"] == 2


def test_the_waiting_screen_never_tells_when_the_table_changed_before_the_delay(tmp_path):
    clock = Clock(1000.0)
    client, watcher = make_client(tmp_path, delay=30, clock=clock)
    log = tmp_path / "hands.jsonl"
    with client:  # started at 1000 with no log: nothing to show before 1030
        assert client.get("/state.json").json()["visible_from"] == 1030.0
        HandLog(log).append(logged_hand("AB", BOARD, {"A": POCKETS["A"], "B": POCKETS["B"]}, chips={"A": 5, "B": 5}))
        os.utime(log, (1005.0, 1005.0))  # a hand finished at 1005
        clock.now = 1005.5
        watcher.poll()
        served = client.get("/state.json").json()
        assert served["hand"] is None and served["visible_from"] == 1030.0
        clock.now = 1030.0
        served = client.get("/state.json").json()
        assert served["hand"] is None and served["snapshot"] == 1 and served["visible_from"] is None  # was 1035.0
        clock.now = 1035.0
        assert client.get("/state.json").json()["hand"]["hand"] == 1


# -- the command's refusals ------------------------------------------------------------------
runner = CliRunner()


def serve(*args):
    result = runner.invoke(cli_app, ["serve", *map(str, args)])
    assert "Traceback" not in result.output
    return result


def one_sentence(result) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


def test_a_folder_a_pipe_or_another_file_as_the_log_is_refused(tmp_path):
    result = serve("--log", tmp_path)
    assert result.exit_code == 2 and "is a folder" in one_sentence(result)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result = serve("--log", fifo)
    assert result.exit_code == 2 and "not a regular file" in one_sentence(result)
    other = tmp_path / "photo.jpg"
    other.write_bytes(b"\xff\xd8\xff\xe0 not a log\n")
    result = serve("--log", other)
    assert result.exit_code == 2 and "is not a hand log" in one_sentence(result)
    result = serve("--log", tmp_path / "hands.jsonl", "--state", tmp_path)
    assert result.exit_code == 2 and "state file" in one_sentence(result)


def test_a_port_in_use_or_a_bad_host_is_one_sentence(tmp_path):
    log = tmp_path / "hands.jsonl"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        result = serve("--log", log, "--port", busy.getsockname()[1])
    assert result.exit_code == 2 and "is in use" in one_sentence(result)
    result = serve("--log", log, "--host", "not a host")
    assert result.exit_code == 2 and "is not an address or a host name" in one_sentence(result)
    result = serve("--log", log, "--host", "192.0.2.1", "--port", 0)  # TEST-NET-1: never this machine's
    assert result.exit_code == 2 and "is not an address of this machine" in one_sentence(result)
    result = serve("--log", log, "--port", 70000)
    assert result.exit_code == 2 and "65535" in one_sentence(result)


def test_a_negative_delay_is_refused(tmp_path):
    result = serve("--log", tmp_path / "hands.jsonl", "--delay", -1)
    assert result.exit_code == 2 and "--delay" in result.output


def test_help_teaches_the_token_and_the_delay():
    result = runner.invoke(cli_app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    for words in ("--delay", "token", "127.0.0.1", "0.0.0.0", "revealed", "hands.state.json"):
        assert words in text, words
