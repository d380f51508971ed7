"""The nodes a source reaches in a NetworkX ``DiGraph``, searched on its dicts in place.

``descendants`` and ``ancestors`` need only the set of nodes reached: no order, no distances.
Converting the graph first (row lengths, the neighbour ids of every arc, a CSR, for
``ancestors`` its transpose) costs more than the search itself. Here a breadth-first search
reads the row dicts (``G._succ`` or ``G._pred``) where they lie, as :mod:`._dict_components`
does for the weak components: each entry's stored key hash is a node's position, directly for
the labels ``0..n-1`` and through a hash table otherwise (:func:`._cpython.hash_lookup`). A
layer of :data:`PARALLEL_LAYER` nodes or more is expanded in parallel, each node claimed by
compare-and-swap; a narrower one by one thread, its rows prefetched in layer order (a deep
graph such as a lattice has ~1,000 narrow layers, each too short to share), up to
:data:`SEQUENTIAL_ROWS` rows: a deep search of many nodes is cheaper converted. The set is made
from the keys of the same dict (:func:`._keyset.key_set`), its table written in parallel.

Only plain ``DiGraph`` dicts that :mod:`._cpython` reads, of :data:`MIN_NODES` or more, with
distinct node hashes; anything else returns None and the caller converts the graph.
"""

from __future__ import annotations

import operator

import numba as nb
import numpy as np
from numba import prange

from ..cpu.atomics import cas, fetch_add
from ..cpu.prefetch import prefetch_address as _prefetch
from . import _cpython as raw
from ._cpython import _entry, _i64, _position, _prefetch_rows_ahead, _table

__all__ = ["MIN_NODES", "PARALLEL_LAYER", "SEQUENTIAL_ROWS", "reach_flags"]

#: Fewer nodes than this are converted as before.
MIN_NODES = 4096
#: Layers of this many nodes or more are expanded by all threads (a parallel step costs
#: ~10-20 us to start: about what one thread spends on 100-200 rows).
PARALLEL_LAYER = 1024
#: Nodes a parallel step hands to each task.
_BLOCK = 256
#: The search gives up (and the caller converts the graph) once its narrow layers have taken
#: this many rows. Read one at a time in search order, a row costs ~220 ns (H200 host,
#: grid:708 oriented: 32k rows in 7.2 ms; on 2 cores rows read in a random order cost 2.5x
#: those read in the dict's order, which the conversion's scan reads in parallel) against
#: ~10 ns for a BFS of the converted graph, whose conversion costs 6-13 ms for 1M edges. So
#: a deep search of many nodes is cheaper converted, a short one in place, and this limit is
#: about where they break even: a search given up costs at most about twice the best of the
#: two. H200 host, first calls: grid:708 ``ancestors`` (27k nodes) 5 ms in place against
#: 9.5-15 ms converted; its ``descendants`` (295k nodes) 20 ms against 13 ms. At 4,096 rows
#: both went the other way (16-18 ms and 13-21 ms, a noisy lease).
SEQUENTIAL_ROWS = 1 << 15


@nb.njit(cache=True)
def _take_row(d, dict_type, direct, n, keys, ids, mask, shift, seen, out, k):  # pragma: no cover
    """Append to ``out`` from ``k`` the nodes of the row dict ``d`` not seen yet, claiming
    each; the new ``k``, or -1 when the row cannot be read so (not a plain combined dict,
    live entries other than its length, a key hash that is no node's, ``out`` full)."""
    if _i64(d + 8) != dict_type or _i64(d + 40) != 0:
        return -1
    entries, size, kind, count = _table(d)
    if size == 0:
        return -1
    live = 0
    for e in range(count):
        v, h = _entry(entries + size * e, kind)
        if v == 0:  # deleted entry
            continue
        live += 1
        if h == -1:
            return -1
        if direct:
            if not 0 <= h < n:
                return -1
            j = h
        else:
            j = _position(h, keys, ids, mask, shift)
            if j < 0:
                return -1
        if seen[j] == 0 and cas(seen, j, 0, 1) == 0:
            if k >= out.shape[0]:
                return -1
            out[k] = j
            k += 1
    return k if live == _i64(d + 16) else -1


