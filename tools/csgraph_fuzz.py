#!/usr/bin/env python3
"""Fuzz ``warpgraph.csgraph`` against ``scipy.sparse.csgraph`` (the oracle), on either device.

Every function, on random graphs of 1-30 nodes in five input forms (CSR, COO, CSC, LIL,
dense; with ``--device gpu`` also CuPy CSR and CuPy dense, whose results must come back as
CuPy arrays), with and without a negative weight, both ``directed`` values, several ``indices``,
every shortest-path method, ``limit`` and ``min_only``. A call agrees when both raise (ours an
instance of SciPy's exception class) or both answer the same arrays. Distances are compared
where predecessors may name another of several shortest paths (documented in
``docs/CSGRAPH.md``); BFS order, predecessors and component labels must be equal.

Left out, because SciPy itself does not answer: its Dijkstra on a negative weight (it may not
terminate; compared with its Bellman-Ford instead), ``limit``/``min_only`` on negative
weights, and two known refusals of SciPy's that warpgraph answers (a COO matrix for
Floyd-Warshall, a negative ``i_start``), counted apart.

Usage: ``python tools/csgraph_fuzz.py [--seed S] [--device cpu|gpu] [--seconds T]`` (6 s on 2
cores once Numba's cache is warm, about a minute with ``--device gpu``; ``--seconds`` starts no
new graph after T); exits 1 when a call disagrees and prints the first 40.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as scipy_cg

from warpgraph import csgraph as wg_cg

FORMS = ("csr", "coo", "dense", "csc", "lil")
#: With ``--device gpu`` also CuPy input (SciPy gets the same matrix as CSR or NumPy array);
#: the results must come back as CuPy arrays.
CUPY_FORMS = ("cupy_csr", "cupy_dense")


def graphs(rng: np.random.Generator, forms: tuple = FORMS) -> Iterator[tuple[tuple, Any]]:
    """``(key, matrix)`` for every size, density, sign and form."""
    for n in (1, 2, 5, 30):
        for density in (0.0, 0.1, 0.5):
            for negative in (False, True):
                for form in forms:
                    seed = int(rng.integers(2**31))
                    m = sp.random(n, n, density=density, format="csr", random_state=seed)
                    m.data = rng.integers(1, 10, m.nnz).astype(float)
                    if negative and m.nnz:
                        m.data[rng.integers(0, m.nnz)] *= -1
                    dense = form in ("dense", "cupy_dense")
                    matrix = m.toarray() if dense else m.asformat(form.removeprefix("cupy_"))
                    yield (n, density, negative, form), matrix


def same(a: Any, b: Any) -> bool:
    """Equal arrays (NaN equal to NaN), of the same shape and kind, in equal tuples."""
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(map(same, a, b))
    b = _host(b)
    if sp.issparse(a) or sp.issparse(b):  # a tree: the stored entries (explicit zeros too)
        if not (sp.issparse(a) and sp.issparse(b)) or a.nnz != b.nnz or a.dtype != b.dtype:
            return False
        a, b = sp.csr_array(a), sp.csr_array(b)
        a.sort_indices()
        b.sort_indices()
        parts = ((a.indptr, b.indptr), (a.indices, b.indices), (a.data, b.data))
        return all(np.array_equal(x, y) for x, y in parts)
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype.kind == b.dtype.kind and np.array_equal(a, b, True)


def _host(x: Any) -> Any:
    return x.get() if type(x).__module__.startswith("cupy") else x


def _on_gpu(matrix: Any) -> Any:
    """The CuPy form of a SciPy CSR matrix or NumPy array."""
    import cupy
    from cupyx.scipy import sparse as csp

    return csp.csr_matrix(matrix) if sp.issparse(matrix) else cupy.asarray(matrix)


def _all_cupy(result: Any) -> bool:
    if isinstance(result, tuple):
        return all(map(_all_cupy, result))
    return isinstance(result, int) or type(result).__module__.startswith("cupy")


class Tally:
    """The calls made, the known refusals of SciPy's and every disagreement."""

    def __init__(self, device: str = "cpu") -> None:
        self.device = device
        self.calls = self.known = 0
        self.disagree: list[str] = []
        self.stopped_early = False

    def check(self, ours: Callable, theirs: Callable, key: tuple, *args: Any, **kw: Any) -> None:
        """``ours(*args, **kw, device=self.device)`` against ``theirs(*args, **kw)``."""
        name = ours.__name__
        self.calls += 1
        want = _outcome(theirs, args, kw)
        on_gpu = key[3].startswith("cupy")
        mine = (_on_gpu(args[0]), *args[1:]) if on_gpu else args
        got = _outcome(ours, mine, {**kw, "device": self.device})
        if on_gpu and got[0] == "ok" and not _all_cupy(got[1]):
            self.disagree.append(f"{name} {key} {kw}: CuPy input, result not all CuPy arrays")
            return
        if want[0] == "raised" and _known_refusal(name, key, want[1]):
            self.known += 1
            return
        if want[0] == got[0] == "ok":
            w, g = want[1], got[1]
            several = ("dijkstra", "bellman_ford", "shortest_path", "floyd_warshall")
            if name in several and isinstance(w, tuple):
                w, g = w[0], g[0]  # predecessors (and sources): any shortest path's
            if same(w, g):
                return
        elif want[0] == got[0] == "raised" and isinstance(got[1], type(want[1])):
            return
        self.disagree.append(f"{name} {key} {kw}: SciPy {_said(want)}, warpgraph {_said(got)}")


