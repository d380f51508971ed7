"""A NetworkX result graph (``k_core``, ``k_truss``, ``subgraph`` ...) built by compiled code.

:mod:`._results` decides which nodes and arcs the result keeps, in which order; here one
compiled pass per stage makes its dicts through CPython's C API (:mod:`._capi`): the node
table, the data dict copies (by worker threads where :mod:`._parallel_copies` may, else
``PyDict_Copy``), then the rows, each presized and filled with the heads' known hashes. Order
rules as in :mod:`._capi`'s docstring.
"""

from __future__ import annotations

import ctypes
import gc

import numba as nb
import numpy as np

from ..cpu import prefix
from ..cpu.prefetch import prefetch_address as _prefetch
from ..cpu.prefetch import prefetch_item as _prefetch_item
from ._capi import (
    COPY,
    DECREF,
    DICT,
    DIRECT_REFCOUNTS,
    LONG,
    PRESIZED,
    SET,
    _call1,
    _call4,
    _decref,
    _fail,
    _put,
    _release_all,
    gather,
    zero_fill,
)
from ._capi_nodes import _fill_clone, _fits, empty_dict_for
from ._dict_layout import _i64

__all__ = ["build_graph"]


# Columns of the node table: one cache line holds what an arc needs of its head.
POS, LABEL, HASH, FILL = range(4)


@nb.njit(cache=True)
def _new_ints(fns, visit, info):  # pragma: no cover - compiled
    """New ``int`` objects for the nodes ``visit`` (labels ``0..n-1``) as their labels; the
    caller releases them with :func:`_release_labels`. Returns -1 on an error (all released)."""
    for j in range(visit.shape[0]):
        obj = _call1(fns[LONG], visit[j])
        if obj == 0:
            _release_labels(fns, visit[:j], info)
            return _fail(fns, 0)
        info[visit[j], LABEL] = obj
    return 0


@nb.njit(cache=True, parallel=True)
def _node_info(visit, hashes, labels):  # pragma: no cover - compiled
    """The ``(n, 4)`` table :func:`build_graph` works from: per dense id its visiting
    position (-1: not kept), label address (``labels``; 0 where ``labels`` is empty: made
    later), hash, and a 0 cursor. Written in parallel in one pass: NumPy's zeros and four
    column writes took 12.8 ms for grid:708 (501k nodes) on one core of 2."""
    n = hashes.shape[0]
    info = np.empty((n, 4), dtype=np.int64)
    given = labels.shape[0] == n
    for u in nb.prange(n):
        info[u, POS] = -1
        info[u, LABEL] = labels[u] if given else 0
        info[u, HASH] = hashes[u]
        info[u, FILL] = 0
    for p in nb.prange(visit.shape[0]):
        info[visit[p], POS] = p
    return info


@nb.njit(cache=True, parallel=True)
def _columns(info, first, second):  # pragma: no cover - compiled
    """``info[:, [first, second]]`` (contiguous), copied in parallel."""
    out = np.empty((info.shape[0], 2), dtype=np.int64)
    for u in nb.prange(info.shape[0]):
        out[u, 0] = info[u, first]
        out[u, 1] = info[u, second]
    return out


@nb.njit(cache=True, parallel=True)
def _column(info, which):  # pragma: no cover - compiled
    """``info[:, which]`` (contiguous), copied in parallel."""
    out = np.empty(info.shape[0], dtype=np.int64)
    for u in nb.prange(info.shape[0]):
        out[u] = info[u, which]
    return out


@nb.njit(cache=True)
def _release_labels(fns, visit, info):  # pragma: no cover - compiled
    for j in range(visit.shape[0]):
        _decref(fns[DECREF], info[visit[j], LABEL])


@nb.njit(cache=True)
def _nodes(fns, node_out, visit, node_data, info):  # pragma: no cover - compiled
    """``H._node[label] = G._node[label].copy()`` for the nodes in visiting order, one at a
    time; 0, -1 on an error, -2 when an attribute dict is not a plain ``dict``."""
    k = visit.shape[0]
    for p in range(k):
        if p + 8 < k:
            _prefetch(node_data[visit[p + 8]])
        u = visit[p]
        if _i64(node_data[u] + 8) != fns[DICT]:
            return -2
        nd = _call1(fns[COPY], node_data[u])
        if nd == 0 or _put(fns, node_out, info[u, LABEL], nd, info[u, HASH]):
            return _fail(fns, 0)
    return 0


