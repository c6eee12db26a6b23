"""Live mode on recordings: how many synthetic dealt hands end in the right showdown.

    .venv/bin/python benchmarks/bench_live_recorded.py [--seeds 1 2 3 4 5 6] [--preset easy] [--players 3]

Each seed's dealt hand (:mod:`dealer_assist.synth.sequence`: an empty table, the
deal face down, flop, turn, river, every player turning both notes over, at
4 frames per second) is rendered at 2560x1440 (the 1 m table at ~1.8 px/mm,
serial digits ~6 px: the legible limit) and cached in ``--cache``. The
calibration comes from its first frame (ArUco markers, the truth's zones),
as ``calibrate table --aruco --zones`` makes it, and the frames are played
through the live session exactly as ``dealer-assist live --camera 'frames/*.jpg'
--no-window`` does: every read a frame calls for is done before the next
frame, so the figures do not depend on the machine's speed or load.

Printed per hand and in total: decided with the truth's winners and every
serial right; incomplete (some note still pending, the rest right); wrong
(a serial trusted that is not the truth's at that place, or other winners).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import cv2

from dealer_assist.calibration.profile import Profile, TablePlane
from dealer_assist.calibration.table import detect_markers, homography_from_markers, zones_from_json
from dealer_assist.live.frame_source import Frame
from dealer_assist.live.session import LiveOptions, LiveSession
from dealer_assist.live.table_state import TableState
from dealer_assist.live.worker import ProcessWorker
from dealer_assist.rules import evaluate, parse_hand, result_to_json
from dealer_assist.synth.sequence import write_hand_sequence

SIZE = (2560, 1440)


def sequence(cache: Path, seed: int, preset: str, players: int) -> Path:
    out = cache / f"rec_{seed}_{preset}_{players}p_{SIZE[0]}x{SIZE[1]}"
    if not (out / "sequence.json").exists():
        print(f"rendering seed {seed} ({preset}, {players} players) into {out} ...", flush=True)
        write_hand_sequence(out, seed, preset, n_players=players, hold=3, video=False, image_size=SIZE)
    return out


def run(seq: Path, worker, look_windows: bool = True) -> dict:
    summary = json.loads((seq / "sequence.json").read_text(encoding="utf-8"))
    truth = [json.loads(line) for line in (seq / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    frame0 = cv2.imread(str(seq / truth[0]["image"]))
    fit = homography_from_markers(detect_markers(frame0), None)
    plane = TablePlane((frame0.shape[1], frame0.shape[0]), fit.homography, fit.table_size_mm,
                       tuple(zones_from_json(truth[0]["table"])))
    hand = summary["hand"]
    seats = tuple(p["name"] for p in hand["players"])
    session = LiveSession(Profile("bench", None, None, plane), TableState(seats, hand["position"]), worker,
                          LiveOptions(auto_new_hand=False, look_windows=look_windows))
    fps = summary.get("fps", 4.0)
    for i, t in enumerate(truth):
        session.on_frame(Frame(cv2.imread(str(seq / t["image"])), i, i / fps))
        session.pump(wait=True)
    session.hold()
    session.pump(wait=True)
    view = session.view()
    want = result_to_json(evaluate(parse_hand({**hand, "dealer": seats[0]})))
    right = {"board": list(hand["board"]), **{p["name"]: sorted(p["pocket"]) for p in hand["players"]}}
    got = {"board": [s for s in view.board_serials if s]}
    for name in seats:
        got[name] = sorted(s for s in view.seat(name).serials if s)
    on_table = {n["serial"] for t in truth for n in t["notes"]}
    wrong = sorted({n.serial for n in session.notes() if n.serial and n.serial not in on_table})
    misplaced = [k for k in right if not set(got[k]) <= set(right[k])]
    pending = sum(len(right[k]) - len(got[k]) for k in right)
    if wrong or misplaced:
        verdict = "wrong"
    elif view.complete and list(view.winners) == want["winners"] and pending == 0:
        verdict = "decided"
    elif view.complete:
        verdict = "wrong"  # all notes known and right, other winners: a rules wiring error
    else:
        verdict = "incomplete"
    return {"verdict": verdict, "pending": pending, "wrong": wrong, "misplaced": misplaced, "frames": len(truth),
            "reads": session.jobs_done}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5, 6])
    ap.add_argument("--preset", default="easy")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "dealer-assist-bench-live")
    ap.add_argument("--no-looks", action="store_true",
                    help="LiveOptions.look_windows off: no looks of the serial model at known print windows")
    args = ap.parse_args()
    worker = ProcessWorker()
    worker.warm_up()
    counts = {"decided": 0, "incomplete": 0, "wrong": 0}
    notes = pending = 0
    try:
        for seed in args.seeds:
            seq = sequence(args.cache, seed, args.preset, args.players)
            t0 = time.perf_counter()
            r = run(seq, worker, not args.no_looks)
            counts[r["verdict"]] += 1
            notes += 3 + 2 * args.players
            pending += r["pending"]
            print(f"seed {seed}: {r['verdict']}, {r['pending']} note(s) pending, wrong serials {r['wrong']}, "
                  f"misplaced {r['misplaced']}, {r['frames']} frames, {r['reads']} reads, "
                  f"{time.perf_counter() - t0:.0f} s", flush=True)
    finally:
        worker.close()
    print()
    print(f"{len(args.seeds)} recorded hands ({args.preset}, {args.players} players, {SIZE[0]}x{SIZE[1]} at 4 fps): "
          f"{counts['decided']} decided right, {counts['incomplete']} incomplete, {counts['wrong']} wrong; "
          f"{notes - pending} of {notes} notes trusted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
