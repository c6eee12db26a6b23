"""The tracker: notes followed across reads, and the k-of-N trust rule (live mode)."""

from __future__ import annotations

import numpy as np
import pytest

from dealer_assist.live.tracker import Observation, Read, Tracker, TrustRule, quad_iou_mm
from dealer_assist.vision.geometry import quad_centre

NOTE = np.array([[0, 0], [157, 0], [157, 69], [0, 69]], np.float64)
EVERYWHERE = (-1000.0, -1000.0, 2000.0, 2000.0)


def note_at(x: float, y: float) -> np.ndarray:
    return NOTE + [x, y]


def obs(x: float, y: float, serial: str | None, status: str = "trusted") -> Observation:
    return Observation(note_at(x, y), serial, 0.9 if serial else 0.0, status if serial or status != "trusted"
                       else "unreadable")


def reads(*serials):
    return [Read(i, i * 0.1, s, 0.9 if s else 0.0, "trusted" if s else "unreadable") for i, s in enumerate(serials)]


# ------------------------------------------------------------------ the rule


@pytest.mark.parametrize("k,n,serials,expected", [
    (2, 3, ["1234567", "1234567"], "1234567"),
    (2, 3, ["1234567", None, "1234567"], "1234567"),
    (2, 3, ["1234567"], None),                              # one read is not enough
    (2, 3, ["1234567", None, None, "1234567"], "1234567"),  # reads without a serial say nothing
    (2, 3, ["1234567", "7654321", "7654321", "7654321", "1234567"], None),  # not within the last 3 serials
    (2, 3, ["1234567", "7654321", "1234567"], None),        # a rival read in the window: not settled
    (3, 5, ["1234567", "1234567", "7654321", "1234567", None], "1234567"),  # 3 to 1
    (1, 1, ["1234567"], "1234567"),
    (3, 3, ["1234567", "1234567", None], None),
    (2, 3, [None, None, None], None),
])
def test_k_of_n(k, n, serials, expected):
    assert TrustRule(k, n).decide(reads(*serials)) == expected


def test_trusted_serial_survives_reads_without_a_serial_but_not_a_rival():
    rule = TrustRule(2, 3)
    assert rule.decide(reads(None, None, None), current="1234567") == "1234567"
    assert rule.decide(reads("1234567", "7654321", None), current="1234567") is None
    assert rule.decide(reads("1234567", "1234567", "1234567", "7654321"), current="1234567") is None  # 2 to 1
    assert TrustRule(2, 5).decide(reads("1234567", "1234567", "1234567", "7654321")) == "1234567"  # 3 to 1
    assert rule.decide(reads("7654321", "7654321", None), current="1234567") == "7654321"


@pytest.mark.parametrize("k,n", [(0, 3), (4, 3), (2, 0)])
def test_bad_rule(k, n):
    with pytest.raises(ValueError):
        TrustRule(k, n)


# ------------------------------------------------------------------ geometry helpers


def test_quad_helpers():
    assert quad_centre(NOTE) == pytest.approx([78.5, 34.5])
    assert quad_iou_mm(NOTE, NOTE) == pytest.approx(1.0)
    assert quad_iou_mm(NOTE, note_at(157, 0)) == pytest.approx(0.0)
    assert quad_iou_mm(NOTE, note_at(78.5, 0)) == pytest.approx(1 / 3, abs=1e-3)


# ------------------------------------------------------------------ the tracker


def test_pending_then_trusted_over_two_frames():
    t = Tracker(TrustRule(2, 3))
    events = t.apply([obs(100, 100, "1234567")], EVERYWHERE, frame=1, time_s=0.1)
    assert [e.kind for e in events] == ["new"]
    (track,) = list(t)
    assert track.status == "pending" and track.serial is None
    assert track.candidates(3) == [("1234567", 1)]
    events = t.apply([obs(101, 99, "1234567")], EVERYWHERE, frame=2, time_s=0.2)
    assert [e.kind for e in events] == ["trusted"]
    assert track.status == "trusted" and track.serial == "1234567" and track.trusted_s == 0.2
    assert track.first_seen_s == 0.1 and len(t) == 1


def test_the_same_frame_read_twice_counts_once():
    t = Tracker(TrustRule(2, 3))
    t.apply([obs(100, 100, "1234567")], EVERYWHERE, frame=5, time_s=0.5)
    t.apply([obs(100, 100, "1234567")], EVERYWHERE, frame=5, time_s=0.5)
    (track,) = list(t)
    assert len(track.reads) == 1 and track.status == "pending"


def test_two_notes_side_by_side_stay_apart():
    t = Tracker()
    for frame in (1, 2):
        t.apply([obs(0, 0, "1111111"), obs(0, 90, "2222222")], EVERYWHERE, frame, frame / 10)
    assert sorted(tr.serial for tr in t) == ["1111111", "2222222"]
    assert len(t) == 2


def test_a_serial_identifies_its_note_even_when_the_quad_jumps():
    t = Tracker()
    t.apply([obs(0, 0, "1111111")], EVERYWHERE, 1, 0.1)
    # a hand covered half the note: the reader's quad is 60 mm off
    events = t.apply([obs(60, 0, "1111111")], EVERYWHERE, 2, 0.2)
    assert [e.kind for e in events] == ["moved", "trusted"]
    assert len(t) == 1


