"""A club night on one machine: 8 tables publishing recorded hands into one PostgreSQL, with faults.

    .venv/bin/python benchmarks/bench_club.py [--tables 8] [--duration 300] [--interval 2.0]

Debian's PostgreSQL (``apt-get install postgresql``) is started in a temporary folder
(:class:`dealer_assist.club.cluster.LocalCluster`), initialised with the club's migrations,
and ``dealer-assist serve --club URL --delay 0`` follows it. Each table is a process of its
own (this script with ``--table-worker``) doing what ``live --club`` does when a hand
finishes: the recorded hand (``../shared/golden/hands.jsonl``, FORMATS.md §1, played
through the live mode's own code: :mod:`dealer_assist.club.replay`, chips drawn at random)
is appended to the table's local log (fsynced), then the outbox
(:class:`dealer_assist.club.outbox.Publisher`) sends it to the club. A table finishes a
hand every ``--interval`` seconds on average (uniform from half to one and a half of it).

Faults during the run (times for the default 300 s; scaled with --duration):

* the PostgreSQL server is killed with SIGKILL at 60 s and 180 s and started again 5 s later;
* one table's (the last one's) connection is cut for 60 s from 100 s: it goes through a TCP
  proxy of this script that closes its connections and refuses new ones meanwhile;
* every 40 s one table process (in turn) is killed with SIGKILL and started again 2 s later
  (a new live session, as when the croupier restarts live; the log and the outbox offset stay).

At the end every table is stopped (SIGTERM: the outbox gets 3 s to flush) and the script
prints: hands in the local logs; hands in the club; lost (in a log, not in the club),
unknown (in the club, in no log), duplicated (a table, session and hand stored twice) and
changed (stored record differs from the logged one); the club ledger against the sum of
the tables' local ledgers, chip for chip; each table's hands logged during each fault (the
table played on); and the time from a hand's log write to its appearance on the club page's
event stream (a client of ``serve --club`` reading ``/events``), median, 90th percentile and
maximum, for hands finished while everything was up and for those sent from a backlog.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from datetime import datetime, timezone
from fractions import Fraction
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


# ----------------------------------------------------------------------------- a table process
def table_worker(args) -> None:
    """One table: a hand every ~interval seconds, logged first, then published (until SIGTERM)."""
    from dealer_assist.club.outbox import Outbox, Publisher
    from dealer_assist.club.replay import recorded_record
    from dealer_assist.live.history import HandLog

    hands = [json.loads(line) for line in (SHARED / "golden" / "hands.jsonl").read_text().splitlines() if line.strip()]
    session = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S") + "-" + uuid.uuid4().hex[:4]
    rng = random.Random(f"{args.table_worker}-{session}")
    log = HandLog(args.log)
    log.check()
    publisher = Publisher(Outbox(args.log, args.club, args.table_worker)).start()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    times = open(args.times, "a", encoding="utf-8")
    status_online = None
    number = 0
    next_hand = time.monotonic() + rng.uniform(0.5, 1.5) * args.interval
    while not stop.is_set():
        status = publisher.status()
        if status.online != status_online:
            status_online = status.online
            print(f"{time.time():.3f} {status.line()}", flush=True)  # what the table's header says
        wait = next_hand - time.monotonic()
        if wait > 0:
            stop.wait(min(wait, 0.2))
            continue
        number += 1
        record = recorded_record(rng.choice(hands), session=session, number=number, rng=rng)
        log.append(record)  # the local log first (fsynced) ...
        logged = time.time()
        publisher.wake()    # ... then the outbox sends it
        times.write(json.dumps({"session": session, "hand": number, "logged": logged}) + "\n")
        times.flush()
        next_hand += rng.uniform(0.5, 1.5) * args.interval
    status = publisher.close(flush=3.0)
    print(f"{time.time():.3f} stopped: {status.line()}", flush=True)


# ----------------------------------------------------------------------------- a cuttable connection
class Proxy:
    """A TCP proxy to the server; :meth:`cut` closes its connections and refuses new ones for a while."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.blocked_until = 0.0
        self.live: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def cut(self, seconds: float) -> None:
        self.blocked_until = time.monotonic() + seconds
        with self.lock:
            for s in list(self.live):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
            self.live.clear()

    def _accept(self) -> None:
        while True:
            client, _ = self.sock.accept()
            if time.monotonic() < self.blocked_until:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=3)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.live.update((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.close()
            except OSError:
                pass
        with self.lock:
            self.live.discard(src)
            self.live.discard(dst)


# ----------------------------------------------------------------------------- the spectator
class Spectator:
    """Reads the club page's event stream; notes when each table's last finished hand first shows."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.seen: dict[tuple[str, str, int], float] = {}
        self.events = 0
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                conn.request("GET", "/events", headers={"Host": "127.0.0.1"})
                resp = conn.getresponse()
                while True:
                    line = resp.fp.readline()
                    if not line:
                        break
                    if line.startswith(b"data: "):
                        now = time.time()
                        self.events += 1
                        data = json.loads(line[6:])
                        for t in data.get("tables", []):
                            last = t.get("last")
                            if last and last.get("hand") is not None:
                                self.seen.setdefault((t["name"], last.get("session"), last["hand"]), now)
            except (OSError, http.client.HTTPException, ValueError):
                time.sleep(0.2)


# ----------------------------------------------------------------------------- the run
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--duration", type=float, default=300.0, help="seconds of play")
    parser.add_argument("--interval", type=float, default=2.0, help="mean seconds between a table's hands")
    parser.add_argument("--table-worker", help=argparse.SUPPRESS)
    parser.add_argument("--log", help=argparse.SUPPRESS)
    parser.add_argument("--club", help=argparse.SUPPRESS)
    parser.add_argument("--times", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.table_worker:
        table_worker(args)
        return 0

    from dealer_assist.club.cluster import INSTALL_HINT, LocalCluster, find_bin_dir, free_port
    from dealer_assist.club.db import connect, migrate

    if find_bin_dir() is None:
        print(INSTALL_HINT, file=sys.stderr)
        return 2
    scale = args.duration / 300.0
    work = Path(tempfile.mkdtemp(prefix="bench-club-"))
    cluster = LocalCluster().start()
    procs: dict[str, subprocess.Popen] = {}
    serve = None
    try:
        import psycopg

        with psycopg.connect(cluster.url(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE club")
        url = cluster.url("club")
        with connect(url) as conn:
            migrate(conn)
        proxy = Proxy(cluster.port)
        names = [f"T{i + 1}" for i in range(args.tables)]
        cut_table = names[-1]
        urls = {n: (url if n != cut_table else f"postgresql://club@127.0.0.1:{proxy.port}/club") for n in names}
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        port = free_port()
        serve = subprocess.Popen([sys.executable, "-m", "dealer_assist", "serve", "--club", url, "--delay", "0",
                                  "--port", str(port)], env=env, stdout=open(work / "serve.out", "w"),
                                 stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        spectator = Spectator(port)

        def start_table(name: str) -> None:
            procs[name] = subprocess.Popen(
                [sys.executable, __file__, "--table-worker", name, "--log", str(work / f"{name}.jsonl"),
                 "--club", urls[name], "--times", str(work / f"{name}.times"), "--interval", str(args.interval)],
                env=env, stdout=open(work / f"{name}.out", "a"), stderr=subprocess.STDOUT)

        for name in names:
            start_table(name)
        t0 = time.monotonic()
        events = []  # (time, action)
        for at in (60, 180):
            events.append((at * scale, "kill server"))
            events.append((at * scale + 5, "start server"))
        events.append((100 * scale, "cut"))
        k = 0
        for at in range(40, int(args.duration), 40):
            events.append((at * scale, f"kill table {names[k % len(names)]}"))
            events.append((at * scale + 2, f"start table {names[k % len(names)]}"))
            k += 1
        events.sort()
        windows: dict[str, list[float]] = {}
        cut_seconds = 60 * scale
        print(f"{args.tables} tables for {args.duration:.0f} s, a hand every ~{args.interval:g} s each; "
              f"work folder {work}", flush=True)
        for at, action in events:
            wait = t0 + at - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            now = time.time()
            print(f"  {at:6.1f} s  {action}", flush=True)
            if action == "kill server":
                windows.setdefault("server down", []).append(now)
                cluster.kill()
            elif action == "start server":
                cluster.start()
                windows.setdefault("server down", []).append(time.time())
            elif action == "cut":
                proxy.cut(cut_seconds)
                windows["cut"] = [now, now + cut_seconds]
            elif action.startswith("kill table"):
                procs[action.split()[-1]].send_signal(signal.SIGKILL)
                procs[action.split()[-1]].wait()
            elif action.startswith("start table"):
                start_table(action.split()[-1])
        wait = t0 + args.duration - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        for p in procs.values():
            p.send_signal(signal.SIGTERM)
        for p in procs.values():
            p.wait(timeout=30)
        time.sleep(1.5)  # the page's last events
        return report(work, names, url, windows, spectator, cut_table)
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.kill()
        if serve is not None:
            serve.send_signal(signal.SIGINT)
            try:
                serve.wait(timeout=10)
            except subprocess.TimeoutExpired:
                serve.kill()
        cluster.remove()


def report(work: Path, names: list[str], url: str, windows: dict, spectator: Spectator, cut_table: str) -> int:
    from dealer_assist.club.read import club_player, ledger_records
    from dealer_assist.club.store import fetch_hands
    from dealer_assist.club.db import connect
    from dealer_assist.ledger import build_ledger
    from dealer_assist.live.history import read_log

    local: dict[tuple[str, str, int], dict] = {}
    nets: dict[str, Fraction] = {}
    warnings_total = 0
    kinds: list[str] = []
    for name in names:
        records, warnings = read_log(work / f"{name}.jsonl")
        warnings_total += len(warnings)
        kinds.extend(warnings[:1])
        for r in records:
            local[(name, r["session"], r["hand"])] = r
        for p in build_ledger(records).players:  # a numbered seat is its table's (T1/P3), as in the club ledger
            nets[club_player(name, p.name)] = nets.get(club_player(name, p.name), 0) + Fraction(p.net)
    with connect(url) as conn:
        rows = fetch_hands(conn)
        count = conn.execute("SELECT count(*), count(DISTINCT (table_name, session, hand)) FROM hands").fetchone()
    club = {(h.table, h.record["session"], h.record["hand"]): h.record for h in rows}
    lost = [k for k in local if k not in club]
    unknown = [k for k in club if k not in local]
    changed = [k for k in local if k in club and club[k] != local[k]]
    duplicated = count[0] - count[1]
    ledger = build_ledger(ledger_records(url))
    club_nets = {p.name: Fraction(p.net) for p in ledger.players}
    ledger_equal = club_nets == {n: v for n, v in nets.items()}
    print()
    print(f"hands in the local logs: {len(local)} ({warnings_total} line(s) the log's reader skipped"
          f"{': ' + kinds[0] if kinds else ''})")
    print(f"hands in the club:       {count[0]}")
    print(f"lost: {len(lost)}   unknown: {len(unknown)}   duplicated: {duplicated}   changed: {len(changed)}")
    print(f"club ledger = sum of the {len(names)} local ledgers, chip for chip: {ledger_equal} "
          f"({ledger.hands} decided hands; nets {sorted((n, str(v)) for n, v in club_nets.items())})")
    logged: dict[tuple[str, str, int], float] = {}
    for name in names:
        path = work / f"{name}.times"
        for line in path.read_text().splitlines():
            t = json.loads(line)
            logged[(name, t["session"], t["hand"])] = t["logged"]
    down = windows.get("server down", [])
    spans = [(down[i], down[i + 1]) for i in range(0, len(down) - 1, 2)]
    cut = windows.get("cut")
    for label, (a, b) in [*(("server down", s) for s in spans), *([("connection cut", cut)] if cut else [])]:
        played = {n: sum(1 for k, t in logged.items() if k[0] == n and a <= t <= b) for n in names}
        print(f"{label} {b - a:.1f} s: hands logged meanwhile per table {played}")
    normal, backlog = [], []
    for key, t in logged.items():
        seen = spectator.seen.get(key)
        if seen is None:
            continue
        affected = any(a - 1 <= t <= b + 1 for a, b in spans) or (cut and key[0] == cut_table and cut[0] - 1 <= t <= cut[1] + 1)
        (backlog if affected else normal).append(seen - t)
    for label, values in (("everything up", normal), ("sent from a backlog", backlog)):
        if values:
            values.sort()
            p90 = values[int(0.9 * (len(values) - 1))]
            print(f"log -> club page ({label}): {len(values)} hands seen, median {statistics.median(values):.3f} s, "
                  f"90% {p90:.3f} s, max {values[-1]:.3f} s")
    unseen = len(logged) - sum(1 for k in logged if k in spectator.seen)
    print(f"hands never the table's last on the page when it was looked at (a newer one came first): {unseen}")
    for name in names:
        lines = (work / f"{name}.out").read_text().splitlines()
        offline = sum(1 for line in lines if "OFFLINE" in line)
        print(f"  {name}: header said OFFLINE {offline} time(s)")
    ok = not lost and not unknown and not duplicated and not changed and ledger_equal
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
