"""save -> load gives back the same graph (CSR arrays compared) for every format."""

from __future__ import annotations

import os

import numpy as np
import pytest

import warpgraph as wg
from warpgraph.io import FORMATS, read_edges

# extension used per format, and what the format can hold
EXT = {
    "mtx": ".mtx",
    "edgelist": ".txt",
    "dimacs": ".gr",
    "metis": ".graph",
    "konect": "",  # out.<name>
    "edges": ".edges",
    "pajek": ".net",
    "graph500": ".g500",
    "graphtool": ".gt",
    "lgraph": ".lg",
    "wgb": ".wgb",
}
CAN = {  # (directed, weights, self-loops, stores n)
    "mtx": (True, True, True, True),
    "edgelist": (True, True, True, True),
    "dimacs": (True, True, True, True),
    "metis": (False, True, False, True),
    "konect": (True, True, True, True),
    "edges": (True, True, True, True),
    "pajek": (True, True, True, True),
    "graph500": (True, False, True, False),
    "graphtool": (True, True, True, True),
    "lgraph": (False, False, True, True),
    "wgb": (True, True, True, True),
}


def path_for(tmp_path, fmt, suffix=""):
    if fmt == "konect":
        return os.path.join(tmp_path, "out.graph" + suffix)
    return os.path.join(tmp_path, "graph" + EXT[fmt] + suffix)


def canonical(G):
    """(n, directed, indptr, indices, weights sorted within equal (row, col) runs)."""
    rows = np.repeat(np.arange(G.num_vertices), np.diff(G.indptr))
    if G.weights is None:
        return G.num_vertices, G.directed, G.indptr.tolist(), G.indices.tolist(), None
    order = np.lexsort((G.weights, G.indices, rows))
    return (
        G.num_vertices,
        G.directed,
        G.indptr.tolist(),
        G.indices[order].tolist(),
        G.weights[order].tolist(),
    )


def assert_same(G, H):
    a, b = canonical(G), canonical(H)
    assert a[:2] == b[:2], (a[:2], b[:2])
    assert a[2] == b[2]
    assert a[3] == b[3]
    assert a[4] == b[4]


def random_graph(seed, n, m, *, directed, weights, loops=True, multi=True, isolated_tail=2):
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    if not loops:
        keep = src != dst
        src, dst = src[keep], dst[keep]
    if multi and src.size:
        src = np.concatenate([src, src[:3]])
        dst = np.concatenate([dst, dst[:3]])
    w = None
    if weights == "int":
        w = rng.integers(-5, 1000, src.shape[0])
    elif weights == "float":
        w = rng.standard_normal(src.shape[0]) * 1e3
        w[:2] = [0.1, 2.0]  # a short float and a whole-number float
    return wg.Graph.from_edges(src, dst, w, num_vertices=n + isolated_tail, directed=directed)


def load_back(path, fmt, G):
    kwargs = {}
    if fmt == "graph500":
        kwargs = {"num_vertices": G.num_vertices, "directed": G.directed}
    return wg.load(path, **kwargs)


CASES = [
    pytest.param(directed, weights, id=f"{'dir' if directed else 'undir'}-{weights}")
    for directed in (True, False)
    for weights in ("none", "int", "float")
]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(("directed", "weights"), CASES)
def test_roundtrip(tmp_path, fmt, directed, weights):
    can_dir, can_w, can_loops, _ = CAN[fmt]
    if directed and not can_dir:
        pytest.skip(f"{fmt} stores undirected graphs only")
    if weights != "none" and not can_w:
        pytest.skip(f"{fmt} stores no weights")
    if fmt == "metis" and weights == "float":
        pytest.skip("METIS weights are integers")
    G = random_graph(7, 40, 150, directed=directed, weights=weights, loops=can_loops)
    path = path_for(tmp_path, fmt)
    wg.save(G, path)
    assert_same(G, load_back(path, fmt, G))


@pytest.mark.parametrize("fmt", FORMATS)
def test_roundtrip_empty_graph(tmp_path, fmt):
    for n in (0, 5):
        G = wg.Graph.from_edges(
            np.zeros(0, np.int64), np.zeros(0, np.int64), num_vertices=n, directed=False
        )
        path = path_for(tmp_path, fmt)
        wg.save(G, path)
        H = load_back(path, fmt, G)
        assert H.num_edges == 0
        assert H.num_vertices == n


@pytest.mark.parametrize("fmt", [f for f in FORMATS if CAN[f][3]])
def test_isolated_trailing_vertices_kept(tmp_path, fmt):
    G = wg.Graph.from_edges([0, 1], [1, 2], num_vertices=10, directed=False)
    path = path_for(tmp_path, fmt)
    wg.save(G, path)
    assert wg.load(path).num_vertices == 10


