"""Obviously-correct core numbers for small graphs: peel by the definition.

For k = 0, 1, 2, ...: repeatedly delete every vertex with fewer than k remaining neighbours
(counted with multiplicity: a directed mutual pair counts twice); the vertices still present
after the k-pass have core number >= k.
"""

from __future__ import annotations

import numpy as np

__all__ = ["core_numbers_reference"]


def core_numbers_reference(n: int, src, dst, directed: bool) -> np.ndarray:
    """Core numbers from an edge list (self-loops ignored, parallel edges merged)."""
    pairs = {(int(u), int(v)) for u, v in zip(src, dst, strict=True) if u != v}
    if not directed:
        pairs = {(min(u, v), max(u, v)) for u, v in pairs}
    nbrs: list[list[int]] = [[] for _ in range(n)]
    for u, v in pairs:
        nbrs[u].append(v)
        nbrs[v].append(u)
    core = np.zeros(n, dtype=np.int64)
    alive = set(range(n))
    k = 0
    while alive:
        changed = True
        while changed:
            changed = False
            for v in list(alive):
                if sum(1 for u in nbrs[v] if u in alive) < k:
                    alive.discard(v)
                    changed = True
        for v in alive:
            core[v] = k
        k += 1
    return core
