"""Calibration: camera intrinsics, the table plane and its zones, the deck's note layout.

Modules (pure functions unless said otherwise):

* :mod:`.profile` -- a profile in memory and the geometry it carries
  (:class:`Profile`: image <-> table mm, :meth:`Profile.zone_of`,
  :meth:`Profile.assign_notes`);
* :mod:`.schema` -- the JSON file format (pydantic) and its conversion to a :class:`Profile`;
* :mod:`.store` -- where profiles live (the user's data folder, ``DEALER_ASSIST_CALIBRATION_DIR``,
  the bundled samples), loading, atomic saving, the default pointer;
* :mod:`.intrinsics` -- chessboard corners and ``cv2.calibrateCamera``;
* :mod:`.chessboard` -- a printable board, and synthetic views through a known camera;
* :mod:`.table` -- table homography from four corners or ArUco markers; zone layouts;
* :mod:`.tabletop` -- reading a whole-table photo: top view, reader, notes into zones;
* :mod:`.notes` -- learning where the serial prints lie on a sample note;
* :mod:`.draw` -- the annotated image of ``calibrate check``;
* :mod:`.interactive` -- the edge with windows and cameras (needs a display).

For live mode::

    from dealer_assist.calibration import load_profile, CalibrationError
    from dealer_assist.display import has_display

    profile = load_profile("sample_table_1")        # or None for the default
    seat = profile.zone_of((x_px, y_px), image_size=(w, h))
    seats = profile.assign_notes([quad, ...], image_size=(w, h))
"""

from dealer_assist.calibration.profile import (
    CalibrationError,
    CameraModel,
    NoteLayout,
    PrintLayout,
    Profile,
    TablePlane,
    Zone,
)
from dealer_assist.calibration.store import (
    calibration_dir,
    list_profiles,
    load_profile,
    profile_path,
    save_profile,
    set_default,
)

__all__ = [
    "CalibrationError",
    "CameraModel",
    "NoteLayout",
    "PrintLayout",
    "Profile",
    "TablePlane",
    "Zone",
    "calibration_dir",
    "list_profiles",
    "load_profile",
    "profile_path",
    "save_profile",
    "set_default",
]
