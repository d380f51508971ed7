"""Fuzzing the parsers: malformed input raises GraphFormatError and nothing else.

Inputs are random bytes, random token soups, and valid files with random byte edits,
truncations and bit flips. A parse that succeeds must give consistent edge data (ids within
the vertex count, columns of equal length).
"""

from __future__ import annotations

import os
import tempfile

from hypothesis import given
from hypothesis import strategies as st

import warpgraph as wg
from warpgraph.errors import GraphFormatError
from warpgraph.io import FORMATS, read_edges

TEXT_FORMATS = ["mtx", "edgelist", "dimacs", "metis", "konect", "edges", "pajek", "lgraph"]
BINARY_FORMATS = ["graph500", "graphtool", "wgb"]

_DIR = tempfile.mkdtemp(prefix="wg-fuzz-")

SEEDS = {
    "mtx": b"%%MatrixMarket matrix coordinate real symmetric\n4 4 3\n2 1 .5\n3 2 1e3\n4 4 -2\n",
    "edgelist": b"# Directed graph\n# Nodes: 5 Edges: 3\n0\t1\t2\n1\t2\t3\n3\t4\t1.5\n",
    "dimacs": b"c road\np sp 4 3\na 1 2 10\na 2 3 7\na 4 1 1\n",
    "metis": b"% c\n4 3 011\n1 2 5 4 1\n2 1 5 3 2\n3 2 2\n4 1 1\n",
    "konect": b"% asym positive\n% 3 4 4\n1 2 1 10\n2 3 2 20\n4 1 1 30\n",
    "edges": b"% c\n1,2,1\n2,3,0.5\n3,4,2\n",
    "pajek": b'*Vertices 4\n1 "a"\n2 "b"\n*Arcs\n1 2 1.5\n*Edges\n3 4\n*Arcslist\n4 1 2\n',
    "lgraph": b"t 3 2\nv 0 1 1\nv 1 2 2\nv 2 1 1\ne 0 1\ne 1 2\n",
}


def _path(fmt: str) -> str:
    name = {"konect": "out.fuzz", "edges": "f.edges"}.get(fmt, "f." + fmt)
    return os.path.join(_DIR, name)


def check_parse(fmt: str, data: bytes, **options) -> None:
    path = _path(fmt)
    with open(path, "wb") as f:
        f.write(data)
    try:
        d = read_edges(path, format=fmt, **options)
    except GraphFormatError as err:
        assert err.path == path
        assert err.line is None or err.line >= 1
        return
    m = d.src.shape[0]
    assert d.dst.shape[0] == m
    assert d.weights is None or d.weights.shape[0] == m
    if m:
        assert int(min(d.src.min(), d.dst.min())) >= 0
        assert int(max(d.src.max(), d.dst.max())) < d.num_vertices


fmt_st = st.sampled_from(TEXT_FORMATS)
token = st.sampled_from(
    ["0", "1", "2", "3", "-1", "7", "%", "#", "c", "p", "a", "e", "v", "t", "sp", "tw", "*Edges",
     "*Vertices", "*Arcs", "1.5", "1e309", "nan", "inf", "x", "99999999999999999999", ",", '"',
     "%%MatrixMarket", "matrix", "coordinate", "pattern", "real", "general", "symmetric", ""]
)  # fmt: skip
sep = st.sampled_from([" ", "\t", "\n", "\r\n", "  ", ","])


@given(fmt=fmt_st, data=st.binary(max_size=300))
def test_random_bytes(fmt, data):
    check_parse(fmt, data)


@given(fmt=fmt_st, parts=st.lists(st.tuples(token, sep), max_size=60))
def test_token_soup(fmt, parts):
    check_parse(fmt, "".join(t + s for t, s in parts).encode())


@given(
    fmt=fmt_st,
    edits=st.lists(
        st.tuples(st.integers(0, 10**6), st.sampled_from(["del", "ins", "set", "cut"]),
                  st.binary(min_size=1, max_size=3)),
        min_size=1, max_size=4,
    ),
)  # fmt: skip
def test_mutated_valid_files(fmt, edits):
    data = bytearray(SEEDS[fmt])
    for pos, op, b in edits:
        i = pos % (len(data) + 1)
        if op == "del":
            del data[i : i + len(b)]
        elif op == "ins":
            data[i:i] = b
        elif op == "set":
            data[i : i + len(b)] = b
        else:
            del data[i:]
    check_parse(fmt, bytes(data))


def test_seeds_are_valid():
    for fmt in TEXT_FORMATS:
        path = _path(fmt)
        with open(path, "wb") as f:
            f.write(SEEDS[fmt])
        assert read_edges(path, format=fmt).num_edges > 0, fmt


def _binary_seed(fmt: str) -> bytes:
    G = wg.Graph.from_edges([0, 1, 2, 300], [1, 2, 0, 5], [1.5, 2.5, 3.5, 4.5])
    path = os.path.join(_DIR, "seed." + {"graph500": "g500", "graphtool": "gt"}.get(fmt, fmt))
    wg.save(G, path)
    with open(path, "rb") as f:
        return f.read()


@given(
    fmt=st.sampled_from(BINARY_FORMATS),
    cut=st.integers(0, 10**6),
    flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 7)), max_size=3),
)
def test_binary_truncation_and_bit_flips(fmt, cut, flips):
    data = bytearray(_binary_seed(fmt))
    for pos, bit in flips:
        data[pos % len(data)] ^= 1 << bit
    data = data[: cut % (len(data) + 1)] if cut % 3 == 0 else data
    check_parse(fmt, bytes(data))


def test_every_format_fuzzed():
    assert sorted(TEXT_FORMATS + BINARY_FORMATS) == sorted(FORMATS)


def test_compressed_garbage():
    import gzip

    path = os.path.join(_DIR, "g.txt.gz")
    for payload in (gzip.compress(b"0 1\n1 2\n")[:-5], b"\x1f\x8b" + os.urandom(40)):
        with open(path, "wb") as f:
            f.write(payload)
        try:
            read_edges(path)
        except GraphFormatError:
            pass
