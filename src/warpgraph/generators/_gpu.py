"""CuPy drivers of the CUDA generator kernels in ``kernels/generators.cu``.

Outputs equal the CPU generators' bit for bit: the kernels compute the same counter-based words,
and permutations are the argsort of the same distinct keys (CuPy's radix sort here, NumPy's sort
on the CPU; distinct keys leave no room for the two to differ).
"""

from __future__ import annotations

from importlib import resources
from typing import Any

import numpy as np

from ..device import check_device_memory, cupy
from ._common import STREAM_EDGES, STREAM_PERMUTATION, STREAM_SHUFFLE, id_dtype

_BLOCK = 256
_TYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long"}
_TEMPLATES = ("wg_rmat_edges", "wg_rmat_edges_from", "wg_uniform_edges", "wg_counters_of")
_PLAIN = ("wg_random_keys", "wg_gap_weights", "wg_unit_weights")  # extern "C" kernels
_modules: dict[int, Any] = {}


def _module():
    """The compiled RawModule of the current device (compiled once per device, cached by CuPy)."""
    cp = cupy()
    dev = cp.cuda.Device().id
    if dev not in _modules:
        code = resources.files(__package__).joinpath("kernels", "generators.cu").read_text()
        names = [f"{t}<{c}>" for t in _TEMPLATES for c in _TYPES.values()] + list(_PLAIN)
        _modules[dev] = cp.RawModule(code=code, options=("-std=c++17",), name_expressions=names)
    return _modules[dev]


def _kernel(name: str, dtype: Any = None):
    mod = _module()
    if dtype is None:
        return mod.get_function(name)
    return mod.get_function(f"{name}<{_TYPES[np.dtype(dtype)]}>")


def _grid(count: int) -> tuple[int]:
    return (max(1, min((count + _BLOCK - 1) // _BLOCK, 1 << 20)),)


def random_permutation(key: np.uint64, n: int, dtype: Any = np.int64):
    """Same permutation as ``_counter_rng.random_permutation`` (CuPy array)."""
    cp = cupy()
    keys = cp.empty(n, dtype=cp.uint64)
    out = cp.empty(n, dtype=dtype)
    if n:
        _kernel("wg_random_keys")(_grid(n), (_BLOCK,), (np.uint64(key), np.int64(n), keys))
        keys = cp.sort(keys)
        _kernel("wg_counters_of", dtype)(
            _grid(n), (_BLOCK,), (keys, np.uint64(key), np.int64(n), out)
        )
    return out


def rmat_edges(keys, scale: int, m: int, thresholds, *, permute: bool, shuffle: bool):
    """R-MAT edge list on the GPU (see ``kronecker.rmat_edges``)."""
    cp = cupy()
    n = 1 << scale
    dtype = id_dtype(n)
    need = 2 * m * dtype.itemsize + (n * (dtype.itemsize + 8) if permute else 0)
    if shuffle:
        need += m * (8 + 8) + 2 * m * dtype.itemsize
    check_device_memory(need, f"a scale-{scale} R-MAT edge list")
    perm = random_permutation(keys[STREAM_PERMUTATION], n, dtype) if permute else None
    src = cp.empty(m, dtype=dtype)
    dst = cp.empty(m, dtype=dtype)
    if m:
        t_a, t_ab, t_abc = (np.uint64(t) for t in thresholds)
        _kernel("wg_rmat_edges", dtype)(
            _grid(m),
            (_BLOCK,),
            (
                np.uint64(keys[STREAM_EDGES]),
                np.int32(scale),
                np.int64(m),
                t_a,
                t_ab,
                t_abc,
                np.int32(permute),
                src if perm is None else perm,  # not read when permute is 0
                src,
                dst,
            ),
        )
    del perm
    if shuffle and m:
        order = random_permutation(keys[STREAM_SHUFFLE], m, np.int64)
        src, dst = src[order], dst[order]
    return src, dst


def rmat_fill(key: np.uint64, scale: int, first: int, thresholds, perm, src, dst) -> None:
    """Edges ``first .. first + len(src) - 1`` of the R-MAT list of stream ``key`` into
    ``src``/``dst`` (CuPy arrays of the id dtype), relabelled through ``perm`` unless ``None``.
    Equal to the same slice of the whole list: the chunks of a chunked generation."""
    m = int(src.size)
    if m == 0:
        return
    t_a, t_ab, t_abc = (np.uint64(t) for t in thresholds)
    _kernel("wg_rmat_edges_from", src.dtype)(
        _grid(m),
        (_BLOCK,),
        (
            np.uint64(key),
            np.int32(scale),
            np.int64(first),
            np.int64(m),
            t_a,
            t_ab,
            t_abc,
            np.int32(perm is not None),
            src if perm is None else perm,  # not read when permute is 0
            src,
            dst,
        ),
    )


def uniform_edges(key: np.uint64, n: int, m: int):
    """Uniform edge list on the GPU (see ``uniform.uniform_edges``)."""
    cp = cupy()
    dtype = id_dtype(n)
    check_device_memory(2 * m * dtype.itemsize, f"{m} uniform edges")
    src = cp.empty(m, dtype=dtype)
    dst = cp.empty(m, dtype=dtype)
    if m:
        _kernel("wg_uniform_edges", dtype)(
            _grid(m), (_BLOCK,), (np.uint64(key), np.uint64(n), np.int64(m), src, dst)
        )
    return src, dst


def weights(key: np.uint64, m: int, kind: str):
    """GAP (int32 in [1, 255]) or Graph500 (float32 in [0, 1)) weights on the GPU."""
    cp = cupy()
    if kind == "gap":
        out = cp.empty(m, dtype=cp.int32)
        name = "wg_gap_weights"
    else:
        out = cp.empty(m, dtype=cp.float32)
        name = "wg_unit_weights"
    if m:
        _kernel(name)(_grid(m), (_BLOCK,), (np.uint64(key), np.int64(m), out))
    return out
