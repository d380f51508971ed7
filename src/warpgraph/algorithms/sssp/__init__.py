"""Single-source shortest paths on the CPU (Numba) and the GPU: delta-stepping, near-far,
frontier Bellman-Ford (H-BF, negative weights) and Dijkstra, with a verifier.

Examples
--------
>>> import warpgraph as wg
>>> from warpgraph.algorithms.sssp import sssp, verify_sssp
>>> G = wg.Graph.from_edges([0, 1], [1, 2], weights=[3, 4], directed=False)
>>> dist, pred = sssp(G, 0, predecessors=True, device="cpu")
>>> dist.tolist()
[0, 3, 7]
>>> verify_sssp(G, 0, dist, pred)
"""

from .api import METHODS, sssp
from .config import choose_delta, choose_method
from .reference import sssp_reference
from .verify import verify_sssp

__all__ = ["METHODS", "choose_delta", "choose_method", "sssp", "sssp_reference", "verify_sssp"]
