"""The seeded renderer: determinism, truth files, geometry of the truth, the
committed sample_images/ (FORMATS.md §4) and the dealt-hand sequences."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_assist.synth import fonts
from dealer_assist.synth.pose import project
from dealer_assist.synth.layout import DENOMINATIONS, LAYOUTS, NOTE_SIZE_PX, SERIAL_SEARCH_BOXES
from dealer_assist.synth.note import NoteSpec, render_note
from dealer_assist.synth.photos import render_hand_photo, render_note_photo
from dealer_assist.synth.presets import get_preset
from dealer_assist.synth.regenerate import main as regenerate_main
from dealer_assist.synth.samples import HAND_PLANS, write_hand
from dealer_assist.synth.scene import STAGES, deal_table, render_scene
from dealer_assist.synth.sequence import write_hand_sequence
from dealer_assist.synth.sprites import ARUCO_DICT
from dealer_assist.synth.truth import load_truth, save_truth

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "sample_images"
IMAGE_EXT = {".jpg", ".jpeg", ".png"}
MAGENTA = (255, 0, 255)


def _is_magenta(img: np.ndarray) -> np.ndarray:
    b, g, r = (img[..., i].astype(int) for i in range(3))
    return (b > 200) & (g < 70) & (r > 200)


def _poly_mask(shape, quad) -> np.ndarray:
    m = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(m, [np.round(np.asarray(quad) * 16).astype(np.int32)], 255, cv2.LINE_8, shift=4)
    return m


def _aruco(img: np.ndarray) -> dict[int, np.ndarray]:
    det = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICT), cv2.aruco.DetectorParameters())
    corners, ids, _ = det.detectMarkers(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    return {} if ids is None else {int(i): c.reshape(4, 2) for c, i in zip(corners, ids.ravel())}


# --------------------------------------------------------------------------- determinism and truth files


def test_same_seed_gives_the_same_image_and_truth():
    a, ta = render_note_photo(7, "hard", image_size=(320, 180))
    b, tb = render_note_photo(7, "hard", image_size=(320, 180))
    c, _ = render_note_photo(8, "hard", image_size=(320, 180))
    assert a.shape == (180, 320, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b)
    assert ta == tb
    assert not np.array_equal(a, c)


def test_same_seed_gives_the_same_table_scene():
    a, ta = render_scene(3, "medium", image_size=(480, 270), markers=True)
    b, tb = render_scene(3, "medium", image_size=(480, 270), markers=True)
    assert np.array_equal(a, b) and ta == tb


def test_truth_round_trips_through_json(tmp_path):
    _, truth = render_scene(5, "easy", image_size=(480, 270), markers=True)
    path = tmp_path / "scene.json"
    save_truth(path, truth)
    assert load_truth(path) == truth
    # Cyrillic letters stay readable in the file
    assert truth["notes"][0]["letters"] in path.read_text(encoding="utf-8")
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="bad.json"):
        load_truth(tmp_path / "bad.json")


# --------------------------------------------------------------------------- the notes themselves


@pytest.mark.parametrize("denomination", DENOMINATIONS)
def test_prints_lie_in_the_published_layout(denomination):
    lay = LAYOUTS[denomination]
    for style in range(3):
        note = render_note(NoteSpec("ЧЛ", "1234567", denomination, style))
        assert note.image.shape == (NOTE_SIZE_PX[1], NOTE_SIZE_PX[0], 3)
        for name, nominal in (("top_right", lay.top_right_box), ("left", lay.left_box)):
            box = note.prints[name].box
            search = SERIAL_SEARCH_BOXES[name]
            for outer in (nominal, search):
                assert outer[0] <= box[0] < box[2] <= outer[2] and outer[1] <= box[1] < box[3] <= outer[3]
            assert note.prints[name].text.upper().replace(" ", "") == "ЧЛ1234567"
        top = note.prints["top_right"].digit_heights
        left = note.prints["left"].digit_heights
        assert max(top) - min(top) <= 2, "top-right digits have even heights"
        assert left[-1] >= 1.25 * left[0] and all(b >= a - 1 for a, b in zip(left, left[1:])), "left digits grow"
        red = "top_right" if denomination >= 500 else "left"
        assert note.prints[red].colour == "red"


def test_red_print_is_red_and_dark_print_is_dark():
    note = render_note(NoteSpec("АБ", "7654321", 1000, 1))
    w, h = NOTE_SIZE_PX
    img = note.image.astype(int)
    for name in ("top_right", "left"):
        x0, y0, x1, y1 = note.prints[name].box
        crop = img[int(y0 * h) : int(y1 * h), int(x0 * w) : int(x1 * w)]
        inked = crop.sum(axis=2) < 450
        b, g, r = crop[..., 0][inked], crop[..., 1][inked], crop[..., 2][inked]
        if name == "top_right":
            assert np.median(r - g) > 60
        else:
            assert np.median(r - g) < 20 and np.median(crop.sum(axis=2)[inked]) < 300


def test_bad_specs_are_refused():
    with pytest.raises(ValueError, match="7 ASCII digits"):
        NoteSpec("ЧЛ", "123456", 1000)
    with pytest.raises(ValueError, match="letters"):
        NoteSpec("CL", "1234567", 1000)
    with pytest.raises(ValueError, match="denomination"):
        NoteSpec("ЧЛ", "1234567", 3)
    with pytest.raises(ValueError, match="unknown preset"):
        render_note_photo(1, "brutal")


def test_missing_font_names_the_debian_package(monkeypatch, tmp_path):
    monkeypatch.setattr(fonts, "FONT_DIRS", (tmp_path,))
    monkeypatch.setattr(fonts, "_fc_match", lambda face: None)
    fonts.font_path.cache_clear()
    try:
        with pytest.raises(fonts.FontNotFoundError, match="fonts-liberation"):
            fonts.font_path("liberation_serif")
    finally:
        monkeypatch.undo()
        fonts.font_path.cache_clear()
    assert fonts.check_fonts() == [], "every face the renderer uses is installed here"


# --------------------------------------------------------------------------- geometry of the truth


def test_flat_notes_fill_exactly_their_quads():
    img, truth = render_scene(11, "clean", n_players=3, image_size=(800, 450), flat_colour=MAGENTA)
    mag = _is_magenta(img)
    notes = truth["notes"]
    assert len(notes) == 9
    union = np.zeros(img.shape[:2], np.uint8)
    for n in notes:
        union |= _poly_mask(img.shape, n["quad"])
    k3, k9 = np.ones((3, 3), np.uint8), np.ones((9, 9), np.uint8)
    for n in notes:
        m = _poly_mask(img.shape, n["quad"])
        inside = cv2.erode(m, k3) > 0
        assert mag[inside].mean() > 0.99
    ring = (cv2.dilate(union, k9) > 0) & ~(cv2.dilate(union, k3) > 0)
    assert mag[ring].mean() < 0.01
    assert mag[union == 0].mean() < 0.002


def test_serial_print_quad_lands_on_the_red_print():
    seen_angles = set()
    for seed in range(4):
        spec = NoteSpec("ЖК", "2468013", 1000, seed)
        img, truth = render_note_photo(seed, "clean", image_size=(640, 360), spec=spec)
        (note,) = truth["notes"]
        seen_angles.add(round(note["image_angle_deg"] / 90) % 4)
        b, g, r = (img[..., i].astype(int) for i in range(3))
        red = (r - g > 50) & (r - b > 40)
        pq = np.array(note["prints"]["top_right"]["quad"])
        inside = _poly_mask(img.shape, pq) > 0
        assert red[inside].mean() > 0.04  # thin serif digits cover 7-27% of their box
        # the same box moved 1.5 box heights towards the note's bottom holds no red ink
        down = (pq[3] - pq[0]) * 1.5
        below = _poly_mask(img.shape, pq + down) > 0
        assert red[below].mean() < 0.01
        # the print box really is that box of the note's layout, mapped by the note's homography
        quad = np.array(note["quad"], np.float64)
        w, h = NOTE_SIZE_PX
        hom = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), quad.astype(np.float32))
        x0, y0, x1, y1 = note["prints"]["top_right"]["box"]
        expect = project(hom, [[x0 * w, y0 * h], [x1 * w, y0 * h], [x1 * w, y1 * h], [x0 * w, y1 * h]])
        assert np.abs(expect - pq).max() < 0.5
    assert seen_angles >= {0, 2}, "both upright and upside-down notes were checked"


def test_quad_starts_at_the_notes_own_top_left():
    """Rectifying the photo with the truth quad gives the upright note, whichever way it lay."""
    w, h = 230, 100
    for seed in (0, 1, 2, 3):
        spec = NoteSpec("ЮЯ", "1357924", 500, seed)
        img, truth = render_note_photo(seed, "clean", image_size=(640, 360), spec=spec)
        quad = np.float32(truth["notes"][0]["quad"])
        hom = cv2.getPerspectiveTransform(quad, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
        flat = cv2.cvtColor(cv2.warpPerspective(img, hom, (w, h)), cv2.COLOR_BGR2GRAY).astype(np.float32)
        ref = cv2.cvtColor(cv2.resize(render_note(spec).image, (w, h), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
        ref = ref.astype(np.float32)
        upright = np.corrcoef(flat.ravel(), ref.ravel())[0, 1]
        turned = np.corrcoef(flat.ravel(), ref[::-1, ::-1].ravel())[0, 1]
        assert upright > 0.7 and upright > turned + 0.4


def test_aruco_markers_are_detected_at_the_truth_corners():
    img, truth = render_scene(3, "easy", image_size=(1280, 720), markers=True)
    found = _aruco(img)
    assert sorted(found) == [0, 1, 2, 3]
    for m in truth["table"]["markers"]:
        assert np.abs(found[m["id"]] - np.array(m["corners_image"])).max() < 1.5
    # ids go clockwise from the top-left table corner
    corners = np.array(truth["table"]["corners_image"])
    for mid in range(4):
        centre = found[mid].mean(axis=0)
        assert int(np.argmin(np.linalg.norm(corners - centre, axis=1))) == mid


def test_table_truth_is_consistent():
    _, truth = render_scene(21, "medium", n_players=5, image_size=(640, 360))
    table = truth["table"]
    hom = np.array(table["homography_image_from_table_mm"])
    inv = np.array(table["homography_table_mm_from_image"])
    assert np.allclose(project(hom, table["corners_mm"]), table["corners_image"], atol=0.01)
    assert np.allclose(project(inv, table["corners_image"]), table["corners_mm"], atol=0.05)
    assert [z["name"] for z in table["zones"]] == ["board", "P1", "P2", "P3", "P4", "P5"]
    for z in table["zones"]:
        assert np.allclose(project(hom, z["polygon_mm"]), z["polygon_image"], atol=0.01)
    zones = {z["name"]: np.float32(z["polygon_mm"]) for z in table["zones"]}
    for n in truth["notes"]:
        assert cv2.pointPolygonTest(zones[n["zone"]], tuple(map(float, n["centre_mm"])), False) >= 0
        assert np.allclose(project(hom, n["quad_mm"]), n["quad"], atol=0.01)
    hand = truth["hand"]
    assert [p["name"] for p in hand["players"]] == table["seats"]
    assert sorted(n["serial"] for n in truth["notes"]) == sorted(
        hand["board"] + [s for p in hand["players"] for s in p["pocket"]]
    )


def test_streets_put_the_right_notes_on_the_table():
    deal = deal_table(np.random.default_rng(0), get_preset("medium"), 4, 3)
    counts = {s: len(deal.placements(s)) for s in STAGES}
    assert counts == {"empty": 0, "preflop": 8, "flop": 9, "turn": 10, "river": 11, "showdown": 11}
    assert not any(p.face_up for p in deal.placements("river") if p.zone != "board")
    assert all(p.face_up for p in deal.placements("showdown"))
    with pytest.raises(ValueError, match="stage"):
        deal.placements("pre-flop")


def test_presets_get_harder():
    figures = {}
    for preset in ("easy", "hard"):
        heights, legible = [], 0
        for seed in range(6):
            _, truth = render_note_photo(seed, preset, image_size=(640, 360))
            up = [n for n in truth["notes"] if n["face"] == "up"][0]
            heights.append(max(p["digit_height_px"] for p in up["prints"].values()))
            legible += up["legible"]
        figures[preset] = (float(np.median(heights)), legible)
    assert figures["easy"][0] > 1.3 * figures["hard"][0]
    assert figures["easy"][1] == 6 and figures["hard"][1] < 6


def test_hand_photo_keeps_every_note_readable():
    specs = [NoteSpec("ПР", "1020304", 5000, 1), NoteSpec("СТ", "5060708", 5000, 2)]
    img, data, truth = render_hand_photo(4, specs, "medium", image_size=(640, 480), min_digit_px=8)
    assert len(data) < 300_000 and img.shape == (480, 640, 3)
    ups = [n for n in truth["notes"] if n["face"] == "up"]
    assert sorted(n["serial"] for n in ups) == ["1020304", "5060708"]
    assert all(n["legible"] and n["in_image"] for n in ups)


# --------------------------------------------------------------------------- sequences


def test_dealt_hand_sequence_has_video_frames_and_truth(tmp_path):
    summary = write_hand_sequence(tmp_path, 2, "clean", n_players=2, image_size=(320, 180), hold=1)
    lines = [json.loads(x) for x in (tmp_path / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    frames = sorted((tmp_path / "frames").glob("*.jpg"))
    assert len(lines) == len(frames) == summary["frames"]
    cap = cv2.VideoCapture(str(tmp_path / "hand.mp4"))
    n_video = 0
    while cap.read()[0]:
        n_video += 1
    cap.release()
    assert n_video == len(frames)
    stages = [STAGES.index(x["stage"]) for x in lines]
    assert stages == sorted(stages) and set(stages) == set(range(len(STAGES)))
    assert lines[0]["notes"] == []
    last = lines[-1]["notes"]
    assert len(last) == 7 and all(n["face"] == "up" for n in last)
    preflop_end = [x for x in lines if x["stage"] == "preflop"][-1]["notes"]
    assert len(preflop_end) == 4 and all(n["face"] == "down" for n in preflop_end)
    assert any(x["occluders"] for x in lines), "hands pass over the table"


def test_dealt_indian_poker_sequence_has_one_note_per_seat_and_no_board(tmp_path):
    summary = write_hand_sequence(tmp_path, 3, "clean", n_players=3, image_size=(320, 180), hold=1, video=False,
                                  game="indian")
    lines = [json.loads(x) for x in (tmp_path / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    assert summary["hand"]["game"] == "indian" and summary["hand"]["board"] == []
    assert [len(p["pocket"]) for p in summary["hand"]["players"]] == [1, 1, 1]
    assert {x["stage"] for x in lines} == {"empty", "preflop", "showdown"}
    last = lines[-1]["notes"]
    assert len(last) == 3 and all(n["face"] == "up" for n in last)
    assert sorted(n["serial"] for n in last) == sorted(p["pocket"][0] for p in summary["hand"]["players"])


# --------------------------------------------------------------------------- committed sample_images


def _hand_folders() -> list[Path]:
    return sorted(p.parent for p in SAMPLES.glob("*/hand.json"))


def test_sample_hands_follow_formats_section_4():
    folders = _hand_folders()
    assert len(folders) >= 6
    styles = set()
    zero_at_p = 0
    for folder in folders:
        files = {p.name for p in folder.iterdir()}
        images = {f for f in files if Path(f).suffix.lower() in IMAGE_EXT}
        assert files - images == {"hand.json", "truth.json"}, folder
        options = json.loads((folder / "hand.json").read_text(encoding="utf-8"))
        truth = load_truth(folder / "truth.json")
        hand = truth["hand"]
        for key in ("position", "zero_joker", "tie_policy"):
            assert options[key] == hand[key]
        indian = hand.get("game") == "indian"  # RULES.md §7: no board, one note each
        assert options.get("game") == hand.get("game")
        assert 3 <= len(hand["players"]) <= 6 and len(hand["board"]) == (0 if indian else 3)
        assert all(len(p["pocket"]) == (1 if indian else 2) for p in hand["players"])
        assert set(truth["images"]) == images
        board, pockets = [], {p["name"]: [] for p in hand["players"]}
        for name, entry in truth["images"].items():
            stem = Path(name).stem
            assert len(entry["serials"]) == len(entry["notes"])
            assert [n["serial"] for n in entry["notes"]] == entry["serials"]
            if stem == "board" or stem.startswith("board-"):
                assert entry["role"] == "board"
                board += entry["serials"]
                styles.add("board-" if "-" in stem else "board")
            else:
                player = stem.rsplit("-", 1)[0] if "-" in stem else stem
                assert entry["player"] == player and entry["role"] == "pocket"
                pockets[player] += entry["serials"]
                styles.add("per-note" if "-" in stem else "per-player")
        assert sorted(board) == sorted(hand["board"])
        for p in hand["players"]:
            assert sorted(pockets[p["name"]]) == sorted(p["pocket"])
            zero_at_p += sum(s[hand["position"] - 1] == "0" for s in p["pocket"])
    assert styles == {"board", "board-", "per-note", "per-player"}
    assert zero_at_p >= len(folders)
    assert len({json.loads((f / "hand.json").read_text())["position"] for f in folders}) >= 5


def test_sample_images_are_small_and_decodable():
    images = [p for p in SAMPLES.rglob("*") if p.suffix.lower() in IMAGE_EXT]
    assert len(images) >= 40
    for p in images:
        assert p.stat().st_size < 300_000, p
    for p in images[::7]:
        assert cv2.imread(str(p)) is not None


def test_sample_table_photos_have_markers_where_their_truth_says():
    tables = sorted((SAMPLES / "tables").glob("*.jpg"))
    assert len(tables) == 2
    assert not (SAMPLES / "tables" / "hand.json").exists()
    for jpg in tables:
        truth = load_truth(jpg.with_name(f"{jpg.stem}.truth.json"))
        img = cv2.imread(str(jpg))
        assert img.shape[:2] == (truth["height"], truth["width"])
        found = _aruco(img)
        assert sorted(found) == [0, 1, 2, 3]
        for m in truth["table"]["markers"]:
            assert np.abs(found[m["id"]] - np.array(m["corners_image"])).max() < 2.0
        assert {z["kind"] for z in truth["table"]["zones"]} == {"board", "seat"}


def test_sample_table_photos_carry_their_settings_where_score_reads_them():
    """Beside each whole-table photo, STEM.json is the settings file score reads (the dealt hand's position,
    zero-joker and tie policy), and the truth lives apart in STEM.truth.json: a new user scoring the sample
    photo was told "no playing position" while the position sat in the truth's hand.position."""
    from dealer_assist.app.table_photos import table_settings

    for jpg in sorted((SAMPLES / "tables").glob("*.jpg")):
        hand = load_truth(jpg.with_name(f"{jpg.stem}.truth.json"))["hand"]
        settings, problems = table_settings(jpg)
        assert problems == []
        assert settings == {"position": hand["position"], "zero_joker": hand["zero_joker"],
                            "tie_policy": hand["tie_policy"]}
    assert table_settings(SAMPLES / "tables" / "table_1.jpg")[0]["position"] == 6


