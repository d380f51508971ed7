"""Strongly connected components on the CPU: the multi-step scheme in parallel Numba, and Tarjan.

Multi-step (Busato's thesis ch. 9; :mod:`.scc_config` describes the phases and options). State per
vertex: ``part[v]`` is the id of the subgraph ("range") that ``v`` belongs to while it is active
and -1 once its SCC is known; ``label[v]`` is then the SCC's id (a vertex id of the SCC). Arcs
between different subgraphs are ignored: every subgraph is a union of SCCs. Subgraph ids are
vertex ids of members, so per-subgraph tables (pivots) are indexed by them. The phases, each in
its own module (this one is the entry point, :func:`scc_cpu`):

* trim-1 and trim-2 passes (:mod:`._scc_trim`): vertices that are an SCC alone;
* forward-backward rounds (:mod:`._scc_fb`): one pivot per subgraph, whose forward and backward
  closures split the subgraph;
* coloring rounds (:mod:`._scc_coloring`): max-label propagation, then a backward closure per
  root;
* the closures (:mod:`._scc_reach`): ``quadratic`` and ``virtual_warp`` sweeps, a ``linear``
  queue, or ``hybrid`` push and pull.

Tarjan (:mod:`._scc_tarjan`): the classic algorithm in Pearce's space-efficient one-pass form,
sequential.

Examples
--------
>>> import numpy as np
>>> indptr = np.array([0, 1, 2, 3, 3]); indices = np.array([1, 2, 0], dtype=np.int32)
>>> lab = scc_cpu(indptr, indices, 4)
>>> bool(lab[0] == lab[1] == lab[2]), bool(lab[3] != lab[0])
(True, True)
>>> scc_cpu(indptr, indices, 4, method="tarjan").tolist()
[3, 3, 3, 2]
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from ...cpu.threads import PARALLEL_MIN_WORK, dynamic_threads
from ...cpu.transpose import transpose_csr as _transpose
from ...errors import InvalidArgumentError
from ._scc_coloring import _coloring
from ._scc_fb import _fb_round, _pivot_score
from ._scc_reach import _threads
from ._scc_tarjan import tarjan_scc, tarjan_scc_in_closing_order
from ._scc_trim import _trim
from .scc_config import SCC_METHODS, SCCConfig, auto_scc_config, method_config

__all__ = [
    "is_symmetric",
    "scc_cpu",
    "scc_cpu_labels",
    "tarjan_scc",
    "tarjan_scc_in_closing_order",
    "transpose_csr",
]


def _bounds(indptr: np.ndarray, n: int, nchunks: int, by_arcs: bool) -> np.ndarray:
    """Chunk boundaries over the vertices: equal vertex counts, or equal arc counts."""
    nchunks = max(1, min(nchunks, n))
    if not by_arcs or n == 0:
        return np.linspace(0, n, nchunks + 1).astype(np.int64)
    targets = np.linspace(0, int(indptr[n]) + n, nchunks + 1)
    work = indptr + np.arange(n + 1)  # arcs + 1 per vertex
    b = np.searchsorted(work, targets).astype(np.int64)
    b[0], b[-1] = 0, n
    return np.maximum.accumulate(b)


# ---- transpose --------------------------------------------------------------------------------


def transpose_csr(indptr: np.ndarray, indices: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``(rindptr, rindices)``: the CSR of the reversed arcs (parallel, rows sorted; the
    two-pass radix sort of :func:`warpgraph.cpu.transpose.transpose_csr`).

    Examples
    --------
    >>> rp, ri = transpose_csr(np.array([0, 2, 3, 3]), np.array([1, 2, 2]), 3)
    >>> rp.tolist(), ri.tolist()
    ([0, 0, 1, 3], [0, 0, 1])
    """
    rindptr, rindices, _ = _transpose(indptr, indices, n)
    return rindptr, rindices


@nb.njit(cache=True, nogil=True)
def _equal_csr(indptr, indices, rindptr, rindices):
    n = indptr.shape[0] - 1
    for v in range(n + 1):
        if indptr[v] != rindptr[v]:
            return False
    for p in range(indptr[n]):
        if indices[p] != rindices[p]:
            return False
    return True


def is_symmetric(indptr: Any, indices: Any, rindptr: Any, rindices: Any) -> bool:
    """True when the CSR equals its transpose: every arc has its reverse arc, as often (the
    rows of ``indices`` must be sorted, as in a :class:`~warpgraph.Graph`; unsorted rows only
    make this answer False). Stops at the first difference (O(n) on most directed graphs).

    Examples
    --------
    >>> ptr, idx = np.array([0, 1, 2]), np.array([1, 0])
    >>> is_symmetric(ptr, idx, *transpose_csr(ptr, idx, 2))
    True
    """
    return bool(_equal_csr(indptr, indices, rindptr, rindices))


# ---- driver -----------------------------------------------------------------------------------


