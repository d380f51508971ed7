"""The registry of benchmarkable algorithms and of the peer libraries that run them too.

An **algorithm adapter** tells the harness how to run one warpgraph algorithm:

* ``run(state, source, device, config)`` runs it once and is the only timed call. ``state`` is
  what ``prepare(graph, device, config)`` returned (by default the graph itself on ``device``);
  ``source`` is a vertex for traversals and ``None`` otherwise; ``config`` is a dict of keyword
  arguments from ``--config``. It returns the result, or an :class:`Outcome` when it also knows
  its work count.
* ``work`` says how much work a run did, for TEPS: ``"traversal"`` (the edges of the part of the
  graph reachable from the source, an undirected edge once, as Graph500 and GAP count),
  ``"graph"`` (every edge once), or a callable ``work(info, source, result) -> {"edges", "arcs"}``.
* ``verify(info, source, result)`` (optional) raises :class:`~warpgraph.errors.VerificationError`
  when the result is wrong; the harness calls it outside the timed region.

A **peer adapter** runs the same algorithm in another library (SciPy, NetworkX, igraph,
NetworKit): ``prepare(cpu_graph)`` converts the graph (untimed), ``run(native, source)`` is
timed. ``available()`` returns ``None`` or the reason the peer cannot run (not installed), and
``max_arcs`` guards slow peers against large graphs.

Algorithm families register themselves: the harness imports every module
``warpgraph.algorithms.<family>.bench`` that exists, and each calls :func:`register_algorithm`
and :func:`register_peer` at import time. The built-in adapters are in
:mod:`warpgraph.bench.adapters`.

Examples
--------
>>> reg = Registry()
>>> _ = reg.add_algorithm(Algorithm("nop", run=lambda g, s, d, c: None, work="graph"))
>>> sorted(reg.algorithms)
['nop']
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidArgumentError

__all__ = [
    "REGISTRY",
    "Algorithm",
    "Outcome",
    "Peer",
    "Registry",
    "get_registry",
    "register_algorithm",
    "register_peer",
]


@dataclass
class Outcome:
    """A run's result together with its work count (``{"edges": ..., "arcs": ...}``)."""

    result: Any
    work: dict[str, int] | None = None


def _always() -> str | None:
    return None


@dataclass
class Algorithm:
    """How to run and check one warpgraph algorithm (see the module docstring)."""

    name: str
    run: Callable[[Any, int | None, str, dict], Any]
    work: str | Callable[..., dict[str, int]] = "traversal"
    sources: bool = True
    prepare: Callable[[Any, str, dict], Any] | None = None
    verify: Callable[[Any, int | None, Any], None] | None = None
    weights: str | None = None  # "gap" or "graph500": unweighted graphs get such weights
    devices: tuple[str, ...] = ("cpu", "gpu")
    available: Callable[[], str | None] = _always
    gapbs_kernel: str | None = None  # name of the GAPBS binary that runs the same kernel
    description: str = ""

    def __post_init__(self):
        if not (self.work in ("traversal", "graph") or callable(self.work)):
            raise InvalidArgumentError(
                f"work must be 'traversal', 'graph' or a callable, got {self.work!r}"
            )


@dataclass
class Peer:
    """How another library runs the same algorithm (see the module docstring)."""

    system: str
    algorithm: str
    prepare: Callable[[Any], Any]
    run: Callable[[Any, int | None], Any]
    available: Callable[[], str | None] = _always
    version: Callable[[], str | None] = lambda: None
    max_arcs: int | None = None
    description: str = ""


@dataclass
class Registry:
    """Algorithms by name, and for each the peers that run it."""

    algorithms: dict[str, Algorithm] = field(default_factory=dict)
    peers: dict[str, dict[str, Peer]] = field(default_factory=dict)

    def add_algorithm(self, algorithm: Algorithm) -> Algorithm:
        self.algorithms[algorithm.name] = algorithm
        return algorithm

    def add_peer(self, peer: Peer) -> Peer:
        self.peers.setdefault(peer.algorithm, {})[peer.system] = peer
        return peer

    def algorithm(self, name: str) -> Algorithm:
        """The adapter called ``name``, or a clear error listing the known ones."""
        try:
            return self.algorithms[name]
        except KeyError:
            raise InvalidArgumentError(
                f"unknown algorithm {name!r}; known: {', '.join(sorted(self.algorithms))}"
            ) from None

    def peers_of(self, name: str) -> dict[str, Peer]:
        return dict(self.peers.get(name, {}))


REGISTRY = Registry()
_discovered = False


def register_algorithm(name: str, run: Callable, **kwargs: Any) -> Algorithm:
    """Add (or replace) an algorithm adapter in the global registry.

    Parameters
    ----------
    name : str
        Name used on the command line (``warpgraph bench -a NAME``).
    run : callable
        ``run(state, source, device, config) -> result or Outcome``.
    **kwargs
        Other :class:`Algorithm` fields (``work``, ``sources``, ``prepare``, ``verify``,
        ``weights``, ``devices``, ``available``, ``gapbs_kernel``, ``description``).
    """
    return REGISTRY.add_algorithm(Algorithm(name, run, **kwargs))


def register_peer(system: str, algorithm: str, prepare: Callable, run: Callable, **kwargs) -> Peer:
    """Add (or replace) a peer adapter in the global registry (fields as in :class:`Peer`)."""
    return REGISTRY.add_peer(Peer(system, algorithm, prepare, run, **kwargs))


def get_registry() -> Registry:
    """The global registry, after importing the built-in and the per-family adapters once."""
    global _discovered
    if not _discovered:
        _discovered = True
        importlib.import_module(".adapters", __package__)
        try:
            algorithms = importlib.import_module("warpgraph.algorithms")
        except ImportError:
            algorithms = None
        for mod in pkgutil.iter_modules(getattr(algorithms, "__path__", [])):
            name = f"warpgraph.algorithms.{mod.name}.bench"
            if mod.ispkg and importlib.util.find_spec(name) is not None:
                importlib.import_module(name)  # a broken adapter module fails loudly
    return REGISTRY
