"""Device selection, info() and the exception hierarchy."""

from __future__ import annotations

import pickle

import pytest

import warpgraph
from warpgraph import device as wdev
from warpgraph.errors import (
    DeviceUnavailableError,
    GraphFormatError,
    InvalidArgumentError,
    NegativeCycleError,
    OutOfDeviceMemory,
    OutOfHostMemory,
)


def test_resolve_explicit_and_auto(monkeypatch):
    monkeypatch.delenv("WARPGRAPH_DEVICE", raising=False)
    assert wdev.resolve_device("cpu") == "cpu"
    assert wdev.resolve_device("CPU") == "cpu"
    assert wdev.resolve_device("auto") == ("gpu" if wdev.gpu_available() else "cpu")
    assert wdev.resolve_device(None) == wdev.resolve_device("auto")


def test_environment_overrides_auto_only(monkeypatch):
    monkeypatch.setenv("WARPGRAPH_DEVICE", "cpu")
    assert wdev.resolve_device("auto") == "cpu"
    monkeypatch.setenv("WARPGRAPH_DEVICE", "quantum")
    with pytest.raises(InvalidArgumentError, match="WARPGRAPH_DEVICE"):
        wdev.resolve_device("auto")
    assert wdev.resolve_device("cpu") == "cpu"  # an explicit choice ignores the variable


def test_bad_device_name():
    with pytest.raises(InvalidArgumentError, match="device must be one of"):
        wdev.resolve_device("tpu")


@pytest.mark.skipif(wdev.gpu_available(), reason="checks the no-GPU error")
def test_gpu_unavailable_is_clear(monkeypatch):
    monkeypatch.delenv("WARPGRAPH_DEVICE", raising=False)
    with pytest.raises(DeviceUnavailableError, match=r"warpgraph\[gpu\]"):
        wdev.resolve_device("gpu")
    monkeypatch.setenv("WARPGRAPH_DEVICE", "gpu")
    with pytest.raises(DeviceUnavailableError):
        wdev.resolve_device("auto")
    G = warpgraph.Graph.from_edges([0], [1])
    with pytest.raises(DeviceUnavailableError):
        G.to("gpu")


def test_info_reports_versions(capsys):
    d = warpgraph.info()
    out = capsys.readouterr().out
    assert d["warpgraph"] == warpgraph.__version__ and "numpy" in out and "gpu" in out


def test_info_reports_the_thread_policy(monkeypatch):
    from warpgraph.cpu import threads

    monkeypatch.setattr(threads, "DYNAMIC_THREADS", True)
    assert "probe" in warpgraph.info(print_out=False)["thread count"]
    monkeypatch.setattr(threads, "PROBE_MAX_WORK", 0)
    policy = warpgraph.info(print_out=False)["thread count"]
    assert policy.startswith("dynamic") and "probe" not in policy
    monkeypatch.setattr(threads, "DYNAMIC_THREADS", False)
    assert warpgraph.info(print_out=False)["thread count"].startswith("fixed")


def test_errors_are_builtin_subclasses_and_pickle():
    e = GraphFormatError("bad token 'x'", path="a.txt", line=3)
    assert isinstance(e, ValueError) and str(e) == "a.txt:3: bad token 'x'"
    e2 = pickle.loads(pickle.dumps(e))
    assert (e2.path, e2.line, e2.reason) == ("a.txt", 3, "bad token 'x'")
    oom = OutOfDeviceMemory(3 * 2**30, 2**30, what="graph")
    assert isinstance(oom, MemoryError) and "3.00 GiB" in str(oom) and "device='cpu'" in str(oom)
    assert pickle.loads(pickle.dumps(oom)).bytes_needed == 3 * 2**30
    neg = NegativeCycleError(4, [4, 5, 4])
    assert "vertex 4" in str(neg) and "4 -> 5 -> 4" in str(neg)
    assert isinstance(DeviceUnavailableError("x"), RuntimeError)


@pytest.mark.gpu
def test_out_of_device_memory_names_bytes():
    with pytest.raises(OutOfDeviceMemory, match="GiB of GPU memory"):
        wdev.check_device_memory(2**50, what="a huge graph")


def test_host_memory_is_read_and_checked(monkeypatch, tmp_path):
    """What the host has is read (Linux: MemAvailable + SwapFree); a need above it raises
    OutOfHostMemory (a MemoryError) with both figures and the hint; unreadable: no check."""
    free = wdev.host_memory_available()
    assert free is None or free > 0
    monkeypatch.setattr(wdev, "host_memory_available", lambda: 3 * 2**30)
    wdev.check_host_memory(2 * 2**30, what="fits")
    with pytest.raises(
        MemoryError, match=r"a table needs at least 4\.00 GiB .* only 3\.00 GiB .*; shrink it"
    ):
        wdev.check_host_memory(4 * 2**30, what="a table", hint="shrink it")
    monkeypatch.setattr(wdev, "host_memory_available", lambda: None)
    wdev.check_host_memory(2**62, what="anything")
    err = pickle.loads(pickle.dumps(OutOfHostMemory(5, 3, "x", "y")))
    assert (err.bytes_needed, err.bytes_free, str(err)) == (
        5,
        3,
        str(OutOfHostMemory(5, 3, "x", "y")),
    )


def test_graph_too_large_for_the_host_is_refused_before_any_allocation(monkeypatch, tmp_path):
    """A vertex count far above the edges (a sparse id, a large num_vertices, a file's id)
    raises OutOfHostMemory naming the CSR, the cause and the way out; the input is left
    as it was."""
    import numpy as np

    monkeypatch.setattr(wdev, "host_memory_available", lambda: 2**20)  # 1 MiB
    src, dst = np.array([0, 1]), np.array([1, 10**6])
    with pytest.raises(
        OutOfHostMemory, match=r"CSR of 1000001 vertices and 2 arcs.*largest id \+ 1.*np\.unique"
    ):
        warpgraph.Graph.from_edges(src, dst, directed=True, device="cpu")
    assert src.tolist() == [0, 1] and dst.tolist() == [1, 10**6]
    with pytest.raises(OutOfHostMemory, match=r"CSR of 1000000 vertices and 4 arcs.*num_vertices"):
        warpgraph.Graph.from_edges([0, 1], [1, 2], num_vertices=10**6, directed=False, device="cpu")
    path = tmp_path / "sparse_ids.txt"
    path.write_text("0 1\n1 1000000\n")
    with pytest.raises(OutOfHostMemory, match="1000001 vertices"):
        warpgraph.load(path, device="cpu")
    assert path.read_text() == "0 1\n1 1000000\n"
    small = warpgraph.Graph.from_edges([0, 1], [1, 2], device="cpu")  # (fits in 1 MiB)
    assert small.num_vertices == 3


def test_memory_checks_refuse_a_byte_count_that_is_not_one(monkeypatch):
    """Both checks take a non-negative int (checked before any CuPy call); the host check
    reads nothing for needs under HOST_CHECK_FLOOR; the messages give MiB under a GiB."""
    for check in (wdev.check_host_memory, wdev.check_device_memory):
        for bad in ("8", 1.5, True, -1):
            with pytest.raises(InvalidArgumentError, match="bytes_needed"):
                check(bad, what="x")

    def unread():
        raise AssertionError("read for a small need")

    monkeypatch.setattr(wdev, "host_memory_available", unread)
    wdev.check_host_memory(wdev.HOST_CHECK_FLOOR - 1, what="small")
    assert "needs 1.50 MiB of GPU memory but only 0.50 MiB is free" in str(
        OutOfDeviceMemory(3 << 19, 1 << 19, "y")
    )
