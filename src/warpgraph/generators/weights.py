"""Random edge weights in the conventions of GAP and Graph500."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InvalidArgumentError
from . import _counter_rng as crng
from ._common import (
    STREAM_WEIGHTS,
    SeedLike,
    check_device,
    check_int,
    check_weights_kind,
    stream_keys,
)

__all__ = ["WEIGHT_KINDS", "random_weights"]

WEIGHT_KINDS = ("gap", "graph500")


def random_weights(m: int, kind: str = "gap", seed: SeedLike = None, device: str = "auto") -> Any:
    """``m`` random edge weights drawn in the convention of a benchmark suite.

    Parameters
    ----------
    m : int
        Number of weights (one per edge).
    kind : {"gap", "graph500"}
        ``"gap"``: uniform integers in ``[1, 255]`` (int32), as GAPBS builds its weighted
        graphs. ``"graph500"``: uniform floats in ``[0, 1)`` (float32, on a ``2**-24`` grid), as
        the Graph500 reference code draws its SSSP weights.
    seed : int, optional
        Seed; ``None`` draws fresh entropy. Weight ``e`` depends only on ``(seed, e)``, and a
        generator called with ``seed=s`` and ``weights=kind`` uses exactly
        ``random_weights(M, kind, seed=s)`` for its ``M`` edges.
    device : {"auto", "cpu", "gpu"}
        Where the array is made: NumPy on the CPU, CuPy on the GPU (same values).

    Returns
    -------
    numpy.ndarray or cupy.ndarray
        int32 for ``"gap"``, float32 for ``"graph500"``.

    Raises
    ------
    InvalidArgumentError
        For ``m < 0``, an unknown ``kind`` or a bad seed.

    Examples
    --------
    >>> from warpgraph.generators import random_weights
    >>> w = random_weights(5, "gap", seed=1, device="cpu")
    >>> w.dtype.name, bool(((w >= 1) & (w <= 255)).all())
    ('int32', True)
    >>> bool((random_weights(5, "gap", seed=1, device="cpu") == w).all())
    True
    """
    m = check_int("m", m, 0)
    if kind is None:
        raise InvalidArgumentError(f"kind must be one of {WEIGHT_KINDS}, got None")
    kind = check_weights_kind(kind, WEIGHT_KINDS)
    key = stream_keys(seed)[STREAM_WEIGHTS]
    return weights_from_key(key, m, kind, check_device(device))


def weights_from_key(key: np.uint64, m: int, kind: str, device: str) -> Any:
    """Weights of stream ``key`` (used by the generators, which derive ``key`` from their seed)."""
    if device == "gpu":
        from . import _gpu

        return _gpu.weights(key, m, kind)
    if kind == "gap":
        return crng.gap_weights(np.uint64(key), m)
    return crng.unit_weights(np.uint64(key), m)
