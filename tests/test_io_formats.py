"""Format quirks that must load, format detection, and per-format conventions.

Small files written by hand; expected graphs checked edge by edge.
"""

from __future__ import annotations

import gzip
import os

import numpy as np
import pytest

import warpgraph as wg
from warpgraph.io import detect_format, read_edges
from warpgraph.io._detect import format_from_name, sniff


def write(tmp_path, name, text, compress=False):
    path = os.path.join(tmp_path, name)
    data = text.encode() if isinstance(text, str) else text
    if compress:
        data = gzip.compress(data)
    with open(path, "wb") as f:
        f.write(data)
    return path


def pairs(d):
    return sorted(zip(d.src.tolist(), d.dst.tolist(), strict=True))


# ------------------------------------------------------------------------------ Matrix Market
def test_mtx_body_only_lower_triangle_is_undirected(tmp_path):
    d = read_edges(write(tmp_path, "b.mtx", "2 1\n1113 1\n3 2\n", compress=True))
    assert not d.directed and d.num_vertices == 1113
    assert pairs(d) == [(1, 0), (2, 1), (1112, 0)]
    assert d.extra["symmetry"] == "symmetric (guessed)"


def test_mtx_body_only_mixed_is_directed(tmp_path):
    d = read_edges(write(tmp_path, "b.mtx", "2 1\n1 3\n"))
    assert d.directed and pairs(d) == [(0, 2), (1, 0)]
    d = read_edges(write(tmp_path, "b.mtx", "2 1\n3 1\n"), symmetric=False)
    assert d.directed


def test_mtx_body_only_with_size_line(tmp_path):
    d = read_edges(write(tmp_path, "b.mtx", "% c\n5 5 2\n2 1\n4 3\n"))
    assert d.num_vertices == 5 and pairs(d) == [(1, 0), (3, 2)]
    # three numbers that are not a size line: a weighted entry
    d = read_edges(write(tmp_path, "b.mtx", "2 1 7\n4 3 9\n"))
    assert d.weights.tolist() == [7, 9] and d.num_vertices == 4


def test_mtx_fields_and_symmetries(tmp_path):
    head = "%%MatrixMarket matrix coordinate"
    d = read_edges(write(tmp_path, "a.mtx", f"{head} real general\n2 3 2\n1 3 0.5\n2 1 4\n"))
    assert d.directed and d.num_vertices == 3 and d.weights.tolist() == [0.5, 4.0]
    assert d.weights.dtype == np.float64
    d = read_edges(write(tmp_path, "a.mtx", f"{head} integer symmetric\n3 3 2\n2 1 5\n3 3 -1\n"))
    assert not d.directed and d.weights.dtype == np.int64
    G = wg.load(write(tmp_path, "a.mtx", f"{head} real skew-symmetric\n2 2 1\n2 1 1.5\n"))
    assert G.is_directed() and sorted(G.weights.tolist()) == [-1.5, 1.5]
    d = read_edges(
        write(tmp_path, "a.mtx", "%%matrixmarket MATRIX Coordinate Pattern General\n1 1 0\n")
    )
    assert d.num_edges == 0 and d.num_vertices == 1


def test_mtx_rectangular_indices_checked(tmp_path):
    head = "%%MatrixMarket matrix coordinate pattern general\n"
    with pytest.raises(wg.errors.GraphFormatError, match="outside the 2 x 3 matrix") as info:
        read_edges(write(tmp_path, "a.mtx", head + "2 3 2\n1 3\n3 1\n"))
    assert info.value.line == 4


# ------------------------------------------------------------------------------ DIMACS / PACE
def test_pace_gr(tmp_path):
    text = "c PACE 2016\np tw 4 3\n1 2\n1 3\nc inline comment\n3 4\n"
    d = read_edges(write(tmp_path, "r.gr", text))
    assert not d.directed and d.weights is None and pairs(d) == [(0, 1), (0, 2), (2, 3)]


def test_dimacs_sp(tmp_path):
    d = read_edges(write(tmp_path, "r.gr", "c road\np sp 3 3\na 1 2 10\na 2 1 10\na 2 3 7\n"))
    assert d.directed and d.weights.tolist() == [10, 10, 7]