@pytest.mark.parametrize("fmt", [f for f in FORMATS if CAN[f][2]])
def test_self_loops_and_multi_edges(tmp_path, fmt):
    G = wg.Graph.from_edges([0, 0, 0, 1, 2], [0, 1, 1, 2, 2], num_vertices=3, directed=False)
    path = path_for(tmp_path, fmt)
    wg.save(G, path)
    H = load_back(path, fmt, G)
    assert_same(G, H)
    assert H.num_self_loops == 2
    assert H.num_edges == 5


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz", ".zst"])
@pytest.mark.parametrize("fmt", ["mtx", "edgelist", "dimacs", "metis", "graphtool", "wgb"])
def test_compression_roundtrip(tmp_path, fmt, suffix):
    pytest.importorskip("zstandard") if suffix == ".zst" else None
    G = random_graph(3, 30, 90, directed=False, weights="int", loops=fmt != "metis")
    path = path_for(tmp_path, fmt, suffix)
    wg.save(G, path)
    with open(path, "rb") as f:
        head = f.read(4)
    magic = {".gz": b"\x1f\x8b", ".bz2": b"BZh", ".xz": b"\xfd7zX", ".zst": b"\x28\xb5\x2f\xfd"}
    assert head.startswith(magic[suffix])
    assert_same(G, wg.load(path))


def test_compression_detected_by_content_not_name(tmp_path):
    G = random_graph(4, 20, 50, directed=True, weights="none")
    path = os.path.join(tmp_path, "g.txt.gz")
    wg.save(G, path)
    renamed = os.path.join(tmp_path, "g.txt")
    os.replace(path, renamed)
    assert_same(G, wg.load(renamed))


def test_float_weights_exact(tmp_path):
    w = np.array([0.1, 1 / 3, 1e-300, 5e-324, 1.7976931348623157e308, -0.0, 2.0, 123456789.123])
    G = wg.Graph.from_edges(np.arange(8), np.arange(1, 9), w)
    for fmt in ("edgelist", "mtx", "pajek", "konect"):
        path = path_for(tmp_path, fmt)
        wg.save(G, path)
        H = wg.load(path)
        assert H.weights.dtype == np.float64
        assert H.weights.tobytes() == G.weights.astype(np.float64).tobytes(), fmt


def test_int_weights_stay_integers(tmp_path):
    G = wg.Graph.from_edges([0, 1], [1, 2], [2**40, -7])
    path = path_for(tmp_path, "edgelist")
    wg.save(G, path)
    H = wg.load(path)
    assert H.weights.dtype == np.int64
    assert H.weights.tolist() == [2**40, -7]


def test_wgb_preserves_dtypes_and_mmap(tmp_path):
    G = wg.Graph.from_edges([0, 1, 2], [1, 2, 0], np.array([1.5, 2.5, 3.5], np.float32))
    path = path_for(tmp_path, "wgb")
    wg.save(G, path)
    H = wg.load(path, mmap=True)
    assert H.weights.dtype == np.float32
    assert H.indices.dtype == G.indices.dtype
    assert not H.indptr.flags.writeable  # a read-only memory map, not a copy
    assert_same(G, H)
    H2 = wg.load(path, mmap=False, check=False)
    assert H2.indptr.flags.writeable
    assert_same(G, H2)


def test_wgb_layout_is_aligned(tmp_path):
    from warpgraph.io import wgb

    G = random_graph(5, 33, 77, directed=True, weights="float")
    path = path_for(tmp_path, "wgb")
    wg.save(G, path)
    with open(path, "rb") as f:
        head = f.read(128)
    h = wgb.read_header(head, path, os.path.getsize(path))
    for key in ("off_p", "off_i", "off_w"):
        assert h[key] % 64 == 0
    assert h["n"] == G.num_vertices and h["a"] == G.num_arcs and h["directed"]


class _EdgesOnly:
    """Just what the Graph500 writer needs, for ids too large to build a Graph from."""

    def __init__(self, src, dst, n):
        self._e = (np.asarray(src), np.asarray(dst), None)
        self.num_vertices = n

    def edges(self):
        return self._e


def test_graph500_packed_roundtrip(tmp_path):
    from warpgraph.io import graph500

    big = 2**33 + 5  # needs the high 16-bit halves
    src, dst = np.array([0, big - 1, 7]), np.array([big - 2, 3, 7])
    for packed in (False, True):
        path = os.path.join(tmp_path, f"e{int(packed)}.g500")
        graph500.write(_EdgesOnly(src, dst, big), path, packed=packed)
        assert os.path.getsize(path) == (12 if packed else 16) * 3
        d = read_edges(path)  # layout detected from the size and the values
        assert d.extra["packed"] == packed
        assert d.src.tolist() == src.tolist() and d.dst.tolist() == dst.tolist()
        assert d.num_vertices == big  # largest id + 1: the file does not store n


