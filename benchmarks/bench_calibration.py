"""Calibration figures: recovered vs true camera, table plane and zones, note layout.

    .venv/bin/python benchmarks/bench_calibration.py            # camera, table, notes (~1 min)
    .venv/bin/python benchmarks/bench_calibration.py --read     # + whole-table reading on 4K scenes (~2 min)

Everything is synthetic with exact truth: chessboard views rendered through a known
camera with radial distortion (dealer_assist.calibration.chessboard), table scenes with
ArUco markers and single-note photos (dealer_assist.synth).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from dealer_assist.calibration.intrinsics import calibrate_views, find_chessboard
from dealer_assist.calibration.chessboard import board_pose, render_views
from dealer_assist.calibration.profile import CameraModel, Profile, TablePlane
from dealer_assist.calibration.table import auto_zones, detect_markers, homography_from_markers

PATTERN, SQUARE_MM = (9, 6), 25.0


def bench_camera() -> None:
    print("== camera: chessboard views through a known camera (800x600, k1=-0.28, k2=0.11)")
    k = np.array([[820.0, 0, 412.0], [0, 815.0, 296.0], [0, 0, 1]])
    true = CameraModel(k, np.array([-0.28, 0.11, 0.0, 0.0, 0.0]), (800, 600))
    centre = ((PATTERN[0] + 1) * SQUARE_MM / 2, (PATTERN[1] + 1) * SQUARE_MM / 2)
    print(f"{'views':>5} {'fx':>8} {'fy':>8} {'cx':>8} {'cy':>8} {'k1':>8} {'k2':>8} {'rms px':>7} "
          f"{'worst %':>8} {'time s':>7}")
    print(f"{'true':>5} {820:8.2f} {815:8.2f} {412:8.2f} {296:8.2f} {-0.28:8.4f} {0.11:8.4f}")
    for n, seed in ((6, 3), (12, 1), (20, 5)):
        rng = np.random.default_rng(seed)
        poses = [board_pose(rng.uniform(-35, 35), rng.uniform(-35, 35), rng.uniform(-20, 20),
                            (rng.uniform(-90, 90), rng.uniform(-60, 60)), rng.uniform(420, 600), centre)
                 for _ in range(n)]
        t0 = time.perf_counter()
        views = [c for c in (find_chessboard(v, PATTERN) for v in render_views(true, poses, PATTERN, SQUARE_MM))
                 if c is not None]
        fit = calibrate_views(views, (800, 600), PATTERN, SQUARE_MM)
        dt = time.perf_counter() - t0
        r = fit.camera.camera_matrix
        got = [r[0, 0], r[1, 1], r[0, 2], r[1, 2]]
        worst = max(abs(g / t - 1) for g, t in zip(got, [820, 815, 412, 296])) * 100
        d = fit.camera.dist_coeffs
        print(f"{len(views):>5} {got[0]:8.2f} {got[1]:8.2f} {got[2]:8.2f} {got[3]:8.2f} {d[0]:8.4f} {d[1]:8.4f} "
              f"{fit.camera.rms:7.3f} {worst:8.3f} {dt:7.1f}")


def _scene_profile(img, truth, table_mm=(1000.0, 700.0)):
    fit = homography_from_markers(detect_markers(img), table_mm)
    zones = tuple(auto_zones(truth["table"]["seats"], fit.table_size_mm))
    return Profile("bench", table=TablePlane((img.shape[1], img.shape[0]), fit.homography, fit.table_size_mm, zones)), fit


def bench_table() -> None:
    from dealer_assist.synth import render_scene

    print("\n== table: ArUco plane and zone assignment on synthetic scenes (truth note quads)")
    print(f"{'scene':<24} {'rms px':>7} {'corner err mm':>14} {'measured size mm':>17} {'notes':>6} {'right zone':>10}")
    total = right = 0
    cases = [(s, p, n, size) for s, p, n, size in (
        (21, "clean", 3, (1920, 1080)), (22, "easy", 5, (1920, 1080)), (23, "medium", 6, (1920, 1080)),
        (24, "medium", 8, (1280, 720)), (25, "hard", 4, (1920, 1080)), (26, "hard", 7, (1280, 720)))]
    for seed, preset, players, size in cases:
        img, truth = render_scene(seed, preset, n_players=players, markers=True, image_size=size,
                                  flat_colour=(205, 215, 200))
        profile, fit = _scene_profile(img, truth)
        measured = homography_from_markers(detect_markers(img)).table_size_mm
        err = profile.to_table_mm(np.array(truth["table"]["corners_image"])) - np.array(truth["table"]["corners_mm"])
        notes = [n for n in truth["notes"] if n["in_image"] and n["visible_fraction"] > 0.5]
        got = profile.assign_notes([np.array(n["quad"]) for n in notes])
        ok = sum(g == n["zone"] for g, n in zip(got, notes))
        total += len(notes)
        right += ok
        name = f"{preset} {players}p {size[0]}x{size[1]}"
        print(f"{name:<24} {fit.rms_px:7.2f} {np.abs(err).max():14.2f} "
              f"{measured[0]:8.1f}x{measured[1]:<7.1f} {len(notes):6d} {ok:10d}")
    print(f"{'all':<24} {'':7} {'':14} {'':17} {total:6d} {right:10d}")


def bench_notes() -> None:
    from dealer_assist.calibration.notes import learn_layout, measure_note
    from dealer_assist.synth import render_note_photo
    from dealer_assist.synth.note import random_spec
    from dealer_assist.vision.reader import SerialReader

    print("\n== notes: layout learned from photos of one sample note vs the renderer's layout")
    reader = SerialReader()
    print(f"{'preset':<8} {'photos':>6} {'aspect':>7} {'true':>6} {'box err top_right':>17} {'box err left':>13} "
          f"{'colours':>12} {'s/photo':>8}")
    for preset in ("easy", "medium"):
        spec = random_spec(np.random.default_rng(7), denomination=1000)
        samples, truths = [], []
        t0 = time.perf_counter()
        for seed in range(5):
            img, truth = render_note_photo(seed, preset, spec=spec)
            truths.append(next(n for n in truth["notes"] if n["face"] == "up"))
            notes = [n for n in reader.read(img) if n.serial and len(n.prints) >= 2]
            if notes:
                samples.append(measure_note(img, notes[0], f"{preset}_{seed}"))
        dt = (time.perf_counter() - t0) / 5
        layout = learn_layout(samples)
        by = {p.name: p for p in layout.prints}
        errs = []
        for name in ("top_right", "left"):
            tb = np.median([t["prints"][name]["box"] for t in truths], axis=0)
            errs.append(np.abs(np.array(by[name].box) - tb).max() if name in by else float("nan"))
        colours = "/".join(by[n].colour or "?" for n in ("top_right", "left") if n in by)
        print(f"{preset:<8} {layout.samples:6d} {layout.aspect:7.3f} {157 / 69:6.3f} {errs[0]:17.4f} {errs[1]:13.4f} "
              f"{colours:>12} {dt:8.2f}")


def bench_read() -> None:
    from dealer_assist.app.readers import table_reader
    from dealer_assist.calibration.tabletop import read_table
    from dealer_assist.synth import render_scene

    print("\n== whole-table reading: 3840x2160 scenes through the top view (3.5 px/mm)")
    print(f"{'scene':<16} {'notes':>6} {'found':>6} {'trusted':>8} {'right seat':>10} {'wrong serial':>12} {'s':>6}")
    reader = table_reader()
    for seed, preset, players in ((201, "easy", 4), (202, "medium", 6), (203, "easy", 5), (204, "medium", 3)):
        img, truth = render_scene(seed, preset, n_players=players, markers=True, image_size=(3840, 2160))
        profile, _ = _scene_profile(img, truth)
        zone_of = {n["serial"]: n["zone"] for n in truth["notes"]}
        t0 = time.perf_counter()
        notes = read_table(img, profile, reader)
        dt = time.perf_counter() - t0
        trusted = [n for n in notes if n.note.serial]
        right = sum(zone_of.get(n.note.serial) == n.zone for n in trusted)
        wrong = sum(n.note.serial not in zone_of for n in trusted)
        print(f"{preset + ' ' + str(players) + 'p':<16} {len(zone_of):6d} {len(notes):6d} {len(trusted):8d} "
              f"{right:10d} {wrong:12d} {dt:6.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--read", action="store_true", help="also read whole-table 4K scenes (slow)")
    args = ap.parse_args()
    bench_camera()
    bench_table()
    bench_notes()
    if args.read:
        bench_read()


if __name__ == "__main__":
    main()