def test_dimacs_edge(tmp_path):
    d = read_edges(write(tmp_path, "c.col", "c coloring\np edge 3 2\ne 1 2\ne 2 3\n"))
    assert not d.directed and pairs(d) == [(0, 1), (1, 2)]


# ------------------------------------------------------------------------------ edge lists
def test_snap_header(tmp_path):
    text = "# Undirected graph: x.txt\n# Nodes: 6 Edges: 2\n# FromNodeId\tToNodeId\n0\t1\n1\t2\n"
    d = read_edges(write(tmp_path, "s.txt", text))
    assert not d.directed and d.num_vertices == 6 and pairs(d) == [(0, 1), (1, 2)]


def test_snap_sparse_ids_keep_largest_id(tmp_path):
    # SNAP 'Nodes' counts distinct ids; ids may exceed it
    d = read_edges(write(tmp_path, "s.txt", "# Nodes: 2 Edges: 1\n10\t20\n"))
    assert d.num_vertices == 21


def test_counts_line(tmp_path):
    d = read_edges(write(tmp_path, "w.txt", "5 2\n0\t1\n3\t4\n"))
    assert d.num_vertices == 5 and pairs(d) == [(0, 1), (3, 4)]
    # "n m" that does not match the body is an edge
    d = read_edges(write(tmp_path, "w.txt", "5 7\n0\t1\n3\t4\n"))
    assert d.num_edges == 3
    with pytest.raises(wg.errors.GraphFormatError, match="counts line says") as info:
        read_edges(write(tmp_path, "w.txt", "5 7\n0\t1\n3\t4\n"), counts_line=True)
    assert info.value.line == 1
    d = read_edges(write(tmp_path, "w.txt", "5 2\n0\t1\n3\t4\n"), counts_line=False)
    assert d.num_edges == 3
    # a counts line above weighted edges (another column count)
    d = read_edges(write(tmp_path, "w.txt", "# c\n5 2\n0\t1\t0.5\n3\t4\t2\n"))
    assert d.num_vertices == 5 and d.weights.tolist() == [0.5, 2.0]
    with pytest.raises(wg.errors.GraphFormatError, match="expected 2 numbers") as info:
        read_edges(write(tmp_path, "w.txt", "0 1\n1 2 5\n"))
    assert info.value.line == 2


def test_base_one(tmp_path):
    d = read_edges(write(tmp_path, "g.el", "1 2\n2 3\n"), base=1)
    assert pairs(d) == [(0, 1), (1, 2)] and d.num_vertices == 3
    with pytest.raises(wg.errors.GraphFormatError, match="below the base") as info:
        read_edges(write(tmp_path, "g.el", "1 2\n0 3\n"), base=1)
    assert info.value.line == 2


def test_extra_columns(tmp_path):
    d = read_edges(write(tmp_path, "g.txt", "0 1 0.5 100\n1 2 1.5 200\n"))
    assert d.weights.tolist() == [0.5, 1.5]
    assert d.extra["columns"][0].tolist() == [100, 200]


# ------------------------------------------------------------------------------ others
def test_metis_formats(tmp_path):
    # fmt 011: vertex weights (ncon=2) and edge weights; comments and a blank (isolated) line
    text = "% c\n4 2 011 2\n1 1 2 5\n% c\n2 2 1 5 3 7\n3 3 2 7\n4 4\n"
    d = read_edges(write(tmp_path, "m.graph", text))
    assert not d.directed and d.num_vertices == 4
    assert pairs(d) == [(0, 1), (1, 2)] and d.weights.tolist() == [5, 7]
    assert d.extra["vertex_weights"].tolist() == [[1, 1], [2, 2], [3, 3], [4, 4]]


def test_metis_asymmetric_and_self_loop(tmp_path):
    with pytest.raises(wg.errors.GraphFormatError, match="not symmetric"):
        read_edges(write(tmp_path, "m.graph", "3 2\n2\n3\n1 2\n"))
    with pytest.raises(wg.errors.GraphFormatError, match="not symmetric with equal weights"):
        read_edges(write(tmp_path, "m.graph", "2 1 1\n2 5\n1 6\n"))
    with pytest.raises(wg.errors.GraphFormatError, match="self-loop"):
        read_edges(write(tmp_path, "m.graph", "2 1\n1\n2\n"))
    d = read_edges(write(tmp_path, "m.graph", "3 2\n2\n3\n1 2\n"), check=False)
    assert d.num_edges == 2


