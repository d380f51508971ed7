"""The machine a result was measured on: host, CPU, library versions, GPU, driver, power limit.

Versions of optional packages are read from installed metadata, so recording them imports
nothing heavy. GPU fields come from CuPy (name, memory, SMs, compute capability, CUDA versions)
and NVML (driver, power limit, maximum clocks); they are ``None`` when absent.

Examples
--------
>>> env = environment()
>>> env["versions"]["numpy"] is not None and "cpu_threads" in env
True
"""

from __future__ import annotations

import functools
import os
import platform
import time
from importlib import metadata
from typing import Any

__all__ = ["cpu_model", "environment", "package_version"]

_PACKAGES = (
    "warpgraph",
    "numpy",
    "scipy",
    "numba",
    "cupy-cuda13x",
    "cupy-cuda12x",
    "cupy",
    "networkx",
    "igraph",
    "networkit",
    "nvidia-ml-py",
)


def package_version(name: str) -> str | None:
    """Installed version of distribution ``name``, or None.

    Examples
    --------
    >>> package_version("surely-not-installed-package") is None
    True
    """
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


@functools.cache
def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo`` on Linux, else :func:`platform.processor`)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


@functools.cache
def _gpu_info() -> dict[str, Any] | None:
    from ..device import _import_cupy

    cp = _import_cupy()
    if cp is None:
        return None
    rt = cp.cuda.runtime
    dev = cp.cuda.Device()
    p = rt.getDeviceProperties(dev.id)
    name = p["name"].decode() if isinstance(p["name"], bytes) else str(p["name"])
    info: dict[str, Any] = {
        "name": name,
        "index": dev.id,
        "count": rt.getDeviceCount(),
        "memory_gib": round(p["totalGlobalMem"] / 2**30, 2),
        "sm_count": p["multiProcessorCount"],
        "compute_capability": f"{p['major']}.{p['minor']}",
        "cuda_runtime": rt.runtimeGetVersion(),
        "cuda_driver": rt.driverGetVersion(),
        "cupy": cp.__version__,
    }
    from .energy import gpu_static_info

    nv = gpu_static_info(dev.id)
    for key in ("driver", "power_limit_w", "max_sm_clock_mhz", "max_mem_clock_mhz"):
        info[key] = nv.get(key)
    return info


def environment(*, gpu: bool = True) -> dict[str, Any]:
    """Everything about the machine and software that a benchmark record should carry.

    Parameters
    ----------
    gpu : bool
        Include the GPU description (``None`` when no GPU is usable).

    Returns
    -------
    dict
        ``date`` (UTC, ISO 8601), ``host``, ``os``, ``cpu``, ``cpu_threads``, ``numba_threads``,
        ``python``, ``versions`` (package -> version or None), ``gpu`` (dict or None),
        ``env`` (the ``WARPGRAPH_*``, ``NUMBA_NUM_THREADS``, ``OMP_NUM_THREADS`` and
        ``CUDA_VISIBLE_DEVICES`` variables that are set).
    """
    import numba

    versions = {name: package_version(name) for name in _PACKAGES}
    cuda13, cuda12 = versions.pop("cupy-cuda13x"), versions.pop("cupy-cuda12x")
    versions["cupy"] = cuda13 or cuda12 or versions["cupy"]
    if versions["warpgraph"] is None:
        from .. import __version__

        versions["warpgraph"] = __version__
    watched = ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "CUDA_VISIBLE_DEVICES")
    env_vars = {k: v for k, v in os.environ.items() if k.startswith("WARPGRAPH_") or k in watched}
    return {
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "host": platform.node(),
        "os": platform.platform(),
        "cpu": cpu_model(),
        "cpu_threads": os.cpu_count(),
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "python": platform.python_version(),
        "versions": versions,
        "gpu": _gpu_info() if gpu else None,
        "env": env_vars,
    }