@nb.njit(cache=True)
def _put_nodes(fns, node_out, visit, copies, info):  # pragma: no cover - compiled
    """``H._node[label] = copies[p]`` for the nodes in visiting order, each copy's reference
    passed (its slot zeroed); 0, or -1 on an error (the copies not put left to the caller)."""
    k = visit.shape[0]
    for p in range(k):
        if p + 16 < k:
            _prefetch_row(info, visit[p + 16])
        if p + 8 < k:
            _prefetch(info[visit[p + 8], LABEL])  # (its reference count is written)
        u = visit[p]
        copy = copies[p]
        copies[p] = 0
        if _put(fns, node_out, info[u, LABEL], copy, info[u, HASH]):
            return _fail(fns, 0)
    return 0


def _put_node_copies(fns, H, source_nodes, visit, copies, info) -> int:
    """``H._node[label] = copies[p]`` in visiting order, each copy's reference passed (its slot
    zeroed): 0, or -1 on an error. Where every node of ``source_nodes`` is kept in its order
    (``visit`` is ``0..n-1``) and its table has the size of ``H._node``'s (empty, sized for
    ``n``), ``H._node`` is written as a clone of that table by workers (:func:`_fill_clone`);
    else :func:`_put_nodes` puts them one at a time (H200 host, grid:708's 501k nodes: 10-12
    ms)."""
    n = visit.shape[0]
    table = H._node
    if (
        source_nodes is not None
        and len(source_nodes) == n
        and _fits(id(source_nodes), id(table), n)
        and _is_identity(visit)
    ):
        _fill_clone(id(source_nodes), id(table), copies, id(int), id(str), id(float))
        zero_fill(copies)  # (their references passed to the table)
        if not gc.is_tracked(table):  # (its values are dicts, as CPython's insertion tracks)
            ctypes.pythonapi.PyObject_GC_Track(ctypes.py_object(table))
        return 0
    return _put_nodes(fns, id(table), visit, copies, info)


@nb.njit(cache=True, parallel=True)
def _is_identity(visit):  # pragma: no cover - compiled
    """Whether ``visit[p] == p`` for every ``p``."""
    off = 0
    for p in nb.prange(visit.shape[0]):
        off += visit[p] != p
    return off == 0


@nb.njit(cache=True)
def _kept(info, heads, arc_keep, a):  # pragma: no cover - compiled
    """Visiting position of arc ``a``'s head if the arc is kept, else -1."""
    q = info[heads[a], POS]
    return q if arc_keep.shape[0] == 0 or arc_keep[a] else -1


def _plan(visit, info, indptr, heads, arc_keep, addr, start, directed):
    """Kept arcs per row (visiting position) and the kept arcs that make their edge's data
    dict copy (undirected: from the endpoint visited first), with their dicts' addresses, in
    visiting order: ``(deg, kept, arcs, found)``, the kept arcs of the row visited ``p``-th
    at ``kept[deg[p]:deg[p + 1]]``; ``found[j]`` the data dict of arc ``arcs[j]``, arcs being
    numbered ``start[p] + i`` for the ``i``-th arc of the row visited ``p``-th (``addr`` is
    indexed so), so that the work and memory stay in proportion to the rows visited, not to
    the whole graph.

    Two parallel passes over the rows (no Python object is touched): one counts, with running
    sums by chunks (:mod:`..cpu.prefix`), one writes at the offsets the counts give. Serial
    NumPy sums, a ``bincount`` and fancy indexing here cost 12-18 ms of grid:708's ``k_core``
    on a 16-core host. What a row hands to later rows is counted only where the rows are made
    one at a time (:func:`_cursors`)."""
    k = visit.shape[0]
    count, size = prefix.chunks(k)
    deg = np.empty(k + 1, dtype=np.int64)
    own = np.empty(k + 1, dtype=np.int64)
    totals = np.empty((2, count + 1), dtype=np.int64)
    _plan_counts(visit, info, indptr, heads, arc_keep, directed, deg, own, totals, size)
    prefix.add_chunk_offsets(deg, totals[0], size)
    prefix.add_chunk_offsets(own, totals[1], size)
    kept = np.empty(deg[k], dtype=np.int64)
    arcs = np.empty(own[k], dtype=np.int64)
    found = np.empty(own[k], dtype=np.int64)
    _plan_fill(visit, info, indptr, heads, arc_keep, addr, start, directed, deg, own, kept,
               arcs, found)  # fmt: skip
    return deg, kept, arcs, found


