"""Shared pytest configuration: `gpu` tests skip cleanly where no CUDA device is usable."""

from __future__ import annotations

import os
import warnings

import pytest
from hypothesis import HealthCheck, settings

from warpgraph.device import gpu_available

# CI machines have 2 cores: keep property tests short there, thorough when asked.
settings.register_profile(
    "ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("WARPGRAPH_HYPOTHESIS_PROFILE", "ci"))


def pytest_collection_modifyitems(config, items):
    if gpu_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU and CuPy")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(params=["cpu", pytest.param("gpu", marks=pytest.mark.gpu)])
def device(request):
    """Run a test body once per backend (the GPU run skips without a GPU)."""
    return request.param


@pytest.fixture(autouse=True)
def _quiet_cache_warning():
    """NetworkX notes each reuse of a cached backend conversion; the backend tests reuse them
    on purpose."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Note: conversions to backend graphs")
        yield