def test_konect(tmp_path):
    d = read_edges(write(tmp_path, "out.x", "% asym positive\n% 2 3 3\n1 2 1 100\n3 1 2 200\n"))
    assert d.directed and d.weights.tolist() == [1, 2]
    assert d.extra["timestamps"].tolist() == [100, 200]
    d = read_edges(write(tmp_path, "out.b", "% bip unweighted\n% 2 2 3\n1 1\n2 3\n"))
    assert not d.directed and d.num_vertices == 5 and pairs(d) == [(0, 2), (1, 4)]


def test_network_repository_edges(tmp_path):
    d = read_edges(write(tmp_path, "g.edges", "% comment\n1,2\n2,3\n"))
    assert not d.directed and pairs(d) == [(0, 1), (1, 2)]
    d = read_edges(write(tmp_path, "g.edges", "0 1\n1 2\n"))
    assert pairs(d) == [(0, 1), (1, 2)] and d.extra["base"] == 0


def test_pajek_mixed_sections(tmp_path):
    text = (
        '*Network test\n*Vertices 4\n1 "a" 0.1 0.2\n2 "b c"\n*Arcs\n1 2 3 c Blue\n'
        "*Edges\n3 4\n*Arcslist\n4 1 2\n"
    )
    d = read_edges(write(tmp_path, "p.net", text), names=True)
    assert d.directed
    assert pairs(d) == [(0, 1), (2, 3), (3, 0), (3, 1), (3, 2)]
    assert d.extra["vertex_names"] == ["a", "b c", "3", "4"]
    w = dict(zip(zip(d.src.tolist(), d.dst.tolist(), strict=True), d.weights.tolist(), strict=True))
    assert w[(0, 1)] == 3 and w[(2, 3)] == 1


def test_lgraph_gspan_dialect(tmp_path):
    text = "t # 0\nv 0 3\nv 1 4\ne 0 1 9\n"
    with pytest.raises(wg.errors.GraphFormatError, match="disagrees"):
        read_edges(write(tmp_path, "q.graph", text))
    d = read_edges(write(tmp_path, "q.graph", "t 0 2\nv 0 3\nv 1 4\ne 0 1 9\n"))
    assert d.extra["dialect"] == "t id N" and d.extra["edge_labels"].tolist() == [9]


# ------------------------------------------------------------------------------ detection
@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("a.mtx", "mtx"),
        ("a.mtx.gz", "mtx"),
        ("a.MTX.BZ2", "mtx"),
        ("road.gr.xz", "dimacs"),
        ("x.txt.zst", "edgelist"),
        ("x.el", "edgelist"),
        ("x.wel", "edgelist"),
        ("out.ucidata-zachary", "konect"),
        ("out.x.gz", "konect"),
        ("x.edges", "edges"),
        ("x.net", "pajek"),
        ("x.g500", "graph500"),
        ("x.gt.gz", "graphtool"),
        ("x.wgb", "wgb"),
        ("x.lg", "lgraph"),
        ("x.graph", "metis"),
        ("x.unknown", None),
    ],
)
def test_format_from_name(name, fmt):
    assert format_from_name(name) == fmt


@pytest.mark.parametrize(
    ("head", "fmt"),
    [
        (b"%%MatrixMarket matrix coordinate pattern general\n", "mtx"),
        (b"WARPGRPH\x01\x00", "wgb"),
        ("⛾ gt\x01\x00".encode(), "graphtool"),
        (b"*Vertices 3\n", "pajek"),
        (b"% sym unweighted\n1 2\n", "konect"),
        (b"c comment\np sp 3 2\n", "dimacs"),
        (b"p tw 3 2\n", "dimacs"),
        (b"t 3 2\nv 0 0 1\n", "lgraph"),
        (b"# SNAP\n0\t1\n", "edgelist"),
        (b"\n\n12 13\n", "edgelist"),
        (b"hello\n", None),
        (b"\x00\x01\x02", None),
    ],
)
def test_sniff(head, fmt):
    assert sniff(head) == fmt