@nb.njit(cache=True, parallel=True)
def _plan_counts(
    visit, info, indptr, heads, arc_keep, directed, deg, own, totals, size
):  # pragma: no cover - compiled
    """Per visited row ``p``: its kept arcs and those whose data dict it copies, as running
    sums within chunks of ``size`` rows (``deg[p + 1]``, ``own[p + 1]``) and the chunks'
    totals (``totals[:, c + 1]``)."""
    k = visit.shape[0]
    for c in nb.prange(totals.shape[1] - 1):
        run_kept = run_copies = 0
        for p in range(c * size, min(k, (c + 1) * size)):
            u = visit[p]
            for a in range(indptr[u], indptr[u + 1]):
                if a + 8 < indptr[u + 1]:
                    _prefetch_row(info, heads[a + 8])
                q = _kept(info, heads, arc_keep, a)
                if q < 0:
                    continue
                run_kept += 1
                if directed or q >= p:
                    run_copies += 1
            deg[p + 1] = run_kept
            own[p + 1] = run_copies
        totals[0, c + 1] = run_kept
        totals[1, c + 1] = run_copies


@nb.njit(cache=True, parallel=True)
def _plan_fill(
    visit, info, indptr, heads, arc_keep, addr, start, directed, deg, own, kept, arcs, found
):  # pragma: no cover - compiled
    """The arcs counted by :func:`_plan_counts`, each row's from its offsets ``deg[p]`` (its
    kept arcs) and ``own[p]`` (the copying arcs and their data dicts)."""
    for p in nb.prange(visit.shape[0]):
        u = visit[p]
        r = deg[p]
        c = own[p]
        for a in range(indptr[u], indptr[u + 1]):
            q = _kept(info, heads, arc_keep, a)
            if q < 0:
                continue
            kept[r] = a
            r += 1
            if directed or q >= p:
                arcs[c] = start[p] + a - indptr[u]
                found[c] = addr[arcs[c]]
                c += 1


def _cursors(visit, info, heads, kept, deg, directed) -> np.ndarray:
    """Where the entries each node is handed by the rows made before its own go (undirected:
    from its neighbours visited before; directed: its predecessors): those of the node at
    visiting position ``p`` to ``first[p]..first[p + 1]`` of one buffer (returned);
    ``info[:, FILL]`` is set to the cursors ``first[:-1]``. Only :func:`_rows` needs them."""
    k = visit.shape[0]
    first = np.zeros(k + 1, dtype=np.int64)
    _handed_counts(info, heads, kept, deg, directed, first[1:])
    np.cumsum(first, out=first)
    info[visit, FILL] = first[:-1]
    return first


@nb.njit(cache=True)
def _handed_counts(info, heads, kept, deg, directed, counts):  # pragma: no cover - compiled
    """``counts[q]``: the entries the rows visited before ``q`` hand to the node visited
    ``q``-th (directed: every kept arc into it)."""
    for p in range(deg.shape[0] - 1):
        for j in range(deg[p], deg[p + 1]):
            q = info[heads[kept[j]], POS]
            if directed or q > p:
                counts[q] += 1


@nb.njit(cache=True)
def _prefetch_row(info, v):  # pragma: no cover - compiled
    _prefetch_item(info[v], 0)


@nb.njit(cache=True)
def _by_address(arcs, found):  # pragma: no cover - compiled
    """``arcs`` and their data dicts' addresses ``found``, sorted by address in blocks of
    4 KiB or more (a counting sort): the dicts are then read nearly in memory order."""
    m = arcs.shape[0]
    if m == 0:
        return arcs, found
    lo = found.min()
    hi = found.max()
    shift = 12
    while ((hi - lo) >> shift) > 4 * m + 4096:
        shift += 1
    start = np.zeros(((hi - lo) >> shift) + 2, dtype=np.int64)
    for j in range(m):
        start[((found[j] - lo) >> shift) + 1] += 1
    for b in range(start.shape[0] - 1):
        start[b + 1] += start[b]
    out = np.empty(m, dtype=np.int64)
    out_found = np.empty(m, dtype=np.int64)
    for j in range(m):
        b = (found[j] - lo) >> shift
        out[start[b]] = arcs[j]
        out_found[start[b]] = found[j]
        start[b] += 1
    return out, out_found


