"""Where calibration profiles live, and reading and writing them.

A profile name (``mytable``) is ``<calibration folder>/mytable.json``. The
folder is the user's data folder (``platformdirs``: on Linux
``~/.local/share/dealer-assist/calibration``), or the folder named by
``DEALER_ASSIST_CALIBRATION_DIR``. Any path ending in ``.json`` is taken as
given. The sample calibrations that come with the project
(``calibration/sample_table_*.json`` in the repository, for
``sample_images/tables``) are found by name too, when the folder has no
profile of that name; they are never written to, and never the default.

``default.json`` in the folder is the default profile: a full profile, or a
pointer ``{"schema": "dealer-assist/calibration-pointer", "version": 1,
"profile": "NAME"}``; a fresh install has none. Files are written atomically;
every failure to load is one :class:`~.profile.CalibrationError` with a plain sentence.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path

from dealer_assist.calibration.profile import VERSION, CalibrationError, Profile
from dealer_assist.calibration.schema import profile_from_json
from dealer_assist.fileio import JsonInputError, dumps_json, load_json, parse_json, write_atomic

__all__ = ["ENV_DIR", "DEFAULT_NAME", "POINTER_SCHEMA", "calibration_dir", "samples_dir", "sample_names",
           "is_path_like", "profile_path", "pointer_target", "load_profile", "save_profile", "set_default",
           "list_profiles", "damaged_default"]

POINTER_SCHEMA = "dealer-assist/calibration-pointer"
#: Environment variable naming the folder of named profiles (tests, other set-ups).
ENV_DIR = "DEALER_ASSIST_CALIBRATION_DIR"
DEFAULT_NAME = "default"
#: The application's name for its data folder.
APP_NAME = "dealer-assist"
_NAME_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")



def repo_root() -> Path:
    return Path(__file__).resolve().parents[2]


def calibration_dir() -> Path:
    """The folder of named profiles: ``$DEALER_ASSIST_CALIBRATION_DIR``, or ``calibration/`` in the user's data folder."""
    env = os.environ.get(ENV_DIR, "").strip()
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / "calibration"


def samples_dir() -> Path:
    """The sample calibrations that come with the project (read only)."""
    return repo_root() / "calibration"


def sample_names() -> list[str]:
    """Names of the sample calibrations (usable by name unless the folder has a profile of that name)."""
    d = samples_dir()
    if not d.is_dir():
        return []
    return sorted(p.stem for p in d.glob("*.json") if p.stem != DEFAULT_NAME and p.is_file())


def is_path_like(name_or_path: str | os.PathLike) -> bool:
    """A path (has a folder part or ends in ``.json``) rather than a profile name."""
    s = str(name_or_path)
    return isinstance(name_or_path, os.PathLike) or "/" in s or os.sep in s or s.lower().endswith(".json")


def profile_path(name_or_path: str | os.PathLike | None = None, follow_default: bool = True,
                 samples: bool = True) -> Path:
    """Where the profile ``name_or_path`` lives.

    A name (``"mytable"``) is ``<calibration dir>/<name>.json`` -- or, with
    ``samples`` and no such file there, the sample calibration of that name;
    a path is taken as given; None or ``"default"`` is ``default.json``, and
    when that file is a pointer (and ``follow_default``) the profile it names.
    Writers pass ``samples=False``: a sample is never written to.

    Raises:
        CalibrationError: a name with characters a file name cannot hold, or a broken pointer.
    """
    if name_or_path is None:
        name_or_path = DEFAULT_NAME
    if is_path_like(name_or_path):
        if not samples and not str(name_or_path).lower().endswith(".json") and not Path(name_or_path).is_dir():
            # a writer's ../evil: no profile file (a folder given is refused by its own sentence)
            raise CalibrationError(f"{str(name_or_path)!r} is not a profile name (use letters, digits, _ . -) nor a "
                                   f"path ending in .json.")
        return Path(name_or_path)
    name = str(name_or_path)
    if not _NAME_RE.match(name):
        raise CalibrationError(
            f"{name!r} is not a profile name (use letters, digits, _ . -) nor a path ending in .json.")
    path = calibration_dir() / f"{name}.json"
    if name == DEFAULT_NAME:
        target = pointer_target(path) if follow_default else None
        if target is not None:
            return profile_path(target, follow_default=False)
        return path
    if samples and not path.exists() and (samples_dir() / f"{name}.json").is_file():
        return samples_dir() / f"{name}.json"
    return path


def pointer_target(path: Path) -> str | None:
    """The profile name a ``default.json`` pointer names, or None when the file is not a pointer
    (read by the one JSON loader: a pipe or a device is never opened blocking)."""
    try:
        obj = load_json(path)
    except JsonInputError:
        return None
    if not isinstance(obj, dict) or obj.get("schema") != POINTER_SCHEMA:
        return None
    target = obj.get("profile")
    if not isinstance(target, str) or not target or target == DEFAULT_NAME:
        raise CalibrationError(f"{path} points to no usable profile (\"profile\" must name another profile).")
    if is_path_like(target) or not _NAME_RE.match(target):
        # a pointer is never followed out of the calibration folder
        shown = target if len(target) <= 40 else target[:40] + "…"
        raise CalibrationError(f"{path} points to {shown!r}, which is not a profile name (letters, digits, _ . -) "
                               f"in the calibration folder; run `dealer-assist calibrate use NAME` to fix it.")
    return target