def _as_csr(indptr: Any, indices: Any, n: int, what: str) -> tuple[np.ndarray, np.ndarray]:
    indptr = np.ascontiguousarray(indptr, dtype=np.int64)
    indices = np.ascontiguousarray(indices)
    if indices.dtype not in (np.int32, np.int64):
        indices = indices.astype(np.int64)
    if indptr.shape != (n + 1,):
        raise InvalidArgumentError(f"{what}indptr must have n + 1 = {n + 1} entries")
    if indices.shape[0] != indptr[n]:
        raise InvalidArgumentError(f"{what}indices must have indptr[-1] = {indptr[n]} entries")
    return indptr, indices


def scc_cpu(
    indptr: Any,
    indices: Any,
    n: int,
    *,
    method: str = "multistep",
    config: SCCConfig | None = None,
    rindptr: Any = None,
    rindices: Any = None,
) -> np.ndarray:
    """Strongly connected components of a directed CSR graph on the CPU.

    Parameters
    ----------
    indptr, indices : numpy.ndarray
        Out-arc CSR (``indptr`` int64, ``indices`` int32 or int64; self-loops and repeated arcs
        allowed).
    n : int
        Number of vertices.
    method : str
        One of :data:`~.scc_config.SCC_METHODS`.
    config : SCCConfig, optional
        Phase parameters; default :func:`~.scc_config.auto_scc_config` for the CPU.
    rindptr, rindices : numpy.ndarray, optional
        In-arc CSR (``Graph.reverse_csr()``); built here when absent (Tarjan does not need it).

    Returns
    -------
    numpy.ndarray
        int64 label per vertex in ``[0, n)``, equal exactly within an SCC (the multi-step
        methods name an SCC by one of its vertices, Tarjan by an SCC id).

    Raises
    ------
    InvalidArgumentError
        Unknown method, wrong config type or inconsistent arrays.

    Examples
    --------
    >>> ptr = np.array([0, 1, 2, 2]); idx = np.array([1, 0])  # 0 <-> 1, and 2 alone
    >>> lab = scc_cpu(ptr, idx, 3, method="coloring")
    >>> bool(lab[0] == lab[1]), bool(lab[2] == 2)
    (True, True)
    """
    labels = scc_cpu_labels(
        indptr, indices, n, method=method, config=config, rindptr=rindptr, rindices=rindices
    )
    return labels.astype(np.int64, copy=False)


def scc_cpu_labels(
    indptr: Any,
    indices: Any,
    n: int,
    *,
    method: str = "multistep",
    config: SCCConfig | None = None,
    rindptr: Any = None,
    rindices: Any = None,
) -> np.ndarray:
    """:func:`scc_cpu` without the final widening: labels in the vertex dtype (int32 while
    ``n < 2**31 - 1``), as the numbering of ``connected_components`` takes them.

    Examples
    --------
    >>> scc_cpu_labels(np.array([0, 1, 2, 2]), np.array([1, 0]), 3).dtype
    dtype('int32')
    """
    if method not in SCC_METHODS:
        raise InvalidArgumentError(f"method must be one of {SCC_METHODS}, got {method!r}")
    if config is not None and not isinstance(config, SCCConfig):
        raise InvalidArgumentError(f"config must be an SCCConfig, got {type(config).__name__}")
    n = int(n)
    indptr, indices = _as_csr(indptr, indices, n, "")
    if n == 0:
        return np.empty(0, dtype=np.int32)
    if method == "tarjan":
        return tarjan_scc(indptr, indices, n)
    cfg = auto_scc_config(indptr, indices, n, "cpu") if config is None else config
    threads = nb.get_num_threads()
    if n + int(indptr[n]) < PARALLEL_MIN_WORK:
        nb.set_num_threads(1)  # this thread's parallel regions only; waking workers costs more
    else:
        nb.set_num_threads(dynamic_threads(threads))
    try:
        if rindptr is None or rindices is None:
            rindptr, rindices = transpose_csr(indptr, indices, n)
        else:
            rindptr, rindices = _as_csr(rindptr, rindices, n, "reverse ")
        return _multistep(indptr, indices, rindptr, rindices, n, method, cfg)
    finally:
        nb.set_num_threads(threads)


def _multistep(indptr, indices, rindptr, rindices, n, method, cfg: SCCConfig) -> np.ndarray:
    vt = np.int32 if n < 2**31 - 1 else np.int64
    t = _threads()
    bounds = _bounds(indptr, n, 8 * t, by_arcs=False)
    bal = _bounds(indptr, n, 8 * t, by_arcs=True)
    G = (indptr, indices, rindptr, rindices, bounds, bal)
    part = np.zeros(n, dtype=vt)  # one subgraph, id 0
    label = np.full(n, -1, dtype=vt)
    left = n - _trim(indptr, indices, rindptr, rindices, part, label, bal, cfg)
    fb_rounds, coloring = method_config(method, cfg)
    fmark = np.zeros(n, dtype=np.uint8)
    bmark = np.zeros(n, dtype=np.uint8)
    if left > 0 and fb_rounds != 0:
        score = _pivot_score(indptr, rindptr, cfg.pivot)
        i = 0
        while left > 0 and (fb_rounds < 0 or i < fb_rounds):
            left = _fb_round(G, part, label, fmark, bmark, score, cfg)
            i += 1
    if left > 0 and coloring:
        _coloring(G, part, label, bmark, cfg)
    return label
