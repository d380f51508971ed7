"""Coercion and validation of user-supplied edge arrays (NumPy, CuPy, pandas, pyarrow, lists)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .errors import InvalidArgumentError

INT32_LIMIT = 2**31


def id_dtype_for(n: int) -> np.dtype:
    """int32 vertex ids while every id fits, int64 from 2**31 vertices on."""
    return np.dtype(np.int32) if n < INT32_LIMIT else np.dtype(np.int64)


def is_cupy(x: Any) -> bool:
    return type(x).__module__.startswith("cupy")


def as_array(x: Any, name: str):
    """NumPy or CuPy 1-D array from any supported container, without copying when possible."""
    if is_cupy(x):
        arr = x
    elif hasattr(x, "to_numpy") and not isinstance(x, np.ndarray):  # pandas, pyarrow
        try:
            arr = x.to_numpy(zero_copy_only=False)  # pyarrow
        except TypeError:
            arr = x.to_numpy()  # pandas
    else:
        arr = np.asarray(x)
    if arr.ndim != 1:
        raise InvalidArgumentError(f"{name} must be one-dimensional, got shape {arr.shape}")
    return arr


def as_id_array(x: Any, name: str):
    """Integer id array (int32 or int64 kept; other integer widths widened; floats refused)."""
    arr = as_array(x, name)
    kind = arr.dtype.kind
    if arr.size == 0 and kind not in "iu":
        return arr.astype(np.int32)
    if kind not in "iu":
        raise InvalidArgumentError(
            f"{name} must hold integer vertex ids, got dtype {arr.dtype}; "
            "convert with .astype(np.int64) if the values are whole numbers"
        )
    if arr.dtype in (np.int32, np.int64):
        return arr
    if arr.dtype == np.uint64 and arr.size and int(arr.max()) >= 2**63:
        raise InvalidArgumentError(f"{name} holds ids >= 2**63, which no graph can index")
    return arr.astype(np.int32 if arr.dtype.itemsize < 4 else np.int64)


def as_weight_array(x: Any, m: int):
    """Weights widened to one of int32/int64/float32/float64; bools and objects refused."""
    arr = as_array(x, "weights")
    if arr.shape[0] != m:
        raise InvalidArgumentError(f"weights has {arr.shape[0]} entries but there are {m} edges")
    kind = arr.dtype.kind
    if kind == "f":
        return arr if arr.dtype.itemsize >= 4 else arr.astype(np.float32)
    if kind == "i":
        return arr if arr.dtype.itemsize >= 4 else arr.astype(np.int32)
    if kind == "u":
        if arr.dtype == np.uint64 and arr.size and int(arr.max()) >= 2**63:
            raise InvalidArgumentError("weights hold values >= 2**63 that int64 cannot represent")
        return arr.astype(np.int64) if arr.dtype.itemsize >= 4 else arr.astype(np.int32)
    raise InvalidArgumentError(f"weights must be integers or floats, got dtype {arr.dtype}")


def check_id_range(src, dst, n: int | None) -> int:
    """Return the vertex count (``n`` or max id + 1) after checking every id is in [0, n)."""
    xp = np if not is_cupy(src) else __import__("cupy")
    if src.size == 0:
        lo, hi = 0, -1
    else:
        lo, hi = value_range(src)
        if dst is not src:  # (a CSR's check passes its ids as both)
            lo2, hi2 = value_range(dst)
            lo, hi = min(lo, lo2), max(hi, hi2)
    if lo < 0:
        bad = src if int(xp.min(src)) < 0 else dst
        pos = int(xp.argmax(bad < 0))
        raise InvalidArgumentError(
            f"negative vertex id {int(bad[pos])} at edge {pos}; ids must be in [0, n)"
        )
    if n is None:
        return hi + 1
    if n < 0:
        raise InvalidArgumentError(f"num_vertices must be >= 0, got {n}")
    if hi >= n:
        bad = src if int(xp.max(src)) >= n else dst
        pos = int(xp.argmax(bad >= n))
        raise InvalidArgumentError(
            f"vertex id {int(bad[pos])} at edge {pos} is out of range for num_vertices={n}"
        )
    return int(n)


def value_range(ids) -> tuple[int, int]:
    """``(min, max)`` of a non-empty NumPy or CuPy array: one parallel pass for a large host
    integer array (:func:`warpgraph.cpu.csr.id_bounds`), NumPy's or CuPy's reductions
    otherwise.

    Examples
    --------
    >>> value_range(np.array([3, -1, 8]))
    (-1, 8)
    """
    xp = np if not is_cupy(ids) else __import__("cupy")
    if xp is np and ids.dtype.kind in "iu" and ids.size >= 1 << 16:
        from .cpu.csr import id_bounds

        lo, hi = id_bounds(np.ascontiguousarray(ids).reshape(-1))
        return int(lo), int(hi)
    return int(xp.min(ids)), int(xp.max(ids))


def to_host(a):
    """NumPy copy of a CuPy array; NumPy arrays pass through."""
    return a.get() if is_cupy(a) else np.asarray(a)


def object_array(items) -> np.ndarray:
    """1-D object array of arbitrary Python objects (tuples stay elements, not rows)."""
    items = list(items)
    return np.fromiter(items, dtype=object, count=len(items))
