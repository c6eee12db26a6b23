"""Video files of rendered frames: the encoder a webcam's stream would use (:func:`video_codec`,
:class:`VideoWriter`) and the decoder the benchmarks read them back with (:func:`decode_video`)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

__all__ = ["VideoWriter", "video_codec", "decode_video"]


def video_codec() -> str:
    """``"h264"`` when ``ffmpeg`` with libx264 can be run here, else ``"mp4v"`` (OpenCV's MPEG-4 part 2)."""
    exe = shutil.which("ffmpeg")
    if exe is None:
        return "mp4v"
    try:
        out = subprocess.run([exe, "-hide_banner", "-encoders"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return "mp4v"
    return "h264" if "libx264" in out else "mp4v"


class VideoWriter:
    """Frames of ``size`` at ``fps`` into ``path``: H.264 through ``ffmpeg`` (``codec`` ``"h264"``, the bit rate
    capped at ``rate``) or OpenCV's ``mp4v``; :meth:`close` finishes the file."""

    def __init__(self, path: Path, size: tuple[int, int], fps: float, codec: str, rate: str) -> None:
        self.codec = codec
        self.path = path
        self.proc = None
        self.writer = None
        if codec == "h264":
            # a webcam's stream: H.264, no B-frames, a key frame every 2 s, its bit rate capped
            cmd = [shutil.which("ffmpeg") or "ffmpeg", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
                   "bgr24", "-s", f"{size[0]}x{size[1]}", "-r", str(fps), "-i", "-", "-c:v", "libx264",
                   "-preset", "veryfast", "-tune", "zerolatency", "-crf", "23", "-maxrate", rate, "-bufsize", rate,
                   "-g", str(int(2 * fps)), "-pix_fmt", "yuv420p", str(path)]
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE)
        else:
            self.writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
            if not self.writer.isOpened():
                raise RuntimeError("OpenCV cannot write mp4v video on this machine")

    def write(self, img: np.ndarray) -> None:
        if self.proc is not None:
            assert self.proc.stdin is not None
            self.proc.stdin.write(np.ascontiguousarray(img).tobytes())
        else:
            self.writer.write(img)

    def close(self) -> None:
        if self.proc is not None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            if self.proc.wait() != 0:
                raise RuntimeError(f"ffmpeg failed writing {self.path}")
        else:
            self.writer.release()


def decode_video(path: str | Path) -> Iterator[np.ndarray]:
    """The frames of a video file, decoded by OpenCV (uint8 BGR)."""
    cap = cv2.VideoCapture(str(path))
    if not cap.isOpened():
        raise RuntimeError(f"OpenCV cannot open {path}")
    try:
        while True:
            ok, frame = cap.read()
            if not ok:
                return
            yield frame
    finally:
        cap.release()
