"""glibc's mmap threshold raised once (:mod:`warpgraph._alloc`): multi-MB arrays then come from
the heap, not from fresh mmapped pages faulted in on every use."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from warpgraph import _alloc


def _mallinfo2_available() -> bool:
    import ctypes

    return _alloc._glibc() and hasattr(ctypes.CDLL(None), "mallinfo2")


def test_runs_once_per_process():
    assert _alloc._DONE == [True]  # importing warpgraph ran both
    assert _alloc._PAD_DONE == [True]
    assert _alloc.raise_mmap_threshold() is False
    assert _alloc.pad_heap_growth() is False


#: A fresh process's start: glibc's ``mallinfo2`` and this module loaded as ``alloc`` (not
#: through the warpgraph package, whose import runs :func:`raise_mmap_threshold`).
_PREAMBLE = """
import ctypes, importlib.util, sys
import numpy as np

class MallInfo2(ctypes.Structure):
    _fields_ = [(f, ctypes.c_size_t) for f in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
        "uordblks", "fordblks", "keepcost")]

libc = ctypes.CDLL(None)
libc.mallinfo2.restype = MallInfo2
spec = importlib.util.spec_from_file_location("alloc", sys.argv[1])
alloc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(alloc)
"""


def _fresh(body: str, **env: str) -> list[str]:
    """The words ``body`` prints in a fresh process after :data:`_PREAMBLE`, without the
    user's glibc settings (but those in ``env``)."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")} | env
    environ.pop("GLIBC_TUNABLES", None)
    out = subprocess.run(
        [sys.executable, "-c", _PREAMBLE + textwrap.dedent(body), _alloc.__file__],
        capture_output=True, text=True, check=True, env=environ,
    )  # fmt: skip
    return out.stdout.split()


@pytest.mark.skipif(not _mallinfo2_available(), reason="needs glibc with mallinfo2")
def test_large_arrays_come_from_the_heap_afterwards():
    """In a fresh process (NumPy alone, no warpgraph): an 8 MiB array is mmapped before, and
    served from the heap after :func:`raise_mmap_threshold` (mallinfo2's ``hblkhd``, the bytes
    in mmapped blocks, does not grow)."""
    words = _fresh(
        """
        kept = []

        def mapped_growth():  # (the array is kept: freeing an mmapped block raises the threshold)
            before = libc.mallinfo2().hblkhd
            kept.append(np.ones(2**20))  # 8 MiB
            return libc.mallinfo2().hblkhd - before

        first = mapped_growth()
        ran = alloc.raise_mmap_threshold()
        print(first >= 2**23, ran, mapped_growth() == 0)
        """
    )
    assert words == ["True", "True", "True"]


_TRIM_BODY = """
    alloc.raise_mmap_threshold()
    print(alloc.raise_trim_threshold(), alloc.raise_trim_threshold())
    blocks = [np.ones(2**17) for _ in range(160)]  # 160 x 1 MiB from the heap
    del blocks  # freed at the heap's top
    print(libc.mallinfo2().arena >= 150 * 2**20)  # kept mapped, not trimmed
"""


@pytest.mark.skipif(not _mallinfo2_available(), reason="needs glibc with mallinfo2")
def test_freed_heap_top_is_kept_after_raise_trim_threshold():
    """In a fresh process: 160 MiB freed at the top of the heap stay mapped (the dynamic rule
    alone trims above 64 MiB)."""
    assert _fresh(_TRIM_BODY) == ["True", "False", "True"]


@pytest.mark.skipif(not _mallinfo2_available(), reason="needs glibc with mallinfo2")
def test_trim_threshold_set_by_the_user_is_left_alone():
    words = _fresh(_TRIM_BODY, MALLOC_TRIM_THRESHOLD_=str(2**20))
    assert words == ["False", "False", "False"]  # not set, and the user's 1 MiB trims


_PAD_BODY = """
    import threading

    alloc.raise_mmap_threshold()  # 20 MiB blocks come from the heap from now on
    kept = []

    def heap_growth(make):
        before = libc.mallinfo2().arena  # bytes the arenas took from the system
        make()
        return libc.mallinfo2().arena - before

    main_before = heap_growth(lambda: kept.append(np.ones(20 * 2**17)))  # 20 MiB
    print(alloc.pad_heap_growth(), alloc.pad_heap_growth())
    main_after = heap_growth(lambda: kept.append(np.ones(20 * 2**17)))

    def in_a_thread():  # a new thread's first malloc makes its arena
        libc.malloc.restype = ctypes.c_void_p
        worker = threading.Thread(target=lambda: kept.append(libc.malloc(1024)))
        worker.start()
        worker.join()

    arena = heap_growth(in_a_thread)
    print(main_before < 30 * 2**20, main_after >= 80 * 2**20, arena >= 60 * 2**20)
"""


@pytest.mark.skipif(not _mallinfo2_available(), reason="needs glibc with mallinfo2")
def test_heaps_grow_by_the_top_pad_after_pad_heap_growth():
    """In a fresh process: the main heap grows by a block plus :data:`TOP_PAD` (by the block
    alone before), and a thread's new arena opens its whole first heap at once."""
    if _alloc._strict_overcommit():
        pytest.skip("strict overcommit: the pad is not set")
    assert _fresh(_PAD_BODY) == ["True", "False", "True", "True", "True"]


@pytest.mark.skipif(not _mallinfo2_available(), reason="needs glibc with mallinfo2")
def test_top_pad_set_by_the_user_is_left_alone():
    words = _fresh(_PAD_BODY, MALLOC_TOP_PAD_=str(2**17))
    assert words == ["False", "False", "True", "False", "False"]


def test_strict_overcommit_read_from_the_kernel_setting(tmp_path):
    setting = tmp_path / "overcommit_memory"
    setting.write_text("2\n")
    assert _alloc._strict_overcommit(str(setting))
    setting.write_text("0\n")
    assert not _alloc._strict_overcommit(str(setting))
    assert not _alloc._strict_overcommit(str(tmp_path / "absent"))


def test_no_pad_under_strict_overcommit(monkeypatch):
    monkeypatch.setattr(_alloc, "_PAD_DONE", [])
    monkeypatch.setattr(_alloc, "_strict_overcommit", lambda: True)
    monkeypatch.delenv("MALLOC_TOP_PAD_", raising=False)
    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)
    monkeypatch.delenv("MALLOC_MMAP_THRESHOLD_", raising=False)
    monkeypatch.delenv("GLIBC_TUNABLES", raising=False)
    assert _alloc.pad_heap_growth() is False
    assert _alloc._PAD_DONE == [True]
