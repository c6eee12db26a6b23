"""`dealer-assist serve` in a real headless browser (Debian's chromium and chromedriver, through Selenium).

The command runs as a person runs it, in its own process, bound to 0.0.0.0 so that it needs its token
(requests go to 127.0.0.1 only). The page must load, show the logged hand, then by itself (server-sent
events, no reload) the hand in play from the state file — without the pocket of the seat that has not
revealed — and the next finished hand when the log gains it, each about --delay seconds late.

No skip: a missing browser is a failure that says how to install it (`make test` installs both Debian
packages, APT_PACKAGES in the Makefile).
"""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import nullcontext
from datetime import datetime, timezone
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from dealer_assist.live.history import HandLog
from dealer_assist.spectator.app import TOKEN_REFUSAL
from dealer_assist.spectator.state import state_from_view, write_state
from ledger_helpers import BOARD, POCKETS, logged_hand
from spectator_helpers import ANN, BOB_SHOWN, hand_in_play

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
DELAY = 2
#: A seat name that would run script if the page parsed names as HTML.
NASTY = '<img src=x onerror="document.title=\'pwned\'">Ева'


def browser(profile: str) -> webdriver.Chrome:
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        assert os.access(path, os.X_OK), (f"{path} is missing: the browser test needs Debian's {package} "
                                          f"(make system installs it: APT_PACKAGES in the Makefile).")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=1400,1000"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


