"""Large host arrays from the heap, not from fresh pages: glibc's mmap threshold raised once.

glibc's ``malloc`` serves a block above its *mmap threshold* (128 KiB in a fresh process) with
a new ``mmap``, and ``free`` returns it with ``munmap``. Every page of such an array is then
faulted in and zeroed by the kernel on first touch, each time an array is made: a conversion
of a NetworkX graph makes a few dozen arrays of 1-10 MB, and in a virtual machine a page fault
costs microseconds. glibc raises the threshold by itself when an mmapped block is freed (to
that block's size, up to 32 MiB, and its trim threshold to twice that), after which blocks
below it come from the heap and reuse pages already mapped. The trim threshold matters as
much: a conversion's own frees raise the mmap threshold only to the size of its arrays (a few
MB), and the heap top it frees at the end (tens of MB) is then returned to the kernel and
faulted in again by the next call. A process that has freed a block near 32 MiB has crossed
both already; a fresh one that only built a NetworkX graph has not. Measured on 2 cores (grid:708,
501k nodes, 1M edges): ``convert_from_nx`` 73.8 ms in a fresh process, 20.0 ms once the
threshold was raised (``docs/PERFORMANCE.md``, session 17).

:func:`raise_mmap_threshold` frees one untouched 32 MiB block to trigger that rule; it costs
one ``mmap``/``munmap`` pair (no page is touched). It changes nothing where the threshold was
set explicitly (``mallopt`` or ``MALLOC_MMAP_THRESHOLD_``: glibc then keeps it fixed), nor
outside glibc. Its cost to memory is glibc's usual one: up to 64 MiB of freed heap kept for
reuse instead of returned at once (the trim threshold follows at twice the mmap threshold).

:func:`pad_heap_growth` (also at import) has glibc open heaps :data:`TOP_PAD` at a time, so
that worker threads filling their own arenas do not take the memory-map lock for every step;
:func:`raise_trim_threshold` (at the first NetworkX conversion) keeps freed heap top mapped.
"""

from __future__ import annotations

import os
import sys

import numpy as np

__all__ = ["pad_heap_growth", "raise_mmap_threshold", "raise_trim_threshold"]

#: glibc's ``DEFAULT_MMAP_THRESHOLD_MAX`` on 64-bit systems: the most its dynamic rule gives.
MMAP_THRESHOLD_MAX = 32 * 2**20

_DONE: list[bool] = []

#: Freed memory at the top of the heap that glibc keeps for reuse once
#: :func:`raise_trim_threshold` ran (its dynamic rule gives 64 MiB at most).
TRIM_THRESHOLD = 256 * 2**20
#: Settings by which a user fixed glibc's thresholds: then the settings here keep out.
USER_SETTINGS = ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TOP_PAD_")
_M_TRIM_THRESHOLD = -1  # mallopt's parameter numbers (malloc.h)
_M_TOP_PAD = -2
_TRIM_DONE: list[bool] = []
_PAD_DONE: list[bool] = []

#: Extra memory glibc maps whenever a heap grows (``mallopt(M_TOP_PAD)``, 128 KiB by default),
#: set by :func:`pad_heap_growth`: glibc's ``HEAP_MAX_SIZE`` on 64-bit systems, so that a
#: thread's arena made afterwards has its whole first heap readable and writable at once.
#: Without it, a worker thread's heap is opened page by page as it fills, each step an
#: ``mprotect`` that takes the process's memory-map lock for writing, while the other workers'
#: page faults wait on the same lock (16 threads copying a result's dicts, 1M edges: 87-104 ms,
#: 22 ms with the pad; ``docs/PERFORMANCE.md``, session 27). Untouched pages cost no memory;
#: the cost is glibc's trimming, which then leaves up to this much freed memory per arena
#: mapped for reuse instead of returning it.
TOP_PAD = 64 * 2**20