def test_detect_by_content_when_extension_silent(tmp_path):
    p = write(tmp_path, "graph.dat", "%%MatrixMarket matrix coordinate pattern general\n1 1 0\n")
    assert detect_format(p) == "mtx"
    p = write(tmp_path, "graph.dat.gz", "p tw 2 1\n1 2\n", compress=True)
    assert detect_format(p) == "dimacs"
    assert wg.load(p).num_edges == 1
    p = write(tmp_path, "q.graph", "t 2 1\nv 0 0 1\nv 1 0 1\ne 0 1\n")
    assert detect_format(p) == "lgraph"
    p = write(tmp_path, "m.graph", "% metis\n2 1\n2\n1\n")
    assert detect_format(p) == "metis"


def test_utf8_byte_order_mark_is_skipped(tmp_path):
    p = write(tmp_path, "bom.dat", b"\xef\xbb\xbf%%MatrixMarket matrix coordinate pattern general\n"
              b"2 2 1\n1 2\n")  # fmt: skip
    assert detect_format(p) == "mtx"
    assert pairs(read_edges(p)) == [(0, 1)]
    d = read_edges(write(tmp_path, "bom.txt", b"\xef\xbb\xbf0 1\n1 x\n".replace(b" x", b" 2")))
    assert pairs(d) == [(0, 1), (1, 2)]
    with pytest.raises(wg.errors.GraphFormatError) as info:
        read_edges(write(tmp_path, "bom.txt", b"\xef\xbb\xbf0 1\n1 x\n"))
    assert info.value.line == 2


def test_compact_ids_numbers_the_vertices_found_in_edges(tmp_path, monkeypatch):
    """Sparse ids (one far above the rest) load with ``compact_ids=True`` as ``0..k-1`` in id
    order, the ids in ``vertex_labels``, weights kept with their edges; without it the
    vertex count is the largest id + 1, refused when it cannot fit (OutOfHostMemory)."""
    from warpgraph.errors import InvalidArgumentError, OutOfHostMemory

    big = 2**40
    path = write(tmp_path, "sparse.el", f"5 {big} 1.5\n{big} 77 2.5\n77 5 3.5\n9 9 4.5\n")
    G = wg.load(path, compact_ids=True)
    assert G.num_vertices == 4 and G.vertex_labels == [5, 9, 77, big]
    src, dst, w = G.edges()
    got = sorted(zip(src.tolist(), dst.tolist(), w.tolist(), strict=True))
    assert got == [(0, 3, 1.5), (1, 1, 4.5), (2, 0, 3.5), (3, 2, 2.5)]
    U = wg.load(path, compact_ids=True, directed=False, remove_self_loops=True)
    assert U.num_vertices == 4 and U.num_edges == 3 and U.vertex_labels == [5, 9, 77, big]
    with pytest.raises(InvalidArgumentError, match="num_vertices cannot be given"):
        wg.load(path, compact_ids=True, num_vertices=5)
    monkeypatch.setattr(wg.device, "host_memory_available", lambda: 2**30)
    with pytest.raises(OutOfHostMemory, match=f"CSR of {big + 1} vertices"):
        wg.load(path)
    # (a binary file goes through its edges, and a Pajek file's names follow their vertices)
    wgb = os.path.join(tmp_path, "g.wgb")
    wg.save(wg.Graph.from_edges([0, 6], [6, 3], num_vertices=8, directed=True), wgb)
    C = wg.load(wgb, compact_ids=True)
    assert C.vertex_labels == [0, 3, 6] and C.num_edges == 2
    net = write(tmp_path, "p.net", '*Vertices 4\n1 "a"\n2 "b"\n3 "c"\n4 "d"\n*Arcs\n4 2\n2 4\n')
    P = wg.load(net, compact_ids=True, names=True)
    assert P.vertex_labels == ["b", "d"] and P.num_vertices == 2
    assert wg.load(net, names=True).vertex_labels == ["a", "b", "c", "d"]
