"""The order NetworkX's component sets iterate in, where it differs from the backend's sets.

NetworkX builds each connected (or weakly connected) component as one Python ``set``, adding
the nodes one at a time in the order of its breadth-first search (``_plain_bfs``: the first
node, then each level's nodes as their rows in ``G._adj`` reach them; a directed graph's
rows of ``_succ`` then ``_pred``). A set iterates in the order of its hash table, which
depends on that order wherever two keys compete for a slot. The backend's fast sets (the
members in id order, the largest component from the node dict's keys in parallel) are equal
to NetworkX's but iterate alike only where no two keys ever compete: the labels are the ints
``0..n-1`` (a label is its own hash) and every key of a component sits in its own home slot
of the final table (:func:`order_free`). Elsewhere (``str``, tuple or scattered ``int``
labels, or a component whose ids span more than its table) the members are put in
NetworkX's search order by a compiled search over the rows in NetworkX's order
(:func:`search_orders`) and the sets are built by adding them in that order, as NetworkX does.

The table sizes are CPython's (``Objects/setobject.c``, the rules :mod:`._set_order` replays
and checks against the running Python): a set grows from 8 slots once ``fill * 5 >= mask *
3``, to the power of two above ``4 * used`` (``2 * used`` past 50,000 keys); ``set(d)`` of a
dict is sized at once to the power of two above ``2 * len(d)``.
"""

from __future__ import annotations

import functools
from typing import Any

import numba as nb
import numpy as np
from numba import prange

from ..cpu.prefetch import prefetch_address as _prefetch
from ._dict_layout import _i64, _prefetch_entries
from ._dict_reach import _take_row

__all__ = ["grown_mask", "order_free", "search_orders", "spans"]


