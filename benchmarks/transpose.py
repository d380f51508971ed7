"""Reverse CSR (``Graph.reverse_csr``) speed and device memory: the pass-by-pass transpose
against the previous build (expand every arc's row id, then ``Graph.from_edges`` on the reversed
arcs), on directed Graph500 Kronecker graphs.

Both builds run in one process on the same graph; their arrays must be equal before a time is
reported. GPU: wall time with a device synchronize, median of ``--repeat`` after one warm-up;
``peak_in_use_bytes`` = the most bytes held by live CuPy arrays during one build (the output
included). CPU: the radix transpose behind ``reverse_csr`` on the CPU, the same comparison.

Usage: python benchmarks/transpose.py --scales 20 22 [--device gpu] [--weights gap] [--out FILE]
"""

from __future__ import annotations

import argparse

from _common import gpu_peak, measure, write_json


def _previous(G):
    """The former device/CPU build: every row id at once, then a full ``from_edges`` sort."""
    from warpgraph import Graph

    xp = G._xp()
    rows = xp.searchsorted(G.indptr, xp.arange(G.num_arcs), side="right") - 1
    R = Graph.from_edges(
        G.indices, rows.astype(G.indices.dtype), G.weights, num_vertices=G.num_vertices
    )
    return R.indptr, R.indices, R.weights


def _current(G):
    G._reverse = None  # drop the cache: time the build
    return G.reverse_csr()


def _with_pass(per_pass: int):
    """The pass-by-pass transpose with ``per_pass`` arcs per pass (the default is
    ``ARCS_PER_PASS``)."""
    from warpgraph._arrays import id_dtype_for
    from warpgraph.gpu.transpose import transpose_csr_chunked

    def build(G):
        n = G.num_vertices
        return transpose_csr_chunked(
            G.indptr,
            G.indices,
            n,
            G.weights,
            index_dtype=id_dtype_for(n),
            arcs_per_pass=per_pass,
            xp=G._xp(),
        )

    return build


def _equal(a, b, xp) -> bool:
    return all(
        (x is None and y is None) or bool(xp.array_equal(x, y)) for x, y in zip(a, b, strict=True)
    )


def _one(scale: int, args: argparse.Namespace) -> dict:
    from warpgraph import generators

    G = generators.kronecker(
        scale, args.edgefactor, seed=7, directed=True, weights=args.weights, device=args.device
    )
    row = {"scale": scale, "n": G.num_vertices, "arcs": G.num_arcs, "graph_bytes": int(G.nbytes)}
    row["equal"] = _equal(_current(G), _previous(G), G._xp())
    builds = [("passes", _current), ("previous", _previous)]
    builds += [(f"passes_2^{int(p).bit_length() - 1}", _with_pass(p)) for p in args.per_pass]
    for name, fn in builds:
        row[name] = measure(lambda fn=fn: fn(G), args.device, repeat=args.repeat)
        if args.device == "gpu":
            G._reverse = None
            _, grown, in_use = gpu_peak(lambda fn=fn: fn(G))
            row[name] |= {"peak_in_use_bytes": in_use, "pool_growth_bytes": grown}
    p, q = row["passes"], row["previous"]
    mem = ""
    if args.device == "gpu":
        mem = (
            f"  peak {p['peak_in_use_bytes'] / 2**30:.2f} GiB vs "
            f"{q['peak_in_use_bytes'] / 2**30:.2f} GiB"
        )
    print(
        f"kron {scale}: arcs {G.num_arcs:,}  passes {p['median_s'] * 1e3:.1f} ms, previous "
        f"{q['median_s'] * 1e3:.1f} ms{mem}  equal={row['equal']}",
        flush=True,
    )
    for name, _ in builds[2:]:
        r = row[name]
        peak = (
            f", peak {r['peak_in_use_bytes'] / 2**30:.2f} GiB" if "peak_in_use_bytes" in r else ""
        )
        print(f"    {name}: {r['median_s'] * 1e3:.1f} ms{peak}", flush=True)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scales", type=int, nargs="+", default=[20, 22])
    ap.add_argument("--edgefactor", type=int, default=16)
    ap.add_argument("--device", default="gpu", choices=["cpu", "gpu"])
    ap.add_argument("--weights", default=None, choices=[None, "gap", "graph500"])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument(
        "--per-pass", type=int, nargs="*", default=[], help="also time these arcs-per-pass values"
    )
    ap.add_argument("--out", default=None)
    args = ap.parse_args()

    rows = [_one(scale, args) for scale in args.scales]
    path = write_json(f"transpose_{args.device}", {"args": vars(args), "results": rows}, args.out)
    print(f"wrote {path}")
    if not all(r["equal"] for r in rows):
        raise SystemExit("the two builds disagree")


if __name__ == "__main__":
    main()
