"""Many breadth-first searches at once (iBFS): per-source distance sums, reach and eccentricity.

The all-pairs questions of unweighted graphs (closeness, eccentricity, diameter, the average
shortest path length) need one BFS per source but only three numbers from each: how many
vertices it reaches, the sum of their distances and the largest distance. Following iBFS (Liu,
Huang & Hu, SIGMOD 2016: joint traversal with bitwise status), 64 searches run together: every
vertex holds a 64-bit word per state (visited, frontier, next), bit ``b`` for the group's source
``b``, so one pass over a frontier vertex's row advances every search that has reached it, and
searches that share vertices share their memory traffic.

Per level, the words of the newly reached vertices are summed bit by bit into vertical (bit-
sliced) counters, a carry-save adder over 64-bit planes: adding a word costs about two word
operations on average, and reading the 64 counts at the level's end costs ``64 * log2(n)``.
That gives each source's count of vertices at this level, hence the reach, the distance sum
(level times count) and the eccentricity (the last level with a count).

CPU: the groups split among Numba's threads, each thread with its own three words per vertex and
two frontier lists (no atomics). GPU (``kernels/ibfs.cu``): ``batch`` groups advance together
(:class:`GpuGroups`), each level an expansion (a thread per frontier word, ``atomicOr`` into the
next words) and an update (a warp's 32 words counted bit by bit with ballots): one persistent
kernel for all the levels of a small batch or of a batch after one of deep searches, two
launches a level otherwise. A persistent kernel keeps each group's frontier as a list of its
words while the frontiers are thin (:data:`SPARSE_SHARE`): such a level reads only those words,
not the whole batch (a lattice's or a road network's hundreds of levels, each a thin ring).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba as nb
import numpy as np

from ...errors import InvalidArgumentError
from ...gpu.loader import declare
from ...graph import Graph
from ..triangles.api import place

__all__ = [
    "DistanceStats",
    "GpuGroups",
    "distance_stats",
    "expand_level",
    "gpu_grouping",
    "gpu_groups_pay",
    "graph_grouping",
    "group_span",
    "grouping_order",
    "host_rows",
    "put_back",
    "search_words",
    "seed_group",
    "settle",
    "source_ids",
]

SOURCE = "ibfs.cu"
declare(
    SOURCE,
    "ibfs_expand<int>",
    "ibfs_expand<long long>",
    "ibfs_stats_step",
    "ibfs_stats<int>",
    "ibfs_stats<long long>",
    "ibfs_level_counts_step",
    "ibfs_level_counts<int>",
    "ibfs_level_counts<long long>",
)

#: Searches per group: the bits of a word.
WIDTH = 64
#: Planes of the vertical counters: counts below 2**PLANES (a level holds at most n vertices).
PLANES = 48
#: Sources up to which the CPU runs one search per source instead of a group.
FEW_SOURCES = 2
#: Average degree from which those searches are direction-optimizing (else a plain queue).
DENSE_DEGREE = 8
#: GPU memory for the batch's words (three per vertex and group), in bytes. With 2 GiB the first
#: call of a process took ~4 s more on an H200 (urand:16 and :17; later calls 0.13 and 0.64 s):
#: the allocation, not the searches; a smaller batch costs a few more launches per level.
GPU_BATCH_BYTES = 256 << 20
#: A GPU batch of at most this many words (groups times n rounded up to 32) runs all its levels
#: in one persistent kernel; a larger one launches each level's two steps. Measured on an H100
#: (session 59, seconds): 64 sources of grid:512 (262,144 words, ~1,000 levels) 0.060 launched
#: per level, 0.024 persistent; every source of urand:16 (11M words a batch) 0.119 / 0.157, of
#: urand:17 (11M) 0.48 / 0.61 (distance_stats; harmonic centrality's: 0.61 / 0.66 at 7M).
PERSISTENT_WORDS = 1 << 22
#: Blocks per SM of the GPU's persistent searches (None: as many as can be resident, 8 on an
#: H100). Measured there with harmonic centrality's searches (session 59, seconds): grid:512
#: from 64 sources 0.0198 with 8, 0.0182 with 4, 0.0214 with 2; urand:17's every pair 0.656 /
#: 0.662 / 0.740 (1 a SM: 0.99).
SEARCH_BLOCKS_PER_SM: int | None = 4


#: Group the sources by neighbourhood (:mod:`.source_groups`) before the CPU's searches, where
#: there are more than :data:`GROUP_FROM` groups of them (fewer gain little). On 2 cores,
#: every source (session 61): grid:128 2.23 -> 0.61 s, delaunay_n16 27.1 -> 21.0 s, urand:14
#: within noise (docs/BFS.md).
GROUP_BY_NEIGHBOURHOOD = True
#: The same before the GPU's searches, in a graph at least :data:`GROUP_DEPTH_ON_GPU` deep
#: (the eccentricity of vertex 0). Measured on an H100 (session 62, every source):
#: ``distance_stats`` grid:256 0.822 -> 0.494 s, luxembourg_osm 5.75 -> 4.35 s, grid:128
#: 0.041 -> 0.031 s, but urand:16 0.127 -> 0.146 s (shallow: every search soon covers the
#: graph, and the grouping's host work is not won back) and delaunay_n16 (depth 109) within 5 %.
GROUP_ON_GPU = True
#: Levels from vertex 0 a graph needs for the GPU to group its searches (grid:128's 254 and
#: luxembourg_osm's 1,034 are grouped; delaunay_n16's 109 and urand:16's 6 are not).
GROUP_DEPTH_ON_GPU = 128
GROUP_FROM = 2
#: Bytes a vertex slot of a group takes in a GPU batch: its three words (seen, front, found)
#: and its entries in the two frontier lists (4 bytes each).
SLOT_BYTES = 32
#: A persistent search's level is sparse (only the listed frontier words expanded and settled,
#: ``kernels/ibfs_steps.cuh``) while no group's frontier holds more than 1 / SPARSE_SHARE of its
#: words; 0 turns the lists off (every level reads every word).
SPARSE_SHARE = 16
#: Groups of fewer words than this keep no lists (a level of few words is cheap either way).
SPARSE_MIN_STRIDE = 1024
#: Batches of more groups keep no lists (each block reads every group's list length twice a
#: level to choose).
SPARSE_MAX_GROUPS = 4096
#: A batch of more than :data:`PERSISTENT_WORDS` words runs persistent anyway once a batch of
#: the same searches went this many levels deep (two launches a level cost more there, and
#: a road network's thin frontiers run sparse levels).
DEEP_LEVELS = 256


class DistanceStats(NamedTuple):
    """Per source: ``reached`` (vertices reached, the source included), ``total`` (sum of their
    distances) and ``eccentricity`` (largest distance to a reached vertex); int64 arrays."""

    reached: Any
    total: Any
    eccentricity: Any


def distance_stats(G: Graph, sources: Any = None, *, device: str = "auto") -> DistanceStats:
    """Reach, distance sum and eccentricity of a BFS from each source, 64 searches at a time.

    Parameters
    ----------
    G : Graph
        Directed (searches follow the arcs) or undirected; weights are ignored.
    sources : array_like of int, optional
        Source vertices (repeats allowed); default every vertex, in id order.
    device : {"auto", "cpu", "gpu"}
        Where to compute; the arrays live there.

    Returns
    -------
    DistanceStats
        ``reached``, ``total`` and ``eccentricity``, one entry per source.

    Raises
    ------
    InvalidArgumentError
        For a source outside ``[0, n)`` or of a non-integer dtype.

    Examples
    --------
    >>> import warpgraph as wg
    >>> from warpgraph.algorithms.bfs import distance_stats
    >>> G = wg.Graph.from_edges([0, 1, 2], [1, 2, 3], num_vertices=5, directed=False)
    >>> s = distance_stats(G, device="cpu")
    >>> s.reached.tolist(), s.total.tolist(), s.eccentricity.tolist()
    ([4, 4, 4, 4, 1], [6, 4, 4, 6, 0], [3, 2, 2, 3, 0])
    """
    if not isinstance(G, Graph):
        raise InvalidArgumentError(
            f"distance_stats needs a warpgraph.Graph, got {type(G).__name__}"
        )
    G, dev = place(G, device)
    n = G.num_vertices
    src = source_ids(sources, n)
    if dev == "gpu":
        order = gpu_grouping(G, src)
        stats = _stats_gpu(G, src if order is None else src[order])
        return stats if order is None else _in_source_order(stats, order)
    if src.size <= FEW_SOURCES:
        return _stats_by_bfs(G, src)
    from ...cpu.threads import threads_for

    out = [np.zeros(src.size, dtype=np.int64) for _ in range(3)]
    with threads_for(n * max(1, src.size // WIDTH)):
        threads = nb.get_num_threads()
        span = group_span(src.size, threads)
        order = graph_grouping(G, src, span)
        _stats_cpu(G.indptr, G.indices, src if order is None else src[order], span, threads,
                   *out)  # fmt: skip
    return DistanceStats(*out) if order is None else _in_source_order(DistanceStats(*out), order)


def graph_grouping(G: Graph, src: np.ndarray, size: int) -> np.ndarray | None:
    """:func:`grouping_order` over ``G``'s own rows (copied to the host only where used)."""
    return grouping_order(*host_rows(G), src, size) if _groups_pay(src.size, size) else None


