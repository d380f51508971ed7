"""Connected components: ``connected_components`` and its helpers, with SciPy's names and output.

``connected_components(G, connection="weak"|"strong")`` returns ``(count, labels)`` as
:func:`scipy.sparse.csgraph.connected_components` does. Labels are canonical: components are
numbered ``0..count-1`` in order of their smallest vertex (vertex 0 is always in component 0),
so every method on every device gives the same array; for weak components this is exactly
SciPy's numbering. Labels are int32 (int64 only for graphs of ``2**31`` vertices or more) and
live on the device that computed them.

Weak components read every arc as undirected (on an undirected graph they are the connected
components). Strong components of an undirected graph are its connected components, so
``connection="strong"`` there runs the weak methods.

Methods
-------
weak, GPU: ``"union_find"`` (ECL-CC style lock-free hooking + pointer jumping, one pass over the
arcs), ``"afforest"`` (Sutton et al.: neighbour sampling, then the arcs of every vertex outside the
sampled largest component), ``"label_propagation"`` (minimum-label propagation with pointer
jumping, to a fixed point).
weak, CPU: ``"afforest"`` and ``"sv"`` (Shiloach-Vishkin), Numba parallel.
strong: the multi-step SCC decomposition (``scc_config.SCC_METHODS``: ``"multistep"``, ``"fb"``,
``"coloring"``, and ``"tarjan"`` on the CPU).
``"auto"`` picks ``"afforest"`` for weak components on both devices (fastest measured, see
docs/COMPONENTS.md). For strong ones: on the GPU the multi-step scheme; on the CPU Tarjan
(Pearce's one-pass form, no reverse CSR) for small and for local road-like graphs
(``scc_config.auto_scc_method``), else the reverse CSR is built (cached on the graph) and
either the graph equals it (every arc has its reverse: strong = weak components, Afforest) or
the multi-step scheme runs.

Examples
--------
>>> import warpgraph as wg
>>> G = wg.Graph.from_edges([0, 1, 2, 4], [1, 2, 0, 3], num_vertices=6)
>>> connected_components(G, device="cpu")
(3, array([0, 0, 0, 1, 1, 2], dtype=int32))
>>> count, labels = connected_components(G, connection="strong", device="cpu")
>>> count, labels.tolist()
(4, [0, 0, 0, 1, 2, 3])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...device import resolve_device
from ...errors import InvalidArgumentError, WarpgraphError
from ...graph import Graph

__all__ = [
    "CONNECTIONS",
    "WCC_OPTIONS",
    "WEAK_METHODS",
    "component_sizes",
    "connected_components",
    "largest_component",
    "strongly_connected_components",
    "weakly_connected_components",
]

CONNECTIONS = ("weak", "strong")
WEAK_METHODS = {
    "gpu": ("union_find", "afforest", "label_propagation"),
    "cpu": ("afforest", "sv"),
}
"""Weak-component methods per device (``"auto"`` is accepted too)."""

AUTO_WEAK = {"gpu": "afforest", "cpu": "afforest"}

WCC_OPTIONS = {
    "neighbor_rounds": 2,
    "samples": 1024,
    "reverse": "auto",
}
"""Options of the weak methods (``config=`` dict), with their defaults.

``neighbor_rounds``
    Afforest: neighbours of every vertex joined before the largest component is estimated.
``samples``
    Afforest: vertices sampled to estimate the largest component (0 disables skipping it).
