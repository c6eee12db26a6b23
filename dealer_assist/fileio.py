"""Files that matter: JSON read through one careful loader, results written atomically and as strict JSON.

**Reading JSON.** Every JSON the program reads -- ``hand.json``, a whole-table
photo's ``<stem>.json``, ``eval``'s and ``odds``' lines, calibration profiles
and their ``default.json`` pointer, zones files, hand logs -- goes through
:func:`parse_json` (text already read) or :func:`load_json` (a file), which
turn every failure into one :class:`JsonInputError` sentence about that input
alone:

* a file must be a regular file (a symlink to one is fine): a folder, a pipe,
  a device (``/dev/zero``) or a socket is refused after an ``os.stat``, and
  opened, if at all, without blocking (``O_NONBLOCK``), so a FIFO never hangs;
* at most :data:`MAX_JSON_BYTES` (4 MiB) per document, and per line of a JSON
  Lines file (:func:`bounded_lines`);
* at most :data:`MAX_JSON_DEPTH` (64) levels of ``[`` and ``{`` (checked on
  the parsed value; a nesting the C decoder refuses, 100,000 ``[``, is the same
  one sentence, never a ``RecursionError``);
* UTF-8 only; one leading byte order mark is accepted, in every kind of file
  and on every line alike;
* ``NaN``, ``Infinity`` and numbers too large to be finite (``1e400``) are
  refused, as are integers of over 4300 digits, a key given twice in one
  object and lone UTF-16 surrogates (``"\\ud800"``).

**Writing.** :func:`dumps_json` is the one JSON writer: strict JSON
(``allow_nan=False``) always; a value that is not a finite number is written
as ``null``, never as ``NaN``. :func:`write_atomic` writes every file the
program produces (score results, calibration profiles, annotated images,
synthetic samples): the data goes to a temporary file in the same folder, is
flushed to the disk, and replaces the target in one ``os.replace``, so a
reader never sees half a file and a failed write leaves the earlier file as
it was.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any, BinaryIO, Iterator

__all__ = ["is_special_file", "folder_refusal", "write_atomic", "MAX_JSON_BYTES", "MAX_JSON_DEPTH", "NOT_UTF8",
           "JsonInputError", "read_regular", "open_stream", "bounded_lines", "is_blank_line", "parse_json",
           "load_json", "dumps_json"]

#: The most a JSON document (or one line of a JSON Lines file) may hold: 4 MiB. A hand.json is
#: ~200 bytes, a calibration profile ~10 kB, a hand log record ~3 kB.
MAX_JSON_BYTES = 4 * 1024 * 1024
#: The deepest nesting of arrays and objects read (a calibration profile needs 5).
MAX_JSON_DEPTH = 64
_BOM = b"\xef\xbb\xbf"
#: The reason of a :class:`JsonInputError` for bytes that are not UTF-8.
NOT_UTF8 = "is not UTF-8 text"
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class JsonInputError(ValueError):
    """A JSON input that cannot be used: ``label`` names it, ``reason`` says why; ``str()`` is the sentence.

    >>> str(JsonInputError("hand.json", "is not UTF-8 text"))
    'hand.json is not UTF-8 text.'
    """

    def __init__(self, label: str, reason: str) -> None:
        super().__init__(f"{label} {reason}.")
        self.label = label
        self.reason = reason


def _kind(mode: int) -> str | None:
    """Why a file of this mode is not read as data (None: a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    what = "a pipe" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
    return f"is not a regular file ({what})"


def _open_nonblocking(path: str | os.PathLike, label: str, pipes: bool = False) -> tuple[int, os.stat_result]:
    """An fd of ``path`` opened for reading without blocking, after checking what the file is.

    ``os.stat`` first (a device or a socket is never opened), then ``O_NONBLOCK``
    (a FIFO nobody writes to does not hang the open), then ``fstat`` of what was
    opened (the file may have been swapped in between).
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise JsonInputError(label, "does not exist") from None
    except OSError as exc:
        raise JsonInputError(label, f"cannot be read ({_strerror(exc)})") from None
    if not (pipes and stat.S_ISFIFO(st.st_mode)) and _kind(st.st_mode) is not None:
        raise JsonInputError(label, _kind(st.st_mode))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise JsonInputError(label, f"cannot be read ({_strerror(exc)})") from None
    st = os.fstat(fd)
    if not (pipes and stat.S_ISFIFO(st.st_mode)) and _kind(st.st_mode) is not None:
        os.close(fd)
        raise JsonInputError(label, _kind(st.st_mode))
    return fd, st


def _strerror(exc: OSError) -> str:
    return (exc.strerror or str(exc)).lower()


def _size_text(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n % (1024 * 1024) == 0 else f"{n} bytes"


def read_regular(path: str | os.PathLike, label: str | None = None, limit: int = MAX_JSON_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Raises:
        JsonInputError: it does not exist, is a folder, a pipe, a device or a
            socket (never opened blocking, never read from), cannot be read, or
            holds more than ``limit`` bytes.
    """
    label = str(path) if label is None else label
    fd, st = _open_nonblocking(path, label)
    try:
        if st.st_size > limit:
            raise JsonInputError(label, f"is larger than {_size_text(limit)}, the most a JSON file may hold here")
        chunks, total = [], 0
        while True:  # read to the end (the size may have changed), never past the limit
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise JsonInputError(label, f"is larger than {_size_text(limit)}, the most a JSON file may hold here")
    except OSError as exc:
        raise JsonInputError(label, f"cannot be read ({_strerror(exc)})") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def open_stream(path: str | os.PathLike, label: str | None = None, pipes: bool = False) -> BinaryIO:
    """``path`` opened for reading as a stream of lines (a JSON Lines file), after the checks of :func:`read_regular`.

    With ``pipes``, a pipe is accepted too (``--hands <(…)``, a FIFO): it is
    opened without blocking and then read as a stream, so a FIFO nobody writes
    to reads as an empty file instead of hanging. Devices, sockets and folders
    are always refused.

    Raises:
        JsonInputError: as :func:`read_regular`.
    """
    label = str(path) if label is None else label
    fd, st = _open_nonblocking(path, label, pipes=pipes)
    if stat.S_ISFIFO(st.st_mode):
        os.set_blocking(fd, True)  # a writer that is there is waited for; none at all is the end
    return os.fdopen(fd, "rb")


def bounded_lines(stream: BinaryIO, limit: int = MAX_JSON_BYTES) -> Iterator[tuple[int, bytes | None]]:
    """``(number, line)`` for each line of ``stream`` (from 1, newline kept); ``line`` is None for a line
    of more than ``limit`` bytes, which is skipped without being held in memory."""
    number = 0
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        number += 1
        if len(line) > limit and not line.endswith(b"\n"):
            while True:  # the rest of the long line
                more = stream.readline(1 << 20)
                if not more or more.endswith(b"\n"):
                    break
            yield number, None
            continue
        yield number, line


def is_blank_line(line: bytes) -> bool:
    """A line of a JSON Lines file that holds nothing (spaces, a byte order mark): skipped, not an error."""
    return not (line[len(_BOM):] if line.startswith(_BOM) else line).strip()


class _Refused(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _shown(text: str, width: int = 20) -> str:
    return text if len(text) <= width else text[:width] + "…"


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"holds the number {_shown(text)}, which is too large to be finite")
    return value


def _parse_constant(name: str) -> Any:
    raise _Refused(f"holds {name}, which is not a number JSON allows (no NaN or Infinity)")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Refused(f"gives the key {_shown(json.dumps(key, ensure_ascii=False))} twice in one object")
            seen.add(key)
    return obj


def _too_deep(text: str) -> bool:
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return False
    depth = 0
    for m in _BRACKET.finditer(_STRING.sub('""', text)):
        if m.group() in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return True
        else:
            depth -= 1
    return False


def parse_json(data: bytes | str, label: str) -> Any:
    """The JSON value of ``data`` (a document, or one line of a JSON Lines file), checked as the module doc says.

    ``label`` names the input in the sentence: ``"hand.json"``, ``"line 3"``.

    >>> parse_json(b'\\xef\\xbb\\xbf{"position": 4}', "hand.json")
    {'position': 4}
    >>> parse_json('{"position": NaN}', "hand.json")
    Traceback (most recent call last):
    ...
    dealer_assist.fileio.JsonInputError: hand.json holds NaN, which is not a number JSON allows (no NaN or Infinity).

    Raises:
        JsonInputError: one sentence naming ``label``.
    """
    if isinstance(data, (bytes, bytearray, memoryview)):
        data = bytes(data)
        if len(data) > MAX_JSON_BYTES:
            raise JsonInputError(label, f"is larger than {_size_text(MAX_JSON_BYTES)}, the most JSON may hold here")
        if data.startswith(_BOM):
            data = data[len(_BOM):]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise JsonInputError(label, NOT_UTF8) from None
    else:
        text = data[1:] if data.startswith("\ufeff") else data
        if len(text) > MAX_JSON_BYTES:
            raise JsonInputError(label, f"is larger than {_size_text(MAX_JSON_BYTES)}, the most JSON may hold here")
    if not text.strip():
        raise JsonInputError(label, "is empty (it holds no JSON)")
    # Parsed by the C decoder with only the hooks that need the text (NaN, a float too large, a key given
    # twice); the depth, the integers' length and lone surrogates are checked on the parsed value or on
    # the decoder's own refusal, which costs a third of checking the text first (a hand log of 200 MB).
    try:
        obj = json.loads(text, parse_float=_parse_float, parse_constant=_parse_constant, object_pairs_hook=_object)
    except _Refused as exc:
        raise JsonInputError(label, exc.reason) from None
    except json.JSONDecodeError as exc:
        if _too_deep(text):
            raise JsonInputError(label, f"is nested too deeply (more than {MAX_JSON_DEPTH} levels of [ and {{)") \
                from None
        where = (f"column {exc.colno}" if "\n" not in text.rstrip("\r\n")
                 else f"line {exc.lineno}, column {exc.colno}")
        raise JsonInputError(label, f"is not valid JSON ({exc.msg}: {where})") from None
    except RecursionError:
        raise JsonInputError(label, f"is nested too deeply (more than {MAX_JSON_DEPTH} levels of [ and {{)") from None
    except ValueError as exc:
        if "integer string conversion" in str(exc):
            digits = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 4300
            raise JsonInputError(label, f"holds a number of over {digits} digits") from None
        raise JsonInputError(label, f"is not JSON this program can read ({type(exc).__name__})") from None
    problem = _value_problem(obj, surrogates=_SURROGATE_ESCAPE.search(text) is not None)
    if problem is not None:
        raise JsonInputError(label, problem)
    return obj


def _value_problem(obj: Any, *, surrogates: bool) -> str | None:
    """What is wrong with a decoded value (too deep; a lone surrogate when ``surrogates``), or None."""
    if _deeper(obj, 1):
        return f"is nested too deeply (more than {MAX_JSON_DEPTH} levels of [ and {{)"
    if surrogates and _has_lone_surrogate(obj):
        return "holds a lone UTF-16 surrogate (\\ud800-\\udfff), which is no character"
    return None


_CONTAINERS = (dict, list)


def _deeper(value: Any, depth: int) -> bool:
    """Whether the container ``value``, at ``depth`` levels, holds more than MAX_JSON_DEPTH levels. Recursion
    is bounded: the C decoder refuses a nesting deeper than Python's recursion limit first."""
    if depth > MAX_JSON_DEPTH:
        return True
    items = value.values() if type(value) is dict else value if type(value) is list else ()
    for item in items:
        if type(item) in _CONTAINERS and _deeper(item, depth + 1):
            return True
    return False


def _has_lone_surrogate(obj: Any) -> bool:
    stack = [obj]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


def load_json(path: str | os.PathLike, label: str | None = None) -> Any:
    """The JSON value of the file ``path``: :func:`read_regular`, then :func:`parse_json`.

    Raises:
        JsonInputError: one sentence naming ``label`` (default: the path).
    """
    label = str(path) if label is None else label
    return parse_json(read_regular(path, label), label)


def _finite(value: Any) -> Any:
    """``value`` with every float that is not finite replaced by None (containers copied)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def dumps_json(obj: Any, *, ascii_only: bool = False, **kwargs: Any) -> str:
    """``obj`` as strict JSON (``allow_nan=False``): a float that is not finite is written as ``null``.

    ``ascii_only`` escapes every non-ASCII character (``\\u00b7``): still the
    same JSON, for an output that cannot show them. Other arguments go to
    :func:`json.dumps` (``indent``, ``separators``, ``sort_keys``).

    >>> dumps_json({"position": float("nan"), "name": "Борис"})
    '{"position": null, "name": "Борис"}'
    """
    try:
        return json.dumps(obj, ensure_ascii=ascii_only, allow_nan=False, **kwargs)
    except ValueError:
        return json.dumps(_finite(obj), ensure_ascii=ascii_only, allow_nan=False, **kwargs)


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


def path_text(path: str | os.PathLike) -> str:
    """A path as valid text for a file's content: bytes of a file name that are not UTF-8 become
    U+FFFD (a Linux file name may be any bytes; JSON and the screen take only text).

    >>> path_text(os.fsdecode(b"/tmp/table\\xff.jpg"))
    '/tmp/table\ufffd.jpg'
    """
    return os.fsencode(path).decode("utf-8", "replace")


def opencv_path(path: str | os.PathLike) -> str:
    """``path`` as OpenCV takes it. OpenCV crashes the whole process (a segmentation fault, no
    exception) on a name that is not UTF-8, so such a name is refused here.

    Raises:
        ValueError: one sentence naming the file (its undecodable bytes shown as U+FFFD).
    """
    text = os.fspath(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"{path_text(text)}: the file name is not UTF-8 text, which OpenCV cannot open; "
                         f"rename the file.") from None
    return text


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
