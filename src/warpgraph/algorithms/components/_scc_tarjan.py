"""Tarjan's SCC algorithm on the CPU (``scc_cpu(method="tarjan")``), in Pearce's one-pass form:
one index array, SCC ids counted down from n - 1, an explicit call stack (no recursion),
sequential."""

from __future__ import annotations

import numba as nb
import numpy as np

from ...errors import InvalidArgumentError


@nb.njit(cache=True, nogil=True)
def _pearce(indptr, indices, rindex, stack, call_v, call_p, root, backward, count_up):
    """Tarjan's SCC algorithm in Pearce's space-efficient form (one ``rindex`` array instead
    of index + lowlink + on-stack flag), with an explicit DFS call stack. Each row is scanned
    from its first stored arc, or from its last with ``backward`` (the SCCs are the same; the
    order they close in, and so their ids, follows the scan).

    ``rindex[v]``: 0 unvisited; while ``v`` is open, its DFS index (from 1) lowered to the
    smallest index it reaches; once its SCC is closed, the SCC's id, counted down from ``n``
    to 1 (ids stay above every open index, so closed vertices never lower one; 0 is never an
    id). A vertex without out-arcs is closed on sight (no frame). The vertex being scanned
    lives in local variables (its arc cursor, lowered index and root flag); the frames
    ``call_v``, ``call_p``, ``root`` hold only its ancestors, written when it descends and
    read when it returns (H200 host, the kernel alone: 5-10% faster than reloading the
    current frame each step).

    At the end ``rindex`` is turned into the labels in one pass: the SCCs numbered in the
    order they close, from 0 with ``count_up`` (SciPy's numbering), else from ``n - 1``
    down. Returns the number of SCCs.

    Early exit (as SciPy 1.18's search does for a strongly connected graph; Tarjan and Zwick,
    "Finding strong components using depth-first search", 2024): once every vertex has been
    reached, a vertex whose index drops to the index of its tree's root closes the search.
    Every open vertex then lies in the root's SCC (the path's vertices reach that vertex,
    which reaches the root; a stacked vertex waits for a root on the path), which would close
    last, so they all get the next id at once and the path is not unwound. On a lattice or a
    mesh, one SCC, this skips the unwinding: about half of the arcs and every stack push.
    """
    n = rindex.shape[0]
    step = -1 if backward else 1
    one = np.uint64(1)
    index = 1
    c = n
    sp = 0
    reached = 0  # vertices reached so far
    for s in range(n):
        if rindex[s] != 0:
            continue
        reached += 1
        if indptr[s] == indptr[s + 1]:
            rindex[s] = c
            c -= 1
            continue
        tree_root = index  # (no open vertex of this tree gets a smaller index)
        depth = 0  # frames of the current vertex's ancestors
        v = np.uint64(s)  # (unsigned: no negative-index fix-up per read)
        p = indptr[v + one] - 1 if backward else indptr[v]
        end = indptr[v] - 1 if backward else indptr[v + one]  # (one past the last arc read)
        rv = index
        isroot = True
        rindex[v] = index
        index += 1
        while True:
            while p != end:
                w = np.uint64(indices[p])
                p += step
                rw = rindex[w]
                if rw == 0:
                    first, last = indptr[w], indptr[w + one]
                    reached += 1
                    if first == last:  # a sink: an SCC of its own
                        rindex[w] = c
                        c -= 1
                        continue
                    call_v[depth] = v  # descend: v's frame is written, w's kept here
                    call_p[depth] = p
                    root[depth] = isroot
                    rindex[v] = rv
                    depth += 1
                    v = w
                    p, end = (last - 1, first - 1) if backward else (first, last)
                    rv = index
                    isroot = True
                    rindex[w] = index
                    index += 1
                    continue
                if rw < rv:
                    rv = rw
                    isroot = False
                    if rv == tree_root and reached == n:
                        rindex[v] = c
                        return _close_all_open(rindex, call_v, depth, stack, sp, c, count_up)
            if isroot:  # v closes an SCC: v and the stacked vertices it reached
                index -= 1
                while sp > 0 and rv <= rindex[stack[sp - 1]]:
                    sp -= 1
                    rindex[stack[sp]] = c
                    index -= 1
                rindex[v] = c
                c -= 1
            else:
                rindex[v] = rv
                stack[sp] = v
                sp += 1
            if depth == 0:
                break
            depth -= 1  # back in the parent: lower it to what v reached
            u = call_v[depth]
            rv = rindex[u]
            isroot = root[depth]
            if rindex[v] < rv:
                rv = rindex[v]
                isroot = False
                if rv == tree_root and reached == n:
                    rindex[u] = c
                    return _close_all_open(rindex, call_v, depth, stack, sp, c, count_up)
            v = u
            p = call_p[depth]
            end = indptr[v] - 1 if backward else indptr[v + one]
    _number(rindex, count_up)
    return n - c


