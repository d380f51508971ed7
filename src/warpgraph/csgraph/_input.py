"""How :mod:`warpgraph.csgraph` reads its input as SciPy does (sparse, dense, CuPy), makes the
warpgraph :class:`~warpgraph.graph.Graph` it runs on, and returns results in the input's array
module."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from numba import njit, prange

from .._arrays import id_dtype_for, is_cupy, to_host, value_range
from ..cpu.threads import threads_for
from ..errors import InvalidArgumentError
from ..graph import Graph

NULL = -9999  # SciPy's "no predecessor"


# ---------------------------------------------------------------- input, as SciPy reads it
@dataclass
class _Csr:
    """The input graph in CSR form (NumPy, or CuPy for CuPy input), float64 data; int64 offsets
    and ids unless read ``host_only`` (:func:`_read`). The arrays may be the user's own (a SciPy
    CSR's, in either case): read them, never write."""

    n: int
    indptr: Any
    indices: Any
    data: Any
    cupy: bool

    def xp(self):
        if self.cupy:
            import cupy

            return cupy
        return np


def _square(shape: tuple) -> int:
    if len(shape) != 2 or shape[0] != shape[1]:
        raise InvalidArgumentError("compressed-sparse graph must be shape (N, N)")
    return int(shape[0])


def _from_dense(A: Any, xp) -> tuple:
    """CSR of a dense matrix: entries that are 0, inf or NaN (or masked) are not edges."""
    n = _square(A.shape)
    mask = (A != 0) & xp.isfinite(A)
    if np.ma.isMaskedArray(A):
        mask &= ~np.ma.getmaskarray(A)
        A = A.filled(0)
    rows, cols = xp.nonzero(mask)
    indptr = xp.zeros(n + 1, dtype=np.int64)
    if rows.size:
        xp.cumsum(xp.bincount(rows, minlength=n), out=indptr[1:])
    return n, indptr, cols.astype(np.int64), xp.asarray(A)[rows, cols]


def _read(csgraph: Any, directed: bool = True, host_only: bool = False) -> _Csr:
    """The input as SciPy's ``validate_graph`` reads it. For an undirected search SciPy takes a
    CSC matrix's transpose (a CSR at no cost: the edges are the same), so its rows, scanned
    first, are the CSC's columns in their stored order; the scan order of
    ``breadth_first_order`` follows that, and so does ours. A CSR, CSC or BSR matrix's arrays are
    bounds-checked first (:func:`_check_compressed`). ``host_only``: the caller's passes run on
    the host (a :class:`Graph`, if it builds one, widens int32 offsets itself), so a SciPy
    matrix's index arrays are read as stored (int32 or int64); otherwise they come as int64
    (int64 ones read in place, int32 ones widened)."""
    _check_compressed(csgraph)  # (before any conversion reads the arrays)
    if not directed and sp.issparse(csgraph) and csgraph.format == "csc":
        csgraph = csgraph.T
    return _read_as_stored(csgraph, host_only)


def _read_as_stored(csgraph: Any, host_only: bool = False) -> _Csr:
    if is_cupy(csgraph) or type(csgraph).__module__.startswith("cupyx"):
        import cupy
        from cupyx.scipy import sparse as csp

        if csp.issparse(csgraph):
            A = csgraph.tocsr().astype(np.float64)
            n = _square(A.shape)
            return _Csr(n, A.indptr.astype(np.int64), A.indices.astype(np.int64), A.data, True)
        n, indptr, indices, data = _from_dense(cupy.asarray(csgraph, dtype=np.float64), cupy)
        return _Csr(n, indptr, indices, data, True)
    if sp.issparse(csgraph):
        _square(csgraph.shape)
        A = sp.csr_array(csgraph, dtype=np.float64)  # what SciPy does (a COO's duplicates sum)
        n = A.shape[0]
        if host_only:
            return _Csr(n, A.indptr, A.indices, A.data, False)
        # (the GPU kernels and Graph take int64 offsets: int32 arrays are widened, int64 ones
        # read in place, as every pass here writes new arrays)
        indptr, indices = (a.astype(np.int64, copy=False) for a in (A.indptr, A.indices))
        return _Csr(n, indptr, indices, A.data, False)
    if np.ma.isMaskedArray(csgraph):
        A = np.ma.asarray(csgraph, dtype=np.float64)
    else:
        A = np.asarray(csgraph, dtype=np.float64)
    n, indptr, indices, data = _from_dense(A, np)
    return _Csr(n, indptr, indices, data, False)


