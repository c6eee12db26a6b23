"""Memory and time of `serve`, `ledger` and `history` on a long hand log (not a test: it prints figures).

    PYTHONPATH=. nice .venv/bin/python benchmarks/bench_serve_log.py [--mb 200] [--keep DIR]

Writes a hand log of about ``--mb`` megabytes (records made by live's own writer,
:func:`dealer_assist.live.history.hand_record`, over hands the rules engine decides:
6 seats, chips entered, sessions of 60 hands), then measures each command as
its own process, as a croupier would run it:

* ``serve --delay 0 --port 0``: the time from start until ``/state.json``
  answers with the balances of every hand of the last session (ready), and the
  process's peak resident memory then (``VmHWM``);
* ``ledger --json`` and ``history --json`` (output to the null device): wall
  time and peak resident memory (``ru_maxrss`` of the finished process);
* with ``--long-line``, also ``serve`` on the log followed by a 400 MB line
  without a newline (a hand-edited or damaged file).

Targets (issue 20): peak RSS <= 300 MB for each, serve ready in <= 30 s.
The wall times depend on the machine's load (it prints the load average before
and after); the CPU seconds (user + system of the command's process) do much
less, and on an idle core the wall time is about the CPU time.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import datetime, timedelta, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SEATS = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay")
HANDS_PER_SESSION = 60


def templates() -> list[dict]:
    """A few decided hands of 6 seats, as live logs them (the rules engine settles the chips)."""
    from dealer_assist.live.history import hand_record
    from dealer_assist.live.table_state import NoteInfo, TableState
    from dealer_assist.live.table_view import table_view

    import random

    rng = random.Random(20)
    out = []
    t0 = datetime(2025, 1, 1, 20, 0, tzinfo=timezone.utc)
    while len(out) < 8:
        serials = rng.sample([f"{n:07d}" for n in range(10**6, 10**7, 7919)], 3 + 2 * len(SEATS))
        chips = tuple((s, rng.randint(1, 40)) for s in SEATS)
        state = TableState(seats=SEATS, position=rng.randint(1, 7), hand_number=1, dealer_index=0,
                           folded=frozenset(rng.sample(SEATS, 2)), chips=chips)
        notes = [NoteInfo(f"t{i}", i, "board", s, "trusted", 0.93, float(i)) for i, s in enumerate(serials[:3], 1)]
        for k, seat in enumerate(SEATS):
            for j in (0, 1):
                i = len(notes) + 1
                notes.append(NoteInfo(f"t{i}", i, seat, serials[3 + 2 * k + j], "trusted", 0.91, float(i)))
        view = table_view(state, notes)
        if not view.complete:
            continue
        out.append(hand_record(view, session="x", started=t0, finished=t0, end="new hand"))
    return out


def write_log(path: Path, megabytes: float) -> tuple[int, int]:
    """The log of about ``megabytes`` MB; ``(records, hands in the last session)``."""
    base = templates()
    target = int(megabytes * 1_000_000)
    t0 = datetime(2025, 1, 1, 20, 0, tzinfo=timezone.utc)
    size = n = 0
    with open(path, "w", encoding="utf-8") as fh:
        while size < target:
            record = dict(base[n % len(base)])
            session, hand = divmod(n, HANDS_PER_SESSION)
            when = t0 + timedelta(minutes=3 * n)
            record.update(session=f"bench-{session:05d}", hand=hand + 1,
                          started=(when - timedelta(minutes=2)).isoformat(timespec="seconds"),
                          finished=when.isoformat(timespec="seconds"))
            line = json.dumps(record, separators=(",", ":")) + "\n"
            fh.write(line)
            size += len(line.encode("utf-8"))
            n += 1
    return n, (n - 1) % HANDS_PER_SESSION + 1


def env() -> dict:
    return {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "120"}


def run_measured(args: list[str]) -> tuple[float, float, float, int]:
    """Wall seconds, CPU seconds (user + system), peak RSS in MB and exit code of ``python -m dealer_assist
    ARGS`` (output to /dev/null)."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen([sys.executable, "-m", "dealer_assist", *args], stdout=null, stderr=null, env=env())
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds the running process ``pid`` has used (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_rss_mb(pid: int) -> float:
    text = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+) kB", text).group(1)) / 1024


def serve_ready(log: Path, hands: int, timeout: float = 600.0) -> tuple[float, float, float]:
    """Seconds until serve's /state.json shows ``hands`` hands in its balances, the CPU seconds it used
    until then and its peak RSS (MB) then."""
    start = time.perf_counter()
    errors = tempfile.TemporaryFile("w+")
    proc = subprocess.Popen([sys.executable, "-m", "dealer_assist", "serve", "--log", str(log), "--delay", "0",
                             "--port", "0"], stdout=subprocess.PIPE, stderr=errors, text=True, env=env())
    try:
        url = None
        while url is None:
            line = proc.stdout.readline()
            if not line:
                proc.wait()
                errors.seek(0)
                raise RuntimeError(f"serve ended before printing its address: {errors.read()[-2000:]}")
            found = re.search(r"(http://\S+)", line)  # the address: a line of its own, or after "open"
            url = found.group(1) if found else None
        base = url.rstrip("/")
        while time.perf_counter() - start < timeout:
            try:
                with urllib.request.urlopen(f"{base}/state.json", timeout=5) as response:
                    served = json.load(response)
                if (served.get("balances") or {}).get("hands") == hands:
                    return time.perf_counter() - start, cpu_seconds(proc.pid), peak_rss_mb(proc.pid)
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"serve was not ready in {timeout:.0f} s")
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=200.0, help="size of the log in MB (default 200)")
    parser.add_argument("--keep", type=Path, help="write the log in this folder and keep it")
    parser.add_argument("--long-line", action="store_true", help="also serve the log after a 400 MB line")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-serve-"))
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "hands.jsonl"
    start = time.perf_counter()
    records, last_session = write_log(log, args.mb)
    print(f"log: {log.stat().st_size / 1e6:.0f} MB, {records:,} records ({HANDS_PER_SESSION} per session), "
          f"written in {time.perf_counter() - start:.0f} s; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores\n")
    print(f"{'command':<28}{'time s':>8}{'CPU s':>8}{'peak RSS MB':>13}   target")
    seconds, cpu, rss = serve_ready(log, last_session)
    print(f"{'serve (until ready)':<28}{seconds:8.1f}{cpu:8.1f}{rss:13.0f}   ready <= 30 s, RSS <= 300 MB")
    for name, cmd in (("ledger --json", ["ledger", "--log", str(log), "--json"]),
                      ("ledger --since (every hand)", ["ledger", "--log", str(log), "--since", "2025-01-01",
                                                       "--json"]),
                      ("history --json", ["history", "--log", str(log), "--json"]),
                      ("history (the table)", ["history", "--log", str(log)])):
        seconds, cpu, rss, code = run_measured(cmd)
        print(f"{name:<28}{seconds:8.1f}{cpu:8.1f}{rss:13.0f}   RSS <= 300 MB"
              f"{'' if code == 0 else f'  (exit code {code})'}")
    if args.long_line:
        with open(log, "ab") as fh:
            chunk = b"x" * (1 << 20)
            fh.write(b'{"schema":"dealer-assist/hand-log","x":"')
            for _ in range(400):
                fh.write(chunk)
        seconds, cpu, rss = serve_ready(log, last_session)
        print(f"{'serve, + 400 MB line':<28}{seconds:8.1f}{cpu:8.1f}{rss:13.0f}   RSS <= 300 MB")
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")
    if args.keep is None:
        log.unlink()
        folder.rmdir()


if __name__ == "__main__":
    main()