@nb.njit(cache=True)
def _copies(fns, arcs, found, copy_at):  # pragma: no cover - compiled
    """``copy_at[arcs[j]]`` (visited arc numbers, see :func:`_plan`) = a copy of the data dict
    at ``found[j]``; 0, -1 on an error, -2 when a data dict is not a plain ``dict``. The caller
    releases ``copy_at``."""
    m = arcs.shape[0]
    for j in range(m):
        if j + 16 < m:
            _prefetch(found[j + 16])
        if j + 8 < m:
            _prefetch(_i64(found[j + 8] + 32))  # the key table
        d = found[j]
        if _i64(d + 8) != fns[DICT]:  # ob_type
            return -2
        copy = _call1(fns[COPY], d)
        if copy == 0:
            return _fail(fns, 0)
        copy_at[arcs[j]] = copy
    return 0


@nb.njit(cache=True)
def _entries(fns, row, lo, hi, given, giver, info):  # pragma: no cover - compiled
    """``row[label of giver[j]] = given[j]`` for ``j`` in ``lo..hi``; 0, or -1 on an error."""
    for j in range(lo, hi):
        if j + 8 < hi:
            _prefetch(given[j + 8])
            _prefetch_row(info, giver[j + 8])
        v = giver[j]
        if _call4(fns[SET], row, info[v, LABEL], given[j], info[v, HASH]):
            return -1
    return 0


@nb.njit(cache=True)
def _rows(
    fns, adj_out, pred_out, visit, info, indptr, heads, copy_at, start, deg, kept, first, directed
):  # pragma: no cover - compiled
    """The adjacency dicts (and a directed graph's predecessor dicts) from the data dict copies
    ``copy_at`` (by visited arc number, see :func:`_plan`); 0, or -1 on an error."""
    k = visit.shape[0]
    m = kept.shape[0]
    given = np.empty(first[k], dtype=np.int64)  # the data dict copy handed over ...
    giver = np.empty(first[k], dtype=np.int64)  # ... and the node that made it
    for p in range(k):
        u = visit[p]
        row = _call1(fns[PRESIZED], deg[p + 1] - deg[p])
        if row == 0:
            return _fail(fns, 0)
        if not directed:  # the neighbours visited before, in visiting order
            if _entries(fns, row, first[p], first[p + 1], given, giver, info):
                return _fail(fns, row)
        shift = start[p] - indptr[u]  # arc a of row u is visited arc a + shift
        end = deg[p + 1]
        for j in range(deg[p], end):  # the row's kept arcs only
            if j + 8 < end:
                _prefetch(copy_at[kept[j + 8] + shift])
            if j + 8 < m:
                _prefetch_row(info, heads[kept[j + 8]])
            a = kept[j]
            copy = copy_at[a + shift]
            if copy == 0:  # the edge's copy comes from an earlier row
                continue
            h = heads[a]
            bad = _call4(fns[SET], row, info[h, LABEL], copy, info[h, HASH])
            _decref(fns[DECREF], copy)  # the row's now (or freed if bad)
            copy_at[a + shift] = 0
            if bad:
                return _fail(fns, row)
            if directed or info[h, POS] > p:
                at = info[h, FILL]
                given[at] = copy
                giver[at] = u
                info[h, FILL] = at + 1
        if _put(fns, adj_out, info[u, LABEL], row, info[u, HASH]):
            return _fail(fns, 0)
    if directed:  # predecessors, in visiting order of the tails
        for q in range(k):
            row = _call1(fns[PRESIZED], first[q + 1] - first[q])
            if row == 0:
                return _fail(fns, 0)
            if _entries(fns, row, first[q], first[q + 1], given, giver, info):
                return _fail(fns, row)
            v = visit[q]
            if _put(fns, pred_out, info[v, LABEL], row, info[v, HASH]):
                return _fail(fns, 0)
    return 0


def _rows_worth_workers(deg: np.ndarray) -> bool:
    """Whether :mod:`._parallel_rows` should make the rows (kept arcs per row: ``deg``,
    cumulative): always where it makes them by workers (``rows_forged``), else when they are
    long enough on average (see its ``ENTRIES_PER_ROW``)."""
    from . import _parallel_rows

    rows = deg.size - 1
    long_rows = deg[-1] >= _parallel_rows.ENTRIES_PER_ROW * rows
    return rows > 0 and (long_rows or _parallel_rows.rows_forged())


