"""Checks for component labels, by rules (GAPBS-style verifier; no trust in the labelling code).

Rules, for labels ``c`` of a graph ``G`` (any integer labels, one per component):

weak
    1. *arcs*: every arc ``u -> v`` joins equal labels (so every weak component lies inside one
       label class);
    2. *count*: the number of distinct labels equals the number of weak components counted by
       SciPy's traversal (an independent method). With rule 1 this makes the partitions equal.
strong
    1. *condensation*: the arcs between different classes form an acyclic graph on the classes
       (otherwise a cycle through two classes would put their vertices in one SCC), so every SCC
       lies inside one class;
    2. *count*: the number of classes equals the number of SCCs counted by SciPy;
    3. *small graphs* (``n <= 2000``): each class is strongly connected, checked directly by a
       forward and a backward search from its first vertex inside the class (redundant with
       1 + 2, and independent of SciPy).

Every failure raises :class:`~warpgraph.errors.VerificationError` naming the rule and a vertex or
an arc.

Examples
--------
>>> import numpy as np
>>> from warpgraph import Graph
>>> G = Graph.from_edges([0, 1], [1, 0], num_vertices=3)
>>> verify_components(G, np.array([0, 0, 1]), "strong")
>>> verify_components(G, np.array([0, 1, 2]), "weak")
Traceback (most recent call last):
...
warpgraph.errors.VerificationError: arc 0 -> 1 joins labels 0 and 1 (weak rule 1: arcs)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

from ..._arrays import to_host
from ...errors import InvalidArgumentError, VerificationError
from ...graph import Graph

__all__ = ["verify_components"]

SMALL = 2000


def _arcs(G: Graph) -> tuple[np.ndarray, np.ndarray]:
    g = G.to("cpu")
    return np.asarray(g._arc_sources(), dtype=np.int64), np.asarray(g.indices, dtype=np.int64)


def _dense(labels: np.ndarray) -> tuple[int, np.ndarray]:
    values, inverse = np.unique(labels, return_inverse=True)
    return int(values.size), inverse.reshape(-1)


def verify_components(G: Graph, labels: Any, connection: str = "weak") -> None:
    """Raise :class:`VerificationError` unless ``labels`` are ``G``'s components.

    Parameters
    ----------
    G : Graph
    labels : array_like of int
        One label per vertex (NumPy or CuPy), any numbering.
    connection : {"weak", "strong"}
        Strong components of an undirected graph are checked as weak ones.
    """
    if connection not in ("weak", "strong"):
        raise InvalidArgumentError(f"connection must be 'weak' or 'strong', got {connection!r}")
    c = np.asarray(to_host(labels))
    n = G.num_vertices
    if c.shape != (n,):
        raise VerificationError(f"labels have shape {c.shape}, expected ({n},)")
    if c.dtype.kind not in "iu":
        raise VerificationError(f"labels must be integers, got {c.dtype}")
    if n == 0:
        return
    k, dense = _dense(c)
    src, dst = _arcs(G)
    A = G.to("cpu").to_scipy(dtype=np.int8)
    A.sum_duplicates()  # SciPy 1.17/1.18 finds wrong strong components with repeated entries
    if connection == "weak" or not G.directed:
        bad = np.flatnonzero(dense[src] != dense[dst])
        if bad.size:
            i = int(bad[0])
            u, v = int(src[i]), int(dst[i])
            raise VerificationError(
                f"arc {u} -> {v} joins labels {c[u]} and {c[v]} (weak rule 1: arcs)"
            )
        want, _ = csgraph.connected_components(A, directed=G.directed, connection="weak")
        if k != want:
            raise VerificationError(
                f"{k} labels but {want} weak components (weak rule 2: count); "
                "some label joins vertices that no path connects"
            )
        return
    cross = dense[src] != dense[dst]
    C = sp.csr_array(
        (np.ones(int(cross.sum()), dtype=np.int8), (dense[src[cross]], dense[dst[cross]])),
        shape=(k, k),
    )
    nscc, _ = csgraph.connected_components(C, directed=True, connection="strong")
    if nscc != k:
        raise VerificationError(
            f"the condensation of the {k} classes has a cycle ({nscc} strong components): some "
            "strong component is split over several labels (strong rule 1: condensation)"
        )
    want, _ = csgraph.connected_components(A, directed=True, connection="strong")
    if k != want:
        raise VerificationError(
            f"{k} labels but {want} strong components (strong rule 2: count); "
            "some label is not strongly connected"
        )
    if n <= SMALL:
        _check_classes_strongly_connected(A, dense, k)


def _check_classes_strongly_connected(A, dense: np.ndarray, k: int) -> None:
    A = sp.csr_array(A)
    At = sp.csr_array(A.T)
    first = np.full(k, -1, dtype=np.int64)
    order = np.arange(dense.size)
    first[dense[::-1]] = order[::-1]  # smallest vertex of each class
    for cls in range(k):
        members = np.flatnonzero(dense == cls)
        root = int(first[cls])
        for M, way in ((A, "forward"), (At, "backward")):
            sub = M[members][:, members]
            start = int(np.searchsorted(members, root))
            reached = csgraph.breadth_first_order(sub, start, directed=True,
                                                  return_predecessors=False)  # fmt: skip
            if reached.size != members.size:
                missing = np.setdiff1d(np.arange(members.size), reached)[0]
                raise VerificationError(
                    f"vertex {int(members[missing])} is not reached {way} from vertex {root} "
                    f"inside their label (strong rule 3)"
                )