def test_graph500_scale(tmp_path):
    path = os.path.join(tmp_path, "e.g500")
    np.array([[0, 1], [2, 3]], dtype="<i8").tofile(path)
    G = wg.load(path, scale=4)
    assert G.num_vertices == 16 and not G.is_directed() and G.num_edges == 2


def test_pajek_names_roundtrip(tmp_path):
    G = wg.Graph.from_edges([0, 1], [1, 2], directed=False)
    G.vertex_labels = ["a b", "c", "d"]
    path = path_for(tmp_path, "pajek")
    wg.save(G, path)
    H = wg.load(path, names=True)
    assert H.vertex_labels == ["a b", "c", "d"]


def test_metis_vertex_weights_roundtrip(tmp_path):
    G = wg.Graph.from_edges([0, 1, 2], [1, 2, 3], [5, 6, 7], directed=False)
    vw = np.array([[1, 2], [3, 4], [5, 6], [7, 8]])
    path = path_for(tmp_path, "metis")
    wg.save(G, path, vertex_weights=vw)
    d = read_edges(path)
    assert d.extra["vertex_weights"].tolist() == vw.tolist()
    assert_same(G, wg.load(path))


def test_lgraph_labels_roundtrip(tmp_path):
    G = wg.Graph.from_edges([0, 1], [1, 2], directed=False)
    path = path_for(tmp_path, "lgraph")
    wg.save(G, path, vertex_labels=[4, 5, 4])
    d = read_edges(path)
    assert d.extra["vertex_labels"].tolist() == [4, 5, 4]
    assert d.extra["dialect"] == "t N M"


def test_write_is_atomic(tmp_path):
    path = path_for(tmp_path, "edgelist")
    G = wg.Graph.from_edges([0], [1])
    wg.save(G, path)
    before = open(path, "rb").read()

    class Boom(wg.Graph):
        def edges(self):
            raise RuntimeError("boom")

    bad = Boom(G.indptr, G.indices, None, directed=True, validate=False)
    with pytest.raises(RuntimeError, match="boom"):
        wg.save(bad, path)
    assert open(path, "rb").read() == before
    assert sorted(os.listdir(tmp_path)) == ["graph.txt"]  # no temporary file left


def test_load_options(tmp_path):
    G = wg.Graph.from_edges([0, 1, 1], [1, 0, 2], [1.0, 2.0, 3.0])
    path = path_for(tmp_path, "edgelist")
    wg.save(G, path)
    assert wg.load(path, weighted=False).weights is None
    U = wg.load(path, directed=False, merge="sum")
    assert U.num_edges == 2 and not U.is_directed()
    assert wg.load(path, weight_dtype=np.float32).weights.dtype == np.float32
    assert wg.load(path, num_vertices=9).num_vertices == 9
    with pytest.raises(wg.errors.InvalidArgumentError, match="smaller"):
        wg.load(path, num_vertices=2)
    with pytest.raises(wg.errors.InvalidArgumentError, match="not whole numbers"):
        wg.save(wg.Graph.from_edges([0], [1], [0.5]), path)
        wg.load(path, weight_dtype=np.int32)
    with pytest.raises(wg.errors.InvalidArgumentError, match="not understood"):
        wg.load(path, packed=True)
    with pytest.raises(wg.errors.InvalidArgumentError, match="mmap"):
        wg.load(path, mmap=True)


def test_undirected_file_loaded_as_directed_gets_both_arcs(tmp_path):
    path = os.path.join(tmp_path, "s.mtx")
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 3\n3 2\n")
    G = wg.load(path, directed=True)
    assert G.is_directed() and G.num_edges == 5  # 2 edges as 4 arcs + the self-loop once


def test_save_errors(tmp_path):
    G = wg.Graph.from_edges([0], [1])
    with pytest.raises(wg.errors.GraphFormatError, match="cannot tell the format"):
        wg.save(G, os.path.join(tmp_path, "g.unknown"))
    with pytest.raises(wg.errors.GraphFormatError, match="unknown graph format"):
        wg.save(G, os.path.join(tmp_path, "g.txt"), format="nope")
    with pytest.raises(wg.errors.InvalidArgumentError, match="undirected"):
        wg.save(G, os.path.join(tmp_path, "g.graph"))  # METIS needs undirected