def gpu_grouping(G: Graph, ids: np.ndarray, depth: int | None = None) -> np.ndarray | None:
    """:func:`graph_grouping` of ``ids`` for the GPU's groups of :data:`WIDTH`, where
    :func:`gpu_groups_pay`."""
    return graph_grouping(G, ids, WIDTH) if gpu_groups_pay(G, ids.size, depth) else None


def gpu_groups_pay(G: Graph, searches: int, depth: int | None = None) -> bool:
    """Whether the GPU's ``searches`` are grouped by neighbourhood: :data:`GROUP_ON_GPU` on,
    more than :data:`GROUP_FROM` groups, and a graph at least :data:`GROUP_DEPTH_ON_GPU`
    deep: ``depth``, or the eccentricity of vertex 0 (one search on the GPU) when not given."""
    if not GROUP_ON_GPU or not _groups_pay(searches, WIDTH):
        return False
    if depth is None:
        depth = int(_stats_gpu(G, np.zeros(1, dtype=np.int64)).eccentricity[0])
    return depth >= GROUP_DEPTH_ON_GPU


def grouping_order(indptr, indices, src: np.ndarray, size: int) -> np.ndarray | None:
    """The order in which ``src``'s searches are grouped, ``size`` a group, by neighbourhood
    (:func:`.source_groups.neighbourhood_order` over the host rows ``indptr`` / ``indices``,
    the graph the searches run on), or None to keep the given order: no more than
    :data:`GROUP_FROM` groups, or :data:`GROUP_BY_NEIGHBOURHOOD` off."""
    if not _groups_pay(src.size, size):
        return None
    from .source_groups import neighbourhood_order

    return neighbourhood_order(indptr, indices, src, size)


