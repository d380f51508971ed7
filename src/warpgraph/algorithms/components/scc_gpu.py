"""Strongly connected components on the GPU: the multi-step scheme (work in progress)."""

from __future__ import annotations

from typing import Any

from ...errors import InvalidArgumentError
from .scc_config import GPU_SCC_METHODS, SCCConfig

__all__ = ["scc_gpu"]


def scc_gpu(
    indptr: Any,
    indices: Any,
    n: int,
    *,
    method: str = "multistep",
    config: SCCConfig | None = None,
    rindptr: Any = None,
    rindices: Any = None,
):
    """SCC labels on the GPU (int64 CuPy array). Placeholder: runs the CPU code."""
    if method not in GPU_SCC_METHODS:
        raise InvalidArgumentError(f"GPU method must be one of {GPU_SCC_METHODS}, got {method!r}")
    from ...device import cupy
    from .scc_cpu import scc_cpu

    cp = cupy()

    def get(a):
        return None if a is None else cp.asnumpy(a)

    lab = scc_cpu(
        get(indptr),
        get(indices),
        n,
        method=method,
        config=config,
        rindptr=get(rindptr),
        rindices=get(rindices),
    )
    return cp.asarray(lab)
