"""Throughput of the rules engine on one core (not a test: it prints figures).

    .venv/bin/python benchmarks/bench_rules.py [--seconds 1.0]

Figures, per zero-joker option, on random serials (digits uniform 0-9, so about
half the notes hold a zero and a tenth have it at P):

* player hands/s (best_hand) -- best 3-note hand of 5 notes whose rank options
  are already known (the board is ranked once per showdown);
* player hands/s (from serials) -- rank the 2 pocket notes, then best_hand:
  what one more player costs in a river showdown;
* 8-player river showdowns/s -- evaluate(): rank every note, best hands,
  winners and the side-pot settlement of a validated Hand.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from typing import Callable

from dealer_assist.rules import Hand, Player, ZeroJoker, best_hand, evaluate, rank_options


def rate(work: Callable[[], int], seconds: float) -> float:
    """Best of 3 runs of ``work`` (returns items done), items per second."""
    best = 0.0
    for _ in range(3):
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds / 3:
            done += work()
        best = max(best, done / (time.perf_counter() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.5, help="time per figure (default 1.5)")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    rng = random.Random(args.seed)

    def serial() -> str:
        return "".join(rng.choice("0123456789") for _ in range(7))

    batch = 2000
    print(f"Python {platform.python_version()} on {platform.machine()}, one core; "
          f"{args.seconds:.1f} s per figure, best of 3\n")
    print(f"{'zero-joker':<10} {'hands/s best_hand':>18} {'hands/s from serials':>21} {'8-player showdowns/s':>21}")
    for joker in ZeroJoker:
        position = [rng.randint(1, 7) for _ in range(batch)]
        pockets = [(serial(), serial()) for _ in range(batch)]
        boards = [tuple(serial() for _ in range(3)) for _ in range(batch)]
        board_options = [tuple(rank_options(s, p) for s in b) for p, b in zip(position, boards)]
        notes = [
            [rank_options(s, p, pocket=True, zero_joker=joker) for s in pocket] + list(board)
            for p, pocket, board in zip(position, pockets, board_options)
        ]

        def evaluated() -> int:
            for n in notes:
                best_hand(n)
            return batch

        def from_serials() -> int:
            for p, (a, b), board in zip(position, pockets, board_options):
                best_hand([rank_options(a, p, pocket=True, zero_joker=joker),
                           rank_options(b, p, pocket=True, zero_joker=joker), *board])
            return batch

        hands = [
            Hand(
                position=p,
                board=boards[i],
                players=tuple(
                    Player(f"P{k}", (serial(), serial()), contributed=rng.choice([2, 5, 10, 25, 100]))
                    for k in range(8)
                ),
                zero_joker=joker,
                dealer="P0",
            )
            for i, p in enumerate(position[:500])
        ]

        def showdowns() -> int:
            for hand in hands:
                evaluate(hand)
            return len(hands)

        print(f"{joker.value:<10} {rate(evaluated, args.seconds):>18,.0f} "
              f"{rate(from_serials, args.seconds):>21,.0f} {rate(showdowns, args.seconds):>21,.0f}")


if __name__ == "__main__":
    main()
