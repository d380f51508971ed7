"""Entry point of the ``warpgraph`` command: discovers the ``cmd_*`` modules and dispatches.

Errors that warpgraph raises on purpose (bad files, bad arguments, no GPU) print one clear line
and exit with status 2; anything else is a bug and shows its traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from .. import __version__
from ..errors import WarpgraphError

DESCRIPTION = """\
warpgraph: fast graph analytics on NVIDIA GPUs and multicore CPUs.

Start with `warpgraph demo` (generates a graph, runs every algorithm on the best device,
checks the answers and compares the times with SciPy). `warpgraph COMMAND --help` explains
each command. Set WARPGRAPH_DEVICE=cpu|gpu to pin the device."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="warpgraph",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"warpgraph {__version__}")
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


if __name__ == "__main__":
    sys.exit(main())