def test_a_rival_read_makes_a_trusted_note_pending_again():
    t = Tracker(TrustRule(2, 3))
    for frame in (1, 2):
        t.apply([obs(0, 0, "1111111")], EVERYWHERE, frame, frame / 10)
    (track,) = list(t)
    assert track.serial == "1111111"
    t.apply([Observation(note_at(0, 0), "7111111", 0.9)], EVERYWHERE, 3, 0.3)
    assert track.serial is None and track.status == "pending"
    t.apply([Observation(note_at(0, 0), "1111111", 0.9)], EVERYWHERE, 4, 0.4)
    assert track.serial is None  # 1111111, 7111111, 1111111: a rival still in the window
    t.apply([Observation(note_at(0, 0), "1111111", 0.9)], EVERYWHERE, 5, 0.5)
    assert track.serial is None  # 7111111, 1111111, 1111111: two to one is not three to one
    for frame in (6,):
        t.apply([Observation(note_at(0, 0), "1111111", 0.9)], EVERYWHERE, frame, frame / 10)
    assert track.serial == "1111111"


def test_removed_when_its_place_is_read_without_it_and_back_with_its_history():
    t = Tracker(TrustRule(2, 3))
    for frame in (1, 2):
        t.apply([obs(0, 0, "1111111")], EVERYWHERE, frame, frame / 10)
    (track,) = list(t)
    # a read of another place does not touch it
    t.apply([], (500, 500, 700, 700), 3, 0.3)
    assert len(t) == 1
    # something moved over its place: not finding it proves nothing
    t.apply([], (-10, -10, 200, 100), 4, 0.4, count_misses=False)
    assert len(t) == 1
    events = t.apply([], (-10, -10, 200, 100), 5, 0.5)
    assert [e.kind for e in events] == ["removed"] and len(t) == 0
    # found again in the same place: the same track, still trusted
    t.apply([obs(2, 1, "1111111")], EVERYWHERE, 6, 0.6)
    assert [tr.id for tr in t] == [track.id] and track.serial == "1111111"


def test_a_blank_note_turned_over_keeps_its_track():
    t = Tracker()
    t.apply([Observation(note_at(0, 0) + 8, None, 0.0, "blank")], EVERYWHERE, 1, 0.1)
    (track,) = list(t)
    assert track.status == "blank"
    t.apply([obs(0, 0, "5555555")], EVERYWHERE, 2, 0.2)
    t.apply([obs(0, 0, "5555555")], EVERYWHERE, 3, 0.3)
    assert [tr.id for tr in t] == [track.id] and track.serial == "5555555"


def test_failed_reads_count_as_reads_without_a_serial():
    t = Tracker(TrustRule(2, 3))
    t.apply([obs(0, 0, "1111111")], EVERYWHERE, 1, 0.1)
    (track,) = list(t)
    t.add_failed_read(track.id, 2, 0.2, "not found")
    t.add_failed_read(track.id, 2, 0.2, "not found")  # the same frame again: not counted
    t.add_failed_read(track.id, 3, 0.3, "not found")
    assert track.status == "pending" and [r.serial for r in track.reads] == ["1111111", None, None]
    t.apply([obs(0, 0, "1111111")], EVERYWHERE, 4, 0.4)
    assert track.serial == "1111111"  # the failed reads neither count nor push the first read out
    assert track.attempts == 4
    t.reset_attempts([track.id])
    assert track.attempts == 0


def test_a_disputed_read_does_not_unsettle_a_trusted_note():
    quad = np.array([[0, 0], [157, 0], [157, 69], [0, 69]], float)
    region = (-10, -10, 170, 80)
    t = Tracker(TrustRule(k=2, n=3))
    for f in (1, 2):
        t.apply([Observation(quad, "3883456", 0.9)], region, frame=f, time_s=f / 10)
    t.apply([Observation(quad, None, 0.0, "unreadable", "the reads disagree", disputed=("3043456", "3883456"))],
            region, frame=3, time_s=0.3)
    (track,) = t.tracks.values()
    assert track.serial == "3883456"
    t.apply([Observation(quad, "3043456", 0.9)], region, frame=4, time_s=0.4)
    assert track.serial is None  # a rival read does


def test_frames_of_one_print_never_make_a_second_piece_of_evidence():
    # a fanned pocket note shows one print; the reader, frame after frame, finds the same 7 digits there
    # but does not trust them (one print needs two sure engines and the ruble layout). However many
    # frames agree, the note stays pending: its frames are one print seen again, not a second print.
    from dealer_assist.live.tracker import Observation, Tracker, TrustRule

    quad = np.array([[0, 0], [157, 0], [157, 69], [0, 69]], float)
    lone = (np.array([[100, 5], [150, 5], [150, 16], [100, 16]], float),)
    tracker = Tracker(TrustRule(2, 3))
    why = "only one print shows the serial (1234567) and the engines are not sure of every digit; check it by eye"
    for frame in range(1, 9):
        tracker.apply([Observation(quad, None, 0.0, "unreadable", why, lone, placed=True, disputed=("1234567",))],
                      region_mm=(-10, -10, 170, 80), frame=frame, time_s=0.1 * frame)
    (track,) = tracker
    assert track.serial is None and track.status == "unreadable" and len(track.reads) == 8
    # once the reader trusts it in two frames (the second print showed), it is trusted
    both = lone + (np.array([[10, 30], [60, 30], [60, 41], [10, 41]], float),)
    for frame in (9, 10):
        tracker.apply([Observation(quad, "1234567", 0.9, "trusted", "", both)], region_mm=(-10, -10, 170, 80),
                      frame=frame, time_s=0.1 * frame)
    assert track.serial == "1234567" and track.status == "trusted"
