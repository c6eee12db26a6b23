"""Time of the exact all-in odds on one core (not a test: it prints figures).

    PYTHONPATH=. .venv/bin/python benchmarks/bench_odds.py [--repeats 15] [--hands 5]

For 2..8 players and 0, 1 or 2 known board notes: the median time of
:func:`dealer_assist.rules.odds.all_in_odds` over ``--hands`` random hands
(serials with many zeros, zero-joker ``per-zero``, the slowest option: most
rank options per pocket note), each timed ``--repeats`` times.  The target is
a 6-player hand with no board note known in 50 ms or less.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time

from dealer_assist.rules import Hand, Player
from dealer_assist.rules.odds import all_in_odds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15, help="timings per hand (default 15)")
    parser.add_argument("--hands", type=int, default=5, help="random hands per figure (default 5)")
    parser.add_argument("--joker", default="per-zero", choices=["off", "per-zero", "once"])
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    rng = random.Random(args.seed)

    def serial() -> str:
        return "".join(rng.choice("0000123456789") for _ in range(7))

    all_in_odds(Hand(1, (), (Player("A", ("1111111", "2222222")), Player("B", ("3333333", "4444444")))))  # tables
    print(f"Python {platform.python_version()} on {platform.machine()}, one core; zero-joker {args.joker}; "
          f"median of {args.repeats} runs x {args.hands} hands, milliseconds\n")
    print(f"{'players':>7} " + " ".join(f"{f'{k} board known':>15}" for k in (0, 1, 2)))
    for players in range(2, 9):
        cells = []
        for known in (0, 1, 2):
            times = []
            for _ in range(args.hands):
                serials: list[str] = []
                while len(serials) < 2 * players + known:
                    s = serial()
                    if s not in serials:
                        serials.append(s)
                hand = Hand(rng.randint(1, 7), tuple(serials[2 * players:]),
                            tuple(Player(f"P{i + 1}", (serials[2 * i], serials[2 * i + 1])) for i in range(players)),
                            zero_joker=args.joker)
                for _ in range(args.repeats):
                    start = time.perf_counter()
                    all_in_odds(hand)
                    times.append(time.perf_counter() - start)
            cells.append(f"{statistics.median(times) * 1000:15.1f}")
        print(f"{players:>7} " + " ".join(cells))


if __name__ == "__main__":
    main()
