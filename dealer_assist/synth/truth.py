"""Ground-truth files: JSON beside every rendered image, written atomically.

A truth dict holds only JSON types (str, int, float, bool, None, list, dict);
:func:`to_jsonable` converts numpy values, tuples and dataclasses on the way.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from dealer_assist.fileio import write_atomic

#: Version tag stored in every scene truth (``"schema"`` key).
SCHEMA = "dealer-assist/synth-truth/1"


def to_jsonable(obj: Any, digits: int = 8) -> Any:
    """A copy of ``obj`` made of JSON types; floats keep ``digits`` significant digits
    (enough for homographies, whose perspective terms are tiny)."""
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v, digits) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v, digits) for v in obj]
    if isinstance(obj, np.ndarray):
        return to_jsonable(obj.tolist(), digits)
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return float(f"{float(obj):.{digits}g}")
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return to_jsonable(dataclasses.asdict(obj), digits)
    if obj is None or isinstance(obj, str):
        return obj
    raise TypeError(f"cannot store {type(obj).__name__} in a truth file")


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (:func:`dealer_assist.fileio.write_atomic`), creating its folders."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, data)


def dumps_truth(truth: dict) -> str:
    """The JSON text stored for ``truth`` (UTF-8, Cyrillic kept readable, stable key order)."""
    return json.dumps(to_jsonable(truth), ensure_ascii=False, indent=1) + "\n"


def save_truth(path: str | os.PathLike, truth: dict) -> None:
    """Write ``truth`` as JSON to ``path`` atomically. ``TypeError`` for non-JSON values."""
    atomic_write_bytes(path, dumps_truth(truth).encode("utf-8"))


def load_truth(path: str | os.PathLike) -> dict:
    """Read a truth JSON file. ``ValueError`` (naming the file) when it is not valid JSON
    or not an object; ``FileNotFoundError`` when it does not exist."""
    text = Path(path).read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a truth file must hold a JSON object")
    return data