def _groups_pay(searches: int, size: int) -> bool:
    return GROUP_BY_NEIGHBOURHOOD and searches > GROUP_FROM * size


def put_back(values: Any, order: np.ndarray | None) -> Any:
    """``values`` computed for ``ids[order]`` put back at their ids' places (host or device
    array); ``values`` itself when ``order`` is None. ``ValueError`` unless ``order`` is a
    1-D integer array as long as ``values``.

    Examples
    --------
    >>> import numpy as np
    >>> put_back(np.array([10, 20, 30]), np.array([2, 0, 1])).tolist()  # (10 is id 2's, 20 id 0's)
    [20, 30, 10]
    """
    if order is None:
        return values
    order = np.asarray(order)
    if order.ndim != 1 or order.dtype.kind not in "iu" or order.size != len(values):
        raise ValueError(f"order must be a 1-D integer array of {len(values)} positions, got "
                         f"dtype {order.dtype} and shape {order.shape}")  # fmt: skip
    from ..._arrays import is_cupy

    xp = np
    if is_cupy(values):
        from ...device import cupy

        xp = cupy()
    back = xp.empty_like(values)
    back[xp.asarray(order)] = values
    return back


def _in_source_order(stats: DistanceStats, order: np.ndarray) -> DistanceStats:
    """Statistics computed for ``src[order]`` put back at their sources' places."""
    return DistanceStats(*(put_back(values, order) for values in stats))


