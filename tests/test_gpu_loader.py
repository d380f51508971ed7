"""Kernel loader, launch helpers and the device helpers of common.cuh.

CPU-only tests (no marker): import hygiene, signature parsing, argument conversion, grid sizing,
compile options, kernel discovery by tools/check_kernels, NVRTC compilation of every declared
name expression (when libnvrtc is installed). GPU tests (``gpu`` marker): memoization, template
instantiation, launches, the warp/block/grid helpers against NumPy, CUDA-event timing.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import warpgraph.gpu as wgpu
from warpgraph.device import gpu_available
from warpgraph.errors import InvalidArgumentError
from warpgraph.gpu import loader
from warpgraph.gpu.signature import (
    find_kernels,
    kernel_params,
    parse_name_expression,
    split_top_level,
)

# the package re-exports the function `launch`, which shadows the submodule's attribute name
wlaunch = importlib.import_module("warpgraph.gpu.launch")

ROOT = Path(__file__).resolve().parent.parent
CHECK_KERNELS = ROOT / "tools" / "check_kernels"


def _check_kernels_module():
    ldr = importlib.machinery.SourceFileLoader("check_kernels", str(CHECK_KERNELS))
    spec = importlib.util.spec_from_loader("check_kernels", ldr)
    mod = importlib.util.module_from_spec(spec)
    ldr.exec_module(mod)
    return mod


def _import_all_gpu_modules():
    """Import every warpgraph module with a path component "gpu" or "*_gpu": their declare()
    calls register the name expressions of every kernel source (as check_kernels --nvrtc does)."""
    import warpgraph

    for mod in pkgutil.walk_packages(warpgraph.__path__, prefix="warpgraph."):
        if any(part == "gpu" or part.endswith("_gpu") for part in mod.name.split(".")):
            importlib.import_module(mod.name)


# ---- CPU: import hygiene ----------------------------------------------------------------------


def test_import_does_not_import_cupy():
    code = (
        "import sys, warpgraph.gpu, warpgraph.gpu.csr, warpgraph.gpu.stats, "
        "warpgraph.gpu.selftest, warpgraph.gpu.launch, warpgraph.gpu.loader\n"
        "bad = sorted(m for m in sys.modules if m == 'cupy' or m.startswith('cupy.'))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_lazy_attributes():
    assert wgpu.build_csr.__module__ == "warpgraph.gpu.csr"
    assert wgpu.bfs_levels.__module__ == "warpgraph.gpu.stats"
    with pytest.raises(AttributeError):
        wgpu.no_such_thing  # noqa: B018


# ---- CPU: sources, options, declarations ------------------------------------------------------


def test_sources_are_package_data():
    names = loader.kernel_sources()
    assert {"bfs.cu", "csr.cu", "degree.cu", "wcc.cu", "selftest.cu"} <= set(names)
    assert (loader.kernels_dir() / "common.cuh").is_file()
    for name in names:
        # every kernel reaches the shared helpers, directly or through a frontier header
        assert '#include "common.cuh"' in loader.read_source(name) or '#include "frontier_' in (
            loader.read_source(name)
        )


@pytest.mark.parametrize("bad", ["nope.cu", "../graph.py", "common.txt", 3])
def test_read_source_rejects_unknown(bad):
    with pytest.raises(InvalidArgumentError, match="kernel source"):
        loader.read_source(bad)


def test_compile_options():
    opts = loader.compile_options({"B": 128, "FLAG": True, "OFF": False}, ["-lineinfo"])
    assert opts[0] == "-std=c++17"
    assert f"-I{loader.kernels_dir()}" in opts
    assert any(o.startswith("-DWARPGRAPH_HEADERS_HASH=0x") for o in opts)
    assert opts[-4:] == ("-DB=128", "-DFLAG", "-DOFF=0", "-lineinfo")
    # same macros in another order -> same options (same cache keys)
    assert loader.compile_options({"FLAG": True, "B": 128}) == loader.compile_options(
        {"B": 128, "FLAG": True}
    )
    with pytest.raises(InvalidArgumentError, match="identifier"):
        loader.compile_options({"1X": 1})
    with pytest.raises(InvalidArgumentError, match="spaces"):
        loader.compile_options({"X": "a b"})


def test_headers_digest_tracks_headers():
    digest = loader.headers_digest()
    assert len(digest) == 16 and int(digest, 16) >= 0
    assert digest == loader.headers_digest()


def test_every_source_has_declared_names():
    _import_all_gpu_modules()
    decl = loader.declared()
    for source in loader.kernel_sources():
        assert decl.get(source), f"{source}: no name expressions declared"
        kernels = set(find_kernels(loader.read_source(source)))
        for name in decl[source]:
            base, _ = parse_name_expression(name)
            assert base in kernels, f"{source}: {name} names no __global__ function"
            assert kernel_params(loader.read_source(source), name) is not None


def test_declare_rejects_unknown_source():
    with pytest.raises(InvalidArgumentError):
        loader.declare("missing.cu", "k<int>")


# ---- CPU: signatures and argument conversion --------------------------------------------------

SRC = """
// a comment with __global__ void fake(int x) {
template <typename V, int OP>
__global__ void k1(const V* __restrict__ ids, long long m, unsigned long long* counts, V x) {}

