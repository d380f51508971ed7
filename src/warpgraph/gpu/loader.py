"""Kernel loader: compile the package's CUDA C++17 sources at run time with CuPy (NVRTC).

Kernel sources live in ``warpgraph/gpu/kernels/`` (package data, read with
:mod:`importlib.resources`). :func:`get_kernel` compiles one source into a ``cupy.RawModule``
with ``-std=c++17``, an include path to the kernels folder (so ``#include "common.cuh"``
works) and optional ``-D`` macros, instantiates templates through ``name_expressions``, and
returns a :class:`Kernel` that knows its declared parameter types (:mod:`.signature`).

Caching happens at three levels:

1. this module memoizes one module per (device, source, options, name expressions), so each
   module compiles at most once per process and device;
2. CuPy keeps the compiled binary per device inside the module;
3. CuPy's disk cache (``~/.cupy/kernel_cache`` or ``$CUPY_CACHE_DIR``) reuses binaries across
   processes. Its key covers the source text and the options but not the included headers, so
   the options carry ``-DWARPGRAPH_HEADERS_HASH=<digest of kernels/*.cuh>``: editing a header
   recompiles every source that may include it.

Each source declares the name expressions its Python wrapper uses with :func:`declare`; they are
compiled together in one module (one NVRTC run) whichever of them is asked for first.

Importing this module does not import CuPy.

Examples
--------
>>> from warpgraph.gpu.loader import kernel_sources, read_source
>>> "common.cuh" in read_source("degree.cu")
True
>>> "degree.cu" in kernel_sources()
True
"""

from __future__ import annotations

import functools
import hashlib
import importlib.resources
import os
import tempfile
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InvalidArgumentError, WarpgraphError
from .signature import Param, kernel_params

__all__ = [
    "BASE_OPTIONS",
    "Kernel",
    "KernelCompileError",
    "clear_cache",
    "compile_count",
    "compile_options",
    "declare",
    "declared",
    "get_kernel",
    "get_module",
    "headers_digest",
    "kernel_sources",
    "kernels_dir",
    "read_source",
]

BASE_OPTIONS: tuple[str, ...] = ("-std=c++17",)
"""Options every kernel source is compiled with (besides the include path and headers hash)."""


class KernelCompileError(WarpgraphError, RuntimeError):
    """NVRTC rejected a kernel source; the message holds the source name, options and log."""


@dataclass(frozen=True)
class Kernel:
    """A compiled kernel ready for :func:`warpgraph.gpu.launch.launch`.

    Attributes
    ----------
    raw : cupy.RawKernel
        The CuPy kernel (call it directly only with explicitly typed arguments).
    name : str
        The name expression it was looked up by, e.g. ``"count_degrees<int>"``.
    source : str
        File name under ``kernels/``.
    params : tuple of Param or None
        Declared parameters, or ``None`` when the source could not be parsed (then every scalar
        argument must be an explicitly typed NumPy scalar).
    cooperative : bool
        Meant for :func:`warpgraph.gpu.launch.launch_cooperative` (persistent kernel with
        grid-wide barriers); the compiled code is the same either way.
    """

    raw: Any
    name: str
    source: str
    params: tuple[Param, ...] | None
    cooperative: bool = False

    @property
    def ptr(self) -> int:
        """The ``CUfunction`` handle on the current device (for occupancy queries)."""
        return self.raw.kernel.ptr

    @property
    def attributes(self) -> dict[str, int]:
        """Registers, shared/local memory and limits of the compiled kernel (CuPy's dict)."""
        return self.raw.attributes


# ---- sources ----------------------------------------------------------------------------------


@functools.cache
def kernels_dir() -> Path:
    """The folder holding the kernel sources, as a real directory (NVRTC needs a path for -I).

    For a normal install this is ``warpgraph/gpu/kernels`` itself; when the package is imported
    from a zip, the sources are copied once into a temporary directory.
    """
    res = importlib.resources.files("warpgraph.gpu").joinpath("kernels")
    if isinstance(res, Path) and res.is_dir():
        return res.resolve()
    tmp = Path(tempfile.mkdtemp(prefix="warpgraph-kernels-"))
    for entry in res.iterdir():
        if entry.name.endswith((".cu", ".cuh")):
            (tmp / entry.name).write_bytes(entry.read_bytes())
    return tmp