def _check_compressed(M: Any) -> None:
    """A CSR, CSC or BSR matrix's index arrays checked before any pass reads them. SciPy's
    constructors check their shapes but not their values (only ``check_format(full_check=True)``
    does), and a stored index outside ``[0, N)`` or an offset past the stored entries sends a
    compiled pass (SciPy's own, its format conversions, or ours) outside the arrays: a crash or
    a silent wrong answer. One bounds pass over each array (parallel on the host: 2 cores,
    2.5-3.6 ms for 2M int64 ids)."""
    fmt = getattr(M, "format", None)
    if fmt not in ("csr", "csc", "bsr") or not hasattr(M, "indptr"):
        return  # (the other formats' constructors check their indices)
    n = _square(M.shape)
    # (a BSR's offsets and indices count blocks: N / R block rows, N / C block columns)
    rows, cols = (n // M.blocksize[0], n // M.blocksize[1]) if fmt == "bsr" else (n, n)
    indptr, indices = M.indptr, M.indices
    nnz = int(indices.shape[0])
    if indptr.shape[0] != rows + 1:
        raise InvalidArgumentError(
            f"csgraph's index pointer has {indptr.shape[0]} entries, not {rows + 1}"
        )
    with threads_for(work=rows + nnz):
        low, high = value_range(indptr)
        if low < 0 or high > nnz:
            raise InvalidArgumentError(
                f"csgraph's index pointer holds {low if low < 0 else high}, outside "
                f"[0, {nnz}] (its number of stored entries)"
            )
        if nnz == 0:
            return
        low, high = value_range(indices)
    if low < 0 or high >= cols:
        bad = low if low < 0 else high
        at = int((indices == bad).argmax())
        kind = {"csr": "column", "csc": "row", "bsr": "block column"}[fmt]
        span = f"[0, N) for N = {n}" if fmt != "bsr" else f"[0, N / {M.blocksize[1]}) = [0, {cols})"
        raise InvalidArgumentError(
            f"csgraph stores {kind} index {bad} (stored entry {at}), outside {span}"
        )


def _arcs(A: _Csr, directed: bool, weights: bool = True) -> tuple:
    """``(indptr, heads, data)`` in SciPy's scan order: each row as stored; undirected, each
    row of ``A`` followed by the same row of ``A.T`` (sources in increasing order). Without
    ``weights`` the data may be ``None``."""
    if directed:
        return A.indptr, A.indices, A.data
    if not A.cupy:  # one counting pass (a stable argsort of the columns costs 10x more)
        return _undirected_arcs(A.indptr, A.indices, A.data, A.n, weights)
    xp = A.xp()
    n = A.n
    rows = xp.repeat(xp.arange(n), xp.diff(A.indptr))
    by_col = xp.argsort(A.indices, kind="stable")  # the transpose's rows, sources ascending
    t_indptr = xp.zeros(n + 1, dtype=np.int64)
    if by_col.size:
        xp.cumsum(xp.bincount(A.indices, minlength=n), out=t_indptr[1:])
    indptr = A.indptr + t_indptr
    m = int(A.indices.shape[0])
    heads = xp.empty(2 * m, dtype=np.int64)
    data = xp.empty(2 * m, dtype=np.float64)
    own = xp.arange(m) + t_indptr[rows]  # row r: A's arcs first ...
    heads[own] = A.indices
    data[own] = A.data
    t_rows = A.indices[by_col]
    other = xp.arange(m) + A.indptr[t_rows + 1]  # ... then the transpose's
    heads[other] = rows[by_col]
    data[other] = A.data[by_col]
    return indptr, heads, data


def _undirected_arcs(indptr, indices, data, n: int, weights: bool) -> tuple:
    """:func:`_arcs` for ``directed=False`` on the host: row ``r`` holds ``A``'s row ``r`` as
    stored, then the transpose's row ``r`` (the rows that store ``r``, in increasing order, each
    entry in stored order: a counting sort by column, stable as SciPy's transpose is). Without
    ``weights`` the data is left out (``None``): the scatter then writes half as much."""
    in_degree = np.bincount(indices, minlength=n)
    out_indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.diff(indptr) + in_degree, out=out_indptr[1:])
    m = indices.size
    heads = np.empty(2 * m, dtype=id_dtype_for(n))  # (int32 while ids fit: half the traffic)
    out_data = np.empty(2 * m if weights else 0, dtype=np.float64)
    data = data if weights else out_data
    with threads_for(work=n + m) as threads:  # (one thread for small graphs: no wake-up)
        _copy_own_rows(indptr, indices, data, out_indptr, heads, out_data, n)
        bounds = _column_ranges(in_degree, threads)
        _scatter_transpose(indptr, indices, data, out_indptr, heads, out_data, n, bounds)
    return out_indptr, heads, out_data if weights else None