extern "C" __global__ void k2(float a, double b, const int* p, bool flag, void* raw) {}

template <typename T>
__device__ T helper(T v) { return v; }
"""


def test_kernel_params_template_substitution():
    ps = kernel_params(SRC, "k1<long long, 2>")
    assert [p.name for p in ps] == ["ids", "m", "counts", "x"]
    assert [p.is_pointer for p in ps] == [True, False, True, False]
    assert [str(p.dtype) for p in ps] == ["int64", "int64", "uint64", "int64"]
    ps = kernel_params(SRC, "k1<int, 0>")
    assert [str(p.dtype) for p in ps] == ["int32", "int64", "uint64", "int32"]


def test_kernel_params_plain_and_unknown():
    ps = kernel_params(SRC, "k2")
    assert [str(p.dtype) for p in ps] == ["float32", "float64", "int32", "bool", "None"]
    assert ps[4].is_pointer and ps[4].dtype is None
    assert kernel_params(SRC, "helper<int>") is None
    assert kernel_params(SRC, "fake") is None


def test_name_expression_parsing():
    assert parse_name_expression("merge_runs<double, 1>") == ("merge_runs", ["double", "1"])
    assert split_top_level("a<b, c>, d(e, f), g") == ["a<b, c>", "d(e, f)", "g"]
    with pytest.raises(ValueError, match="malformed"):
        parse_name_expression("k<int")


def test_convert_args_exact_widths():
    ps = kernel_params(SRC, "k2")
    a, b, p, flag, raw = wlaunch.convert_args((1, 2, None, True, None), ps)
    assert type(a) is np.float32 and type(b) is np.float64 and type(flag) is np.bool_
    assert p is None and raw is None
    ps = kernel_params(SRC, "k1<int, 0>")
    out = wlaunch.convert_args((None, 7, None, np.int64(-3)), ps)
    assert type(out[1]) is np.int64 and type(out[3]) is np.int32 and out[3] == -3


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ((None, 1, None), "takes 4 arguments"),
        ((None, 1.5, None, 1), "float"),
        ((None, 1, None, 2**31), "does not fit int32"),
        ((None, 1, 5, 1), "pointer"),
        ((None, None, None, 1), "NULL"),
        ((np.zeros(3, np.int32), 1, None, 1), "host NumPy array"),
        ((None, 1, None, "x"), "unsupported"),
    ],
)
def test_convert_args_errors(args, match):
    with pytest.raises(InvalidArgumentError, match=match):
        wlaunch.convert_args(args, kernel_params(SRC, "k1<int, 0>"))


def test_convert_args_bounds_at_the_edges():
    """Python ints fit exactly their declared C width (the bounds are cached per dtype)."""
    ps = kernel_params(SRC, "k1<int, 0>")  # (int* a, long long n, int* b, int c)
    for c in (2**31 - 1, -(2**31), 0):
        assert wlaunch.convert_args((None, 2**63 - 1, None, c), ps)[3] == c
    for c in (2**31, -(2**31) - 1):
        with pytest.raises(InvalidArgumentError, match=r"argument 3 .*does not fit int32"):
            wlaunch.convert_args((None, 1, None, c), ps)
    with pytest.raises(InvalidArgumentError, match="does not fit int64"):
        wlaunch.convert_args((None, 2**63, None, 1), ps)
    assert type(wlaunch.convert_args((None, True, None, np.int16(4)), ps)[1]) is np.int64


def test_convert_args_without_signature_needs_typed_scalars():
    assert type(wlaunch.convert_args((np.int32(3),))[0]) is np.int32
    with pytest.raises(InvalidArgumentError, match="explicitly typed"):
        wlaunch.convert_args((3,))
    with pytest.raises(InvalidArgumentError, match="explicitly typed"):
        wlaunch.convert_args((0.5,))


def test_grid_for():
    assert wlaunch.grid_for(0) == 0
    assert wlaunch.grid_for(-5, 64) == 0
    assert wlaunch.grid_for(1, 32, max_blocks=10) == 1
    assert wlaunch.grid_for(64 * 10 + 1, 64, max_blocks=100) == 11
    assert wlaunch.grid_for(10**12, 256, max_blocks=4224) == 4224
    assert wlaunch.grid_for(10**12, 256, max_blocks=2**40) == 2**31 - 1
    for bad in (0, 31, 48, 2048, True, 256.0):
        with pytest.raises(InvalidArgumentError, match="block"):
            wlaunch.grid_for(100, bad)
    if not gpu_available():
        assert wlaunch.default_max_blocks() == 4096


# ---- CPU: tools/check_kernels -----------------------------------------------------------------


def test_check_kernels_finds_every_source():
    out = subprocess.run(
        [sys.executable, str(CHECK_KERNELS), "--list"],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    ).stdout.split()
    expected = sorted(
        str(p.relative_to(ROOT))
        for p in (ROOT / "src" / "warpgraph").rglob("*.cu")
        if p.parent.name == "kernels"
    )
    assert out == expected
    assert "src/warpgraph/gpu/kernels/csr.cu" in out


def test_check_kernels_nvcc_command():
    ck = _check_kernels_module()
    src = ROOT / "src" / "warpgraph" / "gpu" / "kernels" / "bfs.cu"
    cmd = ck.nvcc_command("nvcc", src, "sm_90", werror=False)
    assert cmd[:3] == ["nvcc", "-arch=sm_90", "-std=c++17"]
    assert "-DWARPGRAPH_NVCC_CHECK" in cmd and "-c" in cmd and cmd[-1] == str(src)


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")
def test_nvcc_compiles_one_source():
    ck = _check_kernels_module()
    src = ROOT / "src" / "warpgraph" / "gpu" / "kernels" / "degree.cu"
    _, ok, _, log = ck.compile_one("nvcc", src, "sm_90", True)
    assert ok, log


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")
def test_check_kernels_compiles_everything():
    proc = subprocess.run(
        [sys.executable, str(CHECK_KERNELS)], capture_output=True, text=True, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_nvrtc_compiles_every_declared_name():
    ck = _check_kernels_module()
    path = ck.find_nvrtc()
    if path is None:
        pytest.skip("libnvrtc not installed (pip install nvidia-cuda-nvrtc)")
    lib = ck.load_nvrtc(path)
    _import_all_gpu_modules()
    opts = (*loader.compile_options(), "-arch=compute_90", "-ftz=true")
    for source, names in loader.declared().items():
        ok, log, lowered = ck.nvrtc_compile(lib, loader.read_source(source), source, opts, names)
        assert ok, f"{source}: {log}"
        assert set(lowered) == set(names)
    ok, log, _ = ck.nvrtc_compile(lib, "__global__ void k( {", "bad.cu", opts, ("k",))
    assert not ok and "error" in log


# ---- GPU --------------------------------------------------------------------------------------


@pytest.fixture
def cp():
    from warpgraph.device import cupy

    return cupy()


@pytest.mark.gpu
def test_get_kernel_memoizes(cp):
    _import_all_gpu_modules()
    loader.clear_cache()
    k1 = loader.get_kernel("degree.cu", "count_degrees<int>")
    assert loader.compile_count() == 1
    assert loader.get_kernel("degree.cu", "count_degrees<int>") is k1
    k2 = loader.get_kernel("degree.cu", "count_degrees<long long>")  # declared: same module
    assert loader.compile_count() == 1 and k2 is not k1
    assert [p.name for p in k1.params] == ["ids", "m", "counts"]
    assert k1.params[0].dtype == np.int32 and k2.params[0].dtype == np.int64
    loader.get_kernel("degree.cu", "count_degrees<int>", defines={"X": 1})  # new options
    assert loader.compile_count() == 2
    assert k1.attributes["num_regs"] > 0 and k1.ptr != 0


@pytest.mark.gpu
def test_template_instances_run(cp):
    ids32 = cp.array([0, 2, 2, 5, 2], dtype=cp.int32)
    for ids, ctype in ((ids32, "int"), (ids32.astype(cp.int64), "long long")):
        counts = cp.zeros(6, dtype=cp.uint64)
        k = loader.get_kernel("degree.cu", f"count_degrees<{ctype}>")
        wgpu.launch(k, ids.size, (ids, ids.size, counts))
        assert counts.get().tolist() == [1, 0, 3, 0, 0, 1]


@pytest.mark.gpu
def test_launch_checks_dtypes_before_launching(cp):
    k = loader.get_kernel("degree.cu", "count_degrees<int>")
    counts = cp.zeros(4, dtype=cp.uint64)
    with pytest.raises(InvalidArgumentError, match="dtype int64"):
        wgpu.launch(k, 3, (cp.zeros(3, dtype=cp.int64), 3, counts))
    with pytest.raises(InvalidArgumentError, match="contiguous"):
        wgpu.launch(k, 3, (cp.zeros(6, dtype=cp.int32)[::2], 3, counts))
    with pytest.raises(InvalidArgumentError, match="launch_cooperative"):
        wgpu.launch(loader.get_kernel("degree.cu", "count_degrees<int>", cooperative=True), 1, ())


@pytest.mark.gpu
def test_every_declared_name_compiles(cp):
    _import_all_gpu_modules()
    for source, names in loader.declared().items():
        for name in names:
            k = loader.get_kernel(source, name)
            assert k.params is not None, name


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 31, 32, 33, 1000, 70001])
def test_warp_primitives(cp, dtype, n):
    from warpgraph.gpu import selftest

    rng = np.random.default_rng(n)
    x = rng.integers(-50, 50, n).astype(dtype)
    r = selftest.warp_primitives(cp.asarray(x))
    pad = -n % 32
    chunks = np.concatenate([x, np.zeros(pad, dtype)]).reshape(-1, 32)
    mm = chunks.copy()  # missing lanes take the chunk's first item for min/max
    if pad:
        mm[-1, 32 - pad :] = chunks[-1, 0]
    np.testing.assert_array_equal(r["sum"], chunks.sum(1))
    np.testing.assert_array_equal(r["max"], mm.max(1))
    np.testing.assert_array_equal(r["min"], mm.min(1))
    incl = np.cumsum(chunks, axis=1).ravel()[:n]
    np.testing.assert_array_equal(r["incl"], incl)
    np.testing.assert_array_equal(r["excl"], incl - x)


@pytest.mark.gpu
def test_warp_reserve_and_count(cp):
    from warpgraph.gpu import selftest

    rng = np.random.default_rng(1)
    want = rng.integers(0, 5, 100_003)
    total, queue = selftest.warp_reserve(cp.asarray(want))
    assert total == want.sum()
    np.testing.assert_array_equal(np.sort(queue), np.repeat(np.arange(want.size), want))
    for dtype in (np.int32, np.int64):
        keys = np.concatenate([rng.integers(0, 1000, 50_000), np.full(5_000, 7)]).astype(dtype)
        keys.sort()  # sorted keys: many equal keys per warp
        got = selftest.warp_count(cp.asarray(keys), 1000)
        np.testing.assert_array_equal(got, np.bincount(keys, minlength=1000))


@pytest.mark.gpu
def test_block_sum(cp):
    from warpgraph.gpu import selftest

    x = np.arange(100_000, dtype=np.int64)
    sums = selftest.block_sums(cp.asarray(x), blocks=7, block=128)
    expected = [x[(np.arange(x.size) // 128) % 7 == b].sum() for b in range(7)]
    np.testing.assert_array_equal(sums, expected)


@pytest.mark.gpu
@pytest.mark.parametrize("block", [128, 256, 1024])
def test_cooperative_grid_sync(cp, block):
    from warpgraph.gpu import selftest

    x = np.random.default_rng(2).integers(0, 1000, 1_000_003).astype(np.int64)
    out, used, errors = selftest.grid_sync_sum(cp.asarray(x), rounds=8, block=block)
    k = loader.get_kernel("coop_selftest.cu", "grid_sync_sum<long long>", cooperative=True)
    assert used == wgpu.max_cooperative_blocks(k, block) >= wgpu.sm_count()
    assert errors == 0
    assert (out == x.sum()).all()
    with pytest.raises(InvalidArgumentError, match="outside"):
        selftest.grid_sync_sum(cp.asarray(x), block=block, blocks=used + 1)
    with pytest.raises(InvalidArgumentError, match="cooperative"):
        wgpu.launch_cooperative(loader.get_kernel("degree.cu", "count_degrees<int>"), ())


@pytest.mark.gpu
def test_gpu_timer(cp):
    x = cp.arange(10_000_000, dtype=cp.float64)
    with wgpu.gpu_timer() as t:
        for _ in range(5):
            x = x * 1.0001
    assert np.isfinite(t.ms) and t.ms > 0
    s = cp.cuda.Stream(non_blocking=True)
    with s, wgpu.gpu_timer(s) as t2:
        y = x + 1
    assert t2.ms >= 0 and float(y[0]) == float(x[0]) + 1
