"""The spin-wait hint of ``warpgraph.cpu.atomics`` (the other atomics: its doctests)."""

from __future__ import annotations

import platform

import numba as nb
import numpy as np
import pytest

from warpgraph.cpu.atomics import atomic_load, fetch_add, spin_pause


@nb.njit
def _wait_until(flag, value, limit):
    """Spin until ``flag[0] == value`` or ``limit`` turns; the turns taken."""
    turns = 0
    while atomic_load(flag, 0) != value and turns < limit:
        spin_pause()
        turns += 1
    return turns


def test_spin_pause_runs_in_python_and_compiled_loops():
    assert spin_pause() is None
    flag = np.zeros(1, dtype=np.int64)
    assert _wait_until(flag, 0, 10) == 0
    assert _wait_until(flag, 1, 1000) == 1000  # (nobody writes it: the limit ends the wait)
    fetch_add(flag, 0, 1)
    assert _wait_until(flag, 1, 1000) == 0


@pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"), reason="x86 only")
def test_spin_pause_emits_the_pause_instruction():
    flag = np.zeros(1, dtype=np.int64)
    _wait_until(flag, 0, 1)
    asm = _wait_until.inspect_asm(_wait_until.signatures[0])
    assert "pause" in asm
