"""Whether OpenCV windows can be opened, checked *before* the first ``cv2.imshow``.

Under opencv-python, ``cv2.imshow`` without a display does not raise: Qt
aborts the whole process (``qt.qpa.xcb: could not connect to display``), so
no ``try``/``except`` can catch it. Every command that may open a window
(interactive calibration, live capture, live mode) asks :func:`has_display`
first and falls back to its headless path with :data:`NO_DISPLAY_HINT`.
"""

from __future__ import annotations

import os
import sys

#: One plain sentence for the headless fallback; callers append what to do instead.
NO_DISPLAY_HINT = "No display is available (DISPLAY and WAYLAND_DISPLAY are not set), so no window can be opened"


def has_display(environ: dict[str, str] | None = None, platform: str | None = None) -> bool:
    """Whether a window can be shown on this machine.

    Args:
        environ: the environment to look at (default ``os.environ``).
        platform: ``sys.platform`` value to assume (default the running one).

    Returns:
        On Linux and the BSDs: True when ``DISPLAY`` (X11) or ``WAYLAND_DISPLAY``
        is set to a non-empty value. On Windows and macOS: always True (their
        window systems do not depend on an environment variable).
        ``DEALER_ASSIST_NO_DISPLAY=1`` forces False everywhere (headless runs
        on a desktop, tests).

    Never raises and never touches OpenCV's GUI.
    """
    env = os.environ if environ is None else environ
    plat = sys.platform if platform is None else platform
    if env.get("DEALER_ASSIST_NO_DISPLAY", "").strip() not in ("", "0"):
        return False
    if plat.startswith("win") or plat == "darwin":
        return True
    return bool(env.get("DISPLAY", "").strip() or env.get("WAYLAND_DISPLAY", "").strip())