def _column_ranges(in_degree: np.ndarray, parts: int) -> np.ndarray:
    """``parts + 1`` bounds cutting the columns into ranges of about equal in-degree (the
    arcs each range receives)."""
    n = in_degree.size
    if parts <= 1 or n == 0:
        return np.array([0, n], dtype=np.int64)
    total = np.cumsum(in_degree)
    inner = np.searchsorted(total, np.arange(1, parts) * (total[-1] / parts))
    return np.concatenate(([0], inner, [n])).astype(np.int64)


@njit(parallel=True, cache=True)
def _copy_own_rows(indptr, indices, data, out_indptr, heads, out_data, n):  # pragma: no cover
    """Each row of ``A`` to the front of its merged row (rows in parallel)."""
    for r in prange(n):
        start, first = out_indptr[r], indptr[r]
        for j in range(indptr[r + 1] - first):
            heads[start + j] = indices[first + j]
            if out_data.size:
                out_data[start + j] = data[first + j]


@njit(parallel=True, cache=True)
def _scatter_transpose(  # pragma: no cover - compiled
    indptr, indices, data, out_indptr, heads, out_data, n, bounds
):
    """Each arc ``r -> c`` appended as ``c -> r`` behind row ``c``'s own part, rows in order:
    the order of the appends is the order of the result. Each task owns a range of columns
    (``bounds``) and reads every arc in row order, appending those into its range: stable, and
    no per-task counters (per-block column counts would cost tasks x N). 2 cores, ``urand:17``
    with weights: 19.5 -> 10.8 ms for the undirected arcs; ``grid:708``, whose sequential
    appends already stay in cache, 19.2 -> 18.7 ms."""
    for part in prange(bounds.size - 1):
        low, high = bounds[part], bounds[part + 1]
        cursor = np.empty(high - low, dtype=np.int64)
        for c in range(low, high):
            cursor[c - low] = out_indptr[c] + indptr[c + 1] - indptr[c]
        for r in range(n):
            for k in range(indptr[r], indptr[r + 1]):
                c = indices[k]
                if low <= c < high:
                    j = cursor[c - low]
                    heads[j] = r
                    if out_data.size:
                        out_data[j] = data[k]
                    cursor[c - low] = j + 1


_SMALL = 1 << 16  # below this many arcs NumPy sorts the rows faster than a parallel kernel


def _graph(indptr, heads, weights) -> Graph:
    """A directed warpgraph Graph over these arcs (parallel arcs kept; rows get sorted)."""
    n = int(indptr.shape[0]) - 1
    heads = heads.astype(id_dtype_for(n), copy=False)  # (the undirected arcs are ours already)
    if is_cupy(heads) or heads.size >= _SMALL:
        return Graph(indptr, heads, weights, directed=True)
    rows = np.repeat(np.arange(n), np.diff(indptr))
    order = np.lexsort((heads, rows))  # stable: parallel arcs keep their order
    weights = None if weights is None else weights[order]
    return Graph(indptr, heads[order], weights, directed=True, validate=False)


def _out(x: Any, A: _Csr):
    """The result in the input's array module."""
    if A.cupy:
        import cupy

        return cupy.asarray(x)
    return to_host(x)


def _check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool | np.bool_ | int):
        raise InvalidArgumentError(f"{name} must be True or False, got {value!r}")
    return bool(value)
