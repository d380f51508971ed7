"""Entry point of the ``warpgraph`` command: discovers the ``cmd_*`` modules and dispatches.

Errors that warpgraph raises on purpose (bad files, bad arguments, no GPU) print one clear line
and exit with status 2; anything else is a bug and shows its traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from .. import __version__
from ..errors import WarpgraphError

DESCRIPTION = """\
warpgraph: fast graph analytics on NVIDIA GPUs and multicore CPUs.

Start with `warpgraph demo` (generates a graph, runs every algorithm on the best device,
checks the answers and compares the times with SciPy). `warpgraph COMMAND --help` explains
each command. Set WARPGRAPH_DEVICE=cpu|gpu to pin the device, and --threads N (or
WARPGRAPH_DYNAMIC_THREADS=0 for all of them) to pin the CPU threads, which otherwise drop
while the machine is busy (docs/THREADS.md)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="warpgraph",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"warpgraph {__version__}")
    parser.add_argument(
        "--threads",
        type=int,
        metavar="N",
        help="CPU threads for every call, fixed (default: all, fewer while the machine is busy)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    package = importlib.import_module(__package__)
    for mod in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if mod.name.startswith("cmd_"):
            importlib.import_module(f"{__package__}.{mod.name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 1
    try:
        with fixed_threads(args.threads):
            return int(args.func(args) or 0)
    except WarpgraphError as exc:
        from .ui import err_console

        err_console.print("error:", style="bold red", end=" ")
        err_console.print(str(exc), markup=False)
        return 2
    except OSError as exc:  # missing file, permission denied, disk full: no traceback needed
        from .ui import err_console  # noqa: PLC0415

        err_console.print("error:", style="bold red", end=" ")
        err_console.print(str(exc), markup=False)
        return 2
    except KeyboardInterrupt:
        return 130


@contextmanager
def fixed_threads(count: int | None) -> Iterator[None]:
    """With ``count``: that many Numba threads for the block, whatever the load
    (``DYNAMIC_THREADS`` off); restored after. ``None``: nothing changes."""
    if count is None:
        yield
        return
    import numba

    from ..cpu import threads
    from ..errors import InvalidArgumentError

    most = numba.config.NUMBA_NUM_THREADS
    if not 1 <= count <= most:
        raise InvalidArgumentError(f"--threads must be between 1 and {most}, got {count}")
    before, dynamic = numba.get_num_threads(), threads.DYNAMIC_THREADS
    numba.set_num_threads(count)
    threads.DYNAMIC_THREADS = False
    try:
        yield
    finally:
        numba.set_num_threads(before)
        threads.DYNAMIC_THREADS = dynamic


if __name__ == "__main__":
    sys.exit(main())
