"""Reading and writing graph files.

One module per format, all behind two functions:

* :func:`load` reads a file into a :class:`~warpgraph.Graph` (format from the name or the
  content; compression from the magic bytes).
* :func:`save` writes a Graph (format and compression from the name); every write is atomic.

:func:`read_edges` returns the parsed :class:`EdgeData` (0-based NumPy edge arrays, vertex
count, directedness and format-specific extras such as METIS vertex weights) without building a
Graph. ``docs/FORMATS.md`` describes every format and its conventions.

=============  ===========================================  ======  =====
format         files                                        read    write
=============  ===========================================  ======  =====
``mtx``        Matrix Market coordinate ``.mtx``            yes     yes
``edgelist``   SNAP / plain edge lists ``.txt .el .tsv``    yes     yes
``dimacs``     DIMACS 9 ``.gr`` (``p sp``), PACE ``p tw``   yes     yes
``metis``      METIS / Chaco ``.graph``                     yes     yes
``konect``     KONECT ``out.*``                             yes     yes
``edges``      Network Repository ``.edges``                yes     yes
``pajek``      Pajek ``.net``                               yes     yes
``graph500``   Graph500 binary edge lists                   yes     yes
``graphtool``  graph-tool ``.gt``                           yes     yes
``lgraph``     labelled ``.graph`` of subgraph matching     yes     yes
``wgb``        warpgraph binary CSR ``.wgb`` (memory-map)   yes     yes
=============  ===========================================  ======  =====

Examples
--------
>>> import os, tempfile, warpgraph as wg
>>> G = wg.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=False)
>>> path = os.path.join(tempfile.mkdtemp(), "triangle.mtx.gz")
>>> wg.save(G, path)
>>> H = wg.load(path)
>>> H.num_vertices, H.num_edges, H.is_directed()
(3, 3, False)
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from ..errors import GraphFormatError, InvalidArgumentError
from ._detect import EXTENSIONS, detect_format, format_from_name
from ._edgedata import EdgeData, to_graph
from ._edgedata import compact_ids as _compact_ids  # (load has a compact_ids argument)

__all__ = [
    "FORMATS",
    "EdgeData",
    "datasets",
    "detect_format",
    "load",
    "read_edges",
    "save",
]

_MODULES = {
    "mtx": "mtx",
    "edgelist": "edgelist",
    "dimacs": "dimacs",
    "metis": "metis",
    "konect": "konect",
    "edges": "netrepo",
    "pajek": "pajek",
    "graph500": "graph500",
    "graphtool": "graphtool",
    "lgraph": "lgraph",
    "wgb": "wgb",
}
_ALIASES = {
    "snap": "edgelist",
    "el": "edgelist",
    "txt": "edgelist",
    "matrixmarket": "mtx",
    "mm": "mtx",
    "gr": "dimacs",
    "pace": "dimacs",
    "graph": "metis",
    "chaco": "metis",
    "net": "pajek",
    "gt": "graphtool",
    "graph-tool": "graphtool",
    "g500": "graph500",
    "networkrepository": "edges",
}
FORMATS: tuple[str, ...] = tuple(_MODULES)


def _module(fmt: str):
    name = _canonical(fmt)
    return importlib.import_module(f".{_MODULES[name]}", __name__)


def _canonical(fmt: str) -> str:
    key = str(fmt).lower().lstrip(".")
    key = _ALIASES.get(key, key)
    if key not in _MODULES:
        raise GraphFormatError(f"unknown graph format {fmt!r}; known: {', '.join(FORMATS)}")
    return key


def __getattr__(name: str):
    if name == "datasets":
        return importlib.import_module(".datasets", __name__)
    if name in _MODULES.values() or name in ("mtx",):
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'warpgraph.io' has no attribute {name!r}")


def _check_options(fmt: str, func: Any, options: dict) -> None:
    import inspect

    params = inspect.signature(func).parameters
    if any(p.kind == p.VAR_KEYWORD for p in params.values()):
        return
    unknown = sorted(set(options) - set(params))
    if unknown:
        allowed = sorted(
            k for k, p in params.items() if p.kind == p.KEYWORD_ONLY and k != "progress"
        )
        raise InvalidArgumentError(
            f"option(s) {', '.join(unknown)} not understood by the {fmt} format; "
            f"it takes: {', '.join(allowed) or 'none'}"
        )


def read_edges(
    path: str | os.PathLike,
    format: str | None = None,
    *,
    progress: Any = None,
    **options: Any,
) -> EdgeData:
    """Parse a graph file into :class:`EdgeData` (0-based NumPy arrays) without a Graph.

    Parameters
    ----------
    path : str or path-like
        The file (``.gz``, ``.bz2``, ``.xz`` or ``.zst`` compressed or not).
    format : str, optional
        One of :data:`FORMATS`; default from the file name, else from the content.
    progress : callable, optional
        ``progress(done_bytes, total_bytes)``, called while a compressed file is inflated.
    **options
        Format-specific options (for example ``base=1`` for edge lists, ``packed=True`` for
        Graph500 files); see each format module and ``docs/FORMATS.md``.

    Returns
    -------
    EdgeData

    Raises
    ------
    GraphFormatError
        For malformed content (with file, line and reason) or an unknown format.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.el")
    >>> _ = open(path, "w").write("0 1 2.5\\n1 2 1\\n")
    >>> d = read_edges(path)
    >>> d.src.tolist(), d.dst.tolist(), d.weights.tolist()
    ([0, 1], [1, 2], [2.5, 1.0])
    """
    path = os.fspath(path)
    fmt = _canonical(format) if format is not None else detect_format(path)
    mod = _module(fmt)
    _check_options(fmt, mod.read, options)
    data = mod.read(path, progress=progress, **options)
    if not isinstance(data, EdgeData):  # wgb returns a Graph
        src, dst, w = data.edges()
        data = EdgeData(src, dst, w, data.num_vertices, data.directed, fmt)
    return data


def load(
    path: str | os.PathLike,
    format: str | None = None,
    *,
    directed: bool | None = None,
    weighted: bool | None = None,
    weight_dtype: Any = None,
    num_vertices: int | None = None,
    merge: str | None = None,
    remove_self_loops: bool = False,
    mmap: bool = False,
    device: str | None = None,
    progress: Any = None,
    compact_ids: bool = False,
    **options: Any,
):
    """Load a graph file into a :class:`~warpgraph.Graph`.

    Parameters
    ----------
    path : str or path-like
        The file; ``.gz``, ``.bz2``, ``.xz`` and ``.zst`` compression is undone transparently
        (recognised by content, whatever the name).
    format : str, optional
        One of :data:`FORMATS` (``"mtx"``, ``"edgelist"``, ``"dimacs"``, ``"metis"``,
        ``"konect"``, ``"edges"``, ``"pajek"``, ``"graph500"``, ``"graphtool"``, ``"lgraph"``,
        ``"wgb"``). Default: from the extension (after the compression suffix), else sniffed
        from the first bytes.
    directed : bool, optional
        Default: what the file says (Matrix Market ``symmetric``, a SNAP header, the ``.gt``
        flag...) or the format's convention. ``True`` on an undirected file makes both arcs of
        every edge; ``False`` on a directed file makes every arc an undirected edge (pass
        ``merge`` to fold reciprocal arcs into one edge).
    weighted : bool, optional
        Default: keep the weights the file has. ``False`` drops them; ``True`` requires them.
    weight_dtype : dtype, optional
        Cast the weights (checked: no silent overflow or truncation).
    num_vertices : int, optional
        Vertex count, for formats that do not store it (edge lists, Graph500) or to add
        trailing isolated vertices.
    merge : {None, "first", "last", "min", "max", "sum"}
        How parallel edges are merged (None keeps them), as in :meth:`Graph.from_edges`.
    remove_self_loops : bool
        Drop self-loops.
    mmap : bool
        ``.wgb`` only: memory-map the arrays instead of reading them (instant load; pages are
        read on first touch).
    device : {None, "cpu", "gpu", "auto"}
        Where the graph is built.
    progress : callable, optional
        ``progress(done_bytes, total_bytes)`` while a compressed file is inflated.
    compact_ids : bool
        Number the vertices that appear in an edge ``0..k-1`` (in increasing id order) and
        keep their ids in ``G.vertex_labels`` (``vertex_labels[i]``: the 0-based id vertex
        ``i`` would have had; a Pajek file's names when ``names=True``). For sparse ids
        (hashes, labels), where the vertex count, otherwise the largest id + 1, would make
        most vertices isolated or not fit in memory. Vertices without an edge are dropped;
        ``num_vertices`` cannot be given with it.
    **options
        Format-specific options (see ``docs/FORMATS.md``).

    Returns
    -------
    Graph

    Raises
    ------
    GraphFormatError
        For malformed content (file, 1-based line and reason), counts that disagree with a
        header, ids out of range, a truncated binary file, or an unknown format.
    FileNotFoundError
        If the file does not exist.

    Examples
    --------
    >>> import os, tempfile, warpgraph as wg
    >>> path = os.path.join(tempfile.mkdtemp(), "g.mtx")
    >>> _ = open(path, "w").write(
    ...     "%%MatrixMarket matrix coordinate pattern symmetric\\n3 3 2\\n2 1\\n3 2\\n")
    >>> G = wg.load(path)
    >>> G.num_vertices, G.num_edges, G.is_directed()
    (3, 2, False)
    """
    if compact_ids and num_vertices is not None:
        raise InvalidArgumentError(
            "compact_ids=True numbers the vertices found in the edges; num_vertices cannot be "
            "given with it"
        )
    path = os.fspath(path)
    fmt = _canonical(format) if format is not None else detect_format(path)
    mod = _module(fmt)
    if fmt == "wgb":
        _check_options(fmt, mod.read, options)
        G = mod.read(path, mmap=mmap, progress=progress, **options)
        if weighted is True and G.weights is None:
            raise InvalidArgumentError("weighted=True but the wgb file has no edge weights")
        as_is = (
            (directed is None or bool(directed) == G.directed)
            and merge is None
            and not remove_self_loops
            and weight_dtype is None
            and (num_vertices is None or num_vertices == G.num_vertices)
            and not compact_ids
        )
        if as_is:  # the stored CSR is the answer: no copy (and no parsing)
            if weighted is False and G.weights is not None:
                from ..graph import Graph

                G = Graph(G.indptr, G.indices, None, G.directed, validate=False)
            return G if device is None else G.to(device)
        src, dst, w = G.edges()
        data = EdgeData(src, dst, w, G.num_vertices, G.directed, fmt)
    else:
        if mmap:
            raise InvalidArgumentError("mmap=True needs the binary .wgb format")
        _check_options(fmt, mod.read, options)
        import inspect

        if directed is not None and "directed" in inspect.signature(mod.read).parameters:
            options["directed"] = directed  # formats without a header convention (Graph500)
        data = mod.read(path, progress=progress, **options)
    names = data.extra.get("vertex_names")
    if names is not None and len(names) != data.num_vertices:
        names = None
    kept = None
    if compact_ids:
        data, kept = _compact_ids(data)
    G = to_graph(
        data,
        directed=directed,
        weighted=weighted,
        weight_dtype=weight_dtype,
        num_vertices=num_vertices,
        merge=merge,
        remove_self_loops=remove_self_loops,
        device=device,
    )
    if kept is not None:
        ids = kept.tolist()
        G.vertex_labels = ids if names is None else [names[i] for i in ids]
    elif names is not None and len(names) == G.num_vertices:
        G.vertex_labels = list(names)
    return G


def save(G: Any, path: str | os.PathLike, format: str | None = None, **options: Any) -> None:
    """Write a graph; the format and the compression follow the file name.

    The write is atomic: the data go to a temporary file in the same folder, which replaces
    ``path`` only when complete.

    Parameters
    ----------
    G : Graph
        The graph (a GPU graph is copied to the host first).
    path : str or path-like
        Target file; a ``.gz``, ``.bz2``, ``.xz`` or ``.zst`` suffix compresses.
    format : str, optional
        One of :data:`FORMATS`; default from the extension.
    **options
        Format-specific options (see ``docs/FORMATS.md``).

    Raises
    ------
    GraphFormatError
        If the format is unknown or cannot be told from the name.
    InvalidArgumentError
        If the graph cannot be stored in the format (for example a directed graph as METIS).

    Examples
    --------
    >>> import os, tempfile, warpgraph as wg
    >>> G = wg.Graph.from_edges([0, 1], [1, 2], weights=[0.5, 2.0])
    >>> path = os.path.join(tempfile.mkdtemp(), "g.wgb")
    >>> wg.save(G, path)
    >>> wg.load(path, mmap=True).weights.tolist()
    [0.5, 2.0]
    """
    path = os.fspath(path)
    if format is None:
        format = format_from_name(path)
        if format is None:
            raise GraphFormatError(
                "cannot tell the format from the file name; pass format= (one of: "
                + ", ".join(FORMATS)
                + ")",
                path,
            )
    fmt = _canonical(format)
    mod = _module(fmt)
    _check_options(fmt, mod.write, options)
    mod.write(G.to("cpu"), path, **options)


_ = EXTENSIONS
