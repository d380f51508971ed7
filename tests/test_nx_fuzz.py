"""``tools/nx_fuzz.py`` in short: its first rounds (graphs of 0-60 nodes, every label, weight
and view kind, every dispatched function) must find no call where the backend and NetworkX
disagree. The long run (``python tools/nx_fuzz.py --rounds 40``) is by hand."""

from __future__ import annotations

import importlib.util
import warnings
from pathlib import Path

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

TOOL = Path(__file__).resolve().parents[1] / "tools" / "nx_fuzz.py"


@pytest.fixture(scope="module")
def fuzz():
    spec = importlib.util.spec_from_file_location("nx_fuzz", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_fuzz_can_see_a_difference(fuzz):
    """Its comparison tells types, order and NaN apart (else a pass would mean nothing)."""
    assert not fuzz.same({1: 0, 2: 1}, {2: 1, 1: 0})  # key order
    assert not fuzz.same([1], [1.0])  # value type
    assert not fuzz.same((1, 2), [1, 2])
    assert fuzz.same({1: float("nan")}, {1: float("nan")})
    assert fuzz.same({3, 1}, {1, 3})
    assert not fuzz.same({1}, {np.int64(1)})  # a set's members' types


@pytest.mark.parametrize("seed", [11, 12])
def test_no_call_disagrees_with_networkx(fuzz, seed, monkeypatch):
    """On the configured device (the GPU where there is one)."""
    monkeypatch.setattr(nx.config, "warnings_to_ignore", {"cache"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (Numba's and NumPy's, on NaN and empty inputs)
        tally = fuzz.run(seed, rounds=2, large=False)
    assert tally.calls > 5000
    assert not tally.disagree, "\n".join(tally.disagree[:10])


@pytest.mark.parametrize("directed", [False, True])
def test_no_call_disagrees_on_a_graph_past_the_parallel_paths(fuzz, directed, monkeypatch):
    """5,000 nodes: past the sizes (4,096) where the in-place and parallel paths start."""
    monkeypatch.setattr(nx.config, "warnings_to_ignore", {"cache"})
    rng = np.random.default_rng(5 + directed)
    G = fuzz.random_graph(rng, 5000, directed, "gaps" if directed else "strings", "int")
    tally = fuzz.Tally()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, args, kwargs in fuzz.calls(G, rng):
            tally.check("n=5000", name, args, kwargs)
    assert tally.calls > 150
    assert not tally.disagree, "\n".join(tally.disagree[:10])
