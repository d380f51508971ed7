"""Argument checks, seeds and the edge-list-to-Graph step shared by every generator."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .._arrays import id_dtype_for
from ..device import check_host_memory, resolve_device
from ..errors import InvalidArgumentError

# Stream numbers: each random quantity of a generator reads its own key, so that (for example)
# asking for weights does not change the edges drawn with the same seed.
STREAM_EDGES, STREAM_PERMUTATION, STREAM_WEIGHTS, STREAM_SHUFFLE = range(4)
_NUM_STREAMS = 4

SeedLike = int | np.random.SeedSequence | None


def check_int(name: str, value: Any, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` as a Python int, or :class:`InvalidArgumentError` naming ``name`` and the range."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
        raise InvalidArgumentError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise InvalidArgumentError(f"{name} must be >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise InvalidArgumentError(f"{name} must be <= {maximum}, got {value}")
    return value


def check_real(
    name: str,
    value: Any,
    low: float | None = None,
    high: float | None = None,
    *,
    low_open: bool = False,
    high_open: bool = False,
) -> float:
    """``value`` as a finite float inside the given (closed unless ``*_open``) interval."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise InvalidArgumentError(f"{name} must be a real number, got {value!r}")
    value = float(value)
    ok = bool(np.isfinite(value))
    if low is not None:
        ok = ok and (value > low if low_open else value >= low)
    if high is not None:
        ok = ok and (value < high if high_open else value <= high)
    if not ok:
        raise InvalidArgumentError(
            f"{name} must be {_interval(low, high, low_open, high_open)}, got {value!r}"
        )
    return value


def _interval(low, high, low_open, high_open) -> str:
    if low is not None and high is not None:
        return f"in {'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"
    if low is not None:
        return f"a finite number {'>' if low_open else '>='} {low:g}"
    if high is not None:
        return f"a finite number {'<' if high_open else '<='} {high:g}"
    return "a finite number"


def seed_sequence(seed: SeedLike) -> np.random.SeedSequence:
    """A :class:`numpy.random.SeedSequence` from ``None`` (fresh entropy) or an int >= 0."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if seed is None:
        return np.random.SeedSequence()
    if isinstance(seed, bool | np.bool_) or not isinstance(seed, numbers.Integral):
        raise InvalidArgumentError(f"seed must be None or a non-negative integer, got {seed!r}")
    if seed < 0:
        raise InvalidArgumentError(f"seed must be a non-negative integer, got {seed}")
    return np.random.SeedSequence(int(seed))


def stream_keys(seed: SeedLike) -> np.ndarray:
    """The 64-bit keys of the counter-based streams (edges, permutation, weights, shuffle)."""
    return seed_sequence(seed).generate_state(_NUM_STREAMS, dtype=np.uint64)


def numpy_rng(seed: SeedLike) -> np.random.Generator:
    """A NumPy ``Generator`` (PCG64) for the generators that are not counter-based.

    Seeded from a child of the seed's sequence, so its state shares nothing with the keys of
    :func:`stream_keys` (which weights use) for the same seed.
    """
    ss = seed_sequence(seed)
    child = np.random.SeedSequence(ss.entropy, spawn_key=(*ss.spawn_key, 0x9E37))
    return np.random.default_rng(child)


def check_device(device: str | None) -> str:
    """``"cpu"`` or ``"gpu"`` (``"auto"`` follows ``WARPGRAPH_DEVICE``, then the hardware)."""
    return resolve_device(device)


def check_weights_kind(weights: Any, allowed: tuple[str, ...]) -> str | None:
    """Normalise the ``weights`` argument to one of ``allowed`` or ``None``."""
    if weights is None or weights is False:
        return None
    if isinstance(weights, str) and weights.lower() in allowed:
        return weights.lower()
    raise InvalidArgumentError(
        f"weights must be None or one of {', '.join(repr(a) for a in allowed)}, got {weights!r}"
    )


def check_host_edges(
    m: int, n: int, what: str, *, vertex_arrays: int = 1, gpu_builds_it: bool = True
) -> None:
    """Refuse, with the reason, a host edge list of ``m`` pairs over ``n`` vertices that cannot
    fit in the host's memory: its two id arrays and ``vertex_arrays`` arrays of ``n`` ids (a
    permutation, the lattice's ids) are a lower bound of what the generator allocates.
    ``gpu_builds_it``: whether ``device="gpu"`` builds the edges on the device instead (then
    the hint says so).

    Examples
    --------
    >>> check_host_edges(1000, 100, "a small graph")  # (fits anywhere)
    """
    size = id_dtype(n).itemsize
    check_host_memory(
        (2 * m + vertex_arrays * n) * size,
        what=f"{what} ({n} vertices, {m} edges)",
        hint="ask for a smaller graph"
        + (", or device='gpu' (which checks its own memory)" if gpu_builds_it else ""),
    )


def id_dtype(n: int) -> np.dtype:
    """Vertex-id dtype of a generated edge list: int32 while ids fit, else int64."""
    return id_dtype_for(n)


def to_graph(
    src: Any,
    dst: Any,
    weights: Any,
    n: int,
    *,
    directed: bool,
    simple: bool,
    device: str,
):
    """Build the :class:`~warpgraph.Graph` of an edge list on ``device``.

    ``simple=True`` drops self-loops and merges parallel edges (keeping the smallest weight),
    as GAP's builder does; ``simple=False`` keeps the edge list as it is (a multigraph).
    """
    from ..graph import Graph

    return Graph.from_edges(
        src,
        dst,
        weights=weights,
        num_vertices=n,
        directed=directed,
        merge="min" if simple else None,
        remove_self_loops=simple,
        device=device,
    )
