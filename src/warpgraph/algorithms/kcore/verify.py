"""Checks for core numbers: the local certificate and a recount by another method.

Rules (with ``N(v)`` the neighbour multiset used for peeling, ``c`` the claimed core numbers):

1. *in the core*: ``v`` has at least ``c[v]`` neighbours ``u`` with ``c[u] >= c[v]``;
2. *not in the next core*: ``v`` has at most ``c[v]`` neighbours ``u`` with ``c[u] > c[v]``
   (otherwise the ``(c[v] + 1)``-core plus ``v`` would still have minimum degree ``c[v] + 1``);
3. *recount*: ``c`` equals the fixed point of Montresor, De Pellegrini and Miorandi's local
   h-index iteration started from the degrees (vectorized NumPy; independent of peeling).

Rules 1 and 2 alone admit wrong answers (all zeros on a triangle), hence rule 3.

Onion layers (:func:`verify_onion_layers`) are checked round by round from the claimed layers:
with ``R`` the vertices of layer ``L`` or later and ``k`` the core (1, raised to the smallest
degree in ``R`` when that exceeds it), layer ``L`` must be exactly the vertices of ``R`` whose
degree within ``R`` is at most ``k`` (layer 1 being the isolated vertices, if any), and the
order must list the layers in turn, each by that degree, then by vertex.
"""

from __future__ import annotations

import numpy as np

from ...errors import VerificationError

__all__ = ["hindex_core_numbers", "verify_core_numbers", "verify_onion_layers"]


def _neighbour_arrays(G) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cols) of the peeling multigraph on the CPU: simple arcs, plus reversed arcs for a
    directed graph."""
    g = G.to("cpu")
    src, dst, _ = g.edges()
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    keep = src != dst
    src, dst = src[keep], dst[keep]
    n = max(g.num_vertices, 1)
    key = np.unique(src * n + dst)  # undirected edges() come once, with src <= dst
    src, dst = key // n, key % n
    return np.concatenate((src, dst)), np.concatenate((dst, src))


def hindex_core_numbers(G) -> np.ndarray:
    """Core numbers by the local h-index iteration (slow-ish, for verification)."""
    n = G.num_vertices
    rows, cols = _neighbour_arrays(G)
    core = np.bincount(rows, minlength=n).astype(np.int64)
    if rows.size == 0:
        return core
    order = np.argsort(rows, kind="stable")
    rows, cols = rows[order], cols[order]
    starts = np.searchsorted(rows, np.arange(n))
    while True:
        vals = core[cols]
        # sort each row's neighbour values in decreasing order, then h = #{i : vals_i >= i + 1}
        o = np.lexsort((-vals, rows))
        sv = vals[o]
        rank_in_row = np.arange(rows.size) - starts[rows]
        ok = sv >= rank_in_row + 1
        h = np.bincount(rows[ok], minlength=n).astype(np.int64)
        new = np.minimum(core, h)
        if np.array_equal(new, core):
            return core
        core = new


def verify_core_numbers(G, core) -> None:
    """Raise :class:`VerificationError` naming a vertex and rule if ``core`` is wrong."""
    c = np.asarray(core.get() if hasattr(core, "get") else core, dtype=np.int64)
    n = G.num_vertices
    if c.shape != (n,):
        raise VerificationError(f"core numbers have shape {c.shape}, expected ({n},)")
    rows, cols = _neighbour_arrays(G)
    ge = np.bincount(rows[c[cols] >= c[rows]], minlength=n)
    bad = np.flatnonzero(ge < c)
    if bad.size:
        v = int(bad[0])
        raise VerificationError(
            f"vertex {v}: core {c[v]} but only {ge[v]} neighbours have core >= {c[v]} (rule 1)"
        )
    gt = np.bincount(rows[c[cols] > c[rows]], minlength=n)
    bad = np.flatnonzero(gt > c)
    if bad.size:
        v = int(bad[0])
        raise VerificationError(
            f"vertex {v}: core {c[v]} but {gt[v]} neighbours have a larger core (rule 2)"
        )
    ref = hindex_core_numbers(G)
    bad = np.flatnonzero(ref != c)
    if bad.size:
        v = int(bad[0])
        raise VerificationError(f"vertex {v}: core {c[v]}, recount gives {ref[v]} (rule 3)")


def verify_onion_layers(G, layers, order) -> None:
    """Raise :class:`VerificationError` naming a layer or vertex if ``layers`` or ``order``
    (:func:`warpgraph.algorithms.kcore.onion_layers`) is not ``G``'s onion decomposition.
    Vectorized per layer: O(n) NumPy work per layer, for checks and tests."""
    to_host = lambda a: np.asarray(a.get() if hasattr(a, "get") else a, dtype=np.int64)  # noqa: E731
    lay, order = to_host(layers), to_host(order)
    n = G.num_vertices
    if lay.shape != (n,) or order.shape != (n,):
        raise VerificationError(f"layers {lay.shape} and order {order.shape}, expected ({n},)")
    if n and not np.array_equal(np.sort(order), np.arange(n)):
        raise VerificationError("order is not a permutation of the vertices")
    rows, cols = _neighbour_arrays(G)
    deg = np.bincount(rows, minlength=n).astype(np.int64)
    remaining = np.ones(n, dtype=bool)
    start = np.zeros(n, dtype=np.int64)
    core, expect = 1, 1
    if n and lay.min() < 1:
        raise VerificationError(f"vertex {int(np.argmin(lay))}: layer {lay.min()} (< 1)")
    isolated = deg == 0
    if isolated.any():
        if not np.array_equal(isolated, lay == 1):
            v = int(np.flatnonzero(isolated != (lay == 1))[0])
            raise VerificationError(f"vertex {v}: layer 1 is the isolated vertices (degree 0)")
        remaining &= ~isolated
        expect = 2
    for layer in range(expect, int(lay.max(initial=0)) + 1):
        if not remaining.any():
            raise VerificationError(f"layer {layer} after every vertex was peeled")
        core = max(core, int(deg[remaining].min()))
        due = remaining & (deg <= core)
        if not np.array_equal(due, lay == layer):
            v = int(np.flatnonzero(due != (lay == layer))[0])
            raise VerificationError(
                f"vertex {v}: layer {lay[v]}, but its degree {deg[v]} against core {core} puts "
                f"it {'in' if due[v] else 'out of'} layer {layer}"
            )
        start[due] = deg[due]
        remaining &= ~due
        gone = due[rows] & remaining[cols]
        deg -= np.bincount(cols[gone], minlength=n)
    if remaining.any():
        raise VerificationError(f"vertex {int(np.flatnonzero(remaining)[0])} was never peeled")
    want = np.lexsort((np.arange(n), start, lay))
    if not np.array_equal(want, order):
        i = int(np.flatnonzero(want != order)[0])
        raise VerificationError(f"order position {i}: vertex {order[i]}, expected {want[i]}")
