"""Time and peak memory of the commands on hostile inputs of issue 20 (not a test: it prints figures).

    PYTHONPATH=. .venv/bin/python benchmarks/bench_hostile_inputs.py [--repo PATH]

Made in a temporary folder, never kept: a PNG of 30000x30000 black pixels (1-bit grey, ~110 kB;
2.7 GB once decoded as BGR), read by ``read`` and, two of them, by ``score --jobs 2`` beside a
hand whose serials are typed; and an ``odds`` line of 50,000 players (2.7 MB). Each command runs
in a process of its own; the peak memory is the largest resident set of it and its children
(``getrusage(RUSAGE_CHILDREN)`` of a process that runs only it). ``--repo`` measures another
checkout of the project (e.g. ``git archive`` of an older commit, to compare).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
_PROBE = ("import json, resource, subprocess, sys, time; t = time.monotonic(); "
          "done = subprocess.run(sys.argv[1:], capture_output=True); "
          "print(json.dumps({'rc': done.returncode, 's': time.monotonic() - t, "
          "'kb': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))")


def bomb_png(path: Path, width: int = 30000, height: int = 30000) -> None:
    row = b"\x00" * (1 + (width + 7) // 8)
    comp = zlib.compressobj(9)
    idat = b"".join(comp.compress(row * 1000) for _ in range(height // 1000)) + comp.flush()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
                     + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def measure(repo: Path, *args: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(repo), "COLUMNS": "120"}
    done = subprocess.run([sys.executable, "-c", _PROBE, sys.executable, "-m", "dealer_assist", *args],
                          capture_output=True, env=env, cwd=repo, check=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout to measure (default: this one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        bomb = tmp / "bomb.png"
        bomb_png(bomb)
        batch = tmp / "batch"
        (batch / "bombs").mkdir(parents=True)
        for name in ("board.png", "alice.png"):
            (batch / "bombs" / name).write_bytes(bomb.read_bytes())
        (batch / "bombs" / "hand.json").write_text('{"position": 4}')
        good = {"board.jpg": ["1234567", "7654321", "5555555"], "alice.jpg": ["1111111", "2222222"],
                "bob.jpg": ["3333333", "9999999"]}
        (batch / "typed").mkdir()
        for name in good:
            (batch / "typed" / name).write_bytes(b"not a photo: hand.json gives its serials")
        (batch / "typed" / "hand.json").write_text(json.dumps({"position": 4, "serials": good}))
        rng = random.Random(1)
        serials = rng.sample(range(10**7), 100_000)
        hands = tmp / "allin.jsonl"
        hands.write_text(json.dumps({"position": 4, "board": [], "players": [
            {"name": f"P{i}", "pocket": [f"{serials[2 * i]:07d}", f"{serials[2 * i + 1]:07d}"]}
            for i in range(50_000)]}) + "\n")
        runs = [(f"read a {bomb.stat().st_size // 1000} kB PNG of 30000x30000 px", ["read", str(bomb), "--json"]),
                ("score --jobs 2: two such photos, one typed hand",
                 ["score", str(batch), "--jobs", "2", "--json", str(tmp / "v.json")]),
                (f"odds: one line of 50,000 players ({hands.stat().st_size / 1e6:.1f} MB)",
                 ["odds", "--hands", str(hands), "--json"])]
        print(f"{args.repo} · Python {sys.version.split()[0]} · {os.cpu_count()} cores\n")
        print(f"{'command':<52} {'exit':>4} {'seconds':>8} {'peak MB':>8}")
        for label, argv in runs:
            got = measure(args.repo, *argv)
            print(f"{label:<52} {got['rc']:>4} {got['s']:>8.1f} {got['kb'] / 1024:>8.0f}")
            time.sleep(0.5)


if __name__ == "__main__":
    main()
