"""Malformed input raises GraphFormatError naming the file, the 1-based line and the reason."""

from __future__ import annotations

import gzip
import os

import numpy as np
import pytest

import warpgraph as wg
from warpgraph.errors import GraphFormatError
from warpgraph.io import read_edges


def write(tmp_path, name, text, mode="w"):
    path = os.path.join(tmp_path, name)
    with open(path, mode) as f:
        f.write(text)
    return path


TEXT_CASES = [
    # (file name, content, expected line, reason pattern)
    ("a.txt", "0 1\n1 2\n2 x\n", 3, "malformed number 'x'"),
    ("a.txt", "# c\n0 1\n\n1 2 3\n", 4, "expected 2 numbers per line"),
    ("a.txt", "0 1 5\n1\n", 2, "expected 2 to 8 numbers"),
    ("a.txt", "0 1\n-3 2\n", 2, "vertex id -3 out of range"),
    ("a.txt", "0 1\n1 99999999999999999999\n", 2, "does not fit in 64 bits"),
    ("a.txt", "0 1 2.5\n1 2 2.5.1\n", 2, "malformed number '2.5.1'"),
    ("a.txt", "0 1 2.5\n1 2 1e\n", 2, "malformed number '1e'"),
    ("a.txt", "0 1 2.5\n1 2 0x10\n", 2, "malformed number"),
    ("a.txt", "0 1 2.5\n1 2 1_000\n", 2, "malformed number"),
    ("a.txt", "0 1\n1 2 # trailing comment\n", 2, "malformed number '#'"),
    ("a.txt", "# Nodes: 3 Edges: 5\n0 1\n1 2\n", 1, "header says 5 edges but the file has 2"),
    (
        "a.mtx",
        "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n4 1\n",
        4,
        r"index 4 out of range: must be in \[1, 3\]",
    ),
    (
        "a.mtx",
        "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n",
        4,
        "announces 2 entries but the file has 1",
    ),
    (
        "a.mtx",
        "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n2 3\n",
        4,
        "more data lines than the header says",
    ),
    (
        "a.mtx",
        "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2\n",
        3,
        "expected 3 numbers per line",
    ),
    (
        "a.mtx",
        "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 1.5\n",
        3,
        "non-integer value",
    ),
    (
        "a.mtx",
        "%%MatrixMarket matrix coordinate pattern general\n% c\n3 -3 1\n1 2\n",
        3,
        "negative column count -3",
    ),
    ("a.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 1, "coordinate"),
    (
        "a.mtx",
        "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 1\n",
        1,
        "unsupported Matrix Market field 'complex'",
    ),
    ("a.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3\n", 2, "size line"),
    (
        "b.gr",
        "c x\np sp 3 2\na 1 2 5\na 2 4 1\n",
        4,
        r"vertex id 4 out of range: must be in \[1, 3\]",
    ),
    ("b.gr", "p sp 3 2\na 1 2 5\ne 2 3 1\n", 3, "expected a line starting with 'a'"),
    ("b.gr", "p sp 3 3\na 1 2 5\na 2 3 1\n", 4, "announces 3 edges but the file has 2"),
    ("b.gr", "p sp 3 -1\n", 1, "negative edge count"),
    ("b.gr", "c only comments\n", 2, "missing problem line"),
    ("b.gr", "p max 3 2\n", 1, "unsupported DIMACS problem 'max'"),
    ("c.gr", "p tw 3 2\n1 2\n2 3\n3 1\n", 4, "more data lines than the header says"),
    ("d.graph", "3 2\n2\n1 3\n", 4, "announces 3 vertices but the file has 2 vertex lines"),
    ("d.graph", "3 2\n2\n1 3\n2\n4\n", 5, "more lines than the 3 the header announces"),
    ("d.graph", "3 2\n2\n1 4\n2\n", 3, r"neighbour id 4 out of range"),
    ("d.graph", "3 2 1\n2 5\n1 5 3\n2\n", 3, r"groups of 2"),
    ("d.graph", "3 2\n2\n1 3\n2 x\n", 4, "malformed integer 'x'"),
    ("d.graph", "3 3\n2\n1 3\n2\n", 1, "announces 3 edges, so 6 neighbour entries"),
    ("d.graph", "3 2 2\n2\n1 3\n2\n", 1, "malformed fmt field"),
    ("d.graph", "-3 2\n", 1, "negative vertex count"),
    ("out.x", "% sym unweighted\n% 3 3 3\n1 2\n2 3\n", 2, "announces 3 edges but the file has 2"),
    ("out.x", "% sym unweighted\n1 2\n2 z\n", 3, "malformed number 'z'"),
    (
        "e.net",
        "*Vertices 3\n*Edges\n1 2\n2 4\n",
        4,
        r"vertex id 4 out of range: must be in \[1, 3\]",
    ),
    ("e.net", "*Edges\n1 2\n", 1, "before \\*Vertices"),
    ("e.net", '*Vertices 2\n1 "a"\n9 "b"\n*Edges\n1 2\n', 3, "vertex id 9 out of range"),
    ("e.net", '*Vertices 2\n1 "a"\nb "b"\n*Edges\n1 2\n', 3, "malformed number 'b'"),
    ("e.net", "*Vertices 3\n*Matrix\n0 1 0\n", 2, "unsupported Pajek section"),
    ("f.lg", "t 3 2\nv 0 1 1\nv 1 1 2\nv 2 1 1\ne 0 1\ne 1 5\n", 6, "out of range"),
    ("f.lg", "t 3 2\nv 0 1 1\nv 1 1 1\nv 2 1 1\ne 0 1\ne 1 2\n", 3, "has degree 2"),
    ("f.lg", "t 3 9\nv 0 1\nv 1 1\nv 2 1\ne 0 1\n", 1, "disagrees with the body"),
    ("f.lg", "t 0 2\nv 0 1\nv 1 1\ne 0 1\nt 1 2\n", 5, "several graphs"),
]


@pytest.mark.parametrize(("name", "text", "line", "reason"), TEXT_CASES)
def test_malformed_text(tmp_path, name, text, line, reason):
    path = write(tmp_path, name, text)
    with pytest.raises(GraphFormatError, match=reason) as info:
        read_edges(path)
    err = info.value
    assert err.line == line, str(err)
    assert err.path == path
    assert str(err).startswith(f"{path}:{line}: ")


def test_line_numbers_in_large_parallel_file(tmp_path):
    # large enough to be cut into several chunks parsed in parallel
    n = 300_000
    lines = [f"{i} {i + 1}" for i in range(n)]
    lines[250_123] = "17 oops"
    path = write(tmp_path, "big.txt", "# header\n" + "\n".join(lines) + "\n")
    with pytest.raises(GraphFormatError, match="malformed number 'oops'") as info:
        read_edges(path)
    assert info.value.line == 250_125


def test_compressed_file_errors_keep_line_numbers(tmp_path):
    path = os.path.join(tmp_path, "g.txt.gz")
    with gzip.open(path, "wt") as f:
        f.write("0 1\n\n1 2\n2 ?\n")
    with pytest.raises(GraphFormatError, match="malformed") as info:
        read_edges(path)
    assert info.value.line == 4


def test_truncated_compressed_file(tmp_path):
    path = os.path.join(tmp_path, "g.txt.gz")
    with gzip.open(path, "wt") as f:
        f.write("0 1\n" * 10000)
    data = open(path, "rb").read()
    write(tmp_path, "g.txt.gz", data[: len(data) // 2], mode="wb")
    with pytest.raises(GraphFormatError, match="corrupt or truncated"):
        read_edges(path)


def test_big_ids_are_int64_not_wrapped(tmp_path):
    path = write(tmp_path, "g.txt", f"0 {2**31}\n{2**40} 1\n")
    d = read_edges(path)
    assert d.src.dtype == np.int64 and d.dst.tolist() == [2**31, 1] and d.src[1] == 2**40
    assert d.num_vertices == 2**40 + 1


def test_no_line_is_dropped(tmp_path):
    # every non-comment line is an edge or an error, whatever the separators and line ends
    text = "0 1\r\n1\t2\n 2 , 3 \n\n# c\n   % c\n3   4\n4 5"  # last line without newline
    d = read_edges(write(tmp_path, "g.txt", text))
    assert d.src.tolist() == [0, 1, 2, 3, 4] and d.dst.tolist() == [1, 2, 3, 4, 5]


# ------------------------------------------------------------------------------ binary formats
def test_wgb_truncated(tmp_path):
    G = wg.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0])
    path = os.path.join(tmp_path, "g.wgb")
    wg.save(G, path)
    data = open(path, "rb").read()
    for cut in (10, 127, 130, len(data) - 1):
        write(tmp_path, "g.wgb", data[:cut], mode="wb")
        with pytest.raises(GraphFormatError, match="truncated"):
            wg.load(path)
    bad = bytearray(data)
    bad[20] ^= 1  # corrupt the header: the checksum catches it
    write(tmp_path, "g.wgb", bytes(bad), mode="wb")
    with pytest.raises(GraphFormatError, match="checksum"):
        wg.load(path)
    write(tmp_path, "g.wgb", b"NOTAWGB!" + data[8:], mode="wb")
    with pytest.raises(GraphFormatError, match="magic"):
        wg.load(path)


def test_wgb_corrupt_data_caught_by_check(tmp_path):
    G = wg.Graph.from_edges([0, 1], [1, 2])
    path = os.path.join(tmp_path, "g.wgb")
    wg.save(G, path)
    data = bytearray(open(path, "rb").read())
    from warpgraph.io import wgb

    h = wgb.read_header(bytes(data[:128]), path, len(data))
    data[h["off_i"] : h["off_i"] + 4] = np.int32(99).tobytes()
    write(tmp_path, "g.wgb", bytes(data), mode="wb")
    with pytest.raises(GraphFormatError, match="out of range"):
        wg.load(path)


def test_graph500_truncated_and_negative(tmp_path):
    path = os.path.join(tmp_path, "e.g500")
    np.array([[0, 1], [1, 2]], dtype="<i8").tofile(path)
    data = open(path, "rb").read()
    write(tmp_path, "e.g500", data[:-3], mode="wb")
    with pytest.raises(GraphFormatError, match=r"multiple of neither|truncated"):
        read_edges(path)
    with pytest.raises(GraphFormatError, match="truncated Graph500 file"):
        read_edges(path, packed=False)
    np.array([[0, 1], [-1, 2]], dtype="<i8").tofile(path)
    with pytest.raises(GraphFormatError, match="negative vertex id at edge 1"):
        read_edges(path)
    d = read_edges(path, skip_negative=True)
    assert d.num_edges == 1 and d.extra["dropped_negative"] == 1
    np.array([[0, 9]], dtype="<i8").tofile(path)
    with pytest.raises(GraphFormatError, match="out of range"):
        read_edges(path, scale=3)


def test_graphtool_truncated(tmp_path):
    G = wg.Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0])
    path = os.path.join(tmp_path, "g.gt")
    wg.save(G, path)
    data = open(path, "rb").read()
    for cut in range(0, len(data), 7):
        write(tmp_path, "g.gt", data[:cut], mode="wb")
        with pytest.raises(GraphFormatError):
            read_edges(path, format="graphtool")
    write(tmp_path, "g.gt", data + b"\x00", mode="wb")
    with pytest.raises(GraphFormatError, match="unexpected bytes"):
        read_edges(path)


def test_unknown_format(tmp_path):
    path = write(tmp_path, "g.xyz", "hello world\n")
    with pytest.raises(GraphFormatError, match="cannot tell the graph format"):
        wg.load(path)
    with pytest.raises(GraphFormatError, match="unknown graph format 'foo'"):
        wg.load(path, format="foo")
    binary = write(tmp_path, "g.bin", b"\x00\x01" * 64, mode="wb")
    with pytest.raises(GraphFormatError, match="pass format="):
        wg.load(binary)


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        wg.load(os.path.join(tmp_path, "nope.txt"))
