"""Writing files that matter: atomically, and checked before the work that fills them.

One writer for every file the program produces (score results, calibration
profiles, annotated images, synthetic samples): the data goes to a temporary
file in the same folder, is flushed to the disk, and replaces the target in
one ``os.replace``, so a reader never sees half a file and a failed write
leaves the earlier file as it was.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

__all__ = ["is_special_file", "folder_refusal", "write_atomic"]


def is_special_file(path: str | os.PathLike) -> bool:
    """Whether ``path`` (symlinks followed) is an existing device, pipe or socket (``/dev/null``, ``/dev/stdout``)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def folder_refusal(folder: str | os.PathLike) -> str | None:
    """Why the existing ``folder`` takes no new file (``"read-only file system"``), or ``None`` when it does.

    A temporary file is made and removed: ``/proc`` or a read-only mount pass a
    permission check and still refuse files.
    """
    try:
        fd, probe = tempfile.mkstemp(prefix=".probe.", suffix=".tmp", dir=folder)
    except OSError as exc:
        return (exc.strerror or "refused").lower()
    os.close(fd)
    os.unlink(probe)
    return None


def write_atomic(path: str | os.PathLike, data: str | bytes) -> None:
    """Write ``data`` (text is written as UTF-8, line ends as given) to ``path`` atomically.

    A symlink is written through to its target; a device or a pipe (``/dev/null``,
    ``/dev/stdout``) is written into directly, never replaced by a file. An earlier
    file keeps its mode; a new one gets the usual umask-based mode.

    Raises:
        OSError: the folder does not exist or is not writable; ``path`` is untouched.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if is_special_file(path):
        # by the name given: /dev/stdout leads to a pipe that has no path of its own
        with open(path, "wb") as fh:
            fh.write(raw)
        return
    p = Path(os.path.realpath(path))  # write through a symlink to its target
    if p.is_dir():
        raise IsADirectoryError(21, "is a folder", str(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        if p.exists():
            mode = stat.S_IMODE(p.stat().st_mode)
        else:  # mkstemp makes the file private (0600)
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
