"""``warpgraph langford N``: count Langford pairings L(2,N) (Godfrey or Miller, CPU and/or GPU)."""

from __future__ import annotations

import argparse
import contextlib
import json
import threading
from collections.abc import Callable, Iterator

from .ui import console, err_console, print_table


@contextlib.contextmanager
def _task_bar(description: str, enabled: bool) -> Iterator[Callable[[int, int], None]]:
    """A progress bar over tasks whose total is learnt from the first callback (on stderr)."""
    if not enabled or not err_console.is_terminal:
        yield lambda done, total: None
        return
    from rich.progress import (
        BarColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    lock = threading.Lock()
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:.0f}/{task.total:.0f} tasks"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console,
        transient=True,
    ) as bar:
        task = bar.add_task(description, total=1)

        def update(done: int, total: int) -> None:
            with lock:
                bar.update(task, completed=done, total=total)

        yield update


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "langford",
        help="count Langford pairings L(2,N) (Godfrey's algebraic method or Miller's search)",
        description="Counts L(2,N), the Langford pairings of N pairs up to reversal (OEIS "
        "A014552), with Godfrey's algebraic method (sum over {-1,1}^2N in Gray-code order, exact "
        "integers; default) or Miller's bit-mask backtracking. The work is split into independent "
        "tasks shared dynamically between the GPU and the CPU cores; prints the count, the time, "
        "the number of tasks and the share done by each device. With --checkpoint the finished "
        "tasks are saved as the run goes (stop with Ctrl-C, run again to resume).",
    )
    p.add_argument("n", type=int, help="number of pairs (1..24; N = 1, 2 mod 4 gives 0 at once)")
    p.add_argument("--method", default="godfrey", choices=["godfrey", "miller"])
    p.add_argument(
        "--device",
        default="auto",
        choices=["auto", "cpu", "gpu", "hybrid"],
        help="auto: GPU + CPU when a GPU is usable, else CPU (default)",
    )
    p.add_argument("--tasks", type=int, default=None, help="number of tasks (default: by N)")
    p.add_argument("--checkpoint", default=None, help="file of finished tasks (resume from it)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--check", action="store_true", help="exit 1 unless the count is the known one")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..langford import KNOWN_COUNTS, solve

    with _task_bar(f"L(2,{args.n}) {args.method}", not args.json) as on_progress:
        res = solve(
            args.n,
            method=args.method,
            device=args.device,
            tasks=args.tasks,
            checkpoint=args.checkpoint,
            on_progress=on_progress,
        )
    known = KNOWN_COUNTS.get(args.n)
    ok = known is None or known == res.count
    shares = res.shares()
    if args.json:
        doc = {
            "n": res.n,
            "method": res.method,
            "count": str(res.count),
            "known": None if known is None else str(known),
            "seconds": res.seconds,
            "setup_seconds": res.setup_seconds,
            "num_tasks": res.num_tasks,
            "resumed_tasks": res.resumed_tasks,
            "devices": {
                d: {"tasks": s.tasks, "seconds": s.seconds, "share": shares[d]}
                for d, s in res.devices.items()
            },
        }
        console.print_json(json.dumps(doc))
    else:
        console.print(f"L(2,{res.n}) = {res.count:,}" + ("" if ok else "  [bold red]WRONG[/]"))
        console.print(
            f"{res.method}: {res.seconds:.3f} s counting (+{res.setup_seconds:.2f} s setup), "
            f"{res.num_tasks:,} tasks"
            + (f", {res.resumed_tasks:,} resumed" if res.resumed_tasks else "")
        )
        if res.devices:
            rows = [
                (d, s.tasks, f"{100 * shares[d]:.1f}%", s.seconds, s.batches)
                for d, s in res.devices.items()
            ]
            print_table("work by device", ["device", "tasks", "share", "busy s", "batches"], rows)
    if args.check and not ok:
        return 1
    return 0
