"""NetworkX's ``harmonic_centrality``, its values bit for bit.

NetworkX makes two sets, ``nbunch`` (the nodes it reports) and ``sources``, then runs one search
per source, in the sources set's iteration order, adding ``1 / d(v, u)`` into each reported
node ``u`` the search reaches (``u != v``). So each value is a sequential float sum whose order
is the set's, which is CPython's hash-table layout: here the same two sets are made by the same
calls on the same sequences of nodes (``set`` of the graph's nodes, or of what NetworkX's
``nbunch_iter`` yields), and their iteration order is handed to
:func:`warpgraph.algorithms.centrality.harmonic_centrality`, which adds every node's terms in
exactly that order (searches in groups of 64, on the GPU when the backend's device is). The
dict lists the ``nbunch`` set's nodes in its order, as NetworkX's; a node no source reaches
keeps NetworkX's ``int`` 0.

With fewer reported nodes than sources NetworkX swaps the two roles, searching from each
reported node along reversed arcs; NetworkX 3.6 adds its terms in the search's discovery order
(nearest source first: ``order="distance"`` here); 3.4 and 3.5 in the order of a set made per
search, which runs in NetworkX (``NotImplementedError``, before any search).

Run in NetworkX: a ``distance`` (Dijkstra's searches; ``can_run``), one-pass iterators as
``nbunch`` or ``sources`` (``can_run``: they could not be read twice), and the swapped roles
before NetworkX 3.6 (above).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..algorithms.centrality.harmonic import harmonic_centrality as _harmonic_sums
from ._common import backend_device, gc_paused, nbunch_iter, networkx_version, not_implemented

__all__ = ["harmonic_centrality"]


def _ids(W, labels: list) -> np.ndarray:
    """Dense ids of node labels known to be in the graph."""
    index = W.index
    return np.fromiter(map(index.__getitem__, labels), dtype=np.int64, count=len(labels))


@gc_paused()
def harmonic_centrality(G, nbunch: Any = None, distance: Any = None, sources: Any = None) -> dict:
    """``{node: float}`` for the nodes of ``nbunch`` (default all) in its set's order: each
    value the sum of ``1 / d(v, u)`` over ``sources`` (default all), added in the sources
    set's order as NetworkX adds it (module docstring)."""
    reported = set(nbunch_iter(G, nbunch))
    froms = set(nbunch_iter(G, sources))
    order = "given"
    if len(reported) < len(froms):  # (NetworkX swaps the two roles: searches from `reported`)
        if networkx_version() < (3, 6):
            raise not_implemented(
                "fewer nodes than sources: NetworkX before 3.6 adds each value in the order "
                "of a set it builds per search"
            )
        order = "distance"  # (3.6: each search's discovery order, nearest first)
    targets = list(reported)
    dev = backend_device()
    values = _harmonic_sums(
        G.on(dev, G.any_order), _ids(G, list(froms)), _ids(G, targets), order=order, device=dev
    ).tolist()
    return dict(zip(targets, [x if x else 0 for x in values], strict=True))
