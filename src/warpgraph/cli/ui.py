"""Terminal output shared by the commands: a rich console, progress bars and tables."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)
from rich.table import Table


def _tty() -> bool:
    import sys

    return sys.stdout.isatty()


# Logs and CI output are not terminals: give tables room instead of wrapping at 80 columns.
console = Console(highlight=False, width=None if _tty() else 120)
err_console = Console(stderr=True, highlight=False)


@contextlib.contextmanager
def progress(
    description: str, total: float | None = None, *, bytes_: bool = False, enabled: bool = True
) -> Iterator[Any]:
    """Yield an ``advance(amount)`` callable driving one progress bar (on stderr).

    ``bytes_=True`` shows sizes and MB/s (file reading). Disabled when stderr is not a terminal
    or ``enabled`` is false, so logs and CI output stay clean.
    """
    if not enabled or not err_console.is_terminal:
        yield lambda amount=1: None
        return
    columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn()]
    if bytes_:
        columns += [DownloadColumn(), TransferSpeedColumn()]
    else:
        columns += [TextColumn("{task.completed:.0f}/{task.total:.0f}")]
    columns += [TimeElapsedColumn(), TimeRemainingColumn()]
    with Progress(*columns, console=err_console, transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda amount=1: bar.advance(task, amount)


def load_with_progress(path: str, *, enabled: bool = True, **kwargs: Any):
    """``warpgraph.load(path, **kwargs)`` with a progress display on stderr (terminals only).

    A byte bar follows the reading (and inflating) of the file; then a pulsing bar with the
    elapsed time covers parsing and the CSR build, whose length cannot be known in advance.
    """
    import os  # noqa: PLC0415

    import warpgraph as wg  # noqa: PLC0415

    if not enabled or not err_console.is_terminal:
        return wg.load(path, **kwargs)
    size = os.path.getsize(path) if os.path.exists(path) else None
    columns = [
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeElapsedColumn(),
    ]
    with Progress(*columns, console=err_console, transient=True) as bar:
        reading = bar.add_task(f"reading {os.path.basename(path)}", total=size)
        state: dict[str, Any] = {"parsing": None}

        def report(done: int, total: int) -> None:
            bar.update(reading, completed=done, total=total)
            if done >= total and state["parsing"] is None:
                state["parsing"] = bar.add_task("parsing, building the graph", total=None)

        return wg.load(path, progress=report, **kwargs)


def print_table(title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Print a table with right-aligned numeric columns."""
    table = Table(title=title, title_justify="left")
    for i, col in enumerate(columns):
        table.add_column(col, justify="left" if i == 0 else "right")
    for row in rows:
        table.add_row(*(fmt(x) for x in row))
    console.print(table)


def fmt(x: Any) -> str:
    """Compact human formatting of numbers (3 significant digits for floats)."""
    if isinstance(x, bool) or x is None:
        return "-" if x is None else str(x)
    if isinstance(x, int):
        return f"{x:,}"
    if isinstance(x, float):
        if x == 0:
            return "0"
        if abs(x) >= 1000:
            return f"{x:,.0f}"
        return f"{x:.3g}"
    return str(x)
