"""TrueType fonts for the specimen notes, located on the system.

OpenCV's Hershey fonts have no Cyrillic, so text is drawn with Pillow from
TrueType files that come from Debian packages listed in the Makefile's
``APT_PACKAGES`` (``fonts-dejavu-core``, ``fonts-dejavu-extra``,
``fonts-liberation``, ``fonts-freefont-ttf``). Every font is required: a
renderer that silently fell back to another face would no longer be
deterministic across machines.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from PIL import ImageFont

#: Directories searched before asking ``fc-match``.
FONT_DIRS: tuple[Path, ...] = (
    Path("/usr/share/fonts/truetype"),
    Path("/usr/local/share/fonts"),
    Path("/usr/share/fonts"),
)


class FontNotFoundError(RuntimeError):
    """A font the renderer needs is not installed (message says which package)."""


@dataclass(frozen=True)
class FontFace:
    """One TrueType file: its file name, the fontconfig pattern and the package."""

    file: str
    pattern: str
    package: str


#: Every face the renderer uses, by the name the renderer calls it.
FACES: dict[str, FontFace] = {
    # narrow serif faces for the even-height serial print
    "serif_condensed": FontFace("DejaVuSerifCondensed.ttf", "DejaVu Serif:style=Condensed", "fonts-dejavu-extra"),
    "serif_condensed_bold": FontFace(
        "DejaVuSerifCondensed-Bold.ttf", "DejaVu Serif:style=Condensed Bold", "fonts-dejavu-extra"
    ),
    "liberation_serif": FontFace("LiberationSerif-Regular.ttf", "Liberation Serif", "fonts-liberation"),
    "liberation_serif_bold": FontFace("LiberationSerif-Bold.ttf", "Liberation Serif:style=Bold", "fonts-liberation"),
    "free_serif": FontFace("FreeSerif.ttf", "FreeSerif", "fonts-freefont-ttf"),
    "free_serif_bold": FontFace("FreeSerifBold.ttf", "FreeSerif:style=Bold", "fonts-freefont-ttf"),
    # faces for the growing-digit print and the other words
    "serif": FontFace("DejaVuSerif.ttf", "DejaVu Serif", "fonts-dejavu-core"),
    "serif_bold": FontFace("DejaVuSerif-Bold.ttf", "DejaVu Serif:style=Bold", "fonts-dejavu-core"),
    "sans": FontFace("DejaVuSans.ttf", "DejaVu Sans", "fonts-dejavu-core"),
    "sans_bold": FontFace("DejaVuSans-Bold.ttf", "DejaVu Sans:style=Bold", "fonts-dejavu-core"),
    "sans_condensed_bold": FontFace(
        "DejaVuSansCondensed-Bold.ttf", "DejaVu Sans:style=Condensed Bold", "fonts-dejavu-extra"
    ),
    "liberation_sans_narrow_bold": FontFace(
        "LiberationSansNarrow-Bold.ttf", "Liberation Sans Narrow:style=Bold", "fonts-liberation"
    ),
    "free_sans_bold": FontFace("FreeSansBold.ttf", "FreeSans:style=Bold", "fonts-freefont-ttf"),
}


def _fc_match(face: FontFace) -> Path | None:
    """Ask fontconfig; accept its answer only if it is the very file wanted."""
    exe = shutil.which("fc-match")
    if exe is None:
        return None
    try:
        out = subprocess.run(
            [exe, "-f", "%{file}", face.pattern], capture_output=True, text=True, timeout=10, check=False
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    path = Path(out) if out else None
    if path is not None and path.name == face.file and path.is_file():
        return path
    return None


@functools.lru_cache(maxsize=None)
def font_path(name: str) -> Path:
    """Path of the TrueType file of face ``name`` (a key of :data:`FACES`).

    Searches :data:`FONT_DIRS` recursively for the exact file name, then asks
    ``fc-match``. Raises ``KeyError`` for an unknown name and
    :class:`FontNotFoundError` (naming the Debian package to install) when the
    file is not on this machine.
    """
    face = FACES[name]
    for root in FONT_DIRS:
        if root.is_dir():
            hits = sorted(root.rglob(face.file))
            if hits:
                return hits[0]
    found = _fc_match(face)
    if found is not None:
        return found
    raise FontNotFoundError(
        f"font file {face.file} is missing: install the Debian package {face.package} "
        f"(`make setup` installs it)"
    )


@functools.lru_cache(maxsize=512)
def load_font(name: str, size_px: int) -> ImageFont.FreeTypeFont:
    """Pillow font of face ``name`` at ``size_px`` pixels (em size).

    Raises :class:`FontNotFoundError` when the face is not installed and
    ``ValueError`` when ``size_px`` < 1.
    """
    if size_px < 1:
        raise ValueError(f"font size must be at least 1 px, got {size_px}")
    return ImageFont.truetype(str(font_path(name)), size=int(size_px))


def check_fonts() -> list[str]:
    """Names of every face in :data:`FACES` whose file is missing (empty when all are present)."""
    missing = []
    for name in FACES:
        try:
            font_path(name)
        except FontNotFoundError:
            missing.append(name)
    return missing