def _outcome(f: Callable, args: tuple, kw: dict) -> tuple[str, Any]:
    try:
        return "ok", f(*args, **kw)
    except Exception as exc:  # noqa: BLE001 - an exception is an answer to compare
        return "raised", exc


def _known_refusal(name: str, key: tuple, exc: BaseException) -> bool:
    """SciPy refuses and warpgraph answers (documented in docs/CSGRAPH.md)."""
    if name.startswith("breadth_first") and isinstance(exc, OverflowError):
        return True  # a negative i_start: ours raises InvalidArgumentError
    fw = ("shortest_path", "floyd_warshall")
    return name in fw and key[3] == "coo" and "csr, or csc" in str(exc)


def _said(outcome: tuple) -> str:
    return "answered" if outcome[0] == "ok" else f"raised {type(outcome[1]).__name__}"


def run(seed: int, device: str = "cpu", seconds: float | None = None) -> Tally:
    """Every call on every graph of :func:`graphs`, or those begun within ``seconds``."""
    tally = Tally(device)
    forms = FORMS + CUPY_FORMS if device == "gpu" else FORMS
    stop = None if seconds is None else time.monotonic() + seconds
    for key, g in graphs(np.random.default_rng(seed), forms):
        if stop is not None and time.monotonic() > stop:
            tally.stopped_early = True
            break
        n, negative = key[0], key[2]
        for directed in (True, False):
            for conn in ("weak", "strong"):
                tally.check(wg_cg.connected_components, scipy_cg.connected_components, key,
                            g, directed, conn)  # fmt: skip
            for start in (0, -1, n - 1):
                tally.check(wg_cg.breadth_first_order, scipy_cg.breadth_first_order, key,
                            g, start, directed)  # fmt: skip
                tally.check(wg_cg.breadth_first_tree, scipy_cg.breadth_first_tree, key,
                            g, start, directed)  # fmt: skip
            for pred in (False, True):
                for unweighted in (False, True):
                    tally.check(wg_cg.floyd_warshall, scipy_cg.floyd_warshall, key, g,
                                directed=directed, return_predecessors=pred,
                                unweighted=unweighted)  # fmt: skip
            for idx in (None, 0, [0, n - 1], -1):
                for pred in (False, True):
                    for unweighted in (False, True):
                        kw = {"directed": directed, "indices": idx, "unweighted": unweighted,
                              "return_predecessors": pred}  # fmt: skip
                        # (SciPy's Dijkstra may not terminate on a negative weight)
                        oracle = scipy_cg.bellman_ford if negative else scipy_cg.dijkstra
                        tally.check(wg_cg.dijkstra, oracle, key, g, **kw)
                        tally.check(wg_cg.bellman_ford, scipy_cg.bellman_ford, key, g, **kw)
                for limit in (np.inf, 5.0):
                    for min_only in (False, True):
                        if negative or (min_only and idx is None):
                            continue
                        tally.check(wg_cg.dijkstra, scipy_cg.dijkstra, key, g, directed=directed,
                                    indices=idx, limit=limit, min_only=min_only,
                                    return_predecessors=True)  # fmt: skip
                methods = ("auto", "BF", "FW", "J") if negative else ("auto", "D", "BF", "FW", "J")
                for method in methods:
                    tally.check(wg_cg.shortest_path, scipy_cg.shortest_path, key, g,
                                method=method, directed=directed, indices=idx)  # fmt: skip
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", choices=("cpu", "gpu"), default="cpu")
    parser.add_argument("--seconds", type=float, help="start no new graph after this long")
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # (SciPy's and ours: Dijkstra on negative weights)
    tally = run(args.seed, args.device, args.seconds)
    early = " (stopped at --seconds)" if tally.stopped_early else ""
    print(
        f"{tally.calls} calls: {len(tally.disagree)} disagree, {tally.known} known refusals{early}"
    )
    for line in tally.disagree[:40]:
        print("  " + line)
    return 1 if tally.disagree else 0


if __name__ == "__main__":
    sys.exit(main())
