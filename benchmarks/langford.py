"""Langford L(2,n) benchmark: Godfrey and Miller on the CPU, the GPU, or both.

Runs each (n, method, device) once after a warm-up that compiles the kernels (the compile and
task-generation time is recorded separately as setup), checks the count against OEIS A014552,
and writes ``benchmarks/results/langford_<tag>.json`` plus a printed table. With ``--sample F``
only a random fraction F of the tasks is run and the full time is extrapolated (Godfrey tasks
are equal in size, so the estimate is tight; Miller tasks are not, so it is rougher); such rows
are marked "estimate" and their count is not checked.

Usage::

    python benchmarks/langford.py --n 15 16 --method godfrey miller --device cpu
    python benchmarks/langford.py --n 19 20 --device gpu --tag h100
    python benchmarks/langford.py --n 23 --device gpu --sample 0.05 --tag h100

The seed's numbers to beat for L(2,19) (Table 1.2): 13,960.8 s (regularized Miller, 40
CPU+GPU machines) and 803.5 s (backtracking Miller, 258 machines).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import write_json  # noqa: E402

SEED_L19 = {"regularized, 40 machines": 13960.8, "backtracking, 258 machines": 803.5}


def run_one(n: int, method: str, device: str, sample: float | None, tasks: int | None) -> dict:
    import warpgraph.langford as lf
    from warpgraph.langford import api
    from warpgraph.langford.runner import Job, run_job

    if sample is None:
        res = lf.solve(n, method=method, device=device, tasks=tasks)
        shares = res.shares()
        return {
            "n": n,
            "method": method,
            "device": device,
            "count": str(res.count),
            "correct": res.count == lf.KNOWN_COUNTS[n],
            "seconds": res.seconds,
            "setup_seconds": res.setup_seconds,
            "num_tasks": res.num_tasks,
            "estimate": False,
            "devices": {
                d: {"tasks": s.tasks, "busy_s": s.seconds, "share": shares[d]}
                for d, s in res.devices.items()
            },
        }
    devices = api._devices(device, method)
    build = api._godfrey_job if method == "godfrey" else api._miller_job
    t0 = time.perf_counter()
    job, _finish, prepare = build(n, tasks, devices)
    prepare()
    setup = time.perf_counter() - t0
    k = max(1, round(sample * job.num_tasks))
    rng = random.Random(12345)
    picked = sorted(rng.sample(range(job.num_tasks), k))
    if method == "godfrey":  # equal tasks: a contiguous block keeps GPU launches large
        start = rng.randrange(job.num_tasks - k + 1)
        picked = list(range(start, start + k))
    sub = Job(
        name=job.name + " sample",
        num_tasks=k,
        compute={d: (lambda ids, f=f: f([picked[i] for i in ids])) for d, f in job.compute.items()},
        cpu_batch=job.cpu_batch,
        gpu_first_batch=job.gpu_first_batch,
    )
    stats = run_job(sub, devices)
    total_tasks = job.num_tasks
    return {
        "n": n,
        "method": method,
        "device": device,
        "count": None,
        "correct": None,
        "seconds": stats.seconds * total_tasks / k,
        "measured_seconds": stats.seconds,
        "sampled_tasks": k,
        "setup_seconds": setup,
        "num_tasks": total_tasks,
        "estimate": True,
        "devices": {
            d: {"tasks": s.tasks, "busy_s": s.seconds, "share": s.tasks / k}
            for d, s in stats.devices.items()
        },
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, nargs="+", default=[15, 16])
    ap.add_argument("--method", nargs="+", default=["godfrey"], choices=["godfrey", "miller"])
    ap.add_argument("--device", nargs="+", default=["auto"])
    ap.add_argument("--tasks", type=int, default=None)
    ap.add_argument("--sample", type=float, default=None, help="run this fraction of the tasks")
    ap.add_argument("--tag", default=None, help="result file suffix (default: the device)")
    ap.add_argument("--out", default=None, help="JSON path (default benchmarks/results/...)")
    args = ap.parse_args(argv)

    rows = []
    for device in args.device:
        for method in args.method:
            for n in args.n:
                r = run_one(n, method, device, args.sample, args.tasks)
                rows.append(r)
                shares = ", ".join(f"{d} {100 * v['share']:.1f}%" for d, v in r["devices"].items())
                flag = "estimate" if r["estimate"] else ("ok" if r["correct"] else "WRONG")
                print(
                    f"L(2,{n:2d}) {method:8s} {device:6s} {r['seconds']:12.3f} s "
                    f"(setup {r['setup_seconds']:.2f} s) tasks {r['num_tasks']:7d} "
                    f"[{shares}] {flag}",
                    flush=True,
                )
    tag = args.tag or "_".join(args.device)
    payload = {"rows": rows, "seed_l19_seconds": SEED_L19, "argv": sys.argv[1:]}
    try:
        path = write_json(f"langford_{tag}", payload, args.out)
    except ImportError as exc:  # a machine without SciPy: keep the rows, note what is missing
        import json

        path = (
            Path(args.out) if args.out else Path(__file__).parent / f"results/langford_{tag}.json"
        )
        payload["environment"] = {"error": str(exc), "date": time.strftime("%Y-%m-%d %H:%M:%S")}
        path.write_text(json.dumps(payload, indent=2) + "\n")
    print(f"wrote {path}")
    return 0 if all(r["correct"] is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