def _glibc() -> bool:
    try:
        return os.confstr("CS_GNU_LIBC_VERSION").startswith("glibc")
    except (AttributeError, ValueError, OSError):
        return False


def raise_mmap_threshold() -> bool:
    """Once per process, on Linux with glibc: allocate and free an untouched block just under
    :data:`MMAP_THRESHOLD_MAX`, so that glibc serves later blocks up to that size from the
    heap. Returns whether it ran now (False: done before, or not glibc).

    Examples
    --------
    >>> raise_mmap_threshold() in (True, False)
    True
    >>> raise_mmap_threshold()  # once only
    False
    """
    if _DONE:
        return False
    _DONE.append(True)
    if not sys.platform.startswith("linux") or not _glibc():
        return False
    block = np.empty(MMAP_THRESHOLD_MAX - 2**16, dtype=np.uint8)  # (chunk header included)
    del block
    return True


def raise_trim_threshold() -> bool:
    """Once per process, on Linux with glibc: keep up to :data:`TRIM_THRESHOLD` of freed heap
    top mapped (``mallopt(M_TRIM_THRESHOLD)``), after :func:`raise_mmap_threshold`. Run before
    NetworkX results are built (:mod:`warpgraph.nx`): a 1M-edge result's large dicts and
    arrays (about 80 MB) are freed at the top of the heap, which glibc otherwise returns to the
    kernel above 64 MiB, to fault it in again at the next result (2 cores, grid:708 ``k_core``:
    about 19k page faults, 70 ms). Nothing is changed where the user set glibc's thresholds
    (:data:`USER_SETTINGS`, or ``glibc.malloc`` tunables). An explicit setting also fixes the
    mmap threshold where it is (32 MiB after :func:`raise_mmap_threshold`). Returns whether it
    was set now; ``malloc_trim(0)`` gives the kept memory back at any time.

    Examples
    --------
    >>> raise_trim_threshold() in (True, False)
    True
    >>> raise_trim_threshold()  # once only
    False
    """
    if _TRIM_DONE:
        return False
    _TRIM_DONE.append(True)
    if not _glibc_unset():
        return False
    raise_mmap_threshold()
    return _mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)


def pad_heap_growth() -> bool:
    """Once per process, on Linux with glibc: grow heaps by :data:`TOP_PAD` at a time
    (``mallopt(M_TOP_PAD)``), after :func:`raise_mmap_threshold`. Run when warpgraph is
    imported, before its worker threads first allocate: a thread's arena takes the pad in
    force when the arena is made, and keeps its first heap's size after. Nothing is changed
    where the user set glibc's thresholds (:data:`USER_SETTINGS`, or ``glibc.malloc``
    tunables), nor under strict overcommit (``vm.overcommit_memory = 2``, where mapped pages
    count against the commit limit, touched or not). Returns whether it was set now.

    Examples
    --------
    >>> pad_heap_growth() in (True, False)
    True
    >>> pad_heap_growth()  # once only
    False
    """
    if _PAD_DONE:
        return False
    _PAD_DONE.append(True)
    if not _glibc_unset() or _strict_overcommit():
        return False
    raise_mmap_threshold()
    return _mallopt(_M_TOP_PAD, TOP_PAD)


def _glibc_unset() -> bool:
    """Linux with glibc, and none of glibc's malloc settings made by the user."""
    if not sys.platform.startswith("linux") or not _glibc():
        return False
    tunables = os.environ.get("GLIBC_TUNABLES", "")
    return not any(k in os.environ for k in USER_SETTINGS) and "glibc.malloc" not in tunables


def _mallopt(param: int, value: int) -> bool:
    import ctypes

    return ctypes.CDLL(None).mallopt(param, value) == 1


def _strict_overcommit(path: str = "/proc/sys/vm/overcommit_memory") -> bool:
    """Whether the kernel counts mapped, untouched memory against a commit limit (mode 2)."""
    try:
        with open(path) as f:
            return f.read().strip() == "2"
    except OSError:
        return False