@nb.njit(cache=True, nogil=True, inline="always")
def _close_all_open(rindex, call_v, depth, stack, sp, c, count_up):
    """Give every open vertex (the current one is done by the caller; its ancestors are
    ``call_v[:depth]``, the SCC stack ``stack[:sp]``) the id ``c``: :func:`_pearce`'s early
    exit. Returns the number of SCCs."""
    for k in range(depth):
        rindex[call_v[k]] = c
    for k in range(sp):
        rindex[stack[k]] = c
    _number(rindex, count_up)
    return rindex.shape[0] - c + 1


@nb.njit(cache=True, nogil=True, inline="always")
def _number(rindex, count_up):
    """Closed ids (``n`` for the first SCC closed, then down) to labels: from 0 up with
    ``count_up``, else from ``n - 1`` down."""
    n = rindex.shape[0]
    if count_up:
        for v in range(n):
            rindex[v] = n - rindex[v]
    else:
        for v in range(n):
            rindex[v] -= 1


def tarjan_scc(
    indptr: np.ndarray, indices: np.ndarray, n: int, backward: bool = False
) -> np.ndarray:
    """SCC labels by Tarjan's algorithm in Pearce's one-pass form (iterative, sequential).

    Labels are SCC ids in ``[0, n)``: ``n - 1`` for the first SCC closed, then downwards
    (int32 while ``n < 2**31 - 1``). The search starts at vertices 0, 1, ... and scans each
    row from its first arc (``backward``: from its last), so the order the SCCs close in is
    fixed by the arrays. Memory: 25 bytes per vertex, all allocated by NumPy.

    Examples
    --------
    >>> tarjan_scc(np.array([0, 1, 2, 2]), np.array([1, 0]), 3).tolist()
    [2, 2, 1]
    """
    return _tarjan(indptr, indices, n, backward, count_up=False)[1]


def tarjan_scc_in_closing_order(
    indptr: np.ndarray, indices: np.ndarray, n: int, backward: bool = False
) -> tuple[int, np.ndarray]:
    """:func:`tarjan_scc` with the SCCs numbered from 0 in the order they close (SciPy's
    numbering of strong components, which :func:`warpgraph.csgraph.connected_components`
    returns). Returns ``(number of SCCs, labels)``.

    Examples
    --------
    >>> count, labels = tarjan_scc_in_closing_order(np.array([0, 1, 2, 2]), np.array([1, 0]), 3)
    >>> count, labels.tolist()
    (2, [0, 0, 1])
    """
    return _tarjan(indptr, indices, n, backward, count_up=True)


def _tarjan(indptr, indices, n: int, backward: bool, count_up: bool) -> tuple[int, np.ndarray]:
    n = int(n)
    if n < 0 or indptr.shape[0] != n + 1 or (n and int(indptr[n]) > indices.shape[0]):
        raise InvalidArgumentError(  # (the ids' range is the callers' check: scc_cpu, csgraph)
            f"a CSR of {n} vertices needs {n + 1} offsets ending within the {indices.shape[0]} "
            f"ids; got {indptr.shape[0]} offsets"
        )
    dt = np.int32 if n < 2**31 - 1 else np.int64  # ids up to n
    rindex = np.zeros(n, dtype=dt)
    if n == 0:
        return 0, rindex
    count = _pearce(
        indptr,
        indices,
        rindex,
        np.empty(n, dtype=dt),
        np.empty(n, dtype=np.uint64),  # (the frames' vertices as the kernel reads ids: unsigned)
        np.empty(n, dtype=np.int64),
        np.empty(n, dtype=np.bool_),
        bool(backward),
        bool(count_up),
    )
    return int(count), rindex