def kernel_sources() -> list[str]:
    """File names of all ``.cu`` kernel sources, sorted."""
    return sorted(p.name for p in kernels_dir().glob("*.cu"))


def _check_name(source: str) -> Path:
    if not isinstance(source, str) or os.sep in source or "/" in source:
        raise InvalidArgumentError(f"kernel source must be a file name in kernels/, got {source!r}")
    path = kernels_dir() / source
    if not source.endswith((".cu", ".cuh")) or not path.is_file():
        known = ", ".join(kernel_sources())
        raise InvalidArgumentError(f"no kernel source {source!r} in {kernels_dir()} ({known})")
    return path


@functools.cache
def read_source(source: str) -> str:
    """The text of kernel source ``source`` (a file name such as ``"bfs.cu"``)."""
    return _check_name(source).read_text(encoding="utf-8")


@functools.cache
def headers_digest() -> str:
    """A short digest of every ``kernels/*.cuh`` header (name and contents)."""
    h = hashlib.sha256()
    for p in sorted(kernels_dir().glob("*.cuh")):
        h.update(p.name.encode())
        h.update(b"\0")
        h.update(p.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:16]


def _define(name: str, value: Any) -> str:
    if not isinstance(name, str) or not name.isidentifier():
        raise InvalidArgumentError(f"macro name must be an identifier, got {name!r}")
    if value is None or value is True:
        return f"-D{name}"
    if value is False:
        return f"-D{name}=0"
    if isinstance(value, int | float | str):
        text = str(value)
        if any(c.isspace() for c in text):
            raise InvalidArgumentError(f"macro {name} value must not contain spaces: {text!r}")
        return f"-D{name}={text}"
    raise InvalidArgumentError(f"macro {name} value must be int, float, str or bool, got {value!r}")


def compile_options(
    defines: Mapping[str, Any] | None = None, options: Iterable[str] = ()
) -> tuple[str, ...]:
    """The full NVRTC option tuple for a compile: base options, include path, headers hash,
    ``-D`` macros (sorted, so equal dicts give equal cache keys) and extra ``options``.

    Examples
    --------
    >>> opts = compile_options({"BLOCK": 256, "USE_BITMAP": True})
    >>> opts[0], opts[-2:]
    ('-std=c++17', ('-DBLOCK=256', '-DUSE_BITMAP'))
    """
    opts = [*BASE_OPTIONS, f"-I{kernels_dir()}", f"-DWARPGRAPH_HEADERS_HASH=0x{headers_digest()}"]
    opts += [_define(k, v) for k, v in sorted((defines or {}).items())]
    extra = tuple(options)
    if not all(isinstance(o, str) for o in extra):
        raise InvalidArgumentError(f"compile options must be strings, got {extra!r}")
    return (*opts, *extra)


# ---- declarations -----------------------------------------------------------------------------

_DECLARED: dict[str, tuple[str, ...]] = {}


def declare(source: str, *names: str) -> None:
    """Register the name expressions a Python wrapper will ask of ``source``.

    All names declared for a source are compiled together (one module, one NVRTC run), and the
    GPU test suite compiles every declared name. Call at import time of the wrapper module.

    Examples
    --------
    >>> declare("degree.cu", "count_degrees<int>", "count_degrees<long long>")
    >>> "count_degrees<int>" in declared()["degree.cu"]
    True
    """
    _check_name(source)
    old = _DECLARED.get(source, ())
    _DECLARED[source] = old + tuple(n for n in names if n not in old)


def declared() -> dict[str, tuple[str, ...]]:
    """A copy of the declared name expressions, per source."""
    return dict(_DECLARED)


# ---- compilation ------------------------------------------------------------------------------

_LOCK = threading.RLock()
_MODULES: dict[tuple, Any] = {}
_KERNELS: dict[tuple, Kernel] = {}
_COMPILES = 0


