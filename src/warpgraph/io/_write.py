"""Fast text output: numeric columns to lines through Arrow's vectorized number formatting.

Integers are printed by Arrow's cast to string; floats by the same cast, which prints the
shortest decimal that reads back to the same double (so a save/load round trip is exact). A
float that prints as a whole number gets ``.0`` appended, so a reader can tell a float column
from an integer one. Lines are assembled batch by batch in Arrow buffers and written with one
``write`` call per batch: no Python object per edge.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import IO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["write_lines", "write_ragged_lines"]

BATCH = 1 << 21


def _strings(col: np.ndarray) -> pa.Array:
    arr = pa.array(col)
    s = pc.cast(arr, pa.string())
    if col.dtype.kind == "f":
        whole = pc.invert(pc.match_substring_regex(s, r"[.eEnN]"))
        s = pc.if_else(whole, pc.binary_join_element_wise(s, ".0", ""), s)
    return s


def _body(arr: pa.Array) -> memoryview:
    """The concatenated bytes of a freshly built (offset 0, no nulls) string array."""
    offsets = np.frombuffer(arr.buffers()[1], dtype=np.int32)
    start = int(offsets[arr.offset])
    end = int(offsets[arr.offset + len(arr)])
    return memoryview(arr.buffers()[2])[start:end]


def write_lines(
    f: IO[bytes],
    columns: Sequence[np.ndarray],
    sep: str = " ",
    prefix: str = "",
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """Write ``prefix + col0 sep col1 sep ... \\n`` for every row of the numeric columns.

    Examples
    --------
    >>> import io, numpy as np
    >>> buf = io.BytesIO()
    >>> write_lines(buf, [np.array([1, 2]), np.array([3, 4]), np.array([0.5, 2.0])])
    >>> buf.getvalue()
    b'1 3 0.5\\n2 4 2.0\\n'
    """
    m = int(columns[0].shape[0]) if columns else 0
    for lo in range(0, m, BATCH):
        hi = min(m, lo + BATCH)
        parts = [_strings(np.ascontiguousarray(c[lo:hi])) for c in columns]
        if prefix:
            parts.insert(0, pa.array(np.full(hi - lo, prefix, dtype=object), pa.string()))
        line = pc.binary_join_element_wise(*parts, sep)
        line = pc.binary_join_element_wise(line, "", "\n")
        f.write(_body(line))
        if progress is not None:
            progress(hi, m)


def write_ragged_lines(
    f: IO[bytes],
    indptr: np.ndarray,
    tokens: Sequence[np.ndarray],
    sep: str = " ",
) -> None:
    """Write one line per row ``i``: the entries ``indptr[i]:indptr[i+1]`` of the token
    columns, interleaved (``t0[k] t1[k] t0[k+1] t1[k+1] ...``); an empty row is an empty line.

    Examples
    --------
    >>> import io, numpy as np
    >>> buf = io.BytesIO()
    >>> write_ragged_lines(buf, np.array([0, 2, 2, 3]), [np.array([2, 3, 1])])
    >>> buf.getvalue()
    b'2 3\\n\\n1\\n'
    """
    n = int(indptr.shape[0]) - 1
    rows_per_batch = max(1, BATCH // 8)
    for lo in range(0, n, rows_per_batch):
        hi = min(n, lo + rows_per_batch)
        a, b = int(indptr[lo]), int(indptr[hi])
        parts = [_strings(np.ascontiguousarray(t[a:b])) for t in tokens]
        entry = parts[0] if len(parts) == 1 else pc.binary_join_element_wise(*parts, sep)
        offs = (np.asarray(indptr[lo : hi + 1], dtype=np.int64) - a).astype(np.int32)
        lists = pa.ListArray.from_arrays(pa.array(offs), entry)
        line = pc.binary_join(lists, sep)
        line = pc.binary_join_element_wise(line, "", "\n")
        f.write(_body(line))
