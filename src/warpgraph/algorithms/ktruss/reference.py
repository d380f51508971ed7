"""Obviously-correct trussness for small graphs, straight from the definition.

For k = 3, 4, ...: start from the edges of the (k-1)-truss and repeatedly delete every edge in
fewer than k - 2 triangles of the remaining edges; what is left is the k-truss. An edge's
trussness is the largest k whose k-truss holds it (2 for an edge in no triangle).
"""

from __future__ import annotations

__all__ = ["trussness_reference"]


def trussness_reference(src, dst) -> dict[tuple[int, int], int]:
    """Trussness of every undirected edge ``(min, max)`` (self-loops ignored, duplicates merged)."""
    edges = {(min(int(u), int(v)), max(int(u), int(v))) for u, v in zip(src, dst, strict=True)}
    edges = {e for e in edges if e[0] != e[1]}
    truss = dict.fromkeys(edges, 2)
    alive = set(edges)
    k = 3
    while alive:
        changed = True
        while changed:
            changed = False
            nbrs: dict[int, set[int]] = {}
            for u, v in alive:
                nbrs.setdefault(u, set()).add(v)
                nbrs.setdefault(v, set()).add(u)
            drop = {(u, v) for u, v in alive if len(nbrs[u] & nbrs[v]) < k - 2}
            if drop:
                alive -= drop
                changed = True
        for e in alive:
            truss[e] = k
        k += 1
    return truss
