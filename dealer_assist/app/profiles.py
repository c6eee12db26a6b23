"""``calibrate``'s profile handling: the profile ``--output`` names, saving it, the listing.

The calibration jobs (:mod:`.camera_setup`, :mod:`.table_setup`,
:mod:`.note_setup`) each change one section of the profile ``--output``
names and keep the others; :func:`target_profile` gives that profile as it
is now, and :func:`save_section` writes it (the first profile of an empty
calibration folder also becomes the default).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dealer_assist.calibration.profile import CalibrationError, Profile
from dealer_assist.calibration.store import (
    DEFAULT_NAME,
    calibration_dir,
    damaged_default,
    list_profiles,
    load_profile,
    pointer_target,
    profile_path,
    sample_names,
    save_profile,
    set_default,
)

__all__ = ["Saved", "ProfileEntry", "Listing", "target_profile", "save_section", "profile_label", "listing"]


@dataclass(frozen=True)
class Saved:
    """A profile written: where, and whether it became the default profile."""

    profile: Profile
    made_default: bool = False


def target_profile(output: str) -> Profile:
    """The profile ``--output`` names, as it is now (empty when the file does not exist yet).

    Raises:
        CalibrationError: the file is a default pointer, or exists and does not load
            (it is never overwritten then).
    """
    path = profile_path(output, follow_default=False, samples=False)
    if not path.exists():
        return Profile(path.stem, path)
    pointed = pointer_target(path) if path.is_file() else None
    if pointed is not None:
        raise CalibrationError(f"{path} points to the profile '{pointed}': write to --output {pointed}, or to a new "
                               f"name and make it the default with `dealer-assist calibrate use NAME`.")
    try:
        return load_profile(path)
    except CalibrationError as exc:
        raise CalibrationError(f"{exc} Refusing to overwrite it: fix or remove it, or choose another --output.") from None


def save_section(profile: Profile, output: str) -> Saved:
    """Write the profile; the first profile of the calibration folder also becomes the default."""
    saved = save_profile(profile, output)
    folder = calibration_dir()
    in_folder = saved.path.parent.resolve() == folder.resolve()
    if in_folder and saved.path.stem != DEFAULT_NAME and not (folder / f"{DEFAULT_NAME}.json").exists():
        set_default(saved.path.stem)
        return Saved(saved, made_default=True)
    return Saved(saved)


def profile_label(profile: Profile) -> str:
    """How to name ``profile`` on a command line: its name when it lies in the calibration folder, else its path."""
    if profile.path is not None and profile.path.parent.resolve() == calibration_dir().resolve():
        return profile.path.stem
    return str(profile.path)


def _reason(exc: CalibrationError, path: Path) -> str:
    """A load error as a reason after the profile's name: without the path it starts with, no final stop."""
    text = str(exc).rstrip(".")
    if text.startswith(f"{path} "):
        text = "it " + text[len(str(path)) + 1:]
    return text


@dataclass(frozen=True)
class ProfileEntry:
    """One profile of the calibration folder: whether it is the default, and why it does not load (or None)."""

    name: str
    is_default: bool
    problem: str | None


@dataclass(frozen=True)
class Listing:
    """The calibration folder's profiles, what is wrong with its default pointer, and the samples.

    Attributes:
        pointer_problem: why ``default.json`` points to no usable name (None: it is fine or absent).
        default_missing: the name the default points to when that profile does not exist.
        default_sample: the sample the default points to, when it does.
        default_damaged: the sentence saying ``default.json`` is damaged (not JSON at all), when it is.
    """

    folder: Path
    entries: list[ProfileEntry]
    pointer_problem: str | None
    samples: list[str]
    default_missing: str | None = None
    default_sample: str | None = None
    default_damaged: str | None = None


def listing() -> Listing:
    """Every profile of the calibration folder, each loaded to say whether it can be used."""
    folder = calibration_dir()
    pointer = folder / f"{DEFAULT_NAME}.json"
    default, default_problem = None, None
    damaged = damaged_default()
    try:
        default = profile_path(None) if damaged is None else None
    except CalibrationError as exc:
        default_problem = _reason(exc, pointer)
    entries = []
    for name in list_profiles():
        try:
            path = profile_path(name, follow_default=False, samples=False)
        except CalibrationError:  # a file whose name no command line can give as a profile name
            entries.append(ProfileEntry(name, False, "its file name is no profile name (letters, digits, _ . -); "
                                                     "rename the file, or give it as a path"))
            continue
        try:
            load_profile(path)
            problem = None
        except CalibrationError as exc:
            problem = _reason(exc, path)
        entries.append(ProfileEntry(name, default is not None and path == default, problem))
    missing = sample = None
    if default is not None and pointer.is_file() and default != pointer:
        if not default.exists():
            missing = default.stem
        elif default.parent.resolve() != folder.resolve():
            sample = default.stem
    return Listing(folder, entries, default_problem, sample_names(), missing, sample, damaged)