@nb.njit(parallel=True, cache=True)
def _parallel_layer(
    layer, rows, dict_type, direct, n, keys, ids, mask, shift, seen, out, tail
):  # pragma: no cover - compiled
    """Expand ``layer`` by all threads: each task takes :data:`_BLOCK` of its nodes, sizes its
    buffer from their row lengths (fetching the dicts), gathers the new nodes of their rows
    (their tables prefetched as the sequential pass does), then reserves room for them at
    ``out[tail[0]:]``. Returns how many tasks met a row that cannot be read."""
    tasks = (layer.shape[0] + _BLOCK - 1) // _BLOCK
    bad = 0
    for t in prange(tasks):
        lo = np.int64(t) * _BLOCK
        dicts = rows[layer[lo : min(lo + _BLOCK, layer.shape[0])]]
        m = dicts.shape[0]
        room = 0
        for i in range(m):  # (this pass brings the dict objects in for the next)
            if i + 16 < m:
                _prefetch(dicts[i + 16])
            room += _i64(dicts[i] + 16) if _i64(dicts[i] + 8) == dict_type else 0
        found = np.empty(room, dtype=np.int64)
        k = 0
        for i in range(m):
            _prefetch_rows_ahead(dicts, i, m, dict_type)
            k = _take_row(dicts[i], dict_type, direct, n, keys, ids, mask, shift, seen, found, k)
            if k < 0:
                break
        if k < 0:
            bad += 1
            continue
        at = fetch_add(tail, 0, k)
        out[at : at + k] = found[:k]
    return bad


@nb.njit(cache=True)
def _search(
    rows, source, dict_type, direct, keys, ids, bits, parallel_layer, sequential_rows
):  # pragma: no cover - compiled
    """Flags of the nodes reached from position ``source`` (itself flagged), or an empty
    array when a row cannot be read so or the narrow layers took more than
    ``sequential_rows`` rows."""
    n = rows.shape[0]
    mask = (np.int64(1) << bits) - 1
    shift = np.uint64(64 - bits)
    seen = np.zeros(n, dtype=np.uint8)
    layer = np.empty(n, dtype=np.int64)
    following = np.empty(n, dtype=np.int64)
    tail = np.zeros(1, dtype=np.int64)
    seen[source] = 1
    layer[0] = source
    size = 1
    while size:
        if size >= parallel_layer:
            tail[0] = 0
            if _parallel_layer(layer[:size], rows, dict_type, direct, n, keys, ids, mask,
                               shift, seen, following, tail):  # fmt: skip
                return np.empty(0, dtype=np.uint8)
            k = tail[0]
        else:
            sequential_rows -= size
            if sequential_rows < 0:
                return np.empty(0, dtype=np.uint8)
            dicts = rows[layer[:size]]  # (gathered: their tables prefetched in order)
            k = 0
            for i in range(size):
                _prefetch_rows_ahead(dicts, i, size, dict_type)
                k = _take_row(dicts[i], dict_type, direct, n, keys, ids, mask, shift, seen,
                              following, k)  # fmt: skip
                if k < 0:
                    return np.empty(0, dtype=np.uint8)
        layer, following = following, layer
        size = k
    return seen


def reach_flags(
    rows_of: dict,
    source_hash: int,
    parallel_layer: int | None = None,
    sequential_rows: int | None = None,
) -> np.ndarray | None:
    """Flags (``bool``), one per entry of ``rows_of`` (a ``DiGraph``'s ``_succ`` or ``_pred``)
    in its order, of the nodes reached from the node whose hash is ``source_hash``, that node
    left out (as NetworkX leaves it out, even on a cycle), or None where the dicts cannot be
    read so or the search is deep (see the module docstring). ``parallel_layer`` and
    ``sequential_rows`` default to :data:`PARALLEL_LAYER` and :data:`SEQUENTIAL_ROWS`.

    Examples
    --------
    >>> import networkx as nx
    >>> D = nx.DiGraph(); D.add_edges_from((i, i + 1) for i in range(5000))
    >>> flags = reach_flags(D._succ, hash(4990))
    >>> flags is None or flags.nonzero()[0].tolist() == list(range(4991, 5001))
    True

    Raises
    ------
    TypeError
        When ``source_hash``, ``parallel_layer`` or ``sequential_rows`` is not an integer.
    ValueError
        When ``parallel_layer`` is below 1 or ``sequential_rows`` below 0.
    """
    parallel_layer = PARALLEL_LAYER if parallel_layer is None else operator.index(parallel_layer)
    sequential_rows = (
        SEQUENTIAL_ROWS if sequential_rows is None else operator.index(sequential_rows)
    )
    source_hash = operator.index(source_hash)
    if parallel_layer < 1:
        raise ValueError(f"parallel_layer must be at least 1, got {parallel_layer}")
    if sequential_rows < 0:
        raise ValueError(f"sequential_rows must not be negative, got {sequential_rows}")
    found = raw.row_tables(rows_of, MIN_NODES)
    if found is None:
        return None
    _, rows, direct, bits, keys, ids = found
    n = rows.shape[0]
    mask, shift = (1 << bits) - 1, np.uint64(64 - bits)
    source = source_hash if direct else int(_position(source_hash, keys, ids, mask, shift))
    if not 0 <= source < n:
        return None
    flags = _search(rows, source, id(dict), direct, keys, ids, bits, parallel_layer,
                    sequential_rows)  # fmt: skip
    if not flags.size:
        return None
    flags[source] = 0
    return flags.view(np.bool_)