def load_profile(name_or_path: str | os.PathLike | None = None) -> Profile:
    """Load a profile by name (``<calibration dir>/<name>.json``, or a sample), by path, or the default (None).

    Raises:
        CalibrationError: the file is missing, unreadable, not JSON, or not a
            valid profile; the message is one sentence naming the file.
    """
    if name_or_path is None or str(name_or_path) == DEFAULT_NAME:
        damaged = damaged_default()
        if damaged is not None:  # not "no calibration profile": the file that names one is broken
            raise CalibrationError(damaged)
    path = profile_path(name_or_path)
    label = str(name_or_path) if name_or_path is not None else DEFAULT_NAME
    if not path.exists():
        if is_path_like(label):
            raise CalibrationError(f"No calibration file at {path}.")
        if name_or_path is None and path.stem != DEFAULT_NAME:
            raise CalibrationError(
                f"The default profile is '{path.stem}' (set by `dealer-assist calibrate use`), but {path} does not "
                f"exist; make it with `dealer-assist calibrate table` or choose another with `calibrate use NAME`.")
        if name_or_path is None:  # nothing asked for by name: say so, not "no profile named 'default'"
            raise CalibrationError(
                "No calibration profile was given and no default is set; pass --calibration NAME "
                "(`dealer-assist calibrate list` names the profiles and samples), or make one with "
                "`dealer-assist calibrate table`.")
        raise CalibrationError(
            f"No calibration profile named '{label}' ({path} does not exist); "
            f"make one with `dealer-assist calibrate table`.")
    try:
        obj = load_json(path)  # a folder, a pipe, a device, bad JSON, NaN: one sentence; a BOM is no error
    except JsonInputError as exc:
        raise CalibrationError(f"{exc.label} {exc.reason}, so it is no calibration profile.") from None
    return profile_from_json(obj, path.stem, path)


def save_profile(profile: Profile, name_or_path: str | os.PathLike | None = None) -> Profile:
    """Write ``profile`` atomically (temporary file in the same folder, then ``os.replace``).

    Args:
        profile: what to write.
        name_or_path: a profile name, a path, or None for ``profile.path``
            (or its name when it has no path).

    Returns:
        The profile with its ``name`` and ``path`` set to where it was written.

    Raises:
        CalibrationError: the folder of an explicit path does not exist or
            nothing can be written there; the previous file is left intact.
    """
    if name_or_path is None:
        name_or_path = profile.path if profile.path is not None else profile.name
    path = profile_path(name_or_path, follow_default=False, samples=False)  # "default" replaces a pointer, never its target
    if not is_path_like(name_or_path):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CalibrationError(f"Cannot create the calibration folder {path.parent} ({exc.strerror}).") from None
    elif not path.parent.is_dir():
        raise CalibrationError(f"Cannot write {path}: the folder {path.parent} does not exist.")
    text = dumps_json(profile.to_json(), indent=1) + "\n"
    # the file must load back: never write something load_profile would refuse
    try:
        profile_from_json(parse_json(text, str(path)), path.stem, path)
    except JsonInputError as exc:
        raise CalibrationError(f"Cannot write {path}: the profile {exc.reason}.") from None
    try:
        write_atomic(path, text)
    except OSError as exc:
        raise CalibrationError(f"Cannot write {path} ({exc.strerror or exc}).") from None
    return replace(profile, name=path.stem, path=path)


def set_default(name: str) -> Path:
    """Make ``default.json`` of the calibration folder a pointer to the profile ``name`` (which must load).

    Returns the pointer's path. Raises :class:`CalibrationError` when ``name``
    does not load or is ``default`` itself.
    """
    if is_path_like(name) or name == DEFAULT_NAME:
        raise CalibrationError("The default must be a profile name in the calibration folder, not a path or 'default'.")
    load_profile(name)
    path = calibration_dir() / f"{DEFAULT_NAME}.json"
    text = dumps_json({"schema": POINTER_SCHEMA, "version": VERSION, "profile": name}, indent=1) + "\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)  # a sample can be the default of an empty folder
        write_atomic(path, text)
    except OSError as exc:
        raise CalibrationError(f"Cannot write {path} ({exc.strerror or exc}).") from None
    return path


def damaged_default() -> str | None:
    """The sentence saying ``default.json`` of the calibration folder is damaged -- not JSON at all (an editor
    cut it), empty, unreadable, a folder -- or None when it is absent or JSON (a pointer or a full profile, each
    refused by its own reader if wrong). Such a file is no profile called "default": it is the default's
    pointer, and ``dealer-assist calibrate use NAME`` writes it again (seventh new-user trial M)."""
    path = calibration_dir() / f"{DEFAULT_NAME}.json"
    if not os.path.lexists(path):
        return None
    try:
        load_json(path)
    except JsonInputError as exc:
        return (f"The file that sets the default profile, {path}, is damaged: it {exc.reason}; "
                f"`dealer-assist calibrate use NAME` sets the default again.")
    return None


def list_profiles() -> list[str]:
    """Names of the profiles in the calibration folder (``default`` included when it is a full profile, not when
    it is a pointer or damaged, :func:`damaged_default`;
    the samples are not in it, see :func:`sample_names`)."""
    d = calibration_dir()
    if not d.is_dir():
        return []
    names = []
    for p in sorted(d.glob("*.json")):
        if p.stem == DEFAULT_NAME and (_safe_pointer(p) or damaged_default() is not None):
            continue
        names.append(p.stem)
    return names


def _safe_pointer(p: Path) -> bool:
    try:
        return pointer_target(p) is not None
    except CalibrationError:
        return True
