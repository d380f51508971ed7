"""GPU backend infrastructure: kernel loading (CuPy NVRTC), launching, and foundation kernels.

- :mod:`.loader`: :func:`get_kernel` compiles the CUDA C++17 sources in ``gpu/kernels/`` once
  per process and device (templates via name expressions, ``-D`` macros).
- :mod:`.launch`: :func:`launch` (grid sizing, typed arguments), :func:`launch_cooperative`
  (persistent kernels with grid sync), :func:`gpu_timer` (CUDA events).
- :mod:`.csr`: :func:`build_csr`, CSR construction on the GPU.
- :mod:`.stats`: degrees, degree statistics, BFS levels and WCC labels on the GPU.

Importing this package does not import CuPy (the CPU-only install must keep working); CuPy is
imported on the first call that needs a GPU. See ``docs/GPU.md``.

Examples
--------
>>> import warpgraph.gpu as wgpu
>>> wgpu.grid_for(1 << 20, 256, max_blocks=4224)
4096
"""

from __future__ import annotations

from .launch import (
    GpuTime,
    convert_args,
    gpu_timer,
    grid_for,
    launch,
    launch_cooperative,
    max_cooperative_blocks,
    sm_count,
)
from .loader import (
    Kernel,
    KernelCompileError,
    declare,
    declared,
    get_kernel,
    get_module,
    kernel_sources,
    kernels_dir,
)

__all__ = [
    "GpuTime",
    "Kernel",
    "KernelCompileError",
    "bfs_levels",
    "build_csr",
    "convert_args",
    "declare",
    "declared",
    "degree_stats",
    "get_kernel",
    "get_module",
    "gpu_timer",
    "grid_for",
    "in_degrees",
    "kernel_sources",
    "kernels_dir",
    "launch",
    "launch_cooperative",
    "max_cooperative_blocks",
    "out_degrees",
    "sm_count",
    "wcc_labels",
]

_LAZY = {
    "build_csr": "csr",
    "bfs_levels": "stats",
    "degree_stats": "stats",
    "in_degrees": "stats",
    "out_degrees": "stats",
    "wcc_labels": "stats",
}


def __getattr__(name: str):
    # csr/stats are imported on first use; neither imports CuPy at import time either.
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    if name in ("csr", "stats", "signature"):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'warpgraph.gpu' has no attribute {name!r}")