@functools.cache
def _growth_steps(limit: int = 1 << 40) -> tuple[np.ndarray, np.ndarray]:
    """``(keys, mask)``: after adding ``keys[i]`` keys one at a time the table's mask becomes
    ``mask[i]`` (the resizes, in order), up to ``limit`` keys."""
    keys, masks = [0], [7]
    mask, fill = 7, 0
    while fill < limit:
        fill = -(-mask * 3 // 5)  # (the first fill with fill * 5 >= mask * 3)
        used = fill * 2 if fill > 50000 else fill * 4
        size = 8
        while size <= used:
            size <<= 1
        mask = size - 1
        keys.append(fill)
        masks.append(mask)
    return np.array(keys, dtype=np.int64), np.array(masks, dtype=np.int64)


def grown_mask(keys: Any) -> np.ndarray:
    """The mask (slots - 1) of a set's table after ``keys`` keys were added one at a time.

    Examples
    --------
    >>> grown_mask([0, 4, 5, 18, 19, 1000]).tolist()
    [7, 7, 31, 31, 127, 2047]
    """
    steps, masks = _growth_steps()
    return masks[np.searchsorted(steps, np.asarray(keys, dtype=np.int64), side="right") - 1]


def _presized_mask(keys: np.ndarray) -> np.ndarray:
    """The mask of ``set(d)`` for a dict of ``keys`` keys (:func:`._keyset._table_slots`)."""
    keys = np.asarray(keys, dtype=np.int64)
    bits = np.ceil(np.log2(2 * keys + 1)).astype(np.int64)  # (the power of two above 2 * keys)
    slots = np.where(keys * 5 < 21, 8, np.left_shift(1, bits))
    return slots - 1


@nb.njit(cache=True)
def spans(labels, count, hashes):  # pragma: no cover - compiled
    """Each component's first id, smallest and largest key hash and size (``labels``: one
    per id; ``hashes``: each id's label hash, or empty: the ids themselves)."""
    first = np.full(count, labels.size, dtype=np.int64)
    lo = np.full(count, np.iinfo(np.int64).max, dtype=np.int64)
    hi = np.full(count, np.iinfo(np.int64).min, dtype=np.int64)
    size = np.zeros(count, dtype=np.int64)
    for v in range(labels.size):
        c = labels[v]
        h = hashes[v] if hashes.size else v
        first[c] = min(first[c], v)
        lo[c] = min(lo[c], h)
        hi[c] = max(hi[c], h)
        size[c] += 1
    return first, lo, hi, size


def order_free(lo: Any, hi: Any, size: Any, presized: Any = False) -> np.ndarray:
    """Per component (smallest key hash ``lo``, largest ``hi``, ``size`` distinct hashes;
    for the labels ``0..n-1`` the ids): whether the set the backend builds iterates as
    NetworkX's, however the members are added. A set grown one key at a time
    (:func:`._common._small_sets`) reaches NetworkX's table size; its keys then lie in
    distinct home slots when their hashes span no more than the table. A ``presized`` one
    (the largest component, made from the node dict's keys at once,
    :func:`._keyset.key_set`) may have another size: its hashes must lie below both tables'
    sizes (each key in its home slot, in rising order in both).

    Examples
    --------
    >>> order_free([0, 10, 14, 100], [3, 12, 30, 130], [4, 3, 3, 31]).tolist()
    [True, True, False, True]
    >>> order_free([100], [130], [31], presized=True).tolist()  # (ids 100..130 in 64 slots)
    [False]
    """
    lo, hi, size = (np.asarray(a, dtype=np.int64) for a in (lo, hi, size))
    grown = grown_mask(size)
    ascending = (lo >= 0) & (hi <= np.minimum(grown, _presized_mask(size)))
    return np.where(presized, ascending, (lo >= 0) & (hi - lo <= grown))


@nb.njit(cache=True, inline="always")
def _visit(row_ptr, row_heads, v, seen, out, tail):  # pragma: no cover - compiled
    """Append ``v``'s unseen neighbours of one CSR row set to ``out`` from ``tail``, in row
    order; the new tail, or -1 when ``out`` is full first."""
    for p in range(row_ptr[v], row_ptr[v + 1]):
        w = row_heads[p]
        if seen[w] == 0:
            if tail >= out.shape[0]:
                return -1
            seen[w] = 1
            out[tail] = w
            tail += 1
    return tail


@nb.njit(cache=True, inline="always")
def _prefetch_queued_rows(rows, dict_type, out, head, tail):  # pragma: no cover - compiled
    """The rows of the nodes queued ahead of ``out[head]`` lie scattered: fetch the dict of
    the node 32 ahead, the key table header of the one 16 ahead and the entries of the one 8
    ahead (their headers fetched 8 nodes before), so that reading each row is not a chain of
    serialized misses."""
    if head + 32 < tail:
        _prefetch(rows[out[head + 32]])
    if head + 16 < tail:
        d = rows[out[head + 16]]
        if _i64(d + 8) == dict_type:
            _prefetch(_i64(d + 32))
    if head + 8 < tail:
        d = rows[out[head + 8]]
        if _i64(d + 8) == dict_type:
            _prefetch_entries(d)


@nb.njit(cache=True, inline="always")
def _search(csr, dicts, s, base, out, seen):  # pragma: no cover - compiled
    """NetworkX's ``_plain_bfs`` from ``s`` (not seen yet), its nodes written to ``out`` from
    ``base`` in the order NetworkX adds them (see :func:`_orders` for ``csr`` and ``dicts``);
    the end of what it wrote, or -1 when ``out`` is too short or a row cannot be read in
    place."""
    indptr, heads, pindptr, pheads = csr
    rows, pred_rows, dict_type, direct, keys, ids, bits = dicts
    n = seen.size
    mask = (np.int64(1) << bits) - 1
    shift = np.uint64(64 - bits)
    seen[s] = 1
    out[base] = s
    head, tail = base, base + 1
    while head < tail:
        v = out[head]
        if rows.size:
            _prefetch_queued_rows(rows, dict_type, out, head, tail)
            if pred_rows.size:
                _prefetch_queued_rows(pred_rows, dict_type, out, head, tail)
        head += 1
        if rows.size:
            tail = _take_row(rows[v], dict_type, direct, n, keys, ids, mask, shift, seen, out,
                             tail)  # fmt: skip
            if tail >= 0 and pred_rows.size:
                tail = _take_row(pred_rows[v], dict_type, direct, n, keys, ids, mask, shift,
                                 seen, out, tail)  # fmt: skip
        else:
            tail = _visit(indptr, heads, v, seen, out, tail)
            if tail >= 0 and pindptr.size:
                tail = _visit(pindptr, pheads, v, seen, out, tail)
        if tail < 0:
            return -1
    return tail


@nb.njit(cache=True, parallel=True)
def _orders(csr, dicts, starts, bounds, seen, out, tails):  # pragma: no cover - compiled
    """NetworkX's ``_plain_bfs`` from each of ``starts`` (components apart, so the searches
    share ``seen``), writing component ``c``'s nodes in the order NetworkX adds them to
    ``out[bounds[c]:bounds[c + 1]]``. The rows: ``csr`` (``indptr, heads, pindptr, pheads``)
    or, where ``dicts[0]`` (row dict addresses) is not empty, the dicts read in place
    (``dicts``: ``rows, pred_rows, dict_type, direct, keys, ids, bits``, as
    :func:`._dict_reach._take_row` reads them). A directed graph's ``_pred`` row (``pindptr``
    or ``pred_rows`` not empty) is read after each node's ``_succ`` row. ``tails[c]``: where
    search ``c`` ended, or -1 when its component is larger than its stretch or a row cannot
    be read in place (that search stopped)."""
    for c in prange(starts.size):
        tails[c] = _search(csr, dicts, starts[c], bounds[c], out[: bounds[c + 1]], seen)


_NO_INTS = np.zeros(0, dtype=np.int64)
#: The dict arguments of :func:`_orders` when the rows are a CSR.
_NO_DICTS = (_NO_INTS, _NO_INTS, 0, False, _NO_INTS, np.zeros(0, dtype=np.int32), 1)


def _run_orders(csr: tuple, dicts: tuple, n: int, starts: Any, sizes: Any):
    """(the orders, which searches did not fill their stretch exactly, the stretches'
    bounds) of :func:`_orders`."""
    starts = np.ascontiguousarray(starts, dtype=np.int64)
    bounds = np.zeros(starts.size + 1, dtype=np.int64)
    np.cumsum(sizes, out=bounds[1:])
    out = np.empty(int(bounds[-1]), dtype=np.int64)
    tails = np.zeros(starts.size, dtype=np.int64)
    _orders(csr, dicts, starts, bounds, np.zeros(n, dtype=np.uint8), out, tails)
    return out, tails != bounds[1:], bounds


@nb.njit(cache=True)
def _every_order(csr, seen, out, bounds):  # pragma: no cover - compiled
    """NetworkX's whole loop: from each node in order not seen yet, its search
    (:func:`_search` over the CSR ``csr``); the components' nodes in order into ``out``,
    where each starts into ``bounds``. Returns how many components."""
    count, tail = 0, 0
    for s in range(seen.size):
        if not seen[s]:
            bounds[count] = tail
            count += 1
            tail = _search(csr, _NO_DICTS, s, tail, out, seen)
    bounds[count] = tail
    return count


def _checked_rows(rows: tuple, pred_rows: tuple | None) -> tuple[tuple, int]:
    """``((indptr, heads, pindptr, pheads), n)`` as the compiled searches read them (int64,
    contiguous; no ``_pred`` rows: empty), or ``ValueError`` for rows they would read out of
    bounds (offsets not rising from 0 to the number of heads, a head not a node, ``_pred``
    rows of another node count)."""
    csr = []
    for which, pair in enumerate((rows, pred_rows)):
        if pair is None:
            csr += [_NO_INTS, _NO_INTS]
            continue
        indptr, heads = (np.ascontiguousarray(a, dtype=np.int64) for a in pair)
        n = indptr.size - 1
        if (
            n < 0
            or indptr[0] != 0
            or indptr[-1] != heads.size
            or (np.diff(indptr) < 0).any()
            or (heads.size and (int(heads.min()) < 0 or int(heads.max()) >= n))
            or (which == 1 and n != csr[0].size - 1)
        ):
            raise ValueError("rows must be CSR offsets rising from 0 to len(heads) and heads in "
                             "[0, n), the _pred rows of as many nodes")  # fmt: skip
        csr += [indptr, heads]
    return tuple(csr), csr[0].size - 1


def every_component_order(rows: tuple, pred_rows: tuple | None) -> tuple[np.ndarray, np.ndarray]:
    """Every component's nodes in the order NetworkX's loop adds them (components by first
    node, each in its search's order) and where each starts: one sequential pass, for labels
    whose sets all need that order.

    Examples
    --------
    >>> import numpy as np
    >>> rows = (np.array([0, 1, 1, 3, 4]), np.array([2, 0, 3, 2]))  # 0-2-3, 1
    >>> [a.tolist() for a in every_component_order(rows, None)]
    [[0, 2, 3, 1], [0, 3, 4]]
    """
    csr, n = _checked_rows(rows, pred_rows)
    out = np.empty(n, dtype=np.int64)
    bounds = np.empty(n + 1, dtype=np.int64)
    count = _every_order(csr, np.zeros(n, dtype=np.uint8), out, bounds)
    return out, bounds[: count + 1].copy()


def search_orders(rows: tuple, pred_rows: tuple | None, starts: Any, sizes: Any) -> np.ndarray:
    """The members of the components found from ``starts`` (one node each, ``sizes``
    members), each in the order NetworkX's search adds them, one component after another.

    Parameters
    ----------
    rows : tuple
        ``(indptr, heads)``: the rows (``_adj``, or a directed graph's ``_succ``) in
        NetworkX's adjacency order.
    pred_rows : tuple or None
        A directed graph's ``_pred`` rows in NetworkX's order (weak components), else None.
    starts, sizes : array_like
        The node each search starts from and how many nodes its component has (the searches
        run in parallel, each writing its own stretch).

    Raises
    ------
    ValueError
        When a start is not a node, or a search reaches another number of nodes than its
        size (nothing is written outside the result).

    Examples
    --------
    >>> import numpy as np
    >>> rows = (np.array([0, 2, 3, 4, 5]), np.array([2, 1, 0, 0, 3]))  # 0: 2 1; 3: 3
    >>> search_orders(rows, None, [0, 3], [3, 1]).tolist()
    [0, 2, 1, 3]
    """
    csr, n = _checked_rows(rows, pred_rows)
    starts = np.asarray(starts, dtype=np.int64)
    if starts.size and (int(starts.min()) < 0 or int(starts.max()) >= n):
        raise ValueError(f"search_orders: starts must be node ids in [0, {n})")
    out, short, bounds = _run_orders(csr, _NO_DICTS, n, starts, sizes)
    if short.any():
        c = int(np.argmax(short))
        raise ValueError(f"search_orders: the search from {int(starts[c])} does not reach "
                         f"{int(bounds[c + 1] - bounds[c])} nodes exactly")  # fmt: skip
    return out


# ------------------------------------------------------------ the backend's graphs
def _hash_view(W) -> tuple[bool, np.ndarray | None]:
    """``(ids, hashes)``: whether the converted graph's labels hash as their ids ``0..n-1``
    (the ints ``0..n-1`` in order; on a deferred conversion whose labels were not read, as the
    in-place components pass found the node hashes, else read in place), else the labels'
    distinct hashes by id where known (:func:`._common.label_hashes`); ``(False, None)`` when
    this Python's sets do not grow as :func:`grown_mask` has it (:func:`._set_order.available`).
    Only the hashes matter: distinct keys never meet an equality test, so they alone place
    each key."""
    from ._common import label_hashes
    from ._dict_probes import int_range_keys
    from ._set_order import available

    if not available(len(W)):
        return False, None
    if W.labels_unread:
        ids = W.__dict__.get("_hashes_are_positions")
        return bool(int_range_keys(W.pending._node) if ids is None else ids), None
    if W.identity:
        return True, None
    return False, label_hashes(W)


def _nx_rows(W) -> tuple[np.ndarray, np.ndarray]:
    """The rows (``_adj`` or ``_succ``) in NetworkX's adjacency order."""
    from ._common import host

    return host(W.any_order.indptr), W.nx_order


def nx_pred_rows(W) -> tuple[np.ndarray, np.ndarray]:
    """A directed graph's ``_pred`` rows in NetworkX's order (their order is not kept by the
    conversion: read from the source graph's dicts, in place where they can be), cached on
    ``W``. Without a source graph (a converted graph passed in) the reversed arcs in id
    order: no NetworkX order is owed then."""
    from itertools import chain

    from . import _cpython as raw
    from ._common import host
    from .components import _transpose

    got = W._placed.get("nx_pred_rows")
    if got is not None:
        return got
    src = W.source
    if src is None:
        rev = _transpose(W)
        got = host(rev.indptr), host(rev.indices)
    else:
        found = raw.graph_adjacency(src._node, src._pred)
        if found is not None:
            got = found[2].indptr, found[2].ids
        else:  # (labels sharing a hash, or dicts not read in place: one look-up per arc)
            rows = list(map(src._pred.__getitem__, W.nodes))
            indptr = np.zeros(len(rows) + 1, dtype=np.int64)
            np.cumsum(np.fromiter(map(len, rows), np.int64, len(rows)), out=indptr[1:])
            index = W.index
            ids = np.fromiter(map(index.__getitem__, chain.from_iterable(rows)), np.int64,
                              int(indptr[-1]))  # fmt: skip
            got = indptr, ids
    W._placed["nx_pred_rows"] = got
    return got


def _searched(W, starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """:func:`search_orders` over ``W``'s rows in NetworkX's order: read in place where
    ``W`` is a deferred conversion of a plain ``Graph`` (its labels adopted, so positions
    are ids), else converted."""
    import networkx as nx

    P = W.pending
    if P is not None and type(P) in (nx.Graph, nx.DiGraph) and not W.labels_unread:
        found = search_orders_in_place(P, starts, sizes)
        if found is not None:
            return found
    pred = nx_pred_rows(W) if W.is_directed() else None
    return search_orders(_nx_rows(W), pred, starts, sizes)


def _whole_in_search_order(W, node: Any) -> set:
    """The set of every node of the connected ``W``, its keys added in the order of
    NetworkX's search from ``node`` (None: NetworkX's first node): on the dicts in place
    where ``W`` is a deferred conversion of a plain ``Graph`` whose labels were not read (the
    set made of ``_adj``'s own keys), else on the conversion."""
    import networkx as nx

    from ._common import _small_sets

    P = W.pending
    if P is not None and type(P) in (nx.Graph, nx.DiGraph) and W.labels_unread:
        found = search_orders_in_place(P, None, None, from_node=node)
        if found is not None:
            return keys_set(P._adj, found)
    n = len(W)
    source = 0 if node is None else W.find(node)
    bounds = np.array([0, n], dtype=np.int64)
    return _small_sets(W, _searched(W, np.array([source]), bounds[1:]), bounds)[0]


def component_sets(W, labels: np.ndarray | None, count: int) -> list[set]:
    """NetworkX's (weakly) connected components of the converted graph ``W`` as sets that
    iterate as NetworkX's: ``labels`` one per id (canonical: component ``c`` is the ``c``-th
    by its first node; None for one component), ``count`` components. Components whose sets
    would iterate otherwise (:func:`order_free`) get their members in NetworkX's search order
    (:func:`search_orders`), and then every set is built one key at a time."""
    from ._common import NATIVE_MIN, _grouped, _small_sets, every_node_set, label_sets

    n = len(W)
    if count == 0:
        return []
    ids, hashes = _hash_view(W)
    if labels is None:
        lo, hi = (0, n - 1) if hashes is None else (int(hashes.min()), int(hashes.max()))
        if (ids or hashes is not None) and order_free([lo], [hi], [n], presized=True)[0]:
            return [every_node_set(W)]
        return [_whole_in_search_order(W, None)]
    labels = np.ascontiguousarray(labels, dtype=np.int64)
    keyed = _NO_INTS if hashes is None else np.ascontiguousarray(hashes, dtype=np.int64)
    first, lo, hi, size = spans(labels, count, keyed)
    free = np.zeros(count, dtype=np.bool_)
    if ids or hashes is not None:
        presized = np.zeros(count, dtype=np.bool_)  # (label_sets' largest: from the node dict)
        big = int(np.argmax(size))
        presized[big] = n >= NATIVE_MIN and 2 * int(size[big]) > n
        free = order_free(lo, hi, size, presized)
    if free.all():
        return label_sets(W, labels, count)
    members, bounds = _grouped(labels, count)
    todo = np.flatnonzero(~free)
    at = np.repeat(bounds[todo], size[todo]) + _ranks(size[todo])
    members[at] = _searched(W, first[todo], size[todo])
    return _small_sets(W, members, bounds)


def _ranks(sizes: np.ndarray) -> np.ndarray:
    """``0..s-1`` for each ``s`` in ``sizes``, one after another."""
    total = int(sizes.sum())
    starts = np.repeat(np.cumsum(sizes) - sizes, sizes)
    return np.arange(total, dtype=np.int64) - starts


def component_of(W, node: Any, members: np.ndarray | None) -> set:
    """``node_connected_component``'s set of ``node``: NetworkX searches from that node, so
    its set iterates in the order of that search where the members' order matters
    (:func:`order_free`). ``members``: the component's ids in rising order (None: every
    node, the graph connected)."""
    from ._common import NATIVE_MIN, _small_sets, every_node_set, node_sets

    n = len(W)
    k = n if members is None else members.size
    ids, hashes = _hash_view(W)
    if hashes is not None:
        keyed = hashes if members is None else hashes[members]
        lo, hi = (int(keyed.min()), int(keyed.max())) if k else (0, 0)
    else:
        lo, hi = (0, n - 1) if members is None else (int(members[0]), int(members[-1]))
    presized = n >= NATIVE_MIN and 2 * k > n  # (node_sets' largest: from the node dict)
    if (ids or hashes is not None) and order_free([lo], [hi], [k], presized=presized)[0]:
        if members is None:
            return every_node_set(W)
        return node_sets(W, members, np.array([0, k]))[0]
    if members is None:
        return _whole_in_search_order(W, node)
    bounds = np.array([0, k], dtype=np.int64)
    return _small_sets(W, _searched(W, np.array([W.find(node)]), bounds[1:]), bounds)[0]


def smallest_mask(keys: int) -> int:
    """The smallest mask any CPython set of ``keys`` keys can have (it keeps ``fill * 5 <
    mask * 3``): keys whose hashes are at most this sit in their home slots in every such
    table, so they iterate in rising order however the set was built.

    Examples
    --------
    >>> smallest_mask(4), smallest_mask(5), smallest_mask(100)
    (7, 15, 255)
    """
    mask = 7
    while mask * 3 <= 5 * keys:
        mask = 2 * mask + 1
    return mask


def ints_in_home_slots(found: set) -> bool:
    """Whether the set ``found`` lists its keys in rising order however it was built (an
    empty one: yes): every
    key a non-negative ``int`` (its own hash) below the smallest table any set of that many
    keys can have (CPython keeps ``fill * 5 < mask * 3``), so each sits in its home slot in
    NetworkX's table and in this one alike.

    Examples
    --------
    >>> ints_in_home_slots({3, 0, 7}), ints_in_home_slots({3, 9}), ints_in_home_slots({"a"})
    (True, False, False)
    """
    if not found:
        return True  # (nothing to list)
    if not all(type(v) is int for v in found):
        return False
    return min(found) >= 0 and max(found) <= smallest_mask(len(found))


def _next_layer(adj: Any, level: list, seen: set) -> list:
    """NetworkX's next BFS layer: each node's unseen neighbours in row order (marked seen)."""
    following = []
    for v in level:
        for w in adj[v]:
            if w not in seen:
                seen.add(w)
                following.append(w)
    return following


def python_search(adj: Any, source: Any, with_source: bool) -> set:
    """NetworkX's own set: the nodes its breadth-first search from ``source`` over the rows
    ``adj`` adds, in that order (``with_source``: ``_plain_bfs``'s set, the source first;
    else ``descendants``' set comprehension over ``bfs_edges``). Python's steps, as
    NetworkX's: for results searched on the dicts in place and small."""
    seen = {source}
    added = []
    level = [source]
    while level:
        level = _next_layer(adj, level, seen)
        added += level
    return seen if with_source else set(added)


def python_layer(adj: Any, source: Any, depth: int) -> set:
    """NetworkX's ``descendants_at_distance``: ``set(layer)`` of ``bfs_layers``' layer
    ``depth`` (its nodes added in the layer's order), empty when the search ends first."""
    seen = {source}
    level = [source]
    for _ in range(depth):
        level = _next_layer(adj, level, seen)
        if not level:
            return set()
    return set(level)


def set_in_search_order(found: set, adj: dict, source: Any) -> set:
    """The component ``found`` (searched on the dicts in place, its set's layout that of
    the search's own) as NetworkX's ``_plain_bfs`` from ``source`` builds it, unless its keys
    sit in their home slots whichever way it was built (the search's presized set of all but
    ``source``, then ``source`` added). Otherwise NetworkX's search is run again over the
    component only: compiled for int and str labels (:func:`._short_reach.reach`, its set
    built in that search's order), else NetworkX's Python steps."""
    from . import _short_reach

    if ints_in_home_slots(found):
        return found
    again = _short_reach.reach(adj, source, len(found), with_source=True)
    if again is not _short_reach.UNREADABLE and again is not _short_reach.GAVE_UP:
        return again
    return python_search(adj, source, with_source=True)


def keys_set(table: dict, positions: np.ndarray) -> set:
    """The set of ``table``'s keys at ``positions``, added in that order: by one compiled
    loop over the keys' addresses where the C API allows (:func:`._capi_nodes.node_sets`),
    else in Python."""
    from . import _capi, _capi_nodes, _dict_probes

    api = _capi.api()
    addresses = None if api is None else _dict_probes.key_addresses(table, at=positions)
    if addresses is not None:  # (the keys at the positions, in order: members 0..k-1)
        k = positions.size
        made = _capi_nodes.node_sets(api.fns, np.arange(k), np.array([0, k]), addresses)
        if made is not None:
            return made[0]
    keys = list(table)
    return set(map(keys.__getitem__, positions.tolist()))


#: :func:`reached_in_place` given the nodes found: their rows are read by all threads into a
#: CSR of those nodes alone and searched in NetworkX's order there, rather than searched
#: again one row at a time on the dicts (each row a chain of misses on one thread).
ORDER_FROM_ROWS_READ = True


def reached_in_place(
    rows_of: dict, source: Any, count: int, tables: Any = None, found: Any = None
) -> set | None:
    """NetworkX's ``descendants`` / ``ancestors`` set of the ``count`` nodes ``source``
    reaches through the row dict ``rows_of`` (``_succ``, ``_pred`` or ``_adj``) with its keys
    added in NetworkX's search order; None where the dicts cannot be read so. ``found``: the
    positions of those nodes (any order), where ``rows_of``'s keys hash as their positions
    (``tables``: what :func:`._cpython.row_tables` read of it, if the caller has it): their
    rows are read in parallel and searched (:func:`reached_order`); otherwise the dicts are
    searched again in place in that order (:func:`search_orders_in_place`)."""
    order = None
    if found is not None and ORDER_FROM_ROWS_READ:
        if tables is None:  # (the read the search of the dicts would make)
            from . import _cpython as raw

            tables = raw.row_tables(rows_of, 1)
        if tables is not None and tables.direct:
            order = reached_order(tables, hash(source), found)
    if order is None:
        order = search_orders_in_place(None, None, [count + 1], from_node=source,
                                       rows_of=rows_of, tables=tables)  # fmt: skip
    return None if order is None else keys_set(rows_of, order[1:])


@nb.njit(cache=True)
def _near_position_order(source, found, n):  # pragma: no cover - compiled
    """``source``, then the positions ``found`` (among ``n``) by blocks of ``n / 4096``
    positions in rising order (a counting sort: ~2 steps a node, where ``np.sort`` takes
    ~1 ms for 27k on 2 cores)."""
    shift = 0
    while (n >> shift) > 4096:
        shift += 1
    starts = np.zeros((n >> shift) + 2, dtype=np.int64)
    for p in found:
        starts[(p >> shift) + 2] += 1
    for b in range(2, starts.size):
        starts[b] += starts[b - 1]
    out = np.empty(found.size + 1, dtype=np.int64)
    out[0] = source
    for p in found:
        b = (p >> shift) + 1
        out[1 + starts[b]] = p
        starts[b] += 1
    return out


@nb.njit(cache=True)
def _local_heads(nodes, heads, local):  # pragma: no cover - compiled
    """``heads`` (positions) as indices into ``nodes`` (distinct positions), or an empty
    array when one is not among ``nodes``; ``local`` (one slot a position, any content) is
    the map, written at ``nodes`` only: a slot not written, or written by another call, is
    no match unless it holds the right index."""
    for i in range(nodes.size):
        local[nodes[i]] = i
    out = np.empty(heads.size, dtype=np.int64)
    for p in range(heads.size):
        h = heads[p]
        j = local[h]
        if not (0 <= j < nodes.size and nodes[j] == h):  # (unwritten memory is no match)
            return np.empty(0, dtype=np.int64)
        out[p] = j
    return out


#: The position-to-index map of :func:`reached_order`, kept for the next call (never
#: cleared: :func:`_local_heads` checks each slot it reads).
_LOCAL_SLOTS: list[np.ndarray] = []


def reached_order(tables: Any, source: int, found: np.ndarray) -> np.ndarray | None:
    """The positions ``source`` and ``found`` (the nodes it reaches in the outer dict that
    ``tables`` were read of, :func:`._cpython.row_tables`, keys hashing as their positions)
    in NetworkX's search order from ``source`` (``_plain_bfs``, each row in its dict's
    order): their rows read by all threads (:func:`._dict_reach.rows_of_nodes`), then one
    search of that small CSR. None where a row cannot be read so or reaches a node not among
    them (the graph changed: the caller searches the dicts).

    Examples
    --------
    >>> import networkx as nx
    >>> from warpgraph.nx import _cpython as raw
    >>> D = nx.DiGraph([(i, i + 1) for i in range(4999)] + [(4000, 10), (10, 3)])
    >>> tables = raw.row_tables(D._succ)
    >>> order = None if tables is None else reached_order(tables, 4001, np.arange(4002, 5000))
    >>> order is None or order.tolist() == [4001, *range(4002, 5000)]
    True

    Raises
    ------
    ValueError
        When ``source`` or ``found`` holds a position outside the tables' rows, or ``found``
        is not a 1-D array of integers.
    """
    from ._dict_reach import checked_positions, rows_of_nodes

    n = tables.rows.size
    found = checked_positions(found, n, "found")
    checked_positions([source], n, "source")
    # (nearly in position order: the rows were made, and lie, roughly in it; 2 cores,
    # grid:708's 27k rows read in the order found 1.9-3.5 ms, sorted 0.65-0.8 ms)
    nodes = _near_position_order(int(source), found, n)
    csr = rows_of_nodes(tables, nodes)
    if csr is None:
        return None
    indptr, heads = csr
    slots = _LOCAL_SLOTS.pop() if _LOCAL_SLOTS else np.empty(0, dtype=np.int32)
    if slots.size < n:  # (pages first touched on a new one: the map is kept between calls)
        slots = np.empty(n, dtype=np.int32)
    local = _local_heads(nodes, heads, slots)
    if slots.size <= 1 << 25:
        _LOCAL_SLOTS.append(slots)
    if local.size != heads.size:
        return None
    k = nodes.size
    out, short, _ = _run_orders((indptr, local, _NO_INTS, _NO_INTS), _NO_DICTS, k, [0], [k])
    return None if short.any() else nodes[out]


def set_if_order_free(W, members: np.ndarray) -> set | None:
    """The set of the dense ids ``members`` (not empty) built fast
    (:func:`._common.node_sets`) where it iterates as NetworkX's whatever order NetworkX adds
    them in (:func:`order_free`, with ``node_sets``' own table: presized for most of the
    nodes), else None."""
    from ._common import NATIVE_MIN, node_sets

    n, k = len(W), members.size
    ids, hashes = _hash_view(W)
    if not ids and hashes is None:
        return None
    keyed = members if hashes is None else hashes[members]
    presized = n >= NATIVE_MIN and 2 * k > n
    if not order_free([int(keyed.min())], [int(keyed.max())], [k], presized=presized)[0]:
        return None
    return node_sets(W, members, np.array([0, k]))[0]


def reached_set(W, source: int, reached: np.ndarray, rows: Any, rows_of: Any = None) -> set:
    """NetworkX's ``descendants`` / ``ancestors`` set of the dense ids ``reached`` (any
    order; ``source`` excluded): NetworkX adds them in its search's order, so where that order
    matters (:func:`order_free`) they are searched again in it and added so; otherwise built
    fast (:func:`set_if_order_free`). The search: on the row dict ``rows_of`` in place where given
    and readable so (:func:`reached_in_place`; dense ids are then its positions), else over
    ``rows()`` (NetworkX's order of the rows: ``_succ``, ``_pred`` or ``_adj``, a pair of CSR
    arrays; called only when needed, as it may convert ``W``)."""
    from ._common import _small_sets

    k = reached.size
    made = set_if_order_free(W, reached) if k else set()  # (any order: it is order-free)
    if made is None and rows_of is not None:
        made = reached_in_place(rows_of, W.nodes[source], k, found=reached)
    if made is None:
        order = search_orders(rows(), None, [source], [k + 1])[1:]
        made = _small_sets(W, order, np.array([0, k], dtype=np.int64))[0]
    return made


def layer_set(W, layer: np.ndarray) -> set:
    """``set(layer)`` of the dense ids ``layer`` in NetworkX's order (``bfs_layers``): built
    fast where the order does not matter (:func:`set_if_order_free`), else one key at a time
    in it."""
    from ._common import _small_sets

    if layer.size == 0:
        return set()
    made = set_if_order_free(W, layer)
    return made if made is not None else _small_sets(W, layer, np.array([0, layer.size]))[0]


# ------------------------------------------------------------ on the dicts in place
_BOTH = object()  # (search_orders_in_place: the graph's own rows)


def search_orders_in_place(
    G: Any, starts: Any, sizes: Any, *, from_node: Any = None, rows_of: Any = _BOTH,
    tables: Any = None,
) -> np.ndarray | None:  # fmt: skip
    """:func:`search_orders` of the NetworkX ``Graph`` or ``DiGraph`` ``G`` read from its
    ``_adj`` dicts (and ``_pred``'s, whose keys must hash as ``_adj``'s in the same order) in
    place (dense id: the position in ``_adj``), so that a graph not converted yet stays so;
    ``starts`` None: one search of every node (``G`` connected) from ``from_node`` (None:
    NetworkX's first node). ``rows_of``: one row dict searched alone instead (``_succ`` or
    ``_pred``: ``descendants``, ``ancestors``; positions are then its own), ``tables``: what
    :func:`._cpython.row_tables` read of it, if the caller has it. None where the
    dicts cannot be read so (the caller converts the graph, and the conversion's search then
    checks the sizes).
    """
    from . import _cpython as raw

    both = rows_of is _BOTH
    if tables is None:
        tables = raw.row_tables(G._adj if both else rows_of, 1)
    # (only dicts whose key hashes are their positions: other keys' nodes are found through a
    # hash table, and a str's hash read from the str object, one entry at a time; 2 cores,
    # urand:17's str labels: 78 ms in place against ~35 ms converted and searched)
    if tables is None or not tables.direct:
        return None
    hashes, dicts, direct, bits, keys, table_ids = tables
    n = dicts.size
    pdicts = np.zeros(0, dtype=np.int64)
    if both and G.is_directed():
        pred = raw.row_tables(G._pred, 1)
        if pred is None or pred.direct != direct or pred.rows.size != n:
            return None
        if not direct and not np.array_equal(pred.hashes, hashes):
            return None
        pdicts = pred.rows
    if starts is None:  # (NetworkX starts from the first node of _node)
        first = hash(next(iter(G._node)) if from_node is None else from_node)
        sizes = [n] if sizes is None else sizes
        at = [first] if direct else np.flatnonzero(hashes == first).tolist()
        if not at or not 0 <= at[0] < n:
            return None
        starts = [at[0]]
    dicts = (dicts, pdicts, id(dict), direct, keys, table_ids, bits)
    csr = (_NO_INTS, _NO_INTS, _NO_INTS, _NO_INTS)
    out, short, _ = _run_orders(csr, dicts, n, starts, sizes)
    return None if short.any() else out  # (a row not read so, or a wrong size: converted)


def labels_surely_not_ids(W) -> bool:
    """Whether ``W``'s sets will all need NetworkX's search order, known before any
    components pass: the labels were read and their hashes are unknown (:func:`_hash_view`), or on a
    deferred conversion whose labels were not read the first node is not an ``int`` (O(1)).
    Int labels in another order may still hash as the rows' positions: for them the
    components pass is made and each set is checked (:func:`component_sets`)."""
    if W.labels_unread:
        node = W.pending._node
        return bool(node) and type(next(iter(node))) is not int
    ids, hashes = _hash_view(W)
    return not ids and hashes is None


def every_component_set(W) -> list[set]:
    """NetworkX's components of ``W`` as sets built in NetworkX's order, all of them
    (:func:`every_component_order` over the conversion's rows in NetworkX's order): for
    labels whose sets all need it, with no components pass before (2 cores, grid:708 with
    ``str`` labels: the in-place pass, 38 ms, would only be thrown away)."""
    from ._common import _small_sets

    pred = nx_pred_rows(W) if W.is_directed() else None
    members, bounds = every_component_order(_nx_rows(W), pred)
    return _small_sets(W, members, bounds)