``reverse``
    Afforest on a directed graph: skipping the largest component needs every vertex's in-arcs.
    ``True`` builds the reverse CSR (once; it is cached on the graph), ``False`` never uses it
    (every vertex's out-arcs are then joined), ``"auto"`` uses it when the graph already has it.
"""


def _check_graph(G: Any, name: str) -> Graph:
    if not isinstance(G, Graph):
        raise InvalidArgumentError(f"{name} needs a warpgraph.Graph, got {type(G).__name__}")
    return G


def _weak_options(config: Any) -> dict[str, Any]:
    if config is None:
        return dict(WCC_OPTIONS)
    if not isinstance(config, dict):
        raise InvalidArgumentError(
            f"config for weak components must be a dict of {sorted(WCC_OPTIONS)}, "
            f"got {type(config).__name__}"
        )
    unknown = sorted(set(config) - set(WCC_OPTIONS))
    if unknown:
        raise InvalidArgumentError(
            f"unknown weak-components option(s) {unknown}; known: {sorted(WCC_OPTIONS)}"
        )
    opts = {**WCC_OPTIONS, **config}
    for key in ("neighbor_rounds", "samples"):
        v = opts[key]
        if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < 0:
            raise InvalidArgumentError(f"{key} must be a non-negative int, got {v!r}")
        opts[key] = int(v)
    if opts["reverse"] not in ("auto", True, False):
        raise InvalidArgumentError(
            f"reverse must be 'auto', True or False, got {opts['reverse']!r}"
        )
    return opts


def _reverse_for(G: Graph, opts: dict[str, Any]) -> tuple[Any, Any]:
    """The reverse CSR arrays Afforest may use on a directed graph, or ``(None, None)``."""
    if not G.directed:
        return None, None
    want = opts["reverse"]
    if want is True or (want == "auto" and G._reverse is not None):
        rindptr, rindices, _ = G.reverse_csr()
        return rindptr, rindices
    return None, None


def _check_method(method: Any, connection: str, dev: str) -> str:
    if not isinstance(method, str):
        raise InvalidArgumentError(f"method must be a string, got {method!r}")
    if connection == "weak":
        known = WEAK_METHODS[dev]
        if method == "auto":
            return AUTO_WEAK[dev]
        if method not in known:
            other = WEAK_METHODS["gpu" if dev == "cpu" else "cpu"]
            raise _unknown_method("weak", method, dev, known, other)
        return method
    from .scc_config import GPU_SCC_METHODS, SCC_METHODS

    known, other = (
        (GPU_SCC_METHODS, SCC_METHODS) if dev == "gpu" else (SCC_METHODS, GPU_SCC_METHODS)
    )
    if method != "auto" and method not in known:
        raise _unknown_method("strong", method, dev, known, other)
    return method


def _unknown_method(connection: str, method: str, dev: str, known, other_known):
    """The error for a method the device lacks, naming the other device when it has it."""
    other = "gpu" if dev == "cpu" else "cpu"
    hint = ""
    if method == "tarjan" and dev == "gpu":
        hint = " (tarjan runs on the CPU only: use device='cpu')"
    elif method in other_known:
        hint = f" (a {other} method: use device={other!r})"
    return InvalidArgumentError(
        f"unknown {connection}-components method {method!r} on the {dev}{hint}; "
        f"choose one of {('auto', *known)}"
    )


def weak_min_labels(G: Graph, method: str, dev: str, opts: dict[str, Any]):
    """Labels naming each weak component by its smallest vertex (dtype of ``G.indices``)."""
    n = G.num_vertices
    symmetric = not G.directed
    rindptr, rindices = (None, None)
    if method == "afforest":
        rindptr, rindices = _reverse_for(G, opts)

    def afforest(impl):  # the same call on both devices
        return impl.afforest_labels(
            G.indptr,
            G.indices,
            n,
            rindptr,
            rindices,
            symmetric=symmetric,
            neighbor_rounds=opts["neighbor_rounds"],
            samples=opts["samples"],
        )

    if dev == "gpu":
        from . import gpu

        if method == "union_find":
            return gpu.union_find_labels(G.indptr, G.indices, n, symmetric=symmetric)
        if method == "label_propagation":
            return gpu.label_propagation_labels(G.indptr, G.indices, n)
        return afforest(gpu)
    from ...cpu.threads import threads_for
    from . import cpu

    with threads_for(n + G.num_arcs):  # fewer threads on a busy machine (cpu/threads.py)
        return cpu.sv_labels(G.indptr, G.indices, n) if method == "sv" else afforest(cpu)


def _strong_labels(G: Graph, method: str, dev: str, config: Any):
    """Raw SCC labels (any ids) from the SCC modules."""
    if dev == "cpu":
        return _strong_labels_cpu(G, method, config)
    try:
        from .scc_gpu import scc_gpu as run
    except ImportError as exc:  # pragma: no cover - only while the SCC module is missing
        raise WarpgraphError(f"strong components are not available: {exc}") from exc
    rindptr, rindices, _ = G.reverse_csr()
    kwargs: dict[str, Any] = {"config": config, "rindptr": rindptr, "rindices": rindices}
    if method != "auto":
        kwargs["method"] = method
    return run(G.indptr, G.indices, G.num_vertices, **kwargs)


def _strong_labels_cpu(G: Graph, method: str, config: Any):
    """CPU strong labels. ``"auto"`` without a config: Tarjan (no reverse CSR) on small and
    road-like graphs (``scc_config.auto_scc_method``), and on graphs of at most
    ``TARJAN_SERIAL_MAX_VERTICES`` vertices without a cached reverse CSR when only one thread
    is worth using (``scc_cpu.dynamic_threads``); otherwise the reverse CSR is built (cached on
    ``G``) and, when it equals the graph (every arc has its reverse), the strong components
    are the weak ones (Afforest); else the multi-step scheme."""
    import numba as nb

    from . import scc_cpu
    from .scc_config import TARJAN_SERIAL_MAX_VERTICES, auto_scc_method

    n = G.num_vertices
    automatic = method == "auto" and config is None
    if automatic:
        method = auto_scc_method(G.indptr, n, "cpu", indices=G.indices)
        if (
            method == "multistep"
            and G._reverse is None
            and n <= TARJAN_SERIAL_MAX_VERTICES
            and scc_cpu.dynamic_threads(nb.get_num_threads()) == 1
        ):
            # one thread to spare (busy machine): building the reverse CSR alone costs about
            # what Tarjan does on a graph whose DFS state stays in cache (directed Kronecker 18
            # at load 4: Tarjan 63-68 ms, transpose 43-50 + multi-step 76-105 ms)
            method = "tarjan"
    elif method == "auto":
        method = "multistep"
    if method == "tarjan":
        return scc_cpu.scc_cpu_labels(G.indptr, G.indices, n, method="tarjan")
    rindptr, rindices, _ = G.reverse_csr()
    if automatic and scc_cpu.is_symmetric(G.indptr, G.indices, rindptr, rindices):
        from ...cpu.threads import threads_for
        from . import cpu

        with threads_for(n + G.num_arcs):
            return cpu.afforest_labels(G.indptr, G.indices, n, symmetric=True)
    return scc_cpu.scc_cpu_labels(
        G.indptr,
        G.indices,
        n,
        method=method,
        config=config,
        rindptr=rindptr,
        rindices=rindices,
    )


def connected_components(
    G: Graph,
    *,
    connection: str = "weak",
    method: str = "auto",
    device: str = "auto",
    config: Any = None,
) -> tuple[int, Any]:
    """Weakly or strongly connected components, as ``scipy.sparse.csgraph.connected_components``.

    Parameters
    ----------
    G : Graph
        Directed or undirected; self-loops and parallel edges are allowed. For an undirected
        graph weak and strong components are both its connected components.
    connection : {"weak", "strong"}
        Weak: arcs read as undirected. Strong: ``u`` and ``v`` are in one component when each
        reaches the other.
    method : str
        ``"auto"``, a weak method (GPU: ``"union_find"``, ``"afforest"``,
        ``"label_propagation"``; CPU: ``"afforest"``, ``"sv"``) or a strong one
        (``"multistep"``, ``"fb"``, ``"coloring"``; ``"tarjan"`` on the CPU). See the module
        docstring.
    device : {"auto", "cpu", "gpu"}
        Where to compute; the labels live there.
    config : dict or SCCConfig, optional
        Weak: options of :data:`WCC_OPTIONS`. Strong: an ``SCCConfig`` (or what the SCC module
        accepts), passed through.

    Returns
    -------
    count : int
        Number of components.
    labels : numpy.ndarray or cupy.ndarray
        int32 component of every vertex, ``0..count-1``, components numbered in order of their
        smallest vertex.

    Raises
    ------
    InvalidArgumentError
        For an unknown connection, method or device, or a bad ``config``.

    See Also
    --------
    weakly_connected_components, strongly_connected_components, component_sizes,
    largest_component

    Examples
    --------
    >>> import warpgraph as wg
    >>> G = wg.Graph.from_edges([0, 2, 3], [1, 1, 4], num_vertices=6)
    >>> count, labels = connected_components(G, device="cpu")
    >>> count, labels.tolist()
    (3, [0, 0, 0, 1, 1, 2])
    """
    _check_graph(G, "connected_components")
    if connection not in CONNECTIONS:
        raise InvalidArgumentError(f"connection must be one of {CONNECTIONS}, got {connection!r}")
    dev = resolve_device(device)
    if connection == "strong" and not G.directed:
        if method != "auto":
            _check_method(method, "strong", dev)
        connection, method, config = "weak", "auto", None
    method = _check_method(method, connection, dev)
    opts = _weak_options(config) if connection == "weak" else None
    G = G.to(dev)
    if connection == "weak":
        raw = weak_min_labels(G, method, dev, opts)
        return canonical(raw, dev, min_labels=True)
    return canonical(_strong_labels(G, method, dev, config), dev, min_labels=False)


def canonical(labels: Any, dev: str, *, min_labels: bool) -> tuple[int, Any]:
    """``(count, labels)`` with components numbered by their smallest vertex.

    ``min_labels``: every label already is the smallest vertex of its component (the weak
    methods); otherwise labels are any integers (one per component).
    """
    if dev == "gpu":
        from . import gpu

        if min_labels:
            return gpu.canonical_labels(labels)
        return gpu.renumber_by_first_vertex(labels)
    from ...cpu.threads import threads_for
    from . import cpu

    labels = np.ascontiguousarray(labels)
    if not min_labels:
        return cpu.renumber_by_first_vertex(labels)
    with threads_for(labels.shape[0]):  # (parallel passes: fewer threads on a busy machine)
        return cpu.canonical_labels(labels)


def weakly_connected_components(
    G: Graph, *, method: str = "auto", device: str = "auto", config: Any = None
) -> tuple[int, Any]:
    """Weakly connected components: ``connected_components(G, connection="weak", ...)``.

    Examples
    --------
    >>> import warpgraph as wg
    >>> G = wg.Graph.from_edges([1], [0], num_vertices=3)
    >>> count, labels = weakly_connected_components(G, device="cpu")
    >>> count, labels.tolist()
    (2, [0, 0, 1])
    """
    return connected_components(G, connection="weak", method=method, device=device, config=config)


def strongly_connected_components(
    G: Graph, *, method: str = "auto", device: str = "auto", config: Any = None
) -> tuple[int, Any]:
    """Strongly connected components: ``connected_components(G, connection="strong", ...)``.

    Examples
    --------
    >>> import warpgraph as wg
    >>> G = wg.Graph.from_edges([0, 1, 1], [1, 0, 2])
    >>> count, labels = strongly_connected_components(G, device="cpu")
    >>> count, labels.tolist()
    (2, [0, 0, 1])
    """
    return connected_components(G, connection="strong", method=method, device=device, config=config)


def component_sizes(labels: Any):
    """Number of vertices of every component: ``sizes[k]`` for ``k`` in ``0..count-1``.

    Parameters
    ----------
    labels : array_like of int
        Non-negative component labels (NumPy or CuPy), such as ``connected_components``'s.

    Returns
    -------
    int64 array (NumPy or CuPy, as ``labels``).

    Examples
    --------
    >>> import numpy as np
    >>> component_sizes(np.array([0, 0, 1, 2, 2, 2])).tolist()
    [2, 1, 3]
    """
    from ..._arrays import is_cupy

    if is_cupy(labels):
        from ...device import cupy

        xp = cupy()
    else:
        xp = np
        labels = np.asarray(labels)
    if labels.ndim != 1 or labels.dtype.kind not in "iu":
        raise InvalidArgumentError(
            f"labels must be a 1-D integer array, got {labels.dtype} {labels.shape}"
        )
    if labels.size and int(labels.min()) < 0:
        raise InvalidArgumentError("labels must be non-negative")
    return xp.bincount(labels).astype(np.int64)


def largest_component(
    G: Graph,
    connection: str = "weak",
    *,
    method: str = "auto",
    device: str = "auto",
    config: Any = None,
) -> tuple[Graph, Any]:
    """The largest component as a graph: ``(H, vertices)``.

    Parameters
    ----------
    G : Graph
    connection : {"weak", "strong"}
    method, device, config
        As in :func:`connected_components`.

    Returns
    -------
    H : Graph
        The subgraph induced by the component, vertices renumbered ``0..k-1`` in increasing
        order of their id in ``G``; weights, self-loops and parallel edges kept, same
        directedness (and NetworkX node labels, if ``G`` has them). Ties between equally large
        components go to the one holding the smallest vertex. An empty graph gives an empty
        graph.
    vertices : int64 array
        ``vertices[i]`` is the id in ``G`` of vertex ``i`` of ``H`` (sorted).

    Examples
    --------
    >>> import warpgraph as wg
    >>> G = wg.Graph.from_edges([0, 2, 3], [1, 3, 4], weights=[1.5, 2.0, 3.0], directed=False)
    >>> H, vertices = largest_component(G, device="cpu")
    >>> vertices.tolist(), H.num_edges, H.weights.tolist()
    ([2, 3, 4], 2, [2.0, 2.0, 3.0, 3.0])
    """
    _check_graph(G, "largest_component")
    count, labels = connected_components(
        G, connection=connection, method=method, device=device, config=config
    )
    G = G.to(resolve_device(device))
    xp = G._xp()
    if count == 0:
        vertices = xp.zeros(0, dtype=np.int64)
    else:
        biggest = int(component_sizes(labels).argmax())  # argmax: first (smallest-vertex) tie
        vertices = xp.flatnonzero(labels == biggest).astype(np.int64)
    H = G.subgraph(vertices)
    if G.vertex_labels is not None:
        from ..._arrays import to_host

        H.vertex_labels = [G.vertex_labels[i] for i in to_host(vertices).tolist()]
    return H, vertices