def host_rows(G: Graph) -> tuple[np.ndarray, np.ndarray]:
    """``(indptr as int64, indices)`` of ``G`` on the host (the CPU searches' arrays)."""
    from ..._arrays import to_host

    return to_host(G.indptr).astype(np.int64, copy=False), to_host(G.indices)


def group_span(searches: int, threads: int) -> int:
    """Searches per group: 64, or fewer so that every thread has a group (one group is one
    thread's work: with 64 sources and 16 threads, 16 groups of 4 beat one of 64).

    Examples
    --------
    >>> group_span(1000, 16), group_span(64, 16), group_span(3, 16)
    (63, 4, 1)
    """
    return max(1, min(WIDTH, -(-searches // threads)))


def _stats_by_bfs(G: Graph, src: np.ndarray) -> DistanceStats:
    """The stats of a few sources, one search each: the direction-optimizing BFS (all threads)
    on graphs of average degree :data:`DENSE_DEGREE` or more, whose few levels it crosses
    fast, else a plain queue (:func:`warpgraph.cpu.traverse.bfs_levels`). On 2 cores: urand:17
    (degree 16) 4 ms against 8.8 ms for the queue; grid:708 (degree 4, 1,400 levels, each a
    parallel step for the other) 4.9 ms against 21 ms; a one-source group 19 ms."""
    from ...cpu.traverse import bfs_reach_stats
    from .api import bfs

    dense = G.num_arcs >= DENSE_DEGREE * G.num_vertices
    out = [np.zeros(src.size, dtype=np.int64) for _ in range(3)]
    for i, s in enumerate(src.tolist()):
        if dense:
            levels = bfs(G, s, device="cpu")
            found = levels[levels >= 0]
            stats = found.size, found.sum(dtype=np.int64), found.max()
        else:
            stats = bfs_reach_stats(G.indptr, G.indices, s)
        out[0][i], out[1][i], out[2][i] = stats
    return DistanceStats(*out)


def source_ids(sources: Any, n: int) -> np.ndarray:
    """``sources`` (host or device array_like of vertex ids; None: every vertex) as an int64
    host array, checked to lie in ``[0, n)``.

    Examples
    --------
    >>> source_ids([2, 0], 3).tolist(), source_ids(None, 2).tolist()
    ([2, 0], [0, 1])
    """
    if sources is None:
        return np.arange(n, dtype=np.int64)
    src = np.asarray(sources.get() if hasattr(sources, "get") else sources)
    if src.ndim == 0:  # (NetworkX's k= is a count; here a vertex list is asked for)
        raise InvalidArgumentError(
            f"sources must be a 1-D array of vertex ids, got the scalar {src.item()!r}; pass "
            f"[{src.item()!r}] for that one vertex, or rng.choice(n, k, replace=False) for k "
            "sampled ones"
        )
    if src.ndim != 1 or (src.size and src.dtype.kind not in "iu"):
        raise InvalidArgumentError(f"sources must be a 1-D array of vertex ids, got {src.dtype}")
    src = src.astype(np.int64)
    if src.size and (int(src.min()) < 0 or int(src.max()) >= n):
        raise InvalidArgumentError(f"sources hold ids outside [0, {n})")
    return src


@nb.njit(cache=True, nogil=True, inline="always")
def seed_group(sources, first, width, seen, front, current):  # pragma: no cover - compiled
    """Start the group of ``width`` searches from ``sources[first:]``: bit ``b`` of its word
    set in ``front`` and ``seen`` (all zero before) at the ``b``-th source; the distinct
    sources listed in ``current``. Returns how many were listed."""
    nf = 0
    for b in range(width):
        s = sources[first + b]
        bit = np.uint64(1) << np.uint64(b)
        if front[s] == 0:
            current[nf] = s
            nf += 1
        front[s] |= bit
        seen[s] |= bit
    return nf


@nb.njit(cache=True, nogil=True, inline="always")
def expand_level(indptr, indices, current, nf, front, seen, found, following):  # pragma: no cover
    """One level of the group's searches: each of the ``nf`` frontier vertices in ``current``
    passes its ``front`` bits (then cleared) along its arcs, into the ``found`` word of each
    head those searches have not seen. The heads given their first bits are listed in
    ``following``; returns how many. (The caller moves ``found`` into ``seen`` and ``front``.)"""
    nn = 0
    for a in range(nf):
        v = current[a]
        f = front[v]
        front[v] = 0
        for j in range(indptr[v], indptr[v + 1]):
            u = indices[j]
            new = f & ~seen[u]
            if new:
                if found[u] == 0:
                    following[nn] = u
                    nn += 1
                found[u] |= new
    return nn


@nb.njit(cache=True, nogil=True, inline="always")
def settle(u, seen, front, found):  # pragma: no cover - compiled
    """Move the bits ``expand_level`` found at ``u`` into ``seen`` and the next ``front``
    (``found`` cleared); returns them."""
    t = found[u]
    found[u] = 0
    seen[u] |= t
    front[u] = t
    return t


@nb.njit(cache=True, nogil=True)
def search_words(n):  # pragma: no cover - compiled
    """A group's working arrays for ``n`` vertices: the ``seen``, ``front`` and ``found`` words
    (zero) and two frontier lists (``current``, ``following``)."""
    seen = np.zeros(n, dtype=np.uint64)
    front = np.zeros(n, dtype=np.uint64)
    found = np.zeros(n, dtype=np.uint64)
    return seen, front, found, np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)


@nb.njit(cache=True, nogil=True, inline="always")
def _count_bits(planes, used, width, level, reached, total, ecc, first):  # pragma: no cover
    """Read the vertical counters (``used`` planes) into the per-source totals of ``width``
    searches starting at ``first``, for vertices found at ``level``; clear the planes."""
    for b in range(width):
        count = 0
        for i in range(used):
            count |= int((planes[i] >> np.uint64(b)) & np.uint64(1)) << i
        if count:
            reached[first + b] += count
            total[first + b] += level * count
            ecc[first + b] = level
    for i in range(used):
        planes[i] = 0


@nb.njit(cache=True, nogil=True, parallel=True)
def _stats_cpu(indptr, indices, sources, span, workers, reached, total, ecc):  # pragma: no cover
    """Each worker runs groups ``w, w + workers, ...`` of ``span`` sources with its own
    words."""
    n = indptr.shape[0] - 1
    k = sources.shape[0]
    groups = (k + span - 1) // span
    for w in nb.prange(workers):
        seen, front, found, current, following = search_words(n)
        planes = np.zeros(PLANES, dtype=np.uint64)
        for g in range(w, groups, workers):
            first = g * span
            width = min(span, k - first)
            seen[:] = 0
            nf = seed_group(sources, first, width, seen, front, current)
            reached[first : first + width] = 1
            level = 0
            while nf:
                level += 1
                nn = expand_level(indptr, indices, current, nf, front, seen, found, following)
                used = 0
                for a in range(nn):
                    t = settle(following[a], seen, front, found)
                    i = 0
                    while t:  # carry-save add of t into the planes
                        c = planes[i]
                        planes[i] = c ^ t
                        t = c & t
                        i += 1
                    used = max(used, i)
                _count_bits(planes, used, width, level, reached, total, ecc, first)
                current, following = following, current
                nf = nn


def _stats_gpu(G: Graph, src: np.ndarray) -> DistanceStats:
    from ...device import cupy

    cp = cupy()
    n, k = G.num_vertices, src.size
    out = [cp.zeros(k, dtype=cp.int64) for _ in range(3)]
    if k == 0 or n == 0:
        return DistanceStats(*out)
    out[0][:] = 1
    groups = -(-k // WIDTH)
    stride = GpuGroups.stride_of(n)
    batch = max(1, min(groups, GPU_BATCH_BYTES // (SLOT_BYTES * stride)))
    searches = GpuGroups(G, batch, SOURCE)
    for first_group in range(0, groups, batch):
        width = min(batch, groups - first_group)
        first = first_group * WIDTH
        count = min(k - first, width * WIDTH)
        searches.start(src[first : first + count], width)
        results = [a[first:] for a in out]  # (the kernel adds at each search's batch index)
        searches.run("ibfs_stats", width, *results)  # (no level bound: top = n)
    return DistanceStats(*out)


class GpuGroups:
    """A batch of groups of 64 searches on the GPU over ``rows`` (a Graph there): the three
    words per vertex and group (``seen``, ``front``, ``found``; group ``g``'s word for ``v`` at
    ``g * stride + v``) and two frontier lists per group, seeded by :meth:`start`, searched to
    the end by :meth:`run`: one cooperative launch of a persistent kernel of ``source``
    (``ibfs.cu``'s statistics or level counts, or ``harmonic.cu``'s level tables and counts),
    whose levels are ``kernels/ibfs_steps.cuh``'s, sparse while the frontiers are thin; or, for
    a large batch of shallow searches, two launches a level.
    """

    def __init__(self, rows: Graph, batch: int, source: str):
        from ...device import cupy

        cp = cupy()
        self.rows, self.source = rows, source
        self.stride = self.stride_of(rows.num_vertices)
        self.id_type = "int" if rows.indices.dtype == cp.int32 else "long long"
        self.indptr = rows.indptr.astype(cp.int64, copy=False)
        self.words = cp.empty((3, batch * self.stride), dtype=cp.uint64)
        self.list_entries = cp.empty(2 * batch * self.stride, dtype=cp.uint32)
        self.list_counts = cp.zeros(2 * batch, dtype=cp.uint32)  # (list k's at k * width)
        self.last_level = cp.zeros(1, dtype=cp.int64)
        self.barrier = cp.zeros(1, dtype=cp.uint64)
        self.depth = 0  # (the deepest level a batch reached so far)

    @staticmethod
    def stride_of(n: int) -> int:
        """Words per group: ``n`` rounded up to 32 (a warp's 32 words belong to one group)."""
        return -(-n // 32) * 32

    def list_limit(self, width: int) -> int:
        """The longest frontier list (words of a group) of a sparse level for ``width`` groups;
        0: no lists (:data:`SPARSE_SHARE`, :data:`SPARSE_MIN_STRIDE`,
        :data:`SPARSE_MAX_GROUPS`)."""
        if not SPARSE_SHARE or self.stride < SPARSE_MIN_STRIDE or width > SPARSE_MAX_GROUPS:
            return 0
        return self.stride // SPARSE_SHARE

    def start(self, starts: np.ndarray, width: int) -> None:
        """Clear the first ``width`` groups' words and seed them from ``starts`` (64 a group,
        host int64 vertex ids); list 0 holds each group's source words, list 1 nothing."""
        from ...device import cupy

        cp = cupy()
        total = width * self.stride
        self.words[:, :total] = 0
        seen, front = self.words[0, :total], self.words[1, :total]
        where, bits = _source_words(starts, self.stride)
        front[cp.asarray(where)] = cp.asarray(bits)
        seen[:] = front
        if self.list_limit(width):
            group = where // self.stride
            count = np.bincount(group, minlength=width)  # (int64, as the ranks)
            rank = np.arange(where.size) - np.repeat(np.cumsum(count) - count, count)
            entries = self.list_entries[: 2 * total].reshape(2, width, self.stride)
            entries[0].reshape(-1)[cp.asarray(group * self.stride + rank)] = cp.asarray(
                (where - group * self.stride).astype(np.uint32)
            )
            self.list_counts[: 2 * width] = 0
            self.list_counts[:width] = cp.asarray(count.astype(np.uint32))

    def persistent(self, total: int) -> bool:
        """Whether a batch of ``total`` words runs in one persistent kernel: a small one, or
        one after a batch that went :data:`DEEP_LEVELS` deep."""
        return total <= PERSISTENT_WORDS or self.depth >= DEEP_LEVELS

    def run(self, kernel: str, width: int, *args, level_type: str = "", top: int = 0) -> int:
        """Every level (up to ``top``; 0: any) of the first ``width`` groups by ``kernel`` of the
        source, instantiated for the graph's id type, then ``level_type``: as one persistent
        kernel (:meth:`persistent`), else each level ``ibfs.cu``'s expansion then
        ``{kernel}_step``. ``args`` come after the words. Returns the last level that found a
        vertex (``top`` where a search may go on)."""
        from ...gpu.launch import launch, launch_cooperative, max_cooperative_blocks, sm_count
        from ...gpu.loader import get_kernel

        top = top or self.rows.num_vertices
        total = width * self.stride
        words = tuple(self.words[i, :total] for i in range(3))  # (seen, front, found)
        self.last_level[:] = 0
        rows = (self.indptr, self.rows.indices, self.stride, width)
        if self.persistent(total):
            self.barrier[:] = 0  # (wg::grid_sync counts arrivals from 0 in each launch)
            types = self.id_type + (f", {level_type}" if level_type else "")
            k = get_kernel(self.source, f"{kernel}<{types}>", cooperative=True)
            blocks = max_cooperative_blocks(k)
            if SEARCH_BLOCKS_PER_SM is not None:
                blocks = min(blocks, SEARCH_BLOCKS_PER_SM * sm_count())
            lists = (self.list_entries, self.list_counts, np.uint32(self.list_limit(width)))
            args = (*rows, *words, *args, top, self.last_level, self.barrier, *lists)
            launch_cooperative(k, args, blocks=blocks)
            last = int(self.last_level.get()[0])
        else:
            expand = get_kernel(SOURCE, f"ibfs_expand<{self.id_type}>")
            suffix = f"<{level_type}>" if level_type else ""
            step = get_kernel(self.source, f"{kernel}_step{suffix}")
            last = 0
            for level in range(1, top + 1):
                launch(expand, total, (*rows, *words))
                launch(step, total, (self.stride, width, *words, *args, level, self.last_level))
                last = int(self.last_level.get()[0])  # (one word read: nothing new, all ended)
                if last != level:
                    break
        self.depth = max(self.depth, last)
        return last


def _source_words(sources: np.ndarray, stride: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions (``group * stride + source``) and words of the sources' bits, one entry per
    position (sources repeated within a group share a word)."""
    ids = np.arange(sources.size, dtype=np.int64)
    where = (ids // WIDTH) * stride + sources
    bits = np.left_shift(np.uint64(1), (ids % WIDTH).astype(np.uint64))
    order = np.argsort(where, kind="stable")
    where, bits = where[order], bits[order]
    starts = np.flatnonzero(np.r_[True, where[1:] != where[:-1]])
    return where[starts], np.bitwise_or.reduceat(bits, starts)
