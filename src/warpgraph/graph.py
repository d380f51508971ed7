"""The Graph: a compressed sparse row (CSR) adjacency on the CPU or the GPU.

Layout and cost
---------------
A graph of ``n`` vertices stores ``a`` arcs: ``a = m`` for a directed graph of ``m`` edges, and
``a = 2m - s`` for an undirected one (each edge as two arcs, each of the ``s`` self-loops once).

* ``indptr``: int64, ``n + 1`` entries (row offsets; int64 always, so no sum can overflow);
* ``indices``: neighbour ids, int32 while ``n < 2**31`` else int64; each row sorted by id;
* ``weights``: optional, int32/int64/float32/float64, aligned with ``indices``.

Memory is ``8(n + 1) + a * (id bytes + weight bytes)``: a 16M-vertex undirected graph of 256M
edges with int32 ids and no weights costs 8*16M + 4*512M, about 2.2 GB. The reverse CSR (in-edges,
for pull and bottom-up steps) is built on first use for directed graphs and costs as much again;
an undirected graph is its own reverse.

Examples
--------
>>> import numpy as np
>>> from warpgraph import Graph
>>> G = Graph.from_edges([0, 0, 1], [1, 2, 2], weights=[5, 1, 2], directed=True)
>>> G
Graph(n=3, m=3, directed, weights=int64, device='cpu')
>>> G.indptr.tolist(), G.indices.tolist()
([0, 2, 3, 3], [1, 2, 2])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _arrays
from .device import check_device_memory, check_host_memory, cupy, resolve_device
from .errors import InvalidArgumentError

__all__ = ["MERGE_POLICIES", "Graph"]


def _cpu_csr():
    """The Numba CSR kernels, imported on first use: `import warpgraph` must stay light (NetworkX
    imports our backend_info entry point, hence this package, whenever it is imported)."""
    from .cpu import csr  # noqa: PLC0415

    return csr


def _check_csr_fits_host(n: int, arcs: int, num_vertices: int | None) -> None:
    """Refuse, with the reason, a host CSR of ``n`` vertices and ``arcs`` arcs that cannot fit:
    its row offsets (8 bytes a vertex) and column ids (4 an arc at least) are a lower bound
    of what the build allocates. The usual cause is a few ids far above the others (hashes,
    sparse labels): the vertex count is the largest id + 1."""
    needed = 8 * (n + 1) + 4 * arcs
    count = (
        "the largest id + 1"
        if num_vertices is None
        else "num_vertices (from a file: its header's count or its largest id + 1)"
    )
    hint = (
        f"the vertex count is {count}; relabel sparse ids (hashes, labels) to 0..k-1 first: "
        "warpgraph.load(path, compact_ids=True) (CLI: --compact-ids), or ids, inverse = "
        "np.unique(np.r_[src, dst], return_inverse=True)"
    )
    check_host_memory(needed, what=f"a CSR of {n} vertices and {arcs} arcs", hint=hint)


MERGE_POLICIES = (None, "first", "last", "min", "max", "sum")
RELABEL_ORDERS = ("random", "degree", "bfs", "rcm")


class Graph:
    """A directed or undirected graph in CSR form (see the module docstring for the layout).

    Parameters
    ----------
    indptr, indices : array_like
        CSR row offsets (length ``n + 1``) and neighbour ids. Rows need not be sorted: they are
        sorted here (a copy is made only then).
    weights : array_like, optional
        One weight per arc.
    directed : bool
        For ``directed=False`` the arrays must already hold both arcs of every edge.
    validate : bool
        Check offsets, id range and (undirected) symmetry. Internal callers that built the arrays
        themselves pass ``False`` (the offsets are still made int64, as the kernels take them).

    Raises
    ------
    InvalidArgumentError
        If the arrays do not form a valid CSR (or an undirected CSR is not symmetric).
    """

    def __init__(
        self,
        indptr: Any,
        indices: Any,
        weights: Any = None,
        directed: bool = True,
        *,
        validate: bool = True,
    ):
        indptr = _arrays.as_array(indptr, "indptr")
        indices = _arrays.as_id_array(indices, "indices")
        if validate:
            indptr, indices, weights = _validated_csr(indptr, indices, weights, directed)
        else:  # (every kernel takes int64 offsets: a caller's narrower ones are widened here)
            indptr = indptr.astype(np.int64, copy=False)
        self.indptr = indptr
        self.indices = indices
        self.weights = weights
        self.directed = bool(directed)
        self.vertex_labels: list | None = None  # original node labels (from_networkx), if any
        self._reverse: tuple | None = None
        self._num_self_loops: int | None = None

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_edges(
        cls,
        src: Any,
        dst: Any,
        weights: Any = None,
        num_vertices: int | None = None,
        directed: bool = True,
        merge: str | None = None,
        *,
        remove_self_loops: bool = False,
        device: str | None = None,
    ) -> Graph:
        """Build a graph from parallel arrays of edge endpoints.

        Parameters
        ----------
        src, dst : array_like of int
            Edge endpoints (NumPy, CuPy, pandas, pyarrow or lists). Ids must lie in
            ``[0, num_vertices)``.
        weights : array_like, optional
            One weight per edge (integers or floats).
        num_vertices : int, optional
            Number of vertices; default the largest id plus one.
        directed : bool
            ``False`` makes every edge ``(u, v)`` the two arcs ``u -> v`` and ``v -> u``.
        merge : {None, "first", "last", "min", "max", "sum"}
            ``None`` keeps parallel edges (a multigraph); otherwise parallel edges become one,
            whose weight is the first/last (input order), smallest, largest or summed weight.
        remove_self_loops : bool
            Drop edges ``(u, u)``.
        device : {None, "cpu", "gpu", "auto"}
            Where the graph is built and kept; ``None`` means where ``src`` lives.

        Returns
        -------
        Graph

        Raises
        ------
        InvalidArgumentError
            For ids out of range or negative, non-integer ids, mismatched lengths, or an
            unknown merge policy.

        Examples
        --------
        >>> G = Graph.from_edges([0, 1, 1], [1, 0, 2], directed=False, merge="first")
        >>> G.num_edges, G.degree().tolist()
        (2, [1, 2, 1])
        """
        if merge not in MERGE_POLICIES:
            raise InvalidArgumentError(f"merge must be one of {MERGE_POLICIES}, got {merge!r}")
        src = _arrays.as_id_array(src, "src")
        dst = _arrays.as_id_array(dst, "dst")
        if src.shape[0] != dst.shape[0]:
            raise InvalidArgumentError(
                f"src and dst differ in length ({src.shape[0]} != {dst.shape[0]})"
            )
        if weights is not None:
            weights = _arrays.as_weight_array(weights, src.shape[0])
        target = "gpu" if _arrays.is_cupy(src) else "cpu"
        if device is not None:
            target = resolve_device(device)
        if target == "gpu":
            cp = cupy()
            src, dst = cp.asarray(src), cp.asarray(dst)
            weights = None if weights is None else cp.asarray(weights)
        else:
            src, dst = _arrays.to_host(src), _arrays.to_host(dst)
            weights = None if weights is None else _arrays.to_host(weights)
        if src.dtype != dst.dtype:  # one compiled kernel per dtype pair is enough
            src, dst = src.astype(np.int64), dst.astype(np.int64)
        n = _arrays.check_id_range(src, dst, num_vertices)
        if target != "gpu":  # (the GPU build checks the device's memory itself)
            _check_csr_fits_host(n, src.size if directed else 2 * src.size, num_vertices)
        if target == "gpu":
            from .gpu import csr as gpu_csr

            indptr, indices, w = gpu_csr.build_csr(
                src, dst, weights, n, directed, remove_self_loops, merge
            )
        else:
            indptr, indices, w = _cpu_csr().build_csr(
                src,
                dst,
                weights,
                n,
                undirected=not directed,
                drop_loops=remove_self_loops,
                merge=merge,
                id_dtype=_arrays.id_dtype_for(n),
            )
        return cls(indptr, indices, w, directed=directed, validate=False)

    @classmethod
    def from_scipy(cls, A: Any, directed: bool = True, weighted: bool = True) -> Graph:
        """Graph from a SciPy (or CuPy) sparse matrix; entry ``A[i, j]`` is the arc ``i -> j``.

        Explicit zeros are edges of weight 0, as in ``scipy.sparse.csgraph``. For
        ``directed=False`` the matrix must be symmetric; each ``i <= j`` entry is one edge.

        Examples
        --------
        >>> import scipy.sparse as sp
        >>> Graph.from_scipy(sp.csr_array([[0, 2], [0, 0]])).num_edges
        1
        """
        from .convert import from_scipy

        return from_scipy(cls, A, directed=directed, weighted=weighted)

    @classmethod
    def from_networkx(cls, G: Any, weight: str | None = "weight", nodelist: Any = None) -> Graph:
        """Graph from a NetworkX graph; node labels are kept in ``vertex_labels``.

        Examples
        --------
        >>> import networkx as nx
        >>> Graph.from_networkx(nx.path_graph(4)).num_edges
        3
        """
        from .convert import from_networkx

        return from_networkx(cls, G, weight=weight, nodelist=nodelist)

    @classmethod
    def from_pandas(
        cls,
        df: Any,
        source: str = "source",
        target: str = "target",
        weight: str | None = None,
        **kwargs: Any,
    ) -> Graph:
        """Graph from a DataFrame (pandas, or a pyarrow Table) with endpoint columns.

        Other keyword arguments go to :meth:`from_edges`.
        """
        w = None if weight is None else df[weight]
        return cls.from_edges(df[source], df[target], w, **kwargs)

    # ------------------------------------------------------------------ basic properties
    @property
    def num_vertices(self) -> int:
        """Number of vertices ``n``."""
        return int(self.indptr.shape[0]) - 1

    @property
    def num_arcs(self) -> int:
        """Number of stored arcs (``len(indices)``)."""
        return int(self.indices.shape[0])

    @property
    def num_self_loops(self) -> int:
        """Number of self-loop arcs ``(u, u)``."""
        if self._num_self_loops is None:
            if self.device == "gpu":
                self._num_self_loops = self._count_self_loops_gpu()
            else:
                rows = self._arc_sources()
                self._num_self_loops = int((rows == self.indices).sum())
        return self._num_self_loops

    def _count_self_loops_gpu(self, arcs_per_pass: int | None = None) -> int:
        # In passes over the arcs: row ids for all of them at once take 16 bytes per arc.
        from .gpu.transpose import ARCS_PER_PASS, arc_source_chunks  # noqa: PLC0415

        cp = cupy()
        total = cp.zeros((), dtype=cp.int64)
        per_pass = arcs_per_pass or ARCS_PER_PASS
        chunks = arc_source_chunks(self.indptr, self.num_arcs, arcs_per_pass=per_pass, xp=cp)
        for start, stop, rows in chunks:
            total += (rows == self.indices[start:stop]).sum()
        return int(total)

    @property
    def num_edges(self) -> int:
        """Number of edges; an undirected edge counts once (self-loops too)."""
        if self.directed:
            return self.num_arcs
        return (self.num_arcs + self.num_self_loops) // 2

    @property
    def is_weighted(self) -> bool:
        return self.weights is not None

    @property
    def device(self) -> str:
        """``"cpu"`` or ``"gpu"``: where the arrays live."""
        return "gpu" if _arrays.is_cupy(self.indptr) else "cpu"

    @property
    def nbytes(self) -> int:
        """Bytes held by the CSR arrays (and the reverse CSR, once built)."""
        arrays = [self.indptr, self.indices, self.weights]
        if self._reverse is not None and self.directed:
            arrays += list(self._reverse)
        return int(sum(a.nbytes for a in arrays if a is not None))

    def is_directed(self) -> bool:
        return self.directed

    def __repr__(self) -> str:
        kind = "directed" if self.directed else "undirected"
        w = f"weights={self.weights.dtype}" if self.weights is not None else "unweighted"
        return (
            f"Graph(n={self.num_vertices}, m={self.num_edges}, {kind}, {w}, device={self.device!r})"
        )

    # ------------------------------------------------------------------ degrees, arcs
    def _xp(self):
        return cupy() if self.device == "gpu" else np

    def out_degree(self):
        """Number of out-arcs of every vertex (int64)."""
        return self._xp().diff(self.indptr)

    def in_degree(self):
        """Number of in-arcs of every vertex (int64)."""
        if not self.directed:
            return self.out_degree()
        if self.device == "gpu":
            from .gpu.stats import in_degrees  # noqa: PLC0415

            return in_degrees(self.indices, self.num_vertices)
        return np.bincount(self.indices, minlength=self.num_vertices).astype(np.int64)

    def degree(self):
        """Degree as NetworkX defines it for CSR storage: out + in arcs (directed), else arcs."""
        if not self.directed:
            return self.out_degree()
        return self.out_degree() + self.in_degree()

    def _arc_sources(self):
        """Source vertex of every stored arc (COO row ids)."""
        if self.device == "gpu":
            from .gpu.transpose import arc_sources  # noqa: PLC0415

            return arc_sources(self.indptr, self.num_arcs, self.indices.dtype, xp=cupy())
        rows = np.empty(self.num_arcs, dtype=self.indices.dtype)
        _cpu_csr().expand_rows(self.indptr, rows)
        return rows

    def edges(self) -> tuple[Any, Any, Any]:
        """Edge arrays ``(src, dst, weights or None)``; each undirected edge once, ``src <= dst``.

        Examples
        --------
        >>> G = Graph.from_edges([1, 2], [0, 1], directed=False)
        >>> [a.tolist() for a in G.edges()[:2]]
        [[0, 1], [1, 2]]
        """
        rows = self._arc_sources()
        if self.directed:
            return rows, self.indices, self.weights
        keep = rows <= self.indices
        w = None if self.weights is None else self.weights[keep]
        return rows[keep], self.indices[keep], w

    def reverse_csr(self) -> tuple[Any, Any, Any]:
        """``(indptr, indices, weights)`` of the in-edges (built once, then cached).

        An undirected graph returns its own arrays.
        """
        if not self.directed:
            return self.indptr, self.indices, self.weights
        if self._reverse is None and self.device == "cpu":
            # rows sorted by source, parallel arcs (and their weights) in CSR order
            from .cpu.transpose import transpose_csr

            n = self.num_vertices
            self._reverse = transpose_csr(
                self.indptr,
                self.indices,
                n,
                self.weights,
                index_dtype=_arrays.id_dtype_for(n),
            )
        elif self._reverse is None:
            # same arrays as the CPU's, with temporaries bounded by one pass of arcs
            from .gpu.transpose import transpose_csr_chunked  # noqa: PLC0415

            n = self.num_vertices
            self._reverse = transpose_csr_chunked(
                self.indptr,
                self.indices,
                n,
                self.weights,
                index_dtype=_arrays.id_dtype_for(n),
                xp=cupy(),
            )
        return self._reverse

    def transpose(self) -> Graph:
        """The graph with every arc reversed (shares the cached reverse CSR)."""
        indptr, indices, weights = self.reverse_csr()
        return Graph(indptr, indices, weights, directed=self.directed, validate=False)

    # ------------------------------------------------------------------ placement
    def to(self, device: str) -> Graph:
        """A copy of the graph on ``device`` (``"cpu"`` or ``"gpu"``); ``self`` if already there.

        Raises
        ------
        OutOfDeviceMemory
            If the graph does not fit in the GPU's free memory (says how much it needs).
        """
        target = resolve_device(device)
        if target == self.device:
            return self
        if target == "gpu":
            # not repr(self): its edge count scans every arc for self-loops
            kind = "directed" if self.directed else "undirected"
            what = f"{kind} graph ({self.num_vertices} vertices, {self.num_arcs} arcs)"
            check_device_memory(self.nbytes, what=what)
            from .gpu.transfer import to_device as move  # through pinned staging buffers
        else:

            def move(a):
                return a.get()

        arrays = [self.indptr, self.indices, self.weights]
        out = Graph(
            *(None if a is None else move(a) for a in arrays),
            directed=self.directed,
            validate=False,
        )
        out.vertex_labels = self.vertex_labels
        out._num_self_loops = self._num_self_loops
        if self._reverse is not None and self.directed:
            out._reverse = tuple(None if a is None else move(a) for a in self._reverse)
        return out

    def copy(self) -> Graph:
        """A deep copy on the same device."""
        out = Graph(
            self.indptr.copy(),
            self.indices.copy(),
            None if self.weights is None else self.weights.copy(),
            directed=self.directed,
            validate=False,
        )
        out.vertex_labels = None if self.vertex_labels is None else list(self.vertex_labels)
        return out

    # ------------------------------------------------------------------ transformations
    def _rebuilt(self, src, dst, w, *, directed, merge=None, drop_loops=False, n=None) -> Graph:
        return Graph.from_edges(
            src,
            dst,
            w,
            num_vertices=self.num_vertices if n is None else n,
            directed=directed,
            merge=merge,
            remove_self_loops=drop_loops,
        )

    def to_undirected(self, merge: str | None = "first") -> Graph:
        """Symmetrized copy: every arc becomes an undirected edge.

        ``merge`` (default ``"first"``) combines the two edges that arcs ``u -> v`` and
        ``v -> u`` become; pass ``None`` to keep them as parallel edges.
        """
        src, dst, w = self.edges()
        return self._rebuilt(src, dst, w, directed=False, merge=merge)

    def remove_self_loops(self) -> Graph:
        """Copy without self-loops."""
        src, dst, w = self.edges()
        return self._rebuilt(src, dst, w, directed=self.directed, drop_loops=True)

    def merge_duplicates(self, how: str = "first") -> Graph:
        """Copy in which parallel edges are merged into one (weights by ``how``)."""
        if how not in MERGE_POLICIES or how is None:
            raise InvalidArgumentError(f"how must be one of {MERGE_POLICIES[1:]}, got {how!r}")
        if self.device == "gpu":
            src, dst, w = self.edges()
            return self._rebuilt(src, dst, w, directed=self.directed, merge=how)
        indptr, indices, w = _cpu_csr().merge_duplicates(
            self.indptr, self.indices, self.weights, how
        )
        return Graph(indptr, indices, w, directed=self.directed, validate=False)

    def has_parallel_edges(self) -> bool:
        """True if some arc appears more than once."""
        g = self.to("cpu")
        return int(_cpu_csr().count_unique_per_row(g.indptr, g.indices).sum()) != g.num_arcs

    def relabel(self, order: str | Any = "degree", seed: int | None = None) -> tuple[Graph, Any]:
        """Renumber the vertices; returns ``(G2, perm)`` with ``perm[old] = new``.

        Parameters
        ----------
        order : {"random", "degree", "bfs", "rcm"} or array_like
            ``"degree"``: by decreasing degree (ties by id); ``"bfs"``: breadth-first order of
            each weak component from its lowest id; ``"rcm"``: reverse Cuthill-McKee (bandwidth
            reduction); or an explicit permutation ``perm[old] = new``.
        seed : int, optional
            Seed for ``"random"``.

        Examples
        --------
        >>> G = Graph.from_edges([0, 0, 0], [1, 2, 3])
        >>> G2, perm = G.relabel("degree")
        >>> int(perm[0]), G2.out_degree().tolist()
        (0, [3, 0, 0, 0])
        """
        from .relabel import relabel

        return relabel(self, order, seed)

    def subgraph(self, vertices: Any) -> Graph:
        """Induced subgraph on ``vertices`` (ids renumbered 0.. in the order given).

        Examples
        --------
        >>> G = Graph.from_edges([0, 1, 2], [1, 2, 3])
        >>> G.subgraph([1, 2, 3]).num_edges
        2
        """
        xp = self._xp()
        keep = xp.asarray(_arrays.as_id_array(vertices, "vertices"))
        n = self.num_vertices
        _arrays.check_id_range(keep, keep, n)
        new_id = xp.full(n, -1, dtype=np.int64)
        new_id[keep] = xp.arange(keep.shape[0])
        if int((new_id >= 0).sum()) != keep.shape[0]:
            raise InvalidArgumentError("vertices must not repeat")
        src, dst, w = self.edges()
        s, d = new_id[src], new_id[dst]
        mask = (s >= 0) & (d >= 0)
        return Graph.from_edges(
            s[mask],
            d[mask],
            None if w is None else w[mask],
            num_vertices=int(keep.shape[0]),
            directed=self.directed,
        )

    # ------------------------------------------------------------------ export
    def to_scipy(self, dtype: Any = None):
        """Sparse matrix (SciPy ``csr_array`` on the CPU, CuPy ``csr_matrix`` on the GPU).

        Unweighted graphs get float64 ones, as ``networkx.to_scipy_sparse_array`` does.
        """
        from .convert import to_scipy

        return to_scipy(self, dtype)

    def to_networkx(self, weight: str = "weight"):
        """NetworkX graph (``MultiDiGraph``/``MultiGraph`` when there are parallel edges)."""
        from .convert import to_networkx

        return to_networkx(self, weight)

    def to_pandas(self, source: str = "source", target: str = "target", weight: str = "weight"):
        """pandas DataFrame of the edges (each undirected edge once)."""
        import pandas as pd

        src, dst, w = (None if a is None else _arrays.to_host(a) for a in self.edges())
        cols = {source: src, target: dst}
        if w is not None:
            cols[weight] = w
        return pd.DataFrame(cols)

    def to_arrow(self, source: str = "source", target: str = "target", weight: str = "weight"):
        """pyarrow Table of the edges (each undirected edge once)."""
        import pyarrow as pa

        src, dst, w = (None if a is None else _arrays.to_host(a) for a in self.edges())
        cols = {source: src, target: dst}
        if w is not None:
            cols[weight] = w
        return pa.table(cols)


def _validated_csr(indptr, indices, weights, directed):
    """Check user-given CSR arrays; sort rows (copying) when they are not sorted."""
    if _arrays.is_cupy(indptr):
        return _checked_csr(indptr, indices, weights, directed)
    from .cpu.threads import threads_for

    # (the checks are parallel passes: fewer threads on a busy machine; cpu/threads.py)
    with threads_for(work=int(indptr.shape[0]) + int(indices.shape[0])):
        return _checked_csr(indptr, indices, weights, directed)


def _checked_csr(indptr, indices, weights, directed):
    """:func:`_validated_csr`'s checks and sort, on the thread count already set."""
    xp = cupy() if _arrays.is_cupy(indptr) else np
    if indptr.dtype.kind not in "iu" or indptr.shape[0] < 1:
        raise InvalidArgumentError("indptr must be a non-empty integer array of n + 1 offsets")
    indptr = indptr.astype(np.int64, copy=False)
    n = indptr.shape[0] - 1
    if int(indptr[0]) != 0 or int(indptr[-1]) != indices.shape[0]:
        raise InvalidArgumentError(
            f"indptr must start at 0 and end at len(indices)={indices.shape[0]}, "
            f"got {int(indptr[0])} and {int(indptr[-1])}"
        )
    if n and bool((xp.diff(indptr) < 0).any()):
        raise InvalidArgumentError("indptr must be non-decreasing")
    _arrays.check_id_range(indices, indices, n)
    indices = indices.astype(_arrays.id_dtype_for(n), copy=False)
    if weights is not None:
        weights = _arrays.as_weight_array(weights, indices.shape[0])
        weights = xp.asarray(weights)
    if xp is np and not _cpu_csr().rows_are_sorted(indptr, indices):
        indices = indices.copy()
        weights = None if weights is None else weights.copy()
        _cpu_csr().sort_rows(
            indptr,
            indices,
            weights if weights is not None else np.empty(0, np.float64),
            weights is not None,
        )
    if not directed:
        from .convert import csr_is_symmetric

        if not csr_is_symmetric(indptr, indices, weights):
            raise InvalidArgumentError(
                "directed=False needs a symmetric CSR (both arcs of every edge); "
                "use Graph(...).to_undirected() to symmetrize"
            )
    return indptr, indices, weights
