"""Run every docstring example of the package (modules that need CuPy run only with a GPU)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import warpgraph
from warpgraph.device import gpu_available

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(warpgraph.__path__, prefix="warpgraph.")
    if not m.name.endswith("__main__")  # importing it runs the command line
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    try:
        module = importlib.import_module(name)
    except ImportError as exc:  # an optional dependency (CuPy, mpi4py) is missing
        pytest.skip(f"{name}: {exc}")
    if getattr(module, "DOCTEST_NEEDS_GPU", False) and not gpu_available():
        pytest.skip(f"{name}: examples need a GPU")
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
