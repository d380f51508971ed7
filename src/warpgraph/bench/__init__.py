"""Benchmarking: the harness, Graph500 / GreenGraph500 runs, energy measurement and reports.

* :func:`run_plan` / :class:`BenchPlan` - algorithms x graphs x devices x configurations x peers,
  results as JSON lines (``warpgraph bench``);
* :func:`run_graph500` - the Graph500 benchmark with full validation and GreenGraph500 energy
  figures (``warpgraph graph500``);
* :func:`write_report` - Markdown tables and plots from result files (``warpgraph report``);
* :class:`EnergySampler` - NVML (GPU) and RAPL (CPU) energy around a region of code;
* :func:`register_algorithm`, :func:`register_peer` - how algorithm families plug in.

``docs/BENCHMARKING.md`` explains the method (what is timed, how edges are counted).

Examples
--------
>>> from warpgraph.bench import graph500_statistics
>>> graph500_statistics([1.0, 3.0])["median"]
2.0
"""

from __future__ import annotations

import importlib

__all__ = [
    "BenchPlan",
    "EnergySampler",
    "Graph500ValidationError",
    "graph500_statistics",
    "register_algorithm",
    "register_peer",
    "run_graph500",
    "run_plan",
    "teps_statistics",
    "validate_bfs_tree",
    "validate_sssp_tree",
    "write_report",
]

_WHERE = {
    "BenchPlan": "harness",
    "run_plan": "harness",
    "EnergySampler": "energy",
    "Graph500ValidationError": "graph500_validate",
    "validate_bfs_tree": "graph500_validate",
    "validate_sssp_tree": "graph500_validate",
    "graph500_statistics": "summary",
    "teps_statistics": "summary",
    "register_algorithm": "registry",
    "register_peer": "registry",
    "run_graph500": "graph500",
    "write_report": "report",
}


def __getattr__(name: str):
    if name in _WHERE:
        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module 'warpgraph.bench' has no attribute {name!r}")