def compile_count() -> int:
    """How many modules this process has compiled (or loaded from CuPy's disk cache)."""
    return _COMPILES


def clear_cache() -> None:
    """Forget the memoized modules and kernels (CuPy's own caches are left alone)."""
    global _COMPILES
    with _LOCK:
        _MODULES.clear()
        _KERNELS.clear()
        _COMPILES = 0


def _device_id(cp) -> int:
    return int(cp.cuda.runtime.getDevice())


def get_module(
    source: str,
    names: Iterable[str],
    *,
    defines: Mapping[str, Any] | None = None,
    options: Iterable[str] = (),
):
    """The compiled ``cupy.RawModule`` of ``source`` with template instances ``names``.

    Memoized per (device, source, options, names); compiles eagerly so errors surface here as
    :class:`KernelCompileError`.
    """
    global _COMPILES
    from ..device import cupy

    cp = cupy()
    code = read_source(source)
    opts = compile_options(defines, options)
    names = tuple(sorted(set(names)))
    key = (_device_id(cp), source, opts, names)
    with _LOCK:
        mod = _MODULES.get(key)
        if mod is not None:
            return mod
        mod = cp.RawModule(code=code, options=opts, name_expressions=names or None)
        try:
            mod.compile()
        except Exception as exc:  # cupy.cuda.compiler.CompileException and friends
            raise KernelCompileError(
                f"compiling {source} (names {list(names)}, options {list(opts)}) failed:\n{exc}"
            ) from exc
        _COMPILES += 1
        _MODULES[key] = mod
        return mod


def get_kernel(
    source: str,
    name: str,
    *,
    defines: Mapping[str, Any] | None = None,
    options: Iterable[str] = (),
    cooperative: bool = False,
) -> Kernel:
    """Compile (once) and return kernel ``name`` of ``source``.

    Parameters
    ----------
    source : str
        File name under ``warpgraph/gpu/kernels/``, e.g. ``"degree.cu"``.
    name : str
        Kernel name or template instance, e.g. ``"count_degrees<int>"``.
    defines : mapping, optional
        Macros passed as ``-DNAME=value`` (``True`` or ``None`` gives ``-DNAME``).
    options : iterable of str, optional
        Extra NVRTC options.
    cooperative : bool
        The kernel is persistent: launch it with :func:`warpgraph.gpu.launch.launch_cooperative`
        (``cuLaunchCooperativeKernel``; it may then use ``wg::grid_sync``). Not CuPy's
        ``enable_cooperative_groups``, which compiles relocatable code and needs
        ``libcudadevrt.a`` from a full CUDA toolkit.

    Returns
    -------
    Kernel

    Raises
    ------
    InvalidArgumentError
        Unknown source file or bad macro.
    KernelCompileError
        NVRTC failed (the message carries the compiler log).
    DeviceUnavailableError
        CuPy or a GPU is missing.

    Examples
    --------
    >>> k = get_kernel("degree.cu", "count_degrees<int>")  # doctest: +SKIP
    >>> [p.name for p in k.params]  # doctest: +SKIP
    ['ids', 'm', 'counts']
    """
    from ..device import cupy

    cp = cupy()
    dev = _device_id(cp)
    options = tuple(options)
    opts_key = (tuple(sorted((defines or {}).items())), options, bool(cooperative))
    kkey = (dev, source, name, opts_key)
    with _LOCK:
        hit = _KERNELS.get(kkey)
        if hit is not None:
            return hit
        names = set(_DECLARED.get(source, ())) | {name}
        mod = get_module(source, names, defines=defines, options=options)
        try:
            raw = mod.get_function(name)
        except Exception as exc:  # unknown name: CUDA_ERROR_NOT_FOUND
            raise KernelCompileError(f"kernel {name!r} not found in {source}: {exc}") from exc
        k = Kernel(
            raw=raw,
            name=name,
            source=source,
            params=kernel_params(read_source(source), name),
            cooperative=bool(cooperative),
        )
        _KERNELS[kkey] = k
        return k
