"""Chunked edge generation and graph construction, for graphs whose edge list does not fit.

A Graph500 Kronecker graph of scale 27 has ``2**31`` generated edges: 16 GB of int32 pairs
before a single arc of its CSR (about 17 GB of ``indices``) exists. Because the R-MAT and
Kronecker generators draw edge ``e`` as a pure function of ``(seed, e)`` (``_counter_rng``),
any slice of the list can be made on its own, so the list never has to exist in full:

* :class:`RmatChunks` is a re-iterable source of ``(src, dst)`` chunks whose concatenation is
  exactly ``rmat_edges(...)`` / ``kronecker_edges(...)`` (same seed, same device), generated on
  the GPU (one CUDA thread per edge) or on the CPU (Numba), one chunk at a time;
* :func:`warpgraph.gpu.csr.build_csr_chunked` builds the CSR from such a source in two passes
  (count the row lengths, then regenerate and scatter), holding at most two chunks at a time;
* :func:`kronecker_chunked` and :func:`rmat_chunked` put the two together. They return the same
  graph as :func:`~warpgraph.generators.kronecker` and :func:`~warpgraph.generators.rmat`
  (identical ``indptr`` and ``indices``), which also switch to this path on their own when the
  one-shot build would not fit in free device memory.

Examples
--------
>>> import numpy as np
>>> from warpgraph.generators import kronecker_edges
>>> from warpgraph.generators.chunked import RmatChunks
>>> chunks = RmatChunks.kronecker(8, seed=1, chunk_edges=1000, device="cpu")
>>> len(chunks), chunks.num_edges
(5, 4096)
>>> src = np.concatenate([s for s, _ in chunks])
>>> bool((src == kronecker_edges(8, seed=1, device="cpu")[0]).all())
True
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from . import _counter_rng as crng
from ._common import (
    STREAM_EDGES,
    STREAM_PERMUTATION,
    SeedLike,
    check_device,
    check_int,
    id_dtype,
    seed_sequence,
    stream_keys,
)

__all__ = [
    "DEFAULT_CHUNK_EDGES",
    "RmatChunks",
    "kronecker_chunked",
    "one_shot_fits",
    "rmat_chunked",
]

DEFAULT_CHUNK_EDGES = 1 << 27
"""Edges per chunk by default: 1 GB of int32 pairs, a few milliseconds of generation on a GPU."""


class RmatChunks:
    """Re-iterable chunks ``(src, dst)`` of an R-MAT / Graph500 Kronecker edge list.

    Each iteration draws the list again, chunk by chunk (``chunk_edges`` edges each, the last
    one shorter); the permutation of vertex labels (``permute=True``) is made once, on first
    use, and kept. Concatenated, the chunks equal ``rmat_edges`` with the same arguments.

    Parameters
    ----------
    scale, edgefactor, a, b, c, d, seed, permute, num_edges :
        As for :func:`~warpgraph.generators.rmat_edges` (no ``shuffle``: a shuffled list is not
        a pure function of the edge index).
    chunk_edges : int
        Edges per chunk (>= 1).
    device : {"auto", "cpu", "gpu"}
        NumPy chunks made by Numba, or CuPy chunks made by CUDA kernels.

    Examples
    --------
    >>> chunks = RmatChunks(4, 8, seed=7, chunk_edges=50, device="cpu")
    >>> [len(s) for s, _ in chunks]
    [50, 50, 28]
    """

    def __init__(
        self,
        scale: int,
        edgefactor: int = 16,
        a: float = 0.57,
        b: float = 0.19,
        c: float = 0.19,
        d: float | None = None,
        *,
        seed: SeedLike = None,
        permute: bool = False,
        num_edges: int | None = None,
        chunk_edges: int = DEFAULT_CHUNK_EDGES,
        device: str = "auto",
    ):
        from .kronecker import _check_size, _initiator, _thresholds

        self.scale, self.num_vertices, self.num_edges = _check_size(scale, edgefactor, num_edges)
        a, b, c, _ = _initiator(a, b, c, d)
        self.thresholds = _thresholds(a, b, c)
        self.chunk_edges = check_int("chunk_edges", chunk_edges, 1)
        self.device = check_device(device)
        self.keys = stream_keys(seed_sequence(seed))
        self.permute = bool(permute)
        self.dtype = id_dtype(self.num_vertices)
        self._perm: Any = None

    @classmethod
    def kronecker(
        cls,
        scale: int,
        edgefactor: int = 16,
        seed: SeedLike = None,
        *,
        chunk_edges: int = DEFAULT_CHUNK_EDGES,
        device: str = "auto",
    ) -> RmatChunks:
        """The chunks of ``kronecker_edges(scale, edgefactor, seed)`` (Graph500's parameters,
        permuted labels)."""
        from .kronecker import GRAPH500_INITIATOR

        a, b, c, d = GRAPH500_INITIATOR
        return cls(
            scale, edgefactor, a, b, c, d, seed=seed, permute=True, chunk_edges=chunk_edges,
            device=device,
        )  # fmt: skip

    def __len__(self) -> int:
        return -(-self.num_edges // self.chunk_edges)

    def _permutation(self):
        if self.permute and self._perm is None:
            key, n = self.keys[STREAM_PERMUTATION], self.num_vertices
            if self.device == "gpu":
                from . import _gpu

                self._perm = _gpu.random_permutation(key, n, self.dtype)
            else:
                self._perm = crng.random_permutation(key, n, self.dtype)
        return self._perm

    def release(self) -> None:
        """Drop the cached permutation (it is made again on the next iteration)."""
        self._perm = None

    def __iter__(self) -> Iterator[tuple[Any, Any]]:
        perm = self._permutation()
        m, step = self.num_edges, self.chunk_edges
        key = self.keys[STREAM_EDGES]
        if self.device == "gpu":
            from ..device import cupy
            from . import _gpu

            cp = cupy()
            for first in range(0, m, step):
                count = min(step, m - first)
                src = cp.empty(count, dtype=self.dtype)
                dst = cp.empty(count, dtype=self.dtype)
                _gpu.rmat_fill(key, self.scale, first, self.thresholds, perm, src, dst)
                yield src, dst
            return
        t_a, t_ab, t_abc = self.thresholds
        for first in range(0, m, step):
            count = min(step, m - first)
            src = np.empty(count, dtype=self.dtype)
            dst = np.empty(count, dtype=self.dtype)
            crng.rmat_pairs(key, self.scale, t_a, t_ab, t_abc, src, dst, first)
            if perm is not None:
                crng.relabel_pairs(src, dst, perm)
            yield src, dst


def one_shot_fits(n: int, m: int, directed: bool) -> bool:
    """Whether the one-shot GPU build of an ``m``-edge list on ``n`` vertices (the list, the
    label permutation and :func:`warpgraph.gpu.csr.estimate_bytes`) fits in free device
    memory; :func:`~warpgraph.generators.kronecker` and :func:`~warpgraph.generators.rmat`
    build unweighted graphs chunk by chunk when it does not."""
    from ..device import cupy
    from ..gpu.csr import estimate_bytes

    cp = cupy()
    isz = id_dtype(n).itemsize
    arcs = m if directed else 2 * m
    need = 2 * m * isz + n * (isz + 16) + estimate_bytes(arcs, n, 0, isz)
    free, _ = cp.cuda.runtime.memGetInfo()
    free += cp.get_default_memory_pool().free_bytes()
    return need * 1.05 <= free


def _chunked_graph(chunks: RmatChunks, directed: bool, simple: bool):
    """The graph of a chunk source: two-pass GPU build, or the whole list on the CPU."""
    from ..graph import Graph

    n = chunks.num_vertices
    merge = "min" if simple else None
    if chunks.device == "gpu":
        from ..gpu.csr import build_csr_chunked

        indptr, indices, _ = build_csr_chunked(
            chunks, n, directed=directed, remove_self_loops=simple, merge=merge
        )
        chunks.release()
        G = Graph(indptr, indices, None, directed=directed, validate=False)
        if simple:
            G._num_self_loops = 0  # removed by the build; spares the count's 16 bytes per arc
        return G
    parts = list(chunks)
    src = np.concatenate([p[0] for p in parts]) if parts else np.empty(0, chunks.dtype)
    dst = np.concatenate([p[1] for p in parts]) if parts else np.empty(0, chunks.dtype)
    del parts
    chunks.release()
    return Graph.from_edges(
        src, dst, num_vertices=n, directed=directed, merge=merge, remove_self_loops=simple,
        device="cpu",
    )  # fmt: skip


def kronecker_chunked(
    scale: int,
    edgefactor: int = 16,
    seed: SeedLike = None,
    directed: bool = False,
    *,
    simple: bool = True,
    chunk_edges: int = DEFAULT_CHUNK_EDGES,
    device: str = "auto",
):
    """Graph500 Kronecker graph built chunk by chunk (the largest graphs a GPU can hold).

    The same graph as ``kronecker(scale, edgefactor, seed, directed, simple=simple)`` without
    weights (identical ``indptr`` and ``indices``), but the edge list is never held in full:
    on the GPU it is generated twice, one chunk of ``chunk_edges`` edges at a time, to count
    the row lengths and then to fill the rows (:func:`warpgraph.gpu.csr.build_csr_chunked`).
    Peak device memory is about the CSR plus ``16 n`` bytes and a few GiB: 22.5 GiB measured at
    scale 27 (CSR 16.7 GiB) and 44.0 GiB at scale 28 on an H100.
    On the CPU the chunks are concatenated and built as usual (same graph).

    Parameters
    ----------
    scale, edgefactor, seed, directed, simple :
        As for :func:`~warpgraph.generators.kronecker`.
    chunk_edges : int
        Edges generated per chunk.
    device : {"auto", "cpu", "gpu"}
        Where the graph is generated and stored.

    Returns
    -------
    warpgraph.Graph

    Raises
    ------
    OutOfDeviceMemory
        When even the CSR does not fit (the message says how much it needs).

    Examples
    --------
    >>> from warpgraph.generators import kronecker
    >>> G = kronecker_chunked(8, seed=1, chunk_edges=500, device="cpu")
    >>> H = kronecker(8, seed=1, device="cpu")
    >>> bool((G.indices == H.indices).all() and (G.indptr == H.indptr).all())
    True
    """
    chunks = RmatChunks.kronecker(
        scale, edgefactor, seed_sequence(seed), chunk_edges=chunk_edges, device=device
    )
    return _chunked_graph(chunks, directed, simple)


def rmat_chunked(
    scale: int,
    edgefactor: int = 16,
    a: float = 0.57,
    b: float = 0.19,
    c: float = 0.19,
    d: float | None = None,
    seed: SeedLike = None,
    directed: bool = False,
    *,
    permute: bool = False,
    simple: bool = True,
    chunk_edges: int = DEFAULT_CHUNK_EDGES,
    device: str = "auto",
):
    """R-MAT graph built chunk by chunk: the graph of ``rmat(...)`` without weights (see
    :func:`kronecker_chunked`).

    Examples
    --------
    >>> G = rmat_chunked(6, 4, seed=2, chunk_edges=100, device="cpu")
    >>> G.num_vertices
    64
    """
    chunks = RmatChunks(
        scale, edgefactor, a, b, c, d, seed=seed_sequence(seed), permute=permute,
        chunk_edges=chunk_edges, device=device,
    )  # fmt: skip
    return _chunked_graph(chunks, directed, simple)
