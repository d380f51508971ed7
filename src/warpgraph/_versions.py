"""The ``(major, minor)`` of an installed library, for the few rules of NetworkX and SciPy
that warpgraph follows per version (see ``docs/NETWORKX.md`` and ``docs/CSGRAPH.md``)."""

from __future__ import annotations

import functools
import importlib
import re

__all__ = ["major_minor"]


@functools.cache
def major_minor(module: str) -> tuple[int, int]:
    """``(major, minor)`` of the installed ``module`` (``(99, 0)`` when unreadable: newest).

    Examples
    --------
    >>> major_minor("numpy") >= (1, 0)
    True
    """
    found = re.match(r"(\d+)\.(\d+)", importlib.import_module(module).__version__)
    return (int(found[1]), int(found[2])) if found else (99, 0)