def test_sample_hand_matches_its_generator(tmp_path):
    """The committed folder is what the regenerate command writes (no stale samples)."""
    plan = next(p for p in HAND_PLANS if p.folder == "hand_05")
    fresh = write_hand(plan, tmp_path / plan.folder)
    committed = load_truth(SAMPLES / plan.folder / "truth.json")
    assert fresh["hand"] == committed["hand"]
    assert set(fresh["images"]) == set(committed["images"])
    for name, entry in fresh["images"].items():
        old = committed["images"][name]
        assert entry["serials"] == old["serials"]
        assert np.allclose([n["quad"] for n in entry["notes"]], [n["quad"] for n in old["notes"]], atol=0.01)


def test_regenerate_reports_an_unwritable_folder(tmp_path, capsys):
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    assert regenerate_main(["--out", str(blocker / "samples")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: cannot write the samples") and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_sequence_tells_its_progress_frame_by_frame_with_the_total_known_from_the_first(tmp_path):
    calls = []
    summary = write_hand_sequence(tmp_path, 2, "clean", n_players=2, image_size=(320, 180), hold=1, video=False,
                                  on_frame=lambda done, total: calls.append((done, total)))
    n = summary["frames"]
    assert calls == [(i, n) for i in range(1, n + 1)]


def test_regenerate_progress_bar_shows_the_share_done_and_an_estimate_of_the_time_left():
    import io

    from rich.console import Console

    from dealer_assist.synth.regenerate import progress_bar

    progress = progress_bar(Console(file=io.StringIO(), force_terminal=True))
    clock = iter(float(t) for t in range(0, 1000, 10))
    progress.get_time = lambda: next(clock)  # every reading of the clock 10 s later than the last
    task = progress.add_task("sequence_easy", total=4)
    progress.advance(task)
    progress.advance(task)
    progress.add_task("galleries", total=27, start=False)  # a step not begun has spent no time yet
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(progress.make_tasks_table(progress.tasks))
    shown = out.getvalue()
    assert "galleries" in shown and shown.splitlines()[1].split("spent")[1].split("·")[0].strip() == "-:--:--", shown
    assert "sequence_easy" in shown and "2/4" in shown and "50%" in shown, shown
    left = shown.split("left")[1].strip()
    assert left.startswith("0:00:") and left != "-:--:--", shown  # an estimate from the pace so far


def test_regenerate_says_its_progress_in_lines_when_standard_error_is_not_a_terminal():
    """Into a log or a pipe there is no bar, but the run is never silent for long (the second new-user trial
    saw nothing for 5 minutes after the samples' line): a line per step start, every LINE_EVERY_S while it runs
    with an estimate from the pace so far, and one at its end."""
    import io

    from rich.console import Console

    from dealer_assist.synth.regenerate import LINE_EVERY_S, StepLines, progress_bar

    out = io.StringIO()
    progress = progress_bar(Console(file=out, width=100))
    assert isinstance(progress, StepLines)
    now = [0.0]
    progress.clock = lambda: now[0]
    with progress:
        seq = progress.add_task("sequence_easy", total=None, start=False)
        gal = progress.add_task("galleries", total=27, start=False)
        assert out.getvalue() == ""  # nothing said of a step not begun
        progress.start_task(seq)
        for done in range(1, 34):
            now[0] += 5.0  # 5 s a frame
            progress.update(seq, completed=done, total=33)
        progress.start_task(gal)
        progress.advance(gal, 27)
    lines = out.getvalue().splitlines()
    assert lines[0] == "sequence_easy: started"
    assert lines[1] == "sequence_easy: 4/33 (12%), 0:00:20 spent, about 0:02:25 left"  # 20 s for 4: 5 s each
    assert LINE_EVERY_S == 20.0 and len(lines[1:-3]) == 8  # at 20, 40, ... 160 s of the 165
    assert lines[8] == "sequence_easy: 32/33 (96%), 0:02:40 spent, about 0:00:05 left"
    assert lines[-3] == "sequence_easy: 33/33 done in 0:02:45"
    assert lines[-2:] == ["galleries: started (27 to build)", "galleries: 27/27 done in 0:00:00"]