def build_graph(
    H,
    fns: np.ndarray,
    visit: np.ndarray,
    indptr: np.ndarray,
    heads: np.ndarray,
    arc_keep: np.ndarray | None,
    addresses: np.ndarray,
    start: np.ndarray,
    node_data: np.ndarray,
    labels: np.ndarray | None,
    hashes: np.ndarray,
    source_nodes: dict | None = None,
) -> bool:
    """Fill the empty NetworkX graph ``H`` (``Graph`` or ``DiGraph``) with the nodes ``visit``
    (dense ids, in order) and the kept arcs between them.

    ``indptr``/``heads``: the source's rows in NetworkX's adjacency order (dense ids);
    ``arc_keep``: a mask over those arcs (None: all); ``addresses``: the data dicts of the arcs
    of the rows ``visit``, row after row, that of row ``visit[p]`` from ``start[p]``;
    ``node_data``: each node's attribute dict; ``labels``: each node's label object (None: the
    labels are ``0..n-1``, made here); ``hashes``: the labels' hashes, distinct;
    ``source_nodes``: the source's node dict (``G._node``, its entries the dense ids in order),
    whose table ``H._node`` is cloned from where every node is kept in that order (see
    :func:`_put_node_copies`). Every object at those addresses must stay alive during the call
    (the caller holds the source graph).
    ``H``'s node and adjacency dicts are replaced by ones sized for ``visit``. An undirected
    graph's rows averaging ``_parallel_rows.ENTRIES_PER_ROW`` entries or more are written by
    parallel workers (:func:`._parallel_rows.fill_rows`); the others one at a time. The caller
    pauses the collector (:class:`._common.gc_paused`).

    Returns
    -------
    bool
        False when an attribute or data dict is not a plain ``dict`` (``H`` is then
        incomplete: build it another way).

    Raises
    ------
    MemoryError
        When CPython could not allocate a dict (``H`` is then incomplete).
    """
    visit = np.ascontiguousarray(visit, dtype=np.int64)
    made = labels is None
    given = np.zeros(0, np.int64) if made else np.ascontiguousarray(labels, dtype=np.int64)
    if not made and given.shape != hashes.shape:
        raise ValueError(f"{given.size} labels for {hashes.size} node hashes")
    info = _node_info(visit, np.ascontiguousarray(hashes, dtype=np.int64), given)
    keep = np.zeros(0, np.bool_) if arc_keep is None else np.ascontiguousarray(arc_keep, np.bool_)
    if made and _new_ints(fns, visit, info):
        raise MemoryError("could not allocate the node labels")
    try:
        directed = H.is_directed()
        # H's (empty) tables replaced by ones sized for the kept nodes: no resize while they fill
        H._node, H._adj = empty_dict_for(visit.size), empty_dict_for(visit.size)
        if directed:
            H._pred = empty_dict_for(visit.size)
            H._succ = H._adj  # (NetworkX's descriptors also keep them one object)
        from ._parallel_copies import by_workers, copy_data_dicts  # (they import this module)

        if by_workers(visit.size):  # the attribute dicts copied by workers first, then put
            node_copies = np.zeros(visit.size, dtype=np.int64)
            try:
                done = copy_data_dicts(fns, np.arange(visit.size), gather(node_data, visit),
                                       node_copies)  # fmt: skip
                if done == 0:
                    done = _put_node_copies(fns, H, source_nodes, visit, node_copies, info)
            finally:
                _release_all(fns, node_copies)  # the copies not put (after an error)
        else:  # one pass (2 cores, grid:708: 43-65 ms; in two, the puts alone took 21-34 ms)
            done = _nodes(fns, id(H._node), visit, node_data, info)
        if done == 0:
            copy_at = np.zeros(start[-1], dtype=np.int64)
            try:
                deg, kept, arcs, found = _plan(visit, info, indptr, heads, keep, addresses,
                                               start, directed)  # fmt: skip
                done = copy_data_dicts(fns, arcs, found, copy_at)
                one_at_a_time = done == 0
                if one_at_a_time and not directed and DIRECT_REFCOUNTS and _rows_worth_workers(deg):
                    from ._parallel_rows import fill_rows

                    done = fill_rows(fns, H._adj, H._node, visit, _column(info, POS), heads,
                                     kept, deg, copy_at, start, indptr,
                                     _columns(info, LABEL, HASH))  # fmt: skip
                    one_at_a_time = done == 1  # no table template: one row at a time
                if one_at_a_time:
                    first = _cursors(visit, info, heads, kept, deg, directed)
                    pred = id(H._pred) if directed else 0
                    done = _rows(fns, id(H._adj), pred, visit, info, indptr, heads, copy_at,
                                 start, deg, kept, first, directed)  # fmt: skip
            finally:
                _release_all(fns, copy_at)  # the copies no row took (after an error)
        if done == -1:
            raise MemoryError("could not allocate the result graph's dicts")
        return done == 0
    finally:
        if made:
            _release_labels(fns, visit, info)
