"""Strategy options of the GPU frontier operators (Helix's feature dimensions, SC/TPDS 2017-18).

One :class:`TraversalOptions` selects, per call, how ``advance`` expands a frontier and how the
next frontier is built. Every field may be ``None`` ("choose for me"); :meth:`resolved` fills
the blanks with defaults, and the algorithms fill them from graph statistics first (see
``warpgraph.algorithms.bfs.config``). The integer codes are those of
``gpu/kernels/frontier_core.cuh``.

========================  ===================================================================
field                     values
========================  ===================================================================
``load_balance``          ``node1``, ``node4`` (a group of 1 or 4 threads per frontier vertex),
                          ``node16``, ``node32`` (groups of 16/32 fed by warp shuffles),
                          ``warp-scan`` (warp prefix sum, edges staged in shared memory),
                          ``warp-search`` (BFS-4K edge-discover: shuffle binary search),
                          ``block-search`` (block prefix sum + binary search in shared memory),
                          ``bins`` (Enterprise degree classes: thread/warp/block/grid queues),
                          ``merge-path`` (device-wide equal edge chunks, Multi-Phase search;
                          level-synchronous mode only)
``gather``                ``none``, ``warp`` (degree >= 32 expanded by the whole warp),
                          ``block`` (degree >= block size by the whole block, then warp)
``frontier``              ``vertex`` (vertex queue), ``edge`` (edge queue + filter, level mode)
``update``                ``ballot`` (warp ballot/scan, one atomic per warp step),
                          ``local`` (per-thread register queues, flushed by warp),
                          ``status`` (Enterprise: no queue writes; the next queue is generated
                          from the status array, sorted, without atomics)
``dedup``                 ``none`` (benign races; duplicates possible), ``warp-hash`` /
                          ``block-hash`` (BFS-4K shared-memory hash), ``cas`` (atomicCAS)
``status``                ``array`` (int32 levels), ``bitmask`` (8-bit visited bitmask first)
``sync``                  ``level`` (one launch per level, host loop), ``persistent`` (one
                          cooperative kernel with grid-wide barriers)
``blocks_per_sm``         blocks per SM of the persistent kernel (``None``: all that fit)
========================  ===================================================================

Examples
--------
>>> opts = TraversalOptions(load_balance="warp-search", dedup="cas")
>>> opts.resolved().sync
'persistent'
>>> opts.resolved().codes()["load_balance"]
5
>>> TraversalOptions(load_balance="node8")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
warpgraph.errors.InvalidArgumentError: load_balance must be one of node1, node4, ...
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ...errors import InvalidArgumentError

__all__ = ["CHOICES", "DEFAULTS", "TraversalOptions"]

CHOICES: dict[str, tuple[str, ...]] = {
    "load_balance": (
        "node1",
        "node4",
        "node16",
        "node32",
        "warp-scan",
        "warp-search",
        "block-search",
        "bins",
        "merge-path",
    ),
    "gather": ("none", "warp", "block"),
    "frontier": ("vertex", "edge"),
    "update": ("ballot", "local", "status"),
    "dedup": ("none", "warp-hash", "block-hash", "cas"),
    "status": ("array", "bitmask"),
    "sync": ("level", "persistent"),
}
"""Allowed values of each strategy field; a value's index is its code in the kernels."""

DEFAULTS: dict[str, Any] = {
    "load_balance": "warp-search",
    "gather": "block",
    "frontier": "vertex",
    "update": "ballot",
    "dedup": "cas",
    "status": "array",
    "sync": "persistent",
    "blocks_per_sm": None,
}

LEVEL_ONLY_LOAD_BALANCE = ("merge-path",)


@dataclass(frozen=True)
class TraversalOptions:
    """Strategy of the frontier operators; ``None`` fields are chosen automatically."""

    load_balance: str | None = None
    gather: str | None = None
    frontier: str | None = None
    update: str | None = None
    dedup: str | None = None
    status: str | None = None
    sync: str | None = None
    blocks_per_sm: int | None = None

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, str):
                value = value.replace("_", "-").lower()
                object.__setattr__(self, name, value)
            if value not in allowed:
                raise InvalidArgumentError(
                    f"{name} must be one of {', '.join(allowed)} (or None for automatic), "
                    f"got {value!r}"
                )
        b = self.blocks_per_sm
        if b is not None and (isinstance(b, bool) or not isinstance(b, int) or not 1 <= b <= 32):
            raise InvalidArgumentError(
                f"blocks_per_sm must be an int in [1, 32] or None, got {b!r}"
            )
        self._check_combination()

    def _check_combination(self) -> None:
        level_only = []
        if self.load_balance in LEVEL_ONLY_LOAD_BALANCE:
            level_only.append(f"load_balance={self.load_balance!r}")
        if self.frontier == "edge":
            level_only.append("frontier='edge'")
        if level_only and self.sync == "persistent":
            raise InvalidArgumentError(
                f"{' and '.join(level_only)} needs sync='level' (a host step between levels), "
                "not sync='persistent'"
            )
        if self.load_balance == "bins" and self.update == "local":
            raise InvalidArgumentError(
                "load_balance='bins' writes its degree-class queues with update='ballot' or "
                "'status', not 'local'"
            )

    # ------------------------------------------------------------------ helpers
    @classmethod
    def fields(cls) -> tuple[str, ...]:
        """Names of the option fields."""
        return tuple(f.name for f in dataclasses.fields(cls))

    def replace(self, **changes: Any) -> TraversalOptions:
        """A copy with some fields changed (validated again)."""
        return dataclasses.replace(self, **changes)

    def resolved(self) -> TraversalOptions:
        """A copy with every ``None`` strategy replaced by its default (see :data:`DEFAULTS`).

        Defaults that cannot combine with the fields set explicitly are adjusted: level-only
        strategies get ``sync='level'``.
        """
        values = {k: (v if v is not None else DEFAULTS[k]) for k, v in self.as_dict().items()}
        needs_level = (
            values["load_balance"] in LEVEL_ONLY_LOAD_BALANCE or values["frontier"] == "edge"
        )
        if needs_level and self.sync is None:
            values["sync"] = "level"
        if values["load_balance"] == "bins" and values["update"] == "local" and self.update is None:
            values["update"] = "ballot"
        return TraversalOptions(**values)

    def as_dict(self) -> dict[str, Any]:
        """The fields as a plain dict (JSON-ready)."""
        return dataclasses.asdict(self)

    def codes(self) -> dict[str, int]:
        """Integer code of every strategy field (its index in :data:`CHOICES`); needs no None."""
        out = {}
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if value is None:
                raise InvalidArgumentError(f"{name} is not resolved (call .resolved() first)")
            out[name] = allowed.index(value)
        return out

    def __str__(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.as_dict().items() if v is not None)
