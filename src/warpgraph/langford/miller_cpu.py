"""Miller's backtracking for L(2,n) on the CPU (Numba): bit-mask tree search, split into tasks.

The constraint formulation of the seed (§1.2 of the thesis): one variable per colour (pair) c,
its value the position i of the first cube (the second is at i + c + 1); colours are placed
from n down to 1 (colour c at depth n - c + 1), and no two cubes may share a position. A
partial assignment is a bit mask of occupied positions (2n <= 48 bits, an int64). The
candidate positions of colour c under mask m are all set bits of ``f & (f >> (c+1))`` with
``f = ~m`` (the "test pair" of every position at once); depth-first backtracking walks them.

Reversal symmetry is broken at the top so every solution is counted once, with no division:
colour n takes the first cube position i <= (n-2)//2; when n is even and colour n sits in the
middle (i = (n-2)/2, a position fixed by reversal), colour n-1 takes j <= (n-2)//2 (its
mirror n-1-j never equals j). Tasks are the feasible assignments of the first ``depth`` colours
(:func:`prefixes`, ``depth >= 2`` for even n so the rule is inside the prefixes); a task's
count is the number of completions of its mask (:func:`count_masks`).

Examples
--------
>>> from warpgraph.langford.miller_cpu import prefixes, count_masks
>>> tasks = prefixes(7, 2)
>>> int(count_masks(7, tasks, 7 - 2).sum())
26
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..errors import InvalidArgumentError

__all__ = ["count_masks", "expand", "expand_size", "min_depth", "prefixes"]


def min_depth(n: int) -> int:
    """Smallest task depth: 2 for even n (the middle-branch rule lives in colour n-1), else 1."""
    return 2 if n % 2 == 0 else 1


@njit(cache=True, nogil=True, parallel=True)
def _expand_counts(n, masks, top):  # pragma: no cover - numba
    full = (1 << (2 * n)) - 1
    out = np.empty(masks.shape[0], dtype=np.int64)
    for k in prange(masks.shape[0]):
        f = ~masks[k] & full
        cand = f & (f >> (top + 1))
        c = 0
        while cand:
            cand &= cand - 1
            c += 1
        out[k] = c
    return out


@njit(cache=True, nogil=True, parallel=True)
def _expand_fill(n, masks, top, offsets, out, parent):  # pragma: no cover - numba
    full = (1 << (2 * n)) - 1
    for k in prange(masks.shape[0]):
        j = offsets[k]
        f = ~masks[k] & full
        cand = f & (f >> (top + 1))
        while cand:
            low = cand & -cand
            cand ^= low
            out[j] = masks[k] | low | (low << (top + 1))
            parent[j] = k
            j += 1


def expand_size(n: int, masks: np.ndarray, top: int) -> int:
    """Number of children :func:`expand` would make placing colour ``top`` on ``masks``."""
    return int(_expand_counts(n, np.ascontiguousarray(masks, dtype=np.int64), top).sum())


def expand(n: int, masks: np.ndarray, top: int, levels: int) -> tuple[np.ndarray, np.ndarray]:
    """Place colours ``top, top-1, ...`` (``levels`` of them) on every mask, all ways.

    Returns the child masks and, for each, the index of its ancestor in ``masks`` (DFS order:
    children of one mask are contiguous and in increasing position order).
    """
    masks = np.ascontiguousarray(masks, dtype=np.int64)
    owner = np.arange(len(masks), dtype=np.int64)
    for c in range(top, top - levels, -1):
        sizes = _expand_counts(n, masks, c)
        offsets = np.zeros(len(sizes), dtype=np.int64)
        np.cumsum(sizes[:-1], out=offsets[1:])
        size = int(sizes.sum())
        out = np.empty(size, dtype=np.int64)
        parent = np.empty(size, dtype=np.int64)
        _expand_fill(n, masks, c, offsets, out, parent)
        masks, owner = out, owner[parent]
    return masks, owner


def prefixes(n: int, depth: int) -> np.ndarray:
    """Masks of every feasible assignment of colours n .. n-depth+1, symmetry broken (tasks).

    Parameters
    ----------
    n : int
        Instance size, 3 <= n <= 24.
    depth : int
        Number of colours placed, ``min_depth(n) <= depth <= n - 1``.
    """
    if not min_depth(n) <= depth <= n - 1:
        raise InvalidArgumentError(
            f"Miller task depth must be in [{min_depth(n)}, {n - 1}] for n = {n}, got {depth}"
        )
    half = (n - 2) // 2
    first = np.array([(1 << i) | (1 << (i + n + 1)) for i in range(half + 1)], dtype=np.int64)
    if n % 2 == 1:
        return expand(n, first, n - 1, depth - 1)[0]
    # even n: the middle placement of colour n restricts colour n-1 to j <= (n-2)//2
    side = expand(n, first[:half], n - 1, 1)[0]
    mid = expand(n, first[half:], n - 1, 1)[0]
    keep = np.zeros(len(mid), dtype=bool)
    for j in range(half + 1):
        pm = (1 << j) | (1 << (j + n))
        keep |= (mid & pm) == pm
    level2 = np.concatenate([side, mid[keep]])
    # keep DFS order by colour-n position: side masks first (positions < half), then middle
    return expand(n, level2, n - 2, depth - 2)[0]


@njit(cache=True, nogil=True)
def _dfs(n, mask, top):  # pragma: no cover - numba
    full = (1 << (2 * n)) - 1
    f0 = ~mask & full
    if top == 1:
        return 1 if (f0 & (f0 >> 2)) != 0 else 0
    frees = np.empty(top + 1, dtype=np.int64)
    cands = np.empty(top + 1, dtype=np.int64)
    c = top
    frees[c] = f0
    cands[c] = f0 & (f0 >> (c + 1))
    cnt = 0
    while True:
        cd = cands[c]
        if cd == 0:
            c += 1
            if c > top:
                break
            continue
        low = cd & -cd
        cands[c] = cd ^ low
        f = frees[c] ^ (low | (low << (c + 1)))
        if c == 2:  # colour 1 has at most one place left: count it without descending
            if (f & (f >> 2)) != 0:
                cnt += 1
            continue
        c -= 1
        frees[c] = f
        cands[c] = f & (f >> (c + 1))
    return cnt


@njit(cache=True, nogil=True, parallel=True)
def _count_all(n, masks, top):  # pragma: no cover - numba
    out = np.empty(masks.shape[0], dtype=np.int64)
    for k in prange(masks.shape[0]):
        out[k] = _dfs(n, masks[k], top)
    return out


def count_masks(n: int, masks: np.ndarray, top: int) -> np.ndarray:
    """Number of ways to complete each mask with colours ``top .. 1`` (int64 array)."""
    masks = np.ascontiguousarray(masks, dtype=np.int64)
    if top < 1:
        return np.ones(len(masks), dtype=np.int64)
    return _count_all(n, masks, top)
