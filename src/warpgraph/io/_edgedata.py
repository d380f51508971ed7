"""EdgeData: what a reader returns before a Graph is built, and the Graph it becomes."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..errors import GraphFormatError, InvalidArgumentError

__all__ = ["EdgeData", "compact_ids", "to_graph"]


@dataclass
class EdgeData:
    """Edges read from a file, 0-based, as NumPy arrays.

    Attributes
    ----------
    src, dst : numpy.ndarray
        Endpoints (int64, or int32 when the reader knows the ids fit).
    weights : numpy.ndarray or None
        One weight per edge (int64 or float64 as written in the file), or None.
    num_vertices : int
        Vertex count (from the header when the format has one, else the largest id + 1).
    directed : bool
        What the file says (or the format's convention). An undirected file lists every edge
        once, in any orientation (a METIS file, which lists both, is reduced to one).
    format : str
        The format name the file was read as.
    extra : dict
        Format-specific data: ``vertex_weights`` (METIS, int64 of shape (n, ncon)),
        ``vertex_sizes`` (METIS), ``vertex_labels`` / ``edge_labels`` (labelled graphs),
        ``timestamps`` (KONECT), ``vertex_names`` (Pajek), ``comments`` (header lines), ...
    """

    src: np.ndarray
    dst: np.ndarray
    weights: np.ndarray | None
    num_vertices: int
    directed: bool
    format: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def num_edges(self) -> int:
        return int(self.src.shape[0])

    def check(self, path: str | None = None) -> None:
        """Cheap consistency checks (lengths, id range); raises GraphFormatError."""
        m = self.src.shape[0]
        if self.dst.shape[0] != m or (self.weights is not None and self.weights.shape[0] != m):
            raise GraphFormatError("edge columns differ in length", path)
        if self.num_vertices < 0:
            raise GraphFormatError(f"negative vertex count {self.num_vertices}", path)
        if m:
            lo = min(int(self.src.min()), int(self.dst.min()))
            hi = max(int(self.src.max()), int(self.dst.max()))
            if lo < 0 or hi >= self.num_vertices:
                raise GraphFormatError(
                    f"vertex ids must lie in [0, {self.num_vertices}), found "
                    f"{lo if lo < 0 else hi}",
                    path,
                )


def compact_ids(data: EdgeData) -> tuple[EdgeData, np.ndarray]:
    """``data`` with its vertices renumbered ``0..k-1`` in increasing id order, only those
    that appear in an edge kept, and the ids they had (``kept[i]`` is vertex ``i``'s). For
    sparse ids (hashes, labels), whose largest id + 1 would make most vertices isolated.

    Examples
    --------
    >>> data = EdgeData(np.array([7, 10**12]), np.array([10**12, 42]), None, 10**12 + 1, True)
    >>> small, kept = compact_ids(data)
    >>> small.src.tolist(), small.dst.tolist(), small.num_vertices, kept.tolist()
    ([0, 2], [2, 1], 3, [7, 42, 1000000000000])
    """
    from .._arrays import id_dtype_for

    m = data.num_edges
    kept, inverse = np.unique(np.concatenate([data.src, data.dst]), return_inverse=True)
    inverse = inverse.reshape(-1).astype(id_dtype_for(kept.size), copy=False)
    return replace(data, src=inverse[:m], dst=inverse[m:], num_vertices=int(kept.size)), kept


def _mirror(data: EdgeData) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Both arcs of every undirected edge (a self-loop once)."""
    off = data.src != data.dst
    src = np.concatenate([data.src, data.dst[off]])
    dst = np.concatenate([data.dst, data.src[off]])
    w = None if data.weights is None else np.concatenate([data.weights, data.weights[off]])
    return src, dst, w


def to_graph(
    data: EdgeData,
    *,
    directed: bool | None = None,
    weighted: bool | None = None,
    weight_dtype: Any = None,
    num_vertices: int | None = None,
    merge: str | None = None,
    remove_self_loops: bool = False,
    device: str | None = None,
):
    """Build the Graph for ``data`` with the user's overrides (see :func:`warpgraph.io.load`)."""
    from ..graph import Graph

    w = data.weights
    if weighted is False:
        w = None
    elif weighted is True and w is None:
        raise InvalidArgumentError(
            f"weighted=True but the {data.format or 'input'} file has no edge weights"
        )
    if w is not None and weight_dtype is not None:
        w = _cast_weights(w, np.dtype(weight_dtype))
    n = data.num_vertices
    if num_vertices is not None:
        if num_vertices < n:
            hi = -1
            if data.num_edges:
                hi = max(int(data.src.max()), int(data.dst.max()))
            if hi >= num_vertices:
                raise InvalidArgumentError(
                    f"num_vertices={num_vertices} is smaller than the largest id + 1 ({hi + 1})"
                )
        n = int(num_vertices)
    want_directed = data.directed if directed is None else bool(directed)
    src, dst = data.src, data.dst
    if want_directed and not data.directed:
        src, dst, w = _mirror(EdgeData(src, dst, w, n, False))
    return Graph.from_edges(
        src,
        dst,
        w,
        num_vertices=n,
        directed=want_directed,
        merge=merge,
        remove_self_loops=remove_self_loops,
        device=device,
    )


def _cast_weights(w: np.ndarray, dtype: np.dtype) -> np.ndarray:
    if dtype.kind not in "if" or dtype.itemsize not in (4, 8):
        raise InvalidArgumentError(f"weight_dtype must be int32/int64/float32/float64, not {dtype}")
    if dtype.kind == "i" and w.dtype.kind == "f":
        if not np.all(np.isfinite(w)) or not np.array_equal(w, np.round(w)):
            raise InvalidArgumentError(f"weights are not whole numbers; cannot cast to {dtype}")
    if dtype.kind == "i" and w.size:
        info = np.iinfo(dtype)
        if float(w.min()) < info.min or float(w.max()) > info.max:
            raise InvalidArgumentError(f"weights do not fit in {dtype}")
    return w.astype(dtype)