class Server:
    """`python -m dealer_assist serve …` in a subprocess; its printed address."""

    def __init__(self, args: list[str], errors: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200"}
        self.errors = errors
        self.proc = subprocess.Popen([sys.executable, "-m", "dealer_assist", "serve", *args], cwd=REPO, env=env,
                                     stdout=subprocess.PIPE, stderr=open(errors, "wb"), text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.output: list[str] = []

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)

    def url(self, timeout: float = 30.0) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                assert self.proc.poll() is None, f"serve stopped: {self.output} {self.errors.read_text()}"
                continue
            self.output.append(line)
            found = re.search(r"(http://127\.0\.0\.1:\d+/\S*)", line)
            if found:
                return found.group(1)
        raise AssertionError(f"serve printed no address in {timeout} s: {self.output}")

    def stop(self) -> int:
        """Stop it as Ctrl-C does (SIGINT); its exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


def test_the_page_shows_a_hand_and_follows_the_table_by_itself(tmp_path):
    log = tmp_path / "hands.jsonl"
    state = tmp_path / "hands.state.json"
    seats = ["A", NASTY, "C"]
    pockets = {"A": POCKETS["A"], NASTY: POCKETS["B"], "C": POCKETS["C"]}
    HandLog(log).append(logged_hand(seats, BOARD, pockets, chips={"A": 10, NASTY: 10, "C": 10}, hand=1))
    server = Server(["--log", str(log), "--delay", str(DELAY), "--host", "0.0.0.0", "--port", "0"],
                    tmp_path / "serve.err")
    driver = None
    try:
        url = server.url()
        token = re.search(r"\?token=(\S+)", url)
        assert token, f"a bind to 0.0.0.0 must print a token: {server.output}"
        base = url.split("?")[0]

        # without the token: one sentence, 403, for the page and for the events
        for path in ("", "events", "state.json"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(base + path, timeout=10)
            assert refused.value.code == 403 and refused.value.read().decode() == TOKEN_REFUSAL

        # the profile lives in pytest's tmp_path: chromium may still be writing it when the block ends
        # (a TemporaryDirectory removed under it failed with "Directory not empty" on a busy machine)
        with nullcontext(str(tmp_path / "chromium-profile")) as profile:
            driver = browser(profile)
            wait = WebDriverWait(driver, 60, poll_frequency=0.1)  # generous: CI machines may be busy
            # 0. a browser without the token gets a page in both languages that fits a phone
            driver.set_window_size(390, 844)
            driver.get(base)
            refusal = driver.find_element(By.TAG_NAME, "main").text
            assert "403" in refusal and "needs the token" in refusal and "нужен токен" in refusal
            assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth;")
            size = driver.execute_script("return parseFloat(getComputedStyle(document.querySelector('p')).fontSize);")
            colour = driver.execute_script("return getComputedStyle(document.body.parentElement).backgroundColor;")
            assert size >= 16 and colour != "rgba(0, 0, 0, 0)", (size, colour)  # styled: the CSP let it in
            driver.save_screenshot(str(tmp_path / "refusal-phone.png"))
            driver.set_window_size(1400, 1000)
            started = time.monotonic()
            driver.get(url)

            # 1. the logged hand, once old enough
            wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-hand") == "1")
            driver.execute_script("window.stillTheSamePage = true;")
            text = driver.find_element(By.TAG_NAME, "body").text
            assert "Hand 1" in text and f"Delayed by {DELAY} s" in text
            assert f"Winner · Победитель: {NASTY}" in text  # the name shown as text, not run as HTML
            assert "Set (Сет)" in text and "Straight (Стрит)" in text
            assert "(1 hand · 1 раздача)" in text  # plural forms, not "1 HANDS"
            # each revealed pocket note with its rank and why, in both languages (as the board's notes)
            pocket = driver.find_element(By.CSS_SELECTOR, '[data-seat="A"] .pnote').text
            assert "natural" in pocket and "натуральная" in pocket, pocket
            assert driver.find_element(By.ID, "asof").is_displayed()  # an empty badge is hidden, this one is not
            # at a desktop's and at a phone's width: nothing runs off the side (screenshots kept beside the test)
            for width, height, name in ((1400, 1000, "desktop"), (390, 844, "phone")):
                driver.set_window_size(width, height)
                wide = driver.execute_script(
                    "return Array.from(document.querySelectorAll('body *')).filter(function (e) {"
                    " return e.getBoundingClientRect().right > window.innerWidth + 1; }).map(function (e) {"
                    " return e.tagName + '.' + e.className + ' ' + e.textContent.slice(0, 40); }).slice(0, 5);")
                assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth;"), \
                    (name, wide)
                driver.save_screenshot(str(tmp_path / f"page-{name}.png"))
            driver.set_window_size(1400, 1000)
            assert driver.find_elements(By.CSS_SELECTOR, "main img") == [] and driver.title != "pwned"
            assert "connected" in driver.find_element(By.ID, "connection").text
            balances = driver.find_element(By.ID, "balances").text
            assert "+20" in balances and "-10" in balances

            # 2. the hand in play, from the state file live writes: late, and without Bob's one shown note
            write_state(state_from_view(hand_in_play(hand=2)), state)
            written = time.monotonic()
            assert driver.find_element(By.TAG_NAME, "body").get_attribute("data-hand") == "1"  # not yet
            wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-source") == "live")
            assert time.monotonic() - written >= DELAY - 0.5
            text = driver.find_element(By.TAG_NAME, "body").text
            assert "Hand 2" in text and "in play" in text and "Previous hand 1" in text
            assert ANN[0] in driver.find_element(By.CSS_SELECTOR, '[data-seat="Ann"]').text.replace(" ", "")
            bob = driver.find_element(By.CSS_SELECTOR, '[data-seat="Bob"]').text
            assert "hidden until revealed" in bob
            assert BOB_SHOWN not in driver.page_source

            # 3. hand 2 finishes: appended to the log; the page follows without a reload
            finished = datetime.now(timezone.utc)
            HandLog(log).append(logged_hand(seats, BOARD, pockets, chips={"A": 5, NASTY: 5, "C": 5}, hand=2,
                                            finished=finished))
            wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-source") == "log")
            body = driver.find_element(By.TAG_NAME, "body")
            assert body.get_attribute("data-hand") == "2" and "finished" in body.text
            assert "(2 hands · 2 раздачи)" in driver.find_element(By.ID, "main").text
            assert driver.execute_script("return window.stillTheSamePage === true;")  # SSE, not a reload
            assert time.monotonic() - started < 90  # the whole page story, with room for a busy machine
            # 4. Ctrl-C with the page still open: the event stream ends, the server stops cleanly
            stopping = time.monotonic()
            assert server.stop() == 0
            assert time.monotonic() - stopping < 8
    finally:
        server.stop()
        if driver is not None:
            driver.quit()
    errors = (tmp_path / "serve.err").read_text()
    assert "Traceback" not in errors and "ERROR" not in errors, errors
